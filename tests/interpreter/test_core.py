"""The compiled core (interpreter/core.py, setup.py, tools/build_core.py): built at install
time beside its sources, used only while current, playing exactly as the Python source does,
and never taking the tool down when its files are damaged."""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.interpreter import core
from clankwork.tools import build_core
from clankwork.tools.cli import main as cli

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
ROOT = core.HERE.parent
# CI must run the tests that need the compiled core: there they fail rather than skip.
IN_CI = bool(os.environ.get("CI"))


def _fake_build(tmp_path: Path, *names: str) -> Path:
    """A copy of the core's sources with a fake built file for each of ``names``, recorded
    as a build would record it."""
    folder = tmp_path / "interpreter"
    folder.mkdir()
    for name in core.MODULES:
        copy = core.source_file(name, folder)
        copy.parent.mkdir(parents=True, exist_ok=True)  # a module of a subpackage
        shutil.copyfile(core.source_file(name), copy)
    builds = {}
    for name in names:
        file = folder / f"{name}{SUFFIX}"
        file.write_bytes(b"not really a module")
        builds[file.name] = core.record(file, name, core.source_hash(core.source_file(name)))
    (folder / core.MANIFEST).write_text(json.dumps({"builds": builds}))
    return folder


def test_a_module_is_compiled_only_while_its_source_and_file_are_the_ones_built(
    tmp_path: Path,
) -> None:
    folder = _fake_build(tmp_path, "game", "bots", "turn")
    state = core.status(folder)
    assert state["game"] == state["bots"] == state["turn"] == "compiled"
    assert state["actions"] == "not built"
    # An edit to the source (a pull, a checkout) makes the build stale, never shadowing it.
    with open(folder / "game.py", "a") as f:
        f.write("\n# edited\n")
    assert core.module_state("game", folder) == ("stale", None)
    # A file cut short (SIGBUS when mapped), or overwritten with as many other bytes.
    (folder / f"bots{SUFFIX}").write_bytes(b"not really")
    assert core.module_state("bots", folder) == ("damaged", None)
    (folder / f"bots{SUFFIX}").write_bytes(b"not really a MODULE")
    assert core.module_state("bots", folder) == ("damaged", None)
    # A built file the record does not name (copied in, or the record lost).
    (folder / f"actions{SUFFIX}").write_bytes(b"from elsewhere")
    assert core.module_state("actions", folder) == ("unrecorded", None)
    (folder / core.MANIFEST).write_text("{not json")
    assert core.module_state("turn", folder) == ("unrecorded", None)


def test_a_file_whose_time_changed_is_checked_by_its_hash(tmp_path: Path) -> None:
    folder = _fake_build(tmp_path, "state")
    file = folder / f"state{SUFFIX}"
    os.utime(file, ns=(1, 1))  # touched, the same bytes: still the file built
    assert core.module_state("state", folder) == ("compiled", file)


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
        tree = ast.parse(core.source_file(name).read_text())
        assert _reads_its_own_target(tree) == [], f"{name}.py"


def test_build_core_without_cython_says_how_to_get_it(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "Cython", None)
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "setup.py").write_text("")
    with pytest.raises(build_core.CoreBuildError, match=r"pip install 'clankwork\[fast\]'"):
        build_core.build(root=tmp_path)
    monkeypatch.setattr(build_core, "ROOT", tmp_path)
    monkeypatch.setattr(
        build_core.core, "status", lambda *a: dict.fromkeys(core.MODULES, "not built")
    )
    result = CliRunner().invoke(cli, ["build-core"])
    assert result.exit_code == 1
    assert "Cython is not installed" in result.output
    assert "runs without it, as Python" in result.output
    assert "Traceback" not in result.output


def test_build_core_of_a_wheel_says_to_reinstall(tmp_path: Path) -> None:
    (tmp_path / "interpreter").mkdir()
    with pytest.raises(build_core.CoreBuildError, match="force-reinstall"):
        build_core.build(root=tmp_path)


