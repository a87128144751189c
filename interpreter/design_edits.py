"""Changing a declared design in the IR: what `change KIND NAME { ... }` does to it.

An extension's edits of its base (dsl/extends.py) and a board's edits of its pack (`on
board NAME { change reserve X { ... } }`, interpreter/on_board.py) change a design the same
way; the rule is here, below both, so the engine can apply a board's edits when it prepares a
game without reading the compiler.
"""

from __future__ import annotations

import copy
from typing import Any

ADDITIVE = ("tags", "features", "grants", "requires")
"""Lists that a `change` adds to rather than replaces (a card gains a tag, a space a feature)."""

CLEARED = ("points_per",)
"""Fields that go when the property that sets them is given without them (`points 3` after
`points 1 per companion`)."""


def apply_change(target: dict[str, Any], body: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Copy the ``fields`` a change's compiled ``body`` sets onto ``target``; a trigger given
    replaces the target's triggers of the same event, a reward the target's reward of the same
    kind."""
    for f in fields:
        if f in ADDITIVE and isinstance(body.get(f), list):
            have = target.setdefault(f, [])
            have.extend(x for x in body[f] if x not in have)
        elif f == "holds" and isinstance(body.get(f), list):
            what = {h["what"] for h in body[f]}
            target[f] = [h for h in target.get(f, []) if h["what"] not in what] + body[f]
        elif f in body:
            target[f] = copy.deepcopy(body[f])
        elif f in CLEARED:
            target.pop(f, None)
    if body.get("triggers"):
        events = {trigger_key(t) for t in body["triggers"]}
        kept = [t for t in target.get("triggers", []) if trigger_key(t) not in events]
        target["triggers"] = kept + body["triggers"]


def trigger_key(t: dict[str, Any]) -> tuple[str, str | None]:
    """What a trigger of a `change` body replaces: a space's `reward KIND` (a once-a-turn
    entry trigger with one kind of effect) replaces the reward of the same kind; any other
    trigger replaces the target's triggers of the same event."""
    effects = t["effects"]
    if t["on"] == "enter" and t.get("limit") == "turn" and "if" not in t and effects:
        kinds = {(e["op"], e.get("resource"), e.get("size"), e.get("what")) for e in effects}
        if len(kinds) == 1:
            return t["on"], repr(next(iter(kinds)))
    return t["on"], None
