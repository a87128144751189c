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
