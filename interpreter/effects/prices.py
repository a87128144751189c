"""Prices paid in things other than resources: your own Clank! cubes, and held tokens.

    space Altar { action offer: pay 2 clank cubes -> +3 gold }
    card "Noisy Bargain" { play: may pay 2 of your clank cubes -> +3 skill }
    space Guild { action tithe: return a Seal token -> +5 gold }

Both stand wherever a price does (before `->`, on an `action` line, in a `to enter:` toll) and
are offered only when they can be paid in full. Damage (`take 2 damage`: only if it would not
knock you out), discarding and trashing cards are prices too (effects/player.py).
"""

from __future__ import annotations

from typing import Any

from .registry import effect


@effect(
    "pay_cubes",
    phrases=(
        "pay|spend {n:int} clank|clank! cube|cubes",
        "pay|spend {n:int} of your clank|clank! cube|cubes",
        "pay|spend {n:int} of your cubes",
        "pay|spend {n:int} cube|cubes",
        "pay|spend a|one clank|clank! cube {n=1}",
        "pay|spend one of your clank|clank! cubes {n=1}",
        "return {n:int} of your clank|clank! cubes to the box",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100}},
    render=lambda n: f"pay {n['n']} of your Clank! cubes (to the box)",
    examples=("pay 2 clank cubes -> +3 gold", "may pay 1 of your clank cubes -> draw 1"),
    payable=True,
    can_pay=lambda game, ctx, n: game.can_box_cubes(ctx.player, n["n"]),
    # A cube out of the game is one fewer to be drawn or to take damage with: about nothing
    # until the supply runs low.
    appraise=lambda n, v: -0.1 * n["n"] * v.unit("heal"),
)
def pay_cubes(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Pay with cubes of your supply: they go to the box, out of the game (not to the Clank!
    area: they are never drawn). As a price it can be paid only with that many in supply."""
    if not game.can_box_cubes(ctx.player, node["n"]):
        raise ValueError(
            f"player {ctx.player.seat + 1} cannot pay {node['n']} Clank! cubes: a price "
            "nothing asked about (CW132)"
        )
    game.box_cubes(ctx.player, node["n"])


@effect(
    "return_held",
    phrases=(
        "return a|an|one {what:name} [token] [to] [the] [box] {n=1}",
        "return {n:int} {what:name} [token|tokens] [to] [the] [box]",
        "give back a|an|one {what:name} [token] {n=1}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
    },
    render=lambda n: f"return {n['n']} {n['what']} you hold to the box",
    examples=('return a "Golden Statue" token -> +5 gold',),
    payable=True,
    can_pay=lambda game, ctx, n: game.held_count(ctx.player, n["what"]) >= n["n"],
    appraise=lambda n, v: -n["n"] * v.token(n["what"]),
)
def return_held(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Give back N tokens you hold matching WHAT (a name, type or kind; never the artifact
    you carry) to the box; as a price, only holding that many."""
    game.return_held(ctx.player, node["what"], node["n"])
