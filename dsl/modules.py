"""Modules: board pieces with spaces, paths and connection points, placed at a board's
positions when a game is set up.

    module "Bio Deck" {
      connects aft fore                      # the piece's connection points
      side Hydroponics {                     # one face of the piece
        space "Seed Vault" { connects aft }  # the space at point aft
        space "Grow Room"  { connects fore; reward gold 1 }
        path "Seed Vault" -- "Grow Room"
      }
      side "Reactor Core" { ... }
    }
    module "Cargo Bay" { connects fore; space Dock { hq; connects fore } }   # one side

    board "Eradikus Prime" {
      position stern: "Cargo Bay"                                 # a fixed module
      position 1: one of "Bio Deck", "Gun Deck", either side     # a free position
      join stern fore -- 1 aft { boots 2 }                        # a path between points
    }

A module without `side` blocks has one side, named as the module. A choice is a module (any
side) or `MODULE side SIDE`; `either side` may be written for readability. The compiled board
keeps ``positions``, ``joins`` and ``modules`` (each side's points) and lists every used
side's spaces and paths tagged ``module`` and ``side``; interpreter/assembly.py puts one
assembly together, and dsl/assembly_check.py lints each assembly the board allows.

Codes: CW135 a module used twice (or positions more than the modules to fill them), CW136 a
connection point with no match, CW137 a position or choice naming no module, side or
position; CW138 and CW139 (an assembly's unreachable room, one-way trap) come from `check`.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from clankwork.interpreter.assembly import count_assemblies

from .diagnostics import Diagnostic, Span, did_you_mean
from .limits import MAX_ASSEMBLIES
from .parser import Atom, Stmt

MODULE_PROPS = ("connects", "side", "space", "path", "dead end")


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def _span_of(atoms: list[Atom]) -> Span:
    a, b = atoms[0].span, atoms[-1].span
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _sp(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


class Modules:
    """The `_Compiler` mixin for `module` declarations and a board's `position` and `join`
    statements; it uses the compiler's ``diags``, ``error``, ``_name``, ``_clean``,
    ``_no_effects``, ``_space``, ``_path``, ``_dead_end`` and ``_path_props``."""

    diags: list[Diagnostic]
    modules: list[dict[str, Any]]

    def _init_modules(self) -> None:
        self.modules = []

    # -- module declarations ---------------------------------------------------------------
    def decl_module(self, st: Stmt) -> None:
        """`module NAME { connects P...; side NAME { space...; path... } }`."""
        named = self._name(st, "module")  # type: ignore[attr-defined]
        if named is None:
            return
        self._no_effects(st)  # type: ignore[attr-defined]
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
                for atom in self._point_names(s):
                    if atom.text in mod["points"]:
                        self.error(  # type: ignore[attr-defined]
                            "CW136",
                            f"module {named[0]!r} lists connection point {atom.text!r} twice",
                            atom.span,
                            hint="list each point once",
                        )
                    else:
                        mod["points"].append(atom.text)
                mod["points_at"] = _at(s.span)
            elif key == "side":
                self._no_effects(s)  # type: ignore[attr-defined]
                side = self._name(s, "side")  # type: ignore[attr-defined]
                if side is None:
                    continue
                if any(x["name"] == side[0] for x in mod["sides"]):
                    self.error(  # type: ignore[attr-defined]
                        "CW106",
                        f"module {named[0]!r} has two sides named {side[0]!r}",
                        side[1],
                        hint="name each side of a piece differently",
                    )
                    continue
                mod["sides"].append(self._side(mod, side[0], s.block or [], s.span))
            else:
                loose.append(s)
        if loose and mod["sides"]:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                f"module {named[0]!r} has sides, and spaces or paths outside them",
                loose[0].span,
                hint="put each space and path inside a `side NAME { ... }` block",
            )
        elif not mod["sides"]:
            mod["sides"].append(self._side(mod, named[0], loose, st.span))
        if any(m["name"] == named[0] for m in self.modules):
            self.error(  # type: ignore[attr-defined]
                "CW106",
                f"module {named[0]!r} is declared twice",
                named[1],
                hint="rename one of them",
            )
            return
        self._check_points(mod)
        self.modules.append(mod)

    def _point_names(self, s: Stmt) -> list[Atom]:
        """The point names of `connects P Q` or `connects: P, Q`."""
        atoms = list(s.head[1:])
        for e in s.effects or []:
            atoms.extend(e.phrase if e.form == "simple" else [])
        if not atoms or any(a.kind not in ("word", "string") for a in atoms):
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "connects names connection points",
                s.span,
                hint="write `connects fore aft` (a module) or `connects fore` (a space)",
            )
            return []
        self._clean(atoms)  # type: ignore[attr-defined]
        return atoms

    def _side(self, mod: dict[str, Any], name: str, body: list[Stmt], span: Span) -> dict[str, Any]:
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
                self._space(holder, replace(s, block=block), None)  # type: ignore[attr-defined]
                if len(holder["spaces"]) == before:
                    continue
                space = holder["spaces"][-1]["name"]
                for p in points:
                    for atom in self._point_names(p):
                        if atom.text in side["points"]:
                            self.error(  # type: ignore[attr-defined]
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
                self._no_effects(s)  # type: ignore[attr-defined]
                self._path(holder, s)  # type: ignore[attr-defined]
            elif s.words[:2] == ["dead", "end"]:
                self._no_effects(s)  # type: ignore[attr-defined]
                self._dead_end(holder, s)  # type: ignore[attr-defined]
            else:
                self.error(  # type: ignore[attr-defined]
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
                    self.error(  # type: ignore[attr-defined]
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

    def _check_points(self, mod: dict[str, Any]) -> None:
        """CW136 for a side lacking a declared point, or a space at an undeclared one."""
        for side in mod["sides"]:
            for point, at in side["point_at"].items():
                if point not in mod["points"]:
                    self.diags.append(
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
                    self.diags.append(
                        Diagnostic(
                            "CW136",
                            f"side {side['name']!r} of module {mod['name']!r} has no space at "
                            f"connection point {point!r}",
                            Span.from_ir(side["at"]),
                            hint=f"add `connects {point}` to the space of this side at that point",
                        )
                    )

    # -- board statements ------------------------------------------------------------------
    def board_position(self, board: dict[str, Any], s: Stmt) -> None:
        """`position NAME: MODULE` or `position NAME: one of MODULE [side S], ... [either side]`."""
        h = s.head
        if len(h) != 2 or h[1].kind not in ("word", "string", "number") or not s.effects:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "a position has a name and, after a colon, its module or its choice of modules",
                s.span,
                hint='write `position 1: one of "Bio Deck", "Gun Deck", either side`',
            )
            return
        self._clean(h[1:2])  # type: ignore[attr-defined]
        choices: list[dict[str, Any]] = []
        for k, e in enumerate(s.effects):
            atoms = list(e.phrase)
            if e.form != "simple" or not atoms:
                self.error(  # type: ignore[attr-defined]
                    "CW105", "a position's choice is a module's name", e.span
                )
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
                self.error(  # type: ignore[attr-defined]
                    "CW105",
                    f"`{' '.join(a.source() for a in e.phrase)}` is not a module choice",
                    e.span,
                    hint='name a module, or one side of it: `"Bio Deck" side Hydroponics`',
                )
                continue
            self._clean(atoms)  # type: ignore[attr-defined]
            choices.append({"module": atoms[0].text, "side": side, "at": _at(e.span)})
        if any(p["name"] == h[1].text for p in board.setdefault("positions", [])):
            self.error(  # type: ignore[attr-defined]
                "CW106",
                f"board {board['name']!r} has two positions named {h[1].text!r}",
                h[1].span,
                hint="name each position once",
            )
            return
        board["positions"].append({"name": h[1].text, "choices": choices, "at": _at(s.span)})

    def board_join(self, board: dict[str, Any], s: Stmt) -> None:
        """`join POSITION POINT -- POSITION POINT { path properties }` (`->`: one way)."""
        h = s.head
        ok = (
            len(h) == 6
            and h[3].kind in ("link", "arrow")
            and all(a.kind in ("word", "string", "number") for a in (h[1], h[4]))
            and all(a.kind in ("word", "string") for a in (h[2], h[5]))
        )
        if not ok:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "a join links two positions' connection points with -- or ->",
                s.span,
                hint="write `join stern fore -- 1 aft` (position, point, --, position, point)",
            )
            return
        self._no_effects(s)  # type: ignore[attr-defined]
        self._clean([h[1], h[2], h[4], h[5]])  # type: ignore[attr-defined]
        join: dict[str, Any] = {
            "from": [h[1].text, h[2].text],
            "to": [h[4].text, h[5].text],
            "oneway": h[3].kind == "arrow",
            "at": _at(s.span),
            "from_at": _at(_span_of(h[1:3])),
            "to_at": _at(_span_of(h[4:6])),
        }
        self._path_props(join, s)  # type: ignore[attr-defined]
        board.setdefault("joins", []).append(join)

    # -- once every file is compiled ------------------------------------------------------
    def finish_modules(self, boards: list[dict[str, Any]]) -> None:
        """Resolve each modular board's positions against the modules, report what does not
        match (CW135-CW137), and copy the used sides' spaces and paths into the board."""
        mods = {m["name"]: m for m in self.modules}
        for board in boards:
            if not board.get("positions"):
                if board.get("joins"):
                    self.error(  # type: ignore[attr-defined]
                        "CW137",
                        f"board {board['name']!r} joins positions but declares none",
                        _sp(board["joins"][0]["at"]),
                        hint='declare them: `position 1: "Bio Deck"`',
                    )
                    board.pop("joins")
                continue
            self._resolve_positions(board, mods)

    def _resolve_positions(self, board: dict[str, Any], mods: dict[str, dict[str, Any]]) -> None:
        fixed_at: dict[str, Any] = {}
        positions = []
        for pos in board["positions"]:
            resolved: list[dict[str, str]] = []
            seen: dict[str, Any] = {}
            for c in pos["choices"]:
                mod = mods.get(c["module"])
                if mod is None:
                    self.error(  # type: ignore[attr-defined]
                        "CW137",
                        f"position {pos['name']} of board {board['name']!r} names "
                        f"{c['module']!r}, which is no module",
                        _sp(c["at"]),
                        hint=did_you_mean(c["module"], list(mods))
                        or 'declare it: `module "Name" { connects ...; space ... }`',
                    )
                    continue
                if c["module"] in seen:
                    self._twice(board, pos, c, seen[c["module"]], "twice at one position")
                    continue
                seen[c["module"]] = c["at"]
                sides = [x["name"] for x in mod["sides"]]
                if c["side"] is not None and c["side"] not in sides:
                    self.error(  # type: ignore[attr-defined]
                        "CW137",
                        f"module {c['module']!r} has no side {c['side']!r}",
                        _sp(c["at"]),
                        hint=did_you_mean(c["side"], sides) or f"its sides: {', '.join(sides)}",
                    )
                    continue
                for side in [c["side"]] if c["side"] is not None else sides:
                    resolved.append({"module": c["module"], "side": side})
            if len(pos["choices"]) == 1 and resolved:
                name = resolved[0]["module"]
                if name in fixed_at:
                    self._twice(board, pos, pos["choices"][0], fixed_at[name], "at two positions")
                    resolved = []
                else:
                    fixed_at[name] = pos["choices"][0]["at"]
            positions.append((pos, resolved))
        # A fixed module offered again at a free position can never be chosen there.
        for pos, resolved in positions:
            if len(pos["choices"]) > 1:
                for c in pos["choices"]:
                    if c["module"] in fixed_at:
                        self._twice(board, pos, c, fixed_at[c["module"]], "fixed elsewhere")
                resolved[:] = [r for r in resolved if r["module"] not in fixed_at]
        board["positions"] = [
            {"name": p["name"], "choices": r, "at": p["at"]} for p, r in positions
        ]
        placed = {r["module"] for _, rs in positions for r in rs}
        used = [m for m in self.modules if m["name"] in placed]
        board["modules"] = [
            {
                "name": m["name"],
                "points": list(m["points"]),
                "sides": [
                    {"name": s["name"], "points": dict(s["points"]), "at": s["at"]}
                    for s in m["sides"]
                ],
                "at": m["at"],
            }
            for m in used
        ]
        for m in used:
            for s in m["sides"]:
                board["spaces"].extend(copy.deepcopy(s["spaces"]))
                board["paths"].extend(copy.deepcopy(s["paths"]))
        self._check_joins(board, mods)
        n = count_assemblies(board, MAX_ASSEMBLIES + 1)
        if n == 0 and all(p["choices"] for p in board["positions"]):
            self.error(  # type: ignore[attr-defined]
                "CW135",
                f"board {board['name']!r} has more positions than modules to fill them: every "
                "assembly would use a module twice",
                _sp(board["at"]),
                hint="offer more modules at the free positions, or remove a position",
            )
        elif n > MAX_ASSEMBLIES:
            self.error(  # type: ignore[attr-defined]
                "CW006",
                f"board {board['name']!r} allows more than {MAX_ASSEMBLIES:,} assemblies, the "
                "limit `check` lints",
                _sp(board["at"]),
                hint="fix a module at some position, or offer fewer modules or sides",
            )

    def _twice(
        self, board: dict[str, Any], pos: dict[str, Any], c: dict[str, Any], first: Any, how: str
    ) -> None:
        self.diags.append(
            Diagnostic(
                "CW135",
                f"module {c['module']!r} is used {how} on board {board['name']!r} "
                f"(position {pos['name']})",
                _sp(c["at"]),
                hint="a piece is in one place: name each module once among the fixed "
                "positions, and fixed modules nowhere else",
                notes=(("it is named here first", Span.from_ir(first)),) if first else (),
            )
        )

    def _check_joins(self, board: dict[str, Any], mods: dict[str, dict[str, Any]]) -> None:
        """CW137 for a join naming no position; CW136 for a join at a point a module that
        may sit there lacks, and for a module's point that no join at its position uses."""
        positions = {p["name"]: p for p in board["positions"]}
        used: dict[str, set[str]] = {p: set() for p in positions}
        kept = []
        for j in board.get("joins", ()):
            good = True
            for end in ("from", "to"):
                pos, point = j[end]
                at = _sp(j[f"{end}_at"])
                if pos not in positions:
                    self.error(  # type: ignore[attr-defined]
                        "CW137",
                        f"join names position {pos!r}, which board {board['name']!r} lacks",
                        at,
                        hint=did_you_mean(pos, list(positions))
                        or f"its positions: {', '.join(positions)}",
                    )
                    good = False
                    continue
                used[pos].add(point)
                for c in positions[pos]["choices"]:
                    if point not in mods[c["module"]]["points"]:
                        self.error(  # type: ignore[attr-defined]
                            "CW136",
                            f"join at position {pos} point {point!r}: module {c['module']!r} "
                            f"has no such connection point",
                            at,
                            hint=did_you_mean(point, mods[c["module"]]["points"])
                            or f"its points: {', '.join(mods[c['module']]['points']) or 'none'}",
                        )
                        break
            if good:
                kept.append(j)
        board["joins"] = kept
        for name, pos in positions.items():
            seen: set[tuple[str, str]] = set()
            for c in pos["choices"]:
                mod = mods[c["module"]]
                for point in mod["points"]:
                    if point in used[name] or (mod["name"], point) in seen:
                        continue
                    seen.add((mod["name"], point))
                    self.diags.append(
                        Diagnostic(
                            "CW136",
                            f"connection point {point!r} of module {mod['name']!r} has no match "
                            f"at position {name} of board {board['name']!r}: no join uses it",
                            _sp(mod.get("points_at")) or _sp(mod["at"]),
                            hint=f"join it: `join {name} {point} -- POSITION POINT`, or drop "
                            "the point from the module",
                            notes=(("the position is here", Span.from_ir(pos["at"])),),
                        )
                    )
