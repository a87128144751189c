"""Paths during the game: tokens put on a path, paths blocked, opened and added.

    token Spike { token 4; extra boots 1; removed when crossed; when you cross this: +1 clank }
    card Spinner { cost 3; play: place a Spike on a tunnel next to you }
    card "Cave-in" { cost 2; play: block the tunnel you just crossed }
    card Shortcut { cost 4; play: add a tunnel between Hall and Vault }

A path is named by the spaces it joins (`the tunnel between Hall and Cellar`), by where the
player is (`a tunnel next to you`: the first open one, by the board's order), by the move
just made (`the tunnel you just crossed`) or at random (`a random tunnel`). The board the game
plays on follows at once: a blocked path is no move, an added one is, the extra boots a token
asks are paid to cross, and the bots' routes are worked out on the changed board.
"""

from __future__ import annotations

from typing import Any

from .registry import condition, effect

_WHERE = {"enum": ["adjacent", "crossed", "random", "between"]}
_PLACE = {
    "where": _WHERE,
    "a": {"type": "string", "minLength": 1},
    "b": {"type": "string", "minLength": 1},
}


def _which(n: dict[str, Any]) -> str:
    where = n["where"]
    if where == "between":
        return f"the tunnel between {n['a']} and {n['b']}"
    return {
        "adjacent": "a tunnel next to you",
        "crossed": "the tunnel you just crossed",
        "random": "a random tunnel",
    }[where]


def _path(game: Any, ctx: Any, node: dict[str, Any]) -> int | None:
    if node["where"] == "adjacent":
        # The player picks one of the open paths from their space.
        near = game.paths_next_to(ctx.player.pos)
        if len(near) < 2:
            return near[0] if near else None
        board = game.board
        verb = f"place {node['what']} on" if "what" in node else "block"
        labels = [f"{verb} {board.path_name(k)}" for k in near]
        # Bots read each option as the same line on that path (an equal worth: the first).
        detail = {"op": "choose", "options": [[node] for _ in near]}
        return near[game.choose(ctx.player, "choose", labels, source=ctx.source, detail=detail)]
    if node["where"] != "between":
        return game.pick_path(ctx.player, node["where"])
    index = game.board.index
    a, b = index.get(node["a"]), index.get(node["b"])
    if a is None or b is None:
        return None
    return game.board.path_between(a, b)


def _phrases(head: str) -> tuple[str, ...]:
    return (
        f'{head} a|one tunnel|path next to you|your [space|room] {{where="adjacent"}}',
        f'{head} a|one tunnel|path adjacent to you|your [space|room] {{where="adjacent"}}',
        f'{head} an|one adjacent tunnel|path {{where="adjacent"}}',
        f'{head} the tunnel|path you just crossed|used|took {{where="crossed"}}',
        f'{head} the tunnel|path you just moved along|through {{where="crossed"}}',
        f'{head} a|one random tunnel|path {{where="random"}}',
        f'{head} the tunnel|path between {{a:name}} and {{b:name}} {{where="between"}}',
    )


def _placing_phrases(*tokens: str) -> tuple[str, ...]:
    # "place|put TOKEN on <a path>", for each way of writing the token.
    return tuple(
        p.replace("HEAD", verb + " " + tok)
        for verb in ("place", "put")
        for tok in tokens
        for p in _phrases("HEAD on")
    )


