"""Per-player state and the effect context.

Cards are `CardDef` references (all copies of a design share one object); zones are plain
lists with the top of a deck at the end. Cube counts are numbers: a player's 30 cubes are
always split between supply, Clank! area, dragon bag (counted by the game) and health meter.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any

from .catalog import CardDef, TokenDef

ON_CLOCK = "on"
ESCAPED = "escaped"
KNOCKED_OUT = "knocked out"

# Marks on the types of declared state (`Game.STATE`, PlayerState's fields), read by
# interpreter/snapshot.py, the fingerprint and the invariant checks. An unmarked list or count
# of cards or tokens is a zone: where those components are.
SEAT = "seat"  # a PlayerState named by its seat (a reference, not the player's state)
IR = "ir"  # an IR node of some design's text: written as where it lies in that design
REF = "ref"  # names components that lie in some zone: not a zone itself
DESIGNS = "designs"  # one entry per design, not per copy (piles that never run out)
Node = Annotated[dict[str, Any], IR]
Nodes = Annotated[list[dict[str, Any]], IR]


@dataclass(eq=False, slots=True)
class PlayerState:
    """Everything one player owns and where they stand."""

    seat: int
    deck: list[CardDef] = field(default_factory=list)
    hand: list[CardDef] = field(default_factory=list)
    discard: list[CardDef] = field(default_factory=list)
    play: list[CardDef] = field(default_factory=list)
    # The turn's pool: lost when the turn ends.
    skill: int = 0
    swords: int = 0
    boots: int = 0
    # Negative Clank! not yet matched by a cube; it waits for Clank! later in the turn.
    clank_debt: int = 0
    gold: int = 0
    supply: int = 0
    area: int = 0
    damage: int = 0
    pos: int = 0
    exhausted: bool = False
    # Spaces entered this turn: each space's rewards are given once per turn.
    visited: set[int] = field(default_factory=set)
    artifact: TokenDef | None = None
    tokens: list[TokenDef] = field(default_factory=list)
    # Reached HQ with an artifact this turn: goes off the clock before the row is refilled.
    escaping: bool = False
    status: str = ON_CLOCK
    # "play if ..." lines still waiting for their condition this turn: (card, cond, effects).
    pending: list[Annotated[tuple[CardDef, Node, Nodes], REF]] = field(default_factory=list)
    # Declared resources (see pools.py) by name; the base ones are the fields above.
    pools: dict[str, int] = field(default_factory=dict)
    # Content actions used, by action key: the turn number of the last use (once per turn
    # compares it with the game's turn; once per game only asks whether the key is here).
    used: dict[str, int] = field(default_factory=dict)
    # "+N RESOURCE per TAG in play" gains of cards played this turn, as [ctx, node, given]:
    # cards played later raise the count, and the difference is given then.
    # (A list, as item[2] changes; written as the tuple of the mark.)
    recounts: list[Annotated[list[Any], REF, tuple[Ctx, Node, int]]] = field(default_factory=list)
    # Cards of the play area that stay in play for the next turn (told so this turn), and
    # those in their second turn (see effects/stay_in_play.py).
    staying: Annotated[list[CardDef], REF] = field(default_factory=list)
    held_over: Annotated[list[CardDef], REF] = field(default_factory=list)
    # A campaign game's marks: Checkmarks of Grudging Approval earned (why, one a mark), and
    # the boxes of personal goals filled this game, by goal (tools/campaign.py keeps both).
    checkmarks: list[str] = field(default_factory=list)
    goals: dict[str, int] = field(default_factory=dict)

    @property
    def on_clock(self) -> bool:
        """True while the player still takes regular turns."""
        return self.status == ON_CLOCK

    def cards(self) -> list[CardDef]:
        """Every card the player owns: deck, hand, discard pile and play area."""
        return [*self.deck, *self.hand, *self.discard, *self.play]

    def __repr__(self) -> str:
        return f"<player {self.seat} {self.status}>"


class Ctx:
    """Who an effect acts for and what caused it (a card, a token, or None)."""

    __slots__ = ("player", "source")

    def __init__(self, player: PlayerState, source: Any = None) -> None:
        self.player = player
        self.source = source

    def for_player(self, player: PlayerState) -> Ctx:
        """The same source acting for another player (for "each player")."""
        return Ctx(player, self.source)

    @property
    def source_name(self) -> str | None:
        """The source's name, for decisions and the log."""
        return getattr(self.source, "name", None)


