"""Golden playthroughs: one seeded game of each bundled pack, every decision and the state
after every turn, committed (the way OpenSpiel keeps its playthroughs). Any change to how a
seeded game plays shows up here, in review, as a diff of this transcript.

After a reviewed change that is meant to change play, regenerate with:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/interpreter/test_playthrough.py
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import golden_files
import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.scoring import fingerprint

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 7


def _turn_record(game: Game) -> dict[str, Any]:
    spaces = game.board.spaces
    return {
        "type": "after turn",
        "turn": game.turn,
        "round": game.round,
        "rage": game.rage,
        "bag": len(game.bag),
        "row": [c.name for c in game.row],
        "players": [
            {
                "at": spaces[p.pos].name,
                "status": p.status,
                "damage": p.damage,
                "clank": p.area,
                "gold": p.gold,
                "cards": len(p.cards()),
                "artifact": p.artifact.name if p.artifact else None,
            }
            for p in game.players
        ],
        "state": fingerprint(game),
    }


def playthrough(pack: str) -> str:
    """The transcript of the golden game of ``pack``: its log with the state after each turn."""
    result = compile_pack(ROOT / "content" / pack)
    assert result.ok, result.diagnostics
    cat = prepare(result.ir)
    bots = [make_bot(name, SEED * 10 + k) for k, name in enumerate(("heuristic", "greedy"))]
    game = Game(cat, bots, SEED)
    lines: list[dict[str, Any]] = []
    seen = 1  # the header is already in the log

    def after_turn(g: Game) -> None:
        nonlocal seen
        lines.extend(g.log[seen:])
        seen = len(g.log)
        lines.append(_turn_record(g))

    game.play(after_turn=after_turn)
    lines.extend(game.log[seen:])
    return "".join(
        json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in [game.log[0], *lines]
    )


@pytest.mark.parametrize("pack", ["tutorial", "acqinc", "clank"])
def test_the_golden_playthrough_is_unchanged(pack: str) -> None:
    text = playthrough(pack)
    path = GOLDEN / f"playthrough-{pack}.jsonl"
    if golden_files.updating():
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: UPDATE_GOLDEN=1 pytest {__file__}"
    want = path.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    for i, (a, b) in enumerate(zip(want, got, strict=False), 1):
        assert a == b, (
            f"the {pack} playthrough parts from its golden file at line {i}:\n"
            f"  golden: {a[:300]}\n  now:    {b[:300]}\n"
            "if the change in play is intended, review it and run "
            "UPDATE_GOLDEN=1 .venv/bin/pytest tests/interpreter/test_playthrough.py"
        )
    assert len(want) == len(got), f"{pack}: {len(want)} golden lines, {len(got)} now"


def test_the_fingerprint_tells_states_apart(tutorial_ir: dict) -> None:
    # A constant fingerprint would keep every replay test green: it must see each change.
    cat = prepare(tutorial_ir)
    game = Game(cat, [make_bot("greedy", k) for k in range(2)], 3)
    prints: list[str] = []
    game.play(after_turn=lambda g: prints.append(fingerprint(g)))
    assert len(set(prints)) == len(prints), "two turns left identical fingerprints"

    base = fingerprint(game)
    p = game.players[0]
    edits = {
        "damage": lambda g: setattr(g.players[0], "damage", p.damage + 1),
        "position": lambda g: setattr(g.players[0], "pos", (p.pos + 1) % len(g.board.spaces)),
        "gold": lambda g: setattr(g.players[0], "gold", p.gold + 1),
        "clank": lambda g: setattr(g.players[0], "area", p.area + 1),
        "rage": lambda g: setattr(g, "rage", g.rage + 1),
        "bag": lambda g: g.bag.append(g.bag[0] if g.bag else 0),
        "row order": lambda g: g.row.reverse() if len(set(map(id, g.row))) > 1 else g.row.pop(),
        "a card moved": lambda g: g.players[1].discard.append(g.players[0].cards()[0]),
        "status": lambda g: setattr(g.players[1], "status", "changed"),
    }
    for what, edit in edits.items():
        other = copy.copy(game)
        other.players = [copy.deepcopy(q) for q in game.players]
        other.row, other.bag = list(game.row), list(game.bag)
        edit(other)
        assert fingerprint(other) != base, f"the fingerprint does not see {what}"
