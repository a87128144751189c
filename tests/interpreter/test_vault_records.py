"""The general records content/vault is written with, tested where a scenario cannot look:
a face-down deal over many seeds, and state that lasts across turns (cards staying in play)
through snapshots and the invariant checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter import restore as resuming
from clankwork.interpreter import snapshot as snap
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.invariants import check_invariants
from clankwork.interpreter.scoring import fingerprint

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def vault() -> dict:
    result = compile_pack(ROOT / "content" / "vault")
    assert result.ok, result.diagnostics
    return result.ir


def _perched(game: Game) -> list[tuple[str, ...]]:
    return [
        tuple(t.name for t in game.space_tokens[sp.index] if "gargoyle" in t.match)
        for sp in game.board.spaces
        if "gargoyle perch" in sp.features
    ]


def test_a_face_down_deal_puts_one_token_on_each_marked_space_at_random(vault: dict) -> None:
    cat = prepare(vault, "ropes")
    deals = set()
    for seed in range(12):
        game = Game(cat, [make_bot("random", k) for k in range(3)], seed)
        perched = _perched(game)
        assert len(perched) == 5 and all(len(p) == 1 for p in perched)
        # Six in the box at the start: the sixth goes back unseen, none is left to take.
        assert sum(1 for t in game.box if "gargoyle" in t.match) == 1
        assert not any(n for t, n in game.token_supply.items() if "gargoyle" in t.match)
        deals.add(tuple(perched))
    assert len(deals) > 6  # the seed decides where each lies


def _game_with_a_card_held_over(ir: dict, seed: int) -> Game | None:
    game = Game(prepare(ir, "ropes"), [make_bot("random", seed * 10 + k) for k in range(2)], seed)
    while not game.over and game.round < 60:
        game.round += 1
        for seat in game.order:
            game.take_turn(game.players[seat])
            assert not check_invariants(game)
            if any(p.held_over for p in game.players) or game.over:
                return game
    return None


def test_a_card_in_its_second_turn_survives_a_snapshot(vault: dict) -> None:
    # Deal every Echo card into the row often: a game with many of them.
    found = None
    for seed in range(40):
        found = _game_with_a_card_held_over(vault, seed)
        if found is not None and any(p.held_over for p in found.players):
            break
    assert found is not None and any(p.held_over for p in found.players)
    data = json.loads(json.dumps(snap.snapshot(found)))
    restored = resuming.restore(vault, data, [make_bot("random", k) for k in range(2)])
    assert fingerprint(restored) == fingerprint(found)
    held = [[c.name for c in p.held_over] for p in found.players]
    assert [[c.name for c in p.held_over] for p in restored.players] == held


def test_a_way_within_features_joins_each_section_and_no_teleport_crosses_it(
    vault: dict,
) -> None:
    from clankwork.interpreter.actions import teleport_targets

    cat = prepare(vault, "clock")
    board = cat.board
    idx = board.index
    swings = {
        (a, m.to) for a, moves in enumerate(board.moves) for m in moves if m.way.name == "swing"
    }
    section3 = [idx[f"Room {n}"] for n in (17, 18, 22, 24, 26)]
    assert {(a, b) for a in section3 for b in section3 if a != b} <= swings
    assert (idx["Room 18"], idx["Room 9"]) not in swings  # Room 9 is in section 2 only
    game = Game(cat, [make_bot("random", k) for k in range(2)], 0)
    p = game.players[0]
    p.pos = idx["Room 18"]
    targets = teleport_targets(game, p)
    assert idx["Room 22"] not in targets and idx["Room 26"] not in targets
    assert idx["Room 19"] in targets
