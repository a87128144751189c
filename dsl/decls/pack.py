"""The pack block and `include` lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration, part

if TYPE_CHECKING:
    from ..compiler import _Compiler

PACK_PROPS = ("version", "title", "extends", "description", "default board")


@declaration("pack", properties=PACK_PROPS, form='pack NAME { version "0.1" }', writes=("pack",))
def pack(c: _Compiler, st: Stmt) -> None:
    """`pack NAME { version; title; description; extends BASE; default board NAME }`: the pack
    itself (once, in pack.clank)."""
    c.decl_pack(st)


@declaration("include", form='include "FILE.clank"', writes=())
def include(c: _Compiler, st: Stmt) -> None:
    """`include "FILE"`: another file of the pack, read where the line is (followed while
    loading files)."""
    c.decl_include(st)


part(
    "scenario",
    inside="scenarios go in the pack's scenarios/ folder (`clankwork test` runs them)",
    doc="`scenario NAME { ... }`: a rule checked by `clankwork test` (dsl/scenarios.py).",
    form="scenario NAME { setup ...; expect ... }",
)
