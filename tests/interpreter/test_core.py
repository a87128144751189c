"""The compiled core (interpreter/core.py, tools/build_core.py): used only when current, and
playing exactly as the Python source does."""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.interpreter import core
from clankwork.tools import build_core
from clankwork.tools.cli import main as cli

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _fake_build(tmp_path: Path, **files: str) -> tuple[Path, Path]:
    """A copy of the core's sources and a build folder whose manifest names ``files``
    (module -> the extension file's name), each recorded with its source's hash."""
    source = tmp_path / "src"
    source.mkdir()
    for name in core.MODULES:
        shutil.copyfile(core.HERE / f"{name}.py", source / f"{name}.py")
    folder = tmp_path / "_compiled"
    folder.mkdir()
    builds = {}
    for name, file in files.items():
        (folder / file).write_bytes(b"not really a module")
        sha = core.source_hash(source / f"{name}.py")
        builds[file] = {"module": name, "source_sha256": sha, "cython": "3"}
    (folder / core.MANIFEST).write_text(json.dumps({"builds": builds}))
    return folder, source


def test_a_module_is_compiled_only_while_its_source_is_the_one_built(tmp_path: Path) -> None:
    folder, source = _fake_build(
        tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}", steps="steps.cpython-39-x.so"
    )
    assert core.status(folder, source) == {
        "actions": "not built",
        "bots": "compiled",
        "game": "compiled",
        "state": "not built",
        "steps": "other python",
    }
    # An edit to the source (a pull, a checkout) makes the build stale, never shadowing it.
    with open(source / "game.py", "a") as f:
        f.write("\n# edited\n")
    assert core.status(folder, source)["game"] == "stale"
    # A source that cannot be read is never matched (and the import does not fail).
    (source / "steps.py").unlink()
    (folder / "steps.cpython-39-x.so").rename(folder / f"steps{SUFFIX}")
    manifest = json.loads((folder / core.MANIFEST).read_text())
    manifest["builds"][f"steps{SUFFIX}"] = manifest["builds"].pop("steps.cpython-39-x.so")
    (folder / core.MANIFEST).write_text(json.dumps(manifest))
    assert core.status(folder, source)["steps"] == "stale"
    # A build whose file is gone is not built, whatever the manifest says.
    (folder / f"bots{SUFFIX}").unlink()
    assert core.status(folder, source)["bots"] == "not built"


def test_the_finder_answers_only_for_current_compiled_modules(tmp_path: Path) -> None:
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}")
    finder = core._CompiledFinder(folder, source)
    assert finder.find_spec("clankwork.interpreter.bots") is not None
    # Edited while the process runs (a language server, a notebook): the next import of it
    # is the source's.
    with open(source / "bots.py", "a") as f:
        f.write("\n# edited\n")
    spec = finder.find_spec("clankwork.interpreter.game")
    assert spec is not None and spec.origin == str(folder / f"game{SUFFIX}")
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert finder.find_spec("clankwork.interpreter.bots") is None  # stale: the .py
    assert finder.find_spec("clankwork.interpreter.actions") is None  # not built
    assert finder.find_spec("clankwork.interpreter.catalog") is None  # never compiled
    assert finder.find_spec("clankwork.interpreter.effects.game") is None
    assert finder.find_spec("game") is None


def test_an_unreadable_manifest_means_no_build(tmp_path: Path) -> None:
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}")
    (folder / core.MANIFEST).write_text("{not json")
    assert set(core.status(folder, source).values()) == {"not built"}
    (folder / core.MANIFEST).write_text("[1, 2]")
    assert set(core.status(folder, source).values()) == {"not built"}
    (folder / core.MANIFEST).write_text('{"builds": {"game.so": 3, "x": {"module": "game"}}}')
    assert set(core.status(folder, source).values()) == {"not built"}


def test_builds_for_two_pythons_share_a_folder(tmp_path: Path) -> None:
    """Venvs of two Pythons on one checkout: each finds its own build of a module."""
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}")
    manifest = json.loads((folder / core.MANIFEST).read_text())
    other = "game.cpython-39-x86_64-linux-gnu.so"
    manifest["builds"][other] = {"module": "game", "source_sha256": "0" * 64}
    (folder / other).write_bytes(b"")
    (folder / core.MANIFEST).write_text(json.dumps(manifest))
    assert core.module_state("game", folder, source) == ("compiled", folder / f"game{SUFFIX}")
    (folder / f"game{SUFFIX}").unlink()
    assert core.module_state("game", folder, source) == ("other python", None)


