"""Board checks on every assembly of a modular board (interpreter/assembly.py).

Each assembly the board allows is put together and checked as a hand-drawn board is (HQ,
reachability, artifact traps); a finding is reported once per room, at the room's line in its
module's file, naming the first assembly that breaks it and how many others do:

- CW138 (error): a room that cannot be reached from HQ in some assembly;
- CW139 (warning): a room reachable from HQ from which HQ cannot be reached in some assembly
  (a one-way trap: whoever enters never gets back to escape);
- CW201 and CW203 as for any board, with the assembly named.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clankwork.interpreter.assembly import assemble, assemblies, label

from .diagnostics import Diagnostic, Span
from .limits import MAX_ASSEMBLIES


def _span(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


def reach(edges: Iterable[tuple[str, str]], start: str) -> tuple[set[str], set[str]]:
    """The spaces reachable from ``start`` along ``edges`` (from, to) and those that reach
    it, ``start`` in both. A walk, not networkx: importing networkx took longer than checking
    a pack, and a check needs nothing else from it."""
    ahead: dict[str, list[str]] = {}
    behind: dict[str, list[str]] = {}
    for a, b in edges:
        ahead.setdefault(a, []).append(b)
        behind.setdefault(b, []).append(a)
    return _walk(ahead, start), _walk(behind, start)


def _walk(step: dict[str, list[str]], start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in step.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _graph(flat: dict[str, Any]) -> list[tuple[str, str]]:
    names = {s["name"] for s in flat["spaces"]}
    g = []
    for p in flat["paths"]:
        if p.get("to") is None or p["from"] not in names or p["to"] not in names:
            continue
        g.append((p["from"], p["to"]))
        if not p["oneway"]:
            g.append((p["to"], p["from"]))
    return g


def check_assemblies(board: dict[str, Any]) -> list[Diagnostic]:
    """Every assembly check of one modular board, one diagnostic per room and finding."""
    # (code, room) -> (first assembly's label, how many assemblies, the room's IR)
    found: dict[tuple[str, str], list[Any]] = {}
    total = 0
    for assembly in assemblies(board, MAX_ASSEMBLIES):
        total += 1
        name = label(board, assembly)
        for code, room, space in _broken_rooms(assemble(board, assembly)):
            hit = found.setdefault((code, room), [name, 0, space])
            hit[1] += 1
    mods = {m["name"]: m for m in board.get("modules", ())}
    out = []
    for (code, room), (first, n, space) in found.items():
        notes: tuple[tuple[str, Span], ...] = ()
        mod = mods.get(space.get("module")) if space else None
        if mod is not None:
            notes = ((f"module {mod['name']!r} is declared here", Span.from_ir(mod["at"])),)
        where = _where(first, n, total)
        msg, hint = _finding_text(code, board, _owner(room, space), where)
        at = space["at"] if space else board["at"]
        out.append(Diagnostic(code, msg, _span(at), hint=hint, notes=notes))
    return out


def _broken_rooms(flat: dict[str, Any]) -> list[tuple[str, str, dict[str, Any] | None]]:
    """What breaks one assembly (its plain board IR), as (code, room, the room's IR): CW201
    (room "", the second HQ if any) when it has not one HQ, else each room HQ does not reach
    (CW138) or that does not reach HQ (CW203 holding an artifact, else CW139)."""
    hqs = [s for s in flat["spaces"] if "hq" in s["features"]]
    if len(hqs) != 1:
        return [("CW201", "", hqs[1] if len(hqs) > 1 else None)]
    there, back = reach(_graph(flat), hqs[0]["name"])
    broken = []
    for space in flat["spaces"]:
        room = space["name"]
        if room not in there:
            code = "CW138"
        elif room not in back:
            code = "CW203" if "artifact" in space else "CW139"
        else:
            continue
        broken.append((code, room, space))
    return broken


def _where(first: str, n: int, total: int) -> str:
    """Which assemblies a finding holds in: the first, and how many others of ``total``."""
    if n == total and total > 1:
        return f"in every assembly (first: {first})"
    others = f" (and {n - 1} other assembl{'y' if n == 2 else 'ies'} of {total})" if n > 1 else ""
    return f"in assembly {first}{others}"


def _owner(room: str, space: dict[str, Any] | None) -> str:
    """How a finding names its room: with its module, and the side when it has two."""
    return f"room {room!r}" + (
        f" of module {space['module']!r} side {space['side']!r}"
        if space and "module" in space and space["module"] != space["side"]
        else f" of module {space['module']!r}"
        if space and "module" in space
        else ""
    )


def _finding_text(code: str, board: dict[str, Any], owner: str, where: str) -> tuple[str, str]:
    """The message and hint of a finding ``code`` about ``owner`` ``where`` it holds."""
    if code == "CW201":
        msg = f"board {board['name']!r} has no single HQ space {where}"
        hint = "mark exactly one space `hq`, in a module every assembly places"
    elif code == "CW138":
        msg = f"{owner} cannot be reached from HQ {where}"
        hint = (
            "the module is broken in that assembly: check the joins at its position "
            "and the direction of its one-way paths"
        )
    elif code == "CW139":
        msg = f"{owner} is a one-way trap {where}: HQ cannot be reached from it"
        hint = "add a way back, or turn a one-way path or join around"
    else:
        msg = f"artifact {owner} is a trap {where}: HQ cannot be reached from it"
        hint = "a player who takes this artifact can never escape; add a way back"
    return msg, hint
