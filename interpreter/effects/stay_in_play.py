"""Cards that stay in play for one more turn and give their text again then.

"The card also remains in play for a second turn, where it gives you all of its resources
and text again ... At the end of your second turn after playing it, put it into your discard
pile as normal." A card says so in its play line (`play: +1 boots, this card stays in play
for your next turn`), or another line gives it that (`whenever you defeat a monster: this
card stays in play for your next turn`), or a card gives it to another (`keep another card you
played in play for your next turn`).

Only a copy played from the hand this turn can stay: a card in its second turn is not played
that turn, so it never stays a third ("it only stays in your play area at the end of your
turn if you played it on that turn"), and a copy stays once however often it is told to.
The player's `staying` lists the copies marked this turn, `held_over` the copies in their
second turn; both name cards of the play area (state marks: references, not zones).
"""

from __future__ import annotations

from typing import Any

from .registry import effect


def _played_now(player: Any, card: Any) -> int:
    """Copies of ``card`` played from the hand this turn, not yet told to stay."""
    return player.play.count(card) - player.held_over.count(card) - player.staying.count(card)


@effect(
    "stay_in_play",
    phrases=(
        "this card stays in play for your next turn",
        "this card stays in play one more turn",
        "this stays in play for your next turn",
        "keep this card in play for your next turn",
    ),
    params={},
    render=lambda n: "this card stays in play for your next turn, and gives its text again",
    examples=("+1 boots, this card stays in play for your next turn",),
    # Its play text once more, next turn: about one more card's worth.
    appraise=lambda n, v: v.unit("draw"),
)
def stay_in_play(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """The card (played from your hand this turn) stays in your play area at the end of the
    turn; at the start of your next turn its play lines happen again, and at the end of that
    turn it is discarded with the rest."""
    player, card = ctx.player, ctx.source
    if player is game.active and card in player.play and _played_now(player, card) > 0:
        game.keep_in_play(player, card)


@effect(
    "give_stay_in_play",
    phrases=(
        "keep another card you played in play for your next turn",
        "keep another card in play for your next turn",
    ),
    params={},
    render=lambda n: "another card you played this turn stays in play for your next turn",
    examples=("+1 skill, keep another card you played in play for your next turn",),
    appraise=lambda n, v: v.unit("draw"),
)
def give_stay_in_play(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Choose another card you played from your hand this turn: it stays in play for your
    next turn, as `this card stays in play` does."""
    player = ctx.player
    if player is not game.active:
        return
    cands = [
        c
        for c in dict.fromkeys(player.play)
        if _played_now(player, c) - (1 if c is ctx.source else 0) > 0
    ]
    if not cands:
        return
    labels = [f"keep {c.name} in play" for c in cands]
    # Bots read each option as what that card's play lines will give again next turn.
    detail = {
        "op": "choose",
        "options": [[e for _, eff in c.play for e in eff] for c in cands],
    }
    pick = game.choose(player, "choose", labels, source=ctx.source, detail=detail)
    game.keep_in_play(player, cands[pick])


def replay_held_over(game: Any, player: Any) -> None:
    """At the start of the turn: each card in its second turn gives its play lines again
    (a `play if` line waits for its condition this turn, as on the turn it was played)."""
    for card in list(player.held_over):
        if not game.replay_lines(player, card):
            return
