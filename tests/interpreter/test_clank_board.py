"""content/clank's front board against the published counts (shared clank-facts.md §1.5)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.board import UNREACHABLE, Board

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def front() -> tuple[dict, Board]:
    result = compile_pack(ROOT / "content" / "clank")
    assert result.ok, result.diagnostics
    ir = result.ir["boards"][0]
    return ir, Board(ir)


def test_spaces_and_tunnels(front: tuple[dict, Board]) -> None:
    ir, _ = front
    spaces, paths = ir["spaces"], ir["paths"]
    assert len(spaces) == 39 and len(paths) == 60
    assert sum(p["oneway"] for p in paths) == 7
    assert sum("key" in p["requires"] for p in paths) == 9
    assert sum(p["boots"] == 2 for p in paths) == 13
    monsters = [p["monsters"] for p in paths if p["monsters"]]
    assert len(monsters) == 17 and sum(monsters) == 22


def test_room_features(front: tuple[dict, Board]) -> None:
    ir, _ = front
    spaces = ir["spaces"]
    features = Counter(f for s in spaces for f in s["features"])
    board = Board({"name": "front", "spaces": spaces, "paths": []} | {"spaces": spaces})
    rewards = Counter(k for s in board.spaces for k, _n in s.rewards)
    holds = Counter(what for s in board.spaces for what, n in s.holds for _ in range(n))
    assert features["danger zone"] == 23  # the Depths: rooms 17 to 39
    assert features["crystal cave"] == 10 and features["town"] == 4
    assert holds["minor secrets"] == 18 and rewards["major secret"] == 9
    assert rewards["heal"] == 3 and holds['"monkey idol"'.strip('"')] == 3
    artifacts = {s["name"]: s["artifact"] for s in spaces if "artifact" in s}
    assert artifacts == {
        "Room 18": 5,
        "Room 21": 7,
        "Room 27": 10,
        "Room 23": 15,
        "Room 31": 20,
        "Room 33": 25,
        "Room 35": 30,
    }


def test_shortest_paths(front: tuple[dict, Board]) -> None:
    # "Front, no key: the 30-VP artifact is unreachable ... With a key it is 9 Boots in and 9
    # out." "5-VP is 6 Boots each way."
    _, board = front
    start, five, thirty = (board.index[n] for n in ("Start", "Room 18", "Room 35"))
    assert board.dist[start][thirty] >= UNREACHABLE
    assert board.dist_any[start][thirty] == 9 and board.dist_any[thirty][start] == 9
    assert board.dist[start][five] == 6 and board.dist[five][start] == 6
