"""Rule stickers: a legacy pack's named rule slots, and the stickers that fill them.

A pack's rules declare a slot, bound to what the box's rule changes: an empty, named step of
a phase (`slot R10 after setup.players`: the rulebook's "[R10]" box in setup), an empty
rules trigger (`slot R13 whenever you heal`: the box after the healing rule), or a rule
parameter (`slot R15 rule market price`). A sticker fills or replaces one slot: with effects
(`sticker "Expansion Plans" { fills R10: each player (+2 gold) }`) for a step or a trigger,
with rule values for a rule parameter (`fills R15 { market price 5 }`). A Franchise Board
sticker adds permanent abilities, triggers joined to the rules (`when you escape: +2 gold`). Which
stickers are applied is the campaign's business (tools/campaign.py, a scenario's `sticker`
statement); `apply_stickers` gives the IR a game of that campaign is played with. A later
sticker on the same slot replaces an earlier one, as a sticker pasted over another does.
"""

from __future__ import annotations

import copy
from typing import Any


def slots(ir: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The pack's rule slots by name: the step change, rules trigger or rule slot that
    declares each (a step change has "step", a trigger "on", a rule slot "rule")."""
    out = {c["slot"]: c for c in ir.get("steps", ()) if c.get("slot")}
    out.update((t["slot"], t) for t in ir.get("triggers", ()) if t.get("slot"))
    out.update((r["slot"], r) for r in ir.get("rule_slots", ()))
    return out


def slot_kind(slot: dict[str, Any]) -> str:
    """What a slot is bound to: "step", "trigger" or "rule"."""
    return "step" if "step" in slot else "trigger" if "on" in slot else "rule"


def stickers(ir: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The pack's stickers by name."""
    return {s["name"]: s for s in ir.get("stickers", ())}


def apply_stickers(ir: dict[str, Any], names: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The IR with the named stickers applied in order (``ir`` is left as it is). A name the
    pack lacks, or a sticker whose slot is gone, is a `ValueError` (the compiler checks both
    for the pack's own stickers; a campaign file may outlive an edit of its pack)."""
    if not names:
        return ir
    out = dict(ir)
    out["steps"] = copy.deepcopy(ir.get("steps", []))
    out["triggers"] = copy.deepcopy(ir.get("triggers", []))
    out["rules"] = copy.deepcopy(ir.get("rules", {}))
    # The rule slots are marked with the sticker that fills them: a copy, not the pack's.
    if "rule_slots" in ir:
        out["rule_slots"] = copy.deepcopy(ir["rule_slots"])
    by_slot = slots(out)
    known = stickers(ir)
    for name in names:
        sticker = known.get(name)
        if sticker is None:
            raise ValueError(f"the pack has no sticker named {name!r}")
        # A Franchise Board sticker: permanent abilities among the rules triggers.
        out["triggers"].extend(copy.deepcopy(sticker.get("abilities", [])))
        if not sticker.get("fills"):
            continue  # a board or card sticker: dsl/stickers.py applies its edits
        slot = by_slot.get(sticker["fills"])
        if slot is None:
            raise ValueError(f"sticker {name!r} fills slot {sticker['fills']!r}, which is gone")
        if "rules" in sticker:
            out["rules"].update(copy.deepcopy(sticker["rules"]))
        else:
            slot["effects"] = copy.deepcopy(sticker["effects"])
        slot["sticker"] = name
    return out
