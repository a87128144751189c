"""Counting and removing components: tokens a player holds, the number of players, tokens
taken off the board at random (fewer artifacts in a smaller game)."""

from __future__ import annotations

from typing import Any

from .registry import condition, count, effect


@count(
    "held",
    phrases=(
        "{what:name} token|tokens you hold",
        "{what:name} token|tokens",
        "{what:name} you hold",
        "{what:name} you have",
        "your {what:name} [token|tokens]",
        "all your {what:name} [token|tokens]",
    ),
    params={"what": {"type": "string", "minLength": 1}},
    render=lambda n: f"{n['what']} token you hold",
    examples=("points 1 per gem token", "points 2 per crown you hold"),
    appraise=lambda n, v: 1.0,
)
def held(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Tokens you hold (your artifact included) whose name, type or kind is WHAT."""
    return game.count_tokens(player, node["what"])


@condition(
    "players",
    phrases=(
        "{min:int} or more players",
        "{exactly:int} players",
        "there are {exactly:int} players",
        "playing with {exactly:int} players",
    ),
    params={
        "min": {"type": "integer", "minimum": 1, "maximum": 8},
        "exactly": {"type": "integer", "minimum": 1, "maximum": 8},
    },
    required=(),
    render=lambda n: (
        f"{n['min']} or more players play" if "min" in n else f"{n['exactly']} players play"
    ),
    examples=("if 2 players (remove 2 random artifacts)",),
    appraise=lambda n, v: 0.5,
)
def players(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """The game has exactly N players (or at least N)."""
    n = len(game.players)
    return n >= node["min"] if "min" in node else n == node["exactly"]


@effect(
    "remove_random",
    phrases=(
        "remove {n:int} random {what:tag} [from] [the] [board]",
        "remove {n:int} {what:tag} at random",
        "remove a|one random {what:tag} {n=1}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
    },
    render=lambda n: f"remove {n['n']} {n['what']} from the board at random",
    examples=("remove 2 random artifacts",),
    appraise=lambda n, v: 0.0,
)
def remove_random(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take N tokens whose name, type or kind is WHAT off the board, chosen at random among
    those on its spaces, and put them back in the box (setup with fewer players)."""
    game.remove_random(node["what"], node["n"])


@effect(
    "return_token",
    phrases=(
        "return this token to the box",
        "return this token",
        "this token goes back to the box",
    ),
    params={},
    render=lambda n: "return this token to the box",
    examples=("trash 1 card, return this token to the box",),
    appraise=lambda n, v: -0.1 * v.unit("token"),
)
def return_token(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The token whose line this is leaves its holder for the box (a token kept until its
    own trigger has used it up)."""
    game.return_token(ctx.player, ctx.source)


@effect(
    "supply_to_box",
    phrases=(
        "return {n:int} {what:name} from the supply [to] [the] [box]",
        "return a|an|one {what:name} from the supply [to] [the] [box] {n=1}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
    },
    render=lambda n: f"return {n['n']} {n['what']} from the supply to the box",
    examples=('if 2 players (return 1 "Golden Statue" from the supply)',),
    appraise=lambda n, v: 0.0,
)
def supply_to_box(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put N tokens matching WHAT (a name, type or kind) from the supply back in the box:
    fewer market items, say, with fewer players (as many as the supply has)."""
    game.supply_to_box(node["what"], node["n"])
