"""Setup and the turn as named steps a pack changes by name; counters; a countdown track
written as content (the classic game's) instead of Legacy's off-the-clock draw."""

from __future__ import annotations

import pytest

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.decisions import ScriptedBot
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import KNOCKED_OUT
from clankwork.interpreter.steps import STEPS, defaults

BASE = """
pack t { version "0.1" }
card Burgle { starting 10; play: +1 skill }
token Relic { artifact; points 5 }
board b {
  space HQ { hq }
  space Hall { }
  space Far { artifact 5 }
  path HQ -- Hall
  path Hall -- Far
}
"""

COUNTDOWN = """
rules {
  counter countdown max 5
  # The first player to leave puts the marker on the track's first space...
  when you escape: if you left first (counter countdown +1)
  when you are knocked out: if you left first (counter countdown +1)
  # ... and on each of their turns off the clock moves it on and does what it says.
  step off_clock.countdown replaces off_clock.draw_cubes: if you left first (
    counter countdown +1,
    if counter countdown is 2 (dragon attack with 1 extra cube),
    if counter countdown is 3 (dragon attack with 2 extra cubes),
    if counter countdown is 4 (dragon attack with 3 extra cubes),
    if counter countdown is 5 (each player (knocked out)))
}
"""


def compiled(extra: str):
    result = compile_text(BASE + extra, "t.clank")
    return result


def test_the_base_phases_are_the_rulebooks_order() -> None:
    d = defaults()
    assert d["end_of_turn"] == [
        "end_of_turn.resolve_contracts",
        "end_of_turn.clear_play_area",
        "end_of_turn.draw_hand",
        "end_of_turn.escape",
        "end_of_turn.refill_row",
        "end_of_turn.dragon_attack",
    ]
    assert d["setup"][0] == "setup.first_player" and d["off_clock"] == ["off_clock.draw_cubes"]
    assert d["turn"] == ["turn.begin"] and d["end_of_game"] == ["end_of_game.game_end"]
    assert all(s.doc for s in STEPS.values())


def test_the_start_of_a_turn_and_the_end_of_the_game_are_phases() -> None:
    """A step after turn.begin runs on every turn on the clock, after the pool is emptied; a
    step of end_of_game runs once, before scoring."""
    result = compiled(
        """
        token Crown { market 1; points 9; type crown }
        rules {
          step turn.stipend after turn.begin: +1 boots
          step end_of_game.bonus before end_of_game.game_end: each player (+5 gold)
        }
        """
    )
    assert result.ok, [d.message for d in result.diagnostics]
    g = Game(prepare(result.ir), [ScriptedBot([]) for _ in range(2)], seed=1)
    p = g.players[0]
    p.boots = 3
    g.begin_turn(p)
    assert p.boots == 1
    gold = [q.gold for q in g.players]
    g._finish("test")
    assert [q.gold for q in g.players] == [x + 5 for x in gold]
    assert g.over and g.result is not None


def test_insert_replace_and_remove_by_name() -> None:
    r = compiled(
        """
rules {
  step end_of_turn.tithe after end_of_turn.draw_hand: +1 gold
  step end_of_turn.greet before end_of_turn.clear_play_area: +1 gold
  remove step end_of_turn.dragon_attack
}
"""
    )
    assert r.ok, [d.message for d in r.diagnostics]
    names = [p.name for p in prepare(r.ir).steps["end_of_turn"]]
    assert names == [
        "end_of_turn.resolve_contracts",
        "end_of_turn.greet",
        "end_of_turn.clear_play_area",
        "end_of_turn.draw_hand",
        "end_of_turn.tithe",
        "end_of_turn.escape",
        "end_of_turn.refill_row",
    ]
    g = Game(prepare(r.ir), [ScriptedBot([]), ScriptedBot([])], seed=1)
    p = g.active
    g.begin_turn(p)
    g.end_turn(p)
    assert p.gold == 2


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("step end_of_turn.x after end_of_turn.draw_hnd: +1 gold", "end_of_turn.draw_hand"),
        ("step endofturn.x: +1 gold", "names no phase"),
        ("remove step setup.nothing", "no step"),
        ("step end_of_turn.x after end_of_turn.draw_hand", "has no effects"),
        ("counter countdown\n  step off_clock.x: counter countdwn +1", "does not declare"),
    ],
)
def test_step_mistakes_name_the_line(rules: str, words: str) -> None:
    r = compiled("rules {\n  " + rules + "\n}\n")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.severity == "error")
    assert words in d.message + (d.hint or ""), d
    assert d.span is not None and d.span.file == "t.clank" and d.span.line > 10


