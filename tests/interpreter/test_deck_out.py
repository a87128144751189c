"""The `deck out ends game` rule switch: when the adventure deck cannot refill the row, the
game ends at once and everyone still on the clock is knocked out (the classic FAQ of 2025);
without it, the adventure discard pile is shuffled into a new deck."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import KNOCKED_OUT

PACK = """pack p { version "1" }
card Burgle { starting 10; play: +1 skill }
monster Ogre { copies 12; fight 3; defeat: +5 gold }
token Relic { artifact; points 5 }
board b {
  space HQ { hq }
  space Grove { artifact 5 }
  path HQ -- Grove
}
"""


def _refill(rules: str) -> Game:
    result = compile_text(PACK + rules, "p.clank")
    assert result.ok, result.diagnostics
    game = Game(prepare(result.ir), [make_bot("random", 1), make_bot("random", 2)], 1)
    game.adventure_discard.extend(game.adventure_deck)
    game.adventure_deck = []
    game.row.pop()
    game.refill_row()
    return game


def test_the_switch_ends_the_game_when_the_deck_cannot_refill_the_row() -> None:
    game = _refill("rules { deck out ends game }\n")
    assert game.over and game.end_reason == "adventure deck empty"
    assert all(p.status == KNOCKED_OUT for p in game.players)


def test_without_the_switch_the_discard_pile_is_reshuffled() -> None:
    for rules in ("", "rules { deck out ends game 0 }\n"):
        game = _refill(rules)
        assert not game.over and len(game.row) == 6


def test_a_pack_without_the_switch_has_no_such_rule() -> None:
    # Packs written before the switch play the same game, with the same state digest.
    assert "deck_out" not in compile_text(PACK, "p.clank").ir["rules"]


def test_the_switch_misspelt_or_out_of_range_is_a_diagnostic() -> None:
    (d,) = compile_text(PACK + "rules { deck out ends game 2 }\n", "p.clank").diagnostics
    assert d.code == "CW113"
    (d,) = compile_text(PACK + "rules { deck outs ends game }\n", "p.clank").diagnostics
    assert d.code == "CW102" and d.hint == 'did you mean "deck out ends game"?'
