"""The op registry: one record per effect op, condition and count.

Each record holds everything about its word: the phrases a designer writes, the JSON Schema
fragment of its IR node, the handler the interpreter runs, the text printed on the card, its
documentation and examples. The pack schema, the language reference and card text are all
generated from these records, and the compiler resolves words against them.

Phrase patterns are space-separated items:
  word          a literal word; ``a|an`` gives alternatives; ``[word]`` is optional
  {name:kind}   a slot; kinds are listed in ``SLOT_KINDS``
  {name=json}   sets a parameter to a constant without reading a word ({other=true})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

RESOURCES = ("skill", "swords", "boots", "gold", "clank")
RESOURCE_WORDS = {
    "skill": "skill",
    "skills": "skill",
    "sword": "swords",
    "swords": "swords",
    "boot": "boots",
    "boots": "boots",
    "gold": "gold",
    "clank": "clank",
    "clank!": "clank",
}

# Slot kinds a phrase may contain; the compiler turns each matched atom into a value.
#   int      a whole number            signed   +N or -N (or a plain N)
#   resource skill, swords, boots...   name     a quoted or bare name (a card, a token)
#   tag      one word (companion)      words    the rest of the phrase, as one string
#   cond     the rest, as a condition  count    the rest, as a count
#   duration the rest, as how long something lasts (`DURATIONS`): "turn", "next_turn", "game"
SLOT_KINDS = ("int", "signed", "resource", "name", "tag", "words", "cond", "count", "duration")

# How long a status lasts, as a designer writes it: to the end of the turn it is given in,
# until the next turn of the player whose line it is begins, or for the rest of the game.
DURATIONS = {
    "this turn": "turn",
    "for the rest of this turn": "turn",
    "for the rest of the turn": "turn",
    "for the remainder of this turn": "turn",
    "until the end of this turn": "turn",
    "until the end of the turn": "turn",
    "until the end of your turn": "turn",
    "until your next turn": "next_turn",
    "until the start of your next turn": "next_turn",
    "until the beginning of your next turn": "next_turn",
    "for the rest of the game": "game",
    "until the end of the game": "game",
    "for the remainder of the game": "game",
    "this game": "game",
}
DURATION_TEXT = {
    "turn": "for the rest of this turn",
    "next_turn": "until your next turn",
    "game": "for the rest of the game",
}

SPAN_REF = {"$ref": "#/$defs/span"}

# The IR key that names a node's record, by family: {"op": "draw"}, {"on": "enter"}...
FAMILY_KEY = {"effect": "op", "condition": "cond", "count": "count", "trigger": "on"}


@dataclass(frozen=True)
class Record:
    """One registered op, condition or count.

    ``family`` is "effect", "condition" or "count". ``params`` maps a parameter name to its
    JSON Schema fragment; ``required`` lists the ones every node must carry.
    """

    family: str
    name: str
    phrases: tuple[str, ...]
    params: dict[str, dict[str, Any]]
    required: tuple[str, ...]
    doc: str
    render: Callable[[dict[str, Any]], str]
    handler: Callable[..., Any] | None = None
    examples: tuple[str, ...] = ()
    # Effects that may stand before "->" as the price of what follows.
    payable: bool = False
    structural: bool = False
    # Values for parameters a phrase leaves out ("draw a card" is draw with n = 1).
    defaults: dict[str, Any] = field(default_factory=dict)
    # For payable effects: ``can_pay(game, ctx, node) -> bool``, asked before paying a price.
    can_pay: Callable[..., bool] | None = None
    # What the node is worth to a bot, in points of final score: ``appraise(node, v) -> float``
    # where ``v`` is a `Valuer` (see below). Every record carries one; a test fails without it.
    appraise: Callable[[dict[str, Any], Any], float] | None = None
    # Family-specific data (a trigger's event and whose turn it watches; see triggers.py).
    meta: dict[str, Any] = field(default_factory=dict)

    def schema(self) -> dict[str, Any]:
        """The closed JSON Schema of this record's IR node."""
        key = FAMILY_KEY[self.family]
        props: dict[str, Any] = {key: {"const": self.name}, "at": SPAN_REF}
        props.update(self.params)
        return {
            "type": "object",
            "properties": props,
            # The compiler always writes the defaults, so an IR node without them was edited
            # by hand: require them rather than let a handler or renderer meet a missing key.
            "required": [
                key,
                *self.required,
                *(d for d in self.defaults if d not in self.required),
            ],
            "additionalProperties": False,
        }


