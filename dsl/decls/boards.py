"""Board declarations: a board's spaces, paths, groups, positions and joins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import did_you_mean
from ..parser import Stmt
from .board_modules import board_join, board_position
from .places import compile_dead_end, compile_path, compile_space
from .registry import declaration
from .shared import _at, first_words

if TYPE_CHECKING:
    from ..compiler import _Compiler

BOARD_PROPS = ("space", "path", "dead end", "position", "join", "module", "group", "area")


@declaration(
    "board",
    properties=BOARD_PROPS,
    form="board NAME { space ...; path A -- B }",
    writes=("boards",),
)
def board(c: _Compiler, st: Stmt) -> None:
    """`board NAME { space ...; path ...; dead end ...; position ...; join ...; module ... }`:
    a board."""
    named = c._name(st, "board")
    if named is None:
        return
    board: dict[str, Any] = {
        "name": named[0],
        "spaces": [],
        "paths": [],
        "groups": [],
        "at": _at(st.span),
    }
    _board_body(c, board, st.block or [], None)
    c.boards.append(board)


def _board_body(c: _Compiler, board: dict[str, Any], body: list[Stmt], group: str | None) -> None:
    for s in body:
        key = s.words[0]
        if key != "position":
            c._no_effects(s)
        if key == "space":
            compile_space(c, board, s, group)
        elif key == "path":
            compile_path(c, board, s)
        elif s.words[:2] == ["dead", "end"]:
            compile_dead_end(c, board, s)
        elif key == "position" and group is None:
            board_position(c, board, s)  # see modules.py
        elif key == "join" and group is None:
            board_join(c, board, s)
        elif key in ("module", "group", "area"):
            named = c._name(s, key)
            if named is None:
                continue
            board["groups"].append({"name": named[0], "kind": key, "at": _at(s.span)})
            _board_body(c, board, s.block or [], named[0])
        else:
            c.error(
                "CW102",
                f"unknown board statement `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(key, first_words(BOARD_PROPS))
                or "a board holds space, path, dead end, position, join and module statements",
            )
