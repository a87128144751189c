"""`balance` blocks: bot games on a fixed seed whose figures must stay within bounds, run by
`clankwork test --balance`, failing at the expectation's line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.tools.check import check
from clankwork.tools.scenario_cmd import command

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "content" / "tutorial"
BLOCK = """balance "Seat 1 is kept in check" {
  games 40; seed 3; players 4; bots greedy
  expect rounds mean between 5 and 20
  expect seat 1 win rate between 1% and 2%
}
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(command, list(args))
    return result.exit_code, result.output


def test_the_tutorials_balance_block_holds() -> None:
    code, out = run(str(TUTORIAL), "--balance", "-k", "any seat")
    assert code == 0, out
    assert "ok    balance: The tutorial stays a race that any seat can win (200 games)" in out


def test_without_balance_the_blocks_are_checked_but_not_played() -> None:
    code, out = run(str(TUTORIAL))
    assert code == 0 and "1 balance block not played (--balance plays them)" in out


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    copy = tmp_path / "tutorial"
    shutil.copytree(TUTORIAL, copy)
    (copy / "scenarios" / "balance.clank").write_text(BLOCK)
    return copy


def test_a_broken_expectation_fails_at_its_line_the_same_for_any_jobs(pack: Path) -> None:
    outs = []
    for jobs in ("1", "2"):
        code, out = run(str(pack), "--balance", "-k", "kept", "-j", jobs)
        assert code == 1
        outs.append(out)
    assert outs[0] == outs[1]
    out = outs[0]
    assert "FAIL  balance: Seat 1 is kept in check (40 games)" in out
    assert "error[CW404]: balance 'Seat 1 is kept in check': seat 1 win rate is " in out
    assert "expected between 1% and 2% (40 games, seed 3, greedy)" in out
    assert "scenarios/balance.clank:4:3" in out  # the failing expectation's line and column
    assert ":3:3" not in out  # the one that holds is not reported


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("expect seat 1 win rate between 20 and 30", "a rate is written as a percentage"),
        ('expect card "Lucky Coyn" edge within 5', "no card named 'Lucky Coyn'"),
        ("expect rounds mean below 16%", "a mean is a plain number"),
        ("expect dragons below 3", "no figure 'dragons' to expect"),
        ("expect rounds mean around 12", "an expectation names a figure, then between"),
        ("gamez 10", "a balance block has no statement 'gamez'"),
        ("games 0", "games cannot be 0"),
    ],
)
def test_a_badly_written_block_is_a_diagnostic_at_its_line(
    pack: Path, line: str, words: str
) -> None:
    (pack / "scenarios" / "balance.clank").write_text(
        f'balance "b" {{\n  games 5\n  {line}\n  expect rounds mean below 90\n}}\n'
    )
    code, out = run(str(pack), "-k", "nothing")
    assert code == 1 and words in out, out
    assert "balance.clank:3:" in out
    checked = CliRunner().invoke(check, [str(pack)])  # `clankwork check` says it too
    assert checked.exit_code == 1 and words in checked.output
