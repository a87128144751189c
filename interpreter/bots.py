"""Bots: a heuristic player that plays the way people do, a simpler greedy one, a random one.

HeuristicBot ("heuristic") weighs everything in points of final score: which artifact is worth
its trip and its risk, the route there and home, which cards to buy, when to fight, when to
stay out one more turn. See its docstring.

GreedyBot ("greedy") plays every card first, picks an artifact worth its round trip, walks
there and back along the board's distance tables, spends swords on monster paths, fights and
buys with what is left, and never takes damage it cannot afford.

RandomBot ("random") picks any legal option, ending a turn a third of the time it may.

All are deterministic: the heuristic and greedy bots use no randomness at all (ties go to the
first option), the random bot its own `random.Random` seeded for its game and seat, so a game
depends only on its seed.
"""

from __future__ import annotations

import heapq
import math
import operator
import random
import weakref
from collections import OrderedDict

try:  # counting into a dict at C speed (what Counter(iterable) does, without its checks)
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Pythons

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        for x in iterable:
            mapping[x] = mapping.get(x, 0) + 1


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
    allowed_here,
    best_market_item,
)
from .board import ROW_CELLS, UNREACHABLE, Board, Move, summed_rewards
from .catalog import CardDef
from .decisions import Decision, Option
from .effects.entry_toll import is_toll
from .effects.registry import EFFECTS, TRIGGERS, Valuer
from .rules import for_players
from .state import ON_CLOCK, Ctx

# What one unit of each resource is worth to the greedy bot, in "skill".
WEIGHTS = {"skill": 1.0, "swords": 0.8, "boots": 1.5, "gold": 0.7, "clank": -0.6}

# -- valuation: every bot is a `Valuer` and asks the op records what a node is worth ---------
#
# No bot code names an op, a condition or a count: each record's ``appraise`` says what its
# node is worth through the Valuer questions, and a bot answers them with its own weights.
# What a card *gives* (its resource profile: boots, skill, draws...) is read the same way, by
# a Valuer whose units remember what they are made of (`_Worth`).

_APPRAISE: dict[str, Callable[[dict[str, Any], Any], Any]] = {}


def _nothing(node: dict[str, Any], v: Any) -> float:
    return 0.0


def _appraiser(op: str) -> Callable[[dict[str, Any], Any], Any]:
    """The appraisal of op ``op`` (remembered; an op without one is worth nothing, which
    tests/interpreter/test_registry.py does not let through)."""
    f = _APPRAISE.get(op)
    if f is None:
        f = _APPRAISE[op] = EFFECTS[op].appraise or _nothing
    return f


class _Appraiser(Valuer):
    """The part of the Valuer every bot shares: effect lists summed record by record, card
    lines weighed by how likely their condition is, opponents' gains as a share of ours."""

    # What an opponent getting something is worth to us, as a share of its worth to them.
    OPPONENT_SHARE = -0.3

    def unit(self, key: str) -> float:
        """Worth of one unit of ``key`` (subclasses answer)."""
        raise NotImplementedError

    def effects(self, nodes: Sequence[dict[str, Any]]) -> Any:
        """Worth of an effect list: the sum of each node's appraisal."""
        total = 0.0
        for n in nodes:
            op = n["op"]
            f = _APPRAISE.get(op) or _appraiser(op)
            total = total + f(n, self)
        return total

    def opponents(self, nodes: Sequence[dict[str, Any]]) -> Any:
        """Worth to us of each opponent getting ``nodes``."""
        return self.OPPONENT_SHARE * self.effects(nodes)

    def line(self, cond: dict[str, Any] | None) -> float:
        """How much a card line counts: a line's condition waits for the rest of the turn,
        so it holds a little more often than an ``if`` tested at once."""
        return 1.0 if cond is None else min(1.0, 1.2 * self.chance(cond))

    def lines(self, triggers: Any) -> Any:
        """Worth of a card's or token's trigger list, each line by its chance."""
        total = 0.0
        for cond, eff in triggers:
            total = total + self.line(cond) * self.effects(eff)
        return total

    def hooks(self, thing: Any) -> Any:
        """Worth of a card's triggers on events ("at the end of your turn: ..."), each line by
        its condition's chance. A card is in play for one turn, so each fires about once
        for a play: its effects are taken once (a trigger record's own appraisal counts how
        often it fires over a game, which is for held tokens and spaces)."""
        total = 0.0
        for h in getattr(thing, "hooks", ()):
            total = total + self.line(h.cond) * self.effects(h.effects)
        return total


