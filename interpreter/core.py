"""The compiled core: the engine's and the heuristic bot's hottest modules compiled with Cython,
used in place of their Python source when they are built and current.

The modules in `MODULES` are the whole cost of a game (the rules, the legal actions, the bot),
and they are plain Python: `clankwork build-core` (`tools/build_core.py`) compiles each one,
unchanged, into an extension module in ``interpreter/_compiled/``, and records in
``_compiled/manifest.json`` the SHA-256 of the source it compiled and the SHA-256 and size of
the file it built. Games play 1.2 to 1.45 times as fast (it depends on the Python build), with
the same results: the same source, the same seeds, the same logs byte for byte.

`install` (run when `clankwork.interpreter` is imported) puts a finder first on
``sys.meta_path`` that answers for those modules only, and only when the recorded hash is
that of the ``.py`` file as it is when imported. An edited, pulled or checked-out source is
never shadowed by an old build: it is imported as Python until the core is built again.
Setting ``CLANKWORK_CORE=python`` imports them all from source.

A compiled module can never take the tool down. Its file is checked against the size and
SHA-256 the build recorded before the system loader maps it (a file cut short would kill the
process with SIGBUS when mapped; one overwritten or corrupted could crash it later), and
loaded by the finder itself, so that one the system refuses (built for another platform, say)
is skipped too: either way the Python source runs and one line on stderr says so and how to
repair it. `clankwork build-core` never imports the modules it compiles (the command line
imports a tool's module only when its command runs), so it always works to repair them. A
build that recorded no hash of its file (an older build-core) is "stale": run as Python until
built again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import json
import os
import sys
from pathlib import Path
from typing import Any

PACKAGE = "clankwork.interpreter"
# The modules compiled: the rules (game, steps, state), the legal actions and the bots (the
# heuristic bot's modules: the playout policy of the search bot too).
MODULES = (
    "actions",
    "bot_estimates",
    "bot_heuristic",
    "bot_moves",
    "bot_routes",
    "bot_targets",
    "bot_turn",
    "bot_values",
    "bot_worth",
    "bots",
    "game",
    "state",
    "steps",
)
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
    """The manifest's builds: extension file name -> {"module", "source_sha256", "sha256",
    "size"...}. A module may have one build for each Python that shares the folder (their
    file names differ)."""
    builds = read_manifest(folder).get("builds")
    if not isinstance(builds, dict):
        return {}
    return {f: b for f, b in builds.items() if isinstance(f, str) and isinstance(b, dict)}


def intact(file: Path, entry: dict[str, Any]) -> bool | None:
    """Whether an extension file is the one the build recorded (its size, then its SHA-256):
    None when the build recorded neither (an older build-core)."""
    size, sha = entry.get("size"), entry.get("sha256")
    if not isinstance(size, int) or not isinstance(sha, str):
        return None
    try:
        if file.stat().st_size != size:
            return False
    except OSError:
        return False
    return source_hash(file) == sha


def module_state(
    name: str, folder: Path = COMPILED, source: Path = HERE
) -> tuple[str, Path | None]:
    """One module's state and, when "compiled", its extension file: "compiled" (built for this
    Python from the source as it is now, and the file the build made), "stale" (built from
    another version of the source, or by a build-core that recorded no hash of its file),
    "damaged" (the file is not the one built: cut short, overwritten), "other python" (built
    only for another interpreter) or "not built"."""
    builds = read_builds(folder)
    mine = [name + s for s in importlib.machinery.EXTENSION_SUFFIXES]
    for file in mine:
        entry = builds.get(file)
        if entry is not None and entry.get("module") == name and (folder / file).is_file():
            if entry.get("source_sha256") != (source_hash(source / f"{name}.py") or None):
                return "stale", None
            checked = intact(folder / file, entry)
            if checked is None:
                return "stale", None
            if not checked:
                return "damaged", None
            return "compiled", folder / file
    if any(b.get("module") == name and (folder / f).is_file() for f, b in builds.items()):
        return "other python", None
    return "not built", None


def status(folder: Path = COMPILED, source: Path = HERE) -> dict[str, str]:
    """Each module of `MODULES` and its state (see `module_state`)."""
    return {name: module_state(name, folder, source)[0] for name in MODULES}


def enabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() != "python"


def _say(line: str) -> None:
    """One line on stderr (there may be none: a windowed Python)."""
    with contextlib.suppress(Exception):
        print(f"clankwork: {line}", file=sys.stderr, flush=True)


class _CheckedLoader(importlib.machinery.ExtensionFileLoader):
    """The extension loader of a compiled module whose file the finder has checked. The
    finder creates the module (the system loads the library) before it answers, so that a
    library the system refuses is skipped for the source rather than failing the import."""

    def __init__(self, fullname: str, path: str) -> None:
        super().__init__(fullname, path)
        self.created: Any = None

    def create(self, spec: Any) -> None:
        """Load the library and create the module (raises what the system loader raises)."""
        self.created = super().create_module(spec)

    def create_module(self, spec: Any) -> Any:
        """The module `create` made."""
        if self.created is None:
            self.create(spec)
        module, self.created = self.created, None
        return module


class _CompiledFinder:
    """Finds `MODULES` in ``_compiled/`` when each is current (see the module docstring). The
    source and the built file are hashed at each import asked for (five of each at most a
    process), so a module edited while a process runs is imported from its source. A module
    whose build cannot be used (damaged, or refused by the system loader) is imported from
    its source, with one line on stderr saying so."""

    def __init__(self, folder: Path, source: Path) -> None:
        self.folder = folder
        self.source = source
        self.warned: set[str] = set()

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in MODULES:
            return None
        state, file = module_state(name, self.folder, self.source)
        if state == "damaged":
            why = "its file is not the one build-core made (cut short or overwritten)"
            self._skip(name, why, "clankwork build-core")
        if file is None:
            return None
        loader = _CheckedLoader(fullname, str(file))
        spec = importlib.machinery.ModuleSpec(fullname, loader, origin=str(file))
        try:
            loader.create(spec)
        except Exception as e:  # the system loader refused it: another platform, say
            why = f"it cannot be loaded ({str(e).strip() or type(e).__name__})"
            self._skip(name, why, "clankwork build-core --force")
            return None
        return spec

    def _skip(self, name: str, why: str, repair: str) -> None:
        if name in self.warned:
            return
        self.warned.add(name)
        _say(
            f"the compiled core's {name} module is not used: {why}; running {name}.py "
            f"instead. `{repair}` builds it again."
        )


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
