"""An extension's edits of its base: `replace`, `remove` and `change`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("replace", form="replace card NAME { ... }", writes=())
def replace(c: _Compiler, st: Stmt) -> None:
    """`replace KIND NAME { ... }`: an extension's new design for what its base declares."""
    c.decl_replace(st)


@declaration("remove", form="remove card NAME", writes=())
def remove(c: _Compiler, st: Stmt) -> None:
    """`remove KIND NAME`: an extension takes out what its base declares."""
    c.decl_remove(st)


@declaration("change", form="change card NAME { ... }", writes=())
def change(c: _Compiler, st: Stmt) -> None:
    """`change KIND NAME { ... }`: an extension changes some properties of what its base
    declares."""
    c.decl_change(st)