def test_counters_stay_within_their_track() -> None:
    r = compiled(COUNTDOWN)
    assert r.ok, [d.message for d in r.diagnostics]
    g = Game(prepare(r.ir), [ScriptedBot([]), ScriptedBot([])], seed=1)
    g.move_counter("countdown", 9)
    assert g.counters["countdown"] == 5
    g.move_counter("countdown", -9)
    assert g.counters["countdown"] == 0


def test_the_countdown_track_is_content() -> None:
    r = compiled(COUNTDOWN)
    g = Game(prepare(r.ir), [ScriptedBot([]), ScriptedBot([])], seed=1)
    first = g.players[g.order[0]]
    other = g.players[g.order[1]]
    g.knock_out(first)
    assert g.counters["countdown"] == 1 and g.left == [first.seat]
    cubes = len(g.bag)
    for marker in (2, 3, 4):
        g.take_turn(first)
        assert g.counters["countdown"] == marker
    # Attacks with 1, 2 and 3 extra cubes (on top of rage and danger) came out of the bag.
    assert len(g.bag) < cubes
    assert other.status != KNOCKED_OUT or g.over
    if not g.over:
        g.take_turn(first)
        assert g.counters["countdown"] == 5 and other.status == KNOCKED_OUT and g.over


def test_a_countdown_game_plays_to_its_end() -> None:
    r = compiled(COUNTDOWN)
    cat = prepare(r.ir)
    for seed in range(5):
        g = Game(cat, [make_bot("random", seed), make_bot("random", seed + 1)], seed=seed)
        result = g.play()
        assert g.over and result is not None


FEWER = """
token "Study Token" { count 4; type study; points 1 }
token Scholar { market 1; points 2 per study token }
rules {
  step setup.fewer_artifacts after setup.tokens: if 2 players (remove 2 random artifacts),
    if 3 players (remove 1 random artifact)
}
board big {
  space HQ { hq }
  space A { artifact 5 }
  space B { artifact 7 }
  space C { artifact 10 }
  path HQ -- A
  path A -- B
  path B -- C
}
"""


def test_fewer_artifacts_with_fewer_players_is_a_setup_step() -> None:
    extra = "token Gem { artifact; points 7 }\ntoken Orb { artifact; points 10 }\n"
    r = compiled(extra + FEWER)
    assert r.ok, [d.message for d in r.diagnostics]
    cat = prepare(r.ir, "big")
    on_board = {}
    for n in (2, 3, 4):
        g = Game(cat, [ScriptedBot([]) for _ in range(n)], seed=4)
        on_board[n] = sum(1 for t in g.space_artifact if t is not None)
        assert len([t for t in g.box if t.kind == "artifact"]) == 3 - on_board[n]
    assert on_board == {2: 1, 3: 2, 4: 3}


def test_points_per_token_held() -> None:
    r = compiled(FEWER.replace("  step setup", "  # step setup").replace("    if 3", "  #  if 3"))
    assert r.ok, [d.message for d in r.diagnostics]
    from clankwork.interpreter.scoring import score_player

    g = Game(prepare(r.ir, "big"), [ScriptedBot([]), ScriptedBot([])], seed=1)
    p = g.players[0]
    study = next(t for t in g.catalog.tokens if t.name == "Study Token")
    scholar = next(t for t in g.catalog.tokens if t.name == "Scholar")
    p.artifact = g.space_artifact[g.board.index["A"]]
    before = score_player(g, p)[1]["tokens"]
    p.tokens += [study, study, study, scholar]
    assert g.count_tokens(p, "study") == 3
    assert score_player(g, p)[1]["tokens"] - before == 3 + 2 * 3


def test_unknown_token_words_are_diagnostics() -> None:
    r = compiled(
        "token X { count 1; points 1 per magic token }\n"
        "rules { step setup.x: remove 1 random gizmos }\n"
    )
    msgs = [d.message for d in r.diagnostics if d.code == "CW107"]
    assert any("counts 'magic'" in m for m in msgs) and any("'gizmos'" in m for m in msgs), msgs
