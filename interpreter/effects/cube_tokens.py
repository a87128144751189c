"""Cube tokens: cubes of no player that go into the dragon bag with the Clank! area.

    token Hunter { cube 4; when drawn: each player (take 1 damage) }
    rules { when rage advances if rage is on space 7: put 1 Hunter in the clank area }

A token of kind `cube` starts in the supply. `put N NAME in the clank area` moves cubes from
the supply to the Clank! area; the next attack (or off-the-clock draw) puts them in the bag
with everyone's Clank!. When one is drawn, its `when drawn:` lines run for the active player
and it goes back to the Clank! area, to be bagged again by the next attack.
"""

from __future__ import annotations

from typing import Any

from .registry import effect
from .triggers import _trigger

_trigger(
    "drawn",
    "cubes drawn",
    "self",
    ("when drawn", "whenever drawn", "when this cube is drawn"),
    ("token",),
    "When the cube token is drawn from the dragon bag (a `cube N` token); the effects act "
    "for the active player, then the cube goes back to the Clank! area.",
)


@effect(
    "put_cubes",
    phrases=(
        "put {n:int} {what:name} in|into the clank area",
        "put {n:int} {what:name} in|into the clank! area",
        "put a|an|one {what:name} in|into the clank area {n=1}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
    },
    render=lambda n: f"put {n['n']} {n['what']} cubes in the Clank! area",
    examples=("put 2 Hunter in the clank area",),
    # Cubes of no player thin the bag for everyone: about as bad as an attack's share.
    appraise=lambda n, v: 0.3 * n["n"] * v.unit("dragon attack"),
)
def put_cubes(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Move N cube tokens (a `cube N` token's name or type) from the supply to the Clank!
    area: the next attack puts them in the bag (as many as the supply still has)."""
    game.put_cubes(node["what"], node["n"])
