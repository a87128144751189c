"""`clankwork fmt`: rewrites only what changes, --check and --diff exit codes, syntax errors."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from clankwork.tools.cli import main

MESSY = "card   A{cost 1 ;play:+1 skill}\n"
TIDY = "card A { cost 1; play: +1 skill }\n"


def run(*args: str):
    return CliRunner().invoke(main, ["fmt", *args])


def test_fmt_rewrites_a_folder_recursively_and_only_changed_files(tmp_path: Path) -> None:
    (tmp_path / "scenarios").mkdir()
    messy = tmp_path / "scenarios" / "a.clank"
    tidy = tmp_path / "b.clank"
    messy.write_text(MESSY)
    tidy.write_text(TIDY)
    (tmp_path / "notes.txt").write_text(MESSY)
    before = tidy.stat().st_mtime_ns
    result = run(str(tmp_path))
    assert result.exit_code == 0, result.output
    assert messy.read_text() == TIDY
    assert tidy.stat().st_mtime_ns == before
    assert (tmp_path / "notes.txt").read_text() == MESSY
    assert "2 files: reformatted 1" in result.output


def test_check_lists_files_that_would_change_and_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "a.clank"
    f.write_text(MESSY)
    result = run("--check", str(f))
    assert result.exit_code == 1
    assert f"would reformat {f}" in result.output
    assert f.read_text() == MESSY
    f.write_text(TIDY)
    assert run("--check", str(f)).exit_code == 0


def test_diff_prints_a_unified_diff_and_changes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "a.clank"
    f.write_text(MESSY)
    result = run("--diff", str(f))
    assert result.exit_code == 1
    assert f"-{MESSY}" in result.output and f"+{TIDY}" in result.output
    assert "@@" in result.output
    assert f.read_text() == MESSY


def test_a_syntax_error_is_reported_like_check_and_the_file_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / "bad.clank"
    text = 'card A { cost 1 }\ncard "B { cost 2 }\n'
    bad.write_text(text)
    good = tmp_path / "good.clank"
    good.write_text(MESSY)
    result = run(str(tmp_path))
    assert result.exit_code == 1
    assert f"{bad}:2:6" in result.output
    assert "CW003" in result.output
    assert bad.read_text() == text
    assert good.read_text() == TIDY  # the other files are still formatted


def test_no_paths_means_the_current_folder(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.clank").write_text(MESSY)
    monkeypatch.chdir(tmp_path)
    assert run("--check").exit_code == 1
    assert run().exit_code == 0
    assert (tmp_path / "a.clank").read_text() == TIDY


def test_a_link_is_refused_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text(MESSY)
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "a.clank").symlink_to(target)
    result = run(str(tmp_path / "pack"))
    assert result.exit_code == 1
    assert "CW005" in result.output
    assert target.read_text() == MESSY


def test_the_bundled_packs_are_formatted() -> None:
    content = Path(__file__).resolve().parents[2] / "content"
    result = run("--check", str(content))
    assert result.exit_code == 0, result.output
