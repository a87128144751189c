"""`clankwork build-core`: compile the engine's hot modules with Cython (see interpreter/core.py).

Each module of `core.MODULES` is compiled from its unchanged Python source (Cython, with type
annotations ignored, so the compiled module keeps Python's semantics exactly) in a temporary
folder, then moved into ``interpreter/_compiled/`` with the hash of the source it came from.
Only the modules whose source changed since the last build, or whose file is not the one built
(cut short, overwritten), are compiled again. Nothing here is needed to run Clankwork: without a
build, the same modules run as Python. This module imports none of the modules it compiles, and
the command line imports it alone for `clankwork build-core` (tools/cli.py): a damaged build
can never stop the command that repairs it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import click

from ..interpreter import core

try:
    import fcntl  # one build at a time in a folder (POSIX)
except ImportError:  # pragma: no cover (Windows: no lock)
    fcntl = None  # type: ignore[assignment]

DIRECTIVES = {
    "language_level": 3,
    # The annotations are for readers and mypy: typed as C (a `float` argument as a C double)
    # they would change what the code does. Ignored, every value stays a Python object.
    "annotation_typing": False,
}


# Optimised whatever CFLAGS the environment sets: with Debian's Python a CFLAGS without -O
# replaces the optimisation, and the core built then plays at half the speed. -O3 rather than
# -O2: 5% faster on a pyenv CPython 3.11.7, the same on Debian's 3.11.2.
OPTIMISE = {"extra_compile_args": ["-O3"]} if os.name == "posix" else {}


class CoreBuildError(Exception):
    """Why the core cannot be built here, said so a user can fix it."""


def _requirements() -> None:
    try:
        import Cython  # noqa: F401
    except ImportError:
        raise CoreBuildError(
            "Cython is not installed: install it with `pip install 'clankwork[fast]'` "
            "(or `pip install cython`), then run `clankwork build-core` again"
        ) from None
    try:
        import setuptools  # noqa: F401  (compiles the C; not in a venv by itself from 3.12)
    except ImportError:
        raise CoreBuildError(
            "setuptools is not installed: install it with `pip install 'clankwork[fast]'` "
            "(or `pip install setuptools`), then run `clankwork build-core` again"
        ) from None
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.is_file():
        raise CoreBuildError(
            f"Python's C headers are missing ({include}): on Debian, `apt-get install python3-dev`"
        )
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        raise CoreBuildError(f"no C compiler ({cc}) on PATH: on Debian, `apt-get install gcc`")


@contextlib.contextmanager
def _output_to(path: Path) -> Iterator[None]:
    """Send this process's stdout and stderr (file descriptors 1 and 2, so a compiler's
    output too) to ``path`` for the time of the block."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(path, "wb") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def build(
    force: bool = False,
    folder: Path = core.COMPILED,
    source: Path = core.HERE,
    say: Callable[[str], object] = print,
    only: Sequence[str] = core.MODULES,
) -> list[str]:
    """Compile the modules (of ``only``) that are not current, or all of them with ``force``,
    into ``folder``; the names compiled. One build at a time writes into a folder: a second
    waits for the first, then finds what it built current."""
    state = core.status(folder, source)
    if not force and all(state[n] == "compiled" for n in only):
        return []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / ".lock", "w")  # noqa: SIM115 (held until the build ends)
    except OSError as e:
        raise CoreBuildError(
            f"cannot write the compiled core into {folder}: {e.strerror or e}"
        ) from None
    with lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(force, folder, source, say, only)


