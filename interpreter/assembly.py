"""Modular boards: the assemblies a board allows, and one assembly made a plain board IR.

A modular board IR (dsl/modules.py compiles it) has ``positions``, each a list of ``choices``
(a module and one of its sides), ``joins`` between two positions' connection points, and
``modules`` (each side's connection points: point -> the space at it). Its ``spaces`` and
``paths`` hold the board's own and every module side's, each module one tagged ``module`` and
``side``. An assembly puts one choice at each position, no module twice; `assemble` keeps the
spaces and paths of the sides placed, turns each join into a path between the spaces at the
two points, and returns a board IR every other part reads as it reads a hand-drawn board.

An assembly is a tuple of (position, module, side), one per position in board order. Its
label names the free positions only (``1=Hydroponics, 2=Med Lab``), which is also what
``--modules`` and a scenario's ``modules`` line are written as (`parse_assembly`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from typing import Any

Assembly = tuple[tuple[str, str, str], ...]


def is_modular(board_ir: dict[str, Any]) -> bool:
    """True for a board assembled from modules at setup."""
    return bool(board_ir.get("positions"))


def _choices(board_ir: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (p["name"], [(c["module"], c["side"]) for c in p["choices"]])
        for p in board_ir.get("positions", ())
    ]


def assemblies(board_ir: dict[str, Any], limit: int | None = None) -> Iterator[Assembly]:
    """Every assembly the board allows, in a fixed order (each position's choices in the
    order written, the first position varying slowest), at most ``limit`` of them."""
    positions = _choices(board_ir)
    made = 0

    def walk(k: int, used: frozenset[str], acc: list[tuple[str, str, str]]) -> Iterator[Assembly]:
        nonlocal made
        if limit is not None and made >= limit:
            return
        if k == len(positions):
            made += 1
            yield tuple(acc)
            return
        name, choices = positions[k]
        for module, side in choices:
            if module in used:
                continue
            acc.append((name, module, side))
            yield from walk(k + 1, used | {module}, acc)
            acc.pop()
            if limit is not None and made >= limit:
                return

    yield from walk(0, frozenset(), [])


def count_assemblies(board_ir: dict[str, Any], limit: int) -> int:
    """How many assemblies the board allows, counting no further than ``limit``."""
    return sum(1 for _ in assemblies(board_ir, limit))


def first_assembly(board_ir: dict[str, Any]) -> Assembly | None:
    """The first assembly in `assemblies` order (the board as written), or None."""
    return next(assemblies(board_ir, 1), None)


def random_assembly(board_ir: dict[str, Any], rng: random.Random) -> Assembly | None:
    """An assembly drawn with the game's RNG: each position in board order takes one of its
    choices whose module is still in the box (positions with one choice draw nothing, so a
    board with no free position leaves the RNG as it was). None when none fits."""
    used: set[str] = set()
    out: list[tuple[str, str, str]] = []
    for name, choices in _choices(board_ir):
        left = [c for c in choices if c[0] not in used]
        if not left:
            return None
        module, side = left[0] if len(left) == 1 else left[rng.randrange(len(left))]
        used.add(module)
        out.append((name, module, side))
    return tuple(out)


def free_positions(board_ir: dict[str, Any]) -> list[str]:
    """The positions with more than one choice, in board order."""
    return [name for name, choices in _choices(board_ir) if len(choices) > 1]


def side_label(board_ir: dict[str, Any], module: str, side: str) -> str:
    """What an assembly label calls a module's side: the module's name for a one-sided
    module, the side's name when no other module of the board has a side so named, else
    ``MODULE/SIDE``."""
    mods = {m["name"]: m for m in board_ir.get("modules", ())}
    m = mods.get(module)
    if m is not None and len(m["sides"]) == 1:
        return module
    same = [x for x in mods.values() for s in x["sides"] if s["name"] == side]
    return side if len(same) == 1 else f"{module}/{side}"


def label(board_ir: dict[str, Any], assembly: Sequence[Sequence[str]]) -> str:
    """The assembly's name: ``POSITION=SIDE`` for each free position, comma-separated (the
    board's name alone when it has no free position)."""
    free = set(free_positions(board_ir))
    parts = [f"{p}={side_label(board_ir, m, s)}" for p, m, s in assembly if p in free]
    return ", ".join(parts) if parts else board_ir["name"]


def parse_assembly(board_ir: dict[str, Any], text: str) -> tuple[Assembly | None, str | None]:
    """An assembly from its written form, and None or what is wrong with it.

    ``text`` lists free positions' choices, comma-separated, each ``POSITION=WHAT`` or just
    ``WHAT`` (the next free position in order); WHAT is a side's name, ``MODULE/SIDE`` or a
    one-sided module's name. Positions not named take their first choice still free. A board
    with no free position is named by its name (what `label` writes for it).
    """
    positions = dict(_choices(board_ir))
    free = free_positions(board_ir)
    if not free and text.strip() in ("", board_ir["name"]):
        # A board whose every position has one choice: its one assembly, which `label`
        # writes as the board's name (a log's header, `--modules` copied from one).
        return first_assembly(board_ir), None
    picked, problem = _read_picks(board_ir, positions, free, text)
    if picked is None:
        return None, problem
    return _complete(positions, picked)


