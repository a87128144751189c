"""Where a line acts: the space it is about, and what lies there (no records here, so any
effect module may import it without changing the order records register in)."""

from __future__ import annotations

from typing import Any


def space_of(game: Any, ctx: Any) -> int:
    """The space a line is about: the space that carries it (a space's trigger or action,
    also when it is asked before the player arrives), else the player's own."""
    index = getattr(ctx.source, "index", None)
    if isinstance(index, int) and getattr(ctx.source, "holds", None) is not None:
        return index
    return ctx.player.pos


def lying_here(game: Any, space: int, what: str) -> bool:
    """Whether a token matching ``what`` (kind, type or name) lies on ``space``."""
    want = what.lower()
    return any(want in t.match for t in game.space_tokens[space])
