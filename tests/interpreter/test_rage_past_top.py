"""The trigger `when rage would rise past the top:` (the `rage past top` event): rage that
would go up while the marker is on the track's last space."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import TRIGGERS
from clankwork.interpreter.game import Game

PACK = """
card Burgle { starting 10; play: +1 skill }
token Relic { artifact; points 5 }
board b { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
rules {
  rage track 2 3 4
  counter past max 100
  counter up max 100
  when rage advances: counter up +1
  when rage would rise past the top: counter past +1
}
"""


def _game() -> Game:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    game = Game(result.ir, [RandomBot(1), RandomBot(2)], seed=3)
    game.rage = 0  # the first space of three
    return game


def test_each_step_it_cannot_take_from_the_last_space_is_one_event() -> None:
    game = _game()
    game.advance_rage(4)  # from space 1 of 3: two spaces up, two more it cannot take
    assert game.rage == 2
    assert game.counters == {**game.counters, "up": 2, "past": 2}
    game.advance_rage(1)
    assert game.counters["past"] == 3 and game.counters["up"] == 2


def test_below_the_top_and_going_down_it_does_not_fire() -> None:
    game = _game()
    game.advance_rage(1)
    game.advance_rage(-1)
    assert game.counters.get("past", 0) == 0 and game.counters["up"] == 1


def test_its_card_text_and_the_pack_that_does_not_watch_it() -> None:
    record = TRIGGERS["rage_past_top"]
    node = {"on": "rage_past_top", "effects": [{"op": "dragon_attack"}]}
    assert record.render(node) == "when rage would rise past the top: the dragon attacks"
    plain = compile_text(PACK.replace("  when rage would rise past the top: counter past +1\n", ""))
    game = Game(plain.ir, [RandomBot(1), RandomBot(2)], seed=3)
    game.advance_rage(9)
    assert game.rage == 2 and "rage past top" not in game._watched
