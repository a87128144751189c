"""Bots: a heuristic player that plays the way people do, a simpler greedy one, a random one,
and a search bot; `make_bot` makes one by name.

HeuristicBot ("heuristic", interpreter/bot_heuristic.py) weighs everything in points of final
score: which artifact is worth its trip and its risk, the route there and home, which cards to
buy, when to fight, when to stay out one more turn. See its docstring. Its parts live in one
module each: the valuers reading the records' appraisals (bot_values), the route tables
(bot_routes), the turn's estimates (bot_estimates), the plan (bot_targets), valuation
(bot_worth), walking (bot_moves) and the action cascade (bot_turn).

SearchBot ("search", "search:N", interpreter/bot_search.py) plays each option of an action
decision on to the end of the game from N determinised copies, heuristic bots in every seat.

GreedyBot ("greedy") plays every card first, picks an artifact worth its round trip, walks
there and back along the board's distance tables, spends swords on monster paths, fights and
buys with what is left, and never takes damage it cannot afford.

RandomBot ("random") picks any legal option, ending a turn a third of the time it may.

All are deterministic: the heuristic and greedy bots use no randomness at all (ties go to the
first option), the random and search bots their own `random.Random` seeded for their game and
seat, so a game depends only on its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .actions import (
    ACQUIRE,
    ACQUIRE_RESERVE,
    ACT,
    BUY,
    COACH,
    END_TURN,
    FIGHT,
    FIGHT_RESERVE,
    MOVE,
    PLAY,
    TAKE,
    USE,
    best_market_item,
)
from .board import UNREACHABLE
from .bot_heuristic import HeuristicBot
from .bot_search import DEFAULT_BUDGET, MIN_PLAYOUTS, SearchBot
from .bot_values import (
    _GREEDY,
    _GREEDY_UNHURT,
    _effect_lists,
    _reading_of,
    best_untaught,
    effects_value,
    play_value,
    triggers_value,
)
from .catalog import CardDef
from .decisions import Decision, Option

# What other modules read from here (the valuation helpers live in bot_values).
__all__ = [
    "BOTS",
    "GreedyBot",
    "HeuristicBot",
    "RandomBot",
    "effects_value",
    "make_bot",
    "parse_bot",
    "play_value",
    "triggers_value",
]

# The action kinds the greedy bot has a rule for; any other is taken by its appraisal.
_TAUGHT = frozenset(
    (
        PLAY,
        TAKE,
        ACT,
        USE,
        MOVE,
        COACH,
        FIGHT,
        ACQUIRE,
        ACQUIRE_RESERVE,
        FIGHT_RESERVE,
        BUY,
        END_TURN,
    )
)


class RandomBot:
    """Picks uniformly at random, but ends a turn a third of the time once it may.

    (A uniform pick among ~20 actions would wander the board for hundreds of turns.)
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # -- carried state (interpreter/snapshot.py) -------------------------------------------

    def bot_state(self) -> dict[str, Any]:
        """What the bot carries from one decision to the next (its RNG), as plain data."""
        from .snapshot import encode_any

        return {"rng": encode_any(self.rng)}

    def load_bot_state(self, game: Any, state: dict[str, Any]) -> None:
        """Carry on from `bot_state` in a restored game."""
        from .snapshot import load_attributes

        load_attributes(self, game, state)

    def choose(self, view: Any, decision: Decision) -> int:
        """A random legal option."""
        options = decision.options
        if decision.kind == "action" and options[-1].value[0] is END_TURN:
            if len(options) == 1 or self.rng.random() < 1 / 3:
                return len(options) - 1
            return self.rng.randrange(len(options) - 1)
        return self.rng.randrange(len(options))


