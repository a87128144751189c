"""Board checks on the paths' graph: HQ, reachability, one-way traps, dead ends."""

from __future__ import annotations

from typing import Any

from clankwork.interpreter.assembly import is_modular

from .assembly_check import check_assemblies, reach
from .diagnostics import Diagnostic, Span


def _span(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


def check_boards(ir: dict[str, Any]) -> list[Diagnostic]:
    """Every board check on every board of a compiled pack."""
    diags: list[Diagnostic] = []
    if not ir["boards"]:
        diags.append(
            Diagnostic(
                "CW205",
                f"pack {ir['pack']['name']!r} declares no board: its games cannot be played",
                _span(ir["pack"].get("at")),
                hint="add a `board NAME { space ...; path ... }` declaration",
            )
        )
    if not any(c["deck"] == "starting" for c in ir["cards"]):
        diags.append(
            Diagnostic(
                "CW205",
                f"pack {ir['pack']['name']!r} declares no starting-deck cards",
                _span(ir["pack"].get("at")),
                hint="mark cards with `starting N`: card Burgle { starting 6; play: +1 skill }",
            )
        )
    for board in ir["boards"]:
        # A modular board is checked in each of its assemblies (assembly_check.py).
        diags.extend(check_assemblies(board) if is_modular(board) else _check_board(board))
    return diags


def _check_board(board: dict[str, Any]) -> list[Diagnostic]:
    """The checks of one hand-drawn board: dead-end paths (CW204), one HQ (CW201), and
    from HQ, the spaces it cannot reach (CW202) and the artifact spaces that trap (CW203)."""
    g, diags = _walks(board)
    hqs = [s for s in board["spaces"] if "hq" in s["features"]]
    if len(hqs) != 1:
        diags.append(
            Diagnostic(
                "CW201",
                f"board {board['name']!r} has {'no' if not hqs else len(hqs)} HQ space"
                + ("" if len(hqs) <= 1 else "s"),
                _span(hqs[1]["at"] if len(hqs) > 1 else board["at"]),
                hint="mark exactly one space `hq`: players start there and escape there",
            )
        )
        return diags
    return diags + _reach_problems(board, g, hqs[0]["name"])


def _walks(board: dict[str, Any]) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """The board's walks (from, to), by the spaces' own names, and a CW204 for each path
    that leads nowhere. Paths naming unknown spaces are reported by the compiler; they are
    left out here."""
    diags: list[Diagnostic] = []
    names = {s["name"].lower() for s in board["spaces"]}
    usable = [
        p
        for p in board["paths"]
        if p["from"].lower() in names and (p["to"] is None or p["to"].lower() in names)
    ]
    canon = {s["name"].lower(): s["name"] for s in board["spaces"]}
    g: list[tuple[str, str]] = []
    for p in usable:
        if p["to"] is None:
            diags.append(
                Diagnostic(
                    "CW204",
                    f"a path from {p['from']!r} leads nowhere; nobody can use it",
                    _span(p["at"]),
                    hint="fine if intended (the rules allow dead ends); a sticker may extend it",
                )
            )
            continue
        a, b = canon[p["from"].lower()], canon[p["to"].lower()]
        g.append((a, b))
        if not p["oneway"]:
            g.append((b, a))
    return g, diags


def _reach_problems(board: dict[str, Any], g: list[tuple[str, str]], hq: str) -> list[Diagnostic]:
    """CW202 for each space HQ cannot reach, then CW203 for each artifact space HQ reaches
    but that cannot reach HQ (whoever takes its artifact never escapes)."""
    diags: list[Diagnostic] = []
    reachable, back = reach(g, hq)
    for space in board["spaces"]:
        if space["name"] not in reachable:
            diags.append(
                Diagnostic(
                    "CW202",
                    f"space {space['name']!r} cannot be reached from HQ",
                    _span(space["at"]),
                    hint="add a path to it, or check the direction of its one-way paths",
                )
            )
    for space in board["spaces"]:
        if "artifact" in space and space["name"] in reachable and space["name"] not in back:
            diags.append(
                Diagnostic(
                    "CW203",
                    f"artifact space {space['name']!r} is a trap: HQ cannot be reached from it",
                    _span(space["at"]),
                    hint="a player who takes this artifact can never escape; "
                    "add a way back or turn a one-way path around",
                )
            )
    return diags
