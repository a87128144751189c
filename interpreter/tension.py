"""Tension of simulated games: a per-round trace of provisional scores and what it tells.

`RoundTrace` is fed by `GameStats.on_turn_end`: when the last player still on the clock ends
a turn (before that turn's end-of-turn steps), it notes what each player would score if the
game ended now (`scoring.score_player`, the rules' own scoring: no artifact, no points), their
gold and their Clank! (cubes in the Clank! area and in the bag), once a round; and the round
each player escaped. It only reads, and costs one scoring of the players a round.

`TensionTotals` adds each game's trace up into whole-number sums (so a run's totals are the
same for any split of its games) from which `tension_report` gives, with 95 % intervals:
lead changes per game, the round the winner took the lead for good, the comeback rate (the
winner behind at mid-game), the margin of victory, the escape race (rounds between the first
and the last escape), and the mean score, gold and Clank! by round. The traces of the first
`SAMPLE_GAMES` games are kept whole for the report's score curves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .intervals import ci, mean_interval, rate, rate_ci
from .scoring import GameResult, score_player
from .state import ESCAPED, ON_CLOCK

if TYPE_CHECKING:
    from .game import Game
    from .state import PlayerState

# Games whose whole trace the report keeps (the first ones of the run), for score curves.
SAMPLE_GAMES = 12
# Rounds the by-round means go up to (a capped game's later rounds are few and say little).
ROUNDS_SHOWN = 40


class RoundTrace:
    """One game's provisional scores, gold and Clank! at the end of each round, by player."""

    __slots__ = ("rounds", "escaped")

    def __init__(self, players: int) -> None:
        # (round, scores, gold, clank), each a tuple by player, in the order noted.
        self.rounds: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        self.escaped: list[int] = [0] * players  # the round each player escaped (0: not)

    def on_turn_end(self, game: Game, player: PlayerState) -> None:
        """A player on the clock ends a turn: note an escape, and the round's figures when no
        one after them in turn order is still on the clock."""
        order = game.order
        players = game.players
        at = order.index(player.seat)
        for p in players:
            # A player escapes in their end-of-turn steps, after their `on_turn_end`: in this
            # round if their turn came before this one, else in the round before.
            if p.status == ESCAPED and not self.escaped[p.seat]:
                self.escaped[p.seat] = game.round - (order.index(p.seat) > at)
        for seat in order[at + 1 :]:
            if players[seat].status == ON_CLOCK:
                return
        bag = game.bag
        self.rounds.append(
            (
                game.round,
                tuple(score_player(game, p)[0] for p in players),
                tuple(game.gold_of(p) for p in players),
                tuple(p.area + bag.count(p.seat) for p in players),
            )
        )

    def scores_by_round(self, result: GameResult) -> list[tuple[int, ...]]:
        """Each round's provisional scores, round 1 to the last: a round with no note keeps
        the round before's (0 before the first), and the last round is the final result."""
        out: list[tuple[int, ...]] = []
        noted = {r: s for r, s, _, _ in self.rounds}
        last: tuple[int, ...] = (0,) * result.players
        for r in range(1, result.rounds + 1):
            last = noted.get(r, last)
            out.append(last)
        if out:
            out[-1] = tuple(result.scores)
        return out


def _leader(scores: Sequence[int]) -> int | None:
    """The player ahead alone (with points), or None."""
    best = max(scores)
    if best <= 0 or list(scores).count(best) > 1:
        return None
    return list(scores).index(best)


