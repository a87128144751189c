"""Effects on the dragon: rage and attacks."""

from __future__ import annotations

from typing import Any

from .registry import effect


@effect(
    "rage",
    phrases=("rage {n:signed}", "advance rage {n:int}", "advance the rage track {n:int}"),
    params={"n": {"type": "integer"}},
    render=lambda n: f"rage {n['n']:+d}",
    examples=("rage +1",),
)
def rage(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Move the dragon marker along the rage track (it stops at the last space)."""
    game.advance_rage(node["n"])


@effect(
    "dragon_attack",
    phrases=("dragon attack", "dragon attacks", "trigger a dragon attack"),
    params={},
    render=lambda n: "the dragon attacks",
    examples=("dragon attack",),
)
def dragon_attack(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The dragon attacks now: the Clank! area goes into the bag and cubes are drawn."""
    game.dragon_attack()
