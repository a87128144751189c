"""`clankwork build-core`: build the compiled core again, in place (see interpreter/core.py).

The core is built when the package is installed (setup.py). In a checkout installed with
``pip install -e``, this runs the same build in place after an edit, a pull or a checkout:
``python setup.py build_ext --inplace``, which compiles again only the modules whose source
changed. An installed wheel has no setup.py: reinstalling it builds its core. This module
imports none of the modules it compiles (the command line imports it alone for `build-core`):
a damaged build can never stop the command that repairs it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from ..interpreter import core

try:
    import fcntl  # one build at a time in a checkout (POSIX)
except ImportError:  # pragma: no cover (Windows: no lock)
    fcntl = None  # type: ignore[assignment]

ROOT = core.HERE.parent


class CoreBuildError(Exception):
    """Why the core cannot be built here, said so a user can fix it."""


def _requirements(root: Path) -> None:
    if not (root / "setup.py").is_file():
        raise CoreBuildError(
            "this Clankwork is installed from a wheel, whose core is built when it is "
            "installed: `pip install --force-reinstall clankwork` builds it again"
        )
    for module, what in (("Cython", "Cython"), ("setuptools", "setuptools")):
        try:
            __import__(module)
        except ImportError:
            raise CoreBuildError(
                f"{what} is not installed: install it with `pip install 'clankwork[fast]'` "
                f"(or `pip install {what.lower()}`), then run `clankwork build-core` again"
            ) from None


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One build at a time in a folder: a second waits for the first."""
    try:
        lock = open(folder / ".core.lock", "w")  # noqa: SIM115 (held until the build ends)
    except OSError as e:
        raise CoreBuildError(f"cannot write the compiled core into {folder}: {e}") from None
    with lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build(force: bool = False, root: Path = ROOT) -> list[str]:
    """Build the modules that are not current (every one with ``force``) in place; the
    names built. CoreBuildError when it cannot, or when a module did not compile."""
    folder = root / "interpreter"
    before = core.status(folder)
    if not force and all(s == "compiled" for s in before.values()):
        return []
    _requirements(root)
    with _locked(folder):
        cmd = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
        env = {k: v for k, v in os.environ.items() if k != core.ENV}
        run = subprocess.run(
            cmd + (["--force"] if force else []), cwd=root, env=env, capture_output=True, text=True
        )
    after = core.status(folder)
    failed = sorted(n for n, s in after.items() if s != "compiled")
    if run.returncode != 0 or failed:
        tail = (run.stderr or run.stdout).strip()[-3000:]
        raise CoreBuildError(
            f"{', '.join(failed) or 'the build'} did not compile (`{' '.join(cmd)}` in {root}):"
            f"\n{tail}"
        )
    return sorted(n for n in after if force or before[n] != "compiled")


@click.command("build-core")
@click.option("--force", is_flag=True, help="Compile every module, current or not.")
@click.option("--status", "show", is_flag=True, help="Say which modules are built; build nothing.")
def command(force: bool, show: bool) -> None:
    """Compile the simulation core with Cython again, in place (pip builds it when it
    installs Clankwork).

    Compiles the engine's and the bots' hot modules (needs Cython, a C compiler and
    Python's headers) beside their sources. A module whose source changed since runs as
    Python until it is built again; CLANKWORK_CORE=python runs them all as Python."""
    if show:
        states = core.status()
        width = max(map(len, states)) + 1
        for name, state in states.items():
            click.echo(f"{name:{width}} {state}")
        return
    try:
        done = build(force=force)
    except CoreBuildError as e:
        raise click.ClickException(f"{e}\nClankwork runs without it, as Python.") from None
    if not done:
        click.echo("build-core: the compiled core is up to date")
    else:
        click.echo(f"build-core: compiled {', '.join(done)} in {ROOT / 'interpreter'}")
