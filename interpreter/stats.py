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
from typing import TYPE_CHECKING, Any

from .scoring import GameResult
from .state import ESCAPED

if TYPE_CHECKING:
    from .catalog import CardDef, Catalog
    from .game import Game
    from .state import PlayerState

REPORT_FORMAT = "clankwork-report/1"


class GameStats:
    """Counters of one game, updated by the engine through the ``on_*`` hooks.

    Every hook receives the game first, so a subclass can look at the state (the replay
    narrator does); the base class only counts.
    """

    __slots__ = ("entries", "paths", "acquired", "defeated", "attacks", "off_clock", "damage")

    def __init__(self, spaces: int, players: int) -> None:
        self.entries = [0] * spaces  # arrivals on each space, by space index
        self.paths: dict[tuple[int, int], int] = {}  # walks along a path, (from, to) indexes
        self.acquired: list[dict[str, int]] = [{} for _ in range(players)]  # by card name
        self.defeated: dict[str, int] = {}  # monsters, by card name
        self.attacks = 0  # dragon attacks on the clock (row refills and effects)
        self.off_clock = 0  # attacks of off-the-clock turns
        self.damage = [0] * players  # damage dealt by dragon cubes, by seat

    @classmethod
    def for_game(cls, catalog: Catalog, players: int) -> GameStats:
        """Empty counters sized for one board and player count."""
        return cls(len(catalog.board.spaces), players)

    def on_enter(self, game: Game, player: PlayerState, space: int) -> None:
        """A player arrives on a space (by a path, a coach or a teleport)."""
        self.entries[space] += 1

    def on_move(self, game: Game, player: PlayerState, src: int, dst: int) -> None:
        """A player walks along a path (called just before `on_enter`)."""
        key = (src, dst)
        self.paths[key] = self.paths.get(key, 0) + 1

    def on_acquire(self, game: Game, player: PlayerState, card: CardDef) -> None:
        """A player acquires a card from the row or the reserve."""
        got = self.acquired[player.seat]
        got[card.name] = got.get(card.name, 0) + 1

    def on_defeat(self, game: Game, player: PlayerState, card: CardDef) -> None:
        """A player defeats a monster of the row or the reserve."""
        self.defeated[card.name] = self.defeated.get(card.name, 0) + 1

    def on_attack(self, game: Game, cubes: int, off_clock: bool) -> None:
        """The dragon is about to draw ``cubes`` cubes (the Clank! area is in the bag)."""
        if off_clock:
            self.off_clock += 1
        else:
            self.attacks += 1

    def on_hit(self, game: Game, player: PlayerState) -> None:
        """A drawn cube of a player on the clock deals them one damage."""
        self.damage[player.seat] += 1


@dataclass
class RunTotals:
    """What a run adds up over its games; ``merge`` keeps game order, so it is exact."""

    results: list[GameResult] = field(default_factory=list)  # in game order
    indexes: list[int] = field(default_factory=list)  # each result's game number
    spaces: Counter[int] = field(default_factory=Counter)
    paths: Counter[tuple[int, int]] = field(default_factory=Counter)
    acquired: Counter[str] = field(default_factory=Counter)  # copies
    acquirers: Counter[str] = field(default_factory=Counter)  # players who took one or more
    acquirer_wins: Counter[str] = field(default_factory=Counter)
    defeated: Counter[str] = field(default_factory=Counter)
    artifact_taken: Counter[str] = field(default_factory=Counter)
    artifact_escaped: Counter[str] = field(default_factory=Counter)
    artifact_wins: Counter[str] = field(default_factory=Counter)
    attacks: int = 0
    off_clock: int = 0
    damage: int = 0

    def add(self, index: int, game: Game, stats: GameStats) -> None:
        """Count one finished game (its result, its end state and its counters)."""
        result = game.result
        assert result is not None
        self.results.append(result)
        self.indexes.append(index)
        self.spaces.update({s: n for s, n in enumerate(stats.entries) if n})
        self.paths.update(stats.paths)
        won = set(result.winners)
        for seat, got in enumerate(stats.acquired):
            self.acquired.update(got)
            self.acquirers.update(got.keys())
            if seat in won:
                self.acquirer_wins.update(got.keys())
        self.defeated.update(stats.defeated)
        for p in game.players:
            if p.artifact is not None:
                self.artifact_taken[p.artifact.name] += 1
                if p.status == ESCAPED:
                    self.artifact_escaped[p.artifact.name] += 1
                if p.seat in won:
                    self.artifact_wins[p.artifact.name] += 1
        self.attacks += stats.attacks
        self.off_clock += stats.off_clock
        self.damage += sum(stats.damage)

    def merge(self, other: RunTotals) -> None:
        """Add another part of the run, which comes after this one in game order."""
        self.results += other.results
        self.indexes += other.indexes
        for name in (
            "spaces",
            "paths",
            "acquired",
            "acquirers",
            "acquirer_wins",
            "defeated",
            "artifact_taken",
            "artifact_escaped",
            "artifact_wins",
        ):
            getattr(self, name).update(getattr(other, name))
        self.attacks += other.attacks
        self.off_clock += other.off_clock
        self.damage += other.damage


def _num(x: float) -> float | int:
    """A figure for the report: whole numbers stay whole, others get 3 decimals."""
    return int(x) if float(x).is_integer() else round(x, 3)


