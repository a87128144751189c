"""Effects on the tokens a space holds (placed there at setup by `holds`)."""

from __future__ import annotations

from typing import Any

from .registry import effect
from .where import space_of


def _lies(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    # Whether `take_here` would find something on the line's space (the same match as
    # Game.take_here).
    want = node["what"].lower()
    lying = game.space_tokens[space_of(game, ctx)]
    if want in ("token", "any token"):
        return bool(lying)
    return any(want in t.match for t in lying)


def _what(n: dict[str, Any]) -> str:
    what = n["what"]
    return f"a {what} secret" if what in ("major", "minor") else f"a {what}"


@effect(
    "take_here",
    phrases=(
        "take a|an|the|one {what:tag} secret here",
        "take a|an|the|one {what:name} here",
        "take {what:name} here",
    ),
    params={"what": {"type": "string", "minLength": 1}},
    render=lambda n: f"take {_what(n)} from this space",
    examples=("take a major secret here", 'take a "Golden Statue" here'),
    appraise=lambda n, v: v.token(n["what"]),
    can_pay=_lies,
)
def take_here(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take one token matching WHAT (a kind, type or name) from the tokens your space holds
    (nothing once they are gone); a secret is revealed as you take it."""
    game.take_here(ctx.player, node["what"])
