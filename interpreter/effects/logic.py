"""Negation and alternatives over any condition: `not`, `or` (any) and `and` (all).

    space Ford    { when you enter if you are not in a flooded room: +1 boots }
    card Diver    { play unless you have "SCUBA": take 1 damage }
    card Regent   { play if you have a crown or you are in a crystal cave: +2 skill }

The compiler reads `not CONDITION`, a `not` inside a condition's words (`you are not in X`,
`counter doom is not 5`), `unless CONDITION` (wherever `if` is accepted), and conditions
joined by `or` / `and` (`and` binds tighter). Each becomes one of three nodes that hold other
condition nodes, so every condition record is negated and combined the same way, with no
record written twice:

    {"cond": "not", "of": {...}}    {"cond": "any", "of": [...]}    {"cond": "all", "of": [...]}

Whatever walks conditions (the reference checks, the bots reading what a line asks) descends
into them with `leaves`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .registry import condition, render_condition

_ONE = {"$ref": "#/$defs/condition"}
_SOME = {"type": "array", "items": _ONE, "minItems": 2}

# Words after which a sentence takes "not" ("you are not in a forest"), and verbs that take
# "do not" ("you do not have a crown").
_AUXILIARIES = ("is", "are", "was", "were", "has been", "can")
_VERBS = ("have", "hold", "own")


def leaves(cond: dict[str, Any] | None) -> Iterator[dict[str, Any]]:
    """Every condition node of ``cond`` that is not `not`, `any` or `all` (the records that
    test the game), however deeply they are combined."""
    if not cond:
        return
    of = cond.get("of") if cond.get("cond") in ("not", "any", "all") else None
    if of is None:
        yield cond
    elif isinstance(of, list):
        for c in of:
            yield from leaves(c)
    else:
        yield from leaves(of)


def negated(text: str) -> str:
    """A condition's card text, denied the way a sentence is: "you are in a forest" →
    "you are not in a forest", "you have a crown" → "you do not have a crown"."""
    words = text.split(" ")
    for i, w in enumerate(words[:4]):
        if w in _AUXILIARIES:
            return " ".join([*words[: i + 1], "not", *words[i + 1 :]])
        if i == 1 and words[0] == "you" and w in _VERBS:
            return " ".join(["you", "do", "not", *words[1:]])
    return f"it is not so that {text}"


def _render_not(node: dict[str, Any]) -> str:
    inner = node["of"]
    # A negation of a negation, or of a combination, keeps its brackets readable.
    if inner["cond"] in ("any", "all"):
        return f"not ({render_condition(inner)})"
    return negated(render_condition(inner))


@condition(
    "not",
    appraise=lambda n, v: v.unlikely(n["of"]),
    phrases=("not {of:cond}",),
    params={"of": _ONE},
    render=_render_not,
    structural=True,
    examples=(
        "when you enter if you are not in a flooded room: +1 boots",
        'play unless you have "SCUBA": take 1 damage',
        "if not another companion in play (+1 skill)",
    ),
)
def not_(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """The condition does not hold. Written `not CONDITION`, `unless CONDITION` in place of
    `if CONDITION`, or with the sentence's own `not` (`you are not in a forest`)."""
    return not game.holds(ctx, node["of"])


def _bracketed(cond: dict[str, Any]) -> str:
    # `and` binds tighter than `or`: an alternative inside `and` needs its brackets.
    text = render_condition(cond)
    return f"({text})" if cond["cond"] == "any" else text


def _any_chance(node: dict[str, Any], v: Any) -> float:
    miss = 1.0
    for c in node["of"]:
        miss = miss * (1.0 - v.chance(c))
    return 1.0 - miss


def _all_chance(node: dict[str, Any], v: Any) -> float:
    hit = 1.0
    for c in node["of"]:
        hit = hit * v.chance(c)
    return hit


@condition(
    "any",
    appraise=_any_chance,
    phrases=("{of:cond} or {of:cond}",),
    params={"of": _SOME},
    render=lambda n: " or ".join(render_condition(c) for c in n["of"]),
    structural=True,
    examples=("play if you have a crown or you are in a crystal cave: +2 skill",),
)
def any_(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """At least one of the conditions joined by `or` holds (tested in order)."""
    return any(game.holds(ctx, c) for c in node["of"])


@condition(
    "all",
    appraise=_all_chance,
    phrases=("{of:cond} and {of:cond}",),
    params={"of": _SOME},
    render=lambda n: " and ".join(_bracketed(c) for c in n["of"]),
    structural=True,
    examples=("if you have an artifact and you are in a forest (+1 boots)",),
)
def all_(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """Every condition joined by `and` holds (`and` binds tighter than `or`)."""
    return all(game.holds(ctx, c) for c in node["of"])
