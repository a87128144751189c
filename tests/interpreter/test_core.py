"""The compiled core (interpreter/core.py, tools/build_core.py): used only when current, and
playing exactly as the Python source does."""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import json
import os
import random
import re
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
        data = b"not really a module"
        (folder / file).write_bytes(data)
        sha = core.source_hash(source / f"{name}.py")
        builds[file] = {
            "module": name,
            "source_sha256": sha,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "cython": "3",
        }
    (folder / core.MANIFEST).write_text(json.dumps({"builds": builds}))
    return folder, source


def test_a_module_is_compiled_only_while_its_source_is_the_one_built(tmp_path: Path) -> None:
    folder, source = _fake_build(
        tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}", steps="steps.cpython-39-x.so"
    )
    assert core.status(folder, source) == {
        **dict.fromkeys(core.MODULES, "not built"),
        "bots": "compiled",
        "game": "compiled",
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


def test_the_finder_answers_only_for_current_compiled_modules(tmp_path: Path, monkeypatch) -> None:
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}")
    monkeypatch.setattr(core._CheckedLoader, "create", lambda self, spec: None)  # no library
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


def test_a_build_whose_file_is_not_the_one_built_is_damaged(tmp_path: Path) -> None:
    """The manifest records each file's size and SHA-256: a file cut short (which would kill
    the process with SIGBUS when mapped) or overwritten is "damaged", never loaded; a build
    that recorded neither (an older build-core) is "stale", built again."""
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}")
    assert core.status(folder, source)["game"] == "compiled"
    (folder / f"game{SUFFIX}").write_bytes(b"not really")  # cut short
    assert core.module_state("game", folder, source) == ("damaged", None)
    (folder / f"game{SUFFIX}").write_bytes(b"not really a MODULE")  # same size, other bytes
    assert core.module_state("game", folder, source) == ("damaged", None)
    manifest = json.loads((folder / core.MANIFEST).read_text())
    del manifest["builds"][f"bots{SUFFIX}"]["sha256"]
    (folder / core.MANIFEST).write_text(json.dumps(manifest))
    assert core.module_state("bots", folder, source) == ("stale", None)


def test_the_finder_skips_a_module_it_cannot_use_with_one_line(tmp_path: Path, capsys) -> None:
    """A damaged build, or one the system loader refuses (another platform's, bytes that are
    no library): the source is imported instead, and stderr says so once a module."""
    folder, source = _fake_build(tmp_path, game=f"game{SUFFIX}", bots=f"bots{SUFFIX}")
    (folder / f"bots{SUFFIX}").write_bytes(b"cut")
    finder = core._CompiledFinder(folder, source)
    for _ in range(2):
        assert finder.find_spec("clankwork.interpreter.game") is None
        assert finder.find_spec("clankwork.interpreter.bots") is None
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    game, bots = lines
    assert game.startswith("clankwork: the compiled core's game module is not used: it cannot")
    assert game.endswith("running game.py instead. `clankwork build-core --force` builds it again.")
    assert "bots module is not used: its file is not the one build-core made" in bots
    assert bots.endswith("`clankwork build-core` builds it again.")


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


_IMPORTED = """
import sys
from clankwork.interpreter.core import MODULES, PACKAGE
from clankwork.tools.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(sorted(m for m in MODULES if f"{PACKAGE}.{m}" in sys.modules))
"""


@pytest.mark.parametrize("args", [["build-core", "--status"], ["--version"]])
def test_build_core_imports_none_of_the_modules_it_compiles(args: list[str]) -> None:
    """The command line imports a tool's module when its command runs: `build-core` (and
    `--version`) load no engine module, so a damaged build never stops its own repair."""
    out = subprocess.run(
        [sys.executable, "-c", _IMPORTED, *args], capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines()[-1] == "[]"


@pytest.fixture(scope="module")
def one_module_core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package whose compiled core is one module, `state` (the smallest),
    built for real; the path to put on PYTHONPATH. The other folders are links to this
    checkout's; the interpreter is a copy, since the core lives in it."""
    why = _compiler_ready()
    if why:
        pytest.skip(why)
    root = core.HERE.parent
    shim = tmp_path_factory.mktemp("core") / "shim"
    package = shim / "clankwork"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("dsl", "tools", "content", "schemas"):
        (package / name).symlink_to(root / name, target_is_directory=True)
    interpreter = package / "interpreter"
    shutil.copytree(
        core.HERE, interpreter, ignore=shutil.ignore_patterns("_compiled", "__pycache__")
    )
    text = (interpreter / "core.py").read_text()
    modules = re.search(r"^MODULES = \(.*?\)$", text, re.S | re.M)
    assert modules is not None and '"state"' in modules[0]
    (interpreter / "core.py").write_text(text.replace(modules[0], 'MODULES = ("state",)'))
    out = _clankwork(shim, "build-core")
    assert out.returncode == 0, out.stderr
    return shim


def _python(shim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python with the copy first on its path, and the compiled core on."""
    env = {k: v for k, v in os.environ.items() if k != core.ENV}
    env["PYTHONPATH"] = f"{shim}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True)


def _clankwork(shim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(shim, "-m", "clankwork.tools.cli", *args)


_WHICH = "from clankwork.interpreter import core, state; print(core.describe(), state.__file__)"


@pytest.mark.parametrize("damage", ["cut short", "random bytes", "refused by the loader"])
def test_a_damaged_compiled_module_never_takes_the_tool_down(
    one_module_core: Path, damage: str
) -> None:
    """A compiled module cut short (SIGBUS when mapped, before), overwritten with random
    bytes, or intact but refused by the system loader: every command runs, on the Python
    source, with one line on stderr; `build-core` imports none of it and builds it again."""
    compiled = one_module_core / "clankwork" / "interpreter" / "_compiled"
    (file,) = compiled.glob("state.*")
    data = file.read_bytes()
    repair = ["build-core"]
    if damage == "cut short":
        file.write_bytes(data[: len(data) // 20])
    else:
        file.write_bytes(random.Random(damage).randbytes(len(data)))
        if damage == "refused by the loader":
            # The manifest agrees with the file: only loading it can tell.
            manifest = json.loads((compiled / core.MANIFEST).read_text())
            manifest["builds"][file.name]["sha256"] = core.source_hash(file)
            (compiled / core.MANIFEST).write_text(json.dumps(manifest))
            repair = ["build-core", "--force"]
    tutorial = str(core.HERE.parent / "content" / "tutorial")
    version = _clankwork(one_module_core, "--version")
    assert version.returncode == 0 and version.stderr == "", version.stderr
    check = _clankwork(one_module_core, "check", tutorial)
    assert check.returncode == 0, (check.returncode, check.stderr)
    assert "content/tutorial:" in check.stdout
    lines = check.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("clankwork: the compiled core's state module is not used")
    assert lines[0].endswith(
        f"running state.py instead. `clankwork {' '.join(repair)}` builds it again."
    )
    fixed = _clankwork(one_module_core, *repair)
    assert fixed.returncode == 0, fixed.stderr
    assert "not used" not in fixed.stderr  # build-core never imported it
    assert "compiled state" in fixed.stdout
    after = _python(one_module_core, "-c", _WHICH)
    assert after.returncode == 0 and after.stderr == "", after.stderr
    assert after.stdout.startswith("compiled core (Cython")
    assert after.stdout.split()[-1] == str(file)
