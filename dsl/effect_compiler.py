"""How the compiler reads what cards, tokens, spaces and the rules block *do*: trigger lines,
conditions, and effects (simple phrases, prices before `->`, bracketed groups, random
outcomes), resolved against the op registry's phrases (dsl/phrases.py). Every declaration
record that holds effects compiles them through these methods, mixed into `_Compiler`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS
from clankwork.interpreter.effects.counted_amounts import held_name
from clankwork.interpreter.effects.logic import leaves

from .condition_logic import IF_WORDS, failing_part, parse_condition
from .decls.shared import _at, _join, _phrase_span, feature_name
from .diagnostics import Diagnostic, Span, did_you_mean, quote_name
from .limits import RANGES, Range
from .parser import Atom, Effect, Stmt
from .phrases import EFFECT_EXAMPLES, EFFECT_WORDS, leading_words, match_record, resolve

# The words of a group (an effect with bracketed options) and of a random outcome's weight.
GROUP_WORDS = ("choose", "each", "if", "may", "roll", "at random")
WEIGHT_WORDS = frozenset(("face", "faces", "chance", "chances", "times"))


def _rounding_joined(effs: list[Effect]) -> list[Effect]:
    """`return half your gems, rounded up`: a rounding written after a comma belongs to the
    effect before it (the comma separates effects, so it arrives as an effect of its own)."""
    out: list[Effect] = []
    for e in effs:
        words = [a.text.lower() for a in e.phrase]
        if out and e.form == "simple" and words in (["rounded", "up"], ["rounded", "down"]):
            # The effect it rounds: the one before, or the last of what its price buys.
            prev = out[-1]
            last = prev.consequence[-1] if prev.form == "then" and prev.consequence else prev
            if last.form == "simple" and "half" in [a.text.lower() for a in last.phrase]:
                # New effects: the parsed ones may be cached and compiled again.
                joined = replace(
                    last, phrase=[*last.phrase, *e.phrase], span=_join(last.span, e.span)
                )
                if last is not prev:
                    rest = [*prev.consequence[:-1], joined]
                    joined = replace(prev, consequence=rest, span=_join(prev.span, e.span))
                out[-1] = joined
                continue
        out.append(e)
    return out


# Groups the compiler reads itself (`choose one (a | b)`, `each player (...)`, `if`, `may`).
_GROUPS = frozenset({"each", "choose", "if", "may", "pay"})


def _misspelt_if(atoms: list[Atom]) -> str | None:
    """`did you mean "unless"?` for a trigger line whose `if` or `unless` is misspelt (the
    words after it then read as part of the trigger)."""
    for a in atoms[1:]:
        if a.kind == "word" and len(a.text) > 3:
            hint = did_you_mean(a.text, ["unless"])
            if hint is not None:
                return hint
    return None


# A subject before a status said of other players, without brackets ("each opponent can't
# move this turn", "each opponent is dizzy until your next turn"): how many words it takes
# and who it names. Only a status reads this way (the rest of the phrase is a `forbid` or a
# `status`); other effects keep their brackets.
_EACH_SUBJECT = {
    ("each", "opponent", "can't"): (2, "opponent"),
    ("each", "opponent", "cannot"): (2, "opponent"),
    ("each", "opponent", "gains"): (2, "opponent"),
    ("each", "opponent", "is"): (2, "opponent"),
    ("each", "player", "can't"): (2, "player"),
    ("each", "player", "cannot"): (2, "player"),
    ("each", "player", "gains"): (2, "player"),
    ("each", "player", "is"): (2, "player"),
}

# Who `each WORDS (...)` names.
_EACH_WHO = {
    ("opponent",): "opponent",
    ("opponents",): "opponent",
    ("other", "player"): "opponent",
    ("of", "your", "opponents"): "opponent",
    ("player",): "player",
    ("players",): "player",
}


def _takes_from_pool(node: dict[str, Any]) -> bool:
    """A gain with a minus sign of anything but Clank! (whose negative amount is a real debt
    the rules keep): it would take from a pool that may not hold it."""
    return (
        node["op"] in ("gain", "bonus_on_gain")
        and node.get("amount", 0) < 0
        and node["resource"] != "clank"
    )


def _negative_gain(node: dict[str, Any], span: Span) -> Diagnostic:
    """CW131: `-20 boots` would take what the pool may not hold (it used to stop at 0,
    so later Boots still worked): say what to write instead."""
    res, n = node["resource"], -node["amount"]
    word = quote_name(res)
    return Diagnostic(
        "CW131",
        f"`-{n} {word}` takes {word} from the pool, which may hold less: an effect never "
        "takes more than there is",
        span,
        hint=f"a price offered only when it can be paid: `pay {n} {word} -> ...`; to stop "
        f"{word} being used: `you can't use {word} for the rest of this turn`",
    )


def _trigger_parts(
    atoms: list[Atom],
) -> tuple[str | None, list[Atom], list[Atom] | None, bool]:
    """A trigger line's head taken apart: its limit (`once per turn|game`), the trigger's
    own words, the condition after `if`/`unless` (None without one), and whether it is
    denied (`unless`)."""
    limit = None
    low = [a.text.lower() if a.kind == "word" else None for a in atoms]
    if low[:2] == ["once", "per"] and len(low) > 2 and low[2] in ("turn", "game"):
        limit = low[2]
        atoms, low = atoms[3:], low[3:]
    if low[:1] == ["on"]:
        atoms, low = atoms[1:], low[1:]
    cond_atoms: list[Atom] | None = None
    deny = False
    k = next((i for i, w in enumerate(low) if w in IF_WORDS), None)
    if k is not None:
        deny = IF_WORDS[low[k]]
        atoms, cond_atoms = atoms[:k], atoms[k + 1 :]
    return limit, atoms, cond_atoms, deny


def _unknown_trigger(
    s: Stmt, atoms: list[Atom], allowed: list[Any], shown: list[str]
) -> Diagnostic:
    """CW102 for a trigger phrase no trigger allowed here reads."""
    bad = atoms[0] if atoms else s.head[0]
    text = " ".join(a.source() for a in atoms) or bad.source()
    leads = [w.split()[0] for w in shown]
    # The whole phrase against every phrase allowed here; the first word alone only
    # when it is not one a trigger already starts with ("when" says nothing).
    return Diagnostic(
        "CW102",
        f"unknown trigger `{text}`",
        _phrase_span(atoms) if atoms else bad.span,
        hint=did_you_mean(text.lower(), [p for r in allowed for p in r.phrases])
        or _misspelt_if(atoms)
        or (None if bad.text.lower() in leads else did_you_mean(bad.text, leads))
        or f"triggers here are {', '.join(p + ':' for p in shown)}",
    )


class EffectCompiler:
    """The `_Compiler` mixin for trigger lines, conditions and effects; it uses the compiler's
    ``diags``, ``error``, ``_in_range`` and its declared resources' words (dsl/declarations.py)."""

    diags: list[Diagnostic]
    resources: list[dict[str, Any]]
    error: Callable[..., None]
    _in_range: Callable[[Atom, str, Range], int | None]
    resource_atoms: Callable[..., list[Atom]]
    resource_names: Callable[[], list[str]]

    def _trigger(self, s: Stmt, holder: str, selfs: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """A trigger line: `[once per turn|once per game] PHRASE [if CONDITION]: effects`.

        ``holder`` is what carries it (card, token, space, rules); ``selfs`` are the
        component's own moments it may use (`play`, `acquire`...)."""
        limit, atoms, cond_atoms, deny = _trigger_parts(list(s.head))
        allowed = [
            r
            for r in TRIGGERS
            if (r.name in selfs if r.meta["who"] == "self" else holder in r.meta["holders"])
        ]
        node = resolve(TRIGGERS, atoms) if atoms else None
        shown = [p for r in allowed for p in r.phrases[:1]]
        if node is None:
            self.diags.append(_unknown_trigger(s, atoms, allowed, shown))
            return None
        record = TRIGGERS[node["on"]]
        if record not in allowed:
            self.error(
                "CW102",
                f"`{' '.join(a.source() for a in atoms)}:` does not apply to a {holder} here",
                _phrase_span(atoms),
                hint="this declaration takes " + ", ".join(f"`{p}:`" for p in shown),
            )
            return None
        trig: dict[str, Any] = {"on": record.name, "at": _at(s.span), "effects": []}
        if limit is not None:
            trig["limit"] = limit
        if cond_atoms is not None:
            if not cond_atoms:
                self.error(
                    "CW105",
                    "`if` needs a condition",
                    s.span,
                    hint=f"write `{record.phrases[0]} if CONDITION: effects`",
                )
                return None
            cond = self._condition(cond_atoms, deny)
            if cond is None:
                return None
            trig["if"] = cond
        effects = self.effects(s.effects or [])
        if effects is None:
            return None
        trig["effects"] = effects
        return trig

    def _condition(self, atoms: list[Atom], deny: bool = False) -> dict[str, Any] | None:
        """The condition node of ``atoms`` (`not`, `or`, `and` included; denied with
        ``deny``, for `unless`), or None after reporting why it is none."""
        failures: list[Any] = []
        atoms = self.resource_atoms(atoms, compared=True)
        node = parse_condition(atoms, failures, deny)
        if node is not None and self._out_of_range(failures):
            return None
        if node is None:
            bad = failing_part(atoms)
            self.error(
                "CW104",
                f"unknown condition `{' '.join(a.source() for a in bad)}`",
                _phrase_span(bad),
                hint=did_you_mean(bad[0].text, leading_words(CONDITIONS) | {"not"})
                or "conditions: `another companion in play`, `you have an artifact`, "
                "`you are in a forest`, `not ...`, `... or ...`",
            )
            return None
        for leaf in leaves(node):
            if leaf["cond"] == "at":
                leaf["feature"] = feature_name(leaf["feature"])
        return node

    def _out_of_range(self, failures: list[Any]) -> bool:
        """Report the numbers a matched phrase holds outside their slots' ranges."""
        found = False
        for kind, detail in failures:
            if kind == "range":
                atom, what, limit = detail
                self._in_range(atom, what, limit)
                found = True
        return found

    # effects -------------------------------------------------------------------------------
    def effects(self, effs: list[Effect]) -> list[dict[str, Any]] | None:
        """Compile a list of effects; None when any of them failed (already reported)."""
        out = []
        ok = True
        for e in _rounding_joined(effs):
            node = self.effect(e)
            if node is None:
                ok = False
            else:
                out.append(node)
        return out if ok else None

    def effect(self, e: Effect) -> dict[str, Any] | None:
        """Compile one effect."""
        words = [a.text.lower() if a.kind == "word" else None for a in e.phrase]
        if e.form == "then":
            return self._price_then(e, words)
        if e.form != "simple":
            return self._group_effect(e, words)
        if words and words[0] == "may" and len(e.phrase) > 1:
            inner = self._phrase(e.phrase[1:])
            return None if inner is None else {"op": "may", "do": [inner], "at": _at(e.span)}
        who = _EACH_SUBJECT.get(tuple(w or "" for w in words[:3])) if words else None
        if who is not None and resolve(EFFECTS, e.phrase) is None:
            # "each opponent can't move until your next turn": a status said of others
            # is "each opponent (you can't move until your next turn)".
            n, kind = who
            inner = resolve(EFFECTS, e.phrase[n:])
            if inner is not None and inner["op"] in ("forbid", "status"):
                inner = self._phrase(e.phrase[n:])
                at = _at(e.span)
                if inner is None:
                    return None
                return {"op": "each", "who": kind, "do": [inner], "at": at}
        return self._phrase(e.phrase)

    def _price_then(self, e: Effect, words: list[str | None]) -> dict[str, Any] | None:
        """`[may] PRICE -> EFFECTS`: effects bought with a price (optional with `may`)."""
        optional = bool(words) and words[0] == "may"
        cost_atoms = e.phrase[1:] if optional else e.phrase
        if not cost_atoms:
            self.error("CW105", "`may ->` needs a price before the arrow", e.span)
            return None
        cost = self._phrase(cost_atoms)
        then = self.effects(e.consequence)
        if cost is None or then is None:
            return None
        if not EFFECTS[cost["op"]].payable:
            payable = sorted(r.name for r in EFFECTS if r.payable)
            self.error(
                "CW112",
                f"`{' '.join(a.source() for a in cost_atoms)}` cannot be a price before `->`",
                _phrase_span(cost_atoms),
                hint="a price is one of: " + ", ".join(payable),
            )
            return None
        return {
            "op": "pay",
            "optional": optional,
            "cost": [cost],
            "then": then,
            "at": _at(e.span),
        }

    def _group_effect(self, e: Effect, words: list[str | None]) -> dict[str, Any] | None:
        """A bracketed group: `choose one (a | b)`, `each opponent (...)`, `if COND (...)`,
        `may (...)`, `roll (a | b)`, or a structural record's (`each player who ... (...)`)."""
        head = words[0] if words else None
        if head == "roll" or words[:2] == ["at", "random"]:
            return self._random(e)
        alts = []
        for alt in e.alternatives:
            compiled = self.effects(alt)
            if compiled is None:
                return None
            alts.append(compiled)
        at = _at(e.span)
        mark = len(self.diags)
        if head == "choose" and words[1:] in ([], ["one"]):
            if len(alts) < 2:
                self.error(
                    "CW105",
                    "choose needs at least two options",
                    e.span,
                    hint="separate the options with |, e.g. choose one (+2 gold | heal 1)",
                )
                return None
            return {"op": "choose", "options": alts, "at": at}
        if head in ("each", "if", "unless", "may") and len(alts) != 1:
            self.error(
                "CW105",
                f"`{head}` takes one bracketed list, not options with |",
                e.span,
                hint=f"write {head} ... (effect, effect)",
            )
            return None
        if head == "each":
            return self._each_group(e, words, alts[0], at, mark)
        if head in IF_WORDS and len(e.phrase) > 1:
            cond = self._condition(e.phrase[1:], IF_WORDS[head])
            return None if cond is None else {"op": "if", "cond": cond, "do": alts[0], "at": at}
        if head == "may" and len(e.phrase) == 1:
            return {"op": "may", "do": alts[0], "at": at}
        if len(alts) == 1 and e.phrase:
            node = self._group(e.phrase, alts[0], at)
            if node is not None or len(self.diags) > mark:
                return node
        self.error(
            "CW103",
            f"unknown effect group `{' '.join(a.source() for a in e.phrase)} (...)`",
            _phrase_span(e.phrase) if e.phrase else e.span,
            hint=did_you_mean(head or "", [*GROUP_WORDS, "unless"])
            or "groups are `choose one (a | b)`, `each opponent (...)`, `if CONDITION (...)`, "
            "`roll (a | b)`",
        )
        return None

    def _each_group(
        self,
        e: Effect,
        words: list[str | None],
        do: list[dict[str, Any]],
        at: dict[str, Any],
        mark: int,
    ) -> dict[str, Any] | None:
        """`each opponent (...)`, `each player (...)`, or a structural record's group that
        starts with "each" (`each player who has more gold than you (...)`)."""
        who = _EACH_WHO.get(tuple(w or "" for w in words[1:]))
        if who is not None:
            return {"op": "each", "who": who, "do": do, "at": at}
        node = self._group(e.phrase, do, at)
        if node is not None or len(self.diags) > mark:
            return node
        self.error(
            "CW103",
            f"unknown group `{' '.join(a.source() for a in e.phrase)}`",
            _phrase_span(e.phrase),
            hint="write `each player (...)` or `each opponent (...)`",
        )
        return None

    def _random(self, e: Effect) -> dict[str, Any] | None:
        """`roll [NAME OF THE DIE] (a | b | c)` or `at random (a | b)`: one option comes up by
        chance; `weight N` (or `N faces`) first in an option gives it N chances."""
        words = [a.text.lower() if a.kind == "word" else None for a in e.phrase]
        label_atoms = e.phrase[1:] if words[0] == "roll" else e.phrase[2:]
        if words[0] != "roll" and label_atoms:
            self.error(
                "CW105",
                "`at random` takes no words after it, not "
                f"`{' '.join(a.source() for a in label_atoms)}`",
                _phrase_span(label_atoms),
                hint="write `at random (a | b)`, or `roll the NAME die (a | b)` to name the die",
            )
            return None
        if any(a.kind not in ("word", "string") for a in label_atoms):
            self.error(
                "CW105",
                "a roll is named with words (`roll the bone die (...)`), not numbers",
                _phrase_span(label_atoms),
                hint="give each option its chances inside the brackets: "
                "`roll (weight 2, +1 gold | nothing)`",
            )
            return None
        options, weights = [], []
        for alt in e.alternatives:
            weight, rest = self._weight(alt)
            if weight is None:
                return None
            compiled = self.effects(rest)
            if compiled is None:
                return None
            options.append(compiled)
            weights.append(weight)
        if len(options) < 2:
            self.error(
                "CW105",
                "a roll needs at least two outcomes",
                e.span,
                hint="separate the outcomes with |, e.g. roll (+2 gold | nothing)",
            )
            return None
        node: dict[str, Any] = {"op": "random", "options": options, "weights": weights}
        if label_atoms:
            node["label"] = " ".join(a.text for a in label_atoms)
        node["at"] = _at(e.span)
        return node

    def _weight(self, alt: list[Effect]) -> tuple[int | None, list[Effect]]:
        """An outcome's chances, from a leading `weight N` / `N faces` (1 without one), and
        its effects. None (reported) for a weight out of range or with nothing to weigh."""
        first = alt[0].phrase if alt and alt[0].form == "simple" else []
        kinds = [a.kind for a in first]
        low = [a.text.lower() for a in first]
        number = None
        if kinds == ["word", "number"] and low[0] == "weight":
            number = first[1]
        elif kinds == ["number", "word"] and low[1] in WEIGHT_WORDS:
            number = first[0]
        if number is None:
            return 1, alt
        weight = self._in_range(number, "the weight of an outcome", RANGES["weight"])
        if weight is None:
            return None, alt
        if len(alt) == 1:
            self.error(
                "CW105",
                "this outcome has a weight but no effect",
                alt[0].span,
                hint="write the effect after a comma (`weight 2, +1 gold`), or `nothing`",
            )
            return None, alt
        return int(weight), alt[1:]

    def _group(
        self, phrase: list[Atom], do: list[dict[str, Any]], at: dict[str, Any]
    ) -> dict[str, Any] | None:
        """A group whose words a structural record with a `do` list reads (`each player who
        has more gold than you (...)`), or None (nothing reported) when none does."""
        failures: list[Any] = []
        atoms = self.resource_atoms(phrase, compared=True)
        for record in EFFECTS:
            if not record.structural or "do" not in record.params or record.name in _GROUPS:
                continue
            got = match_record(record, atoms, failures)
            if got is not None:
                if self._out_of_range(failures):
                    return None
                for value in got.values():
                    if isinstance(value, dict) and "count" in value:
                        value["at"] = at
                return {"op": record.name, **got, "do": do, "at": at}
        return None

    def _phrase(self, atoms: list[Atom]) -> dict[str, Any] | None:
        failures: list[Any] = []
        atoms = self.resource_atoms(atoms)  # declared resources' words (declarations.py)
        node = resolve(EFFECTS, atoms, failures)
        span = _phrase_span(atoms)
        if node is not None and self._out_of_range(failures):
            return None
        if node is not None and "counted" in node and held_name(node["counted"]) is None:
            # `return COUNT` gives back tokens: its count must count tokens you hold.
            self.error(
                "CW105",
                f"`{' '.join(a.source() for a in atoms)}` does not count tokens you hold",
                span,
                hint="write `return half your gem tokens rounded up` or `return 2 gem tokens`",
            )
            return None
        if node is not None:
            node["at"] = _at(span)
            if "per" in node:
                node["per"]["at"] = _at(span)
            inner = node.get("counted")
            while isinstance(inner, dict):
                inner["at"] = _at(span)
                inner = inner.get("of")
            if _takes_from_pool(node):
                self.diags.append(_negative_gain(node, span))
                return None
            return node
        for kind, sub in failures:
            if kind == "count":
                self.error(
                    "CW104",
                    f"unknown count `{' '.join(a.source() for a in sub)}` after `per`",
                    _phrase_span(sub),
                    hint=did_you_mean(sub[0].text, leading_words(COUNTS))
                    or 'counts: `companion in play`, `5 gold`, `"Some Card"`',
                )
                return None
        text = " ".join(a.source() for a in atoms)
        first = atoms[0]
        hint = None
        if first.kind == "word":
            if first.text.lower() in EFFECT_WORDS:
                hint = did_you_mean(text, EFFECT_EXAMPLES)
            hint = hint or did_you_mean(first.text, EFFECT_WORDS)
        elif first.kind in ("signed", "number") and len(atoms) >= 2 and atoms[1].kind == "word":
            hint = did_you_mean(atoms[1].text, self.resource_names())
            if hint is None:
                hint = "resources are skill, swords, boots, gold and clank"
                if self.resources:
                    hint += ", and the pack's " + ", ".join(r["name"] for r in self.resources)
                hint += " (a pack's own resource is declared with `resource NAME` before use)"
        self.error(
            "CW103",
            f"unknown effect `{text}`",
            span,
            hint=hint or "see docs/language.md for every effect (or run `clankwork docs`)",
        )
        return None
