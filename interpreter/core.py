"""The compiled core: the engine's and the heuristic bot's hottest modules compiled with Cython,
used in place of their Python source when they are built and current.

The modules in `MODULES` are the whole cost of a game (the rules, the legal actions, the bot),
and they are plain Python: `clankwork build-core` (`tools/build_core.py`) compiles each one,
unchanged, into an extension module in ``interpreter/_compiled/``, and records in
``_compiled/manifest.json`` the SHA-256 of the source it compiled. Games play 1.2 to 1.45 times
as fast (it depends on the Python build), with the same results: the same source, the same
seeds, the same logs byte for byte.

`install` (run when `clankwork.interpreter` is imported) puts a finder first on
``sys.meta_path`` that answers for those modules only, and only when the recorded hash is
that of the ``.py`` file as it is when imported. An edited, pulled or checked-out source is
never shadowed by an old build: it is imported as Python until the core is built again.
Setting ``CLANKWORK_CORE=python`` imports them all from source.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from pathlib import Path
from typing import Any

PACKAGE = "clankwork.interpreter"
# The modules compiled: the rules (game, steps, state), the legal actions and the bots.
MODULES = ("actions", "bots", "game", "state", "steps")
HERE = Path(__file__).resolve().parent
COMPILED = HERE / "_compiled"
MANIFEST = "manifest.json"
ENV = "CLANKWORK_CORE"


def source_hash(path: Path) -> str:
    """The SHA-256 of a file ("" when it cannot be read: no build matches it)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def read_manifest(folder: Path = COMPILED) -> dict[str, Any]:
    """The build's manifest, or an empty one (no build, or one this code cannot read)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_builds(folder: Path) -> dict[str, dict[str, Any]]:
    """The manifest's builds: extension file name -> {"module", "source_sha256"}. A module may
    have one build for each Python that shares the folder (their file names differ)."""
    builds = read_manifest(folder).get("builds")
    if not isinstance(builds, dict):
        return {}
    return {f: b for f, b in builds.items() if isinstance(f, str) and isinstance(b, dict)}


def module_state(
    name: str, folder: Path = COMPILED, source: Path = HERE
) -> tuple[str, Path | None]:
    """One module's state and, when "compiled", its extension file: "compiled" (built for this
    Python from the source as it is now), "stale" (built from another version of the source),
    "other python" (built only for another interpreter) or "not built"."""
    builds = read_builds(folder)
    mine = [name + s for s in importlib.machinery.EXTENSION_SUFFIXES]
    for file in mine:
        entry = builds.get(file)
        if entry is not None and entry.get("module") == name and (folder / file).is_file():
            if entry.get("source_sha256") != (source_hash(source / f"{name}.py") or None):
                return "stale", None
            return "compiled", folder / file
    if any(b.get("module") == name and (folder / f).is_file() for f, b in builds.items()):
        return "other python", None
    return "not built", None


def status(folder: Path = COMPILED, source: Path = HERE) -> dict[str, str]:
    """Each module of `MODULES` and its state (see `module_state`)."""
    return {name: module_state(name, folder, source)[0] for name in MODULES}


def enabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() != "python"


class _CompiledFinder:
    """Finds `MODULES` in ``_compiled/`` when each is current (see the module docstring). The
    source is hashed at each import asked for (five files at most a process), so a module
    edited while a process runs is imported from its source."""

    def __init__(self, folder: Path, source: Path) -> None:
        self.folder = folder
        self.source = source

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in MODULES:
            return None
        state, file = module_state(name, self.folder, self.source)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(file))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), unless ``CLANKWORK_CORE=python``."""
    value = os.environ.get(ENV, "").strip().lower()
    if value not in ("", "python", "compiled"):
        import warnings

        warnings.warn(
            f"{ENV}={value!r} means nothing: 'python' runs the Python source, 'compiled' (or "
            "unset) the compiled core where it is built",
            stacklevel=2,
        )
    if not enabled() or any(isinstance(f, _CompiledFinder) for f in sys.meta_path):
        return
    if not (COMPILED / MANIFEST).is_file():
        return  # nothing built: import as always
    sys.meta_path.insert(0, _CompiledFinder(COMPILED, HERE))


def describe() -> str:
    """One line saying which core this process runs, and why, for benchmarks and `build-core`."""
    import importlib

    loaded = {
        name: getattr(importlib.import_module(f"{PACKAGE}.{name}"), "__file__", None)
        for name in MODULES
    }
    compiled = sorted(n for n, f in loaded.items() if f and not f.endswith(".py"))
    if compiled:
        files = {Path(f).name for n, f in loaded.items() if n in compiled and f}
        builds = read_builds(COMPILED)
        versions = {str(b.get("cython", "?")) for f, b in builds.items() if f in files}
        cython = ", ".join(sorted(versions)) or "?"
        line = f"compiled core (Cython {cython}): {', '.join(compiled)}"
        rest = sorted(set(MODULES) - set(compiled))
        return line + (f"; Python source: {', '.join(rest)}" if rest else "")
    if not enabled():
        return f"Python source ({ENV}=python)"
    state = status()
    stale = sorted(n for n, s in state.items() if s != "compiled" and s != "not built")
    if stale:
        return (
            f"Python source (the compiled core is out of date for {', '.join(stale)}: "
            "run `clankwork build-core`)"
        )
    if all(s == "not built" for s in state.values()):
        return "Python source (no compiled core: `clankwork build-core` builds it)"
    return "Python source"
