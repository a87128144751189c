"""Effects that change the rest of the active player's turn ("this turn" effects).

A played card may change how the turn goes from then on: exhausting spaces stop stopping you,
a gain of one resource brings a bonus of another. Such a node joins `Game.turn_modifiers`
(plain IR nodes, cleared when a turn begins), and the game consults the list where the rule
applies: on entering a space, on each gain. What the player already gained this turn is in
`Game.turn_gained` (resource -> [units, times]), so a modifier played late still counts the
gains before it: "you get a card's effects regardless of the order in which you play your
cards".
"""

from __future__ import annotations

from typing import Any

from .registry import RESOURCES, effect

_LABEL = {"skill": "Skill", "swords": "Swords", "boots": "Boots", "gold": "Gold", "clank": "Clank!"}


def _ignore_exhaustion_worth(node: dict[str, Any], v: Any) -> float:
    # A boot or two that a crystal cave would have wasted, on the turns it matters.
    return 0.5 * v.unit("boots")


@effect(
    "ignore_exhaustion",
    phrases=(
        "ignore exhaustion this turn",
        "exhausting spaces do not stop you this turn",
    ),
    params={},
    render=lambda n: "spaces that exhaust do not stop you this turn",
    examples=("ignore exhaustion this turn",),
    appraise=_ignore_exhaustion_worth,
)
def ignore_exhaustion(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """For the rest of the turn, entering a space that exhausts (a crystal cave, a forest)
    does not stop you using Boots; if one already stopped you this turn, you may go on."""
    if ctx.player is not game.active:
        return
    game.refresh(ctx.player)
    game.add_turn_modifier(node)


def _render_bonus(node: dict[str, Any]) -> str:
    gets = f"{node['amount']:+d} {_LABEL[node['resource']]}"
    on = _LABEL[node["on"]]
    if node.get("per_unit"):
        return f"{gets} for each {on} you gain this turn"
    return f"{gets} whenever you gain {on} this turn"


def _bonus_worth(node: dict[str, Any], v: Any) -> float:
    # A turn holds a gain or two of the watched resource (per unit: two or three units).
    times = 2.5 if node.get("per_unit") else 1.5
    return node["amount"] * times * v.unit(node["resource"])


@effect(
    "bonus_on_gain",
    phrases=(
        "{amount:signed} {resource:resource} whenever you gain {on:resource} this turn",
        "{amount:signed} {resource:resource} for each {on:resource} you gain this turn "
        "{per_unit=true}",
    ),
    params={
        "amount": {"type": "integer", "minimum": -100, "maximum": 100},
        "resource": {"enum": list(RESOURCES)},
        "on": {"enum": list(RESOURCES)},
        "per_unit": {"type": "boolean"},
    },
    required=("amount", "resource", "on"),
    defaults={"per_unit": False},
    render=_render_bonus,
    examples=(
        "+1 gold whenever you gain gold this turn",
        "+1 skill for each clank you gain this turn",
    ),
    appraise=_bonus_worth,
)
def bonus_on_gain(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Each time you gain the watched resource this turn (before or after this effect), gain
    the bonus too: once per gain, or with "for each" once per unit gained. Bonuses do not
    set off further bonuses."""
    player = ctx.player
    if player is not game.active:
        return
    units, times = game.turn_gained.get(node["on"], (0, 0))
    earlier = units if node.get("per_unit") else times
    game.add_turn_modifier(node)
    if earlier:
        _give(game, player, node, earlier)


def _give(game: Any, player: Any, node: dict[str, Any], k: int) -> None:
    # With the modifiers set aside, a bonus never sets off another one (an extra Gold
    # is no new gain of Gold for the bonus that gave it); it still counts in `turn_gained`.
    mods = game.set_turn_modifiers([])
    try:
        game.gain(player, node["resource"], node["amount"] * k)
    finally:
        game.set_turn_modifiers(mods)


def on_gain(game: Any, player: Any, resource: str, amount: int) -> None:
    """Called by `Game.gain` when the active player gains ``amount`` > 0 of ``resource``
    while a modifier is in force: pay the bonuses that watch that resource."""
    for node in list(game.turn_modifiers):
        if node["op"] == "bonus_on_gain" and node["on"] == resource:
            _give(game, player, node, amount if node.get("per_unit") else 1)


def ignores_exhaustion(game: Any) -> bool:
    """Whether the active player's exhausting spaces are ignored this turn."""
    return any(n["op"] == "ignore_exhaustion" for n in game.turn_modifiers)


def _discount_worth(node: dict[str, Any], v: Any) -> float:
    # Worth the skill saved on the one card of that kind a turn may buy, half the time.
    return 0.5 * node["amount"] * v.unit("skill")


@effect(
    "discount",
    phrases=(
        "{tag:tag} cost {amount:int} less this turn",
        "{tag:tag} cost {amount:int} less skill this turn",
        "{tag:tag} cards cost {amount:int} less this turn",
    ),
    params={"tag": {"type": "string"}, "amount": {"type": "integer", "minimum": 1, "maximum": 100}},
    required=("tag", "amount"),
    render=lambda n: f"{n['tag']} cards cost {n['amount']} less Skill to acquire this turn",
    examples=("gems cost 2 less this turn",),
    appraise=_discount_worth,
)
def discount(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """For the rest of the turn, acquiring a card with that tag costs that much less Skill
    (never below 0). Discounts on the same card add up."""
    if ctx.player is game.active:
        game.add_turn_modifier(node)


def price(game: Any, card: Any) -> int:
    """The Skill the active player pays to acquire ``card`` now (its cost less discounts)."""
    cost = card.cost
    for n in game.turn_modifiers:
        if n["op"] == "discount" and (n["tag"] in card.tags or n["tag"].rstrip("s") in card.tags):
            cost -= n["amount"]
    return max(0, cost)


def largest_discount(game: Any) -> int:
    """The most Skill any card's price is lowered by this turn (0 without discounts)."""
    return sum(n["amount"] for n in game.turn_modifiers if n["op"] == "discount")


def _ignore_monsters_worth(node: dict[str, Any], v: Any) -> float:
    # A monster icon or two not paid for with swords or damage on the turn's moves.
    return 1.0 * v.unit("swords")


@effect(
    "ignore_path_monsters",
    phrases=(
        "ignore monsters on paths this turn",
        "ignore tunnel monsters this turn",
        "ignore path monsters this turn",
    ),
    params={},
    render=lambda n: "monsters on paths do not stop you this turn",
    examples=("ignore monsters on paths this turn",),
    appraise=_ignore_monsters_worth,
)
def ignore_path_monsters(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """For the rest of the turn, moving along a path with monster icons costs no swords and
    no damage."""
    if ctx.player is game.active:
        game.add_turn_modifier(node)


def ignores_monsters(game: Any) -> bool:
    """Whether monster icons on paths are ignored for the active player this turn."""
    return any(n["op"] == "ignore_path_monsters" for n in game.turn_modifiers)


@effect(
    "count_as_in_play",
    phrases=(
        "{tag:tag} counts as in play this turn",
        "{tag:tag} count as in play this turn",
        "{tag:tag} cards count as in play this turn",
    ),
    params={"tag": {"type": "string", "minLength": 1}},
    render=lambda n: f"for the rest of this turn, a {n['tag']} card counts as in play",
    examples=("science counts as in play this turn",),
    # A waiting `play if another TAG in play` line or two come true.
    appraise=lambda n, v: 1.0 * v.unit("skill"),
)
def count_as_in_play(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """For the rest of the turn, every `TAG in play` condition of yours holds (`another TAG
    in play` too), as if you had played another card of that tag: lines waiting for one
    fire. Counts (`per TAG in play`) are not changed."""
    if ctx.player is game.active:
        game.add_turn_modifier(node)


def counts_in_play(game: Any, tag: str) -> bool:
    """Whether a `count_as_in_play` modifier makes ``tag`` count as in play this turn."""
    tag = tag.lower()
    return any(
        n["op"] == "count_as_in_play" and n["tag"].lower() in (tag, tag.rstrip("s"))
        for n in game.turn_modifiers
    )
