"""Match a phrase (a run of atoms) against the registry's phrase patterns."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS, Record, Registry
from clankwork.interpreter.effects.registry import (
    DURATIONS,
    FAMILY_KEY,
    RESOURCE_WORDS,
    pretty_phrase,
)

from .limits import EFFECT_AMOUNT_MAX, Range
from .parser import Atom


@dataclass(frozen=True)
class Item:
    """One pattern item: literal words (``words``), optional or not, or a slot."""

    words: frozenset[str] = frozenset()
    optional: bool = False
    slot: str | None = None
    kind: str | None = None
    const: Any = None


@cache
def compile_pattern(pattern: str) -> tuple[Item, ...]:
    """Split a pattern string into items (see the registry's docstring for the notation)."""
    items = []
    for part in pattern.split():
        if part.startswith("{") and "=" in part:
            name, value = part[1:-1].split("=")
            items.append(Item(slot=name, kind="const", const=json.loads(value)))
        elif part.startswith("{"):
            name, kind = part[1:-1].split(":")
            items.append(Item(slot=name, kind=kind))
        elif part.startswith("["):
            items.append(Item(frozenset(part[1:-1].split("|")), optional=True))
        else:
            items.append(Item(frozenset(part.split("|"))))
    return tuple(items)


class NoMatch(Exception):
    """Raised inside matching; carries a nested failure (an unknown condition) when known."""

    def __init__(self, nested: tuple[str, list[Atom]] | None = None) -> None:
        super().__init__()
        self.nested = nested


def _word(atom: Atom) -> str | None:
    return atom.text.lower() if atom.kind == "word" else None


def _match(
    items: tuple[Item, ...], atoms: list[Atom], out: dict[str, Any], failures: list[Any]
) -> dict[str, Any] | None:
    if not items:
        return out if not atoms else None
    item, rest = items[0], items[1:]
    if item.kind == "const":
        return _match(rest, atoms, {**out, item.slot: item.const}, failures)  # type: ignore[dict-item]
    if item.slot is None:
        if atoms and _word(atoms[0]) in item.words:
            got = _match(rest, atoms[1:], out, failures)
            if got is not None:
                return got
        return _match(rest, atoms, out, failures) if item.optional else None
    if item.kind == "duration":
        if rest or not atoms:
            return None  # a duration ends the phrase
        ends = DURATIONS.get(" ".join(_word(a) or "\0" for a in atoms))
        return None if ends is None else {**out, item.slot: ends}
    if item.kind in ("words", "cond", "count"):
        if not atoms:
            return None
        if rest:
            return _match_inner(item, rest, atoms, out, failures)
        if item.kind == "words":
            if not all(a.kind in ("word", "string") for a in atoms):
                return None
            return {
                **out,
                item.slot: " ".join(a.text.lower() if a.kind == "word" else a.text for a in atoms),
            }
        registry = CONDITIONS if item.kind == "cond" else COUNTS
        inner: list[Any] = []
        node = resolve(registry, atoms, inner)
        if node is None:
            failures.append((item.kind, atoms))
            return None
        failures.extend(f for f in inner if f[0] == "range")
        return {**out, item.slot: node}
    if not atoms:
        return None
    a = atoms[0]
    value: Any
    numeric = ("number",) if item.kind == "int" else ("signed", "number")
    if item.kind in ("int", "signed") and a.kind in numeric:
        value = a.value
        # Remember which atom filled the slot (a non-string key never reaches the IR), so
        # a range check can point at the number.
        out = {**out, ("atom", item.slot): a}
    elif item.kind == "resource" and _word(a) in RESOURCE_WORDS:
        value = RESOURCE_WORDS[_word(a)]  # type: ignore[index]
    elif item.kind == "resource" and a.kind == "resource":
        value = a.value  # a pack's declared resource (the compiler made the atom)
    elif item.kind == "name" and a.kind in ("string", "word"):
        value = a.text
    elif item.kind == "tag" and a.kind in ("word", "string"):
        value = a.text.lower()
    else:
        return None
    return _match(rest, atoms[1:], {**out, item.slot: value}, failures)


def _match_inner(
    item: Item, rest: tuple[Item, ...], atoms: list[Atom], out: dict[str, Any], failures: list[Any]
) -> dict[str, Any] | None:
    """A words, condition or count slot with more pattern after it (`more {count:count}
    than you`): the shortest run of atoms that fills it and leaves the rest matching."""
    for k in range(1, len(atoms) + 1):
        tail = _match(rest, atoms[k:], {}, [])
        if tail is None:
            continue
        head = _match((item,), atoms[:k], out, failures)
        if head is not None:
            return _match(rest, atoms[k:], head, failures)
    return None


def slot_range(record: Record, slot: str) -> Range:
    """The range of a number slot: its parameter schema's minimum and maximum, or the
    default effect bound where the schema leaves one out."""
    schema = record.params.get(slot, {})
    return Range(
        schema.get("minimum", -EFFECT_AMOUNT_MAX),
        schema.get("maximum", EFFECT_AMOUNT_MAX),
        f"N of `{record.name}`",
    )


def match_record(
    record: Record, atoms: list[Atom], failures: list[Any], words: bool = True
) -> dict[str, Any] | None:
    """Params for ``atoms`` if one of the record's phrases reads like them (without
    ``words``, only phrases with no `{x:words}` slot, which takes any words at all).

    A number outside its slot's range still matches (the phrase is the right one); it is
    added to ``failures`` as ``("range", (atom, what, range))`` for the compiler to report.
    """
    for pattern in record.phrases:
        if not words and ":words}" in pattern:
            continue
        got = _match(compile_pattern(pattern), atoms, {}, failures)
        if got is not None:
            params = {k: v for k, v in got.items() if isinstance(k, str)}
            for key, atom in got.items():
                if isinstance(key, tuple):
                    limit = slot_range(record, key[1])
                    if not limit.low <= int(atom.value) <= limit.high:
                        what = f"N in `{pretty_phrase(pattern)}`"
                        failures.append(("range", (atom, what, limit)))
            return {**record.defaults, **params}
    return None


# Packs repeat their phrases ("+1 skill", "draw 1") thousands of times, and matching one
# tries the registry's records in turn: remember each successful match by the phrase's
# words and numbers, and hand out a copy (callers add spans to the node). Failures are not
# remembered: their diagnostics point at the atoms of each occurrence. Bounded, so a pack of
# a million distinct phrases cannot grow it without limit.
_RESOLVED: dict[tuple[Registry, tuple[tuple[str, str | int], ...]], dict[str, Any]] = {}
_RESOLVED_MAX = 20_000


def _copy(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def resolve(
    registry: Registry, atoms: list[Atom], failures: list[Any] | None = None
) -> dict[str, Any] | None:
    """The IR node (without span) of the first non-structural record matching ``atoms``."""
    memo = (registry, tuple((a.kind, a.value) for a in atoms))
    hit = _RESOLVED.get(memo)
    if hit is not None:
        return _copy(hit)
    failures = [] if failures is None else failures
    before = len(failures)
    node = _resolve(registry, atoms, failures)
    if node is not None and len(failures) == before and len(_RESOLVED) < _RESOLVED_MAX:
        _RESOLVED[memo] = _copy(node)
    return node


def _resolve(registry: Registry, atoms: list[Atom], failures: list[Any]) -> dict[str, Any] | None:
    key = FAMILY_KEY[registry.family]
    # A phrase that reads the words one by one comes before one whose `{x:words}` slot takes
    # whatever is left: `you have more gold than every other player` is a comparison, not
    # a token called "more gold than every other player".
    for words in (False, True):
        for record in registry:
            if record.structural:
                continue
            got = match_record(record, atoms, failures, words)
            if got is not None:
                return {key: record.name, **got}
    return None


def leading_words(registry: Registry) -> set[str]:
    """Every word a phrase of the registry can start with (for "did you mean")."""
    words: set[str] = set()
    for record in registry:
        if record.structural:
            continue
        for pattern in record.phrases:
            items = compile_pattern(pattern)
            for it in items:
                if it.slot is None:
                    words |= {w for w in it.words if w}
                    if not it.optional:
                        break
                elif it.kind != "const":
                    break
    return words


def known_phrases(registry: Registry) -> list[str]:
    """Every phrase pattern, for "did you mean" over whole phrases."""
    return [p for r in registry for p in r.phrases]


EFFECT_WORDS = leading_words(EFFECTS) | {"may", "choose", "each", "if", "roll", "at"}
# Every effect's examples, whole: the nearest one to a phrase whose first word is right but
# whose rest is not ("take 1 damge") says more than that first word.
EFFECT_EXAMPLES = sorted({x for r in EFFECTS for x in r.examples if not r.structural})
