"""Counts of tokens a player holds, for "per" formulas and end-of-game points."""

from __future__ import annotations

from typing import Any

from .registry import count


@count(
    "held",
    phrases=("{token:name} you hold", "{token:name} you have", "{token:name} tokens you hold"),
    params={"token": {"type": "string"}},
    render=lambda n: f"{n['token']} you hold",
    examples=("points 2 per crown you hold",),
    # Counts are appraised as the number a bot expects to see: about one held token.
    appraise=lambda node, v: 1.0,
)
def held(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Tokens the player holds (the artifact included) whose name, type, kind or grant is
    that word: `"Gold Star" you hold`, `crown you hold`, `secret you hold`."""
    want = node["token"].lower()
    n = sum(1 for t in player.tokens if want in t.match)
    if player.artifact is not None and want in player.artifact.match:
        n += 1
    return n
