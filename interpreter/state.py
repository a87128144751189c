"""The game state as declared, typed records: `GameState` and a `PlayerState` per seat.

Every field a game changes is declared here with its type; interpreter/snapshot.py writes
and reads the state by walking these declarations, and so do the fingerprint, the invariant
checks, the scenario facts and `interpreter.clone`. The engine's procedures are modules of
functions over this state (turn, events, cards, tokens, movement, dragon, economy...), bound
together by the `interpreter.game.Game` facade.

Cards are `CardDef` references (all copies of a design share one object); zones are plain
lists with the top of a deck at the end. Cube counts are numbers: a player's 30 cubes are
always split between supply, Clank! area, dragon bag (counted by the game) and health meter.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, ClassVar, get_args, get_origin, get_type_hints

from .board import Board
from .catalog import CardDef, Catalog, TokenDef
from .context import Ctx

ON_CLOCK = "on"
BLACK = -1  # a dragon cube in the bag; player cubes are the player's seat number
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
    # The path last moved along this turn (-1: none yet): "the tunnel you just crossed".
    crossed: int = -1
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
    # Statuses in force (see statuses.py): [name, ends, seat], ends "turn", "next turn" (the
    # seat's) or "game"; a prohibition is named "cannot use boots", "cannot move"...
    statuses: list[list[Any]] = field(default_factory=list)
    # Clank! cubes paid as a price (`pay 2 clank cubes`): in the box, out of the game.
    boxed_cubes: int = 0

    @property
    def on_clock(self) -> bool:
        """True while the player still takes regular turns."""
        return self.status == ON_CLOCK

    def cards(self) -> list[CardDef]:
        """Every card the player owns: deck, hand, discard pile and play area."""
        return [*self.deck, *self.hand, *self.discard, *self.play]

    def __repr__(self) -> str:
        return f"<player {self.seat} {self.status}>"


@dataclass(eq=False, repr=False, slots=True, init=False)
class GameState:
    """Everything a game changes, as declared fields with their types (marks above).

    A new field of the game is one line here: the snapshot writes and reads it, the
    fingerprint digests it, the invariant checks count what it holds and `Game.clone` copies
    it, each by its declared type. The order of the fields is the order they are written
    (and digested) in."""

    round: int
    turn: int
    over: bool
    capped: bool
    end_reason: str
    rules: dict[str, Any]
    rng: random.Random
    order: list[int]
    active: Annotated[PlayerState, SEAT]
    players: list[PlayerState]
    row: list[CardDef]
    adventure_deck: list[CardDef]
    adventure_discard: list[CardDef]
    reserve: dict[CardDef, int]
    reserve_monsters: Annotated[list[CardDef], DESIGNS]
    trashed: list[CardDef]
    # The rage marker: an index into rules["rage_track"].
    rage: int
    # The dragon bag: BLACK (-1) for a dragon cube, else the seat of the player whose it is.
    bag: list[int]
    black_aside: int
    # Cube tokens of no player (a pack's `cube N` tokens) in the Clank! area and in the bag;
    # both are empty in a game whose pack declares none.
    area_cubes: list[TokenDef]
    bag_tokens: list[TokenDef]
    # The modules and sides at each position of a modular board ([position, module, side];
    # empty for a plain board): a snapshot restores onto the same ship.
    assembly: list[list[str]]
    # Cubes a scenario stacks on top of the bag: drawn first, in this order (a player's seat,
    # BLACK, or -2 - k for the pack's k-th token, a cube token).
    stacked_draws: list[int]
    minor_bank: list[TokenDef]
    major_bank: list[TokenDef]
    # Tokens a space holds (placed at setup by `holds`; the top of each is its end), and the
    # artifact on an artifact space.
    space_tokens: list[list[TokenDef]]
    space_artifact: list[TokenDef | None]
    # Tokens lying on paths, by path index, in the order placed (a token on a tunnel).
    path_tokens: dict[int, list[TokenDef]]
    # The board's paths changed during the game: those closed (by index) and those added
    # ([from space, to space, boots], indexed after the printed paths). `board` is the
    # printed board so changed, with the extra boots of the tokens on paths (paths.reshape).
    closed_paths: list[int]
    added_paths: list[list[int]]
    # Each switch of the board (`switch NAME N` on its paths) and the state it is in.
    switches: dict[str, int]
    token_supply: dict[TokenDef, int]
    box: list[TokenDef]
    # Once-per-turn and once-per-game triggers used ("uid@seat" -> turn last fired).
    used: dict[str, int]
    # The end-of-turn refill added a card with the dragon symbol (for the attack step).
    new_dragon: bool
    # Seats in the order they went off the clock.
    left: list[int]
    # The pack's counters by name.
    counters: dict[str, int]
    # "This turn" effects of the active player and what they gained (effects/turn_modifiers).
    turn_modifiers: Nodes
    turn_gained: dict[str, list[int]]
    # Contracts completed this game: [name, seat], in order.
    completed_contracts: list[list[Any]]
    # A campaign game's marks for the campaign: X added to the pack's campaign tracks, by
    # track name, and the Book of Secrets passages to read after the game, in order
    # (tools/campaign.py reads them); each player's checkmarks and personal goals are on
    # PlayerState.
    campaign_marks: dict[str, int]
    reads: list[int]
    # A campaign game's passages read as they happened (a waypoint entered, a contract
    # completed: `campaign_marks.read_now`): [passage, seat, option chosen or -1, 1 for the
    # passage first asked for and 0 for one it led to]; and the contracts their lines opened
    # into the Contracts row this game, by name.
    passages_read: list[list[int]]
    opened_contracts: list[str]

    # The declared fields and their types, in order (set below, from the annotations).
    STATE: ClassVar[dict[str, Any]] = {}


def declared(cls: type) -> dict[str, Any]:
    """A dataclass's fields and their declared types (marks included), in order."""
    hints = get_type_hints(cls, include_extras=True)
    return {f.name: hints[f.name] for f in fields(cls)}