def _build(
    force: bool,
    folder: Path,
    source: Path,
    say: Callable[[str], object],
    only: Sequence[str],
) -> list[str]:
    state = core.status(folder, source)
    todo = [n for n, s in state.items() if n in only and (force or s != "compiled")]
    if not todo:
        return []
    _requirements()
    import Cython
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    with tempfile.TemporaryDirectory(prefix="clankwork-core-") as tmp:
        work = Path(tmp)
        # Compile copies, and record the hash of each copy: the very bytes compiled.
        src = work / "src"
        src.mkdir()
        exts = []
        hashes = {}
        for n in todo:
            shutil.copyfile(source / f"{n}.py", src / f"{n}.py")
            hashes[n] = core.source_hash(src / f"{n}.py")
            exts.append(Extension(f"{core.PACKAGE}.{n}", [str(src / f"{n}.py")], **OPTIMISE))
        say(f"build-core: compiling {', '.join(todo)} with Cython {Cython.__version__}")
        try:
            exts = cythonize(
                exts, compiler_directives=DIRECTIVES, build_dir=str(work / "c"), quiet=True
            )
        except Exception as e:  # Cython could not translate a module
            raise CoreBuildError(f"Cython failed: {e}") from None
        dist = Distribution({"ext_modules": exts, "script_name": "build-core"})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")
        cmd.build_temp = str(work / "tmp")
        cmd.parallel = os.cpu_count() or 1
        cmd.ensure_finalized()
        # The compiler's own output (warnings about Python's headers, mostly) is kept in a
        # file and shown only when the compile fails.
        log = work / "compiler.log"
        try:
            with _output_to(log):
                cmd.run()
        except Exception as e:  # a compiler error: say it, leave the last build as it was
            tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
            raise CoreBuildError(f"the C compiler failed: {e}\n{tail}") from None
        built = {n: Path(cmd.get_ext_fullpath(f"{core.PACKAGE}.{n}")) for n in todo}
        try:
            _install(folder, built, hashes, Cython.__version__)
        except OSError as e:
            raise CoreBuildError(
                f"cannot write the compiled core into {folder}: {e.strerror or e}"
            ) from None
    return todo


def _replace(folder: Path, name: str, data: bytes) -> None:
    """Write ``folder/name`` as a new file moved into place: a process still running the old
    one keeps it, and two builds at once never write into the same file."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _install(folder: Path, built: dict[str, Path], hashes: dict[str, str], cython: str) -> None:
    """Move the modules just built into ``folder`` and record them in its manifest. A build
    for another Python (another file name) is left as it is: venvs of two Pythons may share
    a checkout."""
    folder.mkdir(parents=True, exist_ok=True)
    builds = {f: b for f, b in core.read_builds(folder).items() if (folder / f).is_file()}
    for n, path in built.items():
        data = path.read_bytes()
        _replace(folder, path.name, data)
        builds[path.name] = {
            "module": n,
            "source_sha256": hashes[n],
            # The file's own size and hash: the finder loads only the very file built (one
            # cut short would kill the process when mapped).
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "cython": cython,
            "python": sys.version.split()[0],
        }
    text = json.dumps({"builds": builds}, indent=2, sort_keys=True) + "\n"
    _replace(folder, core.MANIFEST, text.encode())


@click.command("build-core")
@click.option("--force", is_flag=True, help="Compile every module, current or not.")
@click.option("--status", "show", is_flag=True, help="Say which modules are built; build nothing.")
def command(force: bool, show: bool) -> None:
    """Compile the simulation core with Cython: games play 1.2 to 1.45x as fast, same results.

    Compiles the engine's and the heuristic bot's hot modules (needs Cython, a C compiler and
    Python's headers) into interpreter/_compiled/. A module whose source changed since is run
    as Python until the next build-core; CLANKWORK_CORE=python runs them all as Python."""
    if show:
        for name, state in core.status().items():
            click.echo(f"{name:8} {state}")
        return
    try:
        done = build(force=force, say=lambda m: click.echo(m, err=True))
    except CoreBuildError as e:
        raise click.ClickException(f"{e}. Clankwork runs without it, as Python.") from None
    if not done:
        click.echo("build-core: the compiled core is up to date")
    else:
        click.echo(f"build-core: compiled {', '.join(done)} into {core.COMPILED}")
