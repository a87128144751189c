"""Conditions on where tokens are: a token you do not hold, a token lying on this space.

`you have X` asks whether a player holds a token; games also ask the opposite ("take one if
you do not have one already": one of each type per player) and whether a token lies on the
space a trigger or action belongs to ("if there is a guard here").
"""

from __future__ import annotations

from typing import Any

from .registry import article, condition
from .where import lying_here, space_of

# Neither condition can be read without the game: a bot takes it as an even chance.
_EVEN = 0.5


@condition(
    "lack",
    appraise=lambda n, v: _EVEN,
    # The parameter naming a token the player holds or not: what holding one changes (bots).
    meta={"holding": "what"},
    phrases=(
        "you do not have a|an|any {what:words}",
        "you do not have {what:words}",
        "you don't have a|an|any {what:words}",
        "you don't have {what:words}",
        "you lack a|an|any {what:words}",
        "you lack {what:words}",
    ),
    params={"what": {"type": "string"}},
    render=lambda n: f"you do not have {article(n['what'])}",
    examples=('when you enter if you lack "Skill Token": take "Skill Token" here',),
)
def lack(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """You hold no token of that kind, type or name (the opposite of `you have`)."""
    return not game.has_token(ctx.player, node["what"])


@condition(
    "lying_here",
    appraise=lambda n, v: _EVEN,
    phrases=(
        "there is a|an {what:tag} here",
        "a|an {what:tag} is here",
        "{what:name} is here",
    ),
    params={"what": {"type": "string"}},
    render=lambda n: f"there is {article(n['what'])} on this space",
    examples=("to enter if there is a guard here: choose one (pay 2 gold | take 1 damage)",),
)
def lying_here_cond(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """A token of that kind, type or name lies on this space (the one the line belongs to,
    or where you stand)."""
    return lying_here(game, space_of(game, ctx), node["what"])
