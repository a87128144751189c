"""Scoring, the winner, and the result of a finished game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import snapshot
from .effects.ranking import rank_points
from .state import ESCAPED, KNOCKED_OUT, GameCore, PlayerState


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game reports; indexed by seat unless a name says otherwise."""

    seed: int
    pack: str
    bots: tuple[str, ...]
    order: tuple[int, ...]  # seats in turn order: order[0] took the first turn
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # empty when nobody scored a point
    status: tuple[str, ...]  # escaped | knocked out | on (still in when a capped game ended)
    zeroed: tuple[bool, ...]  # knocked out without an artifact or in the danger zone
    rounds: int
    turns: int
    end_reason: str
    capped: bool
    state: str  # digest of the final state, compared by replays
    breakdown: tuple[dict[str, int], ...] = field(default=())

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.scores)

    @property
    def escapes(self) -> int:
        """Players who escaped."""
        return sum(s == ESCAPED for s in self.status)

    @property
    def knockouts(self) -> int:
        """Players knocked out."""
        return sum(s == KNOCKED_OUT for s in self.status)

    @property
    def all_knocked_out(self) -> bool:
        """True when nobody escaped."""
        return self.escapes == 0

    def seat_of(self, player: int) -> int:
        """A player's place in turn order (0 = first player)."""
        return self.order.index(player)

    def record(self) -> dict[str, Any]:
        """The log's result record."""
        return {
            "type": "result",
            "scores": list(self.scores),
            "winners": list(self.winners),
            "status": list(self.status),
            "zeroed": list(self.zeroed),
            "order": list(self.order),
            "rounds": self.rounds,
            "turns": self.turns,
            "end": self.end_reason,
            "capped": self.capped,
            "state": self.state,
        }


def score_player(game: GameCore, p: PlayerState) -> tuple[int, dict[str, int]]:
    """A player's score and its parts (all zero when the rules give them nothing); a pack
    with ranked awards has an `awards` part too."""
    parts = {"artifact": 0, "tokens": 0, "gold": 0, "cards": 0}
    awards = game.catalog.awards
    if awards:
        parts["awards"] = 0
    if not _scores(game, p):
        return 0, parts  # no artifact, or knocked out in the danger zone: no score
    parts["artifact"] = p.artifact.points + _per(game, p, p.artifact.points_per)  # type: ignore[union-attr]
    parts["tokens"] = sum(t.points + _per(game, p, t.points_per) for t in p.tokens)
    parts["gold"] = game.gold_of(p)
    parts["cards"] = sum(c.points + _per(game, p, c.points_per) for c in p.cards())
    for award in awards:
        parts["awards"] += award_points(game, award)[p.seat]
    return sum(parts.values()), parts


def _scores(game: GameCore, p: PlayerState) -> bool:
    """Whether the player scores at all: an artifact, and not knocked out in the danger zone."""
    if p.artifact is None:
        return False
    return p.status == ESCAPED or not game.board.spaces[p.pos].danger_zone


def award_points(game: GameCore, award: dict[str, Any]) -> list[int]:
    """What each player scores from a ranked award, by seat. Only players who score at all
    take part in the ranking: a player out of the scoring takes no place."""
    values = [game.count_of(q, award["count"]) if _scores(game, q) else None for q in game.players]
    return rank_points(values, award["points"], award["ties"], award["fewest"])


def award_margin(game: GameCore, p: PlayerState, award: dict[str, Any]) -> int:
    """The points one more of the award's count would win ``p`` as the counts stand now
    (every player counted); for the most of a count, when one more wins nothing, the points
    it keeps from the nearest rival who would pass ``p`` with one more. Negative when one
    more loses points (one more damage for the fewest damage)."""
    values = [game.count_of(q, award["count"]) for q in game.players]
    points, ties, fewest = award["points"], award["ties"], award["fewest"]
    now = rank_points(values, points, ties, fewest)[p.seat]
    values[p.seat] += 1
    gain = rank_points(values, points, ties, fewest)[p.seat] - now
    values[p.seat] -= 1
    if gain or fewest:
        return gain
    kept = 0
    for q in game.players:
        if q is not p:
            values[q.seat] += 1
            kept = max(kept, now - rank_points(values, points, ties, fewest)[p.seat])
            values[q.seat] -= 1
    return kept


def _per(game: GameCore, p: PlayerState, per: dict[str, Any] | None) -> int:
    if not per:
        return 0
    return per["points"] * game.count_of(p, per["per"])


def fingerprint(game: GameCore) -> str:
    """A digest of the whole game state: equal states give equal digests.

    It is the digest of the snapshot's state (interpreter/snapshot.py), so every declared
    field counts, the RNG state included.
    """
    return snapshot.fingerprint(game)


def final_result(game: GameCore, digest: bool = True) -> GameResult:
    """Score every player and name the winners (ties go to the most valuable artifact).
    Without ``digest`` the final state is not digested (``state`` is empty): for a game whose
    log and record nobody reads."""
    scored = [score_player(game, p) for p in game.players]
    scores = tuple(s for s, _ in scored)
    best = max(scores)
    winners: tuple[int, ...] = ()
    if best > 0:
        tied = [p for p in game.players if scores[p.seat] == best]
        top = max(p.artifact.points if p.artifact else 0 for p in tied)
        winners = tuple(p.seat for p in tied if (p.artifact.points if p.artifact else 0) == top)
    return GameResult(
        seed=game.seed,
        pack=game.catalog.name,
        bots=tuple(getattr(b, "name", type(b).__name__) for b in game.bots),
        order=tuple(game.order),
        scores=scores,
        winners=winners,
        status=tuple(p.status for p in game.players),
        zeroed=tuple(
            p.status != ESCAPED
            and scores[p.seat] == 0
            and (p.artifact is None or game.board.spaces[p.pos].danger_zone)
            for p in game.players
        ),
        rounds=game.round,
        turns=game.turn,
        end_reason=game.end_reason,
        capped=game.capped,
        state=fingerprint(game) if digest else "",
        breakdown=tuple(parts for _, parts in scored),
    )
