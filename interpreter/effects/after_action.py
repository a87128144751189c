"""The trigger that looks after every action of a turn: "as soon as ..., once a turn".

A card's `play if` line waits for its condition for the rest of the turn. A held token may
need the same: "when you have played a prayer book this turn, this token gives 1 Skill, once
a turn, even if you take the token later in the turn". `after each action if CONDITION:`
on a token (or a card in play, a space, the rules) is tested after every action of the
owner's turn; with `once per turn` it fires the first time the condition holds.
"""

from __future__ import annotations

from .triggers import EVENTS, HOLDERS, _trigger

EVENTS["action"] = "A player has taken one action of their turn (a play, a move, a fight...)."

_trigger(
    "after_action",
    "action",
    "you",
    ("after each action", "after every action", "after any action"),
    HOLDERS,
    "After each action of the owner's turn (on a space: of a player standing on it); with "
    "`once per turn ... if CONDITION:` it fires as soon as the condition holds, once a turn.",
    worth=3.0,
    examples=('once per turn after each action if a "Prayer Book" in play: +1 skill',),
)
