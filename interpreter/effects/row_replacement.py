"""Effects on the adventure row itself: swapping a card the player does not want."""

from __future__ import annotations

from typing import Any

from ..decisions import DISCARD, Option
from .registry import effect


def _replace_worth(node: dict[str, Any], v: Any) -> float:
    # A fresh look at one card of the row: a fraction of a card drawn.
    return 0.3 * v.unit("draw")


@effect(
    "replace_row_card",
    phrases=(
        "replace a|one card in the row",
        "replace a|one card in the dungeon|adventure row",
        "replace a|one row card",
    ),
    params={},
    render=lambda n: "replace a card of the row (the new card's dragon symbol is ignored)",
    examples=("may replace a card in the row",),
    appraise=_replace_worth,
)
def replace_row_card(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Put a row card of your choice into the adventure discard pile and fill its place from
    the adventure deck. The new card's dragon symbol is ignored (no attack); its Arrive text
    happens. An event drawn is carried out and discarded, and the next card is drawn."""
    if not game.row:
        return
    player = ctx.player
    cards = list(dict.fromkeys(game.row))
    # Asked as a discard (a card to get rid of, the value of each option is the card), so
    # every bot already answers it; the labels say "replace".
    pick = game.decide(
        player,
        DISCARD,
        [Option(f"replace {c.name}", c) for c in cards],
        prompt="card to replace",
        source=ctx.source_name,
    )
    game.replace_row_card(cards[pick])