def _read_picks(
    board_ir: dict[str, Any],
    positions: dict[str, list[tuple[str, str]]],
    free: list[str],
    text: str,
) -> tuple[dict[str, tuple[str, str]] | None, str | None]:
    """The choices ``text`` names, by position (a bare WHAT goes to the next free position
    not yet named), or None and what is wrong with it."""
    picked: dict[str, tuple[str, str]] = {}
    order = iter(free)
    for raw in (t.strip() for t in text.split(",")):
        if not raw:
            continue
        pos, eq, what = raw.partition("=")
        if eq:
            pos, what = pos.strip(), what.strip()
            if pos not in positions:
                return None, f"{pos!r} is not a position of board {board_ir['name']!r} " + (
                    f"(its free positions: {', '.join(free)})" if free else "(it has none free)"
                )
        else:
            what = raw
            pos = next((p for p in order if p not in picked), "")
            if not pos:
                return None, f"{raw!r}: every free position is already chosen"
        choice, problem = _choice_named(board_ir, positions[pos], pos, what)
        if choice is None:
            return None, problem
        picked[pos] = choice
    return picked, None


def _choice_named(
    board_ir: dict[str, Any], choices: list[tuple[str, str]], pos: str, what: str
) -> tuple[tuple[str, str] | None, str | None]:
    """The one choice of position ``pos`` that ``what`` names (its label, ``MODULE/SIDE``,
    its side's name, or its module's name when the module has one side there), or None and
    why none or several do."""
    hits = [
        c
        for c in choices
        if what in (side_label(board_ir, *c), f"{c[0]}/{c[1]}", c[1])
        or (what == c[0] and sum(1 for d in choices if d[0] == c[0]) == 1)
    ]
    if not hits:
        offered = ", ".join(side_label(board_ir, *c) for c in choices)
        return None, f"position {pos} cannot take {what!r}; it takes {offered}"
    if len(hits) > 1:
        return None, (
            f"{what!r} at position {pos} is one of several sides; name one: "
            + ", ".join(f"{m}/{s}" for m, s in hits)
        )
    return hits[0], None


def _complete(
    positions: dict[str, list[tuple[str, str]]], picked: dict[str, tuple[str, str]]
) -> tuple[Assembly | None, str | None]:
    """The assembly of the choices picked, each position not named taking its first choice
    whose module is still free, or None and why not (a module at two positions, or none
    left for a position)."""
    used = {m for m, _ in picked.values()}
    if len(used) != len(picked):
        return None, "a module can be at only one position"
    out: list[tuple[str, str, str]] = []
    for pos, choices in positions.items():
        if pos in picked:
            out.append((pos, *picked[pos]))
            continue
        rest = [c for c in choices if c[0] not in used]
        if not rest:
            return None, f"no module is left for position {pos}"
        used.add(rest[0][0])
        out.append((pos, *rest[0]))
    got = tuple(out)
    # A fixed module named again at a free position, say.
    if len({m for _, m, _ in got}) != len(got):
        return None, "a module can be at only one position"
    return got, None


def point_space(board_ir: dict[str, Any], module: str, side: str, point: str) -> str | None:
    """The space at connection point ``point`` of a module's side, or None."""
    for m in board_ir.get("modules", ()):
        if m["name"] == module:
            for s in m["sides"]:
                if s["name"] == side:
                    return s["points"].get(point)
    return None


def assemble(
    board_ir: dict[str, Any], assembly: Sequence[Sequence[str]], *, share: bool = False
) -> dict[str, Any]:
    """The plain board IR of one assembly: the board's own spaces and paths, those of the
    sides placed, and a path for each join (joins whose points are missing are left out;
    `clankwork check` reports them). Each placed side is a group of kind ``module``.

    The spaces and paths are copies; with ``share`` only their top level is (what they hold
    is the board IR's own: for a `Board`, which reads and never changes it, a new ship costs
    no deep copy)."""
    copy_item = dict if share else copy.deepcopy
    placed = {(m, s) for _p, m, s in assembly}
    at_pos = {p: (m, s) for p, m, s in assembly}

    def kept(item: dict[str, Any]) -> bool:
        return "module" not in item or (item["module"], item["side"]) in placed

    spaces = [copy_item(s) for s in board_ir["spaces"] if kept(s)]
    for s in spaces:
        if "module" in s:
            # The renderer draws a group as a cluster: one outline per placed module.
            s["group"] = side_label(board_ir, s["module"], s["side"])
    paths = [copy_item(p) for p in board_ir["paths"] if kept(p)]
    for j in board_ir.get("joins", ()):
        ends = []
        for (pos, point), end_at in ((j["from"], j.get("from_at")), (j["to"], j.get("to_at"))):
            where = at_pos.get(pos)
            space = point_space(board_ir, *where, point) if where else None
            ends.append((space, end_at))
        if None in (ends[0][0], ends[1][0]):
            continue
        path = {
            k: v if share else copy.deepcopy(v) for k, v in j.items() if k not in ("from", "to")
        }
        path["from"], path["to"] = ends[0][0], ends[1][0]
        paths.append(path)
    groups = [copy_item(g) for g in board_ir.get("groups", ())]
    mods = {m["name"]: m for m in board_ir.get("modules", ())}
    for pos, module, side in assembly:
        m = mods.get(module)
        at = m["at"] if m is not None else board_ir["at"]
        for s in m["sides"] if m is not None else ():
            if s["name"] == side:
                at = s["at"]
        groups.append(
            {
                "name": side_label(board_ir, module, side),
                "kind": "module",
                "position": pos,
                "at": at,
            }
        )
    return {
        "name": board_ir["name"],
        "spaces": spaces,
        "paths": paths,
        "groups": groups,
        "at": board_ir["at"],
        "assembly": [list(a) for a in assembly],
    }