class GreedyBot:
    """A deterministic heuristic player: artifact, then home, buying and fighting on the way."""

    name = "greedy"

    # Boots of round trip one point of artifact value is worth giving up.
    TRIP_COST = 1.0
    # Health left below which the bot stops taking risks.
    CAREFUL = 4

    def __init__(self, seed: int = 0) -> None:
        self._power: dict[CardDef, float] = {}

    # -- carried state (interpreter/snapshot.py) -------------------------------------------

    def bot_state(self) -> dict[str, Any]:
        """Nothing: the bot reads everything from the game (its cache is per design)."""
        return {}

    def load_bot_state(self, game: Any, state: dict[str, Any]) -> None:
        """Nothing to load (see `bot_state`)."""

    # -- helpers ----------------------------------------------------------------------------

    def power(self, card: CardDef) -> float:
        """What playing the card is worth (cached per design)."""
        v = self._power.get(card)
        if v is None:
            v = play_value(card)
            self._power[card] = v
        return v

    def goal(self, game: Any, p: Any) -> int | None:
        """Where the player is heading: HQ with an artifact, else the best artifact left."""
        board = game.board
        hq = board.hq
        if p.artifact is not None:
            return hq
        dist = board.dist
        left = game.rules["health"] - p.damage
        best, best_score = None, None
        for s in board.artifact_spaces:
            tok = game.space_artifact[s]
            if tok is None:
                continue
            trip = dist[p.pos][s] + dist[s][hq]
            if trip >= UNREACHABLE:
                continue
            if left <= self.CAREFUL:
                score = -trip  # hurt: the nearest artifact, whatever it is worth
            else:
                score = tok.points - self.TRIP_COST * trip
                if board.spaces[s].danger_zone:
                    score -= 3
            if best_score is None or score > best_score:
                best, best_score = s, score
        return best

    def late(self, game: Any, p: Any) -> bool:
        """Points matter more than deck power once the player is heading home."""
        return p.artifact is not None or game.round >= 10

    def card_score(self, game: Any, p: Any, card: CardDef) -> float:
        """Worth of acquiring a card now."""
        points = card.points + (2 if card.points_per else 0)
        w = 1.0 if self.late(game, p) else 0.3
        power = self.power(card) * (0.5 if self.late(game, p) else 1.0)
        return power + w * points + triggers_value(card.acquire)

    # -- decisions --------------------------------------------------------------------------

    def choose(self, view: Any, decision: Decision) -> int:
        """Answer any decision."""
        p = view.players[decision.player]
        kind = decision.kind
        if kind == "action":
            return self._action(view, p, decision)
        if kind == "may":
            return 0 if self._want(view, p, decision.detail) else 1
        if kind == "choose":
            return self._pick_effects(view, p, decision)
        if kind == "discard":
            return min(
                range(len(decision.options)),
                key=lambda i: self.power(decision.options[i].value),
            )
        if kind == "trash":
            return min(
                range(len(decision.options)),
                key=lambda i: (
                    self.power(decision.options[i].value[1]) + decision.options[i].value[1].points
                ),
            )
        if kind == "teleport":
            goal = self.goal(view, p)
            if goal is None:
                return 0
            dist = view.board.dist
            return min(
                range(len(decision.options)), key=lambda i: dist[decision.options[i].value][goal]
            )
        return 0

    def _want(self, game: Any, p: Any, node: Any) -> bool:
        if not isinstance(node, dict):
            return True
        lists = _effect_lists(node)
        if not lists:
            return True
        # Never take damage that would leave the player nearly knocked out.
        hurt = -sum(_reading_of(lst).terms.get("damage", 0.0) for lst in lists)
        if hurt and game.rules["health"] - p.damage - hurt <= 4:
            return False
        return sum(_GREEDY.effects(lst) for lst in lists) > 0

    def _pick_effects(self, game: Any, p: Any, decision: Decision) -> int:
        node = decision.detail
        if not isinstance(node, dict) or "options" not in node:
            return 0

        valuer = _GREEDY if p.damage else _GREEDY_UNHURT
        values = [valuer.effects(o) for o in node["options"]]
        return values.index(max(values))

    def _action(self, game: Any, p: Any, d: Decision) -> int:
        """The first rule that answers: play a card, then what the turn gains before it walks
        (`_pick_gain`), a step towards the goal (`_pick_way`), what it spends
        (`_pick_spend`), else end the turn."""
        groups: dict[str, list[int]] = {}
        for i, o in enumerate(d.options):
            groups.setdefault(o.value[0], []).append(i)
        opts = d.options
        if PLAY in groups:
            return groups[PLAY][0]
        goal = self.goal(game, p)
        i = self._pick_gain(p, opts, groups, goal)
        if i is None and goal is not None:
            i = self._pick_way(game, p, opts, groups, goal)
        if i is None:
            i = self._pick_spend(game, p, opts, groups)
        if i is not None:
            return i
        return groups[END_TURN][0] if END_TURN in groups else 0

    def _pick_gain(
        self, p: Any, opts: Sequence[Option], groups: dict[str, list[int]], goal: int | None
    ) -> int | None:
        """What the turn gains before it walks: the artifact aimed at (or any, with no goal
        left), an action worth taking, an option no rule is for (by its appraisal), a token
        worth using."""
        if TAKE in groups and (goal == p.pos or goal is None):
            return groups[TAKE][0]

        for i in groups.get(ACT, ()):
            if ACT.appraise(opts[i].value, _GREEDY) > 0:
                return i

        if not _TAUGHT.issuperset(groups):  # a kind with no rule here (no set made)
            i = best_untaught(opts, groups, _TAUGHT, _GREEDY)
            if i is not None:
                return i

        if USE in groups:
            return self._use(p, opts, groups[USE])
        return None

    def _pick_way(
        self, game: Any, p: Any, opts: Sequence[Option], groups: dict[str, list[int]], goal: int
    ) -> int | None:
        """A step towards the goal: a move (`_move`), else a coach ride worth its fare."""
        if MOVE in groups:
            i = self._move(game, p, goal, [(i, opts[i].value) for i in groups[MOVE]])
            if i is not None:
                return i
        if COACH in groups:
            return self._coach(game, p, goal, opts, groups[COACH])
        return None

    def _pick_spend(
        self, game: Any, p: Any, opts: Sequence[Option], groups: dict[str, list[int]]
    ) -> int | None:
        """What the turn spends: the fight whose defeat is worth most, the best card worth
        acquiring, a fight from the reserve, a market item worth more points than its price."""
        if FIGHT in groups:
            return max(groups[FIGHT], key=lambda i: triggers_value(opts[i].value[1].defeat))

        if ACQUIRE in groups or ACQUIRE_RESERVE in groups:
            i = self._acquire(
                game, p, opts, groups.get(ACQUIRE, []) + groups.get(ACQUIRE_RESERVE, [])
            )
            if i is not None:
                return i

        if FIGHT_RESERVE in groups:
            return groups[FIGHT_RESERVE][0]

        price = game.rules["market_price"]
        for i in groups.get(BUY, ()):
            if best_market_item(game, opts[i].value[1]).points > price:
                return i
        return None

    def _use(self, p: Any, opts: Sequence[Option], uses: list[int]) -> int | None:
        """A token to use: one that heals when the player is hurt at least that much, or,
        once it carries an artifact, any that does not heal."""
        for i in uses:
            tok = opts[i].value[1]
            heals = _reading_of(tok.use, lines=True).terms.get("heal", 0.0)
            if heals:
                if p.damage >= heals:
                    return i
            elif p.artifact is not None:
                return i
        return None

    def _coach(
        self, game: Any, p: Any, goal: int, opts: Sequence[Option], rides: list[int]
    ) -> int | None:
        """The first coach ride that brings the player at least 3 spaces nearer the goal,
        for a fare of at most 2 gold a space saved."""
        dist = game.board.dist
        spaces = game.board.spaces
        here = dist[p.pos][goal]
        for i in rides:
            dest = opts[i].value[1]
            saving = here - dist[dest][goal]
            cost = spaces[p.pos].coach + spaces[dest].coach
            if saving >= 3 and cost <= 2 * saving:
                return i
        return None

    def _acquire(self, game: Any, p: Any, opts: Sequence[Option], cands: list[int]) -> int | None:
        """The card of the best `card_score` on offer (the first of equals), when it scores
        1.5 or more."""
        scores = [self.card_score(game, p, opts[i].value[1]) for i in cands]
        best = max(scores)
        if best >= 1.5:
            return cands[scores.index(best)]
        return None

    def _move(
        self, game: Any, p: Any, goal: int, moves: list[tuple[int, tuple[Any, ...]]]
    ) -> int | None:
        dist = game.board.dist
        now = dist[p.pos][goal]
        left = game.rules["health"] - p.damage
        best, best_key = None, None
        for i, (_, m, swords) in moves:
            after = dist[m.to][goal]
            if after >= now:
                continue
            hurt = m.monsters - swords
            # Never walk into a knock-out; when hurt, avoid damage unless heading home.
            if hurt and (left - hurt <= 1 or (left - hurt <= self.CAREFUL and not p.artifact)):
                continue
            shortest = m.boots + after == now
            key = (shortest, -hurt, -swords if not hurt else 0, -after)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best


