"""Module declarations: board pieces placed at a board's positions."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..modules import MODULE_PROPS, _sp
from ..parser import Atom, Stmt, atoms_span
from .places import _path_props, compile_dead_end, compile_path, compile_space
from .registry import declaration
from .shared import _at

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "module",
    properties=MODULE_PROPS,
    form="module NAME { connects A B; side NAME { ... } }",
    writes=("boards",),
)
def module(c: _Compiler, st: Stmt) -> None:
    """`module NAME { connects P...; side NAME { space...; path... } }`."""
    named = c._name(st, "module")
    if named is None:
        return
    c._no_effects(st)
    mod: dict[str, Any] = {
        "name": named[0],
        "points": [],
        "sides": [],
        "at": _at(st.span),
        "name_at": _at(named[1]),
    }
    loose: list[Stmt] = []
    for s in st.block or []:
        key = s.words[0]
        if key == "connects":
            for atom in _point_names(c, s):
                if atom.text in mod["points"]:
                    c.error(
                        "CW136",
                        f"module {named[0]!r} lists connection point {atom.text!r} twice",
                        atom.span,
                        hint="list each point once",
                    )
                else:
                    mod["points"].append(atom.text)
            mod["points_at"] = _at(s.span)
        elif key == "side":
            _module_side(c, mod, s)
        else:
            loose.append(s)
    if loose and mod["sides"]:
        c.error(
            "CW105",
            f"module {named[0]!r} has sides, and spaces or paths outside them",
            loose[0].span,
            hint="put each space and path inside a `side NAME { ... }` block",
        )
    elif not mod["sides"]:
        mod["sides"].append(_side(c, mod, named[0], loose, st.span))
    if any(m["name"] == named[0] for m in c.modules):
        c.error(
            "CW106",
            f"module {named[0]!r} is declared twice",
            named[1],
            hint="rename one of them",
        )
        return
    _check_points(c, mod)
    c.modules.append(mod)


def _module_side(c: _Compiler, mod: dict[str, Any], s: Stmt) -> None:
    """`side NAME { ... }` in a module (CW106 for a second side of one name)."""
    c._no_effects(s)
    side = c._name(s, "side")
    if side is None:
        return
    if any(x["name"] == side[0] for x in mod["sides"]):
        c.error(
            "CW106",
            f"module {mod['name']!r} has two sides named {side[0]!r}",
            side[1],
            hint="name each side of a piece differently",
        )
        return
    mod["sides"].append(_side(c, mod, side[0], s.block or [], s.span))


def _point_names(c: _Compiler, s: Stmt) -> list[Atom]:
    """The point names of `connects P Q` or `connects: P, Q`."""
    atoms = list(s.head[1:])
    for e in s.effects or []:
        atoms.extend(e.phrase if e.form == "simple" else [])
    if not atoms or any(a.kind not in ("word", "string") for a in atoms):
        c.error(
            "CW105",
            "connects names connection points",
            s.span,
            hint="write `connects fore aft` (a module) or `connects fore` (a space)",
        )
        return []
    c._clean(atoms)
    return atoms


def _side(
    c: _Compiler, mod: dict[str, Any], name: str, body: list[Stmt], span: Span
) -> dict[str, Any]:
    """One side: its spaces and paths compiled as a board's, and where its points are."""
    holder: dict[str, Any] = {"spaces": [], "paths": [], "groups": []}
    side: dict[str, Any] = {"name": name, "points": {}, "at": _at(span), "point_at": {}}
    for s in body:
        key = s.words[0]
        if key == "space":
            block, points = [], []
            for inner in s.block or []:
                (points if inner.words[0] == "connects" else block).append(inner)
            before = len(holder["spaces"])
            compile_space(c, holder, replace(s, block=block), None)
            if len(holder["spaces"]) == before:
                continue
            space = holder["spaces"][-1]["name"]
            for p in points:
                for atom in _point_names(c, p):
                    if atom.text in side["points"]:
                        c.error(
                            "CW136",
                            f"point {atom.text!r} of {mod['name']!r} side {name!r} is at "
                            f"{side['points'][atom.text]!r} and at {space!r}",
                            atom.span,
                            hint="a connection point is at one space of each side",
                        )
                        continue
                    side["points"][atom.text] = space
                    side["point_at"][atom.text] = _at(atom.span)
        elif key == "path":
            c._no_effects(s)
            compile_path(c, holder, s)
        elif s.words[:2] == ["dead", "end"]:
            c._no_effects(s)
            compile_dead_end(c, holder, s)
        else:
            c.error(
                "CW102",
                f"unknown module statement `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(key, [w.split()[0] for w in MODULE_PROPS])
                or "a module holds connects, side, space, path and dead end statements",
            )
    names = {sp["name"] for sp in holder["spaces"]}
    for p in holder["paths"]:
        for end in ("from", "to"):
            if p.get(end) is not None and p[end] not in names:
                c.error(
                    "CW107",
                    f"path {end} {p[end]!r}: no space of that name on {mod['name']!r} "
                    f"side {name!r}",
                    _sp(p.get(f"{end}_at")) or _sp(p["at"]),
                    hint="a module's paths join its own spaces; join modules with "
                    "`join` on the board",
                )
    for item in (*holder["spaces"], *holder["paths"]):
        item["module"], item["side"] = mod["name"], name
    side["spaces"], side["paths"] = holder["spaces"], holder["paths"]
    return side