def _compiler_ready() -> str | None:
    try:
        build_core._requirements(ROOT)
    except build_core.CoreBuildError as e:
        return str(e)
    import sysconfig

    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers are missing (apt-get install python3-dev)"
    if shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is None:
        return "no C compiler (apt-get install gcc)"
    return None


def _need_core() -> None:
    """Skip unless this checkout's core is built and current (in CI: fail), and skip when
    ``CLANKWORK_CORE=python`` asks this run for the Python source."""
    if not core.enabled():
        pytest.skip(f"{core.ENV}=python: this run uses the Python source")
    state = core.status()
    if set(state.values()) != {"compiled"}:
        why = f"the compiled core is not built and current here: {state}"
        if IN_CI:
            pytest.fail(why + " (CI builds it: `pip install -e .` with gcc and Python's headers)")
        pytest.skip(why)


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
    (built by the install, as the quick start and CI do) and from the Python source."""
    _need_core()
    packs = [str(ROOT / "content" / p) for p in ("tutorial", "acqinc", "clank", "vault", "space")]
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
    assert runs["compiled"][0].endswith(": " + ", ".join(sorted(core.MODULES)))
    assert runs["python"][0] == f"Python source ({core.ENV}=python)"
    assert runs["compiled"][1] == runs["python"][1]


def test_a_compiled_function_s_traceback_names_its_source_file_and_line() -> None:
    """An exception raised in compiled code: the frame names the real .py and the line."""
    _need_core()
    from clankwork.interpreter import economy
    from clankwork.interpreter.state import PlayerState

    assert not economy.__file__.endswith(".py")  # the compiled module
    source = core.source_file("economy")
    line = next(
        k
        for k, text in enumerate(source.read_text().splitlines(), 1)
        if 'raise RuntimeError("paid more gold than the player has")' in text
    )

    class _Game:
        box: list = []

    with pytest.raises(RuntimeError) as caught:
        economy.pay_gold(_Game(), PlayerState(0), 5)
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno) == (str(source), line)
    assert frame.line and "paid more gold" in frame.line  # the source line is found


_FIRST = """
import importlib, sys
name = sys.argv[1]
parent, _, leaf = f"clankwork.interpreter.{name}".rpartition(".")
getattr(importlib.import_module(parent), leaf, None) or importlib.import_module(f"{parent}.{leaf}")
exec(f"from {parent} import {leaf}")  # as a user's module would name it
from clankwork.interpreter.state import GameCore, PlayerState
from clankwork.interpreter.game import Game
print("ok")
"""


@pytest.mark.parametrize("first", sorted(core.MODULES))
def test_the_python_source_imports_whichever_module_comes_first(first: str) -> None:
    """With the core built but ``CLANKWORK_CORE=python``, each module runs from its source,
    loaded on first use: whichever module a program names first, the rest must load too (a
    module of a subpackage once ran before its package, broke an import cycle the package
    resolves, and left `state` half-loaded)."""
    _need_core()
    env = {**os.environ, core.ENV: "python"}
    run = subprocess.run(
        [sys.executable, "-c", _FIRST, first], env=env, capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.split() == ["ok"], run.stderr[-800:]


# -- a real build of one module, in a copy of the package --------------------------------------


@pytest.fixture(scope="module")
def one_module_core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package whose compiled core is one module, `state` (the smallest),
    built for real by setup.py in place; the path to put on PYTHONPATH. The other folders
    are links to this checkout's; the interpreter is a copy, since the core lives in it."""
    why = _compiler_ready()
    if why:
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)
    shim = tmp_path_factory.mktemp("core") / "shim"
    package = shim / "clankwork"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("dsl", "tools", "content", "schemas"):
        (package / name).symlink_to(ROOT / name, target_is_directory=True)
    shutil.copytree(
        core.HERE,
        package / "interpreter",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", core.MANIFEST),
    )
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, package / name)
    build = _python(shim, "setup.py", "-q", "build_ext", "--inplace", cwd=package, only="state")
    assert build.returncode == 0, build.stderr
    return shim


