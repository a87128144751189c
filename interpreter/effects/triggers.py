"""Triggers: the phrases that attach effects to a rules event, one record each.

Every rules step of the engine emits a typed event (`EVENTS`); a trigger is a record that
names the event it watches, whose part of it (``who``) and which components may carry it
(``holders``). Content writes a trigger as the head of a line, with its effects after ":":

    space "Crystal Spring" { once per turn when you enter: heal 1 }
    token "Lucky Charm" { at the start of your turn: +1 boots }
    rules { when you escape: take "Trophy" }

A line may start with ``once per turn`` or ``once per game`` and end with ``if CONDITION``.

Who fires, and for whom the effects act:
- ``self``: the component's own moment (a card's play or acquire, a token's reveal); the
  engine runs these where they happen, as before.
- ``you``: the player the event is about: on a space, a player entering it (or standing on
  it, for turn events); on a card in play or a held token, its owner; in the rules, anyone.
- ``other``: on a card in play or a held token, another player than its owner; the effects
  act for the owner.
- ``any``: an event about no one player (the dragon attacks); the effects act for the
  owner of the card or token, or for the active player (rules).
"""

from __future__ import annotations

from typing import Any

from .registry import TRIGGERS, Record, render_effects, the_antagonist

EVENTS: dict[str, str] = {
    "turn start": "A player's turn begins (after the pool is emptied).",
    "turn end": "A player's turn ends (before the play area is cleared).",
    "enter": "A player arrives on a space (by a path, a teleport or a coach).",
    "leave": "A player leaves a space.",
    "move": "A player moves along a path.",
    "play": "A player plays a card.",
    "acquire": "A player acquires a card.",
    "discard": "A player discards a card from hand by an effect (not the end of turn's clean-up).",
    "trash": "A player trashes a card.",
    "draw": "A player draws a card (by an effect, or the new hand at the end of the turn).",
    "defeat": "A player defeats a monster.",
    "reveal": "A player takes a token.",
    "dragon attack": "The dragon attacks (the Clank! area goes into the bag, cubes are drawn).",
    "cubes drawn": "Cubes of a player's colour are drawn from the dragon bag (once a draw).",
    "damage": "A player takes damage.",
    "heal": "A player heals.",
    "escape": "A player escapes with an artifact.",
    "knocked out": "A player's health meter fills up.",
    "game end": "The game ends, before scoring.",
    "coach": "A player hires a coach (after arriving on the coach space).",
    "buy": "A player buys an item from the market.",
    "rage": "The rage marker moves up onto a space (once for each space it reaches).",
    "rage past top": "Rage would go up while the marker is on the track's last space (once "
    "for each space it cannot move).",
}
"""Every event the engine emits, with when it happens."""

HOLDERS = ("card", "token", "space", "rules", "path")

_EFFECTS = {"$ref": "#/$defs/effects"}
_PARAMS: dict[str, dict[str, Any]] = {
    "effects": _EFFECTS,
    "if": {"$ref": "#/$defs/condition"},
    "limit": {"enum": ["turn", "game"]},
}


# A trigger's `limit` as card text, before its heading.
LIMITS = {"turn": "once per turn, ", "game": "once per game, "}


def heading(name: str) -> str:
    """Trigger ``name``'s phrase as card text ("when the dragon attacks"), in the pack's word
    for the antagonist while `registry.antagonist` is in force."""
    head = TRIGGERS[name].phrases[0]
    return head.replace("the dragon", the_antagonist()) if "the dragon" in head else head


def _render(name: str) -> Any:
    def render(n: dict[str, Any]) -> str:
        limit = LIMITS.get(n.get("limit", ""), "")
        return f"{limit}{heading(name)}: {render_effects(n['effects'])}"

    return render


