"""`on board NAME { ... }`: declarations for one board of the pack."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from clankwork.interpreter.on_board import CARD_KINDS

from .. import extends as ext
from ..board_blocks import FORM, ON_BOARD_KINDS
from ..diagnostics import did_you_mean
from ..parser import Stmt
from .registry import declaration
from .shared import _at

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("on", form="on board NAME { rules { ... }; token ... }", writes=("on_board",))
def on(c: _Compiler, st: Stmt) -> None:
    """`on board NAME { ... }`: the declarations of the block, for that board only."""
    h = st.head
    if len(h) < 2 or h[1].kind != "word" or h[1].text.lower() != "board":
        bad = h[1] if len(h) > 1 else h[0]
        c.error(
            "CW105",
            "`on` is followed by `board` and the board's name",
            bad.span,
            hint=(did_you_mean(bad.text, ["board"]) if len(h) > 1 else None) or f"write `{FORM}`",
        )
        return
    named = c._name(Stmt(h[1:], st.span, None, st.block, st.block_span), "on board")
    if named is None:
        return
    c._no_effects(st)
    if st.block is None:
        c.error("CW105", "`on board` needs a block", st.span, hint=f"write `{FORM}`")
        return
    sec: dict[str, Any] = {"board": named[0], "at": _at(st.span), "board_at": _at(named[1])}
    n_cards, n_tokens, n_edits = len(c.cards), len(c.tokens), len(c.edits)
    n_trig, n_steps, n_counters = len(c.triggers), len(c.steps), len(c.counters)
    rules, rules_at, dragon = copy.deepcopy(c.rules), dict(c.rules_at), c.dragon
    c.dragon = None  # the board's own names for it, not a second declaration of the pack's
    for s in st.block:
        _on_board_line(c, s)
    if c.dragon is not None:
        sec["dragon"] = c.dragon
    c.dragon = dragon
    changed = {k for k, v in c.rules_at.items() if rules_at.get(k) != v}
    if changed:
        sec["rules"] = {k: c.rules[k] for k in changed}
        sec["rules"]["at"] = {k: c.rules_at[k] for k in changed}
    c.rules, c.rules_at = rules, rules_at
    for key, items, n in (
        ("cards", c.cards, n_cards),
        ("tokens", c.tokens, n_tokens),
        ("triggers", c.triggers, n_trig),
        ("steps", c.steps, n_steps),
        ("counters", c.counters, n_counters),
    ):
        if len(items) > n:
            sec[key] = items[n:]
            del items[n:]
    if len(c.edits) > n_edits:
        sec["edits"] = [ext.edit_to_ir(e) for e in c.edits[n_edits:]]
        del c.edits[n_edits:]
    c.on_board.append(sec)


def _on_board_line(c: _Compiler, s: Stmt) -> None:
    """One declaration of an `on board` block, compiled as the pack's own (CW101, CW105
    for one that cannot differ from board to board)."""
    kind = s.words[0]
    if kind not in ON_BOARD_KINDS:
        c.error(
            "CW101",
            f"`{s.head[0].text}` cannot differ from board to board: it goes outside "
            "the `on board` block",
            s.head[0].span,
            hint=did_you_mean(kind, ON_BOARD_KINDS)
            or "an `on board` block holds " + ", ".join(ON_BOARD_KINDS),
        )
        return
    if kind in ext.VERBS and (
        len(s.head) < 2 or s.head[1].text.lower() not in (*CARD_KINDS, "token")
    ):
        c.error(
            "CW105",
            f"on one board, `{kind}` edits a card, monster, event, reserve card or "
            "token of the pack",
            s.span,
            hint="a board's spaces and paths are edited in its `board` block",
        )
        return
    c.decl(s)
