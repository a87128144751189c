"""Putting tokens on spaces during the game: a player's own marker left where they stand,
tokens from the supply onto every space of a kind, and the test that a space holds none.

    space Relay {
      action tap once per module if there is no "Marker" here: place a "Marker" here -> +2 gold
    }
    rules { step setup.barriers after setup.tokens: place Barrier on each gateway }

A token placed stays on the space for the rest of the game (other lines may test it with
`there is a TOKEN here` / `there is no TOKEN here`, and ways it blocks are closed there).
"""

from __future__ import annotations

from typing import Any

from .registry import article, condition, effect
from .where import lying_here, space_of


def _can_place(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    return game.has_token(ctx.player, node["what"])


@effect(
    "place",
    phrases=(
        "place a|an|one {what:name} here",
        "place {what:name} here",
        "put a|an|one {what:name} here",
    ),
    params={"what": {"type": "string", "minLength": 1}},
    render=lambda n: f"place {article(n['what'])} you hold on this space",
    examples=('place a "Golden Statue" here -> +2 gold',),
    payable=True,
    can_pay=_can_place,
    # The token leaves the hand of its holder: worth what holding it was (a token's worth).
    appraise=lambda n, v: -0.1 * v.unit("token"),
)
def place(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put a token you hold (matching WHAT: a name, type or kind) on your space, where it
    stays for the rest of the game; as a price, it can be paid only holding one."""
    game.place_held(ctx.player, node["what"])


@effect(
    "place_on_each",
    phrases=(
        "place {what:name} on each {feature:words}",
        "place a|an|one {what:name} on each {feature:words}",
        "put {what:name} on each {feature:words}",
    ),
    params={"what": {"type": "string", "minLength": 1}, "feature": {"type": "string"}},
    render=lambda n: f"place {article(n['what'])} on each {n['feature']} space",
    examples=('place "Golden Statue" on each gateway',),
    appraise=lambda n, v: 0.0,
)
def place_on_each(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put a token matching WHAT from the supply on each space with the feature, in board
    order, while the supply lasts."""
    game.place_from_supply(node["what"], node["feature"])


@condition(
    "none_here",
    appraise=lambda n, v: 0.5,
    phrases=(
        "there is no {what:tag} here",
        "no {what:tag} is here",
        "{what:name} is not here",
    ),
    params={"what": {"type": "string"}},
    render=lambda n: f"there is no {n['what']} on this space",
    examples=('action tap if there is no "Marker" here: +1 gold',),
)
def none_here(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """No token of that kind, type or name lies on this space (the one the line belongs to,
    or where you stand): the opposite of `there is a TOKEN here`."""
    return not lying_here(game, space_of(game, ctx), node["what"])
