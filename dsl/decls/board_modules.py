"""Module declarations: board pieces placed at a board's positions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..modules import MODULE_PROPS
from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "module",
    properties=MODULE_PROPS,
    form="module NAME { connects A B; side NAME { ... } }",
    writes=("boards",),
)
def module(c: _Compiler, st: Stmt) -> None:
    """`module NAME { connects POINTS; side NAME { ... } }`: a board piece placed at a board's
    positions."""
    c.decl_module(st)
