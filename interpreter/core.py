"""The compiled core: the engine's and the heuristic bot's hottest modules compiled with Cython,
used in place of their Python source when they are built and current.

The modules in `MODULES` are the whole cost of a game (the rules, the legal actions, the bot),
and they are plain Python: `clankwork build-core` (`tools/build_core.py`) compiles each one,
unchanged, into an extension module in ``interpreter/_compiled/``, and records in
``_compiled/manifest.json`` the SHA-256 of the source it compiled. Games play about 1.4× as
fast, with the same results: the same source, the same seeds, the same logs byte for byte.

`install` (run when `clankwork.interpreter` is imported) puts a finder first on
``sys.meta_path`` that answers for those modules only, and only when the recorded hash is
that of the ``.py`` file as it is now. An edited, pulled or checked-out source is never
shadowed by an old build: it is imported as Python until the core is built again. Setting
``CLANKWORK_CORE=python`` imports them all from source.
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


def status(folder: Path = COMPILED, source: Path = HERE) -> dict[str, str]:
    """Each module's state: "compiled" (built from the source as it is now), "stale" (built
    from another version of it), "other python" (built for another interpreter) or "not built"."""
    modules = read_manifest(folder).get("modules")
    if not isinstance(modules, dict):
        modules = {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    out = {}
    for name in MODULES:
        entry = modules.get(name)
        if not isinstance(entry, dict) or not (folder / str(entry.get("file", ""))).is_file():
            out[name] = "not built"
        elif entry["file"] not in {name + s for s in suffixes}:
            out[name] = "other python"
        elif entry.get("source_sha256") != (source_hash(source / f"{name}.py") or None):
            out[name] = "stale"
        else:
            out[name] = "compiled"
    return out


def enabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() != "python"


class _CompiledFinder:
    """Finds `MODULES` in ``_compiled/`` when each is current (see the module docstring)."""

    def __init__(self, folder: Path, source: Path) -> None:
        self.folder = folder
        self.source = source
        self.files: dict[str, Path] | None = None  # worked out at the first import asked for

    def _current(self) -> dict[str, Path]:
        if self.files is None:
            state = status(self.folder, self.source)
            entries = read_manifest(self.folder).get("modules", {})
            self.files = {
                f"{PACKAGE}.{name}": self.folder / entries[name]["file"]
                for name, s in state.items()
                if s == "compiled"
            }
        return self.files

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if not fullname.startswith(PACKAGE + ".") or fullname.count(".") != 2:
            return None
        file = self._current().get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(file))

    def invalidate_caches(self) -> None:
        self.files = None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), unless ``CLANKWORK_CORE=python``."""
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
        cython = read_manifest().get("cython", "?")
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
