"""A pack as played on one of its boards: the pack with that board's `on board NAME { ... }`
blocks laid over it.

A pack with several boards (or the two sides of one printed board) says what differs on each
in `on board NAME { ... }` blocks; everything outside them is played on every board. The
compiler keeps each block in the IR's ``on_board`` list, unmerged: its rule values, rules
triggers, steps and counters, its dragon's names, the designs only that board has (cards,
tokens) and its edits of the pack's designs (`remove`, `replace`, `change`, by name).
`for_board` gives the IR a game on that board plays (`catalog.prepare` calls it), and the
checks that look at a whole game read it too (one game per board).
"""

from __future__ import annotations

import copy
from typing import Any

from .design_edits import apply_change

CARD_KINDS = ("card", "monster", "event", "reserve")
"""The design kinds a board's edits of cards name (tokens are the other kind)."""


def sections(ir: dict[str, Any], board: str) -> list[dict[str, Any]]:
    """The pack's `on board` blocks for ``board``, in the order written."""
    return [s for s in ir.get("on_board", ()) if s["board"] == board]


def has_sections(ir: dict[str, Any]) -> bool:
    """Whether any board of the pack has rules, setup or components of its own."""
    return bool(ir.get("on_board"))


def for_board(ir: dict[str, Any], board: str) -> dict[str, Any]:
    """The IR of a game on ``board``: the pack with the board's blocks merged (``ir`` is left
    as it is, and returned as it is when the pack has no block at all). Rule values replace
    the pack's; rules triggers, steps and counters come after the pack's; the dragon's names
    replace the pack's; the board's edits change the pack's designs in order, then its own
    designs are added. No other board's block is left in the result."""
    if "on_board" not in ir:
        return ir
    out = {k: v for k, v in ir.items() if k != "on_board"}
    mine = sections(ir, board)
    if not mine:
        return out
    rules = dict(ir.get("rules", {}))
    at = dict(rules.get("at", {}))
    triggers = list(ir.get("triggers", ()))
    steps = list(ir.get("steps", ()))
    counters = list(ir.get("counters", ()))
    cards = list(ir.get("cards", ()))
    tokens = list(ir.get("tokens", ()))
    dragon = ir.get("dragon")
    for sec in mine:
        values = {k: v for k, v in sec.get("rules", {}).items() if k != "at"}
        rules.update(copy.deepcopy(values))
        at.update(sec.get("rules", {}).get("at", {}))
        triggers += sec.get("triggers", ())
        steps += sec.get("steps", ())
        counters += sec.get("counters", ())
        for edit in sec.get("edits", ()):
            items = tokens if edit["kind"] == "token" else cards
            _edit(items, edit)
        cards += sec.get("cards", ())
        tokens += sec.get("tokens", ())
        dragon = sec.get("dragon", dragon)
    if at:
        rules["at"] = at
    out.update(
        rules=rules, triggers=triggers, steps=steps, counters=counters, cards=cards, tokens=tokens
    )
    if dragon is not None:
        out["dragon"] = dragon
    return out


def _edit(items: list[dict[str, Any]], edit: dict[str, Any]) -> None:
    """One `remove`, `replace` or `change` of a design named in ``items`` (a list of the
    IR's, copied: the pack's own designs are not changed). A name the list lacks is left: the
    compiler reports it (CW122) where the block names it."""
    at = next((i for i, d in enumerate(items) if d["name"] == edit["name"]), None)
    if at is None:
        return
    if edit["verb"] == "remove":
        del items[at]
    elif edit["verb"] == "replace":
        items[at] = edit["item"]
    else:
        changed = copy.deepcopy(items[at])
        apply_change(changed, edit.get("item") or {}, tuple(edit.get("fields", ())))
        items[at] = changed