def game_figures(
    result: GameResult, trace: RoundTrace, curve: list[tuple[int, ...]] | None = None
) -> dict[str, int]:
    """One game's tension figures, each a whole number; a figure the game does not measure
    is left out (``margin`` without a winner; ``decided``, ``led_for`` and ``comeback``
    without a single winner; ``escape_race`` with fewer than two escapes)."""
    if curve is None:
        curve = trace.scores_by_round(result)
    out: dict[str, int] = {}
    leaders = [_leader(s) for s in curve]
    changes, last = 0, None
    for who in leaders:
        if who is not None:
            changes += last is not None and who != last
            last = who
    out["lead_changes"] = changes
    if result.winners:
        ranked = sorted(result.scores, reverse=True)
        out["margin"] = ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0]
    if len(result.winners) == 1 and curve:
        winner = result.winners[0]
        decided = len(curve)  # the final round, if they led alone only at the end
        for r in range(len(curve) - 1, 0, -1):
            if leaders[r - 1] != winner:
                break
            decided = r
        out["decided"] = decided
        out["led_for"] = len(curve) - decided + 1
        if len(curve) >= 2:
            mid = curve[len(curve) // 2 - 1]
            out["comeback"] = int(any(s > mid[winner] for k, s in enumerate(mid) if k != winner))
    escapes = [
        trace.escaped[p] or result.rounds
        for p, status in enumerate(result.status)
        if status == ESCAPED
    ]
    if len(escapes) >= 2:
        out["escape_race"] = max(escapes) - min(escapes)
    return out


@dataclass
class TensionTotals:
    """What a run's traces add up to: per-game figures as count, sum and sum of squares
    (``figures``, ``squares``: ``NAME`` and ``NAME#n``), by-round sums, and the first games'
    traces."""

    figures: Counter[str] = field(default_factory=Counter)
    squares: Counter[str] = field(default_factory=Counter)
    # Sums over player-games that reached round r: score, gold, Clank!, and how many.
    by_round: Counter[tuple[str, int]] = field(default_factory=Counter)
    sample: list[dict[str, Any]] = field(default_factory=list)

    def add(self, index: int, result: GameResult, trace: RoundTrace) -> None:
        """Count one finished game's trace."""
        curve = trace.scores_by_round(result)
        for key, x in game_figures(result, trace, curve).items():
            self.figures[key] += x
            self.squares[key] += x * x
            self.figures[f"{key}#n"] += 1
        noted = {r: (s, g, c) for r, s, g, c in trace.rounds}
        for r in range(1, min(result.rounds, ROUNDS_SHOWN) + 1):
            if r not in noted:
                continue
            s, g, c = noted[r]
            self.by_round[("players", r)] += len(s)
            self.by_round[("score", r)] += sum(s)
            self.by_round[("gold", r)] += sum(g)
            self.by_round[("clank", r)] += sum(c)
        if len(self.sample) < SAMPLE_GAMES:
            self.sample.append(
                {"game": index, "seed": result.seed, "scores": [list(s) for s in curve]}
            )

    def merge(self, other: TensionTotals) -> None:
        """Add a part of the run that comes after this one in game order."""
        self.figures.update(other.figures)
        self.squares.update(other.squares)
        self.by_round.update(other.by_round)
        self.sample += other.sample[: max(SAMPLE_GAMES - len(self.sample), 0)]


def _mean(t: TensionTotals, key: str) -> dict[str, Any]:
    n, total, sq = t.figures[f"{key}#n"], t.figures[key], t.squares[key]
    return {
        "games": n,
        "mean": rate(total, n),
        "mean_ci": ci(mean_interval(total, sq, n)),
    }


def tension_report(t: TensionTotals) -> dict[str, Any]:
    """The report's ``tension`` entry (schemas/report.schema.json)."""
    n, comebacks = t.figures["comeback#n"], t.figures["comeback"]
    rounds = sorted({r for _, r in t.by_round})
    return {
        "lead_changes": _mean(t, "lead_changes"),
        "decided_round": _mean(t, "decided"),
        "led_for": _mean(t, "led_for"),
        "comeback": {
            "games": n,
            "comebacks": comebacks,
            "rate": rate(comebacks, n),
            "rate_ci": rate_ci(comebacks, n),
        },
        "margin": _mean(t, "margin"),
        "escape_race": _mean(t, "escape_race"),
        "by_round": [
            {
                "round": r,
                "players": t.by_round[("players", r)],
                **{
                    key: rate(t.by_round[(key, r)], t.by_round[("players", r)])
                    for key in ("score", "gold", "clank")
                },
            }
            for r in rounds
            if t.by_round[("players", r)]
        ],
        "sample": [dict(s) for s in t.sample],
    }
