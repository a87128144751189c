"""Effects that hand out cards of the Reserve without paying their cost."""

from __future__ import annotations

from typing import Any

from .registry import effect


def _copies(n: int, name: str) -> str:
    return name if n == 1 else f"{n} copies of {name}"


def _take_worth(node: dict[str, Any], v: Any) -> float:
    # The card itself is unknown to the appraisal: value it like a few points of deck each
    # (a Secret Tome is 7 points but a dead card in hand).
    return node["n"] * 4 * v.unit("points")


@effect(
    "take_from_reserve",
    phrases=(
        "take {n:int} {card:name} from the reserve",
        "take a|an|one {card:name} from the reserve",
        "gain {n:int} {card:name} from the reserve",
        "gain a|an|one {card:name} from the reserve",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}, "card": {"type": "string"}},
    required=("card",),
    defaults={"n": 1},
    render=lambda n: f"take {_copies(n['n'], n['card'])} from the Reserve into your discard pile",
    examples=('pay 7 gold -> take 2 "Secret Tome" from the reserve',),
    appraise=_take_worth,
)
def take_from_reserve(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put cards of that name from their Reserve pile into your discard pile, as if
    acquired but without their cost or Acquire text (as many as the pile still holds)."""
    want = node["card"].lower()
    for card in game.reserve:
        if card.name.lower() == want:
            game.take_from_reserve(ctx.player, card, node["n"])
            return


@effect(
    "flip_reserve",
    phrases=(
        "flip {old:name} to {new:name}",
        "flip {old:name} over to {new:name}",
        "replace {old:name} in the reserve with {new:name}",
    ),
    params={"old": {"type": "string"}, "new": {"type": "string"}},
    render=lambda n: f"flip {n['old']} in the Reserve over: {n['new']} takes its place",
    examples=("flip Goblin to Hobgoblin",),
    appraise=lambda n, v: 0.0,
)
def flip_reserve(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Turn a repeatable reserve monster over: the `set aside` reserve monster NEW takes
    the place of OLD for the rest of the game (nothing if OLD is not in the Reserve)."""
    game.flip_reserve_monster(node["old"], node["new"])
