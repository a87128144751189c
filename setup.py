"""The compiled core, built when the package is installed (the rest is in pyproject.toml).

Each module of `interpreter/core.py`'s ``MODULES`` is compiled from its unchanged Python source
with Cython (annotations ignored, so it keeps Python's semantics exactly) into an extension
module beside its ``.py`` file. It is optional: without a C compiler or Python's headers, or
when one module fails to compile, the package installs with those modules as Python and plays
the same games. The build records what it built in ``_core.json`` (see core.py), which is how
an edited source is never shadowed by an old build.

A compiled function's traceback names its source: an in-place build (``pip install -e``,
``clankwork build-core``) writes the ``.py`` file's absolute path into the module, a wheel
``clankwork/interpreter/NAME.py``, which Python finds on ``sys.path`` once installed (Cython
itself writes the path relative to the folder the build runs in).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _core() -> object:
    """interpreter/core.py, loaded by path (it imports nothing of the package)."""
    spec = importlib.util.spec_from_file_location("_clankwork_core", HERE / "interpreter/core.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


core = _core()

DIRECTIVES = {
    "language_level": 3,
    # The annotations are for readers: typed as C (a `float` argument as a C double) they
    # would change what the code does. Ignored, every value stays a Python object.
    "annotation_typing": False,
    # Compiled functions bind as methods (`Game` names module functions as its methods).
    "binding": True,
}
# Optimised whatever CFLAGS the environment sets (Debian's Python: a CFLAGS without -O would
# replace the optimisation, and the core then plays at half the speed); no debug symbols (a
# third of the size: the files are hashed when first imported).
OPTIMISE = ["-O3", "-g0"] if os.name == "posix" else []


def _extensions() -> list[object]:
    """The core's extensions (none when Cython is missing: the package is pure Python)."""
    if os.environ.get(core.ENV, "").strip().lower() == "python":
        return []
    try:
        from Cython.Build import cythonize  # noqa: F401
    except ImportError:
        print("clankwork: Cython is missing: the compiled core is not built", file=sys.stderr)
        return []
    from setuptools import Extension

    # A few of them only (tests, a quick try): CLANKWORK_CORE_MODULES=state,turn
    only = os.environ.get("CLANKWORK_CORE_MODULES", "").split(",")
    names = [n.strip() for n in only if n.strip() in core.MODULES] or core.MODULES
    return [
        Extension(
            f"{core.PACKAGE}.{name}",
            [str(Path("interpreter", *name.split(".")).with_suffix(".py"))],
            extra_compile_args=OPTIMISE,
        )
        for name in names
    ]


class BuildCore(build_ext):
    """build_ext that compiles the core with Cython, records it, and never fails the
    install: a module that does not build stays Python. In place (``--inplace``, an
    editable install), setuptools builds into the build folder and then copies the modules
    beside their sources; the record is written where they end up."""

    def run(self) -> None:
        self._in_place = bool(self.inplace)  # setuptools clears it while it builds
        self._built: dict[str, str] = {}
        super().run()
        self._record()

    def build_extensions(self) -> None:
        from Cython.Build import cythonize

        for ext in self.extensions:
            name = ext.name.removeprefix(core.PACKAGE + ".")
            py = HERE / ext.sources[0]
            try:
                (c_ext,) = cythonize(
                    [ext],
                    compiler_directives=DIRECTIVES,
                    build_dir=str(Path(self.build_temp) / ("c" if self._in_place else "c-wheel")),
                    quiet=True,
                    force=self.force,
                )
                # Tracebacks name the source where it is: the file itself in place, the
                # installed file (found on sys.path) in a wheel; Cython wrote the path
                # relative to the build's folder.
                where = str(py) if self._in_place else f"clankwork/{ext.sources[0]}"
                _rewrite_path(Path(c_ext.sources[0]), ext.sources[0], where)
                source_sha256 = core.source_hash(py)
                # The extension setuptools prepared, now built from the C Cython wrote.
                ext.sources = list(c_ext.sources)
                self.build_extension(ext)
            except Exception as e:  # no compiler, no headers, a module Cython rejects
                say = f"clankwork: {name} is not compiled ({e}); it runs as Python"
                print(say, file=sys.stderr)
                continue
            self._built[ext.name] = source_sha256

    def _record(self) -> None:
        """Write what was built into the package's ``_core.json`` (builds of other Pythons
        that share the folder are kept)."""
        from Cython import __version__ as cython_version

        files = {n: Path(self.get_ext_fullpath(n)) for n in self._built}
        if not files:
            return
        folder = Path(self.get_ext_fullpath(f"{core.PACKAGE}.core")).parent
        builds = {f: b for f, b in core.read_builds(folder).items() if (folder / f).is_file()}
        for full, file in files.items():
            name = full.removeprefix(core.PACKAGE + ".")
            builds[file.relative_to(folder).as_posix()] = core.record(
                file, name, self._built[full], cython=cython_version, python=sys.version.split()[0]
            )
        text = json.dumps({"builds": builds}, indent=2, sort_keys=True) + "\n"
        tmp = folder / f".{core.MANIFEST}.{os.getpid()}"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, folder / core.MANIFEST)


def _rewrite_path(c_file: Path, written: str, where: str) -> None:
    """Name ``where`` as the module's source file in the C Cython wrote (as ``written``)."""
    text = c_file.read_text(encoding="utf-8")
    new = text.replace(json.dumps(written), json.dumps(where))
    if new != text:
        c_file.write_text(new, encoding="utf-8")


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCore})