class Valuer:
    """What an appraisal may ask a bot (the bots implement it; see interpreter/bots.py).

    An appraisal says what one IR node is worth to the player who gets it, in points of final
    score, using only these questions and arithmetic (+, -, *, /, max, min, comparisons), so a
    new op, trigger or action is valued by the bots the moment it is registered, with no bot
    code that names it:

    - ``v.unit(key)``: the worth of one unit of ``key``, signed (damage is worth less than
      nothing): a resource name ("skill", "swords", "boots", "gold", "clank", or one a pack
      declares), or one of "draw", "heal", "damage", "teleport", "discard", "trash",
      "minor secret", "major secret", "token", "rage", "dragon attack", "bag cube" (a black
      cube back into the dragon bag), "points". A key a bot does not know is worth a little,
      like a resource it has never seen.
    - ``v.effects(nodes)``: the worth of a nested effect list (for structural ops).
    - ``v.chance(cond)``: how likely a condition node is to hold, 0..1.
    - ``v.unlikely(cond)``: how likely it is not to hold (by default ``1 - v.chance(cond)``).
    - ``v.opponents(nodes)``: the worth to us of opponents getting ``nodes`` (usually < 0).
    - ``v.count(node)``: the expected value of a count node ("per ..."), when it is applied.
    - ``v.pays(cost)``: how likely the player pays a price (an effect list) when it is asked,
      0..1: 1 when deciding on the spot, less when reading what a card gives on average.
    - ``v.where(feature)``: how likely the player is on a space with that feature (forest,
      town...) when the effect happens, 0..1; bots also learn from it that a card pays off
      on some spaces only.
    - ``v.token(what)``: the worth of taking one token matching ``what`` (a name, type or
      kind) to hold: by default ``v.unit("major secret")`` or ``v.unit("minor secret")`` for
      those kinds, else ``v.unit("token")``; a bot may know better (what holding one brings:
      its points, its triggers, its actions; a token that opens the way to an artifact).

    Condition records appraise to a likelihood (0..1) and count records to an expected count,
    both usually asked through ``v.chance`` and ``v.count``. Appraisals must not look at the
    game: bots cache what a card is worth, and one bot (the profile reader) answers ``unit``
    with numbers that also remember which units they are made of.
    """

    def unit(self, key: str) -> float:
        """Worth of one unit of ``key``."""
        raise NotImplementedError

    def effects(self, nodes: list[dict[str, Any]]) -> float:
        """Worth of an effect list (by default: the sum of each record's appraisal)."""
        total = 0.0
        for n in nodes:
            total = total + EFFECTS[n["op"]].appraise(n, self)
        return total

    def chance(self, cond: dict[str, Any]) -> float:
        """Likelihood that a condition node holds (by default: its record's appraisal)."""
        return CONDITIONS[cond["cond"]].appraise(cond, self)

    def unlikely(self, cond: dict[str, Any]) -> float:
        """Likelihood that a condition node does not hold (`not`, `unless`): by default one
        less its chance; a bot that learns from a condition (where a card pays off) learns
        nothing from one it must not meet."""
        return 1.0 - self.chance(cond)

    def opponents(self, nodes: list[dict[str, Any]]) -> float:
        """Worth to us of each opponent getting ``nodes``."""
        raise NotImplementedError

    def count(self, node: dict[str, Any]) -> float:
        """Expected value of a count node (by default: its record's appraisal)."""
        return COUNTS[node["count"]].appraise(node, self)

    def pays(self, cost: list[dict[str, Any]]) -> float:
        """Likelihood of paying the price ``cost`` when it is asked."""
        return 1.0

    def where(self, feature: str) -> float:
        """Likelihood of standing on a space with ``feature`` when the effect happens."""
        return 0.5

    def token(self, what: str) -> float:
        """Worth of taking one token matching ``what`` (name, type or kind) to hold: a secret
        of that size ("major", "minor"), else a token."""
        return self.unit(f"{what} secret" if what in ("major", "minor") else "token")


