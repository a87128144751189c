"""Dealing tokens face down at random onto marked spaces (a setup step a pack writes).

"Shuffle the tokens face down, then place one at random on each of the marked spaces; return
the extras to the box without looking at them." A pack writes it as a setup step:

    rules {
      step setup.guards after setup.tokens: deal a random guard face down onto each watchpost
    }
"""

from __future__ import annotations

from typing import Any

from .registry import effect


@effect(
    "deal_face_down",
    phrases=(
        "deal a|one random {what:tag} face down onto each {feature:words}",
        "deal a|one random {what:tag} onto each {feature:words}",
    ),
    params={"what": {"type": "string", "minLength": 1}, "feature": {"type": "string"}},
    render=lambda n: (
        f"shuffle the {n['what']} tokens face down and deal one onto each {n['feature']} space; "
        "the extras go back to the box"
    ),
    examples=("deal a random guard face down onto each watchpost",),
    # A setup step: nothing a player gains or loses.
    appraise=lambda n, v: 0.0,
)
def deal_face_down(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Every token of the supply matching WHAT (a kind, type or name) is shuffled face down
    and one is put on each space with the feature, in board order; the extras go back to the
    box unseen."""
    feature = node["feature"].lower().removesuffix(" space").removesuffix(" spaces")
    game.deal_face_down(node["what"].lower(), feature)