def _reads_its_own_target(node: ast.AST) -> list[str]:
    """`f(n, n := g())` and the like: Cython evaluates a plain name read in the same
    expression as a named expression assigning it after the assignment, Python before."""
    found = []
    for stmt in ast.walk(node):
        if not isinstance(stmt, ast.stmt):
            continue
        for child in ast.iter_child_nodes(stmt):
            if not isinstance(child, ast.expr):
                continue
            targets = {n.target.id for n in ast.walk(child) if isinstance(n, ast.NamedExpr)}
            loads = {
                n.id
                for n in ast.walk(child)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            }
            found += [f"line {stmt.lineno}: {t}" for t in sorted(targets & loads)]
    return found


def test_no_compiled_module_reads_a_name_it_assigns_in_the_same_expression() -> None:
    assert _reads_its_own_target(ast.parse("x = f(n, (n := 3))")) == ["line 1: n"]
    assert _reads_its_own_target(ast.parse("if (m := 3) > 1:\n    y = m")) == []
    for name in core.MODULES:
        tree = ast.parse((core.HERE / f"{name}.py").read_text())
        assert _reads_its_own_target(tree) == [], f"{name}.py"


def test_build_core_without_cython_says_how_to_get_it(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "Cython", None)
    with pytest.raises(build_core.CoreBuildError, match=r"pip install 'clankwork\[fast\]'"):
        build_core.build(folder=tmp_path / "_compiled")
    monkeypatch.setattr(build_core.core, "COMPILED", tmp_path / "none")
    monkeypatch.setattr(
        build_core.core, "status", lambda *a: dict.fromkeys(core.MODULES, "not built")
    )
    result = CliRunner().invoke(cli, ["build-core"])
    assert result.exit_code == 1
    assert "Cython is not installed" in result.output
    assert "runs without it, as Python" in result.output
    assert "Traceback" not in result.output


def _compiler_ready() -> str | None:
    try:
        build_core._requirements()
    except build_core.CoreBuildError as e:
        return str(e)
    return None


def test_build_core_compiles_a_module_that_then_imports(tmp_path: Path) -> None:
    """The real build, of the smallest module, into a folder of its own."""
    why = _compiler_ready()
    if why:
        pytest.skip(why)
    folder = tmp_path / "_compiled"
    assert build_core.build(folder=folder, only=("state",), say=lambda m: None) == ["state"]
    assert core.status(folder)["state"] == "compiled"
    assert build_core.build(folder=folder, only=("state",), say=lambda m: None) == []
    manifest = json.loads((folder / core.MANIFEST).read_text())
    (name,) = manifest["builds"]
    assert manifest["builds"][name]["module"] == "state"
    assert manifest["builds"][name]["source_sha256"] == core.source_hash(core.HERE / "state.py")
    file = folder / name
    check = (
        "import sys\n"
        "from clankwork.interpreter import core\n"
        "sys.meta_path.insert(0, core._CompiledFinder(core.Path(sys.argv[1]), core.HERE))\n"
        "import clankwork.interpreter.state as s\n"
        "print(s.__file__, s.PlayerState.__module__)\n"
    )
    env = {**os.environ, core.ENV: "python"}  # only the test's finder: the state just built
    out = subprocess.run(
        [sys.executable, "-c", check, str(folder)], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(file), "clankwork.interpreter.state"]


_PLAY = """
import hashlib, sys
from pathlib import Path
from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.core import describe
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import to_jsonl
digest = hashlib.sha256()
for pack in sys.argv[1:]:
    cat = prepare(compile_pack(Path(pack)).ir)
    for bot in ("heuristic", "greedy", "random"):
        for players in (2, 4):
            for seed in (3, 4, 5):
                game = Game(cat, [make_bot(bot, seed * 10 + k) for k in range(players)], seed)
                game.play()
                digest.update(to_jsonl(game.log).encode())
print(describe())
print(digest.hexdigest())
"""


def test_the_compiled_core_plays_exactly_as_the_python_source() -> None:
    """Every pack, bot and player count: the same logs, byte for byte, from the compiled core
    (when this checkout has it built, as the quick start does) and from the Python source."""
    state = core.status()
    if set(state.values()) != {"compiled"}:
        pytest.skip(f"the compiled core is not built and current here: {state}")
    content = Path(__file__).resolve().parents[2] / "content"
    packs = [str(content / p) for p in ("tutorial", "acqinc", "clank", "vault", "space")]
    runs = {}
    for which in ("compiled", "python"):
        env = {k: v for k, v in os.environ.items() if k != core.ENV}
        if which == "python":
            env[core.ENV] = "python"
        out = subprocess.run(
            [sys.executable, "-c", _PLAY, *packs], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        runs[which] = out.stdout.splitlines()
    assert runs["compiled"][0].startswith("compiled core (Cython")
    assert runs["compiled"][0].endswith(": " + ", ".join(core.MODULES))
    assert runs["python"][0] == f"Python source ({core.ENV}=python)"
    assert runs["compiled"][1] == runs["python"][1]
