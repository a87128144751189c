"""Statistics of simulated games: the engine's counting hook, run totals and the report.

`GameStats` is the hook a `Game` calls, when it is given one, as players enter spaces, walk
paths, acquire cards and defeat monsters, and as the dragon attacks. It only reads and counts:
a game plays, and logs, the same with or without it. `RunTotals` adds games up using whole
numbers and lists kept in game order only, so the totals of a run do not depend on how its
games were split between processes. `report` turns them into the simulation report described
by ``schemas/report.schema.json``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .assembly import label as assembly_label
from .board import TUNNEL
from .catalog import CardDef, Catalog, TokenDef
from .decisions import MAY, Option
from .effects.registry import render_count, render_effects
from .game import Game
from .intervals import ci as _ci
from .intervals import (
    difference_interval,
    half_width,
    mean_difference_interval,
    mean_interval,
    wilson,
)
from .intervals import num as _num
from .intervals import rate as _rate
from .intervals import rate_ci as _rate_ci
from .scoring import GameResult
from .state import ESCAPED, PlayerState
from .tension import RoundTrace, TensionTotals, tension_report

REPORT_FORMAT = "clankwork-report/1"


class GameStats:
    """Counters of one game, updated by the engine through the ``on_*`` hooks.

    Every hook receives the game first, so a subclass can look at the state (the replay
    narrator does); the base class only counts.
    """

    __slots__ = (
        "entries",
        "paths",
        "acquired",
        "could",
        "first_round",
        "defeated",
        "events",
        "tokens",
        "recycles",
        "attacks",
        "off_clock",
        "damage",
        "choices",
        "cubes",
        "actions",
        "ways",
        "offers",
        "chosen",
        "offered_by",
        "chosen_by",
        "_turn_offers",
        "_turn_seen",
        "_keys",
        "trace",
    )

    def __init__(self, spaces: int, players: int) -> None:
        self.entries = [0] * spaces  # arrivals on each space, by space index
        self.paths: dict[tuple[int, int], int] = {}  # walks along a path, (from, to) indexes
        self.acquired: list[dict[str, int]] = [{} for _ in range(players)]  # by card name
        # Cards each seat could have acquired on one of its turns (see `on_turn_end`).
        self.could: list[set[str]] = [set() for _ in range(players)]
        # The round of each seat's first copy of a card, by card name.
        self.first_round: list[dict[str, int]] = [{} for _ in range(players)]
        self.defeated: dict[str, int] = {}  # monsters, by card name
        self.events: dict[str, int] = {}  # events revealed from the adventure deck, by name
        # Tokens taken (secrets, market items bought, mugs...), by seat and token name.
        self.tokens: list[dict[str, int]] = [{} for _ in range(players)]
        self.recycles = 0  # times the adventure discard was shuffled into a new deck
        self.attacks = 0  # dragon attacks on the clock (row refills and effects)
        self.off_clock = 0  # attacks of off-the-clock turns
        self.damage = [0] * players  # damage dealt by dragon cubes, by seat
        # Answers to what spaces ask (an entry toll's choice, a "may" there), by (space index,
        # the option's text).
        self.choices: dict[tuple[int, str], int] = {}
        self.cubes: dict[str, int] = {}  # cube tokens drawn from the bag, by token name
        self.actions: dict[str, int] = {}  # a pack's `action` lines taken, by name
        self.ways: dict[str, int] = {}  # moves along paths and ways, by way (tunnel, ...)
        # What players could take and what they took, by (kind, name) (`offer_keys`): the
        # player-turns each thing was offered on, and the times it was chosen; the things each
        # seat was offered at least once, and chose at least once; this turn's offers.
        self.offers: dict[tuple[str, str], int] = {}
        self.chosen: dict[tuple[str, str], int] = {}
        self.offered_by: list[set[tuple[str, str]]] = [set() for _ in range(players)]
        self.chosen_by: list[set[tuple[str, str]]] = [set() for _ in range(players)]
        self._turn_offers: set[tuple[str, str]] = set()
        # The options listed to the active player this turn (by id), and each option's
        # `offer_keys` (by id, with the option, which keeps its id its own): the engine lists
        # the same cached options decision after decision, and a turn counts each once.
        self._turn_seen: set[int] = set()
        self._keys: dict[int, tuple[Option, tuple[tuple[str, str], ...]]] = {}
        self.trace = RoundTrace(players)  # provisional scores by round (interpreter/tension.py)

    @classmethod
    def for_game(cls, catalog: Catalog, players: int) -> GameStats:
        """Empty counters sized for one board and player count."""
        return cls(catalog.space_slots, players)

    def on_enter(self, game: Game, player: PlayerState, space: int) -> None:
        """A player arrives on a space (by a path, a coach or a teleport)."""
        self.entries[space] += 1

    def on_move(
        self, game: Game, player: PlayerState, src: int, dst: int, way: str = "tunnel"
    ) -> None:
        """A player moves along a path or a declared way (its name: "tunnel" for a plain
        path), called just before `on_enter`."""
        key = (src, dst)
        self.paths[key] = self.paths.get(key, 0) + 1
        self.ways[way] = self.ways.get(way, 0) + 1

    def on_acquire(self, game: Game, player: PlayerState, card: CardDef) -> None:
        """A player acquires a card from the row or the reserve."""
        got = self.acquired[player.seat]
        got[card.name] = got.get(card.name, 0) + 1
        first = self.first_round[player.seat]
        if card.name not in first:
            first[card.name] = game.round

    def on_options(
        self, game: Game, player: PlayerState, options: Sequence[Option], choice: int
    ) -> None:
        """The active player is offered ``options`` (an action decision) and takes the one at
        ``choice``. An offer counts once a turn however many decisions list it (a bot that
        names its plays first is shown the list only between plays)."""
        turn = self._turn_offers
        seen = self._turn_seen
        for o in options:
            if id(o) not in seen:
                seen.add(id(o))
                keys = self._offered(game, o)
                if keys:
                    turn.update(keys)
        taken = self._offered(game, options[choice])
        if taken:
            chosen = self.chosen
            for key in taken:
                chosen[key] = chosen.get(key, 0) + 1
            self.chosen_by[player.seat].update(taken)

    def _offered(self, game: Game, option: Option) -> tuple[tuple[str, str], ...]:
        """`offer_keys` of ``option``, worked out once a game (an option's value, and the
        game's board, do not change)."""
        known = self._keys.get(id(option))
        if known is None:
            known = self._keys[id(option)] = (option, offer_keys(game, option.value))
        return known[1]

    def on_turn_end(self, game: Game, player: PlayerState) -> None:
        """The active player ends a turn (before the end-of-turn steps refill the row).

        A card the player could have acquired this turn is one of the row or a reserve pile
        that the turn's skill (all of it, spent or not) pays for: with what is bought this
        turn, that is the row the turn began with. The card's `only_in` space is not asked
        for: the player could have walked there.
        """
        if self._turn_offers:
            offers = self.offers
            for key in self._turn_offers:
                offers[key] = offers.get(key, 0) + 1
            self.offered_by[player.seat].update(self._turn_offers)
            self._turn_offers = set()
        self._turn_seen.clear()
        self.trace.on_turn_end(game, player)
        gained = game.turn_gained.get("skill")
        skill = gained[0] if gained else 0
        if not skill:
            return
        could = self.could[player.seat]
        for card in game.row:
            if card.type == "acquire" and card.cost <= skill:
                could.add(card.name)
        for card, left in game.reserve.items():
            if left and card.cost <= skill:
                could.add(card.name)

    def on_defeat(self, game: Game, player: PlayerState, card: CardDef) -> None:
        """A player defeats a monster of the row or the reserve."""
        self.defeated[card.name] = self.defeated.get(card.name, 0) + 1

    def on_event(self, game: Game, card: CardDef) -> None:
        """An event is revealed from the adventure deck (as the row is refilled)."""
        self.events[card.name] = self.events.get(card.name, 0) + 1

    def on_recycle(self, game: Game) -> None:
        """The adventure deck ran out and its discard pile is shuffled into a new one."""
        self.recycles += 1

    def on_token(self, game: Game, player: PlayerState, token: TokenDef) -> None:
        """A player takes a token: a secret, a market item bought, an artifact, a mug..."""
        got = self.tokens[player.seat]
        got[token.name] = got.get(token.name, 0) + 1

    def on_choice(
        self, game: Game, player: PlayerState, space: int, kind: str, label: str, detail: Any
    ) -> None:
        """A player answers a decision a space's line put to them (``label``: the option
        taken; a "may" is told by what it offers)."""
        if kind == MAY and isinstance(detail, dict) and "do" in detail:
            label = f"{render_effects(detail['do'])}: {label}"
        key = (space, label)
        self.choices[key] = self.choices.get(key, 0) + 1

    def on_attack(self, game: Game, cubes: int, off_clock: bool) -> None:
        """The dragon is about to draw ``cubes`` cubes (the Clank! area is in the bag)."""
        if off_clock:
            self.off_clock += 1
        else:
            self.attacks += 1

    def on_cube_token(self, game: Game, token: TokenDef) -> None:
        """A cube token (a pack's `cube N` token, no player's) is drawn from the bag."""
        self.cubes[token.name] = self.cubes.get(token.name, 0) + 1

    def on_roll(self, game: Game, player: PlayerState, pick: int, source: Any, detail: Any) -> None:
        """A random outcome came up for the player: option ``pick`` of ``detail`` (the roll's
        node), from ``source`` (the name of the card, token or space whose line rolled).
        Counted by nothing here; the replay's narrator tells it."""

    def on_act(self, game: Game, player: PlayerState, name: str) -> None:
        """A player takes a pack's `action` line (counted by its name, or its label)."""
        self.actions[name] = self.actions.get(name, 0) + 1

    def on_hit(self, game: Game, player: PlayerState) -> None:
        """A drawn cube of a player on the clock deals them one damage."""
        self.damage[player.seat] += 1


# The kinds of things the report counts offers of, in the order it lists them.
OFFER_KINDS = ("card", "monster", "market", "token", "action", "way", "space")


def offer_keys(game: Game, value: tuple[Any, ...]) -> tuple[tuple[str, str], ...]:
    """What an action option offers, as (kind, name) pairs: the card it acquires ("card") or
    the monster it fights, the market item it buys, the token it uses, the pack's action it
    takes, the declared way it moves by (a coach is the way "coach") and the space it enters
    when that space has `when you enter` lines. Playing a card, taking an artifact and ending
    the turn offer none of these."""
    kind = value[0]
    verb = kind.verb
    if verb == "acquire":
        return (("card", value[1].name),)
    if verb == "move":
        m = value[1]
        out = [] if m.way is TUNNEL else [("way", m.way.name)]
        sp = game.board.spaces[m.to]
        if sp.on.get("enter"):
            out.append(("space", sp.name))
        return tuple(out)
    if verb == "act":
        a = value[1]
        return (("action", a.name or a.label),)
    if verb == "buy":
        return (("market", value[2].name),)
    if verb == "use":
        return (("token", value[1].name),)
    if verb == "fight":
        return (("monster", value[1].name),)
    if verb == "coach":
        sp = game.board.spaces[value[1]]
        return (("way", "coach"), ("space", sp.name)) if sp.on.get("enter") else (("way", "coach"),)
    return ()


# Games whose per-game record the report lists (the first ones of the run, in game order), and
# capped games it names: bounded, so a million-game run's totals stay the size of a few games.
RESULTS_KEPT = 1000
CAPPED_KEPT = 100
# Failed games the report lists with their error (it counts them all).
FAILURES_KEPT = 100


def _add_lists(a: list[int], b: list[int]) -> list[int]:
    if len(a) < len(b):
        a = a + [0] * (len(b) - len(a))
    for k, v in enumerate(b):
        a[k] += v
    return a


# Whole-number fields added up by `merge`; Counters are updated, lists added by index.
_SUMS = (
    "games",
    "no_winner",
    "shared",
    "escapes",
    "knockouts",
    "deaths",
    "all_knocked_out",
    "capped_count",
    "failed",
    "turns",
    "turns_sq",
    "attacks",
    "attacks_sq",
    "off_clock",
    "off_clock_sq",
    "damage",
    "damage_sq",
    "recycles",
    "recycles_sq",
)
_LISTS = (
    "wins_seat",
    "wins_player",
    "score_sum_seat",
    "score_sq_seat",
    "games_seat",
    "win_shares_seat",
)
# A shared win is split between its winners: a seat's share of a game is counted in
# SHARE_UNIT-ths, a whole number for any number of winners up to 8.
SHARE_UNIT = 840
_COUNTERS = (
    "score_hist",
    "winning_hist",
    "round_hist",
    "end_reasons",
    "spaces",
    "paths",
    "acquired",
    "acquirers",
    "acquirer_wins",
    "passers",
    "passer_wins",
    "first_round_sum",
    "first_round_sq",
    "defeated",
    "defeated_sq",
    "events",
    "events_sq",
    "token_taken",
    "token_taken_sq",
    "token_players",
    "token_wins",
    "reserve_empty",
    "artifact_taken",
    "artifact_escaped",
    "artifact_wins",
    "choices",
    "choices_sq",
    "actions",
    "actions_sq",
    "cubes",
    "cubes_sq",
    "moves",
    "moves_sq",
    "offers",
    "offers_sq",
    "chosen",
    "chosen_sq",
    "offer_players",
    "chooser_players",
)


@dataclass
class RunTotals:
    """What a run adds up over its games, folded as they come: counts, sums of squares and
    histograms of whole numbers, so its size does not grow with the number of games.

    Only the records of games numbered below ``keep`` (`RESULTS_KEPT`), the first
    `CAPPED_KEPT` capped games and the first `FAILURES_KEPT` failed games are listed. A
    failed game (an engine error, a broken invariant) is counted in ``failed`` and nowhere
    else: the figures are those of the games that finished. ``merge`` adds a part that comes
    after this one in game order; every figure is a whole number, so the totals are exact for
    any split.
    """

    keep: int = RESULTS_KEPT
    games: int = 0
    no_winner: int = 0
    shared: int = 0
    escapes: int = 0
    knockouts: int = 0
    deaths: int = 0
    all_knocked_out: int = 0
    capped_count: int = 0
    turns: int = 0
    turns_sq: int = 0
    attacks: int = 0  # on-the-clock dragon attacks, and their squares per game
    attacks_sq: int = 0
    off_clock: int = 0
    off_clock_sq: int = 0
    damage: int = 0
    damage_sq: int = 0
    recycles: int = 0  # adventure deck reshuffles, and their squares per game
    recycles_sq: int = 0
    wins_seat: list[int] = field(default_factory=list)  # by place in turn order
    wins_player: list[int] = field(default_factory=list)  # by bot position
    score_sum_seat: list[int] = field(default_factory=list)
    score_sq_seat: list[int] = field(default_factory=list)
    games_seat: list[int] = field(default_factory=list)  # scores counted per seat
    # Each seat's wins with a shared win split between its winners, in SHARE_UNIT-ths.
    win_shares_seat: list[int] = field(default_factory=list)
    score_hist: Counter[int] = field(default_factory=Counter)  # every final score
    winning_hist: Counter[int] = field(default_factory=Counter)  # the best score of won games
    round_hist: Counter[int] = field(default_factory=Counter)
    end_reasons: Counter[str] = field(default_factory=Counter)
    capped_games: list[tuple[int, int]] = field(default_factory=list)  # (game, seed), first ones
    failed: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)  # first ones (`add_failure`)
    records: list[dict[str, Any]] = field(default_factory=list)  # games below ``keep``
    # Arrivals by space name and walks by (from, to) names: each game's own board names them,
    # so the games of a modular board, each on its own ship, add up by room.
    spaces: Counter[str] = field(default_factory=Counter)
    paths: Counter[tuple[str, str]] = field(default_factory=Counter)
    acquired: Counter[str] = field(default_factory=Counter)  # copies
    acquirers: Counter[str] = field(default_factory=Counter)  # players who took one or more
    acquirer_wins: Counter[str] = field(default_factory=Counter)
    # Player-games that could have acquired a card on a turn and never did, and their wins.
    passers: Counter[str] = field(default_factory=Counter)
    passer_wins: Counter[str] = field(default_factory=Counter)
    # Sums of the round of each player-game's first copy of a card, and of their squares.
    first_round_sum: Counter[str] = field(default_factory=Counter)
    first_round_sq: Counter[str] = field(default_factory=Counter)
    defeated: Counter[str] = field(default_factory=Counter)
    defeated_sq: Counter[str] = field(default_factory=Counter)  # squares of per-game counts
    events: Counter[str] = field(default_factory=Counter)
    events_sq: Counter[str] = field(default_factory=Counter)
    token_taken: Counter[str] = field(default_factory=Counter)
    token_taken_sq: Counter[str] = field(default_factory=Counter)
    token_players: Counter[str] = field(default_factory=Counter)  # player-games taking one
    token_wins: Counter[str] = field(default_factory=Counter)
    reserve_empty: Counter[str] = field(default_factory=Counter)  # games a pile ran out
    artifact_taken: Counter[str] = field(default_factory=Counter)
    artifact_escaped: Counter[str] = field(default_factory=Counter)
    artifact_wins: Counter[str] = field(default_factory=Counter)
    # Answers to spaces' decisions by (space name, option), and the squares of their
    # per-game counts.
    choices: Counter[tuple[str, str]] = field(default_factory=Counter)
    choices_sq: Counter[tuple[str, str]] = field(default_factory=Counter)
    # A pack's `action` lines taken, by name, and cube tokens drawn, by token name (with
    # the squares of their per-game counts).
    actions: Counter[str] = field(default_factory=Counter)
    actions_sq: Counter[str] = field(default_factory=Counter)
    cubes: Counter[str] = field(default_factory=Counter)
    cubes_sq: Counter[str] = field(default_factory=Counter)
    # Moves by way ("tunnel" for a plain path, else the pack's way), with the squares.
    moves: Counter[str] = field(default_factory=Counter)
    moves_sq: Counter[str] = field(default_factory=Counter)
    # What players were offered and chose, by (kind, name) (`GameStats.on_options`): the
    # player-turns offered and the times chosen, with the squares of their per-game counts;
    # the player-games offered it at least once, and those of them that chose it.
    offers: Counter[tuple[str, str]] = field(default_factory=Counter)
    offers_sq: Counter[tuple[str, str]] = field(default_factory=Counter)
    chosen: Counter[tuple[str, str]] = field(default_factory=Counter)
    chosen_sq: Counter[tuple[str, str]] = field(default_factory=Counter)
    offer_players: Counter[tuple[str, str]] = field(default_factory=Counter)
    chooser_players: Counter[tuple[str, str]] = field(default_factory=Counter)
    # Lead changes, comebacks, margins, the escape race (interpreter/tension.py).
    tension: TensionTotals = field(default_factory=TensionTotals)

    def add_result(self, index: int, result: GameResult) -> None:
        """Count one game's result (what the engine's counters do not see)."""
        players = result.players
        for name in _LISTS:
            if len(getattr(self, name)) < players:
                setattr(self, name, _add_lists(getattr(self, name), [0] * players))
        self.games += 1
        for w in result.winners:
            self.wins_seat[result.seat_of(w)] += 1
            self.wins_player[w] += 1
            self.win_shares_seat[result.seat_of(w)] += SHARE_UNIT // len(result.winners)
        for p, s in enumerate(result.scores):
            seat = result.seat_of(p)
            self.score_sum_seat[seat] += s
            self.score_sq_seat[seat] += s * s
            self.games_seat[seat] += 1
        self.score_hist.update(result.scores)
        if result.winners:
            self.winning_hist[max(result.scores)] += 1
        else:
            self.no_winner += 1
        if len(result.winners) > 1:
            self.shared += 1
        self.round_hist[result.rounds] += 1
        self.turns += result.turns
        self.turns_sq += result.turns * result.turns
        self.escapes += result.escapes
        self.knockouts += result.knockouts
        self.deaths += sum(result.zeroed)
        self.all_knocked_out += bool(result.all_knocked_out)
        self.end_reasons[result.end_reason] += 1
        if result.capped:
            self.capped_count += 1
            if len(self.capped_games) < CAPPED_KEPT:
                self.capped_games.append((index, result.seed))
        if index < self.keep:
            record = {k: v for k, v in result.record().items() if k != "type"}
            self.records.append({"game": index, "seed": result.seed, **record})

    def add_failure(self, index: int, seed: int, turn: int, error: str) -> None:
        """Count a game that failed on turn ``turn`` with ``error`` (its type and message)."""
        self.failed += 1
        if len(self.failures) < FAILURES_KEPT:
            self.failures.append({"game": index, "seed": seed, "turn": turn, "error": error})

    def add(self, index: int, game: Game, stats: GameStats) -> None:
        """Count one finished game (its result, its end state and its counters)."""
        result = game.result
        assert result is not None
        self.add_result(index, result)
        self.tension.add(index, result, stats.trace)
        names = [sp.name for sp in game.board.spaces]
        self.spaces.update({names[s]: n for s, n in enumerate(stats.entries) if n})
        self.paths.update({(names[a], names[b]): n for (a, b), n in stats.paths.items()})
        won = set(result.winners)
        self._add_acquisitions(stats, won)
        self._add_per_game_counts(stats)
        self._add_tokens(stats, won)
        self._add_end_state(game, won)
        if stats.choices:
            spaces = game.board.spaces
            chosen = {(spaces[s].name, label): n for (s, label), n in stats.choices.items()}
            self.choices.update(chosen)
            self.choices_sq.update({k: n * n for k, n in chosen.items()})
        self._add_dragon(stats)

    def _add_acquisitions(self, stats: GameStats, won: set[int]) -> None:
        """Count the cards each player acquired and those they could have and passed, with
        whether they won, and the round of their first copy."""
        for seat, got in enumerate(stats.acquired):
            self.acquired.update(got)
            self.acquirers.update(got.keys())
            passed = stats.could[seat].difference(got)
            self.passers.update(passed)
            if seat in won:
                self.acquirer_wins.update(got.keys())
                self.passer_wins.update(passed)
            first = stats.first_round[seat]
            self.first_round_sum.update(first)
            self.first_round_sq.update({k: v * v for k, v in first.items()})

    def _add_per_game_counts(self, stats: GameStats) -> None:
        """Add the game's counts by name (monsters defeated, events, actions, cube tokens,
        moves by way, offers and choices) with their squares, and who was offered what."""
        self.defeated.update(stats.defeated)
        self.defeated_sq.update({k: v * v for k, v in stats.defeated.items()})
        self.events.update(stats.events)
        self.events_sq.update({k: v * v for k, v in stats.events.items()})
        self.actions.update(stats.actions)
        self.actions_sq.update({k: v * v for k, v in stats.actions.items()})
        self.cubes.update(stats.cubes)
        self.cubes_sq.update({k: v * v for k, v in stats.cubes.items()})
        self.moves.update(stats.ways)
        self.moves_sq.update({k: v * v for k, v in stats.ways.items()})
        self.offers.update(stats.offers)
        self.offers_sq.update({k: v * v for k, v in stats.offers.items()})
        self.chosen.update(stats.chosen)
        self.chosen_sq.update({k: v * v for k, v in stats.chosen.items()})
        for offered, chose in zip(stats.offered_by, stats.chosen_by, strict=True):
            self.offer_players.update(offered)
            self.chooser_players.update(offered & chose)

    def _add_tokens(self, stats: GameStats, won: set[int]) -> None:
        """Count the tokens taken in the game, the players who took each and their wins."""
        taken: Counter[str] = Counter()
        for seat, got in enumerate(stats.tokens):
            taken.update(got)
            self.token_players.update(got.keys())
            if seat in won:
                self.token_wins.update(got.keys())
        self.token_taken.update(taken)
        self.token_taken_sq.update({k: v * v for k, v in taken.items()})

    def _add_end_state(self, game: Game, won: set[int]) -> None:
        """Count what the game's end state shows: the artifacts taken (escaped with, won
        with) and the reserve piles that ran out."""
        for p in game.players:
            if p.artifact is not None:
                self.artifact_taken[p.artifact.name] += 1
                if p.status == ESCAPED:
                    self.artifact_escaped[p.artifact.name] += 1
                if p.seat in won:
                    self.artifact_wins[p.artifact.name] += 1
        for card, left in game.reserve.items():
            if not left:
                self.reserve_empty[card.name] += 1

    def _add_dragon(self, stats: GameStats) -> None:
        """Add the game's adventure-deck reshuffles and dragon attacks and damage, with their
        squares."""
        self.recycles += stats.recycles
        self.recycles_sq += stats.recycles * stats.recycles
        damage = sum(stats.damage)
        self.attacks += stats.attacks
        self.attacks_sq += stats.attacks * stats.attacks
        self.off_clock += stats.off_clock
        self.off_clock_sq += stats.off_clock * stats.off_clock
        self.damage += damage
        self.damage_sq += damage * damage

    def merge(self, other: RunTotals) -> None:
        """Add another part of the run, which comes after this one in game order."""
        for name in _SUMS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in _LISTS:
            setattr(self, name, _add_lists(getattr(self, name), getattr(other, name)))
        for name in _COUNTERS:
            getattr(self, name).update(getattr(other, name))
        self.tension.merge(other.tension)
        room = CAPPED_KEPT - len(self.capped_games)
        self.capped_games += other.capped_games[: max(room, 0)]
        room = FAILURES_KEPT - len(self.failures)
        self.failures += other.failures[: max(room, 0)]
        self.records += [r for r in other.records if r["game"] < self.keep]


