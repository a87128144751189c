"""The compiler's declarations as records, one per keyword a line of a file may open with
(`card`, `board`, `rules`...), as effect ops are records (interpreter/effects/registry.py).

A record carries together what the compiler, the editor and the docs know of a declaration:
the function that compiles it, its block's property words (the did-you-mean hints, the
language server's completion and the editor grammar read them), the form a hint shows, its
docstring and the IR keys it writes. A *part* (`space`, `path`, `step`, `action`) is a line
that belongs inside another declaration's block: it has no compile function of its own here,
and the record's ``inside`` says where it goes (the hint for one written at the top of a file).

    @declaration("token", properties=TOKEN_PROPS, form="token NAME { ... }", writes=("tokens",))
    def token(c: _Compiler, st: Stmt) -> None:
        "`token NAME { ... }`: a kind of token."

`DECL_KINDS`, `PROPERTIES` and `INSIDE` are views of the registry, in the order of the record
modules that `dsl/decls/__init__.py` lists (`arrange`) and, within a module, the order its
records are written in; a record of another module (a test's) comes after them.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from ..parser import Stmt

CompileFn = Callable[[Any, Stmt], None]
"""What compiles one declaration: the compiler (its state and shared helpers) and the
statement; it reports problems as diagnostics and adds what it compiled to the compiler."""


@dataclass(frozen=True)
class Declaration:
    """One declaration keyword: how it compiles and what the editor and docs say of it."""

    keyword: str
    compile: CompileFn | None
    properties: tuple[str, ...] = ()
    form: str = ""
    doc: str = ""
    writes: tuple[str, ...] = ()
    inside: str | None = None
    # The module that registered it (the views list records module by module).
    module: str = ""

    @property
    def is_part(self) -> bool:
        """A line that belongs inside another declaration's block (no record compiles it)."""
        return self.compile is None


DECLARATIONS: dict[str, Declaration] = {}
# The record modules in the order their keywords are listed (set by `arrange`).
_MODULES: list[str] = []


def _register(record: Declaration) -> Declaration:
    if record.keyword in DECLARATIONS:
        raise ValueError(f"declaration {record.keyword!r} is registered twice")
    DECLARATIONS[record.keyword] = record
    return record


def arrange(modules: Sequence[str]) -> None:
    """The order of the record modules (their names), which the views list records in:
    a record module may import another's helpers, so import order cannot say it."""
    _MODULES[:] = modules


def _ordered() -> list[Declaration]:
    rank = {name: i for i, name in enumerate(_MODULES)}
    records = list(DECLARATIONS.values())
    seq = {r.keyword: i for i, r in enumerate(records)}
    return sorted(records, key=lambda r: (rank.get(r.module, len(rank)), seq[r.keyword]))


def declaration(
    keyword: str,
    *,
    properties: tuple[str, ...] = (),
    form: str = "",
    writes: tuple[str, ...] = (),
) -> Callable[[CompileFn], CompileFn]:
    """Register the decorated function as the compiler of ``keyword`` declarations (its
    docstring is the record's doc)."""

    def register(fn: CompileFn) -> CompileFn:
        doc = inspect.cleandoc(fn.__doc__ or "")
        _register(Declaration(keyword, fn, properties, form, doc, writes, None, fn.__module__))
        return fn

    return register


def part(
    keyword: str,
    *,
    inside: str,
    doc: str,
    properties: tuple[str, ...] = (),
    form: str = "",
    writes: tuple[str, ...] = (),
) -> Declaration:
    """Register a line that belongs inside a block; ``inside`` is the hint for one written
    at the top of a file."""
    module = sys._getframe(1).f_globals.get("__name__", "")
    return _register(Declaration(keyword, None, properties, form, doc, writes, inside, module))


def withdraw(keyword: str) -> None:
    """Take a record out of the registry (a test's own declaration, after the test)."""
    del DECLARATIONS[keyword]


class _Keywords(Sequence[str]):
    """The declaration keywords a file may hold, in registration order (a live view)."""

    def _all(self) -> tuple[str, ...]:
        return tuple(r.keyword for r in _ordered() if not r.is_part)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __contains__(self, word: object) -> bool:
        record = DECLARATIONS.get(word) if isinstance(word, str) else None
        return record is not None and not record.is_part

    def __repr__(self) -> str:
        return repr(self._all())


class _Properties(Mapping[str, tuple[str, ...]]):
    """Each declaration's (and part's) property words, for those that have some."""

    def _all(self) -> dict[str, tuple[str, ...]]:
        return {r.keyword: r.properties for r in _ordered() if r.properties}

    def __getitem__(self, keyword: str) -> tuple[str, ...]:
        return self._all()[keyword]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


class _Inside(Mapping[str, str]):
    """Where each part goes, for a line written at the top of a file."""

    def _all(self) -> dict[str, str]:
        return {r.keyword: r.inside for r in _ordered() if r.inside is not None}

    def __getitem__(self, keyword: str) -> str:
        return self._all()[keyword]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())


DECL_KINDS: Sequence[str] = _Keywords()
PROPERTIES: Mapping[str, tuple[str, ...]] = _Properties()
INSIDE: Mapping[str, str] = _Inside()
