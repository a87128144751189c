"""`clankwork new`: the skeleton checks, tests and plays as written; bad names are refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.tools.cli import main


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture()
def in_tmp(tmp_path: Path) -> Path:
    """Run the command from a fresh folder (NAME is created in the current folder)."""
    old = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


def test_new_pack_checks_tests_and_simulates(in_tmp: Path) -> None:
    code, out = _run("new", "mypack")
    assert code == 0, out
    pack = in_tmp / "mypack"
    assert (pack / "pack.clank").is_file()
    assert (pack / "scenarios" / "basics.clank").is_file()
    code, out = _run("check", "mypack")
    assert code == 0, out
    assert "no problems" in out
    code, out = _run("test", "mypack")
    assert code == 0, out
    assert "2 scenarios: 2 passed, 0 failed" in out
    code, out = _run("fmt", "--check", "mypack")
    assert code == 0, out
    code, out = _run("simulate", "mypack", "--games", "5", "--players", "2", "--json", "r.json")
    assert code == 0, out
    report = json.loads((in_tmp / "r.json").read_text())
    # Every game ends by the rules (escapes, knock-outs), none at the round cap.
    assert report["games"] == 5
    assert report["capped"]["count"] == 0


def test_new_pack_board_renders(in_tmp: Path) -> None:
    assert _run("new", "mypack")[0] == 0
    code, out = _run("render", "board", "mypack", "-o", "board.svg")
    assert code == 0, out
    svg = (in_tmp / "board.svg").read_text()
    assert "Chalice Crypt" in svg and "Dark Forest" in svg


def test_dir_option_and_teaching_comments(tmp_path: Path) -> None:
    code, out = _run("new", "cellar-pack", "--dir", str(tmp_path))
    assert code == 0, out
    manifest = (tmp_path / "cellar-pack" / "pack.clank").read_text()
    assert 'pack "cellar-pack"' in manifest
    assert "version" in manifest and "description" in manifest
    assert "extends" not in manifest
    # Every file explains itself to the designer.
    for f in (tmp_path / "cellar-pack").rglob("*.clank"):
        assert f.read_text().startswith("#"), f


def test_extends_writes_a_working_extension(tmp_path: Path) -> None:
    code, out = _run("new", "child", "--extends", "tutorial", "--dir", str(tmp_path))
    assert code == 0, out
    child = tmp_path / "child"
    manifest = (child / "pack.clank").read_text()
    assert "extends tutorial" in manifest
    assert "no effect yet" not in manifest
    for args in (("check",), ("test",), ("fmt", "--check")):
        code, out = _run(*args, str(child))
        assert code == 0, (args, out)
    code, out = _run("build", str(child), "-o", str(tmp_path / "child.json"))
    assert code == 0, out
    ir = json.loads((tmp_path / "child.json").read_text())
    [base] = ir["pack"]["extends"]
    assert (base["name"], base["ref"]) == ("tutorial", "tutorial")
    # The tutorial's cards, plus the new one, with one changed.
    names = {c["name"] for c in ir["cards"]}
    assert {"Burgle", "Night Shift"} <= names
    code, out = _run("simulate", str(child), "--games", "2", "--players", "2")
    assert code == 0, out


def test_extends_a_folder_beside_the_new_pack(tmp_path: Path) -> None:
    assert _run("new", "base", "--dir", str(tmp_path))[0] == 0
    code, out = _run("new", "child", "--extends", "../base", "--dir", str(tmp_path))
    assert code == 0, out
    assert 'extends "../base"' in (tmp_path / "child" / "pack.clank").read_text()
    code, out = _run("test", str(tmp_path / "child"))
    assert code == 0, out


@pytest.mark.parametrize("base", ["nosuchpack", "../nowhere", "../../escape", "/etc"])
def test_extends_needs_a_pack_that_is_there(tmp_path: Path, base: str) -> None:
    code, out = _run("new", "child", "--extends", base, "--dir", str(tmp_path))
    assert code == 2, out
    assert not (tmp_path / "child").exists()


def test_existing_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    code, out = _run("new", "taken", "--dir", str(tmp_path))
    assert code == 2
    assert "already exists" in out
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["keep.txt"]


def test_existing_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    code, out = _run("new", "linked", "--dir", str(tmp_path))
    assert code == 2
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize(
    "name",
    ["../escape", "a/b", "/abs", ".hidden", "My Pack", "MyPack", "con", "x\x1b[2J", "", "-x"],
)
def test_hostile_names_are_refused(tmp_path: Path, name: str) -> None:
    before = sorted(tmp_path.parent.iterdir())
    code, out = _run("new", name, "--dir", str(tmp_path))
    assert code == 2, out
    assert "Traceback" not in out
    assert list(tmp_path.iterdir()) == []
    assert sorted(tmp_path.parent.iterdir()) == before


def test_hostile_extends_is_refused(tmp_path: Path) -> None:
    code, out = _run("new", "ok", "--extends", 'x" }\ncard Evil {', "--dir", str(tmp_path))
    assert code == 2
    assert not (tmp_path / "ok").exists()


def test_missing_parent_is_refused(tmp_path: Path) -> None:
    code, out = _run("new", "ok", "--dir", str(tmp_path / "nope"))
    assert code == 2
    assert "does not exist" in out
