"""Resources, ways to move and the dragon's name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..declarations import DRAGON_PROPS, RESOURCE_PROPS, WAY_PROPS
from ..parser import Stmt
from .registry import declaration, part

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "resource",
    properties=RESOURCE_PROPS,
    form="resource NAME { per turn | kept; word WORDS }",
    writes=("resources", "resource_aliases"),
)
def resource(c: _Compiler, st: Stmt) -> None:
    """`resource NAME { per turn | kept; word WORDS }`: a resource of the pack's own."""
    c.decl_resource(st)


@declaration("way", properties=WAY_PROPS, form="way NAME { paid in RESOURCE }", writes=("ways",))
def way(c: _Compiler, st: Stmt) -> None:
    """`way NAME { paid in RESOURCE; requires WORD; ... }`: a way to move along paths."""
    c.decl_way(st)


@declaration(
    "dragon",
    properties=DRAGON_PROPS,
    form='dragon { name "Some Name"; word WORD }',
    writes=("dragon",),
)
def dragon(c: _Compiler, st: Stmt) -> None:
    """`dragon { name "..."; word WORD }`: what the pack calls its antagonist."""
    c.decl_dragon(st)


part(
    "action",
    inside="an `action` line goes inside a `space` or a `token` block",
    doc="`action [NAME] [once per turn|game|module] [if CONDITION]: [PRICE ->] EFFECTS` in a "
    "space or a token: an action offered to the player there or holding it.",
    form="action NAME once per game: pay 2 boots -> +3 gold",
)
