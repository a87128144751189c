"""Effects on the dragon: rage and attacks."""

from __future__ import annotations

from typing import Any

from .registry import effect, the_antagonist

# A black cube in the bag (player cubes are seat numbers); the game module uses the same value.
BLACK = -1


@effect(
    "rage",
    appraise=lambda n, v: n["n"] * v.unit("rage"),
    phrases=("rage {n:signed}", "advance rage {n:int}", "advance the rage track {n:int}"),
    params={"n": {"type": "integer", "minimum": -30, "maximum": 30}},
    render=lambda n: f"rage {n['n']:+d}",
    examples=("rage +1",),
)
def rage(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Move the dragon marker along the rage track (it stops at the last space)."""
    game.advance_rage(node["n"])


@effect(
    "dragon_attack",
    appraise=lambda n, v: v.unit("dragon attack"),
    phrases=("dragon attack", "dragon attacks", "trigger a dragon attack"),
    params={},
    render=lambda n: f"{the_antagonist()} attacks",
    examples=("dragon attack",),
)
def dragon_attack(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The dragon attacks now: the Clank! area goes into the bag and cubes are drawn."""
    game.dragon_attack()


@effect(
    "return_cubes",
    appraise=lambda n, v: n["n"] * v.unit("bag cube"),
    phrases=(
        "return up to {n:int} dragon cubes [to] [the] [bag]",
        "return {n:int} dragon cubes [to] [the] [bag]",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 500}},
    render=lambda n: f"return up to {n['n']} dragon cubes to the bag",
    examples=("return up to 3 dragon cubes",),
)
def return_cubes(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put black cubes that earlier attacks set aside back into the dragon bag (as many as
    there are, up to N): the bag lasts longer and each draw is more likely to miss."""
    game.return_black_cubes(node["n"])


@effect(
    "remove_own_cubes",
    # Each of your cubes out of the bag is a Clank! cube that will not be drawn: worth what
    # a Clank! less is.
    appraise=lambda n, v: -n["n"] * v.unit("clank"),
    phrases=(
        "remove {n:int} of your cubes from the [dragon] bag",
        "remove {n:int} of your clank cubes from the [dragon] bag",
        "remove {n:int} of your cubes from the [dragon] bag to your supply",
        "take {n:int} of your cubes out of the [dragon] bag",
        "take {n:int} of your clank cubes out of the [dragon] bag",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 500}},
    render=lambda n: f"take {n['n']} of your cubes out of {the_antagonist()}'s bag",
    examples=("remove 3 of your cubes from the bag",),
)
def remove_own_cubes(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take N cubes of your colour out of the dragon bag, back to your supply (as many as
    the bag holds): Clank! made earlier that can no longer be drawn."""
    game.remove_own_cubes(ctx.player, node["n"])
