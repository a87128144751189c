"""The ops `take_from_reserve` and `replace_row_card`."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import Ctx

PACK = """
card Burgle { starting 10; play: +1 skill }
reserve Tome { copies 3; cost 7; points 7 }
card Deal { cost 1; play: take 2 Tome from the reserve }
card Hunter { cost 1; play: replace a card in the row }
card Ogre { copies 8; cost 3; dragon attack }
card Elf { copies 8; cost 3 }
event Storm { arrive: each player (+1 clank) }
board b { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
"""


def _game() -> tuple[Game, dict[str, list]]:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    effects = {c["name"]: c["triggers"][0]["effects"] for c in result.ir["cards"] if c["triggers"]}
    return Game(result.ir, [RandomBot(1), RandomBot(2)], seed=5), effects


def test_take_from_reserve_takes_what_the_pile_holds() -> None:
    game, fx = _game()
    p = game.active
    tome = next(c for c in game.reserve if c.name == "Tome")
    assert (
        render_effects(fx["Deal"])
        == "take 2 copies of Tome from the Reserve into your discard pile"
    )
    game.run(Ctx(p, None), fx["Deal"])
    assert p.discard.count(tome) == 2 and game.reserve[tome] == 1
    game.run(Ctx(p, None), fx["Deal"])
    assert p.discard.count(tome) == 3 and game.reserve[tome] == 0


def test_replace_row_card_ignores_the_dragon_symbol_and_carries_out_events() -> None:
    game, fx = _game()
    p = game.active
    ogre = next(c for c in game.catalog.adventure if c.name == "Ogre")
    storm = next(c for c in game.catalog.adventure if c.name == "Storm")
    out = game.row[0]
    # The next card is an event (carried out, discarded), then a dragon card (no attack).
    game.adventure_deck += [ogre, storm]
    aside, bag = game.black_aside, len(game.bag)
    clank = [q.area for q in game.players]
    game.run(Ctx(p, None), fx["Hunter"])
    assert len(game.row) == game.rules["row_size"]
    assert ogre in game.row and game.row.index(ogre) == 0
    assert game.adventure_discard[-2:] == [out, storm]
    assert [q.area for q in game.players] == [c + 1 for c in clank]
    assert game.black_aside == aside and len(game.bag) == bag


def test_replace_row_card_with_an_empty_deck_leaves_a_gap() -> None:
    game, fx = _game()
    game.adventure_deck.clear()
    n = len(game.row)
    game.run(Ctx(game.active, None), fx["Hunter"])
    assert len(game.row) == n - 1