GameState.STATE = declared(GameState)


class GameCore(GameState):
    """A running game: its declared state, and what is not state (the pack, the players'
    bots, setup inputs, lookup tables made from the pack, the log and the result). The
    engine's modules are functions over this; `interpreter.game.Game` binds them as methods.

    What is not state is not written by a snapshot nor copied by `Game.clone` (shared, or
    made again): each name is in `NOT_STATE`, a test fails on an attribute in neither."""

    catalog: Catalog
    board: Board
    bots: list[Any]  # decisions.Bot
    _play_firsts: list[Any]  # each seat's `play_first`, looked up once (most bots: None)
    _actors: list[Any]  # each seat's `choose_action`
    seed: int
    first_player: int | None
    stacked_adventure: list[CardDef]
    # A scenario's stacked random outcomes (`rolls N...`, option indices from 0), taken
    # before the RNG rolls; a scenario input like the stacked adventure deck, not state.
    stacked_rolls: list[int]
    goals_before: list[dict[str, int]]
    stats: Any  # stats.GameStats or None: counters for simulations
    # The registries' handler tables (a dict lookup per node rather than the registry's).
    _effect: dict[str, Any]
    _condition: dict[str, Any]
    _count: dict[str, Any]
    log: list[dict[str, Any]]
    result: Any  # scoring.GameResult once the game is over
    # The pack's trigger tables: rules hooks by event, events held things watch, events
    # something watches, and those with the events a space watches.
    _rule_on: dict[str, Any]
    _held: frozenset[str]
    _watched: frozenset[str]
    _emits: frozenset[str]
    _track_gains: bool
    # The trigger depth and the game-end guard: back to 0 and False whenever a decision is
    # asked between actions.
    _depth: int
    _ending: bool
    _keep_log: bool
    _digest: bool  # digest the final state into the result (`scoring.final_result`)

    NOT_STATE: ClassVar[frozenset[str]] = frozenset(
        (
            "catalog",
            "board",
            "bots",
            "_play_firsts",
            "_actors",
            "seed",
            "first_player",
            "stacked_adventure",
            "stacked_rolls",
            "goals_before",
            "stats",
            "_effect",
            "_condition",
            "_count",
            "log",
            "result",
            "_rule_on",
            "_held",
            "_watched",
            "_emits",
            "_track_gains",
            "_depth",
            "_ending",
            "_keep_log",
            "_digest",
        )
    )
    __slots__ = tuple(sorted(NOT_STATE))


def _fact_shape(tp: Any) -> str | None:
    """How a declared field reads as a fact: "bool", "int" (a number, or a zone's size)."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if tp is bool:
        return "bool"
    if tp is int or get_origin(tp) in (list, dict, set) or tp in (list, dict, set):
        return "int"
    return None


@functools.lru_cache(maxsize=1)
def state_facts() -> tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]]:
    """Facts read straight from the declared state (`GameState`, PlayerState's fields), by
    their words (`black_aside` is `black aside`): a number or yes/no, a zone's size. The
    named facts (PLAYER_FACTS, GAME_FACTS in dsl/scenarios.py) come first; these give a
    scenario every field a change to the state declares. Here, not in the engine, so that
    what reads the declared state without playing (the scenarios' compiler) does not import
    the engine."""
    return _facts(declared(PlayerState).items()), _facts(GameState.STATE.items())


def _facts(declared_fields: Iterable[tuple[str, Any]]) -> dict[tuple[str, ...], str]:
    # A loop, not a comprehension with `:=`: this module is compiled by Cython
    # (tests/interpreter/test_core.py says why that matters).
    out = {}
    for name, tp in declared_fields:
        shape = _fact_shape(tp)
        if shape is not None:
            out[tuple(name.split("_"))] = shape
    return out