def _trigger(
    name: str,
    event: str,
    who: str,
    phrases: tuple[str, ...],
    holders: tuple[str, ...],
    doc: str,
    worth: float = 1.0,
    examples: tuple[str, ...] = (),
) -> None:
    """Register one trigger record; ``worth`` scales its effects' appraisal (how often it
    fires over a game, roughly, against once; for a card's own moment, the chance it
    happens each time the card goes round the deck)."""
    assert event in EVENTS, event
    TRIGGERS.add(
        Record(
            "trigger",
            name,
            phrases=phrases,
            params=dict(_PARAMS),
            required=("effects",),
            doc=doc,
            render=_render(name),
            examples=examples,
            appraise=lambda n, v, k=worth: k * v.effects(n["effects"]),
            meta={"event": event, "who": who, "holders": holders},
        )
    )


# A component's own moments: the engine runs them where they happen.
_trigger(
    "play",
    "play",
    "self",
    ("play", "when you play this", "when you play this card"),
    ("card",),
    "When the card is played from hand (`play if CONDITION:` waits for it this turn).",
)
_trigger(
    "acquire",
    "acquire",
    "self",
    ("acquire", "when you acquire this", "when you acquire this card"),
    ("card",),
    "When the card is acquired (bought, or taken as a reward).",
)
_trigger(
    "arrive",
    "play",
    "self",
    ("arrive",),
    ("card",),
    "When the card is dealt into the row (an event's only text).",
    worth=0.3,
)
_trigger("defeat", "defeat", "self", ("defeat",), ("card",), "When the monster is defeated.")
_trigger(
    "use",
    "play",
    "self",
    ("use",),
    ("card", "token"),
    "When the device or token is used (a device as it is acquired).",
)
_trigger(
    "reveal",
    "reveal",
    "self",
    ("reveal", "when you take this", "when you reveal this", "when you take this token"),
    ("token",),
    "When the token is taken or revealed.",
)

_ALL = ("card", "token", "space", "rules")
_HELD = ("card", "token")
_trigger(
    "enter",
    "enter",
    "you",
    ("when you enter", "whenever you enter", "enter"),
    _ALL,
    "When a player enters the space (on a space), or when the owner enters any space.",
    examples=("once per turn when you enter: +2 gold",),
)
_trigger(
    "other_enters",
    "enter",
    "other",
    ("whenever another player enters", "when another player enters"),
    _HELD,
    "When another player than the owner enters a space; the effects act for the owner.",
    worth=2.0,
)
_trigger(
    "leave",
    "leave",
    "you",
    ("when you leave", "whenever you leave"),
    _ALL,
    "When a player leaves the space (on a space), or the owner leaves any space.",
)
_trigger(
    "turn_start",
    "turn start",
    "you",
    ("at the start of your turn",),
    _ALL,
    "At the start of the owner's turn (on a space: of a player standing on it).",
    worth=3.0,
    examples=("at the start of your turn: +1 boots",),
)
_trigger(
    "turn_end",
    "turn end",
    "you",
    ("at the end of your turn",),
    _ALL,
    "At the end of the owner's turn, before the play area is cleared.",
    worth=3.0,
)
_trigger(
    "play_card",
    "play",
    "you",
    ("whenever you play a card", "when you play a card"),
    ("card", "token", "rules"),
    "Whenever the owner plays a card.",
    worth=5.0,
)
_trigger(
    "acquire_card",
    "acquire",
    "you",
    ("whenever you acquire a card", "when you acquire a card"),
    _ALL,
    "Whenever the owner acquires a card (on a space: while standing on it).",
    worth=2.0,
)
_trigger(
    "defeat_monster",
    "defeat",
    "you",
    ("whenever you defeat a monster", "when you defeat a monster"),
    _ALL,
    "Whenever the owner defeats a monster (on a space: while standing on it).",
)
_trigger(
    "move_along_path",
    "move",
    "you",
    (
        "whenever you move along a path",
        "when you move along a path",
        "when you move along this path",
        "whenever you move along this path",
        "when you take this path",
    ),
    (*_ALL, "path"),
    "Whenever the owner moves along a path, paid for, before leaving its space (on a space: "
    "moving away from it along a path; on a path: along that one; a teleport or coach is "
    "not a move).",
    worth=6.0,
    examples=("whenever you move along a path: +1 clank",),
)
_trigger(
    "dragon_attacks",
    "dragon attack",
    "any",
    ("when the dragon attacks", "whenever the dragon attacks"),
    ("card", "token", "rules"),
    "Whenever the dragon attacks, after the cubes are drawn; the effects act for the "
    "owner (rules: for the active player).",
    worth=2.0,
)
_trigger(
    "cubes_drawn",
    "cubes drawn",
    "you",
    ("whenever your cubes are drawn", "when your cubes are drawn"),
    ("card", "token", "rules"),
    "Whenever one or more of the owner's cubes come out of the dragon bag in one draw (the "
    "damage they do is a damage event too).",
    worth=1.5,
)
_trigger(
    "damaged",
    "damage",
    "you",
    ("whenever you take damage", "when you take damage"),
    ("card", "token", "rules"),
    "Whenever the owner takes damage.",
    worth=-0.0,
)
_trigger(
    "healed",
    "heal",
    "you",
    ("whenever you heal", "when you heal"),
    ("card", "token", "rules"),
    "Whenever the owner heals.",
)
_trigger(
    "escape",
    "escape",
    "you",
    ("when you escape",),
    ("token", "rules"),
    "When the owner escapes with an artifact (back on HQ at the end of the turn).",
    worth=0.5,
    examples=('when you escape: take "Trophy"',),
)
_trigger(
    "knocked_out",
    "knocked out",
    "you",
    ("when you are knocked out",),
    ("token", "rules"),
    "When the owner's health meter fills up.",
    worth=0.2,
)


