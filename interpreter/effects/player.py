"""Effects on one player: draw, heal, damage, teleport, discard, trash, tokens."""

from __future__ import annotations

from typing import Any

from .registry import effect


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@effect(
    "draw",
    appraise=lambda n, v: n["n"] * v.unit("draw"),
    phrases=("draw {n:int} [card|cards]", "draw a|one card"),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}},
    defaults={"n": 1},
    render=lambda n: f"draw {_plural(n['n'], 'card')}",
    examples=("draw 2", "draw a card"),
)
def draw(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Draw cards from your deck, reshuffling your discard pile (never the play area) if empty."""
    game.draw(ctx.player, node["n"])


@effect(
    "heal",
    appraise=lambda n, v: n["n"] * v.unit("heal"),
    phrases=("heal {n:int} [damage]", "heal"),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}},
    defaults={"n": 1},
    render=lambda n: f"heal {n['n']}",
    examples=("heal 1",),
)
def heal(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take cubes back from your health meter into your supply."""
    game.heal(ctx.player, node["n"])


def _can_damage(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    return game.can_take_damage(ctx.player, node["n"])


@effect(
    "damage",
    appraise=lambda n, v: n["n"] * v.unit("damage"),
    phrases=("take {n:int} damage", "{n:int} damage"),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}},
    render=lambda n: f"take {n['n']} damage",
    examples=("take 1 damage",),
    payable=True,
    can_pay=_can_damage,
)
def damage(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take damage with cubes from your supply (as a price: only if it would not knock you out)."""
    game.take_damage(ctx.player, node["n"])


@effect(
    "teleport",
    appraise=lambda n, v: v.unit("teleport"),
    phrases=("teleport", "teleport to an|a adjacent space|room"),
    params={},
    render=lambda n: "teleport to an adjacent space",
    examples=("teleport",),
)
def teleport(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Move to an adjacent space, ignoring boots, icons and one-way arrows; exhaustion stays."""
    game.teleport(ctx.player)


def _can_discard(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    return game.can_discard(ctx.player, node["n"])


@effect(
    "discard",
    appraise=lambda n, v: n["n"] * v.unit("discard"),
    phrases=("discard {n:int} [card|cards]", "discard a card"),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}},
    defaults={"n": 1},
    render=lambda n: f"discard {_plural(n['n'], 'card')}",
    examples=("may discard 1 card -> draw 2",),
    payable=True,
    can_pay=_can_discard,
)
def discard(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Discard cards you have not played from your hand; they give nothing."""
    game.discard(ctx.player, node["n"])


@effect(
    "trash",
    appraise=lambda n, v: n["n"] * v.unit("trash") * (0.6 if "card" in n else 1.0),
    phrases=(
        "trash {n:int} card|cards",
        "trash a card",
        "trash {n:int} {card:name}",
        "trash a|an {card:name}",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}, "card": {"type": "string"}},
    required=("n",),
    defaults={"n": 1},
    render=lambda n: (
        f"trash {n['n']} {n.get('card', 'card')}"
        + ("" if n["n"] == 1 else "s")
        + " from your discard pile or play area"
    ),
    examples=("trash 1 card", "trash a Burgle"),
)
def trash(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Remove cards from your discard pile or play area for the rest of the game (not destroy)."""
    game.trash(ctx.player, node["n"], node.get("card"))


@effect(
    "secret",
    appraise=lambda n, v: v.unit(f"{n['size']} secret"),
    phrases=("take a|an|one {size:tag} secret", "take {size:tag} secret"),
    params={"size": {"enum": ["minor", "major"]}},
    render=lambda n: f"take a {n['size']} secret",
    examples=("take a minor secret",),
)
def secret(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take a secret of that size at random from the bank and reveal it."""
    game.take_secret(ctx.player, node["size"])


def _left_in_supply(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    want = node["token"].lower()
    return any(left and tok.name.lower() == want for tok, left in game.token_supply.items())


@effect(
    "token",
    appraise=lambda n, v: v.token(n["token"]),
    phrases=("gain {token:name}", "take {token:name}"),
    params={"token": {"type": "string"}},
    render=lambda n: f"take {n['token']}",
    examples=('take "Mystic Fruit"',),
    can_pay=_left_in_supply,
)
def token(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take one token of that name from the supply (nothing if none is left: a choice's
    option that would take one is then not offered while another option can be done)."""
    game.take_token(ctx.player, node["token"])