class Registry:
    """All records of one family, by name, in registration order."""

    def __init__(self, family: str) -> None:
        self.family = family
        self._records: dict[str, Record] = {}
        # Each record's handler by name (read-only to callers): what the engine runs a node
        # with, kept here so that a game need not build the table.
        self.handlers: dict[str, Callable[..., Any]] = {}

    def add(self, record: Record) -> Record:
        """Register ``record``; a name can be registered once only."""
        if record.family != self.family:
            raise ValueError(f"{record.name} is a {record.family}, not a {self.family}")
        if record.name in self._records:
            raise ValueError(f"{self.family} {record.name!r} is registered twice")
        self._records[record.name] = record
        if record.handler is not None:
            self.handlers[record.name] = record.handler
        return record

    def __getitem__(self, name: str) -> Record:
        return self._records[name]

    def __contains__(self, name: object) -> bool:
        return name in self._records

    def __iter__(self):
        return iter(self._records.values())

    def names(self) -> list[str]:
        """Registered names in order."""
        return list(self._records)


EFFECTS = Registry("effect")
CONDITIONS = Registry("condition")
COUNTS = Registry("count")
TRIGGERS = Registry("trigger")


def _register(registry: Registry, name: str, handler: Callable[..., Any], **kw: Any) -> None:
    params = kw.pop("params")
    required = kw.pop("required", None)
    if required is None:
        defaults = kw.get("defaults", {})
        required = tuple(p for p in params if p not in defaults)
    registry.add(
        Record(
            registry.family,
            name,
            params=params,
            required=required,
            doc=(handler.__doc__ or "").strip(),
            handler=handler,
            **kw,
        )
    )


def effect(name: str, **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register the handler as effect op ``name``; its docstring is the op's doc.

    Keywords: ``phrases``, ``params``, ``render`` (required); ``required``, ``examples``,
    ``payable``, ``structural``, ``defaults``, ``can_pay``, ``appraise``.
    """

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        _register(EFFECTS, name, handler, **kw)
        return handler

    return wrap


def condition(name: str, **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register the predicate ``handler(game, ctx, node) -> bool`` as a condition."""

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        _register(CONDITIONS, name, handler, **kw)
        return handler

    return wrap


def count(name: str, **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``handler(game, player, node) -> int`` as a count for "per" formulas."""

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        _register(COUNTS, name, handler, **kw)
        return handler

    return wrap


# The pack's word for its antagonist (`dragon { word boss }`) while card text is rendered for
# that pack: "the boss attacks". Renderers ask `the_antagonist`; the canonical text (docs,
# the language's own phrases) keeps "the dragon".
_ANTAGONIST: ContextVar[str] = ContextVar("clankwork_antagonist", default="dragon")


@contextmanager
def antagonist(word: str) -> Iterator[None]:
    """Render card text for a pack whose antagonist is called ``word`` inside the block."""
    token = _ANTAGONIST.set(word)
    try:
        yield
    finally:
        _ANTAGONIST.reset(token)


def the_antagonist() -> str:
    """ "the dragon", or the pack's word for it while `antagonist` is in force."""
    return f"the {_ANTAGONIST.get()}"


def render_effects(nodes: list[dict[str, Any]]) -> str:
    """Card text for a list of effect nodes, joined the way cards print them."""
    return ", ".join(EFFECTS[n["op"]].render(n) for n in nodes)


def render_condition(node: dict[str, Any]) -> str:
    """Card text for one condition node."""
    return CONDITIONS[node["cond"]].render(node)


def render_count(node: dict[str, Any]) -> str:
    """Card text for one count node."""
    return COUNTS[node["count"]].render(node)


def article(noun: str) -> str:
    """The noun with its article, for card text: "a guard", "an artifact"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


_SLOT_SHOWN = {
    "int": "N",
    "signed": "+N",
    "resource": "RESOURCE",
    "name": "NAME",
    "tag": "TAG",
    "words": "WORDS",
    "cond": "CONDITION",
    "count": "COUNT",
    "duration": "DURATION",
}


def pretty_phrase(pattern: str) -> str:
    """A phrase pattern as a designer reads it: `draw {n:int} [card|cards]` → `draw N [card]`."""
    out = []
    for part in pattern.split():
        if part.startswith("{") and "=" in part:
            continue
        if part.startswith("{"):
            name, _, kind = part[1:-1].partition(":")
            out.append(_SLOT_SHOWN.get(kind, name.upper()))
        elif part.startswith("["):
            out.append("[" + part[1:-1].split("|")[0] + "]")
        else:
            out.append(part.replace("|", "/"))
    return " ".join(out)