_trigger(
    "hire_coach",
    "coach",
    "you",
    ("whenever you hire a coach", "when you hire a coach"),
    ("card", "token", "rules"),
    "Whenever the owner hires a coach, after arriving on the coach space.",
    worth=0.5,
    examples=("whenever you hire a coach: +1 gold",),
)
_trigger(
    "buy_item",
    "buy",
    "you",
    (
        "whenever you buy a market item",
        "when you buy a market item",
        "whenever you buy from the market",
        "when you buy from the market",
    ),
    ("card", "token", "rules"),
    "Whenever the owner buys an item from the market.",
    worth=0.5,
    examples=("whenever you buy a market item: -1 clank",),
)
_trigger(
    "take_token",
    "reveal",
    "you",
    ("whenever you take a token", "when you take a token"),
    ("card", "token", "rules"),
    "Whenever the owner takes a token (a secret, an item, an artifact, a mug...), after "
    "its own lines.",
    worth=2.0,
    examples=("whenever you take a token: +1 gold",),
)
_trigger(
    "rage_advances",
    "rage",
    "any",
    (
        "when the rage marker advances",
        "whenever the rage marker advances",
        "when the rage marker moves up",
        "when rage advances",
        "whenever rage advances",
    ),
    ("card", "token", "rules"),
    "Whenever the rage marker moves up onto a space (a move of several spaces is one event "
    "a space); the effects act for the owner (rules: for the active player). Test the space "
    "with `if the rage marker is on space N`.",
    worth=0.5,
    examples=("when the rage marker advances if the rage marker is on space 7: dragon attack",),
)
_trigger(
    "rage_past_top",
    "rage past top",
    "any",
    (
        "when rage would rise past the top",
        "whenever rage would rise past the top",
        "when rage would go past the top of the track",
        "when the rage marker would move past the last space",
        "whenever the rage marker would move past the last space",
        "when rage would advance past the last space",
    ),
    ("card", "token", "rules"),
    "Whenever rage would go up while the marker is already on the track's last space (once "
    "for each space it cannot move: `rage +2` from the next-to-last space is one `rage "
    "advances` and one of these); the effects act for the owner (rules: for the active "
    "player).",
    worth=0.2,
    examples=("when rage would rise past the top: dragon attack",),
)


