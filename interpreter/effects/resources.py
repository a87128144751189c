"""Effects on a player's pool: skill, swords, boots, gold and Clank!, and paying them back."""

from __future__ import annotations

from typing import Any

from .registry import RESOURCES, effect, render_count

# A base resource or one the pack declares (`resource NAME`): any name of the pack's
# `resources`, which the compiler checks.
_RESOURCE = {"type": "string", "minLength": 1, "examples": list(RESOURCES)}
_LABEL = {"skill": "Skill", "swords": "Swords", "boots": "Boots", "gold": "Gold", "clank": "Clank!"}


def _render_gain(node: dict[str, Any]) -> str:
    text = f"{node['amount']:+d} {_LABEL.get(node['resource'], node['resource'])}"
    if "per" in node:
        text += f" per {render_count(node['per'])}"
    return text


def _appraise_gain(node: dict[str, Any], v: Any) -> float:
    worth = node["amount"] * v.unit(node["resource"])
    return worth * v.count(node["per"]) if "per" in node else worth


@effect(
    "gain",
    appraise=_appraise_gain,
    phrases=(
        "{amount:signed} {resource:resource} per {per:count}",
        "{amount:signed} {resource:resource}",
        "gain {amount:int} {resource:resource}",
        "make {amount:signed} {resource:resource}",
    ),
    params={
        "amount": {"type": "integer", "minimum": -100, "maximum": 100},
        "resource": _RESOURCE,
        "per": {"$ref": "#/$defs/count"},
    },
    required=("amount", "resource"),
    render=_render_gain,
    examples=("+2 skill", "+1 clank", "-2 clank", "+1 swords per companion in play"),
)
def gain(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Add to the active player's pool.

    Skill, Swords and Boots last until the end of the turn; Gold is kept. Clank! moves cubes
    from the player's supply to the Clank! area (skipped when the supply is empty); negative
    Clank! removes cubes, and what cannot be removed yet waits for Clank! later in the turn.
    A minus sign is for Clank! only (CW131): taking another resource is a price (`pay 2
    boots -> ...`, offered only when it can be paid) or a status (`you can't use boots for the
    rest of this turn`), never a cut to what the pool holds.
    With "per", the amount is multiplied by the count; a played card's "per ... in play" keeps
    counting, so companions played after it add to what it gave (regardless of order).
    """
    amount = node["amount"]
    if "per" in node:
        amount *= game.count_of(ctx.player, node["per"])
        if node["per"]["count"] == "in_play":
            # Cards played later in the turn count too: the game gives the difference then.
            game.recount_later(ctx, node, amount)
    game.gain(ctx.player, node["resource"], amount)


def _can_spend(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    return game.can_spend(ctx.player, node["resource"], node["amount"])


@effect(
    "spend",
    appraise=lambda n, v: -n["amount"] * v.unit(n["resource"]),
    phrases=("pay {amount:int} {resource:resource}", "spend {amount:int} {resource:resource}"),
    params={"amount": {"type": "integer", "minimum": 0, "maximum": 100}, "resource": _RESOURCE},
    render=lambda n: f"pay {n['amount']} {_LABEL.get(n['resource'], n['resource'])}",
    examples=("pay 2 gold -> heal 1",),
    payable=True,
    can_pay=_can_spend,
)
def spend(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Pay resources from the pool (a price before "->"); it cannot be paid with what you lack
    (a price is asked only when it can be paid: alone on a line it is CW132)."""
    if not game.can_spend(ctx.player, node["resource"], node["amount"]):
        raise ValueError(
            f"player {ctx.player.seat + 1} cannot pay {node['amount']} {node['resource']}: "
            "a price nothing asked about (CW132), never cut to what the pool holds"
        )
    game.spend(ctx.player, node["resource"], node["amount"])
