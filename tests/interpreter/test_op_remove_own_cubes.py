"""The `remove_own_cubes` op ("remove 3 of your cubes from the bag": a player's own Clank!
cubes out of the dragon bag, back to their supply)."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bot_values import effects_value
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.state import Ctx
from clankwork.tools.lsp_complete import complete, pack_names

PACK = """
card Burgle { starting 10; play: +1 skill }
card Hourglass { cost 2; play: remove 3 of your cubes from the bag }
card Sand { cost 2; play: take 2 of your clank cubes out of the dragon bag }
board b { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
"""


def _game() -> tuple[Game, dict[str, list]]:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    effects = {c["name"]: c["triggers"][0]["effects"] for c in result.ir["cards"] if c["triggers"]}
    return Game(result.ir, [RandomBot(1), RandomBot(2)], seed=3), effects


def test_compiles_and_prints() -> None:
    _, fx = _game()
    assert fx["Hourglass"] == [{**fx["Hourglass"][0], "op": "remove_own_cubes", "n": 3}]
    assert fx["Sand"][0]["op"] == "remove_own_cubes" and fx["Sand"][0]["n"] == 2
    assert render_effects(fx["Hourglass"]) == "take 3 of your cubes out of the dragon's bag"


def test_takes_only_the_players_cubes_back_to_their_supply() -> None:
    game, fx = _game()
    me, other = game.players
    game.bag = [BLACK, me.seat, other.seat, me.seat, BLACK, me.seat, me.seat, other.seat]
    me.supply -= 4
    other.supply -= 2
    before = me.supply
    game.run(Ctx(me), fx["Hourglass"])
    assert game.bag.count(me.seat) == 1 and game.bag.count(other.seat) == 2
    assert game.bag.count(BLACK) == 2 and me.supply == before + 3
    assert game.cube_count(me) == game.rules["player_cubes"]


def test_with_fewer_in_the_bag_takes_those_there_are() -> None:
    game, fx = _game()
    me, _ = game.players
    game.bag = [BLACK, me.seat]
    me.supply -= 1
    game.run(Ctx(me), fx["Hourglass"])
    assert game.bag == [BLACK] and game.cube_count(me) == game.rules["player_cubes"]


def test_a_bot_values_it_as_clank_taken_back() -> None:
    _, fx = _game()
    assert effects_value(fx["Hourglass"]) > effects_value(fx["Sand"]) > 0


def test_the_editor_completes_it() -> None:
    text = "card X { play: remove 3 of your "
    labels = [i.label for i in complete(text, 0, len(text), pack_names(None, ["tutorial"]))]
    assert "cubes" in labels