# A card's own moments beyond play and acquire: the engine runs them where the card moves.
# ``worth`` is the chance the moment comes each time the card goes round the deck: an effect
# that discards picks this card now and then, a trash takes it once, every pass draws it.
_trigger(
    "discard_this",
    "discard",
    "self",
    (
        "when you discard this",
        "when you discard this card",
        "when this is discarded",
        "when this card is discarded",
    ),
    ("card",),
    "When an effect makes you discard the card from your hand (a price, `discard 1 card`, "
    "another player's effect), not when the play area is cleared at the end of the turn.",
    worth=0.3,
    examples=("when you discard this: +2 boots",),
)
_trigger(
    "trash_this",
    "trash",
    "self",
    (
        "when you trash this",
        "when you trash this card",
        "when this is trashed",
        "when this card is trashed",
    ),
    ("card",),
    "When the card is trashed (from the discard pile or the play area).",
    worth=0.15,
    examples=("when you trash this: +3 gold",),
)
_trigger(
    "draw_this",
    "draw",
    "self",
    (
        "when you draw this",
        "when you draw this card",
        "when this is drawn",
        "when this card is drawn",
    ),
    ("card",),
    "When the card is drawn into your hand (by an effect, or into the new hand at the end of "
    "your turn, where a resource gained is lost with the pool; gold and cards stay).",
    worth=1.0,
    examples=("when you draw this: +1 gold",),
)
_trigger(
    "discard_card",
    "discard",
    "you",
    ("whenever you discard a card", "when you discard a card"),
    ("card", "token", "rules"),
    "Whenever the owner discards a card from hand by an effect (not at clean-up).",
    worth=1.0,
    examples=("whenever you discard a card: +1 gold",),
)
_trigger(
    "trash_card",
    "trash",
    "you",
    ("whenever you trash a card", "when you trash a card"),
    ("card", "token", "rules"),
    "Whenever the owner trashes a card.",
    worth=1.0,
    examples=("whenever you trash a card: +1 gold",),
)
_trigger(
    "draw_card",
    "draw",
    "you",
    ("whenever you draw a card", "when you draw a card"),
    ("card", "token", "rules"),
    "Whenever the owner draws a card (once a card; the new hand too).",
    worth=5.0,
)

_trigger(
    "cross",
    "move",
    "self",
    (
        "when you cross this",
        "whenever you cross this",
        "when someone crosses this",
        "when a player crosses this",
        "whenever a player crosses this",
        "whenever someone crosses this",
        "when you cross this tunnel",
        "when you move through this",
        "when crossed",
    ),
    ("token",),
    "When a player moves along the path the token lies on (after paying for it, before "
    "arriving); the effects act for that player. The token then stays, is removed or is "
    "taken by them, as its `stays|removed|taken when crossed` line says (default: stays).",
    worth=0.5,
    examples=("when you cross this: take 1 damage",),
)

# "Whenever another player ...": on a card in play or a held token, for its owner.
_OTHER = (
    ("other_plays", "play", "plays a card", 5.0),
    ("other_acquires", "acquire", "acquires a card", 2.0),
    ("other_discards", "discard", "discards a card", 0.5),
    ("other_trashes", "trash", "trashes a card", 0.5),
    ("other_draws", "draw", "draws a card", 5.0),
    ("other_takes_token", "reveal", "takes a token", 1.0),
)
for _name, _event, _does, _worth in _OTHER:
    _trigger(
        _name,
        _event,
        "other",
        (f"whenever another player {_does}", f"when another player {_does}"),
        _HELD,
        f"When another player than the owner {_does}; the effects act for the owner.",
        worth=_worth,
        examples=(f"whenever another player {_does}: +1 gold",),
    )

ZONE_TRIGGERS: dict[str, tuple[str, str, str]] = {
    "play": ("play", "play_card", "other_plays"),
    "acquire": ("acquire", "acquire_card", "other_acquires"),
    "discard": ("discard_this", "discard_card", "other_discards"),
    "trash": ("trash_this", "trash_card", "other_trashes"),
    "draw": ("draw_this", "draw_card", "other_draws"),
    "reveal": ("reveal", "take_token", "other_takes_token"),
}
"""Each zone event's three triggers: the component's own (``when you discard this``), the
owner's (``whenever you discard a card``) and another player's (``whenever another player
discards a card``)."""

# The card moments the engine runs as a card moves between zones (`CardDef.moments`).
CARD_MOMENTS: dict[str, str] = {
    "discard_this": "discard",
    "trash_this": "trash",
    "draw_this": "draw",
}


def trigger_event(name: str) -> str:
    """The event a trigger record watches."""
    return TRIGGERS[name].meta["event"]
