"""`clankwork check`/`build`/`schema` as a user runs them: exit codes and every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.tools.cli import main


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_tutorial_is_clean(tutorial_dir: Path) -> None:
    code, out = run("check", str(tutorial_dir))
    assert code == 0, out
    assert "error" not in out


def test_no_argument_checks_the_flagship() -> None:
    code, out = run("check")
    assert code == 0
    assert "card designs" in out


def test_broken_pack_names_all_three_problems(broken_dir: Path) -> None:
    code, out = run("check", str(broken_dir))
    assert code == 1
    assert "error[CW103]: unknown effect `+2 skil`" in out
    assert 'did you mean "skill"?' in out
    assert "error[CW107]" in out and "'Burgel'" in out and 'did you mean "Burgle"?' in out
    assert "error[CW202]: space 'Attic' cannot be reached from HQ" in out
    assert "cards.clank:6:37" in out and "board.clank:5:3" in out
    # the caret line sits under the typo
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if "+2 skil }" in line)
    assert lines[i + 1].rstrip().endswith("^" * len("+2 skil"))


def test_json_format(broken_dir: Path) -> None:
    code, out = run("check", str(broken_dir), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["summary"]["error"] == 3
    assert {d["code"] for d in doc["diagnostics"]} == {"CW103", "CW107", "CW202"}
    assert all(d["span"]["line"] >= 1 for d in doc["diagnostics"])


def test_github_format(broken_dir: Path) -> None:
    code, out = run("check", str(broken_dir), "--format", "github")
    assert code == 1
    assert out.count("::error file=") == 3


def test_sarif_format(broken_dir: Path) -> None:
    code, out = run("check", str(broken_dir), "--format", "sarif")
    doc = json.loads(out)
    assert code == 1 and doc["version"] == "2.1.0"
    assert len(doc["runs"][0]["results"]) == 3


def test_usage_error_exits_2() -> None:
    assert run("check", "--format", "nope")[0] == 2
    assert run("check", "no/such/pack")[0] == 2


def test_missing_manifest(tmp_path: Path) -> None:
    code, out = run("check", str(tmp_path))
    assert code == 1 and "CW004" in out and "pack.clank" in out


def test_build_writes_valid_ir(tmp_path: Path, tutorial_dir: Path) -> None:
    target = tmp_path / "pack.json"
    code, _ = run("build", str(tutorial_dir), "-o", str(target))
    assert code == 0
    from clankwork.interpreter.schema import validate_ir

    assert validate_ir(json.loads(target.read_text())) == []


def test_build_refuses_a_broken_pack(broken_dir: Path, tmp_path: Path) -> None:
    code, _ = run("build", str(broken_dir), "-o", str(tmp_path / "x.json"))
    assert code == 1
    assert not (tmp_path / "x.json").exists()


def test_manifest_without_pack_declaration(tmp_path: Path) -> None:
    (tmp_path / "pack.clank").write_text('include "cards.clank"\n', encoding="utf-8")
    (tmp_path / "cards.clank").write_text("card Burgle { starting 10 }\n", encoding="utf-8")
    code, out = run("check", str(tmp_path))
    assert code == 1 and "CW109" in out and "does not declare the pack" in out


def test_non_utf8_file(tmp_path: Path) -> None:
    (tmp_path / "pack.clank").write_text('pack p { version "1" }\ninclude "x.clank"\n')
    (tmp_path / "x.clank").write_bytes(b"\xff\xfe card")
    code, out = run("check", str(tmp_path))
    assert code == 1 and "is not UTF-8 text" in out and "pack.clank:2:9" in out


# -- untrusted packs (issue 13) -----------------------------------------------------------

SECRET = "TOPSECRET-93ab: this file is outside the pack"


def _pack_with_link_out(tmp_path: Path, tutorial_dir: Path) -> Path:
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack)
    outside = tmp_path / "outside.clank"
    outside.write_text(f'scenario "{SECRET}" {{\n  players 2\n}}\n# {SECRET}\n', "utf-8")
    (pack / "scenarios" / "x.clank").symlink_to(outside)
    return pack


def test_scenario_linked_out_is_refused_in_every_format(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack_with_link_out(tmp_path, tutorial_dir)
    for fmt in ("human", "json", "github", "sarif"):
        code, out = run("check", str(pack), "--format", fmt)
        assert code == 1, (fmt, out)
        assert "CW005" in out, fmt
        assert "x.clank" in out, fmt
        assert "TOPSECRET" not in out, fmt


def test_fifo_scenario_does_not_hang_check(tmp_path: Path, tutorial_dir: Path) -> None:
    import os
    import shutil
    import subprocess
    import sys

    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack)
    os.mkfifo(pack / "scenarios" / "y.clank")
    proc = subprocess.run(
        [sys.executable, "-c", "from clankwork.tools.cli import main; main()", "check", str(pack)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1, proc.stderr
    assert "error[CW005]" in proc.stdout and "FIFO" in proc.stdout


def test_human_output_escapes_a_hostile_folder_name(tmp_path: Path, broken_dir: Path) -> None:
    import shutil

    pack = tmp_path / "p\x1b[2J\x1b]0;owned\x07\nq"
    shutil.copytree(broken_dir, pack)
    code, out = run("check", str(pack))
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out
    assert "p\\x1b[2J" in out and "3 errors" in out


def test_check_catches_compiled_ir_that_breaks_the_schema(
    tutorial_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A compiler bug (here: an effect with a misspelt key, a card with 0 copies) must still
    # be a CW301 diagnostic from `check`, though the fast validator handles valid packs.
    from clankwork.dsl import compiler
    from clankwork.tools import check as check_module

    def broken(
        pack: Path,
        display_root: Path | None = None,
        overrides: dict[str, str] | None = None,
        parse: compiler.ParseFn | None = None,
    ) -> compiler.CompileResult:
        result = compiler.compile_pack(pack, display_root, overrides, parse)
        effect = next(c for c in result.ir["cards"] if c["triggers"])["triggers"][0]["effects"][0]
        effect["amout"] = 3
        result.ir["cards"][-1]["copies"] = 0
        return result

    monkeypatch.setattr(check_module, "compile_pack", broken)
    result = check_module.compile_and_check(tutorial_dir)
    found = [d for d in result.diagnostics if d.code == "CW301"]
    assert len(found) == 2
    assert any("'amout'" in d.message for d in found)
    assert any(d.message.endswith("0 is less than the minimum of 1") for d in found)


def test_check_restores_the_cycle_collector(tutorial_dir: Path) -> None:
    import gc

    from clankwork.tools.check import compile_and_check

    assert gc.isenabled()
    assert compile_and_check(tutorial_dir).ok
    assert gc.isenabled()
    gc.disable()
    try:
        compile_and_check(tutorial_dir)
        assert not gc.isenabled()  # a caller's choice is left as it was
    finally:
        gc.enable()
