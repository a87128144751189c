"""How the bots value things: the op records' appraisals asked through the `Valuer`
questions, the unit weights, and what a card's lines give (its resource profile)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from .board import UNREACHABLE
from .effects.registry import EFFECTS, TRIGGERS, Valuer
from .effects.triggers import ZONE_TRIGGERS

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
        moments = getattr(thing, "moments", None)
        if moments:
            # A card's own moves ("when you discard this"): each by the chance its record
            # gives that the move comes as the card goes round the deck once.
            for event, lines in moments.items():
                record = TRIGGERS[ZONE_TRIGGERS[event][0]]
                for cond, eff in lines:
                    total = total + self.line(cond) * record.appraise({"effects": eff}, self)
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


def best_untaught(
    opts: Sequence[Any], groups: dict[Any, list[int]], taught: frozenset[Any], v: Valuer
) -> int | None:
    """The option worth most (and more than nothing) among the action kinds a bot has no
    rule for (``taught`` are those it has): a kind added to the engine after the bot was
    written is taken when its own appraisal says it is worth something, rather than never
    (a designer's new action would otherwise be measured as if no bot wanted it)."""
    best, at = 0.0, None
    for kind, found in groups.items():
        if kind in taught:
            continue
        for i in found:
            worth = kind.appraise(opts[i][1], v)
            if worth > best:
                best, at = worth, i
    return at


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

    def unlikely(self, cond: dict[str, Any]) -> float:
        """One less the condition's chance; the spaces it names are where the card does not
        pay off, so they are not marked."""
        marked = len(self.places)
        miss = 1.0 - self.chance(cond)
        del self.places[marked:]
        return miss


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