def _rate(part: int, whole: int) -> float | int:
    return _num(part / whole) if whole else 0


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
            key = f"{board.spaces[s].name}->{board.spaces[m.to].name}"
            if key not in paths:
                paths[key] = totals.paths[(s, m.to)]
    return {
        "board": board.name,
        "games": len(totals.results),
        "spaces": {sp.name: totals.spaces[sp.index] for sp in board.spaces},
        "paths": paths,
    }


def report(
    totals: RunTotals,
    catalog: Catalog,
    *,
    seed: int,
    bots: Sequence[str],
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The simulation report of a run (see schemas/report.schema.json)."""
    results = totals.results
    games = len(results)
    players = len(bots)
    player_games = games * players
    wins_seat = [0] * players
    wins_player = [0] * players
    score_seat: list[list[int]] = [[] for _ in range(players)]
    for r in results:
        for w in r.winners:
            wins_seat[r.seat_of(w)] += 1
            wins_player[w] += 1
        for p, s in enumerate(r.scores):
            score_seat[r.seat_of(p)].append(s)
    all_wins = sum(wins_player)
    scores = [s for r in results for s in r.scores]
    rounds = [r.rounds for r in results]
    escapes = sum(r.escapes for r in results)
    knockouts = sum(r.knockouts for r in results)
    deaths = sum(sum(r.zeroed) for r in results)
    capped = [
        {"game": i, "seed": r.seed}
        for i, r in zip(totals.indexes, results, strict=True)
        if r.capped
    ]

    cards = []
    for c in catalog.cards:
        if c.type != "acquire" or c.deck not in ("adventure", "reserve"):
            continue
        takers = totals.acquirers[c.name]
        cards.append(
            {
                "name": c.name,
                "deck": c.deck,
                "cost": c.cost,
                "acquired": totals.acquired[c.name],
                "players": takers,
                "wins": totals.acquirer_wins[c.name],
                "win_rate": _rate(totals.acquirer_wins[c.name], takers),
            }
        )
    monsters = [
        {"name": c.name, "deck": c.deck, "defeated": totals.defeated[c.name]}
        for c in catalog.cards
        if c.type == "monster"
    ]
    # Spaces may hold artifacts the pack did not declare (named "Artifact N" by setup).
    declared = {t.name for t in catalog.tokens if t.kind == "artifact"}
    names = sorted(
        declared | set(totals.artifact_taken), key=lambda n: (-_artifact_points(catalog, n), n)
    )
    artifacts = []
    for name in names:
        taken = totals.artifact_taken[name]
        artifacts.append(
            {
                "name": name,
                "points": _artifact_points(catalog, name),
                "taken": taken,
                "escaped": totals.artifact_escaped[name],
                "wins": totals.artifact_wins[name],
                "win_rate": _rate(totals.artifact_wins[name], taken),
            }
        )

    return {
        "format": REPORT_FORMAT,
        "pack": {"name": catalog.name, "version": catalog.version},
        "board": catalog.board.name,
        "seed": seed,
        "games": games,
        "players": players,
        "bots": list(bots),
        "rules": dict(sorted((rules or {}).items())),
        "wins": {
            "by_seat": [
                {
                    "seat": k + 1,
                    "wins": w,
                    "win_rate": _rate(w, games),
                    "mean_score": _num(statistics.fmean(score_seat[k])) if score_seat[k] else 0,
                }
                for k, w in enumerate(wins_seat)
            ],
            "by_player": [
                {"player": k + 1, "bot": bots[k], "wins": w, "win_rate": _rate(w, games)}
                for k, w in enumerate(wins_player)
            ],
            "no_winner": sum(1 for r in results if not r.winners),
            "shared": sum(1 for r in results if len(r.winners) > 1),
            "baseline_win_rate": _rate(all_wins, player_games),
        },
        "scores": {
            "all": distribution(scores),
            "winning": distribution([max(r.scores) for r in results if r.winners]),
        },
        "rounds": {
            "mean": _num(statistics.fmean(rounds)) if rounds else 0,
            "median": _num(statistics.median(rounds)) if rounds else 0,
            "p95": percentile(rounds, 95),
            "min": min(rounds, default=0),
            "max": max(rounds, default=0),
        },
        "turns": {"mean": _num(statistics.fmean([r.turns for r in results])) if results else 0},
        "escapes": {"total": escapes, "rate": _rate(escapes, player_games)},
        "knockouts": {"total": knockouts, "rate": _rate(knockouts, player_games)},
        "deaths": {"total": deaths, "rate": _rate(deaths, player_games)},
        "everyone_knocked_out": sum(1 for r in results if r.all_knocked_out),
        "end_reasons": dict(sorted(Counter(r.end_reason for r in results).items())),
        "capped": {
            "count": len(capped),
            "round_cap": {**catalog.rules, **(rules or {})}["round_cap"],
            "games": capped,
        },
        "dragon": {
            "attacks": {"total": totals.attacks, "per_game": _rate(totals.attacks, games)},
            "off_clock_attacks": {
                "total": totals.off_clock,
                "per_game": _rate(totals.off_clock, games),
            },
            "damage": {"total": totals.damage, "per_game": _rate(totals.damage, games)},
        },
        "artifacts": artifacts,
        "cards": cards,
        "monsters": monsters,
        "heatmap": heatmap(totals, catalog),
        "results": [
            {"game": i, "seed": r.seed, **{k: v for k, v in r.record().items() if k != "type"}}
            for i, r in zip(totals.indexes, results, strict=True)
        ],
    }


def _artifact_points(catalog: Catalog, name: str) -> int:
    for t in catalog.tokens:
        if t.name == name:
            return t.points
    # An implicit artifact is named for its value ("Artifact 15").
    tail = name.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0
