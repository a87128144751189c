"""The compiled core: the engine's and the bots' hot modules, compiled with Cython when the
package is installed, used in place of their Python source while each is current.

`MODULES` lists the modules compiled (setup.py reads it; add a module here to compile it).
``pip install`` builds each one from its unchanged source into an extension module beside it
(``interpreter/game.cpython-311-x86_64-linux-gnu.so`` next to ``game.py``), where Python's own
import system finds it first; an editable install builds them in the checkout. Without Cython
or a C compiler the package installs as pure Python, and plays the same games: the same
source, the same seeds, the same logs byte for byte. ``clankwork build-core`` builds them again
in place (after an edit, a pull, a checkout).

The build records, in ``_core.json`` beside the modules, the SHA-256 of the source each module
was compiled from and the size, modification time and SHA-256 of the file it built. When
``clankwork.interpreter`` is imported, `guard` checks each built module against that record,
and a module that cannot be used runs from its ``.py`` source instead, with one line on stderr
saying why and what rebuilds it:

- "stale": its ``.py`` changed since the build (an edit, a pull); an edited source is never
  shadowed by an old build;
- "damaged": the file is not the one built (cut short, which would kill the process with
  SIGBUS when the system maps it, or overwritten);
- "unrecorded": a built file the record does not name;
- "refused": the system loader cannot load it (built for another platform, say).

``CLANKWORK_CORE=python`` runs every module from its source, silently. Nothing is hooked into
the import system: the source of a module that must not run compiled is registered in
`sys.modules` (loaded lazily, on first use) before anything imports it. A compiled function's
traceback names its ``.py`` file and line (the build writes the source's path into it).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

PACKAGE = "clankwork.interpreter"
# The modules compiled, under interpreter/: the engine's procedures over the state, the state
# records and what walks them, the legal actions, the steps, the hottest effect handlers, the
# simulation counters and the bots (the heuristic bot's modules: the playout policy of the
# search bot too). Extend it to compile more (a dotted name for a module of a subpackage).
MODULES = (
    "actions",
    "asking",
    "bot_estimates",
    "bot_heuristic",
    "bot_moves",
    "bot_routes",
    "bot_targets",
    "bot_turn",
    "bot_values",
    "bot_worth",
    "bots",
    "campaign_marks",
    "cards",
    "clone",
    "content_actions",
    "context",
    "dragon",
    "economy",
    "effects.conditions",
    "effects.entry_toll",
    "effects.placing",
    "effects.places",
    "effects.player",
    "effects.resources",
    "effects.structure",
    "effects.token_presence",
    "effects.turn_modifiers",
    "effects.where",
    "ending",
    "events",
    "game",
    "movement",
    "rng",
    "scoring",
    "snapshot",
    "state",
    "stats",
    "statuses",
    "steps",
    "tokens",
    "turn",
)
HERE = Path(__file__).resolve().parent
MANIFEST = "_core.json"
ENV = "CLANKWORK_CORE"

# What `guard` decided, by module: "compiled", "python" (CLANKWORK_CORE=python), "not built",
# or why the build is not used ("stale", "damaged", "unrecorded", "refused").
DECIDED: dict[str, str] = {}


def source_hash(path: Path) -> str:
    """The SHA-256 of a file ("" when it cannot be read: no build matches it)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def source_file(name: str, folder: Path = HERE) -> Path:
    """The ``.py`` file of a module of `MODULES`."""
    return folder.joinpath(*name.split(".")).with_suffix(".py")


def built_files(name: str, folder: Path = HERE) -> list[Path]:
    """The extension files of a module this Python would import (whatever their state)."""
    base = folder.joinpath(*name.split("."))
    return [
        f for s in importlib.machinery.EXTENSION_SUFFIXES if (f := Path(f"{base}{s}")).is_file()
    ]


def read_builds(folder: Path = HERE) -> dict[str, dict[str, Any]]:
    """The record's builds: extension file (relative to ``folder``) -> {"module",
    "source_sha256", "size", "mtime_ns", "sha256", "cython"...}; empty when there is no record
    or it cannot be read."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    builds = data.get("builds") if isinstance(data, dict) else None
    if not isinstance(builds, dict):
        return {}
    return {f: b for f, b in builds.items() if isinstance(f, str) and isinstance(b, dict)}


def record(file: Path, name: str, source_sha256: str, **extra: Any) -> dict[str, Any]:
    """The record of an extension file just built from a source with that hash."""
    data = file.read_bytes()
    return {
        "module": name,
        "source_sha256": source_sha256,
        "size": len(data),
        "mtime_ns": file.stat().st_mtime_ns,
        "sha256": hashlib.sha256(data).hexdigest(),
        **extra,
    }


def intact(file: Path, entry: dict[str, Any]) -> bool:
    """Whether an extension file is the one the build recorded: its size first (a file cut
    short), then its SHA-256 unless its modification time is the recorded one."""
    try:
        st = file.stat()
    except OSError:
        return False
    if st.st_size != entry.get("size"):
        return False
    if st.st_mtime_ns == entry.get("mtime_ns"):
        return True
    return source_hash(file) == entry.get("sha256")


def module_state(name: str, folder: Path = HERE) -> tuple[str, Path | None]:
    """One module's build and, when "compiled", its file: "compiled" (built from the source
    as it is now, and the very file built), "stale" (built from another version of the
    source), "damaged" (the file is not the one built), "unrecorded" (a file the record does
    not name) or "not built" (no file this Python would import)."""
    files = built_files(name, folder)
    if not files:
        return "not built", None
    builds = read_builds(folder)
    file = files[0]
    entry = builds.get(file.relative_to(folder).as_posix())
    if entry is None or entry.get("module") != name:
        return "unrecorded", None
    if entry.get("source_sha256") != (source_hash(source_file(name, folder)) or None):
        return "stale", None
    if not intact(file, entry):
        return "damaged", None
    return "compiled", file


def status(folder: Path = HERE) -> dict[str, str]:
    """Each module of `MODULES` and its build's state (see `module_state`)."""
    return {name: module_state(name, folder)[0] for name in MODULES}


