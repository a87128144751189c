"""Seeded games are reproducible byte for byte, and their logs replay to the same state."""

from __future__ import annotations

import json

import pytest

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import (
    LogError,
    ReplayMismatch,
    from_jsonl,
    read_log,
    replay,
    to_jsonl,
)


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


# -- the log file: its schema, and reading it with line numbers ------------------------------


def test_log_schema_is_valid_and_closed() -> None:
    from jsonschema import Draft202012Validator

    from clankwork.interpreter.decisions import KINDS
    from clankwork.interpreter.log import log_schema
    from clankwork.interpreter.state import ESCAPED, KNOCKED_OUT, ON_CLOCK

    schema = log_schema()
    Draft202012Validator.check_schema(schema)
    defs = schema["$defs"]
    for name in ("header", "decision", "result"):
        assert defs[name]["additionalProperties"] is False, name
    # The enums must follow the engine: a new decision kind or status needs the schema too.
    assert defs["decision"]["properties"]["kind"]["enum"] == list(KINDS)
    assert set(defs["result"]["properties"]["status"]["items"]["enum"]) == {
        ON_CLOCK,
        ESCAPED,
        KNOCKED_OUT,
    }


@pytest.mark.parametrize("bots", [("greedy",) * 4, ("random", "greedy")])
def test_every_record_of_a_log_is_valid(cat: Catalog, bots: tuple[str, ...]) -> None:
    from jsonschema import Draft202012Validator

    from clankwork.interpreter.log import log_schema

    validator = Draft202012Validator(log_schema())
    log = from_jsonl(to_jsonl(play(cat, 21, bots).log))
    for record in log:
        assert not list(validator.iter_errors(record)), record
    g = read_log(to_jsonl(log))
    assert g.header == log[0] and g.result == log[-1]
    assert g.decision_lines[0] == 2 and g.result_line == len(log)


def test_read_log_names_the_line(cat: Catalog) -> None:
    lines = to_jsonl(play(cat, 3, ("greedy", "random")).log).splitlines()
    header = lines[0]
    bad = [
        ("not valid JSON", [*lines[:4], lines[4][:-1], *lines[5:]], 5),
        ("'label' is a required property", [*lines[:4], lines[4].replace("label", "lable")], 5),
        ("without a result record", lines[:5], 5),
        ("must start with a header", lines[1:], 1),
        ("after the result", [*lines, lines[3]], len(lines) + 1),
        ("unknown rule 'hand_sise'", [header.replace('"rules":{}', '"rules":{"hand_sise":4}')], 1),
        ("2 bots for 3 players", [header.replace('"players":2', '"players":3')], 1),
    ]
    for message, text, line in bad:
        with pytest.raises(LogError, match=message) as info:
            read_log("\n".join(text) + "\n")
        assert info.value.line == line, message
    with pytest.raises(LogError, match="empty"):
        read_log("\n\n")


def test_replay_mismatch_names_the_line(cat: Catalog) -> None:
    g = play(cat, 6, ("random", "random"))
    log = json.loads(json.dumps(g.log))
    k = next(
        i for i, r in enumerate(log) if r["type"] == "decision" and r["label"].startswith("move")
    )
    log[k]["label"] = "move to Nowhere"
    with pytest.raises(ReplayMismatch, match=f"line {k + 1} "):
        replay(cat, log)
    with pytest.raises(ReplayMismatch, match="no more decisions"):
        replay(cat, log[: k - 1] + log[-1:])


def test_many_games_plays_the_same_games_and_restores_the_collector(cat: Catalog) -> None:
    import gc

    from clankwork.interpreter.game import MANY_GAMES_GC_THRESHOLD, many_games

    before = gc.get_threshold()
    outside = [to_jsonl(play(cat, s, ("heuristic",) * 3).log) for s in (3, 4)]
    with many_games():
        assert gc.get_threshold()[0] == MANY_GAMES_GC_THRESHOLD and gc.get_freeze_count() > 0
        inside = [to_jsonl(play(cat, s, ("heuristic",) * 3).log) for s in (3, 4)]
    assert inside == outside
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_many_games_in_a_row_hold_no_dead_games(tutorial_ir: dict) -> None:
    """Chunk after chunk, as a simulate worker plays them (`Runner.run_chunk` is inside
    `many_games`), the games already played are freed: a dead game frozen with the living
    ones would never be."""
    import gc

    from clankwork.interpreter.game import many_games
    from clankwork.tools.simulate import Runner, RunSpec

    runner = Runner(RunSpec(tutorial_ir, 3, ("heuristic",) * 3))
    held = []
    for chunk in range(8):
        runner.run_chunk(4 * chunk, list(range(100 + 4 * chunk, 104 + 4 * chunk)))
        held.append(sum(type(o) is Game for o in gc.get_objects()))
    assert max(held) <= 4, held
    # A nested use leaves the outer freeze alone.
    with many_games():
        frozen = gc.get_freeze_count()
        with many_games():
            pass
        assert gc.get_freeze_count() == frozen > 0
    assert gc.get_freeze_count() == 0


_DIGEST_LOGS = """
import hashlib, sys
from pathlib import Path
from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import to_jsonl
digest = hashlib.sha256()
for pack in sys.argv[1:]:
    cat = prepare(compile_pack(Path(pack)).ir)
    for seed in (3, 4):
        game = Game(cat, [make_bot("heuristic", seed * 10 + k) for k in range(4)], seed)
        game.play()
        digest.update(to_jsonl(game.log).encode())
print(digest.hexdigest())
"""


def test_the_heuristic_bot_plays_the_same_in_every_process() -> None:
    """A process of its own (another hash seed for strings, other memory addresses for the
    designs) plays the same games: what a Dask worker or a spawned one relies on. The bot's
    sums over sets of designs once followed their addresses."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    content = Path(__file__).resolve().parents[2] / "content"
    packs = [str(content / name) for name in ("acqinc", "clank", "vault", "space")]
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _DIGEST_LOGS, *packs],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests
