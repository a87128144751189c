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
    # The parameter naming the tokens counted: what holding one more changes (bots).
    meta={"holding": "what"},
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
        "return {n:int} random {what:name} from the supply [to] [the] [box] {random=true}",
        "return a|an|one random {what:name} from the supply [to] [the] [box] {n=1} {random=true}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
        "random": {"type": "boolean"},
    },
    required=("n", "what"),
    render=lambda n: (
        f"return {n['n']} {'random ' if n.get('random') else ''}{n['what']} from the supply "
        "to the box"
    ),
    examples=(
        'if 2 players (return 1 "Golden Statue" from the supply)',
        "if 2 players (return 2 random Guard from the supply)",
    ),
    appraise=lambda n, v: 0.0,
)
def supply_to_box(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put N tokens matching WHAT (a name, type or kind) from the supply back in the box:
    fewer market items, say, with fewer players (as many as the supply has). With "random",
    the N are drawn at random among those matching, unseen (face-down tokens set aside)."""
    game.supply_to_box(node["what"], node["n"], bool(node.get("random")))


@effect(
    "take_random",
    phrases=(
        "take {n:int} random {what:name} [from] [the] [supply]",
        "take a|an|one random {what:name} [from] [the] [supply] {n=1}",
        "draw {n:int} random {what:name} [token|tokens] from the supply",
        "draw a|an|one random {what:name} [token] from the supply {n=1}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
    },
    render=lambda n: (
        f"take {'a' if n['n'] == 1 else n['n']} random {n['what']} "
        f"token{'' if n['n'] == 1 else 's'} from the supply"
    ),
    examples=(
        "each player (take 2 random Guard)",
        'take a random "Golden Statue"',
    ),
    appraise=lambda n, v: n["n"] * v.token(n["what"]),
)
def take_random(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take N tokens matching WHAT (a name, type or kind), drawn at random from those left
    in the supply (fewer when fewer are left): each is revealed as taken, its `on reveal`
    lines happen, and one that `returns` goes back to the box. Dealt to every player with
    `each player (...)`; a pile of face-down tokens drawn one by one is this too."""
    game.take_random(ctx.player, node["what"], node["n"])


def _render_deal(n: dict[str, Any]) -> str:
    face = " face down" if n.get("face_down") else ""
    return (
        f"deal {n['n']} random {n['what']} token{'' if n['n'] == 1 else 's'}{face} to each player"
    )


@effect(
    "deal_random",
    phrases=(
        "deal {n:int} random {what:name} to each player",
        "deal {n:int} random {what:name} face down to each player {face_down=true}",
        "deal {n:int} random {what:name} to each player face down {face_down=true}",
        "deal each player {n:int} random {what:name}",
        "deal each player {n:int} random {what:name} face down {face_down=true}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
        "face_down": {"type": "boolean"},
    },
    required=("n", "what"),
    render=_render_deal,
    examples=("deal 3 random Guard face down to each player",),
    appraise=lambda n, v: (
        n["n"] * v.token(n["what"])
        + v.opponents([{"op": "take_random", "what": n["what"], "n": n["n"]}])
    ),
)
def deal_random(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Each player still on the clock (every player at setup), from the active one
    clockwise, takes N tokens matching WHAT drawn at random from the supply, as `take N
    random WHAT` does (fewer once it runs out). "Face down" says they are dealt hidden: what
    a player holds is shown to the others only as a count (`play`, the browser table) and no
    bot reads another's tokens, so a dealt hand is as hidden as any."""
    for player in game.each(ctx.player, include_self=True):
        game.take_random(player, node["what"], node["n"])
