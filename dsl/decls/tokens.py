"""Token declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler

TOKEN_PROPS = (
    "points",
    "gold",
    "count",
    "type",
    "grants",
    "returns",
    "action",
    "stays when crossed",
    "removed when crossed",
    "taken when crossed",
    "extra boots",
    "crossing costs",
)


@declaration(
    "token",
    properties=TOKEN_PROPS,
    form="token NAME { minor secret 6; points 2 }",
    writes=("tokens",),
)
def token(c: _Compiler, st: Stmt) -> None:
    """`token NAME { KIND [N]; points N; gold N; type WORDS; grants WORDS; ... }`: a kind of
    token."""
    c.decl_token(st)
