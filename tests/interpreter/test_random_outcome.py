"""A random outcome (`roll (a | b)`, `at random (...)`): seeded, weighted, stacked by a
scenario, told by the replay, and its mistakes are diagnostics."""

from __future__ import annotations

from typing import Any

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.context import Ctx
from clankwork.interpreter.game import Game

PACK = """pack p { version "1" }
card Burgle { starting 10; play: +1 skill }
token Relic { artifact; points 5 }
card Die { cost 1; play: roll the bone die (weight 3, +1 gold | +1 skill) }
board b {
  space HQ { hq }
  space Grove { artifact 5 }
  path HQ -- Grove
}
"""


def _game(seed: int) -> tuple[Game, list[dict[str, Any]]]:
    result = compile_text(PACK, "p.clank")
    assert result.ok, result.diagnostics
    cat = prepare(result.ir)
    game = Game(cat, [make_bot("random", 1), make_bot("random", 2)], seed)
    die = next(c for c in cat.adventure if c.name == "Die")
    return game, die.play[0][1]


def _gold_of_rolls(game: Game, effects: list[dict[str, Any]], n: int) -> int:
    p = game.players[0]
    before = p.gold
    for _ in range(n):
        game.run(Ctx(p, None), effects)
    return p.gold - before


def test_the_same_seed_rolls_the_same_and_weights_count() -> None:
    a, effects = _game(5)
    b, _ = _game(5)
    ga, gb = _gold_of_rolls(a, effects, 400), _gold_of_rolls(b, effects, 400)
    assert ga == gb
    # Three chances in four of the gold: 300 expected of 400 rolls.
    assert 260 < ga < 340


def test_a_stacked_roll_comes_first() -> None:
    game, effects = _game(5)
    game.stacked_rolls = [1, 0]
    p = game.players[0]
    skill, gold = p.skill, p.gold
    game.run(Ctx(p, None), effects)
    assert (p.skill, p.gold) == (skill + 1, gold)
    game.run(Ctx(p, None), effects)
    assert (p.skill, p.gold) == (skill + 1, gold + 1)
    assert game.stacked_rolls == []


def test_a_clone_rolling_does_not_use_up_the_scenario_rolls() -> None:
    game, effects = _game(5)
    game.stacked_rolls = [1]
    twin = game.clone()
    twin.run(Ctx(twin.players[0], None), effects)
    assert game.stacked_rolls == [1]


def test_mistakes_in_a_roll_are_diagnostics() -> None:
    def diags(line: str) -> list[tuple[str, str]]:
        got = compile_text(PACK + f"card X {{ cost 1; play: {line} }}\n", "p.clank").diagnostics
        return [(d.code, d.hint or "") for d in got]

    assert diags("rol (+1 gold | nothing)") == [("CW103", 'did you mean "roll"?')]
    assert [c for c, _ in diags("roll (+1 gold)")] == ["CW105"]
    assert [c for c, _ in diags("roll (weight 0, +1 gold | nothing)")] == ["CW108"]
    assert [c for c, _ in diags("roll (weight 200, +1 gold | nothing)")] == ["CW113"]
    assert [c for c, _ in diags("roll (weight 2 | nothing)")] == ["CW105"]
    assert diags("at random (2 faces, +1 gold | nothing)") == []
