"""A random outcome: one of several effect lists chosen by chance (a die, a spinner, a
shuffled pile of results), and `nothing`, the effect list that does nothing (a blank face).

`roll (take Gem | +2 gold | nothing)` and `at random (...)` compile to one node: the
options, each with its weight (its faces on the die), and the words the designer named
the die with (`roll the bone die (...)` is labelled "the bone die"). The draw comes from the
game's seeded RNG, so a seed plays the same game; a scenario sets what comes up with
`rolls N...` (docs/scenarios.md).
"""

from __future__ import annotations

from typing import Any

from .registry import effect, render_effects

_EFFECTS = {"$ref": "#/$defs/effects"}


def _render(node: dict[str, Any]) -> str:
    weights = node["weights"]
    total = sum(weights)
    even = len(set(weights)) == 1
    parts = []
    for option, w in zip(node["options"], weights, strict=True):
        text = render_effects(option)
        parts.append(text if even else f"{text} ({w} in {total})")
    head = f"roll {node['label']}" if node.get("label") else "at random"
    return f"{head}: " + " or ".join(parts)


def _appraise(node: dict[str, Any], v: Any) -> float:
    # What a roll is worth before it is rolled: each outcome's worth, weighted by its chance.
    weights = node["weights"]
    total = sum(weights)
    worth = 0.0
    for option, w in zip(node["options"], weights, strict=True):
        worth = worth + v.effects(option) * w / total
    return worth


@effect(
    "random",
    appraise=_appraise,
    phrases=("roll", "at random", "roll {label:words}"),
    params={
        "options": {"type": "array", "items": _EFFECTS, "minItems": 2},
        "weights": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 100},
            "minItems": 2,
        },
        "label": {"type": "string"},
    },
    required=("options", "weights"),
    render=_render,
    examples=(
        'roll (take "Golden Statue" | +2 gold | nothing)',
        "at random (weight 3, +1 clank | heal 1)",
        "roll the bone die (+1 skill | +1 swords | +1 boots)",
    ),
    structural=True,
)
def random_outcome(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """One of the options separated by "|" happens, chosen at random: each as likely as the
    others, or as its weight says (`weight N` first in an option: N faces of the die; an
    option written twice is twice as likely). `nothing` is an option that does nothing.
    The game's seeded RNG rolls (the same seed rolls the same), the replay narration says
    what came up, and a scenario sets it with `rolls N`."""
    pick = game.roll(ctx.player, node["weights"], source=ctx.source, detail=node)
    game.run(ctx, node["options"][pick])


@effect(
    "nothing",
    appraise=lambda n, v: 0.0,
    phrases=("nothing", "no effect", "nothing happens"),
    params={},
    render=lambda n: "nothing",
    examples=("roll (+2 gold | nothing)",),
)
def nothing(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Nothing happens: a blank face of a die, an option of a choice that gives nothing."""
