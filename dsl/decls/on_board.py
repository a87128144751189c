"""`on board NAME { ... }`: declarations for one board of the pack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("on", form="on board NAME { rules { ... }; token ... }", writes=("on_board",))
def on(c: _Compiler, st: Stmt) -> None:
    """`on board NAME { ... }`: declarations that hold on one board of the pack only."""
    c.decl_on(st)
