"""Board declarations: a board's spaces, paths, groups, positions and joins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler

BOARD_PROPS = ("space", "path", "dead end", "position", "join", "module", "group", "area")


@declaration(
    "board",
    properties=BOARD_PROPS,
    form="board NAME { space ...; path A -- B }",
    writes=("boards",),
)
def board(c: _Compiler, st: Stmt) -> None:
    """`board NAME { space ...; path ...; dead end ...; position ...; join ...; module ... }`:
    a board."""
    c.decl_board(st)
