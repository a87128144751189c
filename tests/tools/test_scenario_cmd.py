"""`clankwork test`: passing packs exit 0; failures name the scenario line and the values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.interpreter.effects import EFFECTS
from clankwork.interpreter.scenario import run_scenario
from clankwork.tools.cli import main


def _pack_with(tmp_path: Path, tutorial_dir: Path, text: str) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack, ignore=shutil.ignore_patterns("scenarios"))
    (pack / "scenarios").mkdir()
    (pack / "scenarios" / "s.clank").write_text(text, encoding="utf-8")
    return pack


def test_bundled_scenarios_pass(tutorial_dir: Path) -> None:
    result = CliRunner().invoke(main, ["test", str(tutorial_dir)])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def test_a_wrong_expectation_fails_at_its_line(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack_with(
        tmp_path,
        tutorial_dir,
        'scenario "Burgle" {\n  player 1 { hand Burgle }\n  play Burgle\n'
        "  expect player 1 skill 2\n}\n",
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exit_code == 1
    assert "error[CW401]" in result.output
    assert "expected player 1 skill 2, got 1" in result.output
    assert "s.clank:4:3" in result.output
    assert "1 scenario: 0 passed, 1 failed" in result.output


def test_an_unscripted_decision_fails(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack_with(
        tmp_path,
        tutorial_dir,
        'scenario "Shrine" {\n  player 1 { hand "Hidden Shrine" }\n  play "Hidden Shrine"\n'
        "  expect player 1 gold 1\n  end turn\n}\n",
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exit_code == 1
    assert "error[CW402]" in result.output
    assert "unscripted decision" in result.output and "choose" in result.output
    assert "s.clank:4:3" in result.output


def test_answers_drive_choices(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack_with(
        tmp_path,
        tutorial_dir,
        'scenario "Shrine" {\n  player 1 { hand "Hidden Shrine" }\n  play "Hidden Shrine"\n'
        '  answer "+1 Gold"\n  expect player 1 gold 1\n}\n',
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exit_code == 0, result.output


def test_an_illegal_step_lists_the_legal_actions(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack_with(
        tmp_path,
        tutorial_dir,
        'scenario "Too far" {\n  player 1 { at HQ; hand Sidestep }\n  play Sidestep\n'
        '  move "Dragon\'s Maw"\n}\n',
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exit_code == 1
    assert "is not a legal action" in result.output and "move to Gatehouse" in result.output


# Issue 26: statements `check` passed and `test` crashed on are diagnostics of both, at their
# line, in the usual format; an engine exception is a failed scenario at its line.
FINDINGS = [
    ("bag player 3 1", "CW140", "bag player 3 in a 2-player scenario", "2:14", "set `players 3`"),
    ("draws blac 1 2 2", "CW107", "no cube named 'blac'", "2:9", 'did you mean "black"?'),
]


@pytest.mark.parametrize(("line", "code", "message", "where", "hint"), FINDINGS)
@pytest.mark.parametrize("command", ["check", "test"])
def test_a_bad_seat_or_cube_is_a_diagnostic_not_a_traceback(
    tmp_path: Path,
    tutorial_dir: Path,
    command: str,
    line: str,
    code: str,
    message: str,
    where: str,
    hint: str,
) -> None:
    pack = _pack_with(tmp_path, tutorial_dir, f'scenario "s" {{\n  {line}\n}}\n')
    result = CliRunner().invoke(main, [command, str(pack)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 1, result.output
    assert f"error[{code}]: {message}" in result.output
    assert f"s.clank:{where}" in result.output and f"\n 2 |   {line}\n" in result.output
    assert f"= help: {hint}" in result.output
    assert "Traceback" not in result.output


def _boom(*_args: object) -> None:
    raise ZeroDivisionError("the handler broke")


def test_an_engine_exception_fails_its_scenario_at_its_line(
    tmp_path: Path, tutorial_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`draw` breaks: the scenario playing Lucky Coin (+1 skill, +1 clank, draw 1) fails at
    that line with what happened in one line; the others still run; the traceback only with
    --verbose."""
    monkeypatch.setitem(EFFECTS.handlers, "draw", _boom)
    pack = _pack_with(
        tmp_path,
        tutorial_dir,
        'scenario "Lucky Coin" {\n  player 1 { hand "Lucky Coin" Burgle; deck Burgle }\n'
        '  play Burgle\n  play "Lucky Coin"\n  expect player 1 skill 2\n}\n'
        'scenario "Burgle" {\n  player 1 { hand Burgle }\n  play Burgle\n'
        "  expect player 1 skill 1\n}\n",
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 1
    assert (
        "error[CW403]: scenario 'Lucky Coin': the engine failed while carrying out "
        "`play Lucky Coin`: ZeroDivisionError: the handler broke"
    ) in result.output
    assert "s.clank:4:3" in result.output and "--verbose" in result.output
    assert "FAIL  Lucky Coin" in result.output and "ok    Burgle" in result.output
    assert "Traceback" not in result.output
    verbose = CliRunner().invoke(main, ["test", "--verbose", str(pack)])
    assert verbose.exit_code == 1
    assert "traceback of scenario 'Lucky Coin'" in verbose.output
    assert "Traceback (most recent call last)" in verbose.output and "_boom" in verbose.output
    as_json = CliRunner().invoke(main, ["test", "--format", "json", str(pack)])
    doc = json.loads(as_json.output)
    assert [(d["code"], d["span"]["line"]) for d in doc["diagnostics"]] == [("CW403", 4)]


def test_an_engine_exception_while_setting_up_is_reported_at_the_statement(
    tutorial_ir: dict,
) -> None:
    """Scenario IR from elsewhere than the compiler (a hand-edited file) naming a card the pack
    lacks: the failure is the scenario's, at the setup statement being carried out."""
    at = {"file": "s.clank", "line": 1, "col": 1, "end_line": 5, "end_col": 2}
    sc = {
        "name": "s",
        "players": 2,
        "setup": [],
        "steps": [],
        "rage": 2,
        "reserve": {"Nonesuch": 1},
        "at": at,
        "setup_at": {"rage": {**at, "line": 2}, "reserve": {**at, "line": 3}},
    }
    (failure,) = run_scenario(tutorial_ir, sc).failures
    assert failure.kind == "crash" and failure.at["line"] == 3
    assert failure.message == "the engine failed while setting up `reserve`: KeyError: 'nonesuch'"
    assert failure.trace is not None and "KeyError" in failure.trace
