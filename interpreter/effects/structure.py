"""Effects made of other effects: each player, choose one, if, may, and a price with "->".

Their phrases are the words before the bracket or arrow; the compiler builds the nested
lists. ``effects`` in a schema below is a list of effect nodes.
"""

from __future__ import annotations

from typing import Any

from .registry import EFFECTS, effect, render_condition, render_effects

_EFFECTS = {"$ref": "#/$defs/effects"}


def _appraise_each(node: dict[str, Any], v: Any) -> float:
    # What the opponents get counts for (or against) us too.
    theirs = v.opponents(node["do"])
    return v.effects(node["do"]) + theirs if node["who"] == "player" else theirs


def _appraise_pay(node: dict[str, Any], v: Any) -> float:
    net = v.pays(node["cost"]) * (v.effects(node["cost"]) + v.effects(node["then"]))
    # An optional price is paid only when it is worth it.
    return max(0.0, net) if node["optional"] else net


@effect(
    "each",
    appraise=_appraise_each,
    phrases=("each {who:tag}", "each other player", "each of your opponents"),
    params={"who": {"enum": ["player", "opponent"]}, "do": _EFFECTS},
    render=lambda n: f"each {n['who']}: {render_effects(n['do'])}",
    examples=("each opponent (+1 clank)", "each player (take 1 damage)"),
    structural=True,
)
def each(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Every player still on the clock (or every opponent) does the bracketed effects in turn,
    starting from the active player and going clockwise; at the end of the game (an
    `end_of_game` step), every player."""
    for player in game.each(ctx.player, include_self=node["who"] == "player"):
        game.run(ctx.for_player(player), node["do"])


@effect(
    "choose",
    appraise=lambda n, v: max(v.effects(o) for o in n["options"]),
    phrases=("choose one", "choose"),
    params={"options": {"type": "array", "items": _EFFECTS, "minItems": 2}},
    render=lambda n: "choose one: " + " or ".join(render_effects(o) for o in n["options"]),
    examples=("choose one (+2 gold | heal 1)",),
    structural=True,
)
def choose(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The player picks exactly one of the options separated by "|". An option the player
    cannot pay (damage that would fill the health meter, a discard from an empty hand) is
    not offered while another option is."""
    options = [o for o in node["options"] if _can_pay_all(game, ctx, o)] or node["options"]
    labels = [render_effects(o) for o in options]
    # Bots read the options from the node: show them the ones offered.
    shown = node if len(options) == len(node["options"]) else {**node, "options": options}
    pick = game.choose(ctx.player, "choose", labels, source=ctx.source, detail=shown)
    game.run(ctx, options[pick])


def _can_pay_all(game: Any, ctx: Any, effects: list[dict[str, Any]]) -> bool:
    return all(
        EFFECTS[e["op"]].can_pay is None or EFFECTS[e["op"]].can_pay(game, ctx, e) for e in effects
    )


@effect(
    "if",
    appraise=lambda n, v: v.chance(n["cond"]) * v.effects(n["do"]),
    phrases=("if {cond:cond}",),
    params={"cond": {"$ref": "#/$defs/condition"}, "do": _EFFECTS},
    render=lambda n: f"if {render_condition(n['cond'])}: {render_effects(n['do'])}",
    examples=("if you have an artifact (+2 skill)",),
    structural=True,
)
def if_(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Do the bracketed effects only when the condition holds now. (A card's whole
    "play if ...:" line instead waits for its condition for the rest of the turn.)"""
    if game.holds(ctx, node["cond"]):
        game.run(ctx, node["do"])


@effect(
    "may",
    appraise=lambda n, v: max(0.0, v.effects(n["do"])),
    phrases=("may",),
    params={"do": _EFFECTS},
    render=lambda n: f"you may {render_effects(n['do'])}",
    examples=("may teleport", "may trash 1 card"),
    structural=True,
)
def may(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The player decides whether to do it."""
    if game.choose(ctx.player, "may", ["yes", "no"], source=ctx.source, detail=node) == 0:
        game.run(ctx, node["do"])


def _can_pay_price(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    # A price option of a choice is offered only when the price can be paid in full.
    return _can_pay_all(game, ctx, node["cost"])


@effect(
    "pay",
    appraise=_appraise_pay,
    can_pay=_can_pay_price,
    phrases=("may {cost} -> {then}", "{cost} -> {then}"),
    params={"cost": _EFFECTS, "then": _EFFECTS, "optional": {"type": "boolean"}},
    render=lambda n: (
        ("you may " if n["optional"] else "")
        + f"{render_effects(n['cost'])} to {render_effects(n['then'])}"
    ),
    examples=("may discard 1 card -> draw 2", "pay 2 gold -> heal 1"),
    structural=True,
)
def pay(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Pay the price before "->" to get what follows. With "may" the player decides. A price that
    cannot be paid in full gets nothing (no card to discard: no draw)."""
    if not all(EFFECTS[c["op"]].can_pay(game, ctx, c) for c in node["cost"]):
        return
    if node["optional"] and game.choose(
        ctx.player, "may", ["yes", "no"], source=ctx.source, detail=node
    ):
        return
    game.run(ctx, node["cost"])
    game.run(ctx, node["then"])
