"""The rules block: rule values, triggers, steps, slots, counters and awards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration, part

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "rules",
    form="rules { RULE VALUE; TRIGGER: EFFECTS; step NAME after OTHER: EFFECTS }",
    writes=("rules", "triggers", "steps", "counters", "rule_slots", "awards"),
)
def rules(c: _Compiler, st: Stmt) -> None:
    """`rules { ... }`: rule values, the pack's triggers, steps, slots, counters and awards."""
    c.decl_rules(st)


part(
    "step",
    inside="a `step` goes inside the `rules { ... }` block: rules { step NAME after OTHER: ... }",
    doc="`step NAME [before|after|replaces OTHER]: EFFECTS` (or `remove step NAME`) in the "
    "rules block: a change to the steps of setup or the turn.",
    form="step NAME after OTHER: EFFECTS",
    writes=("steps",),
)