@effect(
    "place_on_path",
    phrases=_placing_phrases("a|an|one {what:name} [token]", "{what:name} [token]"),
    params={"what": {"type": "string", "minLength": 1}, **_PLACE},
    required=("what", "where"),
    render=lambda n: f"place a {n['what']} on {_which(n)}",
    examples=(
        'place a "Golden Statue" on a tunnel next to you',
        'put a "Golden Statue" on the tunnel you just crossed',
    ),
    # What it does to whoever crosses next is not known here: a little, like a token.
    appraise=lambda n, v: 0.2 * v.unit("token"),
)
def place_on_path(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put a token matching WHAT from the supply on a path: it does what its `when you cross
    this:` lines say to each player who moves along that path, asks its `extra boots`, and
    stays, is removed or is taken by the crosser as it says (nothing when none is left)."""
    path = _path(game, ctx, node)
    if path is not None:
        game.place_on_path(path, node["what"])


@effect(
    "place_random_on_path",
    phrases=_placing_phrases(
        "a|one random {what:name} [token]",
        "a|one {what:name} [token] [drawn] at random",
        "a|one {what:name} [token] chosen at random",
    ),
    params={"what": {"type": "string", "minLength": 1}, **_PLACE},
    required=("what", "where"),
    render=lambda n: f"place a random {n['what']} on {_which(n)}",
    examples=(
        'place a random "Golden Statue" on the tunnel between Hall and Cellar',
        'put a random "Golden Statue" on a tunnel next to you',
    ),
    # Like `place_on_path`: what it does to whoever crosses next is not known here.
    appraise=lambda n, v: 0.2 * v.unit("token"),
)
def place_random_on_path(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put a token matching WHAT drawn at random from the supply (with the game's seed: each
    copy left as likely as any other) on a path, as `place_on_path` puts the first: a setup
    step shuffling tokens out onto marked tunnels, one line a tunnel."""
    path = _path(game, ctx, node)
    if path is not None:
        game.place_on_path(path, node["what"], True)


@effect(
    "block_path",
    phrases=_phrases("block") + _phrases("close"),
    params=dict(_PLACE),
    required=("where",),
    render=lambda n: f"block {_which(n)}",
    examples=("block the tunnel you just crossed", "block the tunnel between Hall and Cellar"),
    # Closing a path hinders the others as much as it hinders you: worth little either way.
    appraise=lambda n, v: 0.1 * v.unit("boots"),
)
def block_path(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Close a path for the rest of the game (until a line opens it): no one moves along it
    either way; routes go around it."""
    path = _path(game, ctx, node)
    if path is not None:
        game.set_path(path, True)


@effect(
    "open_path",
    phrases=(
        'open the tunnel|path between {a:name} and {b:name} {where="between"}',
        'unblock the tunnel|path between {a:name} and {b:name} {where="between"}',
    ),
    params=dict(_PLACE),
    required=("where",),
    render=lambda n: f"open {_which(n)}",
    examples=("open the tunnel between Hall and Cellar",),
    appraise=lambda n, v: 0.3 * v.unit("boots"),
)
def open_path(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Open a path that was blocked (nothing if it is open)."""
    path = _path(game, ctx, node)
    if path is not None:
        game.set_path(path, False)


@effect(
    "add_path",
    phrases=(
        "add a|one tunnel|path between {a:name} and {b:name}",
        "add a|one tunnel|path of {boots:int} boots between {a:name} and {b:name}",
        "add a|one {boots:int} boot|boots tunnel|path between {a:name} and {b:name}",
        "add a|one tunnel|path from {a:name} to {b:name}",
        "connect {a:name} and|to {b:name} with a|one tunnel|path",
    ),
    params={
        "a": {"type": "string", "minLength": 1},
        "b": {"type": "string", "minLength": 1},
        "boots": {"type": "integer", "minimum": 0, "maximum": 100},
    },
    required=("a", "b"),
    defaults={"boots": 1},
    render=lambda n: (
        f"add a tunnel between {n['a']} and {n['b']}"
        + ("" if n["boots"] == 1 else f" costing {n['boots']} boots")
    ),
    examples=("add a tunnel between Hall and Vault",),
    # A shortcut saves boots on some trips: about one boot, now and then.
    appraise=lambda n, v: 0.5 * v.unit("boots"),
)
def add_path(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Add a tunnel both ways between two spaces (named) for the rest of the game, costing
    BOOTS to cross (1 unless said); nothing if a space is not on the board."""
    index = game.board.index
    a, b = index.get(node["a"]), index.get(node["b"])
    if a is not None and b is not None and a != b:
        game.add_path(a, b, node["boots"])


def _switch_render(n: dict[str, Any]) -> str:
    if "state" in n:
        return f"set switch {n['switch']} to {n['state']}"
    return f"turn switch {n['switch']}"


@effect(
    "turn_switch",
    phrases=(
        "turn|rotate|advance switch {switch:name}",
        "turn|rotate|advance the switch {switch:name}",
        "set switch {switch:name} to [state] {state:int}",
        "set the switch {switch:name} to [state] {state:int}",
    ),
    params={
        "switch": {"type": "string", "minLength": 1},
        "state": {"type": "integer", "minimum": 1, "maximum": 12},
    },
    required=("switch",),
    render=_switch_render,
    examples=("turn switch dial", "set switch dial to 2"),
    # It opens some paths and closes others: a little, like a shortcut now and then.
    appraise=lambda n, v: 0.2 * v.unit("boots"),
)
def turn_switch(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Turn a switch of the board (`switch NAME N` on its paths) to its next state, after the
    last back to the first, or set it to STATE: the paths of its new state open, the others
    close (a path with no switch is not touched)."""
    game.turn_switch(node["switch"], node.get("state"))


@effect(
    "random_switch",
    phrases=(
        "set|turn switch {switch:name} to a random state|orientation|position",
        "set|turn the switch {switch:name} to a random state|orientation|position",
        "set|turn switch {switch:name} at random",
        "set|turn the switch {switch:name} at random",
        "randomize|randomise switch {switch:name}",
        "randomize|randomise the switch {switch:name}",
    ),
    params={"switch": {"type": "string", "minLength": 1}},
    required=("switch",),
    render=lambda n: f"set switch {n['switch']} to a random state",
    examples=("set switch dial to a random state",),
    # Like `turn_switch`: it opens some paths and closes others.
    appraise=lambda n, v: 0.2 * v.unit("boots"),
)
def random_switch(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Set a switch of the board to one of its states drawn at random (with the game's seed:
    each state as likely, its present one too): a setup step turning pieces of the board in
    random orientations. Nothing for a switch the board lacks."""
    state = game.random_switch_state(node["switch"])
    if state is not None:
        game.turn_switch(node["switch"], state)


@condition(
    "switch_state",
    phrases=(
        "switch {switch:name} is [in] [state] {state:int}",
        "the switch {switch:name} is [in] [state] {state:int}",
    ),
    params={
        "switch": {"type": "string", "minLength": 1},
        "state": {"type": "integer", "minimum": 1, "maximum": 12},
    },
    render=lambda n: f"switch {n['switch']} is in state {n['state']}",
    examples=("action turn if switch dial is 1: pay 1 gold -> set switch dial to 2",),
    appraise=lambda n, v: 0.5,
)
def switch_state(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """A switch of the board is in that state now (every switch starts in state 1)."""
    return bool(game.switches.get(node["switch"], 1) == node["state"])
