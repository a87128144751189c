"""An extension's edits of its base: `replace`, `remove` and `change`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import extends as ext
from ..diagnostics import did_you_mean
from ..parser import Stmt
from .places import compile_path, compile_space
from .registry import declaration
from .shared import _join, _new_only, is_path_head

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("replace", form="replace card NAME { ... }", writes=())
def replace(c: _Compiler, st: Stmt) -> None:
    """`replace KIND NAME { ... }`: an extension's new design for what its base declares."""
    edit(c, st, "replace")


@declaration("remove", form="remove card NAME", writes=())
def remove(c: _Compiler, st: Stmt) -> None:
    """`remove KIND NAME`: an extension takes out what its base declares."""
    edit(c, st, "remove")


@declaration("change", form="change card NAME { ... }", writes=())
def change(c: _Compiler, st: Stmt) -> None:
    """`change KIND NAME { ... }`: an extension changes some properties of what its base
    declares."""
    edit(c, st, "change")


def edit(c: _Compiler, st: Stmt, verb: str) -> None:
    """`replace|remove|change KIND NAME [in BOARD] [{ ... }]` (``verb``): one edit of the base."""
    kinds = ext.EDIT_KINDS[verb]
    h = st.head
    kind = h[1].text.lower() if len(h) > 1 and h[1].kind == "word" else None
    if kind not in kinds:
        bad = h[1] if len(h) > 1 else h[0]
        c.error(
            "CW105",
            f"`{verb}` is followed by what it {verb}s: {', '.join(kinds)}",
            bad.span,
            hint=(did_you_mean(bad.text, kinds) if len(h) > 1 else None)
            or f'write `{verb} card "Some Card"' + (" }" if verb == "remove" else " { ... }`"),
        )
        return
    inner_head, board = h[1:], None
    # `... in BOARD` chooses the board of a space or a path named on several boards.
    if (
        kind in ("space", "path")
        and len(inner_head) >= 4
        and inner_head[-2].kind == "word"
        and inner_head[-2].text.lower() == "in"
        and inner_head[-1].kind in ("word", "string")
    ):
        c._clean(inner_head[-1:])
        board = inner_head[-1].text
        inner_head = inner_head[:-2]
    c._no_effects(st)
    if verb == "remove" and st.block is not None:
        c.error(
            "CW112",
            "`remove` takes no block",
            st.block_span or st.span,
            hint=f"write `remove {kind} NAME` on its own",
        )
        return
    if verb != "remove" and st.block is None:
        c.error(
            "CW105",
            f"`{verb} {kind}` needs a block with the "
            + ("new declaration" if verb == "replace" else "properties it changes"),
            st.span,
            hint=f"write `{verb} {kind} NAME {{ ... }}`",
        )
        return
    inner = Stmt(inner_head, st.span, None, st.block, st.block_span)
    if kind == "path":
        _edit_path(c, st, verb, inner, board)
        return
    _edit_named(c, st, verb, kind, inner, board)


def _edit_named(
    c: _Compiler, st: Stmt, verb: str, kind: str, inner: Stmt, board: str | None
) -> None:
    """An edit of a design named by its name (all but a path): `replace` compiles the new
    declaration, `change` the properties it changes (and which fields they are)."""
    at_name = len(c.diags)
    named = c._name(inner, kind)
    if named is None:
        return
    edit = ext.Edit(verb, kind, named[0], st.span, named[1], board=board)
    named_at = len(c.diags)
    if verb == "replace":
        edit.item = _compile_one(c, inner, kind)
        # The declaration checks the name again: report a bad name once.
        c.diags[named_at:] = _new_only(c.diags, at_name, named_at)
        if edit.item is None:
            return
    elif verb == "change":
        # The body is compiled as a whole declaration; what it lacks comes from the base,
        # so "has no cost" (CW109) does not apply to it.
        before = len(c.diags)
        edit.item = _compile_one(c, inner, kind)
        c.diags[before:] = [d for d in _new_only(c.diags, at_name, before) if d.code != "CW109"]
        if edit.item is None:
            return
        before = len(c.diags)
        empty = _compile_one(c, Stmt(inner.head, st.span, None, [], None), kind)
        del c.diags[before:]
        words = [s.words[0] for s in st.block or [] if s.effects is None]
        edit.fields = ext.change_fields(kind, edit.item, empty or {}, words)
    c.edits.append(edit)


def _compile_one(c: _Compiler, st: Stmt, kind: str) -> dict[str, Any] | None:
    """Compile one declaration of ``kind`` (a card kind, token, board or space) and take
    it back out of the pack: the compiled item, or None when it failed."""
    if kind == "space":
        scratch: dict[str, Any] = {"name": "", "spaces": [], "paths": [], "groups": []}
        compile_space(c, scratch, st, None)
        return scratch["spaces"][0] if scratch["spaces"] else None
    items = c.tokens if kind == "token" else c.boards if kind == "board" else c.cards
    n = len(items)
    c.decl(st)
    return items.pop() if len(items) > n else None


def _edit_path(c: _Compiler, st: Stmt, verb: str, inner: Stmt, board: str | None) -> None:
    h = inner.head
    if not is_path_head(h):
        c.error(
            "CW105",
            f"`{verb} path` names the path by its two spaces, as the base writes it",
            st.span,
            hint=f'write `{verb} path HQ -- "Whispering Wood"` (-> for a one-way path)',
        )
        return
    c._clean([h[1], h[3]])
    ends = (h[1].text, h[3].text, h[2].kind == "arrow")
    name = f"{h[1].source()} {h[2].text if h[2].kind == 'arrow' else '--'} {h[3].source()}"
    edit = ext.Edit(
        verb, "path", name, st.span, _join(h[1].span, h[3].span), board=board, ends=ends
    )
    if verb == "change":
        scratch: dict[str, Any] = {"name": "", "spaces": [], "paths": [], "groups": []}
        compile_path(c, scratch, inner)
        compile_path(c, scratch, Stmt(h, st.span, None, [], None))
        if len(scratch["paths"]) != 2:
            return
        edit.item, empty = scratch["paths"]
        words = [s.words[0] for s in st.block or [] if s.effects is None]
        edit.fields = tuple(
            f
            for f in ext.change_fields("path", edit.item, empty, words)
            if f not in ("from", "to", "oneway", "from_at", "to_at")
        )
    c.edits.append(edit)