def _check_points(c: _Compiler, mod: dict[str, Any]) -> None:
    """CW136 for a side lacking a declared point, or a space at an undeclared one."""
    for side in mod["sides"]:
        for point, at in side["point_at"].items():
            if point not in mod["points"]:
                c.diags.append(
                    Diagnostic(
                        "CW136",
                        f"space {side['points'][point]!r} connects at {point!r}, which "
                        f"module {mod['name']!r} does not list",
                        Span.from_ir(at),
                        hint=did_you_mean(point, mod["points"])
                        or "add it to the module: `connects "
                        + " ".join([*mod["points"], point])
                        + "`",
                    )
                )
        for point in mod["points"]:
            if point not in side["points"]:
                c.diags.append(
                    Diagnostic(
                        "CW136",
                        f"side {side['name']!r} of module {mod['name']!r} has no space at "
                        f"connection point {point!r}",
                        Span.from_ir(side["at"]),
                        hint=f"add `connects {point}` to the space of this side at that point",
                    )
                )


def board_position(c: _Compiler, board: dict[str, Any], s: Stmt) -> None:
    """`position NAME: MODULE` or `position NAME: one of MODULE [side S], ... [either side]`."""
    h = s.head
    if len(h) != 2 or h[1].kind not in ("word", "string", "number") or not s.effects:
        c.error(
            "CW105",
            "a position has a name and, after a colon, its module or its choice of modules",
            s.span,
            hint='write `position 1: one of "Bio Deck", "Gun Deck", either side`',
        )
        return
    c._clean(h[1:2])
    choices: list[dict[str, Any]] = []
    for k, e in enumerate(s.effects):
        atoms = list(e.phrase)
        if e.form != "simple" or not atoms:
            c.error("CW105", "a position's choice is a module's name", e.span)
            continue
        words = [a.text.lower() if a.kind == "word" else None for a in atoms]
        if k == 0 and words[:2] == ["one", "of"]:
            atoms, words = atoms[2:], words[2:]
        if words[-2:] == ["either", "side"]:
            atoms, words = atoms[:-2], words[:-2]
        if not atoms:
            continue
        side = None
        if len(atoms) == 3 and words[1] == "side" and atoms[2].kind in ("word", "string"):
            side = atoms[2].text
            atoms = atoms[:1]
        if len(atoms) != 1 or atoms[0].kind not in ("word", "string"):
            c.error(
                "CW105",
                f"`{' '.join(a.source() for a in e.phrase)}` is not a module choice",
                e.span,
                hint='name a module, or one side of it: `"Bio Deck" side Hydroponics`',
            )
            continue
        c._clean(atoms)
        choices.append({"module": atoms[0].text, "side": side, "at": _at(e.span)})
    if any(p["name"] == h[1].text for p in board.setdefault("positions", [])):
        c.error(
            "CW106",
            f"board {board['name']!r} has two positions named {h[1].text!r}",
            h[1].span,
            hint="name each position once",
        )
        return
    board["positions"].append({"name": h[1].text, "choices": choices, "at": _at(s.span)})


def board_join(c: _Compiler, board: dict[str, Any], s: Stmt) -> None:
    """`join POSITION POINT -- POSITION POINT { path properties }` (`->`: one way)."""
    h = s.head
    ok = (
        len(h) == 6
        and h[3].kind in ("link", "arrow")
        and all(a.kind in ("word", "string", "number") for a in (h[1], h[4]))
        and all(a.kind in ("word", "string") for a in (h[2], h[5]))
    )
    if not ok:
        c.error(
            "CW105",
            "a join links two positions' connection points with -- or ->",
            s.span,
            hint="write `join stern fore -- 1 aft` (position, point, --, position, point)",
        )
        return
    c._no_effects(s)
    c._clean([h[1], h[2], h[4], h[5]])
    join: dict[str, Any] = {
        "from": [h[1].text, h[2].text],
        "to": [h[4].text, h[5].text],
        "oneway": h[3].kind == "arrow",
        "at": _at(s.span),
        "from_at": _at(atoms_span(h[1:3])),
        "to_at": _at(atoms_span(h[4:6])),
    }
    _path_props(c, join, s)
    board.setdefault("joins", []).append(join)