def enabled() -> bool:
    """False when ``CLANKWORK_CORE=python`` asks for the Python source."""
    return os.environ.get(ENV, "").strip().lower() != "python"


def _say(line: str) -> None:
    """One line on stderr (there may be none: a windowed Python)."""
    with contextlib.suppress(Exception):
        print(f"clankwork: {line}", file=sys.stderr, flush=True)


def _loads(file: Path) -> str | None:
    """Why the system loader refuses a library (None: it loads). Loaded as a plain shared
    library, not as a module: the import that follows maps the same one."""
    import ctypes  # only when a compiled module is there to check

    try:
        ctypes.CDLL(str(file))
    except OSError as e:
        return str(e).strip() or type(e).__name__
    return None


_WHY = {
    "stale": ("its source changed since it was built", "clankwork build-core"),
    "damaged": ("its file is not the one the build made (cut short or overwritten)", None),
    "unrecorded": ("the build's record does not name its file", None),
}


class _SourceInstead(importlib.machinery.SourceFileLoader):
    """Loads a module's ``.py`` source in place of its compiled build, saying why on stderr
    when it is first used (a process that never uses it, like `build-core`, says nothing)."""

    def __init__(self, fullname: str, path: str, why: str | None) -> None:
        super().__init__(fullname, path)
        self.why = why

    def exec_module(self, module: Any) -> None:
        if self.why:
            _say(self.why)
        super().exec_module(module)


class _OnFirstUse(types.ModuleType):
    """A module `_use_source` registered: its source runs when it is first used (an attribute
    read, the import system's included), after its parent package, as an import would run
    them. (The standard library's lazy loader runs the module first: a module of a
    subpackage then started before its package, and an import cycle the package resolves
    broke, leaving the modules on the way half-loaded.)"""

    def __getattribute__(self, attr: str) -> Any:
        spec = types.ModuleType.__getattribute__(self, "__spec__")
        if spec.parent:
            # The package may run this module itself (its __init__ imports it).
            importlib.import_module(spec.parent)
        if type(self) is _OnFirstUse:
            self.__class__ = types.ModuleType  # from here on, a module like any other
            spec.loader.exec_module(self)
        return types.ModuleType.__getattribute__(self, attr)


def _use_source(name: str, folder: Path, why: str | None = None) -> None:
    """Register the module's ``.py`` source in `sys.modules`, loaded on first use, so the
    compiled file beside it is never imported in this process."""
    fullname = f"{PACKAGE}.{name}"
    if fullname in sys.modules:
        return
    path = source_file(name, folder)
    spec = importlib.util.spec_from_file_location(
        fullname, path, loader=_SourceInstead(fullname, str(path), why)
    )
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__class__ = _OnFirstUse
    sys.modules[fullname] = module


def guard(folder: Path = HERE) -> dict[str, str]:
    """Decide, once a process, which modules run compiled: each built module that is not
    current (or every one, with ``CLANKWORK_CORE=python``) runs from its source, with one
    line on stderr, when it is first used, for a build that cannot be used. What was
    decided, by module."""
    value = os.environ.get(ENV, "").strip().lower()
    if value not in ("", "python", "compiled"):
        _say(
            f"{ENV}={value!r} means nothing: 'python' runs the Python source, 'compiled' (or "
            "unset) the compiled core where it is built"
        )
    for name in MODULES:
        state, file = module_state(name, folder)
        if state == "not built":
            DECIDED[name] = state
            continue
        if not enabled():
            DECIDED[name] = "python"
            _use_source(name, folder)
            continue
        if file is not None:
            refused = _loads(file)
            if refused is None:
                DECIDED[name] = "compiled"
                continue
            state = "refused"
            why, repair = f"the system cannot load it ({refused})", "clankwork build-core --force"
        else:
            why, repair = _WHY[state]
        DECIDED[name] = state
        _use_source(
            name,
            folder,
            f"the compiled core's {name} module is not used: {why}; running {name}.py "
            f"instead. `{repair or 'clankwork build-core --force'}` builds it again.",
        )
    return dict(DECIDED)


def describe() -> str:
    """One line saying which core this process runs, and why, for benchmarks and `build-core`:
    read from the modules as imported (a compiled one's file is not a ``.py``)."""
    import importlib

    loaded = {
        name: getattr(importlib.import_module(f"{PACKAGE}.{name}"), "__file__", None) or ""
        for name in MODULES
    }
    compiled = sorted(n for n, f in loaded.items() if not f.endswith(".py"))
    if compiled:
        versions = {str(b.get("cython", "?")) for b in read_builds(HERE).values()}
        line = f"compiled core (Cython {', '.join(sorted(versions)) or '?'}): {', '.join(compiled)}"
        rest = sorted(set(MODULES) - set(compiled))
        return line + (f"; Python source: {', '.join(rest)}" if rest else "")
    if not enabled():
        return f"Python source ({ENV}=python)"
    unused = sorted(n for n, s in DECIDED.items() if s not in ("not built", "python"))
    if unused:
        return (
            f"Python source (the compiled core is not used for {', '.join(unused)}: run "
            "`clankwork build-core`)"
        )
    return "Python source (no compiled core: `clankwork build-core` builds it)"
