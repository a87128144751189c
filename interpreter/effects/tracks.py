"""Counters a pack declares (a doom, a track of any kind), and the effects a track's
spaces call for: a bigger dragon attack, a knock-out, who left the game first."""

from __future__ import annotations

from typing import Any

from .registry import condition, effect, the_antagonist


@effect(
    "counter",
    phrases=("counter {name:name} {n:signed}", "advance {name:name} {n:int}"),
    params={
        "name": {"type": "string", "minLength": 1},
        "n": {"type": "integer", "minimum": -100, "maximum": 100},
    },
    render=lambda n: f"move the {n['name']} marker {n['n']:+d}",
    examples=("counter doom +1",),
    appraise=lambda n, v: 0.0,
)
def counter(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Move a counter the pack declares (`counter NAME` in its rules) up or down; it stays
    between 0 and its `max`."""
    game.move_counter(node["name"], node["n"])


@condition(
    "counter",
    phrases=(
        "counter {name:name} is at least {min:int}",
        "counter {name:name} is {exactly:int}",
        "{name:name} is at least {min:int}",
        "{name:name} is {exactly:int}",
    ),
    params={
        "name": {"type": "string", "minLength": 1},
        "min": {"type": "integer", "minimum": 0, "maximum": 1000},
        "exactly": {"type": "integer", "minimum": 0, "maximum": 1000},
    },
    required=("name",),
    render=lambda n: (
        f"the {n['name']} marker is "
        + (f"at least {n['min']}" if "min" in n else f"on {n['exactly']}")
    ),
    examples=("if counter doom is 5 (each player (knocked out))",),
    appraise=lambda n, v: 0.5,
)
def counter_is(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """A declared counter's value is exactly N, or at least N."""
    value = game.counters.get(node["name"], 0)
    return value >= node["min"] if "min" in node else value == node["exactly"]


@condition(
    "left_first",
    phrases=("you left first", "you were the first to leave", "you left the game first"),
    params={},
    render=lambda n: "you were the first player off the clock",
    examples=("if you left first (counter doom +1)",),
    appraise=lambda n, v: 0.3,
)
def left_first(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """You were the first player to go off the clock (escaped or knocked out)."""
    return bool(game.left) and game.left[0] == ctx.player.seat


@effect(
    "bigger_attack",
    phrases=(
        "dragon attack with {extra:int} extra [cube|cubes]",
        "dragon attacks with {extra:int} extra [cube|cubes]",
    ),
    params={"extra": {"type": "integer", "minimum": 0, "maximum": 100}},
    render=lambda n: f"{the_antagonist()} attacks, drawing {n['extra']} more cubes",
    examples=("dragon attack with 2 extra cubes",),
    appraise=lambda n, v: v.unit("dragon attack") * (1 + 0.3 * n["extra"]),
)
def bigger_attack(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The dragon attacks now, drawing N cubes more than the rage track and danger say."""
    game.dragon_attack(extra=node["extra"])


@effect(
    "knock_out",
    phrases=("you are knocked out", "knocked out", "be knocked out"),
    params={},
    render=lambda n: "you are knocked out",
    examples=("each player (knocked out)",),
    appraise=lambda n, v: -20.0,
)
def knock_out(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """You are knocked out at once, wherever you stand (scored as any knock-out)."""
    if ctx.player.on_clock:
        game.knock_out(ctx.player)


@condition(
    "rage_at",
    phrases=(
        "the rage marker is on space {exactly:int} or higher {higher=true}",
        "the rage marker is on space {exactly:int}",
        "the rage marker is on or past space {exactly:int} {higher=true}",
        "rage is on space {exactly:int} or higher {higher=true}",
        "rage is on space {exactly:int}",
    ),
    params={
        "exactly": {"type": "integer", "minimum": 1, "maximum": 30},
        "higher": {"type": "boolean"},
    },
    required=("exactly",),
    defaults={"higher": False},
    render=lambda n: (
        f"the rage marker is on space {n['exactly']}" + (" or higher" if n.get("higher") else "")
    ),
    examples=("if the rage marker is on space 7 (dragon attack)",),
    appraise=lambda n, v: 0.2,
)
def rage_at(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """The rage marker is on space N of the track (counted from 1), or beyond it."""
    space = game.rage + 1
    return space >= node["exactly"] if node.get("higher") else space == node["exactly"]
