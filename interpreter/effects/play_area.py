"""Effects on the play area: a card that stays in play for its owner's next turn.

A card design can say `stays in play` (it always does); an effect can keep the card it is on
(`this card stays in play`), for one turn, and only a copy played this turn: a card that
stayed from the last turn goes at the end of this one whatever happens.
"""

from __future__ import annotations

from typing import Any

from .registry import effect


def _keep_worth(node: dict[str, Any], v: Any) -> float:
    # The card's play lines once more next turn: about a card's worth.
    return 2.0 * v.unit("draw")


@effect(
    "keep_in_play",
    phrases=("this card stays in play", "this card stays in play another turn"),
    params={},
    render=lambda n: "this card stays in play for your next turn",
    examples=("this card stays in play",),
    appraise=_keep_worth,
)
def keep_in_play(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The card this effect is on, if its owner played it this turn, stays in their play area
    for their next turn and gives its play lines again then (once, however often it is
    kept)."""
    card = ctx.source
    if ctx.player is game.active and card is not None and hasattr(card, "stays"):
        game.keep_in_play(ctx.player, card)
