"""`on board NAME { ... }`: what differs on one board of a pack with several.

Inside the block go the declarations that can differ from board to board: a `rules` block
(rule values, rules triggers, steps, counters), `dragon { ... }` (the antagonist's names),
new designs (`card`, `monster`, `event`, `reserve`, `token`: in play on that board only) and
edits of the pack's designs (`remove`, `replace`, `change` of a card kind or a token: on that
board only). Everything outside the blocks applies to every board. The block is compiled by
the compiler's own declarations and taken back out of the pack into the IR's ``on_board``
list; interpreter/on_board.py lays it over the pack when a game is set up on that board.

Checks: CW107 for a board the pack does not have (with a did-you-mean), CW101 for a
declaration that cannot differ per board, CW122 for an edit naming a design the pack lacks,
CW107 for a step anchored on no step of that board's game. The checks that look at a whole
game (a resource nothing gives, a mug no rule awards) run once per board (`per_board`): a
finding on only some boards names them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from clankwork.interpreter.on_board import CARD_KINDS, for_board, has_sections
from clankwork.interpreter.steps import STEPS, plan_names

from . import extends as ext
from .diagnostics import Diagnostic, Span, did_you_mean, quote_name
from .resolve import near_miss

ON_BOARD_KINDS = ("rules", "dragon", *CARD_KINDS, "token", "replace", "remove", "change")
"""What an `on board` block may hold."""

FORM = "on board NAME { rules { ... }; dragon { ... }; token ...; change reserve ... }"


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def check_board_blocks(ir: dict[str, Any]) -> list[Diagnostic]:
    """On the whole pack: each block's board is one of the pack's, its edits name designs the
    pack has, its steps are anchored on steps of that board's game."""
    diags: list[Diagnostic] = []
    boards = [b["name"] for b in ir.get("boards", ())]
    for sec in ir.get("on_board", ()):
        if sec["board"] not in boards:
            diags.append(
                Diagnostic(
                    "CW107",
                    f"`on board {quote_name(sec['board'])}`: the pack has no board named "
                    f"{sec['board']!r}",
                    Span.from_ir(sec["board_at"]),
                    hint=near_miss(sec["board"], boards)
                    or "its boards: " + (", ".join(boards) or "none"),
                )
            )
            continue
        diags += _edit_problems(ir, sec)
    for name in dict.fromkeys(s["board"] for s in ir.get("on_board", ())):
        if name not in boards:
            continue
        own = [s for s in ir["on_board"] if s["board"] == name]
        steps = [*ir.get("steps", ()), *(c for s in own for c in s.get("steps", ()))]
        first = len(ir.get("steps", ()))
        for i, problem in plan_names(steps)[1]:
            if i < first:
                continue  # the pack's own: reported once, by the compiler
            bad = steps[i]
            anchor = bad.get("before") or bad.get("after") or bad.get("replaces") or bad["step"]
            diags.append(
                Diagnostic(
                    "CW107",
                    f"on board {name!r}: {problem}",
                    Span.from_ir(bad["at"]),
                    hint=did_you_mean(anchor, list(STEPS)) or "see docs/language.md, Steps",
                )
            )
    return diags


def _edit_problems(ir: dict[str, Any], sec: dict[str, Any]) -> list[Diagnostic]:
    """CW122 for each edit of the block naming a design the pack (with the block's earlier
    edits) lacks, with a did-you-mean."""
    # The designs the edits name are copied: a trial `change` must not change the pack's.
    named = {e["name"] for e in sec.get("edits", ())}
    trial = {
        key: [copy.deepcopy(d) if d["name"] in named else d for d in ir[key]]
        for key in ("cards", "tokens")
    }
    trial["boards"] = []
    edits = [ext.edit_from_ir(e) for e in sec.get("edits", ())]
    for e in edits:
        e.item = copy.deepcopy(e.item)  # the trial must not change the IR's edits
    return ext.apply_edits(trial, edits, ir["pack"]["name"])


def with_board_designs(ir: dict[str, Any]) -> dict[str, Any]:
    """The IR with every board's own designs, rules triggers and steps beside the pack's, for
    the reference checks (a design named on one board's space, a trigger of one board); a
    design of the same name on two boards is kept once."""
    if not has_sections(ir):
        return ir
    out = dict(ir)
    for key in ("cards", "tokens"):
        seen = {d["name"] for d in ir[key]}
        extra = []
        for sec in ir["on_board"]:
            for d in sec.get(key, ()):
                if d["name"] not in seen:
                    seen.add(d["name"])
                    extra.append(d)
        out[key] = [*ir[key], *extra]
    for key in ("triggers", "steps", "counters"):
        out[key] = [*ir.get(key, ()), *(x for s in ir["on_board"] for x in s.get(key, ()))]
    return out


def per_board(
    ir: dict[str, Any], check: Callable[[dict[str, Any]], list[Diagnostic]]
) -> list[Diagnostic]:
    """``check`` (a check that looks at a whole game) on the game of each board of the pack,
    its blocks merged and no other board's; a finding on every board is reported once as it
    is, one on some boards says which."""
    boards = [b for b in ir.get("boards", ())]
    if not has_sections(ir) or len(boards) < 2:
        return check(ir)
    found: dict[tuple[str, str, Any], tuple[Diagnostic, list[str]]] = {}
    for b in boards:
        game = {**for_board(ir, b["name"]), "boards": [b]}
        for d in check(game):
            key = (d.code, d.message, d.span)
            found.setdefault(key, (d, []))[1].append(b["name"])
    out = []
    for d, names in found.values():
        if len(names) == len(boards):
            out.append(d)
            continue
        where = ", ".join(repr(n) for n in names)
        word = "board" if len(names) == 1 else "boards"
        text = f"on {word} {where}: {d.message}"
        out.append(Diagnostic(d.code, text, d.span, d.hint, d.severity, d.notes))
    return out
