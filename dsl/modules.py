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
from typing import Any

from clankwork.interpreter.assembly import count_assemblies

from .diagnostics import Diagnostic, Span, did_you_mean
from .limits import MAX_ASSEMBLIES

MODULE_PROPS = ("connects", "side", "space", "path", "dead end")


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def _sp(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


class Modules:
    """The `_Compiler` mixin that resolves modular boards once every file is compiled (the
    `module` declaration and a board's `position` and `join` lines compile in
    dsl/decls/board_modules.py); it uses the compiler's ``diags`` and ``error``."""

    diags: list[Diagnostic]
    modules: list[dict[str, Any]]

    def _init_modules(self) -> None:
        self.modules = []

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
        """Each position's choices resolved to (module, side) pairs, the modules used laid
        out on the board, and the board's assemblies counted (CW135, CW006)."""
        fixed_at: dict[str, Any] = {}
        positions = []
        for pos in board["positions"]:
            resolved = self._position_choices(board, pos, mods)
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
        self._lay_out(board, [m for m in self.modules if m["name"] in placed])
        self._check_joins(board, mods)
        self._count_assemblies(board)

    def _position_choices(
        self, board: dict[str, Any], pos: dict[str, Any], mods: dict[str, dict[str, Any]]
    ) -> list[dict[str, str]]:
        """The (module, side) pairs one position's choices name (CW137 for a module or a
        side that is none, CW135 for a module named twice)."""
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
        return resolved

    def _lay_out(self, board: dict[str, Any], used: list[dict[str, Any]]) -> None:
        """The modules the board may use (each side's points), and every used side's spaces
        and paths on the board."""
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

    def _count_assemblies(self, board: dict[str, Any]) -> None:
        """CW135 for a board no assembly fills, CW006 for one with too many to lint."""
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
