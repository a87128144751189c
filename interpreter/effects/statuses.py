"""Statuses: a player is something, or may not do something, for a time.

    card "Tangled Net" { play: +2 skill, you can't use boots for the rest of this turn }
    card Hush { play: gain no clank this turn }
    card "Sleep Dust" { play: each opponent (you are dizzy until your next turn) }
    rules { when you enter a space if you are dizzy: take 1 damage }

A named status ("dizzy") does what the lines that test it (`if you are dizzy`) say; a
prohibition is read by the engine where its act happens (interpreter/statuses.py lists them).
How long either lasts is written after it (`DURATIONS`): this turn, until your next turn (the
turn of the player whose line gives it: "each opponent (... until your next turn)" lasts
through their turns), for the rest of the game. A named status with no duration lasts until a
line ends it (`you are no longer dizzy`); a prohibition with none lasts for the turn.
"""

from __future__ import annotations

from typing import Any

from .registry import DURATION_TEXT, condition, effect

_LABEL = {"skill": "Skill", "swords": "Swords", "boots": "Boots", "gold": "Gold", "clank": "Clank!"}
# Acts a prohibition forbids; "use" and "gain" name a resource.
ACTS = ("use", "gain", "move", "teleport", "acquire", "fight", "buy")
_PLAIN = ("move", "teleport", "acquire", "fight", "buy")
_ENDS = {"enum": list(DURATION_TEXT)}

# Units of the resource (or uses of the act) a prohibition takes from its player, by how long
# it lasts: the rest of a turn holds a gain or two; until the next turn mostly others' turns;
# the rest of the game many turns.
_SPAN = {"turn": 1.5, "next_turn": 1.0, "game": 8.0}
_ACT_UNIT = {
    "move": (3.0, "boots"),
    "teleport": (0.5, "teleport"),
    "acquire": (2.0, "skill"),
    "fight": (1.0, "swords"),
    "buy": (0.5, "gold"),
}


def _forbid_worth(node: dict[str, Any], v: Any) -> float:
    span = _SPAN[node["ends"]]
    act = node["act"]
    if act in ("use", "gain"):
        # What the resource would have been worth: a loss, or (Clank!) a gain.
        return -span * v.unit(node["resource"])
    times, unit = _ACT_UNIT[act]
    return -span * times * v.unit(unit)


def _render_forbid(node: dict[str, Any]) -> str:
    act, ends = node["act"], DURATION_TEXT[node["ends"]]
    if act == "gain":
        return f"you gain no {_LABEL.get(node['resource'], node['resource'])} {ends}"
    if act == "use":
        return f"you can't use {_LABEL.get(node['resource'], node['resource'])} {ends}"
    return f"you can't {act} {ends}"


# "you can't", "you cannot", "you may not" (the "you" may be left out).
_CANTS = ("[you] can't|cannot", "[you] may not")


@effect(
    "forbid",
    phrases=(
        *(f'{c} use|spend {{resource:resource}} {{act="use"}} {{ends:duration}}' for c in _CANTS),
        *(f'{c} use|spend {{resource:resource}} {{act="use"}}' for c in _CANTS),
        *(f'{c} gain {{resource:resource}} {{act="gain"}} {{ends:duration}}' for c in _CANTS),
        '[you] gain|gains no {resource:resource} {act="gain"} {ends:duration}',
        '[you] gain|gains no {resource:resource} {act="gain"}',
        *(f'{c} gain {{resource:resource}} {{act="gain"}}' for c in _CANTS),
        *(f'{c} {a} {{act="{a}"}} {{ends:duration}}' for c in _CANTS for a in _PLAIN),
        *(f'{c} {a} {{act="{a}"}}' for c in _CANTS for a in _PLAIN),
    ),
    params={
        "act": {"enum": list(ACTS)},
        "resource": {"type": "string", "minLength": 1},
        "ends": _ENDS,
    },
    required=("act", "ends"),
    defaults={"ends": "turn"},
    render=_render_forbid,
    examples=(
        "you can't use boots for the rest of this turn",
        "gain no clank this turn",
        "each opponent (you can't teleport until your next turn)",
    ),
    appraise=_forbid_worth,
)
def forbid(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """A prohibition for a time: you can't use (spend) a resource, even what you gain
    afterwards (Boots cannot pay for paths, Skill cannot acquire, prices in it cannot be
    paid); you gain none of a resource (Clank! you would add is not added); you can't move,
    teleport, acquire, fight or buy. What it forbids is not offered. Without a duration it
    lasts the rest of the turn."""
    game.give_status(ctx.player, game.prohibition(node["act"], node.get("resource")), node["ends"])


@effect(
    "status",
    phrases=(
        "you are|become {name:tag} {ends:duration}",
        "become {name:tag} {ends:duration}",
        "you are|become {name:tag}",
        "become {name:tag}",
        # After "each opponent" (the compiler reads "each opponent is dizzy ..." so).
        "is|becomes {name:tag} {ends:duration}",
        "is|becomes {name:tag}",
    ),
    params={"name": {"type": "string", "minLength": 1}, "ends": _ENDS},
    required=("name", "ends"),
    defaults={"ends": "game"},
    render=lambda n: (
        f"you are {n['name']}" + ("" if n["ends"] == "game" else f" {DURATION_TEXT[n['ends']]}")
    ),
    examples=("you are dizzy until your next turn", "each opponent (you are slowed this turn)"),
    # What a named status does is what the pack's lines testing it say: not known here.
    appraise=lambda n, v: 0.0,
)
def status(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Give yourself a named status for a time: lines that test it (`if you are NAME`) read
    it. Without a duration it lasts until a line ends it (`you are no longer NAME`)."""
    game.give_status(ctx.player, node["name"], node["ends"])


@effect(
    "end_status",
    phrases=(
        "you are no longer {name:tag}",
        "you stop being {name:tag}",
        "end your {name:tag} status",
    ),
    params={"name": {"type": "string", "minLength": 1}},
    render=lambda n: f"you are no longer {n['name']}",
    examples=("you are no longer dizzy",),
    appraise=lambda n, v: 0.0,
)
def end_status(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """End a named status of yours now (nothing if you do not have it)."""
    game.end_status(ctx.player, node["name"])


@condition(
    "has_status",
    appraise=lambda n, v: 0.3,
    # (Not "you have ... status": `you have TOKEN` reads that.)
    phrases=("you are {name:tag}", "you are now {name:tag}"),
    params={"name": {"type": "string", "minLength": 1}},
    render=lambda n: f"you are {n['name']}",
    examples=("when you enter a space if you are dizzy: take 1 damage",),
)
def has_status(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """Whether you have the named status now."""
    return game.has_status(ctx.player, node["name"])
