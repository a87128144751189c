"""The `return_cubes` op (Shrine-style "return up to 3 dragon cubes to the bag")."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.state import Ctx

PACK = """
card Burgle { starting 10; play: +1 skill }
card Shrine { cost 2; arrive: return up to 3 dragon cubes }
board b { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
"""


def _game() -> tuple[Game, list]:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    effects = next(c for c in result.ir["cards"] if c["name"] == "Shrine")["triggers"][0]
    return Game(result.ir, [RandomBot(1), RandomBot(2)], seed=3), effects["effects"]


def test_compiles_and_prints() -> None:
    _, effects = _game()
    assert effects[0]["op"] == "return_cubes" and effects[0]["n"] == 3
    assert render_effects(effects) == "return up to 3 dragon cubes to the bag"


def test_returns_up_to_n_set_aside_cubes() -> None:
    game, effects = _game()
    game.bag, game.black_aside = [BLACK] * 19, 5  # five cubes set aside by earlier attacks
    game.run(Ctx(game.players[0]), effects)
    assert game.black_aside == 2 and game.bag.count(BLACK) == 22


def test_returns_only_what_was_set_aside() -> None:
    game, effects = _game()
    before = list(game.bag)
    game.black_aside = 1
    game.run(Ctx(game.players[0]), effects)
    assert game.black_aside == 0 and len(game.bag) == len(before) + 1
