"""Hostile command lines: every command, every option, odd values. Never a traceback, never
a hang; exit codes stay 0 (fine), 1 (the pack has errors) or 2 (usage)."""

from __future__ import annotations

from pathlib import Path

import fuzzing
import pytest
from click.testing import CliRunner

from clankwork.tools.cli import main

HUGE = "1000000000000"
NUMBERS = ("0", "-1", HUGE, "9" * 5000, "abc", "1.5", "")


def _cases(tmp: Path) -> list[list[str]]:
    tut = str(fuzzing.ROOT / "content" / "tutorial")
    nowhere = str(tmp / "missing" / "x")
    cases: list[list[str]] = []
    for n in NUMBERS:
        cases += [
            ["simulate", tut, "--games", n],
            ["simulate", tut, "--games", "1", "--players", n],
            ["simulate", tut, "--games", "1", "--seed", n],
            ["simulate", tut, "--games", "1", "--jobs", n],
            ["simulate", tut, "--games", "1", "--rule", f"round_cap={n}"],
            ["simulate", tut, "--games", "1", "--rule", f"hand_size={n}"],
            ["render", "board", tut, "-o", str(tmp / "b.svg"), "--scale", n],
        ]
    cases += [
        ["simulate", tut, "--games", "1", "--rule", "nosuch=3"],
        ["simulate", tut, "--games", "1", "--rule", "round_cap"],
        ["simulate", tut, "--games", "1", "--rule", "rage_track=" + "[" * 100_000],
        ["simulate", tut, "--games", "1", "--bots", "nosuch"],
        ["simulate", tut, "--games", "1", "--json", nowhere],
        ["simulate", tut, "--games", "1", "--log-dir", str(fuzzing.ROOT / "README.md")],
        ["simulate", tut, "--games", "1", "--board", "nosuch"],
        ["build", tut, "-o", nowhere],
        ["build", tut, "-o", str(tmp)],
        ["build", str(fuzzing.ROOT / "README.md")],
        ["check", str(tmp)],
        ["check", "--format", "sarif", str(fuzzing.ROOT / "pyproject.toml")],
        ["test", tut, "-k", "\x1b[31m"],
        ["render", "board", tut, "-o", nowhere],
        ["render", "board", tut, "-o", str(tmp / "b.svg"), "--board", "nosuch"],
        ["render", "board", tut, "-o", str(tmp / "b.svg"), "--heatmap", str(fuzzing.ROOT)],
        ["render", "board", tut, "-o", str(tmp / "b.svg"), "--heatmap", tut + "/pack.clank"],
        ["render", "cards", tut, "-o", str(fuzzing.ROOT / "README.md")],
        ["render", "cards", tut, "-o", str(tmp / "c"), "--format", "png", "--dpi", "0"],
        ["render", "pnp", tut, "-o", nowhere],
        ["render", "pnp", tut, "-o", str(tmp)],
        ["render", "pnp", tut, "-o", str(tmp / "p.pdf"), "--bleed", "-1"],
        ["render", "pnp", tut, "-o", str(tmp / "p.pdf"), "--bleed", HUGE],
        ["render", "pnp", tut, "-o", str(tmp / "p.pdf"), "--paper", "tabloid"],
        ["render", "pnp", tut, "-o", str(tmp / "p.pdf"), "--board-size", "0"],
        ["render", "pnp", tut, "-o", str(tmp / "p.pdf"), "--board", "nosuch"],
        ["render", "template", "-o", nowhere],
        ["export", "tts", tut, "-o", str(fuzzing.ROOT / "README.md")],
        ["export", "tts", tut, "-o", str(tmp / "t"), "--base-url", "javascript:alert(1)"],
        ["export", "tts", tut, "-o", str(tmp / "t"), "--dpi", HUGE],
        ["kit", str(tmp / "nosuch"), "-o", str(tmp / "k")],
        ["kit", tut, "-o", str(fuzzing.ROOT / "README.md")],
        ["replay", str(fuzzing.ROOT / "README.md")],
        ["replay", tut + "/pack.clank", "--check"],
    ]
    return cases


def test_no_command_line_ends_in_a_traceback(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = []
    for args in _cases(tmp_path):
        with fuzzing.time_budget(60):
            result = runner.invoke(main, args, catch_exceptions=True)
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        if crashed or result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
            bad.append(f"{args[:4]}... -> exit {result.exit_code}: {result.exception!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("games", [HUGE, "0", "-5"])
def test_simulate_refuses_absurd_game_counts(games: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--games", games])
    assert result.exit_code == 2, result.output