# The bots every pack is played by in the random-simulation tests; the search bot is named
# apart (`parse_bot`): its games cost seconds, not milliseconds.
BOTS: dict[str, Callable[[int], Any]] = {
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "random": RandomBot,
}


def make_bot(name: str, seed: int = 0) -> Any:
    """A new bot by name ("heuristic", "greedy", "random", "search", or "search:N" for a
    search bot with N playouts an option), seeded for its game and seat."""
    base, budget = parse_bot(name)
    if budget is not None:
        return SearchBot(seed, budget)
    return BOTS[base](seed)


def parse_bot(name: str) -> tuple[str, int | None]:
    """A bot name as (registered name, budget): "search:16" is ("search", 16), "heuristic"
    is ("heuristic", None). A ValueError names what is wrong and the known bots."""
    base, colon, budget = name.partition(":")
    if base not in BOTS and base != SearchBot.name:
        known = ", ".join([*BOTS, SearchBot.name])
        raise ValueError(f"unknown bot {name!r}; known: {known} (search:N: N playouts an option)")
    if not colon:
        return base, (DEFAULT_BUDGET if base == SearchBot.name else None)
    if base != "search" or not budget.isdigit() or int(budget) < MIN_PLAYOUTS:
        raise ValueError(
            f"bad bot {name!r}: only the search bot takes a budget, a whole number of "
            f"playouts an option of at least {MIN_PLAYOUTS} (search:{DEFAULT_BUDGET})"
        )
    return base, int(budget)
