"""Counts made of counts (`half ... rounded up`), thresholds on a count, and held tokens
given back to the supply (`return half your X tokens rounded up`)."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.context import Ctx
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import Game

PACK = """pack p { version "1" }
card Burgle { starting 10; play: +1 skill }
token Relic { artifact; points 5 }
token Hex { count 20; points -2 }
card Cleanse { cost 1; play: return half your Hex tokens rounded up }
card Sweep { cost 1; play: return 2 Hex tokens you hold }
card Dread {
  cost 1
  play: if you have 3 or more Hex tokens (+2 skill),
    +1 gold per half your Hex tokens
}
board b {
  space HQ { hq }
  space Grove { artifact 5 }
  path HQ -- Grove
}
"""


def _setup(hexes: int) -> tuple[Game, dict[str, list]]:
    result = compile_text(PACK, "p.clank")
    assert result.ok, result.diagnostics
    cat = prepare(result.ir)
    game = Game(cat, [make_bot("random", 1), make_bot("random", 2)], 3)
    hex_token = next(t for t in cat.tokens if t.name == "Hex")
    for _ in range(hexes):
        game.take_token(game.players[0], "Hex")
    assert game.token_supply[hex_token] == 20 - hexes
    lines = {c.name: c.play[0][1] for c in cat.adventure}
    return game, lines


def _hexes(game: Game) -> int:
    return sum(1 for t in game.players[0].tokens if t.name == "Hex")


def test_half_rounded_up_goes_back_to_the_supply() -> None:
    for held, left in ((3, 1), (4, 2), (1, 0), (0, 0)):
        game, lines = _setup(held)
        game.run(Ctx(game.players[0], None), lines["Cleanse"])
        assert _hexes(game) == left
        hex_token = next(t for t in game.catalog.tokens if t.name == "Hex")
        assert game.token_supply[hex_token] == 20 - left


def test_a_number_of_held_tokens_goes_back_as_many_as_held() -> None:
    game, lines = _setup(1)
    game.run(Ctx(game.players[0], None), lines["Sweep"])
    assert _hexes(game) == 0


def test_a_threshold_and_half_rounded_down() -> None:
    game, lines = _setup(3)
    p = game.players[0]
    game.run(Ctx(p, None), lines["Dread"])
    assert (p.skill, p.gold) == (2, 1)
    game, lines = _setup(2)
    p = game.players[0]
    game.run(Ctx(p, None), lines["Dread"])
    assert (p.skill, p.gold) == (0, 1)


def test_returning_a_count_that_counts_no_held_token_is_a_diagnostic() -> None:
    got = compile_text(PACK + "card X { cost 1; play: return half your Hax tokens }\n", "p.clank")
    (d,) = got.diagnostics
    assert d.code == "CW107" and d.hint == 'did you mean "hex"?' and d.span.line == 17
    got = compile_text(PACK + "card X { cost 1; play: return half Burgle you own }\n", "p.clank")
    (d,) = got.diagnostics
    assert d.code == "CW105" and "does not count tokens you hold" in d.message


def test_card_text_of_a_count_returned_and_a_threshold() -> None:
    ir = compile_text(PACK, "p.clank").ir
    text = {c["name"]: render_effects(c["triggers"][0]["effects"]) for c in ir["cards"]}
    assert text["Cleanse"] == "return half (rounded up) of Hex token you hold to the supply"
    assert text["Sweep"] == "return 2 Hex you hold to the supply"
    assert text["Dread"].startswith("if 3 or more Hex token you hold: +2 Skill")


def test_a_comma_before_the_rounding_reads_as_written_without_it() -> None:
    def line(effects: str) -> list:
        src = PACK + f"card X {{ cost 1; play: {effects} }}\n"
        got = compile_text(src, "p.clank")
        assert got.ok, got.diagnostics
        return [dict(n, at=None) for n in got.ir["cards"][-1]["triggers"][0]["effects"]]

    def bare(nodes: list) -> list:
        for n in nodes:
            n.pop("at", None)
            n.get("counted", {}).pop("at", None)
            n.get("counted", {}).get("of", {}).pop("at", None)
        return nodes

    comma = bare(line("return half your Hex tokens, rounded up, +1 gold"))
    plain = bare(line("return half your Hex tokens rounded up, +1 gold"))
    assert comma == plain and comma[0]["counted"]["up"] is True
    # After a price, the rounding belongs to what the price buys.
    (paid,) = line("pay 1 gold -> return half your Hex tokens, rounded up")
    assert paid["then"][0]["counted"]["up"] is True
