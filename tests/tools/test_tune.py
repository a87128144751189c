"""`clankwork tune`: a seeded search of a pack's knobs that stops when its targets are met,
prefers the answer that changes fewest knobs, and is the same for any --jobs."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.interpreter.stats import RunTotals
from clankwork.tools.report_variants import Change
from clankwork.tools.tune import Knob, Search, Target, command

pytest.importorskip("optuna")

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "tune.schema.json").read_text(encoding="utf-8"))
# The tutorial with a Golden Ticket (5 points, +2 skill, +1 boots) at cost 1.
OVERSTRONG = ROOT / "tests" / "fixtures" / "overstrong"
TICKET = "Golden Ticket"


def tune(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(command, [str(OVERSTRONG), *args])
    return result.exit_code, result.stdout, result.stderr


def test_tune_brings_an_over_strong_cards_edge_to_zero(tmp_path: Path) -> None:
    out = {}
    for jobs in ("1", "2"):
        path = tmp_path / f"j{jobs}.json"
        code, stdout, stderr = tune(
            "--knob", f"cost:{TICKET}=1..9", "--target", f"edge:{TICKET}=0±5", "-n", "50",
            "--bots", "greedy", "--trials", "12", "-j", jobs, "--json", str(path),
        )  # fmt: skip
        assert code == 0, stderr
        out[jobs] = path.read_bytes()
    assert out["1"] == out["2"]  # the same trials and figures for any --jobs
    rep = json.loads(out["1"])
    Draft202012Validator(SCHEMA).validate(rep)
    first, best = rep["trail"][0], rep["best"]
    # The pack's own cost is tried first, and it is over-strong: its edge is far above 0.
    assert first["values"] == {f"cost:{TICKET}": 1} and first["figures"][0]["value"] > 0.1
    assert not first["met"]
    assert best["met"] and rep["stopped_by"] == "targets met"
    assert best["values"][f"cost:{TICKET}"] > 1
    assert abs(best["figures"][0]["value"]) <= 0.05
    assert (
        rep["games_spent"]
        == sum(t["games"] for t in rep["trail"])
        == 50 * len({tuple(t["values"].values()) for t in rep["trail"]})
    )
    assert f"answer: cost:{TICKET}={best['values'][f'cost:{TICKET}']} (from 1)" in stdout
    assert f"{rep['games_spent']} games played; stopped: a trial met every target" in stdout


def _rounds(n: int) -> RunTotals:
    t = RunTotals()
    t.games = 10
    t.round_hist = Counter({n: 5, n + 1: 5})
    return t


def test_the_answer_puts_back_every_knob_that_need_not_change() -> None:
    """Only the hand size moves the game length here: an answer that also moved the row size
    gets the row size back."""
    knobs = [Knob("rule", "hand_size", 4, 8, 5), Knob("rule", "row_size", 4, 8, 6)]
    played: list[tuple[Change, ...]] = []

    def measure(changes: tuple[Change, ...]) -> RunTotals:
        played.append(changes)
        hand = next(c.value for c in changes if c.key == "hand_size")
        return _rounds(10 + hand)

    search = Search(measure, knobs, [Target("rounds", "", 17.5, 0.1)], players=4, games=10)
    assert not search.evaluate({"rule:hand_size": 5, "rule:row_size": 6}).met
    found = search.evaluate({"rule:hand_size": 7, "rule:row_size": 8})
    assert found.met and found.changed == 2
    best = search.simplify(search.best())
    assert best.met and best.values == {"rule:hand_size": 7, "rule:row_size": 6}
    assert best.changed == 1 and best.phase == "simplify"
    # Putting the hand size back breaks the target: it stays changed.
    assert [t.values for t in search.trail if t.phase == "simplify"] == [
        {"rule:hand_size": 5, "rule:row_size": 8},
        {"rule:hand_size": 7, "rule:row_size": 6},
    ]
    assert search.trail[2].games == 10 and search.games_spent == 40


def test_a_trial_measured_before_plays_no_games() -> None:
    calls = []

    def measure(changes: tuple[Change, ...]) -> RunTotals:
        calls.append(changes)
        return _rounds(12)

    search = Search(measure, [Knob("rule", "hand_size", 4, 8, 5)], [Target("rounds", "", 3)], 4, 10)
    search.evaluate({"rule:hand_size": 6})
    again = search.evaluate({"rule:hand_size": 6})
    assert len(calls) == 1 and again.games == 0 and search.games_spent == 10
    assert len(search.trail) == 1 and again.number == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--knob", "cost:Golden Tiket=1..3", "--target", "rounds=12"], "did you mean"),
        (["--knob", "cost:Golden Ticket=5..3", "--target", "rounds=12"], "is empty"),
        (["--knob", "rule:hand_size=0..3", "--target", "rounds=12"], "hand size goes from 1 to 30"),
        (["--knob", "cost:Golden Ticket=1..3", "--target", "edge:Golden Ticket"], "expected"),
        (["--knob", "cost:Golden Ticket=1..3", "--target", "win_rate:seat9=0.25"], "seat1 to"),
    ],
)
def test_bad_knobs_and_targets_are_named(args: list[str], words: str) -> None:
    code, _, stderr = tune(*args, "-n", "5")
    assert code == 2 and words in stderr, stderr