def _effect_lists(node: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The effect lists a structural node holds (what a "may" decision does when taken)."""
    return [
        x
        for k, x in node.items()
        if k != "at" and isinstance(x, list) and x and isinstance(x[0], dict) and "op" in x[0]
    ]


class _GreedyValuer(_Appraiser):
    """The greedy bot's fixed worths, in skill."""

    OPPONENT_SHARE = -0.5
    UNITS = {
        **WEIGHTS,
        "draw": 1.2,
        "heal": 0.7,
        "damage": -1.0,
        "discard": -0.8,
        "trash": 0.4,
        "rage": -1.0,
        "teleport": 1.0,
        "minor secret": 1.5,
        "major secret": 3.0,
        "token": 1.0,
        "dragon attack": -2.0,
        "bag cube": 0.2,
        "points": 1.0,
    }

    def __init__(self, hurt: bool = True) -> None:
        self.units = dict(self.UNITS)
        if not hurt:
            self.units["heal"] = 0.0  # healing an unhurt player does nothing

    def unit(self, key: str) -> float:
        """Worth of one unit of ``key`` (an unknown key: a little, like a new resource)."""
        return self.units.get(key, 0.5)

    def pays(self, cost: Sequence[dict[str, Any]]) -> float:
        """A price counts for a little less than it says: it may not be payable then."""
        return 0.7


_GREEDY = _GreedyValuer()
_GREEDY_UNHURT = _GreedyValuer(hurt=False)


def effects_value(nodes: list[dict[str, Any]]) -> float:
    """A rough worth of an effect list for the player who gets it (the greedy bot's)."""
    return _GREEDY.effects(nodes)


def triggers_value(triggers: Any) -> float:
    """Worth of a card's trigger list for the greedy bot; conditional lines count less."""
    return _GREEDY.lines(triggers)


def play_value(card: Any) -> float:
    """Worth of playing a card for the greedy bot: its play lines and its triggers on events
    while it is in play."""
    return _GREEDY.lines(card.play) + _GREEDY.hooks(card)


class _Worth:
    """A worth that remembers the units it is made of: ``value`` in points, ``terms`` the
    amount of each unit key ("" for worth that came as a plain number). Appraisals only add,
    scale, negate and compare, so handing them these instead of floats reads a card's
    profile with the same code that values it."""

    __slots__ = ("value", "terms")

    def __init__(self, value: float, terms: dict[str, float]) -> None:
        self.value = value
        self.terms = terms

    def _scaled(self, k: float) -> _Worth:
        return _Worth(self.value * k, {key: x * k for key, x in self.terms.items()})

    def __add__(self, other: Any) -> _Worth:
        terms = dict(self.terms)
        if isinstance(other, _Worth):
            for key, x in other.terms.items():
                terms[key] = terms.get(key, 0.0) + x
            return _Worth(self.value + other.value, terms)
        terms[""] = terms.get("", 0.0) + other
        return _Worth(self.value + other, terms)

    __radd__ = __add__

    def __neg__(self) -> _Worth:
        return self._scaled(-1.0)

    def __sub__(self, other: Any) -> _Worth:
        return self + -other

    def __rsub__(self, other: Any) -> _Worth:
        return -self + other

    def __mul__(self, other: Any) -> _Worth:
        return self._scaled(other.value if isinstance(other, _Worth) else other)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> _Worth:
        return self._scaled(1.0 / (other.value if isinstance(other, _Worth) else other))

    def __float__(self) -> float:
        return float(self.value)

    def __bool__(self) -> bool:
        return self.value != 0

    def __abs__(self) -> _Worth:
        return self._scaled(-1.0) if self.value < 0 else self

    def _v(self, other: Any) -> float:
        return other.value if isinstance(other, _Worth) else other

    def __lt__(self, other: Any) -> bool:
        return self.value < self._v(other)

    def __le__(self, other: Any) -> bool:
        return self.value <= self._v(other)

    def __gt__(self, other: Any) -> bool:
        return self.value > self._v(other)

    def __ge__(self, other: Any) -> bool:
        return self.value >= self._v(other)


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
        groups: dict[str, list[int]] = {}
        for i, o in enumerate(d.options):
            groups.setdefault(o.value[0], []).append(i)
        opts = d.options
        if PLAY in groups:
            return groups[PLAY][0]

        goal = self.goal(game, p)
        if TAKE in groups and (goal == p.pos or goal is None):
            return groups[TAKE][0]

        for i in groups.get(ACT, ()):
            if ACT.appraise(opts[i].value, _GREEDY) > 0:
                return i

        for i in groups.get(USE, ()):
            tok = opts[i].value[1]
            heals = _reading_of(tok.use, lines=True).terms.get("heal", 0.0)
            if heals:
                if p.damage >= heals:
                    return i
            elif p.artifact is not None:
                return i

        if MOVE in groups and goal is not None:
            i = self._move(game, p, goal, [(i, opts[i].value) for i in groups[MOVE]])
            if i is not None:
                return i

        if COACH in groups and goal is not None:
            dist = game.board.dist
            spaces = game.board.spaces
            here = dist[p.pos][goal]
            for i in groups[COACH]:
                dest = opts[i].value[1]
                saving = here - dist[dest][goal]
                cost = spaces[p.pos].coach + spaces[dest].coach
                if saving >= 3 and cost <= 2 * saving:
                    return i

        if FIGHT in groups:
            return max(groups[FIGHT], key=lambda i: triggers_value(opts[i].value[1].defeat))

        if ACQUIRE in groups or ACQUIRE_RESERVE in groups:
            cands = groups.get(ACQUIRE, []) + groups.get(ACQUIRE_RESERVE, [])
            scores = [self.card_score(game, p, opts[i].value[1]) for i in cands]
            best = max(scores)
            if best >= 1.5:
                return cands[scores.index(best)]

        if FIGHT_RESERVE in groups:
            return groups[FIGHT_RESERVE][0]

        price = game.rules["market_price"]
        for i in groups.get(BUY, ()):
            if best_market_item(game, opts[i].value[1]).points > price:
                return i

        return groups[END_TURN][0] if END_TURN in groups else 0

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


# -- the heuristic bot ----------------------------------------------------------------------
#
# Units: everything the heuristic bot weighs is in points of final score. A boot is worth the
# time it saves (the points a turn brings in, plus the dragon damage a turn risks), a point of
# health what losing it does to the chance of dying with everything at stake, a Clank! cube
# the share of the coming dragon draws it will be in.

# Indexes of a card's resource profile.
SKILL, SWORDS, BOOTS, GOLD, CLANK, DRAW, HEAL, TELEPORT, OTHER = range(9)
_RES = {"skill": SKILL, "swords": SWORDS, "boots": BOOTS, "gold": GOLD, "clank": CLANK}
# Weights used to read a card once, before any game: a choice is read as its best option.
_BASE_W = (1.0, 0.7, 1.5, 1.0, -0.5, 1.0, 0.5, 1.5, 1.0)
# Monster icon cost levels (in boots) of the route tables, and the boots a forest costs on
# the way (entering one ends the turn's walking).
MU_LEVELS = (0.25, 1.0, 2.5, 6.0)
FOREST_COST = 1.0
# Extra cost of each boot beyond the first that one path needs (they must come in one turn).
FOOTPRINT_COST = 0.5
# Farthest detour (in extra boots) the bot considers for a reward on the way.
DETOUR_MAX = 3.0
_INF = float(UNREACHABLE)
_NONE: frozenset[Any] = frozenset()
# A space no target is ever on (`HeuristicBot._best_target` without STICK).
_NOWHERE = -2


_third = operator.itemgetter(2)


_REWARD_KINDS = ("major secret", "minor secret", "heal", "gold", "draw", "fruit")


# The resources a pool gains (and a token's "use" may give).
_GAINS = {"skill": SKILL, "swords": SWORDS, "boots": BOOTS, "gold": GOLD}
# Profile dimensions of the unit keys; "discard" is a card drawn the other way.
_DIM = {
    "skill": SKILL,
    "swords": SWORDS,
    "boots": BOOTS,
    "gold": GOLD,
    "clank": CLANK,
    "draw": DRAW,
    "heal": HEAL,
    "teleport": TELEPORT,
}
# Worths used to read a card once, before any game (the base weights above, and for what
# goes into OTHER its worth in points).
_BASE_UNITS = {
    **{k: _BASE_W[i] for k, i in _DIM.items()},
    "damage": -1.0,
    "discard": -1.0,
    "trash": 0.5,
    "minor secret": 2.0,
    "major secret": 4.0,
    "token": 1.0,
    "rage": -2.0,
    "dragon attack": -2.0,
    "bag cube": 0.3,
    "points": 1.0,
}
# A unit key no bot knows (a resource a pack declares, a new op's word): worth a little.
_UNKNOWN_UNIT = 0.5


class _Profiler(_Appraiser):
    """Reads what effects give, by unit, with the base weights deciding the choices (the best
    option, a "may" only when it pays); what opponents get counts as OTHER. It remembers
    every unit asked about and every space feature a condition needs."""

    def __init__(self) -> None:
        self.asked: set[str] = set()
        self.places: list[str] = []

    def unit(self, key: str) -> _Worth:
        """One unit of ``key``, worth its base weight."""
        self.asked.add(key)
        return _Worth(_BASE_UNITS.get(key, _UNKNOWN_UNIT), {key: 1.0})

    def opponents(self, nodes: Sequence[dict[str, Any]]) -> _Worth:
        """What opponents get, as plain worth (it is not in our pool)."""
        worth = float(self.OPPONENT_SHARE * self.effects(nodes))
        return _Worth(worth, {"": worth})

    def pays(self, cost: Sequence[dict[str, Any]]) -> float:
        """A price is not always there to pay (no card to discard, no gold yet): what it
        buys counts for a little over half of a turn's profile."""
        return 0.6

    def where(self, feature: str) -> float:
        """Half the time, and the card is marked as paying off on such spaces."""
        self.places.append(feature)
        return 0.5


class _Reading:
    """What a list of card lines gives: the profile (see SKILL...OTHER), the amount of each
    unit key, every unit key its effects mention and the space features they need."""

    __slots__ = ("profile", "terms", "asked", "places")

    def __init__(self, triggers: Any, design: Any = None) -> None:
        pr = _Profiler()
        worth = pr.lines(triggers)
        if design is not None:
            worth = worth + pr.hooks(design)
        terms = worth.terms if isinstance(worth, _Worth) else {"": float(worth)}
        out = [0.0] * 9
        for key, x in terms.items():
            i = _DIM.get(key)
            if i is not None:
                out[i] += x
            elif key == "discard":
                out[DRAW] -= x
            elif key == "":
                out[OTHER] += x
            else:
                out[OTHER] += x * _BASE_UNITS.get(key, _UNKNOWN_UNIT)
        self.profile = tuple(out)
        self.terms = terms
        self.asked = frozenset(pr.asked)
        self.places = tuple(pr.places)


# Readings by the id of the list read; the list itself is kept with it, so its id is never
# reused by another list while the entry lives. At most READINGS_KEPT of them: the lists of
# a pack's designs are read again and again, but a list made anew (the effects of a board's
# tables rebuilt, a decision's options) is a new entry each time, and a long run would keep
# them all. The readings are a cache: read again, a list reads the same.
READINGS_KEPT = 4096
_READINGS: dict[int, tuple[Any, _Reading]] = {}


def _reading_of(nodes: Any, lines: bool = False) -> _Reading:
    """The reading of an effect list (or, with ``lines``, of a list of card lines)."""
    hit = _READINGS.get(id(nodes))
    if hit is not None and hit[0] is nodes:
        return hit[1]
    reading = _Reading(nodes if lines else [(None, nodes)])
    if len(_READINGS) >= READINGS_KEPT:
        _READINGS.clear()
    _READINGS[id(nodes)] = (nodes, reading)
    return reading


# The tails by h, then by lam in hundredths.
_TAILS: dict[int, dict[int, float]] = {}


def _tail(lam: float, h: int) -> float:
    """P(X >= h) for X ~ Poisson(lam): the chance that expected damage ``lam`` fills ``h``
    (``lam`` is read to the hundredth; the values are remembered)."""
    if h <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    k = round(lam * 100)
    row = _TAILS.get(h)
    if row is None:
        row = _TAILS[h] = {}
    v = row.get(k)
    if v is None:
        v = row[k] = _poisson_tail(k / 100, h)
    return v


def _poisson_tail(lam: float, h: int) -> float:
    term = math.exp(-lam)
    below = term
    for i in range(1, h):
        term *= lam / i
        below += term
    return max(0.0, 1.0 - below)


class _Rows(dict[int, list[Any]]):
    """One of a route table's tables by target (``cost``, ``icons``, ``step``, ``walk``):
    the rows for a target are worked out together when one of them is first read. It points
    back at its table weakly: a cycle would leave each table dropped to the cycle collector,
    which a long run of games calls seldom."""

    __slots__ = ("routes",)

    def __init__(self, routes: _Routes) -> None:
        super().__init__()
        self.routes = weakref.ref(routes)

    def __missing__(self, t: int) -> list[Any]:
        routes = self.routes()
        assert routes is not None, "a route table's row read after the table was dropped"
        routes.add(t)
        return dict.__getitem__(self, t)


class _Routes:
    """Route costs to every space on one board, for one monster weight and item set.

    ``cost[t][a]`` is the weighted cost of the best route from a to t (boots, plus mu per
    monster icon, plus a forest's lost boots), ``icons[t][a]`` the monster icons on it and
    ``step[t][a]`` its first `Move`, ``walk[t][a]`` its cost without the monster weight
    (``cost - mu * icons``, the boots and forests the trip takes). Routes never pass through HQ.

    A path of a way paid in another resource than boots counts only when ``paid`` prices that
    resource, (resource, boots one unit counts as) pairs: 1 while the player holds some, more
    while it has to wait for a turn that brings one. Entering a space of ``tolls`` (its entry
    toll is live) counts as ``toll[space]`` more monster icons.

    The rows for a target t (``cost[t]`` and the others) are worked out when first read, by
    Dijkstra's algorithm from t along the moves reversed, and kept while the table holds
    fewer than ROW_CELLS cells a table (every row on a board of up to 1,000 spaces); `out`
    gives the costs from one space to every target without working out their rows.
    """

    __slots__ = (
        "cost",
        "icons",
        "step",
        "walk",
        "mu",
        "_near",
        "_legs",
        "_ahead",
        "_incoming",
        "_outgoing",
        "_out",
        "_hq",
        "_forest",
        "_toll",
        "_keep",
        "__weakref__",
    )

    def __init__(
        self,
        board: Board,
        grants: frozenset[str],
        mu: float,
        closed: frozenset[int] = frozenset(),
        paid: frozenset[tuple[str, float]] = _NONE,
        tolls: dict[int, int] | None = None,
    ) -> None:
        n = len(board.spaces)
        self._hq = board.hq
        self._forest = [sp.exhausts for sp in board.spaces]
        toll = self._toll = [0] * n
        for s, k in (tolls or {}).items():
            toll[s] = k
        self._toll = toll
        price = dict(paid)
        # Each way in: (from, move, boots, the footprints' extra, icons, exhausts); a way paid
        # in another resource counts its price in boots (`paid`), or is left out.
        incoming: list[list[tuple[int, Move, float, float, int, bool]]] = [[] for _ in range(n)]
        for a, moves in enumerate(board.moves):
            for m in moves:
                if closed and m.way.blocked_by and (a in closed or m.to in closed):
                    continue  # a way closed there now (a token that blocks it lies on an end)
                boots: float = m.boots
                if m.way.paid_in != "boots":
                    unit = price.get(m.way.paid_in, 0.0)
                    if not unit:
                        continue
                    boots = m.boots * unit
                if all(r in grants for r in m.requires):
                    # A free move (a lift: no boots) has no footprints to pay extra for.
                    extra = FOOTPRINT_COST * (m.boots - 1) if m.boots else 0.0
                    incoming[m.to].append((a, m, boots, extra, m.monsters, m.way.exhausts))
        self._incoming = incoming
        self._outgoing: list[list[tuple[int, float, float, int, bool]]] | None = None
        self.mu = mu
        self._near: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
        self._legs: dict[int, list[tuple[int, float, float, float, int, bool]]] = {}
        self._ahead: dict[tuple[int, int, int], int] = {}
        self._out: dict[int, list[float]] = {}
        self._keep = max(1, ROW_CELLS // max(1, n))
        self.cost: _Rows = _Rows(self)
        self.icons: _Rows = _Rows(self)
        self.step: _Rows = _Rows(self)
        self.walk: _Rows = _Rows(self)

    def add(self, t: int) -> None:
        """Work out the rows for target t: the best route from every space to t, by
        Dijkstra's algorithm from t along the moves reversed (of two routes that cost the
        same, the one through the space settled first, then along the move listed first)."""
        n = len(self._incoming)
        if not 0 <= t < n:
            raise IndexError(f"no space {t!r} on the board")
        mu, hq, forest, toll, incoming = self.mu, self._hq, self._forest, self._toll, self._incoming
        d = [_INF] * n
        icons = [0] * n
        step: list[Move | None] = [None] * n
        done = [False] * n
        d[t] = 0.0
        heap = [(0.0, t)]
        while heap:
            du, u = heapq.heappop(heap)
            if done[u]:
                continue
            done[u] = True
            if u == hq and t != hq:
                continue
            enter = FOREST_COST if forest[u] and u != t else 0.0
            hurt = toll[u]
            if hurt:
                enter += mu * hurt
            for a, m, boots, extra, monsters, exhausts in incoming[u]:
                nd = du + boots + extra + mu * monsters + enter
                if exhausts:
                    # A way that exhausts (a lift) ends the turn's walking, like a forest.
                    nd += FOREST_COST
                if nd < d[a] - 1e-9:
                    d[a] = nd
                    icons[a] = icons[u] + monsters + hurt
                    step[a] = m
                    heapq.heappush(heap, (nd, a))
        tables = (self.cost, self.icons, self.step, self.walk)
        if len(self.cost) >= self._keep:
            oldest = next(iter(self.cost))
            for table in tables:
                del table[oldest]
        # The same expression the trip estimates evaluated every turn (`_best_target`).
        walk = [c - mu * k for c, k in zip(d, icons, strict=True)]
        for table, row in zip(tables, (d, icons, step, walk), strict=True):
            dict.__setitem__(table, t, row)

    def out(self, a: int) -> list[float]:
        """``cost[t][a]`` for every target t (the costs of the best routes from a), by one
        Dijkstra from a (remembered, like the rows): what a look at every stop around reads.

        The same figures as the rows: a route's cost is a sum of boots, footprints, forests
        and icons times mu, all multiples of a quarter, which floats add exactly in any order;
        a forest ends the walk everywhere but at the route's end, so the cost to t is the
        cost of a route entering t minus t's forest."""
        row = self._out.get(a)
        if row is not None:
            return row
        n = len(self._incoming)
        if not 0 <= a < n:
            raise IndexError(f"no space {a!r} on the board")
        mu, hq, forest, toll = self.mu, self._hq, self._forest, self._toll
        outgoing = self._outgoing
        if outgoing is None:
            outgoing = self._outgoing = [[] for _ in range(n)]
            for u, ways_in in enumerate(self._incoming):
                enter = (FOREST_COST if forest[u] else 0.0) + mu * toll[u]
                for b, _m, boots, extra, monsters, exhausts in ways_in:
                    outgoing[b].append((u, boots + extra + mu * monsters, enter, exhausts))
        g = [_INF] * n
        g[a] = 0.0
        heap = [(0.0, a)]
        while heap:
            du, u = heapq.heappop(heap)
            if du > g[u]:
                continue
            if u == hq and u != a:
                continue
            for v, w, enter, exhausts in outgoing[u]:
                nd = du + w + enter
                if exhausts:
                    nd += FOREST_COST
                if nd < g[v]:
                    g[v] = nd
                    heapq.heappush(heap, (nd, v))
        for t in range(n):
            if forest[t] and t != a and g[t] < _INF:
                g[t] -= FOREST_COST
        g[a] = 0.0
        if len(self._out) >= self._keep:
            del self._out[next(iter(self._out))]
        self._out[a] = g
        return g

    def legs(
        self, pos: int, board: Board, danger_zone: Sequence[bool]
    ) -> list[tuple[int, float, float, float, int, bool]]:
        """The round trips from pos to each artifact space and on to HQ that can be walked, in
        the board's order of artifact spaces: (space, walk there, walk home, the two summed,
        monster icons on both, whether the space is in a danger zone) (cached)."""
        out = self._legs.get(pos)
        if out is None:
            hq = board.hq
            walk, icons = self.walk, self.icons
            home_walk, home_icons = walk[hq], icons[hq]
            out = []
            for s in board.artifact_spaces:
                b1, b2 = walk[s][pos], home_walk[s]
                if b1 + b2 >= _INF / 4:
                    continue
                # The icons as a float: they are only ever multiplied by one.
                ic = float(icons[s][pos] + home_icons[s])
                out.append((s, b1, b2, b1 + b2, ic, danger_zone[s]))
            self._legs[pos] = out
        return out

    def near(self, pos: int, goal: int, stops: Sequence[tuple[Any, ...]]) -> list[Any]:
        """The stops (``stops[i][0]`` is a space) at most DETOUR_MAX boots off the best route
        from pos to goal, as (extra boots, *stop), nearest first (cached)."""
        key = (pos, goal)
        out = self._near.get(key)
        if out is None:
            to_goal = self.cost[goal]
            here = to_goal[pos]
            # ``cost[x][pos]`` for every stop x, without working out a row for each.
            from_pos = self.out(pos)
            out = []
            for stop in stops:
                x = stop[0]
                if x in (pos, goal):
                    continue
                extra = from_pos[x] + to_goal[x] - here
                if extra <= DETOUR_MAX:
                    # The amounts the gain multiplies or adds, as floats (the same sums).
                    x, major, minor, heal, gold, draw, fruit, town = stop
                    out.append(
                        (extra, x, major, float(minor), heal, float(gold), float(draw), fruit, town)
                    )
            out.sort(key=lambda e: e[0])
            self._near[key] = out
        return out


class _BoardInfo:
    """What the heuristic bot precomputes once per board (and its pack): route tables by
    monster weight and items held, the resource profile of each card, the attack rate."""

    __slots__ = (
        "board",
        "catalog",
        "routes",
        "plain_routes",
        "requirements",
        "way_resources",
        "way_list",
        "per_turn",
        "toll_hurt",
        "toll_swords",
        "toll_hooks",
        "toll_fight",
        "all_tolls",
        "dynamic",
        "entry_hooks",
        "_amounts",
        "blockers",
        "profiles",
        "terms",
        "deck_cards",
        "dragon_share",
        "forest",
        "danger_zone",
        "mugs",
        "market",
        "rewards",
        "major_spaces",
        "most",
        "place",
        "lines",
        "least_fare",
        "coach_pairs",
        "kinds",
        "shortened",
    )

    def __init__(self, game: Any) -> None:
        board = game.board
        self.board = board
        # The pack it was made for (a variant of a pack plays on the same board).
        self.catalog = game.catalog
        self.routes: dict[tuple[Any, ...], _Routes] = {}
        # The tables for a player whose items open no path, by monster weight.
        self.plain_routes: dict[float, _Routes] = {}
        self.requirements = frozenset(r for ms in board.moves for m in ms for r in m.requires)
        # Resources other than boots that some path's way is paid in (a route prices such a
        # path by how soon the player has some: `HeuristicBot._paying`), and the per-turn
        # ones among them.
        self.way_resources = frozenset(
            m.way.paid_in for ms in board.moves for m in ms if m.way.paid_in != "boots"
        )
        self.way_list = tuple(sorted(self.way_resources))
        declared = game.catalog.resources
        self.per_turn = frozenset(
            r for r in self.way_resources if r not in declared or declared[r].per_turn
        )
        # Spaces with an entry toll: the damage it may deal (a route counts it as monster
        # icons while the toll is live) and the swords one of its options asks (kept for it).
        self.toll_hurt: dict[int, int] = {}
        self.toll_swords: dict[int, int] = {}
        self.toll_hooks: dict[int, tuple[Any, ...]] = {}
        # The option of each toll paid in swords (beating the guard), as an effect list.
        self.toll_fight: dict[int, list[dict[str, Any]]] = {}
        for s in sorted(board.tolled):
            hooks = tuple(h for h in board.spaces[s].on.get("enter", ()) if is_toll(h))
            hurt = swords = 0
            for h in hooks:
                for lst in _nested_lists(h.effects):
                    terms = _reading_of(lst).terms
                    hurt = max(hurt, round(terms.get("damage", 0.0)))
                    asks = round(-terms.get("swords", 0.0))
                    if asks > swords:
                        swords = asks
                        self.toll_fight[s] = lst
            self.toll_hooks[s] = hooks
            self.toll_hurt[s] = hurt
            self.toll_swords[s] = swords
        # Every space with an entry toll: route tables count them all (a guard beaten since is
        # seen on the move into its space: `HeuristicBot._live`), so they stay few.
        self.all_tolls = frozenset(self.toll_hooks)
        # Whether the route table depends on what the player holds or on the tolls.
        self.dynamic = bool(self.way_resources or self.toll_hooks)
        # Spaces whose entry triggers give something `Space.rewards` does not sum up (a token
        # taken if the player lacks one, a choice of tokens...): their hooks by space, weighed
        # with the game in view when the bot picks a move (`_entry_gain`).
        self.entry_hooks: dict[int, tuple[Any, ...]] = {}
        for sp in board.spaces:
            hooks = tuple(
                h
                for h in sp.on.get("enter", ())
                if not is_toll(h) and h.who == "you" and not summed_rewards((h,))
            )
            if hooks:
                self.entry_hooks[sp.index] = hooks
        self._amounts: dict[CardDef, dict[str, float]] = {}
        # Words of tokens that close a way where they lie (`blocked by`): the route tables
        # leave out moves of such a way from or to a space holding one (see `closed`).
        self.blockers = frozenset(w for ms in board.moves for m in ms for w in m.way.blocked_by)
        self.profiles: dict[CardDef, tuple[float, ...]] = {}
        self.terms: dict[CardDef, tuple[tuple[int, float], ...]] = {}
        adventure = [c for c in game.catalog.cards if c.deck == "adventure"]
        cards = sum(c.copies for c in adventure if c.type != "event") or 1
        dragons = sum(c.copies for c in adventure if c.dragon and c.type != "event")
        events = sum(c.copies for c in adventure if c.type == "event")
        attack_events = sum(
            c.copies
            for c in adventure
            if c.type == "event" and "dragon attack" in _reading_of(c.arrive, lines=True).asked
        )
        # Chance that one card revealed into the row starts an attack.
        self.deck_cards = cards + events
        self.dragon_share = (dragons + attack_events) / (cards + events)
        self.forest = [sp.exhausts for sp in board.spaces]
        self.danger_zone = [sp.danger_zone for sp in board.spaces]
        tokens = game.catalog.tokens
        self.mugs = [t for t in tokens if t.kind == "mug"]
        self.market = [t for t in tokens if t.kind == "market"]
        # Spaces worth a stop: (space, major, minor, heal, gold, draw, fruit, town).
        self.rewards = _stops(board)
        self.major_spaces = [r[0] for r in self.rewards if r[1]]
        # The most of each reward one space gives (bounds the worth of a stop).
        self.most = [max((r[i] for r in self.rewards), default=0) for i in range(1, 6)]
        self.place: dict[CardDef, str] = {}
        self.lines: dict[tuple[Any, str], list[dict[str, Any]]] = {}
        fares = [
            board.spaces[a].coach + board.spaces[b].coach
            for a in board.coach_spaces
            for b in board.coach_spaces
            if a != b
        ]
        self.least_fare = min(fares, default=0)
        # Each coach space and the rides from it: (coach space, [(other coach space, fare)]),
        # none on a board with fewer than two.
        coach = board.coach_spaces
        self.coach_pairs = [
            (a, [(b, board.spaces[a].coach + board.spaces[b].coach) for b in coach if b != a])
            for a in coach
        ]
        if len(coach) < 2:
            self.coach_pairs = []
        self.kinds: dict[CardDef, int] = {}
        # The artifact spaces whose round trip from a space a route table with one more item
        # shortens, by the tables without and with it and the space (`_enabling`).
        self.shortened: dict[tuple[Any, ...], list[int]] = {}

    def table(
        self,
        grants: frozenset[str],
        mu: float,
        closed: frozenset[int] = frozenset(),
        paid: frozenset[tuple[str, float]] = _NONE,
        tolls: frozenset[int] = _NONE,
    ) -> _Routes:
        """The route table for these items, this monster weight, the spaces where a blocked
        way is closed now, the price in boots of the other resources that pay for ways and
        the spaces whose entry toll is live (built on first use)."""
        if closed or paid or tolls:
            key: tuple[Any, ...] = (grants & self.requirements, mu, closed, paid, tolls)
        else:
            key = (grants & self.requirements, mu)
        r = self.routes.get(key)
        if r is None:
            hurt = {s: self.toll_hurt[s] for s in tolls if s in self.toll_hurt}
            r = self.routes[key] = _Routes(self.board, key[0], mu, closed, paid, hurt)
        return r

    def closed(self, game: Any) -> frozenset[int]:
        """The spaces where a token that blocks a way lies now (empty on most boards)."""
        if not self.blockers:
            return frozenset()
        words = self.blockers
        return frozenset(
            s
            for s, held in enumerate(game.space_tokens)
            if any(w in t.match for w in words for t in held)
        )

    def table_for(self, tokens: Sequence[Any], mu: float) -> _Routes:
        """`table` for what these held tokens grant (the common case, a board whose paths
        need nothing or a player holding nothing that grants, without building the set)."""
        if tokens and self.requirements and any(t.grants for t in tokens):
            return self.table(frozenset(g for t in tokens for g in t.grants), mu)
        r = self.plain_routes.get(mu)
        if r is None:
            r = self.plain_routes[mu] = self.table(_NO_GRANTS, mu)
        return r

    def profile(self, card: CardDef) -> tuple[float, ...]:
        """What playing the card gives, by resource (conditional lines count by their
        chance), its triggers on events while in play included."""
        v = self.profiles.get(card)
        if v is None:
            if getattr(card, "hooks", ()):
                v = _Reading(card.play, card).profile
            else:
                v = _reading_of(card.play, lines=True).profile
            self.profiles[card] = v
        return v

    def profile_terms(self, card: CardDef) -> tuple[tuple[int, float], ...]:
        """The card's profile as (index, amount) for each resource it gives, in profile
        order (cached): what `HeuristicBot.power` sums."""
        v = self.terms.get(card)
        if v is None:
            prof = self.profile(card)
            v = self.terms[card] = tuple((i, a) for i, a in enumerate(prof) if a)
        return v

    def amounts(self, card: CardDef) -> dict[str, float]:
        """What playing the card gives of each unit key (``_Reading.terms``, remembered)."""
        v = self._amounts.get(card)
        if v is None:
            if getattr(card, "hooks", ()):
                v = _Reading(card.play, card).terms
            else:
                v = _reading_of(card.play, lines=True).terms
            self._amounts[card] = v
        return v

    def effects(self, thing: Any, on: str) -> list[dict[str, Any]]:
        """Every effect of a card's or token's triggers of one kind, in one list."""
        key = (thing, on)
        out = self.lines.get(key)
        if out is None:
            out = self.lines[key] = [e for _, eff in getattr(thing, on) for e in eff]
        return out

    def play_kind(self, card: CardDef) -> int:
        """3: pays off on some space (and gives no boots), 2: discards to draw, 1: draws,
        0: anything else."""
        k = self.kinds.get(card)
        if k is None:
            k = 0
            reading = _reading_of(card.play, lines=True)
            prof = reading.profile
            if reading.places and prof[BOOTS] <= 0:
                self.place[card] = reading.places[0]
                k = 3
            elif "discard" in reading.asked:
                k = 2
            elif prof[DRAW] > 0:
                k = 1
            self.kinds[card] = k
        return k


def _nested_lists(nodes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """An effect list and every effect list nested in its nodes (a choice's options too)."""
    out = [nodes]
    for node in nodes:
        for k, x in node.items():
            if k == "at" or not isinstance(x, list) or not x:
                continue
            if isinstance(x[0], dict) and "op" in x[0]:
                out += _nested_lists(x)
            elif isinstance(x[0], list):
                for lst in x:
                    if lst and isinstance(lst[0], dict) and "op" in lst[0]:
                        out += _nested_lists(lst)
    return out


def _doable(game: Any, ctx: Any, nodes: list[dict[str, Any]]) -> bool:
    """Whether every node of an effect list (and of the lists nested in it) that has a price
    or a precondition (`can_pay`) could be done now: a token still there to take, one to
    take from elsewhere... (a choice's options are not asked: one of them will do)."""
    for n in nodes:
        can = EFFECTS[n["op"]].can_pay
        if can is not None and not can(game, ctx, n):
            return False
        for lst in _effect_lists(n):
            if not _doable(game, ctx, lst):
                return False
    return True


def _stops(board: Board) -> list[tuple[int, int, int, int, int, int, int, bool]]:
    """The spaces worth a stop, from their rewards: (space, major, minor, heal, gold, draw,
    fruit, town). The only place the bot reads `Space.rewards`."""
    out = []
    for sp in board.spaces:
        got = dict.fromkeys(_REWARD_KINDS, 0)
        for kind, k in sp.rewards:
            if kind in got:
                got[kind] += k
        town = "town" in sp.features
        if town or any(got.values()):
            out.append((sp.index, *got.values(), town))
    return out


_NO_GRANTS: frozenset[str] = frozenset()


def _holds_kind(tokens: Sequence[Any], kind: str) -> bool:
    """Whether any of the tokens is of that kind (a loop: cheaper than `any` of a generator)."""
    for t in tokens:  # noqa: SIM110
        if t.kind == kind:
            return True
    return False


# The tables of the boards played last, at most BOARDS_KEPT of them, the least recently used
# dropped first. A pack plays on one board or a few, whose tables then last the whole run;
# but a modular board is assembled anew each game (Space: 48 ships), and one board's route
# tables grow to megabytes, so keeping every board met would grow a long run's memory with
# the number of ships played (to ~300 MiB for Space). The tables are a cache: rebuilt, they
# are the same, and so are the games. Keyed by the board and the id of the pack it is played
# with: a variant of a pack (simulate's --without, --give, --sweep) plays on the same board
# with other cards (the entry keeps its pack, so the id is never another pack's meanwhile).
BOARDS_KEPT = 8
_INFO: OrderedDict[tuple[Board, int], _BoardInfo] = OrderedDict()


def _board_info(game: Any) -> _BoardInfo:
    key = (game.board, id(game.catalog))
    info = _INFO.get(key)
    if info is None or info.catalog is not game.catalog:
        info = _INFO[key] = _BoardInfo(game)
        while len(_INFO) > BOARDS_KEPT:
            _INFO.popitem(last=False)
    else:
        _INFO.move_to_end(key)
    return info


def _groups(opts: Sequence[Option]) -> dict[Any, Sequence[int]]:
    """The option indexes of each action kind. `legal_actions` lists a kind's options
    together, so each kind is a range of indexes, found by looking at where the kind changes;
    a list whose kinds come back later is grouped one option at a time."""
    groups: dict[Any, Sequence[int]] = {}
    prev = None
    start = 0
    i = 0
    for o in opts:
        kind = o[1][0]
        if kind is not prev:
            if prev is not None:
                groups[prev] = range(start, i)
            if kind in groups:
                return _groups_slow(opts)
            prev, start = kind, i
        i += 1
    if prev is not None:
        groups[prev] = range(start, i)
    return groups


def _groups_slow(opts: Sequence[Option]) -> dict[Any, Sequence[int]]:
    groups: dict[Any, list[int]] = {}
    for i, o in enumerate(opts):
        groups.setdefault(o[1][0], []).append(i)
    return groups  # type: ignore[return-value]


def _game_rules(game: Any) -> tuple[int, int, int, Any]:
    """The rules the heuristic bot reads every turn, for one game: hand size, row size, health
    and the cubes drawn a turn off the clock at this player count."""
    rules = game.rules
    off_draw = for_players(rules["off_clock_draw"], len(game.players))
    return rules["hand_size"], rules["row_size"], rules["health"], off_draw


def _weighted(amounts: Sequence[float], weights: Sequence[float]) -> float:
    """The value of a resource profile: each amount times its weight, summed left to right
    (the same order of float additions every time, so bots stay deterministic)."""
    a, w = amounts, weights
    # Unrolled for speed (a profile has nine entries); the additions stay left to right.
    return (
        a[0] * w[0]
        + a[1] * w[1]
        + a[2] * w[2]
        + a[3] * w[3]
        + a[4] * w[4]
        + a[5] * w[5]
        + a[6] * w[6]
        + a[7] * w[7]
        + a[8] * w[8]
    )


class HeuristicBot(_Appraiser):
    """Plays like people: an artifact worth its risk, a planned route there and home, a deck
    built for the trip, points once the trip is nearly over, and an eye on its health.

    Each turn it estimates its deck (boots, skill and swords a turn), the dragon (damage a
    round for it: attacks a round times cubes an attack, times its share of the bag, plus what
    players off the clock draw) and, for each artifact left, the turns a round trip takes, the
    chance to die on the way (Poisson) and the score it would bring home. It takes the best,
    walks the cheapest route (boots, monster icons against its swords and health, forests,
    water once it has a canoe, coaches when gold buys time), stops for secrets, healing and a
    crown when the detour is worth it, fights with swords it does not need for the paths, and
    buys the set of cards that adds most to its final score (deck power while there are turns
    left to play them, points late). It never uses randomness: a game depends on its seed.

    `play_first` lets the engine skip building every action while a hand is being played.
    """

    name = "heuristic"

    # Extra points the current target gets, so the bot does not dither between two.
    STICK = 3.0
    # Boots a turn the deck gains per turn while it is built, up to a cap.
    BOOTS_GROWTH = 0.15
    BOOTS_CAP = 3.0
    # Share of a turn's points that one turn saved is worth (sets the value of a boot).
    BOOT_TIME = 1.0
    # Points a Skill turns into, late in the game.
    PTS_SKILL = 0.5
    # Share of a route's monster icons expected to hurt (swords come with the deck).
    HURT_SHARE = 0.5
    # A card's points count this much (they count only if the player scores).
    POINTS_SHARE = 0.9
    # Share of a turn's points that makes one more turn a step from HQ worth its risk (0:
    # never stay out), and the most turns the bot stays out in a game.
    LINGER = 1.0
    LINGER_TURNS = 6
    # Damage comes in lumps (an attack can draw several of one's cubes): the expected damage
    # of a round is taken this many times over when staying out.
    LINGER_RISK = 3.0
    # Points a Sword not needed for the paths is worth (fights it could win instead), and a
    # Sword in a card's profile.
    SWORD_VALUE = 0.35
    W_SWORDS = 0.7
    # The most points an item that opens paths is taken to add (a route it makes possible at
    # all would otherwise be worth the unreachable distance).
    ENABLE_CAP = 20.0
    # The most boots a path paid in another resource counts as while the bot waits for a
    # turn that brings one (`_paying`).
    WAY_WAIT = 4.0
    # The turns a player takes in a whole game, about (a held token's triggers count for the
    # share of them still to come).
    GAME_TURNS = 12.0

    __slots__ = (
        "seed",
        "target",
        "waypoint",
        "coach_to",
        "_detoured",
        "_waits",
        "_wait_turn",
        "_game",
        "_turn",
        "_revealed",
        "_deck_left",
        "_deck_key",
        "_deck_avg",
        "_deck_points",
        "_deck_n",
        "_counts",
        "_tot",
        "_power",
        "_worth",
        "_lw",
        "_enable",
        "_units",
        "_looked",
        "_buys",
        "_plays",
        "info",
        "_rules",
        "routes",
        "w",
        "health_left",
        "health_value",
        "boot_value",
        "discard_cost",
        "attack_cost",
        "avg_power",
        "turns_left",
        "boots_turn",
        "swords_turn",
        "cards_turn",
        "pts_turn",
        "dmg_round",
        "cubes_round",
        "in_bag",
        "lam",
        "stake",
        "_ev",
        "_paid",
        "_live",
        "_live_seen",
        "_way_seen",
        "_way_boots",
        "_seat",
        "_way_rate",
        "_rates_key",
        "_held_ways",
        "_way_prices",
        "_way_units",
        "_way_plans",
        "_items",
        "_tokens",
        "_gains",
        "_grant_worth",
        "_errand_on",
    )

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.target: int | None = None
        self.waypoint: int | None = None
        self.coach_to: int | None = None
        self._detoured = True
        # Turns spent waiting a step from HQ, and the last of them.
        self._waits = 0
        self._wait_turn = -1
        # The game and turn the estimates are for.
        self._game: Any = None
        self._turn = -1
        # Adventure cards revealed so far, and the deck's size when last looked at.
        self._revealed = 0
        self._deck_left: int | None = None
        self._deck_key: tuple[int, int, int] | None = None
        self._deck_avg: list[float] = [0.0] * 9
        self._deck_points = 0
        self._deck_n = 1
        self._counts: dict[CardDef, int] = {}
        self._tot: list[float] = [0.0] * 9
        self._power: dict[CardDef, float] = {}
        self._worth: dict[CardDef, float] = {}
        self._lw: dict[tuple[Any, str], float] = {}
        # What each market item that grants a path requirement adds this turn (`_enabling`).
        self._enable: dict[Any, float] = {}
        # What one unit of each key is worth this turn (the Valuer's answers).
        self._units: dict[str, float] | None = {}
        # The turn and space where the bot last weighed the artifact it stands on.
        self._looked: tuple[int, int] | None = None
        # The cards still to buy this turn and the skill that will be left for them.
        self._buys: tuple[int, list[tuple[str, CardDef]]] | None = None
        # The plays a card acquired now gets, for the deck length they were worked out at.
        self._plays: tuple[int, float] | None = None
        self.info: _BoardInfo | None = None
        # The rules `_begin` reads, for the game `_game` (`_game_rules`).
        self._rules: tuple[int, int, int, float] = (5, 6, 10, 0.0)
        self.routes: _Routes | None = None
        self.w: list[float] = list(_BASE_W)
        self.health_left = 10
        self.health_value = 1.0
        self.boot_value = 1.5
        self.discard_cost = 1.0
        self.attack_cost = 2.0
        self.avg_power = 1.0
        self.turns_left = 10.0
        self.boots_turn = 1.0
        self.swords_turn = 0.0
        self.cards_turn = 5.0
        self.pts_turn = 3.0
        self.dmg_round = 0.5
        self.cubes_round = 1.0
        self.in_bag = 24.0
        self.lam = 0.0
        self.stake = 0.0
        # The expected final score of the trip to the target (`_choose_target`).
        self._ev = 0.0
        # Resources held now that pay for ways, and the spaces whose entry toll is live:
        # part of the route table's key (`_BoardInfo.table`).
        self._paid: frozenset[tuple[str, float]] = _NONE
        self._live: frozenset[int] = _NONE
        # What `_live` and the way units were last worked out for (`_refresh_routes`).
        self._live_seen: list[int] | None = None
        self._way_seen: tuple[Any, ...] | None = None
        # The boots `_way_unit` counts on (None: the player's own, mid-turn), and whose seat.
        self._way_boots: float | None = None
        self._seat = 0
        # Units a turn the deck brings of each resource that pays for a way (`_way_rates`),
        # and what one more unit of each is worth now (`_way_unit`).
        self._way_rate: dict[str, float] = {}
        # What the rates and the prices were last worked out for (`_way_rates`, `_paying`).
        self._rates_key: tuple[Any, ...] | None = None
        self._held_ways: list[bool] = []
        self._way_prices: frozenset[tuple[str, float]] | None = None
        self._way_units: dict[str, float] = {}
        self._way_plans: dict[str, float] = {}
        # What each market item's own abilities (actions, use, triggers) add (`_item_worth`).
        self._items: dict[Any, float] = {}
        # What holding a token matching a word is worth this turn (`token`), and what entering
        # a space gives (`_entry_gain`).
        self._tokens: dict[str, float] = {}
        self._gains: dict[Any, float] = {}
        # While no artifact can be reached: what each token that grants a missing path
        # requirement is worth (`token`), and whether the target is an errand (a space whose
        # action may give one) rather than an artifact.
        self._grant_worth: dict[str, float] = {}
        self._errand_on = False

    # -- estimates ----------------------------------------------------------------------------

    def _begin(self, game: Any, p: Any) -> None:
        """Refresh the turn's estimates (once per turn, and when the plan changes)."""
        if game.turn == self._turn and game is self._game:
            return
        if game is not self._game:
            self._deck_left = None
            self.info = _board_info(game)
            self._rules = _game_rules(game)
        self._game, self._turn = game, game.turn
        info = self.info
        hand, row_size, health, off_draw = self._rules
        n = len(p.deck) + len(p.hand) + len(p.discard) + len(p.play)
        if (id(game), n, len(game.trashed)) != self._deck_key:
            avg = self._deck(game, p)
            self.cards_turn = ct = min(float(self._deck_n), hand * (1 + max(0.0, avg[DRAW])))
            self.boots_turn = max(0.8, avg[BOOTS] * ct)
            self.swords_turn = max(0.0, avg[SWORDS] * ct)
            self.pts_turn = self.PTS_SKILL * avg[SKILL] * ct + max(0.0, avg[GOLD] * ct)
        else:
            # The same cards as at the last count: the same deck estimates.
            avg = self._deck_avg
            ct = self.cards_turn

        # The dragon: cubes drawn a round, and this player's share of the bag.
        players = game.players
        on = area = 0
        for q in players:
            if q.status == ON_CLOCK:
                on += 1
            area += q.area
        # Cards revealed into the row a turn so far (half a card a turn before any is seen).
        left = len(game.adventure_deck)
        if self._deck_left is None:
            self._revealed = max(0, info.deck_cards - row_size - left)
        elif left <= self._deck_left:
            self._revealed += self._deck_left - left
        else:
            self._revealed += self._deck_left  # reshuffled: at least the rest was revealed
        self._deck_left = left
        per_turn = (self._revealed + 2.0) / (game.turn + 4)
        attack_rate = 1 - (1 - info.dragon_share) ** per_turn
        k = game.attack_size()
        self.cubes_round = on * attack_rate * k + (len(players) - on) * off_draw
        bag = game.bag
        self.in_bag = max(1.0, len(bag) + area)
        mine = bag.count(p.seat) + p.area + max(0.0, avg[CLANK] * ct)
        self.dmg_round = self.cubes_round * mine / self.in_bag
        self.health_left = health_left = health - p.damage

        # How many boots a monster icon is worth avoiding, from health and swords a turn.
        mu_k = 1 if health_left >= 7 else 2 if health_left >= 4 else 3
        if self.swords_turn >= 2:
            mu_k -= 1
        mu = MU_LEVELS[mu_k]
        tokens = p.tokens
        closed = info.closed(game)  # empty unless the board has a way tokens may block
        if info.dynamic:
            # Ways paid in other resources, entry tolls: the table for what the player holds
            # and which guards are still there.
            if info.way_resources:
                self._way_rates(p)
            self._paid = self._paying(game, p)
            self._live = self._live_tolls(game, p)
            self.routes = info.table(self._grants(p), mu, closed, self._paid, info.all_tolls)
        elif closed:
            self.routes = info.table(frozenset(g for t in tokens for g in t.grants), mu, closed)
        elif tokens and info.requirements:
            self.routes = info.table_for(tokens, mu)
        else:
            routes = info.plain_routes.get(mu)
            self.routes = routes if routes is not None else info.table_for(tokens, mu)
        self._choose_target(game, p, k)
        self._weights(game, avg, k)
        if info.way_resources:
            # Worked out when first asked for (`unit`), with this turn's expected boots.
            self._way_units = {}
            self._way_plans = {}
            self._way_boots = self.boots_turn
            self._seat = p.seat
        # Detours and coach rides are planned when the bot first looks where to walk.
        self._detoured = False
        # What was remembered for the turn (emptied, not replaced: fewer objects to collect).
        self._power.clear()
        self._worth.clear()
        self._lw.clear()
        self._enable.clear()
        self._items.clear()
        self._tokens.clear()
        self._gains.clear()
        self._buys = None
        self._plays = None

    def _replan(self, game: Any, p: Any) -> None:
        self._turn = -1
        self._begin(game, p)

    def _deck(self, game: Any, p: Any) -> list[float]:
        """The average profile of the player's cards (recounted when the cards change)."""
        n = len(p.deck) + len(p.hand) + len(p.discard) + len(p.play)
        key = (id(game), n, len(game.trashed))
        if key != self._deck_key:
            if self._deck_key is None or key[0] != self._deck_key[0]:
                self._counts = {}
                self._tot = [0.0] * 9
                self._deck_points = 0
            self._deck_key = key
            # Add what changed since the last count, each design over the resources it
            # gives (a total is never -0.0, so adding a zero amount would leave it as it is),
            # in an order the game alone decides (the float sums depend on it): the designs
            # as the player's cards first show them, then those the player no longer has.
            tot = self._tot
            old = self._counts
            new: dict[CardDef, int] = {}
            for cards in (p.deck, p.hand, p.discard, p.play):
                _count_elements(new, cards)
            was = old.get
            kept = 0  # designs the player had and still has
            for c, k in new.items():
                had = was(c)
                if had is not None:
                    kept += 1
                    if k == had:
                        continue
                    self._add_design(c, k - had, tot)
                else:
                    self._add_design(c, k, tot)
            if kept < len(old):
                for c, k in old.items():
                    if c not in new:
                        self._add_design(c, -k, tot)
            self._counts = new
            self._deck_n = dn = max(1, n)
            self._deck_avg = [x / dn for x in tot]
        return self._deck_avg

    def _add_design(self, c: CardDef, d: int, tot: list[float]) -> None:
        """Add ``d`` more copies of design ``c`` to the deck's running totals."""
        terms = self.info.terms.get(c)
        if terms is None:
            terms = self.info.profile_terms(c)
        for i, x in terms:
            tot[i] += d * x
        self._deck_points += d * c.points

    def _grants(self, p: Any) -> frozenset[str]:
        return frozenset(g for t in p.tokens for g in t.grants)

    def _paying(self, game: Any, p: Any) -> frozenset[tuple[str, float]]:
        """What a unit of each resource that pays for a way of the board counts as, in boots:
        1 while the player holds some; else the turns it waits for one (its deck brings one
        a turn with chance P: 1/P, rounded up to 2, 3 or WAY_WAIT), none when its deck never
        brings one."""
        ways = self.info.way_list
        if not ways:
            return _NONE
        held = [game.pool(p, r) > 0 for r in ways]
        if held == self._held_ways and self._way_prices is not None:
            return self._way_prices
        out = []
        for r, has in zip(ways, held, strict=True):
            if has:
                out.append((r, 1.0))
                continue
            rate = self._way_rate.get(r, 0.0)
            if rate > 0:
                # Coarse levels (2, 3, WAY_WAIT boots): each is a route table of its own.
                wait = 1.0 / (1.0 - math.exp(-rate))
                out.append((r, 2.0 if wait <= 2.0 else 3.0 if wait <= 3.0 else self.WAY_WAIT))
        self._held_ways, self._way_prices = held, frozenset(out)
        return self._way_prices

    def _way_rates(self, p: Any) -> None:
        """Units of each resource that pays for a way the player's deck brings a turn."""
        info = self.info
        key = (self._deck_key, self.cards_turn)
        self._way_prices = None  # priced again from this turn's rates
        if key == self._rates_key:
            return
        self._rates_key = key
        ct = self.cards_turn / self._deck_n
        rates = dict.fromkeys(info.way_resources, 0.0)
        for card, k in self._counts.items():
            got = info.amounts(card)
            for r in rates:
                x = got.get(r)
                if x:
                    rates[r] += k * x * ct
        self._way_rate = rates

    def _live_tolls(self, game: Any, p: Any) -> frozenset[int]:
        """The spaces whose entry toll would ask something of the player now (its condition
        holds: the guard is still there)."""
        tolls = self.info.toll_hooks
        if not tolls:
            return _NONE
        # Asked again only when the tokens on those spaces change (a guard is beaten).
        lying = game.space_tokens
        seen = [p.seat]
        for s in tolls:
            seen.append(len(lying[s]))
        if seen == self._live_seen:
            return self._live
        spaces = game.board.spaces
        live = frozenset(
            s
            for s, hooks in tolls.items()
            if any(h.cond is None or game.holds(Ctx(p, spaces[s]), h.cond) for h in hooks)
        )
        self._live_seen, self._live = seen, live
        return live

    def _refresh_routes(self, game: Any, p: Any) -> None:
        """Mid-turn, on a board with ways paid in other resources or entry tolls: take the
        route table for what the player holds now (a card played gave a special resource, a
        toll's guard was beaten), and plan the detour again when it changed."""
        info = self.info
        self._live_tolls(game, p)
        if not info.way_resources:
            return
        paid = self._paying(game, p)
        if paid != self._paid:
            self._paid = paid
            self.routes = info.table(
                self._grants(p), self.routes.mu, info.closed(game), paid=paid, tolls=info.all_tolls
            )
            self._detoured = False
            self._enable = {}
        # What one more unit of each is worth here and now: forgotten when something it
        # depends on changes, worked out again when asked for (`unit`).
        seen = (game.turn, p.pos, p.boots, p.exhausted, paid, self.waypoint, self.target)
        if seen == self._way_seen:
            return
        self._way_seen = seen
        self._way_boots = None
        self._seat = p.seat
        if self._way_units:
            self._way_units = {}
            units = self._units
            if units is not None:
                for res in info.way_resources:
                    units.pop(res, None)

    def _stake(self, game: Any, p: Any) -> float:
        """Points the player holds besides an artifact (cards, gold, tokens)."""
        gold = p.gold
        points = 0
        for t in p.tokens:
            gold += t.gold
            points += t.points
        return gold + points + self._deck_points

    def _mug(self, game: Any) -> int:
        """The points of the best mug still in the supply (0: none)."""
        supply = game.token_supply
        mug = None
        for t in self.info.mugs:
            if supply[t] and (mug is None or t.points > mug):
                mug = t.points
        return 0 if mug is None else mug

    def _choose_target(self, game: Any, p: Any, k: int | None = None) -> None:
        """The artifact to go for (by expected final score), or HQ once holding one (``k``:
        the cubes an attack draws now, when the caller knows)."""
        stake = self._stake(game, p)
        mug = self._mug(game)
        if p.artifact is not None:
            self.target = hq = game.board.hq
            t_home = self.routes.cost[hq][p.pos] / self.boots_turn
            self.turns_left = t_home + 0.5
            self.lam = self.dmg_round * self.turns_left
            self.stake = p.artifact.points + mug + stake + self.pts_turn * t_home
            return
        best, self._ev, best_info = self._best_target(game, p, self.routes, stake, mug, k=k)
        self._grant_worth = {}
        self._errand_on = False
        if best is None and any(game.space_artifact[s] for s in game.board.artifact_spaces):
            best = self._errand(game, p)
            self._errand_on = best is not None
        self.target = best
        self.turns_left, self.lam, self.stake = best_info

    def _errand(self, game: Any, p: Any) -> int | None:
        """When every artifact left is out of reach for want of a path requirement (a key, a
        pass): the space whose action is worth most for its walk, the tokens that grant a
        missing requirement counted at ENABLE_CAP (an action that may give one leads on to
        the artifacts). None when no action is open or worth its walk."""
        lacking = self.info.requirements - self._grants(p)
        if not lacking:
            return None
        for t in game.catalog.tokens:
            if lacking.intersection(t.grants):
                self._grant_worth[t.name] = self.ENABLE_CAP
        board = game.board
        from_pos = self.routes.out(p.pos)
        bv = self.boot_value
        best, best_v = None, 0.0
        for s in board.action_spaces:
            d = from_pos[s]
            if d >= _INF / 4:
                continue
            sp = board.spaces[s]
            for a in sp.actions:
                if not a.open_to(game, p, sp):
                    continue
                v = ACT.appraise((ACT, a, sp), self) - d * bv
                if v > best_v:
                    best, best_v = s, v
        return best

    def _best_target(
        self,
        game: Any,
        p: Any,
        r: _Routes,
        stake: float,
        mug: float,
        stick: bool = True,
        k: int | None = None,
    ) -> tuple[int | None, float, tuple[float, float, float]]:
        """The artifact with the best expected final score along the routes ``r`` (the current
        target gets STICK more, with ``stick``): (its space, that score without STICK, (turns
        left, expected damage, score if the player escapes)). ``k``: the cubes an attack draws
        now, when the caller knows."""
        board = game.board
        left = self.health_left
        rate = self.dmg_round
        # Taking an artifact moves the rage marker: more cubes an attack on the way home.
        if k is None:
            k = game.attack_size()
        rate_home = rate * (k + 1) / k if k else rate
        on_board = game.space_artifact
        hurt_share = self.HURT_SHARE * max(0.2, 1.0 - self.swords_turn / 3.0)
        b0 = self.boots_turn
        cap = max(b0, self.BOOTS_CAP)
        growth = self.BOOTS_GROWTH / 2
        pts_turn = self.pts_turn
        pos = p.pos
        legs = r._legs.get(pos)
        if legs is None:
            legs = r.legs(pos, board, self.info.danger_zone)
        # The expected score of each artifact's round trip: this is the bot's hottest loop
        # (every turn, every artifact left). Whole numbers are added as floats (the same
        # sums: they are small), so the arithmetic stays float on float.
        base = float(mug + stake)
        half_stake = float(stake)
        tails = _TAILS.get(left) or {}
        # The best: the most expected score, the current target's with STICK more; among
        # equals, the one with more without STICK, then the first in the board's order.
        best = found = None
        best_ev = raw = -_INF
        target = self.target if stick else _NOWHERE
        stick_v = self.STICK
        for s, b1, b2, sb, icons, danger in legs:
            tok = on_board[s]
            if not tok:
                continue
            # The deck gets faster as boots are bought: project boots a turn over the trip.
            b = b0 + growth * sb / b0
            if b > cap:
                b = cap
            b = b0 + growth * sb / b
            if b > cap:
                b = cap
            t1 = b1 / b
            t2 = b2 / b
            lam = rate * (t1 + 0.5) + rate_home * t2 + icons * hurt_share
            if left <= 0:
                die = 1.0
            elif lam <= 0.0:
                die = 0.0
            else:
                die = tails.get(round(lam * 100.0))
                if die is None:
                    die = _tail(lam, left)
            points = tok.points
            win = (points + base) + pts_turn * (t1 + t2)
            keep = 0.0 if danger else 0.5 * (points + half_stake)
            held = (1.0 - die) * win + die * keep
            ev = held + stick_v if s == target else held
            if ev > best_ev or (ev == best_ev and held > raw):
                best, best_ev, raw = s, ev, held
                found = (t1 + t2 + 0.5, lam, win)
        if found is None:
            return best, raw, (10.0, 1.0, 1.0)
        return best, raw, found

    def _enabling(self, game: Any, p: Any, tok: Any) -> float:
        """Points an item adds by the paths it opens (a canoe's water, a key's locked doors):
        the time its routes save on the way still to go, or, before the artifact, the best
        trip with it against the best without, when a better artifact needs it (remembered
        for the turn)."""
        if not tok.grants:
            return 0.0
        v = self._enable.get(tok)
        if v is not None:
            return v
        v = 0.0
        r = self.routes
        info = self.info
        with_item = info.table(
            self._grants(p) | frozenset(tok.grants),
            r.mu,
            info.closed(game),
            self._paid,
            info.all_tolls,
        )
        if with_item is not r:
            hq, pos = game.board.hq, p.pos
            if p.artifact is not None:
                saved = r.cost[hq][pos] - with_item.cost[hq][pos]
                v = min(self.ENABLE_CAP, saved * self.boot_value)
            else:
                t = self.target
                if t is not None:
                    saved = r.cost[t][pos] + r.cost[hq][t]
                    saved -= with_item.cost[t][pos] + with_item.cost[hq][t]
                    v = saved * self.boot_value
                # Only a trip the item shortens can make another artifact the better one.
                left = game.space_artifact
                shorter = info.shortened.get((r, with_item, pos))
                if shorter is None:
                    shorter = info.shortened[(r, with_item, pos)] = [
                        s
                        for s in game.board.artifact_spaces
                        if with_item.cost[s][pos] + with_item.cost[hq][s]
                        < r.cost[s][pos] + r.cost[hq][s] - 1e-9
                    ]
                if any(left[s] and s != t for s in shorter):
                    stake = self._stake(game, p)
                    supply = game.token_supply
                    mug = max((m.points for m in self.info.mugs if supply[m]), default=0)
                    b1, ev1, _ = self._best_target(game, p, with_item, stake, mug, stick=False)
                    if b1 is not None and b1 != t:
                        # A route the item opens leads to a better artifact: worth what it
                        # adds beyond what would make the bot change its target.
                        ev0 = self._ev + self.STICK if t is not None else 0.0
                        v = max(v, ev1 - ev0)
                v = min(self.ENABLE_CAP, v)
        self._enable[tok] = v
        return v

    def _weights(self, game: Any, avg: list[float], k: int) -> None:
        """What a unit of each resource, a point of health and a card draw are worth now
        (``k``: the cubes an attack draws)."""
        left = self.health_left
        lam = self.lam
        # Losing one health raises the chance of dying by P(damage is exactly what is left).
        self.health_value = hv = (
            0.3 + max(0.0, _tail(lam, left - 1) - _tail(lam, left)) * self.stake
        )
        # A boot saves the time a turn takes: its points and its risk.
        time = self.BOOT_TIME * self.pts_turn + self.dmg_round * hv
        self.boot_value = bv = max(0.4, time / self.boots_turn) if self.target is not None else 0.3
        # A Clank! cube goes into the bag; this is its chance to come out as damage.
        cube = min(1.0, self.cubes_round * self.turns_left / self.in_bag)
        w = self.w
        w[SKILL] = 1.0
        w[SWORDS] = self.W_SWORDS
        w[BOOTS] = bv
        w[GOLD] = 1.0
        w[CLANK] = -cube * hv
        w[HEAL] = hv if left < game.rules["health"] else 0.1
        w[TELEPORT] = bv * 1.2
        w[OTHER] = 1.0
        w[DRAW] = 1.0
        self.avg_power = max(0.3, _weighted(avg, w))
        w[DRAW] = self.discard_cost = self.avg_power
        self.attack_cost = k * self.dmg_round / max(0.1, self.cubes_round)
        self.attack_cost *= hv
        # The Valuer's answers (`unit`) are worked out when first asked for (`_make_units`).
        self._units = None

    def _make_units(self) -> dict[str, float]:
        """What `unit` answers this turn, from the weights `_weights` set."""
        w = self.w
        hv = self.health_value
        # In the order of _DIM, then the others.
        self._units = units = {
            "skill": w[SKILL],
            "swords": w[SWORDS],
            "boots": w[BOOTS],
            "gold": w[GOLD],
            "clank": w[CLANK],
            "draw": w[DRAW],
            "heal": w[HEAL],
            "teleport": w[TELEPORT],
            "damage": -hv,
            "discard": -self.discard_cost,
            "trash": self.trash_value(None),
            "rage": -2.0,
            "token": 1.0,
            "points": 1.0,
            "minor secret": 2.0,
            "major secret": 4.0,
            "dragon attack": -self.attack_cost,
            "bag cube": 0.3,
        }
        if self._way_units:
            units.update(self._way_units)
        return units

    def _goal(self, game: Any, p: Any) -> int | None:
        """Where to walk now: a detour stop, else the target."""
        if not self._detoured:
            self._detoured = True
            self._plan_detour(game, p)
        if self.waypoint is not None:
            if self.waypoint != p.pos:
                return self.waypoint
            self.waypoint = None  # reached: on to the target
        if p.artifact is not None:
            return game.board.hq
        return self.target

    def _plan_detour(self, game: Any, p: Any) -> None:
        """A stop worth its extra boots (a secret, healing, a crown), or a coach ride."""
        self.waypoint = self.coach_to = None
        goal = self._goal(game, p)
        if goal is None:
            return
        board = game.board
        info = self.info
        cost = self.routes.cost
        to_goal = cost[goal]
        here = to_goal[p.pos]
        if here >= _INF / 4:
            return
        bv = self.boot_value
        damage = game.rules["health"] - self.health_left
        minor = 2.0 if game.minor_bank else 0.0
        gold = game.gold_of(p)
        price = game.rules["market_price"]
        crown = 0.0
        if gold >= price:
            held = {t.type for t in p.tokens if t.kind == "market"}
            for t in info.market:
                if game.token_supply[t] and t.type not in held:
                    worth = t.points - price + self._enabling(game, p, t)
                    crown = max(crown, worth + self._item_worth(game, p, t))
        heal_v = self.health_value if damage else 0.0
        draw_v = 0.5 * self.avg_power
        best, best_net = None, 0.3
        pos = p.pos
        visited = p.visited
        mx = info.most
        held = game.space_tokens
        # The spaces still holding a major secret.
        majors_left = [x for x in info.major_spaces for t in held[x] if t.kind == "major"]
        majors = 4.0 * mx[0] if majors_left else 0.0
        top = majors + minor * mx[1] + heal_v * mx[2] + mx[3] + draw_v * mx[4] + 0.5 + crown
        near = self.routes._near.get((pos, goal))
        if near is None:
            near = self.routes.near(pos, goal, info.rewards)
        for extra, x, major, minor_k, heal, coins, draw, fruit, town in near:
            if top - extra * bv <= best_net:
                break
            if x in visited:
                continue
            gain = coins + minor * minor_k + draw_v * draw
            if major and x in majors_left:
                gain += 4.0
            if heal and damage:
                gain += heal_v * min(heal, damage)
            if fruit and _holds_kind(held[x], "fruit"):
                gain += 0.5
            if town and crown:
                gain += crown
            net = gain - extra * bv
            if net > best_net:
                best, best_net = x, net
        self.waypoint = best
        # A coach: walk to one coach space, ride to another, when the time saved pays the fare.
        if not info.coach_pairs or gold < info.least_fare:
            return
        goal = self._goal(game, p)
        to_goal = cost[goal]
        here = to_goal[pos]
        best_c, best_cost = None, here - 1.0
        reach = 2 * self.boots_turn
        hq = board.hq if p.artifact is None else -1
        from_pos = self.routes.out(pos)
        for c1, pairs in info.coach_pairs:
            walk = from_pos[c1] if c1 != pos else 0.0
            if walk > reach:
                continue
            for c2, fare in pairs:
                if c2 == hq or fare > gold:
                    continue
                total = walk + 1 + to_goal[c2] + fare / bv
                if total < best_cost:
                    best_c, best_cost = (c1, c2), total
        if best_c is not None:
            self.waypoint = best_c[0] if best_c[0] != pos else None
            self.coach_to = best_c[1]

    def _way_unit(
        self, game: Any, p: Any, res: str, boots: float | None = None, reach: bool = True
    ) -> float:
        """Points one more unit of ``res`` (a resource some way of the board is paid in)
        brings: the boots a path of that way saves on the route to where the bot is going,
        worth a boot each. With ``reach``, a resource lost at the end of the turn is worth
        something only when such a path is within this turn's ``boots`` (default: the boots
        the player has)."""
        hq = game.board.hq
        goal = self.waypoint if self.waypoint not in (None, p.pos) else self.target
        if p.artifact is not None and self.waypoint in (None, p.pos):
            goal = hq
        if goal is None or goal == p.pos or self.routes is None:
            return 0.0
        info = self.info
        grants = self._grants(p)
        mu = self.routes.mu
        others = frozenset(x for x in self._paid if x[0] != res)
        closed = info.closed(game)
        without = info.table(grants, mu, closed, paid=others, tolls=info.all_tolls)
        with_it = info.table(grants, mu, closed, paid=others | {(res, 1.0)}, tolls=info.all_tolls)
        saved = without.cost[goal][p.pos] - with_it.cost[goal][p.pos]
        if saved < 0.5:
            return 0.0
        if reach and res in info.per_turn:
            left = float(p.boots if boots is None else boots) if not p.exhausted else 0.0
            step = with_it.step[goal]
            forest = info.forest
            pos = p.pos
            while True:
                m = step[pos]
                if m is None or pos == goal:
                    return 0.0
                paid = m.way.paid_in
                if paid == res:
                    break
                if paid == "boots":
                    if m.boots > left:
                        return 0.0
                    left -= m.boots
                pos = m.to
                if forest[pos]:
                    left = 0.0
        return min(saved, 3.0) * self.boot_value

    def _way_plan(self, res: str) -> float:
        """What a unit of ``res`` (it pays for a way) in a card is worth, over the plays to
        come: most of a boot while such a way shortens the trip (remembered for the turn)."""
        v = self._way_plans.get(res)
        if v is None:
            game = self._game
            p = game.players[self._seat]
            saves = self._way_unit(game, p, res, reach=False) > 0
            v = self._way_plans[res] = (0.8 if saves else 0.3) * self.boot_value
        return v

    def token(self, what: str) -> float:
        """Worth of taking one token matching ``what`` to hold, in points: a token that opens
        the way to the artifacts is worth ENABLE_CAP while they are out of reach (see
        `_errand`); any other, the mean over the pack's tokens that match (by their copies)
        of their points, what taking one gives (`on reveal`), its triggers while held, its
        `use` and its actions (remembered for the turn)."""
        worth = self._grant_worth.get(what)
        if worth is not None:
            return worth
        v = self._tokens.get(what)
        if v is not None:
            return v
        self._tokens[what] = Valuer.token(self, what)  # a token that takes itself stops here
        want = what.lower()
        total = 0.0
        n = 0
        for t in self._game.catalog.tokens:
            if want in t.match and t.count:
                w = t.points * self.unit("points") + self._lines(t.reveal) + self._held(t)
                total += t.count * w
                n += t.count
        v = self._tokens[what] = total / n if n else Valuer.token(self, what)
        return v

    def _lines(self, triggers: Any) -> float:
        """Worth of card or token lines (`use`, `on reveal`), each by its condition's chance."""
        total = 0.0
        for cond, eff in triggers:
            total += (1.0 if cond is None else self.chance(cond)) * self.effects(eff)
        return total

    def _held(self, t: Any) -> float:
        """What a token's own abilities bring while held: its triggers (each as often as its
        record says it fires over a game, for the share of a game the player has left to
        play), its `use` and its actions."""
        v = 0.0
        share = min(1.0, self.turns_left / self.GAME_TURNS)
        for h in t.hooks:
            v += share * self.line(h.cond) * TRIGGERS[h.on].appraise({"effects": h.effects}, self)
        if t.use:
            v += self._lines(t.use)
        for a in t.actions:
            v += max(0.0, self.effects(list(a.cost)) + self.effects(list(a.effects)))
        return v

    def _item_worth(self, game: Any, p: Any, tok: Any) -> float:
        """What a market item's own abilities add besides its points (a once-a-game action
        that gives a resource for a way: the boots it may save later), remembered for the
        turn."""
        if not (tok.hooks or tok.use or tok.actions):
            return 0.0
        v = self._items.get(tok)
        if v is None:
            units = self._units if self._units is not None else self._make_units()
            now = {res: units.get(res) for res in self.info.way_resources}
            for res in now:
                units[res] = 0.7 * self._way_unit(game, p, res, reach=False)
            try:
                v = self._items[tok] = self._held(tok)
            finally:
                for res, x in now.items():
                    if x is None:
                        units.pop(res, None)
                    else:
                        units[res] = x
        return v

    def _entry_gain(self, game: Any, p: Any, x: int, hooks: Sequence[Any]) -> float:
        """What entering space ``x`` now would give through its entry triggers: each whose
        limit allows it, whose condition holds and whose effects can all be done there."""
        # The same while the player's tokens and the tokens lying there do not change (a
        # limit that was used this turn: the player has entered, `visited` tells).
        key = (x, game.turn, len(p.tokens), len(game.space_tokens[x]))
        gain = self._gains.get(key)
        if gain is not None:
            return gain
        sp = game.board.spaces[x]
        ctx = Ctx(p, sp)
        gain = 0.0
        for h in hooks:
            if h.limit is not None:
                last = game.used.get(h.keys[p.seat])
                if last is not None and (h.limit == "game" or last == game.turn):
                    continue
            if h.cond is not None and not game.holds(ctx, h.cond):
                continue
            if not _doable(game, ctx, h.effects):
                continue
            worth = self._gains.get(h.uid)
            if worth is None:
                worth = self._gains[h.uid] = self.effects(h.effects)  # the same all turn
            gain += worth
        self._gains[key] = gain
        return gain

    def unit(self, key: str) -> float:
        """Worth of one unit of ``key`` this turn, in points (see `_weights`)."""
        units = self._units
        if units is None:
            units = self._make_units()
        v = units.get(key)
        if v is None:
            if key not in self.info.way_resources:
                return _UNKNOWN_UNIT
            # A resource that pays for a way: what it saves where the player stands now.
            game = self._game
            v = self._way_unit(game, game.players[self._seat], key, self._way_boots)
            units[key] = self._way_units[key] = v
        return v

    def _lines_worth(self, thing: Any, on: str) -> float:
        """Worth of every effect of a card's or token's triggers of one kind, taken as one
        list (remembered for the turn: the weights change only between turns)."""
        key = (thing, on)
        v = self._lw.get(key)
        if v is None:
            v = self._lw[key] = self.effects(self.info.effects(thing, on))
        return v

    def trash_value(self, name: str | None) -> float:
        """Worth of trashing one card (the weakest one the player could pick)."""
        return 1.0 if name is None else 0.6

    def power(self, card: CardDef) -> float:
        """What playing the card is worth this turn, in points: its profile weighed (`_weighted`,
        over the resources it gives: a zero amount adds nothing to the sum)."""
        v = self._power.get(card)
        if v is None:
            terms = self.info.terms.get(card)
            if terms is None:
                terms = self.info.profile_terms(card)
            w = self.w
            v = 0.0
            for i, a in terms:
                v += a * w[i]
            ways = self.info.way_resources
            if ways:
                # A resource that pays for a way: its profile counts it as a little of
                # anything; it is worth most of a boot while a way shortens the trip.
                got = self.info.amounts(card)
                for r in ways:
                    x = got.get(r)
                    if x:
                        v += x * (self._way_plan(r) - _UNKNOWN_UNIT)
            self._power[card] = v
        return v

    def _keep(self, card: CardDef) -> float:
        """How much the player wants to keep a card in its deck."""
        return self.power(card) + 2 * card.points

    def card_value(self, game: Any, p: Any, card: CardDef) -> float:
        """Points a card adds to the final score if acquired now."""
        v = self._worth.get(card)
        if v is not None:
            return v
        acq = self._lines_worth(card, "acquire") if card.acquire else 0.0
        if card.use:
            v = acq + self._lines_worth(card, "use")
        else:
            points = float(card.points)
            if card.points_per:
                # What it counts now, and what its record expects it to add by the end.
                per = card.points_per
                points += per["points"] * (game.count_of(p, per["per"]) + self.count(per["per"]))
            # The plays a card bought now is expected to get (the same for every card while
            # the deck is as long).
            deck = len(p.deck)
            known = self._plays
            if known is not None and known[0] == deck:
                plays = known[1]
            else:
                ct = self.cards_turn
                plays = max(0.0, self.turns_left - deck / ct) * ct / (self._deck_n + 1)
                self._plays = (deck, plays)
            power = self._power.get(card)
            if power is None:
                power = self.power(card)
            v = self.POINTS_SHARE * points + plays * (power - self.avg_power) + acq
        if card.danger:
            v += 1.0  # one cube less in every attack while it would have waited in the row
        self._worth[card] = v
        return v

    # -- carried state (interpreter/snapshot.py) ---------------------------------------------

    # Rebuilt from the game on load rather than written: the game the estimates are for, the
    # board's tables, the route table (written as its key) and the deck count's game id.
    _REBUILT = ("_game", "info", "routes", "_deck_key", "_rules")

    def bot_state(self) -> dict[str, Any]:
        """Every attribute the bot carries between decisions (plans, estimates, the running
        deck totals whose float sums depend on their history), as plain data."""
        from .snapshot import encode_any

        state = {k: encode_any(v) for k, v in self._attributes().items() if k not in self._REBUILT}
        routes = None
        if self.routes is not None and self.info is not None:
            key = next(k for k, r in self.info.routes.items() if r is self.routes)
            routes = [sorted(key[0]), key[1]]
            if len(key) > 2:
                routes += [sorted(key[2]), sorted(map(list, key[3])), sorted(key[4])]
        state["$rebuilt"] = {
            "game": self._game is not None,
            "routes": routes,
            "deck_key": None if self._deck_key is None else list(self._deck_key[1:]),
        }
        return state

    def _attributes(self) -> dict[str, Any]:
        """Every attribute the bot holds, in the order they were first set (its slots, then
        what a subclass keeps in its own dict)."""
        out = {k: getattr(self, k) for k in HeuristicBot.__slots__ if hasattr(self, k)}
        out.update(getattr(self, "__dict__", {}))
        return out

    def load_bot_state(self, game: Any, state: dict[str, Any]) -> None:
        """Carry on from `bot_state` in a restored game."""
        from .snapshot import load_attributes

        rebuilt = state["$rebuilt"]
        # What an older Clankwork's bot kept and this one no longer does (a play order it
        # remembered, say) is left out: it was only ever a cache of what the bot works out.
        slots = set(HeuristicBot.__slots__)
        anything = type(self) is not HeuristicBot  # a subclass may keep more in its dict
        kept = {k: v for k, v in state.items() if k != "$rebuilt" and (anything or k in slots)}
        load_attributes(self, game, kept)
        self._game = game if rebuilt["game"] else None
        self.info = _board_info(game) if rebuilt["game"] else None
        self._rules = _game_rules(game)
        self.routes = None
        if rebuilt["routes"] is not None and self.info is not None:
            grants, mu, *more = rebuilt["routes"]
            closed = frozenset(more[0]) if more else frozenset()
            paid = frozenset(map(tuple, more[1])) if len(more) > 1 else _NONE
            tolls = frozenset(more[2]) if len(more) > 2 else _NONE
            self.routes = self.info.table(frozenset(grants), mu, closed, paid, tolls)
        key = rebuilt["deck_key"]
        self._deck_key = None if key is None else (id(game), *key)

    # -- decisions ----------------------------------------------------------------------------

    def play_first(self, view: Any, p: Any) -> CardDef | None:
        """The card to play before looking at any other action (None: look at them all)."""
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        return self._choose_play(view, p)

    def choose_action(
        self, view: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int:
        """Answer an action decision (``groups``: each kind's option indexes) without a
        `Decision` built for it: the engine's shortcut (`Game.step`), several times a turn. A
        subclass that answers action decisions in its own `choose` sets this to None."""
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        return self._action(view, p, opts, groups)

    def choose(self, view: Any, decision: Decision) -> int:
        """Answer any decision."""
        p = view.players[decision.player]
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        kind = decision.kind
        opts = decision.options
        if kind == "action":
            return self._action(view, p, opts, decision.detail)
        if kind == "may":
            node = decision.detail
            if isinstance(node, dict):
                v = sum(self.effects(lst) for lst in _effect_lists(node))
                return 0 if v > 0 else 1
            return 0
        if kind == "choose":
            node = decision.detail
            if isinstance(node, dict) and "options" in node:
                values = [self.effects(o) for o in node["options"]]
                return values.index(max(values))
            return 0
        if kind == "discard":
            return min(range(len(opts)), key=lambda i: self._keep(opts[i].value))
        if kind == "trash":
            return min(range(len(opts)), key=lambda i: self._keep(opts[i].value[1]))
        if kind == "teleport":
            goal = self._goal(view, p)
            if goal is None:
                return 0
            cost = self.routes.cost[goal]
            return min(range(len(opts)), key=lambda i: cost[opts[i].value])
        return 0

    def _action(self, game: Any, p: Any, opts: Sequence[Option], detail: Any = None) -> int:
        if len(opts) == 1 and opts[0][1][0] is END_TURN:
            # Nothing to do but end the turn (what the cascade below comes to for it).
            if p.artifact is not None and self.target != game.board.hq:
                self._replan(game, p)
            return 0
        if self.info.dynamic:
            self._refresh_routes(game, p)
        # The engine's grouping of an action decision's options, else worked out here.
        groups = detail if type(detail) is dict else _groups(opts)
        plays = groups.get(PLAY)
        if plays:
            card = self._choose_play(game, p)
            if card is not None:
                for i in plays:
                    if opts[i][1][1] is card:
                        return i

        if USE in groups:
            i = self._pick_use(game, p, opts, groups[USE])
            if i is not None:
                return i

        if ACT in groups:
            for i in groups[ACT]:
                if ACT.appraise(opts[i][1], self) > 0:
                    if self._errand_on:
                        self._turn = -1  # the errand done (or not): plan again
                    return i

        if TAKE in groups:
            if self.target != p.pos and self._looked != (game.turn, p.pos):
                # Arrived on another artifact: is this one the best now?
                self._looked = (game.turn, p.pos)
                self._choose_target(game, p)
            if self.target == p.pos:
                return groups[TAKE][0]
        if p.artifact is not None and self.target != game.board.hq:
            self._replan(game, p)

        if BUY in groups:
            i = self._pick_buy(game, p, opts, groups[BUY])
            if i is not None:
                return i

        if COACH in groups and self._goal(game, p) is not None and self.coach_to is not None:
            for i in groups[COACH]:
                if opts[i][1][1] == self.coach_to:
                    self.coach_to = self.waypoint = None
                    return i

        fights = groups.get(FIGHT)
        if FIGHT_RESERVE in groups:
            more = groups[FIGHT_RESERVE]
            fights = [*fights, *more] if fights else more
        if fights:
            spare = p.swords - self._icons_ahead(game, p)
            i = self._pick_fight(game, p, opts, fights, spare, self.SWORD_VALUE)
            if i is not None:
                return i

        if MOVE in groups:
            i = self._pick_move(game, p, opts, groups[MOVE])
            if i is not None:
                return i

        if fights:
            i = self._pick_fight(game, p, opts, fights, p.swords, 0.0)
            if i is not None:
                return i

        acquires = groups.get(ACQUIRE)
        if ACQUIRE_RESERVE in groups:
            more = groups[ACQUIRE_RESERVE]
            acquires = [*acquires, *more] if acquires else more
        if acquires:
            i = self._pick_acquire(game, p, opts, acquires)
            if i is not None:
                return i

        if plays:
            return plays[0]  # a card that waited for a space, now that the walking is done
        return groups[END_TURN][0] if END_TURN in groups else 0

    def _choose_play(self, game: Any, p: Any) -> CardDef | None:
        """The first card of the hand, except that a card whose bonus needs a space it may
        still reach this turn waits (None when only such cards are left). Ordering the hand
        (draws first, weak cards last) added no strength: measured with bot_strength.py."""
        info = self.info
        kinds = info.kinds
        walking = p.boots > 0 and not p.exhausted
        for c in p.hand:
            kind = kinds.get(c)
            if kind is None:
                kind = info.play_kind(c)
            if kind == 3 and walking and not game.space_has(p, info.place[c]):
                continue
            return c
        return None

    def _pick_use(
        self, game: Any, p: Any, opts: Sequence[Option], uses: Sequence[int]
    ) -> int | None:
        for i in uses:
            tok = opts[i].value[1]
            nodes = self.info.effects(tok, "use")
            reading = _reading_of(nodes)
            asked, terms = reading.asked, reading.terms
            if "heal" in asked:
                heal = max(1.0, terms.get("heal", 0.0))
                if p.damage >= heal or (p.damage and self.health_left <= 4):
                    return i
            elif "trash" in asked:
                if any(self._keep(c) < 0.8 for c in (*p.discard, *p.play)):
                    return i
            elif asked and asked <= _GAINS.keys() and all(terms.get(k, 0) > 0 for k in asked):
                # Only resources, all gained: use it when they help.
                if "boots" in asked and self._needs_boot(game, p):
                    return i
                if "swords" in asked and self._needs_swords(game, p):
                    return i
                if "skill" in asked or "gold" in asked:
                    return i
            elif self._lines_worth(tok, "use") > 0:
                return i
        return None

    def _needs_boot(self, game: Any, p: Any) -> bool:
        """One more boot lets the player make progress it cannot make now."""
        goal = self._goal(game, p)
        if goal is None or p.exhausted or p.escaping or goal == p.pos:
            return False
        cost = self.routes.cost[goal]
        here = cost[p.pos]
        moves = game.board.moves[p.pos]
        if any(m.boots <= p.boots and cost[m.to] < here for m in moves):
            return False
        return any(m.boots == p.boots + 1 and cost[m.to] < here for m in moves)

    def _needs_swords(self, game: Any, p: Any) -> bool:
        """Two more swords would save damage on the way or win a fight worth having."""
        if self._icons_ahead(game, p) > p.swords and self.health_left <= 6:
            return True
        here = game.board.spaces[p.pos]
        for card in game.row:
            if card.type != "monster" or not p.swords < card.fight <= p.swords + 2:
                continue
            if not allowed_here(card, here):
                continue
            if self._lines_worth(card, "defeat") >= 2.5:
                return True
        return False

    def _icons_ahead(self, game: Any, p: Any, tolls: bool = True) -> int:
        """Monster icons on the planned route that this turn's boots reach (swords to keep);
        with ``tolls``, also the swords a live entry toll on it asks, when the player has them
        (beating its guard beats taking its damage)."""
        goal = self._goal(game, p)
        boots = p.boots
        if goal is None or p.exhausted or not boots:
            return 0
        r = self.routes
        live = self._live if tolls else _NONE
        if live:
            return self._swords_ahead(p, r.step[goal], goal, live)
        key = (goal, p.pos, boots)
        icons = r._ahead.get(key)
        if icons is None:
            step = r.step[goal]
            forest = self.info.forest
            pos, icons = p.pos, 0
            while pos != goal:
                m = step[pos]
                if m is None or m.boots > boots:
                    break
                if not m.plain and m.way.paid_in != "boots":
                    break  # the rest of the way waits for a move paid otherwise
                boots -= m.boots
                icons += m.monsters
                pos = m.to
                if forest[pos]:
                    break
            r._ahead[key] = icons
        return icons

    def _swords_ahead(self, p: Any, step: Sequence[Any], goal: int, live: frozenset[int]) -> int:
        """`_icons_ahead` on a board with live tolls: the icons, and the swords a toll on the
        way asks when the player has them (not remembered: it depends on the swords)."""
        forest = self.info.forest
        need_at = self.info.toll_swords
        pos, boots, icons = p.pos, p.boots, 0
        while pos != goal:
            m = step[pos]
            if m is None or m.boots > boots:
                break
            if not m.plain and m.way.paid_in != "boots":
                break
            boots -= m.boots
            icons += m.monsters
            pos = m.to
            if pos in live:
                need = need_at[pos]
                if need and p.swords >= icons + need:
                    icons += need
            if forest[pos]:
                break
        return icons

    def _pick_move(
        self, game: Any, p: Any, opts: Sequence[Option], moves: Sequence[int]
    ) -> int | None:
        """The move that leaves the cheapest way still to go (damage and swords counted)."""
        goal = self._goal(game, p)
        if goal is None:
            return None
        cost = self.routes.cost[goal]
        bv = self.boot_value
        hv = self.health_value
        sv = self.SWORD_VALUE
        forest = self.info.forest
        left = self.health_left
        best, best_key = None, cost[p.pos] * bv - 1e-6
        hq = game.board.hq
        stay = goal == hq and self._linger(game, p)
        boots = p.boots
        live = self._live
        stops = self.info.entry_hooks
        spaces = live or stops  # spaces whose entry asks or gives something
        for i in moves:
            _, m, swords = opts[i][1]
            to = m.to
            hurt = m.monsters - swords
            if hurt and left - hurt <= 1:
                continue
            if stay and to == hq:
                continue
            # cost * bv + hurt * hv + swords * sv, without adding the zeros (the same sum).
            key = cost[to] * bv
            if hurt:
                key = key + hurt * hv
            if swords:
                key = key + swords * sv
            if (forest[to] or m.way.exhausts) and to != goal:
                key += max(0, boots - m.boots) * bv * 0.8
            if spaces:
                if to in live:
                    # The route costs count tolls only beyond the next space: this one's.
                    key += self._toll_cost(p, to, p.swords - swords)
                if to in stops and to not in p.visited:
                    # What the space's entry triggers give (a token lying there the player
                    # lacks...): worth a step off the route when it pays more than the step.
                    key -= self._entry_gain(game, p, to, stops[to])
            if key < best_key:
                best, best_key = i, key
        if best is None and boots:
            nxt = self.routes.step[goal][p.pos]
            if nxt is not None and (nxt.way.exhausts or forest[nxt.to]) and nxt.to != goal:
                # The route's next step exhausts (it would waste the boots in hand) and no
                # other step gets nearer: a walk of a few steps may (the route table prices
                # the exhausting step at a boot, so walking on is as long at each step).
                return self._walk_plan(game, p, opts, moves, cost, best_key, stay)
        return best

    # The most moves `_walk_plan` looks ahead.
    PLAN_DEPTH = 8

    def _walk_plan(
        self,
        game: Any,
        p: Any,
        opts: Sequence[Option],
        moves: Sequence[int],
        cost: Sequence[float],
        stay_key: float,
        stay: bool,
    ) -> int | None:
        """The first move of the walk this turn's boots can make that ends nearest the goal
        (``cost``: the route table's cost to it), when it ends nearer than staying put
        (``stay_key``): monster damage and swords on the way counted as `_pick_move` counts
        them, a way or space that exhausts ending the walk, HQ too (and left out while the
        player lingers, ``stay``). Walks on only along paths paid in boots, open to the
        player now."""
        board = game.board
        hq = board.hq
        bv = self.boot_value
        hv = self.health_value
        sv = self.SWORD_VALUE
        forest = self.info.forest
        all_moves = board.moves
        grants = self._grants(p)
        closed = self.info.closed(game)
        carrying = p.artifact is not None
        tolled = board.tolled
        live = self._live
        depth = self.PLAN_DEPTH
        best_i, best_v = None, stay_key
        # The least spent on the way to each (space, boots, swords, health left) reached.
        seen: dict[tuple[int, int, int, int], float] = {}

        def walk(u: int, boots: int, swords: int, left: int, spent: float, k: int) -> float:
            out = spent + cost[u] * bv
            if k >= depth:
                return out
            key = (u, boots, swords, left)
            was = seen.get(key)
            if was is not None and was <= spent:
                return _INF
            seen[key] = spent
            for m in all_moves[u]:
                to = m.to
                if m.boots > boots or m.way.paid_in != "boots":
                    continue
                if to == hq and (not carrying or stay):
                    continue
                if to in tolled:
                    continue  # an entry toll: planned from the next step on, when it is open
                if m.requires and not grants.issuperset(m.requires):
                    continue
                if m.way.blocked_by and closed and (u in closed or to in closed):
                    continue
                use = min(swords, m.monsters)
                hurt = m.monsters - use
                if hurt and left - hurt <= 1:
                    continue
                v = spent + hurt * hv + use * sv
                if forest[to] or m.way.exhausts or to == hq or cost[to] <= 0:
                    v += cost[to] * bv
                else:
                    v = walk(to, boots - m.boots, swords - use, left - hurt, v, k + 1)
                if v < out:
                    out = v
            return out

        left = self.health_left
        for i in moves:
            _, m, swords = opts[i][1]
            if m.way.paid_in != "boots":
                continue
            to = m.to
            if stay and to == hq:
                continue
            hurt = m.monsters - swords
            if hurt and left - hurt <= 1:
                continue
            v = hurt * hv + swords * sv
            if to in live:
                v += self._toll_cost(p, to, p.swords - swords)
            if forest[to] or m.way.exhausts or to == hq or cost[to] <= 0:
                v += cost[to] * bv
            else:
                v = walk(to, p.boots - m.boots, p.swords - swords, left - hurt, v, 1)
            if v < best_v - 1e-9:
                best_i, best_v = i, v
        return best_i

    def _toll_cost(self, p: Any, x: int, swords: int) -> float:
        """What meeting the live entry toll of space ``x`` costs, in points, with ``swords``
        in hand: the guard beaten when the swords suffice (its reward less the swords, so
        usually a gain), else its damage."""
        info = self.info
        need = info.toll_swords[x]
        if need and swords >= need and x in info.toll_fight:
            return -self.effects(info.toll_fight[x])
        return info.toll_hurt[x] * self.health_value

    def _linger(self, game: Any, p: Any) -> bool:
        """Stay one more turn a step from HQ with the artifact: worth it while another player
        is still out there and a turn of buying brings more than the risk of a knock-out
        (which costs the mug) before the next turn."""
        if self.LINGER <= 0 or p.artifact is None:
            return False
        board = game.board
        hq = board.hq
        if not any(m.to == hq and m.boots == 1 and not m.monsters for m in board.moves[p.pos]):
            return False
        if board.spaces[p.pos].danger_zone:
            return False
        if self._waits >= self.LINGER_TURNS and self._wait_turn != game.turn:
            return False  # people do not wait for ever
        # Waiting only pays while somebody is still out there: two players waiting for each
        # other a step from HQ would wait for ever.
        to_hq = board.dist_to_hq
        if not any(
            q.on_clock and q is not p and (q.artifact is None or to_hq[q.pos] > 2)
            for q in game.players
        ):
            return False
        # An emptied bag knocks out everyone still on the clock.
        if self.in_bag <= 2 * self.cubes_round + 4:
            return False
        supply = game.token_supply
        mug = max((t.points for t in self.info.mugs if supply[t]), default=0)
        risk = _tail(self.dmg_round * self.LINGER_RISK, self.health_left)
        if self.LINGER * self.pts_turn <= risk * (mug + 2 * self.pts_turn):
            return False
        if self._wait_turn != game.turn:
            self._wait_turn = game.turn
            self._waits += 1
        return True

    def _pick_fight(
        self,
        game: Any,
        p: Any,
        opts: Sequence[Option],
        fights: Sequence[int],
        swords: int,
        per_sword: float,
    ) -> int | None:
        best, best_v = None, 0.0
        for i in fights:
            kind, card = opts[i].value
            if card.fight > swords:
                continue
            v = self._lines_worth(card, "defeat")
            if card.danger and kind is FIGHT:
                v += 1.0
            v -= per_sword * card.fight
            if v > best_v:
                best, best_v = i, v
        return best

    def _pick_acquire(
        self, game: Any, p: Any, opts: Sequence[Option], acquires: Sequence[int]
    ) -> int | None:
        """The first card of the affordable set that adds most to the score (a knapsack); the
        rest of the set is kept for the next decisions while the skill left is as planned."""
        budget = p.skill
        plan = self._buys
        if plan is not None and plan[0] == budget:
            if not plan[1]:
                return None  # the planned set is bought; nothing else adds to it
            want = plan[1][0]
            for i in acquires:
                if opts[i][1] == want:
                    self._buys = (budget - want[1].cost, plan[1][1:])
                    return i
        items: list[tuple[int, int, float]] = []  # (option index, cost, value)
        worth = self._worth
        least = None
        for i in acquires:
            kind, card = opts[i][1]
            v = worth.get(card)
            if v is None:
                v = self.card_value(game, p, card)
            if v <= 0.05:
                continue
            cost = card.cost
            if kind is ACQUIRE:
                copies = game.row.count(card)
            else:
                copies = min(game.reserve[card], budget // max(1, cost))
            if copies:
                if copies == 1:
                    items.append((i, cost, v))
                else:
                    items.extend([(i, cost, v)] * copies)
                if least is None or cost < least:
                    least = cost
        if not items:
            self._buys = (budget, [])
            return None
        if len(items) == 1 or 2 * least > budget:  # type: ignore[operator]
            # Room for one card only: the most valuable (the first of equals).
            top = items[0]
            for it in items:
                if it[2] > top[2]:
                    top = it
            self._buys = (budget - top[1], [])
            return top[0]
        best = [0.0] * (budget + 1)
        pick = [0] * (budget + 1)  # the items of each best set, as bits
        for k, (_, c, v) in enumerate(items):
            bit = 1 << k
            for b in range(budget, c - 1, -1):
                x = best[b - c] + v
                if x > best[b]:
                    best[b] = x
                    pick[b] = pick[b - c] | bit
        bits = pick[budget]
        chosen = [it for k, it in enumerate(items) if bits >> k & 1]
        chosen.sort(key=_third, reverse=True)  # stable: equals keep their order
        first = chosen[0][0]
        rest = [opts[i][1] for i, _, _ in chosen[1:]]
        self._buys = (budget - chosen[0][1], rest)
        return first

    def _pick_buy(
        self, game: Any, p: Any, opts: Sequence[Option], buys: Sequence[int]
    ) -> int | None:
        price = game.rules["market_price"]
        best, best_v = None, 0.0
        for i in buys:
            tok = best_market_item(game, opts[i].value[1])
            v = tok.points - price + self._enabling(game, p, tok) + self._item_worth(game, p, tok)
            if tok.reveal:
                v += self._lines_worth(tok, "reveal")  # what buying it does (heal on buying)
            if v > best_v:
                best, best_v = i, v
        if best is not None:
            self._turn = -1  # a canoe changes the routes: plan again at the next decision
        return best


BOTS: dict[str, Callable[[int], Any]] = {
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "random": RandomBot,
}


def make_bot(name: str, seed: int = 0) -> Any:
    """A new bot by name ("heuristic", "greedy", "random"), seeded for its game and seat."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None
