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

from .boardcheck import check_boards
from .diagnostics import Diagnostic, Span
from .extends import add_to_boards, apply_edits, edit_from_ir


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
        if st.get("edits") or st.get("boards"):
            before = board_problems(out)
            problems = apply_edits(
                out, [edit_from_ir(e) for e in st.get("edits", ())], ir["pack"]["name"]
            )
            problems += add_to_boards(out, copy.deepcopy(st.get("boards", [])), ir["pack"]["name"])
            if problems:
                raise ValueError(f"{_where(st)}: sticker {name!r}: {problems[0].message}")
            # The board as stickered is checked again: a sticker must not cut a space off.
            new = [d for d in board_problems(out) if _key(d) not in {_key(b) for b in before}]
            if new:
                raise ValueError(
                    f"{_where(st)}: sticker {name!r} breaks the board: {new[0].message}"
                )
        if st.get("fills") or st.get("abilities"):
            out = apply_stickers(out, [name])
    return out


def _where(st: dict[str, Any]) -> str:
    at = st.get("at")
    return f"{at['file']}:{at['line']}:{at['col']}" if at else "(sticker)"


def _key(d: Diagnostic) -> tuple[str, str]:
    return (d.code, d.message)


def board_problems(ir: dict[str, Any]) -> list[Diagnostic]:
    """The board checks' errors on ``ir``'s boards (HQ, reachability, artifact traps)."""
    return [d for d in check_boards(ir) if d.severity == "error"]


def with_waypoints(ir: dict[str, Any]) -> dict[str, Any]:
    """The IR of a campaign game: passages are read as they happen (`campaign_game`: the
    engine's `read_now`), and each waypoint space (`waypoint N`) reads its passage when a
    player enters it (once a game): only waypoints the pack has a passage for (a plain game
    reads nothing)."""
    numbers = {p["number"] for p in ir.get("passages", ())}
    if not numbers:
        return ir
    ir = {**ir, "campaign_game": True}
    if not any(s.get("waypoint") in numbers for b in ir.get("boards", ()) for s in b["spaces"]):
        return ir
    boards = []
    for b in ir["boards"]:
        spaces = []
        for s in b["spaces"]:
            if s.get("waypoint") in numbers:
                read = {"op": "read", "n": s["waypoint"]}
                trig = {"on": "enter", "limit": "game", "effects": [read]}
                s = {**s, "triggers": [*s.get("triggers", ()), trig]}
            spaces.append(s)
        boards.append({**b, "spaces": spaces})
    return {**ir, "boards": boards}


def with_goals(ir: dict[str, Any]) -> dict[str, Any]:
    """The IR with its personal goals' triggers among the rules triggers: a campaign game
    marks their boxes (a plain game never does)."""
    goals = ir.get("goals")
    if not goals:
        return ir
    return {**ir, "triggers": [*ir.get("triggers", ()), *(g["trigger"] for g in goals)]}


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
    keys = ("stickers", "fetched", "destroyed", "contracts", "patrons")
    return (*(tuple(sc.get(k, ())) for k in keys), (bool(sc.get("campaign")),))


def campaign_setup(ir: dict[str, Any], sc: dict[str, Any]) -> dict[str, Any]:
    """The IR a scenario plays: the pack with the campaign state it states (`sticker`,
    `fetch`, `destroy`, `contract`)."""
    stickers, fetched, destroyed, contracts, patrons, _ = campaign_key(sc)
    out = with_contracts(fetch_and_destroy(apply(ir, stickers), fetched, destroyed), contracts)
    for name in patrons:
        out = with_patron(out, name)
    return with_waypoints(with_goals(out)) if sc.get("campaign") else out


def _trial(ir: dict[str, Any], st: dict[str, Any]) -> dict[str, Any]:
    """What a sticker's edits may change, copied, the rest shared with ``ir``: the boards,
    and the cards and tokens its edits name (a pack of 2,000 cards was copied whole for
    each sticker, most of the time of checking it)."""
    named = {e["name"] for e in st.get("edits", ())}
    return {
        "pack": ir["pack"],
        "cards": [copy.deepcopy(c) if c["name"] in named else c for c in ir["cards"]],
        "tokens": [copy.deepcopy(t) if t["name"] in named else t for t in ir["tokens"]],
        "boards": copy.deepcopy(ir["boards"]),
    }


def check(ir: dict[str, Any]) -> list[Diagnostic]:
    """Each sticker's edits tried on a copy of the pack: what they name must be there, and
    the board as stickered passes the board checks (a new problem is reported at the
    sticker)."""
    out: list[Diagnostic] = []
    before: set[tuple[str, str]] | None = None
    for st in ir.get("stickers", ()):
        if st.get("edits") or st.get("boards"):
            trial = _trial(ir, st)
            edits = [edit_from_ir(e) for e in st.get("edits", ())]
            found = apply_edits(trial, edits, ir["pack"]["name"])
            found += add_to_boards(trial, copy.deepcopy(st.get("boards", [])), ir["pack"]["name"])
            out += found
            on_board = st.get("boards") or any(
                e["kind"] in ("space", "path", "board") for e in st.get("edits", ())
            )
            if found or not on_board:
                continue
            if before is None:
                before = {_key(d) for d in board_problems(ir)}
            for d in board_problems(trial):
                if _key(d) not in before:
                    out.append(
                        Diagnostic(
                            "CW206",
                            f"sticker {st['name']!r} breaks the board: {d.message}",
                            Span.from_ir(st["at"]),
                            hint="a board sticker must leave every space reachable from HQ "
                            "and every artifact a way back",
                        )
                    )
    return out