def _python(
    shim: Path, *args: str, cwd: Path | None = None, only: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Python with the copy first on its path, and the compiled core on."""
    env = {k: v for k, v in os.environ.items() if k != core.ENV}
    env["PYTHONPATH"] = f"{shim}{os.pathsep}{env.get('PYTHONPATH', '')}"
    if only:
        env["CLANKWORK_CORE_MODULES"] = only
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, cwd=cwd)


def _clankwork(shim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(shim, "-m", "clankwork.tools.cli", *args)


_WHICH = "from clankwork.interpreter import state; print(state.__file__)"


def test_the_build_puts_the_module_beside_its_source_and_it_is_imported(
    one_module_core: Path,
) -> None:
    interpreter = one_module_core / "clankwork" / "interpreter"
    (file,) = interpreter.glob("state.*.so") or interpreter.glob("state.*.pyd")
    builds = core.read_builds(interpreter)
    assert builds[file.name]["module"] == "state"
    assert builds[file.name]["source_sha256"] == core.source_hash(interpreter / "state.py")
    run = _python(one_module_core, "-c", _WHICH)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert run.stdout.split() == [str(file)]
    python = _python(
        one_module_core, "-c", "import os; os.environ['CLANKWORK_CORE']='python';" + _WHICH
    )
    assert python.stdout.split() == [str(interpreter / "state.py")]


@pytest.mark.parametrize(
    "damage", ["edited source", "cut short", "random bytes", "refused by the loader"]
)
def test_a_compiled_module_it_cannot_use_never_takes_the_tool_down(
    one_module_core: Path, damage: str
) -> None:
    """A module whose source was edited since the build, or whose file was cut short (SIGBUS
    when mapped), overwritten, or is intact but refused by the system loader: every command
    runs, on the Python source, with one line on stderr; `build-core` builds it again."""
    interpreter = one_module_core / "clankwork" / "interpreter"
    (file,) = interpreter.glob(f"state{SUFFIX}")
    data = file.read_bytes()
    source = interpreter / "state.py"
    text = source.read_text()
    repair = "clankwork build-core"
    try:
        if damage == "edited source":
            source.write_text(text + "\n# edited\n")
        elif damage == "cut short":
            file.write_bytes(data[: len(data) // 20])
            repair += " --force"
        else:
            file.write_bytes(random.Random(damage).randbytes(len(data)))
            repair += " --force"
            if damage == "refused by the loader":
                # The record agrees with the file: only loading it can tell.
                manifest = json.loads((interpreter / core.MANIFEST).read_text())
                manifest["builds"][file.name] = core.record(
                    file, "state", manifest["builds"][file.name]["source_sha256"]
                )
                (interpreter / core.MANIFEST).write_text(json.dumps(manifest))
        tutorial = str(ROOT / "content" / "tutorial")
        check = _clankwork(one_module_core, "check", tutorial)
        assert check.returncode == 0, (check.returncode, check.stderr)
        assert "content/tutorial:" in check.stdout
        lines = check.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("clankwork: the compiled core's state module is not used")
        assert lines[0].endswith(f"running state.py instead. `{repair}` builds it again.")
        status = _clankwork(one_module_core, "build-core", "--status")
        assert status.returncode == 0 and status.stderr == "", status.stderr
    finally:
        source.write_text(text)
        file.write_bytes(data)
        build = _python(
            one_module_core,
            "setup.py",
            "-q",
            "build_ext",
            "--inplace",
            cwd=one_module_core / "clankwork",
            only="state",
        )
        assert build.returncode == 0, build.stderr
    after = _python(one_module_core, "-c", _WHICH)
    assert after.returncode == 0 and after.stderr == "", after.stderr
    assert after.stdout.split() == [str(file)]
