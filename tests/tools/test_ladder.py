"""`clankwork ladder`: each bot against the one below it, on the same seeds for any --jobs."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from clankwork.tools.check import load_ir
from clankwork.tools.ladder import climb, command

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "content" / "tutorial"


def test_the_ladder_prints_a_line_a_rung_with_its_interval_and_cost() -> None:
    result = CliRunner().invoke(command, ["tutorial", "-n", "12", "--rungs", "random,greedy"])
    assert result.exit_code == 0, result.output
    head, line = result.output.splitlines()
    assert head.startswith("tutorial, 2 players:")
    assert line.startswith("greedy      vs 1 random") and "(no skill: 50.0%)" in line
    assert "s a game, 12 games" in line


def test_the_ladder_is_the_same_for_any_jobs_and_counts_games_with_a_winner() -> None:
    ir = load_ir(TUTORIAL)
    one = climb(ir, ["random", "greedy", "heuristic"], 2, 10, seed=3)
    two = climb(ir, ["random", "greedy", "heuristic"], 2, 10, seed=3, jobs=2)
    assert [(r.strong, r.weak, r.wins, r.decided) for r in one] == [
        (r.strong, r.weak, r.wins, r.decided) for r in two
    ]
    for rung in one:
        assert rung.games == 10 and 0 <= rung.wins <= rung.decided <= rung.games
        assert rung.share == (rung.wins / rung.decided if rung.decided else 0.0)


def test_a_bad_rung_is_a_usage_error() -> None:
    for rungs, says in [("greedy", "two bots or more"), ("greedy,genius", "unknown bot")]:
        result = CliRunner().invoke(command, ["tutorial", "--rungs", rungs])
        assert result.exit_code == 2 and says in result.output, result.output