def _nth(hist: Counter[int], ks: Sequence[int]) -> list[int]:
    """The values at sorted positions ``ks`` (ascending) of the values a histogram counts."""
    out: list[int] = []
    want = iter(ks)
    k = next(want, None)
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        while k is not None and k < seen:
            out.append(value)
            k = next(want, None)
    return out


def _quantile(hist: Counter[int], n: int, i: int, parts: int) -> float | int:
    # statistics.quantiles(method="inclusive") on the sorted values, the same arithmetic.
    j, delta = divmod(i * (n - 1), parts)
    a, b = _nth(hist, [j, j + 1])
    return (a * (parts - delta) + b * delta) / parts


def _median(hist: Counter[int], n: int) -> float | int:
    if n % 2:
        return _nth(hist, [n // 2])[0]
    a, b = _nth(hist, [n // 2 - 1, n // 2])
    return (a + b) / 2


def hist_distribution(hist: Counter[int]) -> dict[str, Any]:
    """Mean (with its interval), quartiles, min and max of the values a histogram counts,
    exactly as `distribution` gives them for the values themselves."""
    n = sum(hist.values())
    if not n:
        return {
            "mean": 0,
            "mean_ci": _ci((0.0, 0.0)),
            "min": 0,
            "q1": 0,
            "median": 0,
            "q3": 0,
            "max": 0,
        }
    total = sum(v * c for v, c in hist.items())
    squares = sum(v * v * c for v, c in hist.items())
    if n == 1:
        q1 = q3 = min(hist)
    else:
        q1, q3 = _quantile(hist, n, 1, 4), _quantile(hist, n, 3, 4)
    return {
        "mean": _num(total / n),
        "mean_ci": _ci(mean_interval(total, squares, n)),
        "min": min(hist),
        "q1": _num(q1),
        "median": _num(_median(hist, n)),
        "q3": _num(q3),
        "max": max(hist),
    }


def distribution(values: Sequence[int]) -> dict[str, float | int]:
    """Mean, quartiles, min and max (inclusive quartiles; zeros when there is no value)."""
    if not values:
        return {"mean": 0, "min": 0, "q1": 0, "median": 0, "q3": 0, "max": 0}
    if len(values) == 1:
        q1 = q3 = values[0]
    else:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return {
        "mean": _num(statistics.fmean(values)),
        "min": min(values),
        "q1": _num(q1),
        "median": _num(statistics.median(values)),
        "q3": _num(q3),
        "max": max(values),
    }


def percentile(values: Sequence[int], p: int) -> float | int:
    """The ``p``-th percentile (inclusive method; 0 for no values)."""
    if not values:
        return 0
    if len(values) == 1:
        return values[0]
    return _num(statistics.quantiles(values, n=100, method="inclusive")[p - 1])


def heatmap(totals: RunTotals, catalog: Catalog) -> dict[str, Any]:
    """Space arrivals and path walks by name, every space and path of the board included,
    in the format `clankwork render board --heatmap` reads."""
    board = catalog.board
    paths: dict[str, int] = {}
    for s, moves in enumerate(board.moves):
        for m in moves:
            # Parallel paths between the same two spaces share one key, as in the heatmap.
            a, b = board.spaces[s].name, board.spaces[m.to].name
            key = f"{a}->{b}"
            if key not in paths:
                paths[key] = totals.paths[(a, b)]
    spaces = {sp.name: totals.spaces[sp.name] for sp in board.spaces}
    # A modular board's games were played on other ships too: their other rooms and paths
    # follow, by name.
    for name in sorted(totals.spaces):
        spaces.setdefault(name, totals.spaces[name])
    for a, b in sorted(totals.paths):
        paths.setdefault(f"{a}->{b}", totals.paths[(a, b)])
    return {
        "board": board.name,
        "games": totals.games,
        "spaces": spaces,
        "paths": paths,
    }


def seat_half_width(totals: RunTotals, players: int) -> float:
    """The widest half-width of the seats' win-rate intervals (1 before any game)."""
    if not totals.games:
        return 1.0
    wins = totals.wins_seat + [0] * (players - len(totals.wins_seat))
    return max(half_width(w, totals.games) for w in wins[:players])


def first_player(
    share: float, decided: int, players: int, games: int | None = None
) -> dict[str, Any]:
    """Seat 1's share of the games that have a winner against its fair share (1 / players),
    with a plain verdict. ``share`` is seat 1's wins with a shared win split between its
    winners, ``decided`` the games with a winner, ``games`` all the games (the verdict says
    how many had no winner and were left out)."""
    fair = 1 / players
    low, high = wilson(share, decided)
    rate = share / decided if decided else 0.0
    games = decided if games is None else games
    left = games - decided
    said = f"{rate:.1%} [{low * 100:.1f}–{high * 100:.1f}] vs {fair:.0%}"
    said += f" of the {decided} games with a winner" if left else ""
    said += " (shared wins split" + (f"; {left} without a winner left out)" if left else ")")
    if players < 2 or not decided:
        verdict = "no first-player advantage to measure"
    elif low > fair:
        verdict = f"seat 1 wins more than its share: {said}"
    elif high < fair:
        verdict = f"seat 1 wins less than its share: {said}"
    else:
        verdict = f"no clear first-player advantage: {said}"
    return {
        "win_rate": _rate(share, decided),
        "win_rate_ci": _ci((low, high)),
        "fair": _num(fair),
        "games": decided,
        "verdict": verdict,
    }


def _modules_entry(catalog: Catalog, modules: str | None) -> dict[str, Any]:
    """The report's ``modules``: on a modular board, the assembly every game played on, in
    the words a log's header uses, or None when each game drew its own; nothing on a board
    without modules."""
    if catalog.modular is None:
        return {}
    if not modules:
        return {"modules": None}
    chosen = catalog.choose_assembly(None, modules)
    assert chosen is not None  # a modular board's named assembly, or a ValueError
    return {"modules": assembly_label(catalog.modular, chosen)}


def _pad(xs: list[int], players: int) -> list[int]:
    """A per-seat list filled out with zeros to ``players`` seats (a seat nobody scored in)."""
    return xs + [0] * (players - len(xs))


def _per_game(total: int, sq: int, games: int) -> dict[str, Any]:
    """A count over the run: its total, its mean a game and that mean's 95 % interval
    (``sq``: the sum of the squares of its per-game counts)."""
    return {
        "total": total,
        "per_game": _rate(total, games),
        "per_game_ci": _ci(mean_interval(total, sq, games)),
    }


def _often(counts: Counter[Any], squares: Counter[Any], name: Any, games: int) -> dict[str, Any]:
    """How often a game counted ``name``: `_per_game` without the total (the row has it)."""
    figures = _per_game(counts[name], squares[name], games)
    return {"per_game": figures["per_game"], "per_game_ci": figures["per_game_ci"]}


def _pack_entry(catalog: Catalog) -> dict[str, Any]:
    """The report's ``pack``: its name and version, and what it calls its antagonist when it
    names one (`dragon { ... }`): the words the text report and the HTML page use for the
    "dragon" figures."""
    return {
        "name": catalog.name,
        "version": catalog.version,
        **(
            {"dragon": {"name": catalog.dragon_name, "word": catalog.dragon_word}}
            if (catalog.dragon_name, catalog.dragon_word) != ("the dragon", "dragon")
            else {}
        ),
    }


def _wins_entry(t: RunTotals, bots: Sequence[str]) -> dict[str, Any]:
    """The report's ``wins``: by seat (with the seat's mean score) and by bot position,
    against the baseline any player has, and whether seat 1 wins more than its share."""
    games, players = t.games, len(bots)
    wins_seat, wins_player = _pad(t.wins_seat, players), _pad(t.wins_player, players)
    sums, squares = _pad(t.score_sum_seat, players), _pad(t.score_sq_seat, players)
    counts = _pad(t.games_seat, players)
    all_wins, player_games = sum(wins_player), games * players
    return {
        "by_seat": [
            {
                "seat": k + 1,
                "wins": w,
                "win_rate": _rate(w, games),
                "win_rate_ci": _rate_ci(w, games),
                "mean_score": _num(sums[k] / counts[k]) if counts[k] else 0,
                "mean_score_ci": _ci(mean_interval(sums[k], squares[k], counts[k])),
            }
            for k, w in enumerate(wins_seat)
        ],
        "by_player": [
            {
                "player": k + 1,
                "bot": bots[k],
                "wins": w,
                "win_rate": _rate(w, games),
                "win_rate_ci": _rate_ci(w, games),
            }
            for k, w in enumerate(wins_player)
        ],
        "no_winner": t.no_winner,
        "shared": t.shared,
        "baseline_win_rate": _rate(all_wins, player_games),
        "baseline_win_rate_ci": _rate_ci(all_wins, player_games),
        "first_player": first_player(
            _pad(t.win_shares_seat, players)[0] / SHARE_UNIT if players else 0,
            games - t.no_winner,
            max(players, 1),
            games,
        ),
    }


def _length_entries(t: RunTotals) -> dict[str, Any]:
    """The report's ``scores``, ``histograms``, ``rounds`` and ``turns``: how the final
    scores and the games' lengths are spread."""
    games = t.games
    rounds = hist_distribution(t.round_hist)
    p95 = 0
    if games == 1:
        p95 = min(t.round_hist)
    elif games:
        p95 = _num(_quantile(t.round_hist, games, 95, 100))
    return {
        "scores": {
            "all": hist_distribution(t.score_hist),
            "winning": hist_distribution(t.winning_hist),
        },
        # [value, count] pairs, ascending: what the histograms of `simulate --html` draw.
        "histograms": {
            "scores": sorted([v, n] for v, n in t.score_hist.items()),
            "winning_scores": sorted([v, n] for v, n in t.winning_hist.items()),
            "rounds": sorted([v, n] for v, n in t.round_hist.items()),
        },
        "rounds": {
            "mean": rounds["mean"],
            "mean_ci": rounds["mean_ci"],
            "median": rounds["median"],
            "p95": p95,
            "min": rounds["min"],
            "max": rounds["max"],
        },
        "turns": {
            "mean": _rate(t.turns, games),
            "mean_ci": _ci(mean_interval(t.turns, t.turns_sq, games)),
        },
    }


def _ending_entries(t: RunTotals, players: int, round_cap: Any) -> dict[str, Any]:
    """The report's escapes, knock-outs and deaths (a share of the player-games), and how
    the games ended: by which end condition, and how many hit the round cap."""
    games = t.games
    player_games = games * players

    def counted(total: int) -> dict[str, Any]:
        return {
            "total": total,
            "rate": _rate(total, player_games),
            "rate_ci": _rate_ci(total, player_games),
        }

    return {
        "escapes": counted(t.escapes),
        "knockouts": counted(t.knockouts),
        "deaths": counted(t.deaths),
        "everyone_knocked_out": t.all_knocked_out,
        "end_reasons": dict(sorted(t.end_reasons.items())),
        "capped": {
            "count": t.capped_count,
            "rate": _rate(t.capped_count, games),
            "rate_ci": _rate_ci(t.capped_count, games),
            "round_cap": round_cap,
            "games": [{"game": i, "seed": s} for i, s in t.capped_games],
        },
    }


def _dragon_entries(t: RunTotals, catalog: Catalog, row_size: Any) -> dict[str, Any]:
    """The report's ``dragon`` (its attacks, on and off the clock, and their damage) and
    ``adventure_deck`` (its size, the row's and how often it was reshuffled)."""
    games = t.games
    return {
        "dragon": {
            "attacks": _per_game(t.attacks, t.attacks_sq, games),
            "off_clock_attacks": _per_game(t.off_clock, t.off_clock_sq, games),
            "damage": _per_game(t.damage, t.damage_sq, games),
        },
        "adventure_deck": {
            "cards": sum(c.copies for c in catalog.adventure),
            "row": row_size,
            "recycled": _per_game(t.recycles, t.recycles_sq, games),
        },
    }


def _artifact_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's artifacts table, the most points first: taken, escaped with, won with.
    Spaces may hold artifacts the pack did not declare (named "Artifact N" by setup)."""
    declared = {tok.name for tok in catalog.tokens if tok.kind == "artifact"}
    names = sorted(
        declared | set(t.artifact_taken), key=lambda n: (-_artifact_points(catalog, n), n)
    )
    artifacts = []
    for name in names:
        taken = t.artifact_taken[name]
        artifacts.append(
            {
                "name": name,
                "points": _artifact_points(catalog, name),
                "taken": taken,
                "escaped": t.artifact_escaped[name],
                "wins": t.artifact_wins[name],
                "win_rate": _rate(t.artifact_wins[name], taken),
                "win_rate_ci": _rate_ci(t.artifact_wins[name], taken),
            }
        )
    return artifacts


def _card_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's cards table, one row per card a player may acquire: the win rate of the
    players who took it against that of those who could have and did not (its edge)."""
    cards = []
    for c in catalog.cards:
        if c.type != "acquire" or c.deck not in ("adventure", "reserve"):
            continue
        takers, won = t.acquirers[c.name], t.acquirer_wins[c.name]
        passed, passed_won = t.passers[c.name], t.passer_wins[c.name]
        edge = won / takers - passed_won / passed if takers and passed else 0
        cards.append(
            {
                "name": c.name,
                "deck": c.deck,
                "cost": c.cost,
                "acquired": t.acquired[c.name],
                "players": takers,
                "wins": won,
                "win_rate": _rate(won, takers),
                "win_rate_ci": _rate_ci(won, takers),
                "passed": passed,
                "passed_wins": passed_won,
                "passed_win_rate": _rate(passed_won, passed),
                "passed_win_rate_ci": _rate_ci(passed_won, passed),
                "edge": _num(edge),
                "edge_ci": _ci(difference_interval(won, takers, passed_won, passed)),
                "exhausted": t.reserve_empty[c.name],
                "first_round": _rate(t.first_round_sum[c.name], takers),
                "first_round_ci": _ci(
                    mean_interval(t.first_round_sum[c.name], t.first_round_sq[c.name], takers)
                ),
            }
        )
    return cards


def _monster_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's monsters table: how often each monster in play was defeated."""
    return [
        {
            "name": c.name,
            "deck": c.deck,
            "fight": c.fight,
            "defeated": t.defeated[c.name],
            **_often(t.defeated, t.defeated_sq, c.name, t.games),
        }
        for c in catalog.cards
        if c.type == "monster" and c.deck != "cardporium"  # out of play until fetched
    ]


def _event_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's events table: how often each event in play was revealed."""
    return [
        {
            "name": c.name,
            "revealed": t.events[c.name],
            **_often(t.events, t.events_sq, c.name, t.games),
        }
        for c in catalog.cards
        if c.type == "event" and c.deck != "cardporium"  # out of play until fetched
    ]


def _token_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's tokens table (all but artifacts and cube tokens, which have their own):
    how often each was taken, by how many players, and their win rate."""
    tokens = []
    for tok in catalog.tokens:
        if tok.kind in ("artifact", "cube"):
            continue  # the artifacts and cube tokens tables have them
        holders, won = t.token_players[tok.name], t.token_wins[tok.name]
        tokens.append(
            {
                "name": tok.name,
                "kind": tok.kind,
                "type": tok.type,
                "points": tok.points,
                **({"points_per": points_per_text(tok.points_per)} if tok.points_per else {}),
                "taken": t.token_taken[tok.name],
                **_often(t.token_taken, t.token_taken_sq, tok.name, t.games),
                "players": holders,
                "wins": won,
                "win_rate": _rate(won, holders),
                "win_rate_ci": _rate_ci(won, holders),
            }
        )
    return tokens


def _space_choice_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's answers to spaces' decisions, by space in board order, then the
    commonest first."""
    order = {sp.name: sp.index for sp in catalog.board.spaces}
    return [
        {
            "space": space,
            "choice": label,
            "times": n,
            **_often(t.choices, t.choices_sq, (space, label), t.games),
        }
        for (space, label), n in sorted(
            t.choices.items(), key=lambda kv: (order.get(kv[0][0], 0), -kv[1], kv[0][1])
        )
    ]


def _action_rows(t: RunTotals) -> list[dict[str, Any]]:
    """The report's table of the pack's `action` lines taken, by name."""
    return [
        {"name": name, "taken": t.actions[name], **_often(t.actions, t.actions_sq, name, t.games)}
        for name in sorted(t.actions)
    ]


def _move_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's moves by way, the most used first: how much a declared way (a ladder, a
    lift) is used. Every way the pack declares is listed, a way nobody took with 0 (what a
    designer most needs to see)."""
    used = {**dict.fromkeys(catalog.ways, 0), **t.moves}
    return [
        {"way": name, "moves": n, **_often(t.moves, t.moves_sq, name, t.games)}
        for name, n in sorted(used.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _cube_rows(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's table of the pack's cube tokens drawn from the bag."""
    return [
        {
            "name": tok.name,
            "drawn": t.cubes[tok.name],
            **_often(t.cubes, t.cubes_sq, tok.name, t.games),
        }
        for tok in catalog.tokens
        if tok.kind == "cube"
    ]


def report(
    totals: RunTotals,
    catalog: Catalog,
    *,
    seed: int,
    bots: Sequence[str],
    rules: dict[str, Any] | None = None,
    stop: dict[str, Any] | None = None,
    modules: str | None = None,
) -> dict[str, Any]:
    """The simulation report of a run (see schemas/report.schema.json).

    ``stop`` says what ended the run (``{"by": "games"}`` when not given); ``modules``, the
    assembly every game of a modular board played on (`--modules`; None: each drew one).
    """
    t = totals
    games = t.games
    players = len(bots)
    played = {**catalog.rules, **(rules or {})}
    return {
        "format": REPORT_FORMAT,
        "pack": _pack_entry(catalog),
        "board": catalog.board.name,
        **_modules_entry(catalog, modules),
        "seed": seed,
        "games": games,
        "players": players,
        "bots": list(bots),
        "rules": dict(sorted((rules or {}).items())),
        "stop": {
            "by": "games",
            **(stop or {}),
            "seat_half_width": round(seat_half_width(t, players), 4),
        },
        "wins": _wins_entry(t, bots),
        **_length_entries(t),
        **_ending_entries(t, players, played["round_cap"]),
        **_dragon_entries(t, catalog, played["row_size"]),
        "artifacts": _artifact_rows(t, catalog),
        "cards": _card_rows(t, catalog),
        "monsters": _monster_rows(t, catalog),
        "events": _event_rows(t, catalog),
        "tokens": _token_rows(t, catalog),
        "space_choices": _space_choice_rows(t, catalog),
        "actions": _action_rows(t),
        "moves": _move_rows(t, catalog),
        "cubes": _cube_rows(t, catalog),
        "offers": _offers(t, catalog),
        "heatmap": heatmap(t, catalog),
        "results": list(t.records),
        "results_omitted": games - len(t.records),
        "failed": t.failed,
        "failures": [dict(f) for f in t.failures],
        "tension": tension_report(t.tension),
        # Runs of the same seeds with one change each (`compare`); filled by the caller.
        "variants": [],
    }


def offer_names(catalog: Catalog) -> list[tuple[str, str]]:
    """Everything the pack declares that a player may be offered (see `offer_keys`), by kind
    in `OFFER_KINDS` order: what the report lists even when nobody was ever offered it."""
    out: dict[tuple[str, str], None] = {}
    for c in catalog.cards:
        if c.deck in ("adventure", "reserve") and c.type == "acquire":
            out["card", c.name] = None
    for c in catalog.cards:
        if c.deck in ("adventure", "reserve") and c.type == "monster":
            out["monster", c.name] = None
    for tok in catalog.tokens:
        if tok.kind == "market":
            out["market", tok.name] = None
    for tok in catalog.tokens:
        if tok.use:
            out["token", tok.name] = None
    board = catalog.board
    for sp in board.spaces:
        for a in sp.actions:
            out["action", a.name or a.label] = None
    for tok in catalog.tokens:
        for a in tok.actions:
            out["action", a.name or a.label] = None
    for name in catalog.ways:
        out["way", name] = None
    if board.coach_spaces:
        out["way", "coach"] = None
    for sp in board.spaces:
        if sp.on.get("enter"):
            out["space", sp.name] = None
    return list(out)


def _offers(t: RunTotals, catalog: Catalog) -> list[dict[str, Any]]:
    """The report's offers table: for each thing declared or counted, how often a game it was
    offered and chosen, and the share of the player-games offered it that chose it."""
    keys = dict.fromkeys(offer_names(catalog))
    rank = {k: i for i, k in enumerate(OFFER_KINDS)}
    # Things of a board the catalog's own board lacks (a modular board's other modules).
    keys.update(dict.fromkeys(sorted(set(t.offers) - set(keys), key=lambda k: (rank[k[0]], k))))
    out = []
    for key in sorted(keys, key=lambda k: rank[k[0]]):  # stable: declared order within a kind
        offered = _per_game(t.offers[key], t.offers_sq[key], t.games)
        chosen = _per_game(t.chosen[key], t.chosen_sq[key], t.games)
        players, choosers = t.offer_players[key], t.chooser_players[key]
        out.append(
            {
                "kind": key[0],
                "name": key[1],
                "offered": offered["total"],
                "offered_per_game": offered["per_game"],
                "offered_per_game_ci": offered["per_game_ci"],
                "offered_players": players,
                "chosen": chosen["total"],
                "chosen_per_game": chosen["per_game"],
                "chosen_per_game_ci": chosen["per_game_ci"],
                "chooser_players": choosers,
                "use_rate": _rate(choosers, players),
                "use_rate_ci": _rate_ci(choosers, players),
            }
        )
    return out


def points_per_text(per: dict[str, Any]) -> str:
    """What points that count something score, as the card says it: "3 per companion"."""
    return f"{per['points']} per {render_count(per['per'])}"


def _artifact_points(catalog: Catalog, name: str) -> int:
    for t in catalog.tokens:
        if t.name == name:
            return t.points
    # An implicit artifact is named for its value ("Artifact 15").
    tail = name.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _hist_sums(hist: Counter[int]) -> tuple[int, int, int]:
    """(count, sum, sum of squares) of the values a histogram counts."""
    return (
        sum(hist.values()),
        sum(v * c for v, c in hist.items()),
        sum(v * v * c for v, c in hist.items()),
    )


def compare(base: RunTotals, variant: RunTotals, players: int) -> dict[str, Any]:
    """A variant run against its base run (the same seeds, one change): each seat's win rate
    and mean score, the game length, and each one's change from the base with its 95 %
    interval (`difference_interval` for rates, `mean_difference_interval` for means).

    The runs are compared as two samples: the change usually parts the games after a few
    turns, and the two-sample interval is the wider, safe one."""

    def pad(xs: list[int]) -> list[int]:
        return xs + [0] * (players - len(xs))

    seats = []
    bw, vw = pad(base.wins_seat), pad(variant.wins_seat)
    bs, vs = pad(base.score_sum_seat), pad(variant.score_sum_seat)
    bq, vq = pad(base.score_sq_seat), pad(variant.score_sq_seat)
    bn, vn = pad(base.games_seat), pad(variant.games_seat)
    for k in range(players):
        b_rate = bw[k] / base.games if base.games else 0.0
        v_rate = vw[k] / variant.games if variant.games else 0.0
        b_mean = bs[k] / bn[k] if bn[k] else 0.0
        v_mean = vs[k] / vn[k] if vn[k] else 0.0
        seats.append(
            {
                "seat": k + 1,
                "win_rate": _rate(vw[k], variant.games),
                "win_rate_ci": _rate_ci(vw[k], variant.games),
                "win_rate_delta": _num(v_rate - b_rate),
                "win_rate_delta_ci": _ci(
                    difference_interval(vw[k], variant.games, bw[k], base.games)
                ),
                "mean_score": _num(v_mean),
                "mean_score_ci": _ci(mean_interval(vs[k], vq[k], vn[k])),
                "mean_score_delta": _num(v_mean - b_mean),
                "mean_score_delta_ci": _ci(
                    mean_difference_interval((vn[k], vs[k], vq[k]), (bn[k], bs[k], bq[k]))
                ),
            }
        )
    b_rounds, v_rounds = _hist_sums(base.round_hist), _hist_sums(variant.round_hist)
    b_len = b_rounds[1] / b_rounds[0] if b_rounds[0] else 0.0
    v_len = v_rounds[1] / v_rounds[0] if v_rounds[0] else 0.0
    return {
        "games": variant.games,
        "by_seat": seats,
        "rounds": {
            "mean": _num(v_len),
            "mean_ci": _ci(mean_interval(v_rounds[1], v_rounds[2], v_rounds[0])),
            "delta": _num(v_len - b_len),
            "delta_ci": _ci(mean_difference_interval(v_rounds, b_rounds)),
        },
    }
