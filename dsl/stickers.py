"""Applying a pack's stickers: rule stickers fill slots (interpreter/stickers.py), board and
card stickers edit the pack the way an extension edits its base (dsl/extends.py).

`apply` gives the IR a campaign game is played with once the named stickers are on; the
compiler dry-runs each sticker's edits (`check`) so a sticker naming what the pack lacks is a
diagnostic when the pack is checked, not a surprise at the table.
"""

from __future__ import annotations

import copy
from typing import Any

from clankwork.interpreter.stickers import apply_stickers, stickers

from .diagnostics import Diagnostic
from .extends import apply_edits, edit_from_ir


def apply(ir: dict[str, Any], names: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The IR with the named stickers on, in order (``ir`` is left as it is). `ValueError`
    for a sticker the pack lacks or whose edits no longer fit it."""
    if not names:
        return ir
    known = stickers(ir)
    out = copy.deepcopy(ir)
    for name in names:
        st = known.get(name)
        if st is None:
            raise ValueError(f"the pack has no sticker named {name!r}")
        if st.get("edits"):
            problems = apply_edits(out, [edit_from_ir(e) for e in st["edits"]], ir["pack"]["name"])
            if problems:
                raise ValueError(f"sticker {name!r}: {problems[0].message}")
        if st.get("fills"):
            out = apply_stickers(out, [name])
    return out


def fetch_and_destroy(
    ir: dict[str, Any], fetched: list[int] | tuple[int, ...], destroyed: list[str] | tuple[str, ...]
) -> dict[str, Any]:
    """The IR with Cardporium cards ``fetched`` (by number) in the adventure deck, and one
    copy of each card in ``destroyed`` gone (a design with no copy left leaves the pack)."""
    if not fetched and not destroyed:
        return ir
    out = dict(ir)
    cards = [dict(c) for c in ir["cards"]]
    for n in fetched:
        for c in cards:
            if c.get("cardporium") == n and c["deck"] == "cardporium":
                c["deck"] = "adventure"
    for name in destroyed:
        for c in cards:
            if c["name"] == name and c.get("copies", 1) > 0:
                c["copies"] = c.get("copies", 1) - 1
                break
    out["cards"] = [c for c in cards if c.get("copies", 1) > 0]
    return out


def with_contracts(ir: dict[str, Any], names: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The IR with these contracts open in the Contracts row (the engine plays only open
    ones: `end_of_turn.resolve_contracts`)."""
    if not names:
        return ir
    return {**ir, "open_contracts": list(dict.fromkeys(names))}


def with_patron(ir: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The IR with the patron's triggers among the pack's rules triggers, for one game."""
    if name is None:
        return ir
    patron = next((p for p in ir.get("patrons", ()) if p["name"] == name), None)
    if patron is None:
        raise ValueError(f"the pack has no patron named {name!r}")
    return {**ir, "triggers": [*ir.get("triggers", ()), *patron["triggers"]]}


def campaign_key(sc: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    """What of a campaign's state a scenario states (for caching its prepared pack)."""
    return tuple(tuple(sc.get(k, ())) for k in ("stickers", "fetched", "destroyed", "contracts"))


def campaign_setup(ir: dict[str, Any], sc: dict[str, Any]) -> dict[str, Any]:
    """The IR a scenario plays: the pack with the campaign state it states (`sticker`,
    `fetch`, `destroy`, `contract`)."""
    stickers, fetched, destroyed, contracts = campaign_key(sc)
    return with_contracts(fetch_and_destroy(apply(ir, stickers), fetched, destroyed), contracts)


def check(ir: dict[str, Any]) -> list[Diagnostic]:
    """Each sticker's edits tried on a copy of the pack: what they name must be there."""
    out: list[Diagnostic] = []
    for st in ir.get("stickers", ()):
        if st.get("edits"):
            trial = copy.deepcopy({k: ir[k] for k in ("pack", "cards", "tokens", "boards")})
            out += apply_edits(trial, [edit_from_ir(e) for e in st["edits"]], ir["pack"]["name"])
    return out