# The game's state: every attribute a game changes, with its type (the marks above); it is
# `Game.STATE`. interpreter/snapshot.py writes and reads it; the fingerprint and the
# invariant checks walk it. A new field of the game is one line here (a test fails on an
# attribute that is in neither STATE nor NOT_STATE); every dataclass field of PlayerState is
# state. It is declared here, not in game.py, so that what reads the declared state without
# playing (the scenarios' compiler, for `state_facts`) does not import the whole engine.
GAME_STATE: dict[str, Any] = {
    "round": int,
    "turn": int,
    "over": bool,
    "capped": bool,
    "end_reason": str,
    "rules": dict[str, Any],
    "rng": random.Random,
    "order": list[int],
    "active": Annotated[PlayerState, SEAT],
    "players": list[PlayerState],
    "row": list[CardDef],
    "adventure_deck": list[CardDef],
    "adventure_discard": list[CardDef],
    "reserve": dict[CardDef, int],
    "reserve_monsters": Annotated[list[CardDef], DESIGNS],
    "trashed": list[CardDef],
    "rage": int,
    "bag": list[int],
    "black_aside": int,
    # Cube tokens of no player (a pack's `cube N` tokens) in the Clank! area and in the
    # bag; both are empty in a game whose pack declares none.
    "area_cubes": list[TokenDef],
    "bag_tokens": list[TokenDef],
    # The modules and sides at each position of a modular board ([position, module,
    # side]; empty for a plain board): a snapshot restores onto the same ship.
    "assembly": list[list[str]],
    "stacked_draws": list[int],
    "minor_bank": list[TokenDef],
    "major_bank": list[TokenDef],
    "space_tokens": list[list[TokenDef]],
    "space_artifact": list[TokenDef | None],
    "token_supply": dict[TokenDef, int],
    "box": list[TokenDef],
    # Once-per-turn and once-per-game triggers used ("uid@seat" -> turn).
    "used": dict[str, int],
    "new_dragon": bool,
    "left": list[int],
    "counters": dict[str, int],
    "turn_modifiers": Nodes,
    "turn_gained": dict[str, list[int]],
    # Contracts completed this game: [name, seat], in order.
    "completed_contracts": list[list[Any]],
    # A campaign game's marks for the campaign: X added to the pack's campaign tracks, by
    # track name, and the Book of Secrets passages to read after the game, in order
    # (tools/campaign.py reads them); each player's checkmarks and personal goals are on
    # PlayerState.
    "campaign_marks": dict[str, int],
    "reads": list[int],
}


def _fact_shape(tp: Any) -> str | None:
    """How a declared field reads as a fact: "bool", "int" (a number, or a zone's size)."""
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if tp is bool:
        return "bool"
    if tp is int or typing.get_origin(tp) in (list, dict, set) or tp in (list, dict, set):
        return "int"
    return None


@functools.lru_cache(maxsize=1)
def state_facts() -> tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]]:
    """Facts read straight from the declared state (`GAME_STATE`, PlayerState's fields), by
    their words (`black_aside` is `black aside`): a number or yes/no, a zone's size. The
    named facts (PLAYER_FACTS, GAME_FACTS in dsl/scenarios.py) come first; these give a
    scenario every field a change to the state declares."""
    hints = typing.get_type_hints(PlayerState, include_extras=True)
    fields = [(f.name, hints[f.name]) for f in dataclasses.fields(PlayerState)]
    return _facts(fields), _facts(GAME_STATE.items())


def _facts(fields: Iterable[tuple[str, Any]]) -> dict[tuple[str, ...], str]:
    # A loop, not a comprehension with `:=`: this module is compiled by Cython
    # (tests/interpreter/test_core.py says why that matters).
    out = {}
    for name, tp in fields:
        shape = _fact_shape(tp)
        if shape is not None:
            out[tuple(name.split("_"))] = shape
    return out
