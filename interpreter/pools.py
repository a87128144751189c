"""Resources: the base ones (skill, swords, boots, gold, Clank!) and those a pack declares.

A declared resource (`resource "special moves" { per turn }`) is a number per player kept in
`PlayerState.pools`, a plain dict the state snapshot walks; it is gained with `+N RESOURCE`,
paid with `pay N RESOURCE` and spent by the ways paid in it. The base resources stay player
attributes: the hot loop reads them on every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .effects.registry import RESOURCES
from .resource_props import RESOURCE_PROPERTIES


@dataclass(frozen=True, slots=True)
class Resource:
    """A declared resource: its name, whether it is lost at the end of each turn (like
    boots) or kept (like gold), the words effects may call it by, and every property's
    value by its IR key (``props``, read by the records of resource_props.py: an engine
    module acting on a new property reads it there)."""

    name: str
    per_turn: bool = True
    words: tuple[str, ...] = ()
    props: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def from_ir(cls, r: dict[str, Any]) -> Resource:
        """Build a resource from its IR declaration."""
        props = {p.key: p.read(r) for p in RESOURCE_PROPERTIES.values()}
        return cls(
            name=r["name"],
            per_turn=props["keep"] == "turn",
            words=tuple(props["words"]),
            props=props,
        )


def declared(ir: dict[str, Any]) -> dict[str, Resource]:
    """The pack's declared resources by name (the base ones are not listed)."""
    return {r["name"]: Resource.from_ir(r) for r in ir.get("resources", ())}


def is_base(name: str) -> bool:
    """True for skill, swords, boots, gold and clank."""
    return name in RESOURCES
