"""Amounts computed from counts, thresholds on counts, and held tokens given back.

- `half your gem tokens rounded up`: a count made from another count (half of it, rounded
  up or down), usable wherever a count is (`per`, and as an amount below);
- `if you have 3 or more gem tokens`: a threshold on any count;
- `return 2 gem tokens you hold` / `return half your gem tokens rounded up`: tokens the
  player holds go back to the supply (where `take NAME` finds them again), as many as the
  number or the count says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .registry import condition, count, effect, render_count

_COUNT = {"$ref": "#/$defs/count"}


def _half_text(node: dict[str, Any]) -> str:
    return f"half (rounded {'up' if node['up'] else 'down'}) of {render_count(node['of'])}"


@count(
    "half",
    phrases=(
        "half [of] {up=true} {of:count} rounded up",
        "half [of] {up=false} {of:count} rounded down",
        "half [of] {up=false} {of:count}",
    ),
    params={"of": _COUNT, "up": {"type": "boolean"}},
    render=_half_text,
    examples=(
        '+1 gold per half your "Golden Statue" tokens rounded down',
        'return half your "Golden Statue" tokens rounded up',
    ),
    appraise=lambda n, v: 0.5 * v.count(n["of"]),
)
def half(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Half of another count, rounded down (the default) or up: `half your gem tokens
    rounded up` is 2 with 3 gems, 0 with none."""
    n = game.count_of(player, node["of"])
    return (n + 1) // 2 if node["up"] else n // 2


@condition(
    "count_at_least",
    phrases=(
        "you have {n:int} or more {of:count}",
        "you hold {n:int} or more {of:count}",
        "you have at least {n:int} {of:count}",
        "you hold at least {n:int} {of:count}",
    ),
    params={"n": {"type": "integer", "minimum": 0, "maximum": 1000}, "of": _COUNT},
    render=lambda n: f"{n['n']} or more {render_count(n['of'])}",
    examples=('if you have 3 or more "Golden Statue" tokens (+2 skill)',),
    # A bot expects a count near its usual value: the threshold holds about when it is below.
    appraise=lambda n, v: 1.0 if v.count(n["of"]) >= n["n"] else 0.25,
)
def count_at_least(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """A count of yours (any count a `per` takes: tokens you hold, cards you own, gold...)
    is at least N."""
    return game.count_of(ctx.player, node["of"]) >= node["n"]


def held_name(node: dict[str, Any]) -> str | None:
    """The tokens a count counts, when it counts tokens the player holds (through `half`)."""
    for n in _counts(node):
        if n.get("count") == "held":
            return str(n["what"])
    return None


def _counts(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    if isinstance(node.get("of"), dict):
        yield from _counts(node["of"])


def _render_return(node: dict[str, Any]) -> str:
    if "counted" in node:
        return f"return {render_count(node['counted'])} to the supply"
    n, what = node["n"], node["what"]
    return f"return {n} {what} you hold to the supply"


def _appraise_return(node: dict[str, Any], v: Any) -> float:
    # Giving back what one holds is worth minus holding it: a token worth points against
    # you (a penalty token) is a gain to give back.
    if "counted" in node:
        what = held_name(node["counted"]) or ""
        return -v.count(node["counted"]) * v.token(what)
    return -node["n"] * v.token(node["what"])


@effect(
    "return_to_supply",
    phrases=(
        "return {n:int} {what:name} token|tokens you hold [to] [the] [supply]",
        "return {n:int} {what:name} you hold [to] [the] [supply]",
        "return a|an|one {what:name} [token] you hold [to] [the] [supply] {n=1}",
        "return {n:int} {what:name} [token|tokens] to the supply",
        "return a|an|one {what:name} [token] to the supply {n=1}",
        "return {counted:count} to the supply",
        "return {counted:count}",
    ),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "what": {"type": "string", "minLength": 1},
        "counted": _COUNT,
    },
    required=(),
    render=_render_return,
    examples=(
        'return 2 "Golden Statue" tokens you hold',
        'return half your "Golden Statue" tokens rounded up',
    ),
    appraise=_appraise_return,
)
def return_to_supply(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Give tokens you hold back to the supply (from where they can be taken again): N of
    them, or as many as a count of the tokens you hold says (`return half your gem tokens
    rounded up`); as many as you hold when you hold fewer. Your artifact stays."""
    if "counted" in node:
        what = held_name(node["counted"])
        if what is None:
            return
        n = game.count_of(ctx.player, node["counted"])
    else:
        what, n = node["what"], node["n"]
    game.return_to_supply(ctx.player, what, n)
