"""The "this turn" ops (ignore_exhaustion, bonus_on_gain) and the count `held`."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import EFFECTS, render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import Ctx

PACK = """
card Burgle { starting 10; play: +1 skill }
card Run { cost 1; play: ignore exhaustion this turn }
card Search { cost 1; play: +1 gold whenever you gain gold this turn }
card Swagger { cost 1; play: +1 skill for each clank you gain this turn }
card Eye { cost 1; points 10 per "Gold Star" you hold }
token "Gold Star" { market 2; points 1 }
token Relic { artifact; points 5 }
board b {
  space HQ { hq }; space Cave { crystal cave; artifact 5 }; space Far { }
  path HQ -- Cave; path Cave -- Far
}
"""


def _game() -> tuple[Game, dict[str, list]]:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    effects = {c["name"]: c["triggers"][0]["effects"] for c in result.ir["cards"] if c["triggers"]}
    game = Game(result.ir, [RandomBot(1), RandomBot(2)], seed=3)
    game.begin_turn(game.active)
    return game, effects


def test_compiles_and_prints() -> None:
    _, fx = _game()
    assert fx["Run"][0]["op"] == "ignore_exhaustion"
    assert fx["Search"][0] == {**fx["Search"][0], "op": "bonus_on_gain", "per_unit": False}
    assert fx["Swagger"][0]["per_unit"] is True and fx["Swagger"][0]["on"] == "clank"
    assert render_effects(fx["Search"]) == "+1 Gold whenever you gain Gold this turn"
    assert render_effects(fx["Swagger"]) == "+1 Skill for each Clank! you gain this turn"


def test_every_new_record_has_an_appraisal() -> None:
    for name in ("ignore_exhaustion", "bonus_on_gain", "take_from_reserve", "replace_row_card"):
        assert EFFECTS[name].appraise is not None, name


def test_ignore_exhaustion_lasts_the_turn_only() -> None:
    game, fx = _game()
    p = game.active
    game.run(Ctx(p, None), fx["Run"])
    game.enter(p, game.board.index["Cave"])
    assert not p.exhausted
    game.begin_turn(p)
    game.enter(p, game.board.index["Cave"])
    assert p.exhausted


def test_bonus_per_gain_counts_earlier_gains_and_never_feeds_itself() -> None:
    game, fx = _game()
    p = game.active
    gold = p.gold
    game.gain(p, "gold", 2)
    game.gain(p, "gold", 3)
    game.run(Ctx(p, None), fx["Search"])  # two earlier gains: +2
    assert p.gold == gold + 7
    game.gain(p, "gold", 1)  # one more gain: +1, and the bonus is no new gain
    assert p.gold == gold + 9


def test_bonus_per_unit_and_only_for_the_active_player() -> None:
    game, fx = _game()
    p = game.active
    other = next(q for q in game.players if q is not p)
    game.gain(p, "clank", 2)
    game.run(Ctx(p, None), fx["Swagger"])
    assert p.skill == 2
    game.gain(p, "clank", 1)
    game.gain(other, "clank", 3)  # an opponent's Clank! is not ours
    assert p.skill == 3
    game.begin_turn(p)
    game.gain(p, "clank", 1)
    assert p.skill == 0


def test_held_counts_tokens_and_the_artifact() -> None:
    game, _ = _game()
    p = game.active
    star = next(t for t in game.catalog.tokens if t.name == "Gold Star")
    relic = next(t for t in game.catalog.tokens if t.name == "Relic")
    node = {"count": "held", "what": "Gold Star"}
    assert game.count_of(p, node) == 0
    p.tokens += [star, star]
    assert game.count_of(p, node) == 2
    p.artifact = relic
    assert game.count_of(p, {"count": "held", "what": "artifact"}) == 1


def test_sets_counts_complete_sets_of_different_tokens() -> None:
    game, _ = _game()
    p = game.active
    star = next(t for t in game.catalog.tokens if t.name == "Gold Star")
    relic = next(t for t in game.catalog.tokens if t.name == "Relic")
    node = {"count": "sets", "n": 2, "among": 'Gold Star or relic or "Moon"'}
    assert game.count_of(p, node) == 0
    p.tokens += [star, star]  # two of one name: still one different
    assert game.count_of(p, node) == 0
    p.artifact = relic
    assert game.count_of(p, node) == 1
    assert game.count_of(p, {**node, "n": 1}) == 2
