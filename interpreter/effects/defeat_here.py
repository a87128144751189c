"""Monster tokens lying on spaces, defeated with swords where they lie.

A token a pack puts on a space (`holds`, or dealt at setup) can be a foe: "spend 3 Swords to
defeat it, then take the token and its reward". Defeating one is a defeat like a monster
card's: `whenever you defeat a monster` triggers fire. As a price it is payable only when such
a token lies on the space and the swords are there, so `choose one (...)` and an `action`
offer it only then.
"""

from __future__ import annotations

from typing import Any

from .registry import effect
from .where import lying_here, space_of


def _can_defeat(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    return ctx.player.swords >= node["swords"] and lying_here(
        game, space_of(game, ctx), node["what"]
    )


# What a defeated token brings, in points, on average (a bot cannot see a face-down token).
_REWARD_POINTS = 4.0


@effect(
    "defeat_here",
    phrases=(
        "defeat a|an|the {what:tag} here with {swords:int} swords|sword",
        "fight a|an|the {what:tag} here with {swords:int} swords|sword",
    ),
    params={
        "what": {"type": "string", "minLength": 1},
        "swords": {"type": "integer", "minimum": 0, "maximum": 100},
    },
    render=lambda n: f"spend {n['swords']} Swords to defeat the {n['what']} on this space",
    examples=("choose one (defeat a guard here with 3 swords | take 1 damage)",),
    payable=True,
    can_pay=_can_defeat,
    appraise=lambda n, v: _REWARD_POINTS * v.unit("points") - n["swords"] * v.unit("swords"),
)
def defeat_here(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Spend the swords and take the token (kind, type or name WHAT) lying on this space: it
    is revealed (its `on reveal:` reward happens) and counts as defeating a monster. Nothing
    happens without such a token or the swords."""
    if not _can_defeat(game, ctx, node):
        return
    player = ctx.player
    space = space_of(game, ctx)
    want = node["what"].lower()
    lying = game.space_tokens[space]
    for i in range(len(lying) - 1, -1, -1):
        if want in lying[i].match:
            tok = lying.pop(i)
            break
    else:  # pragma: no cover - _can_defeat found one
        return
    game.spend(player, "swords", node["swords"])
    game.reveal(player, tok)
    game.emit("defeat", player)
