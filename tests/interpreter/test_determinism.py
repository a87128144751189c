"""Seeded games are reproducible byte for byte, and their logs replay to the same state."""

from __future__ import annotations

import json

import pytest

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import ReplayMismatch, from_jsonl, replay, to_jsonl


@pytest.fixture(scope="module")
def cat(tutorial_ir: dict) -> Catalog:
    return prepare(tutorial_ir)


def play(cat: Catalog, seed: int, bots: tuple[str, ...]) -> Game:
    g = Game(cat, [make_bot(b, seed * 10 + k) for k, b in enumerate(bots)], seed)
    g.play()
    return g


@pytest.mark.parametrize("bots", [("greedy",) * 4, ("random", "greedy", "random")])
def test_same_seed_same_log(cat: Catalog, tutorial_ir: dict, bots: tuple[str, ...]) -> None:
    a = to_jsonl(play(cat, 11, bots).log)
    b = to_jsonl(play(prepare(tutorial_ir), 11, bots).log)  # a fresh catalog too
    assert a == b
    assert a != to_jsonl(play(cat, 12, bots).log)
    records = from_jsonl(a)
    assert records[0]["type"] == "header" and records[0]["seed"] == 11
    assert records[0]["bots"] == list(bots)
    assert records[-1]["type"] == "result"
    assert all(r["type"] == "decision" for r in records[1:-1])
    assert {"turn", "player", "kind", "index", "label"} <= set(records[1])


def test_replay_reaches_the_same_state(cat: Catalog) -> None:
    g = play(cat, 5, ("random", "random", "greedy"))
    log = from_jsonl(to_jsonl(g.log))  # through JSON and back
    again = replay(cat, log)
    assert again.log == g.log
    assert again.result == g.result


def test_replay_detects_a_changed_decision(cat: Catalog) -> None:
    g = play(cat, 6, ("random", "random"))
    log = json.loads(json.dumps(g.log))
    k = next(
        i for i, r in enumerate(log) if r["type"] == "decision" and r["label"].startswith("move")
    )
    log[k]["index"] += 1
    with pytest.raises(ReplayMismatch):
        replay(cat, log)


def test_replay_detects_a_different_result(cat: Catalog) -> None:
    g = play(cat, 7, ("greedy", "greedy"))
    log = json.loads(json.dumps(g.log))
    log[-1]["state"] = "0" * 16
    with pytest.raises(ReplayMismatch, match="different result"):
        replay(cat, log)
