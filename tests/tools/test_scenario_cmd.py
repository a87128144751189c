"""`clankwork test`: passing packs exit 0; failures name the scenario line and the values."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

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
