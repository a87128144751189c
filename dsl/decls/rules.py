"""The rules block: rule values, triggers, steps, slots, counters and awards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clankwork.interpreter.rules import RULE_PARAMS

from ..awards import is_award
from ..diagnostics import did_you_mean
from ..limits import RANGES, Range
from ..parser import Atom, Stmt
from .registry import declaration, part
from .shared import _at, _match_words, _phrase_span

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "rules",
    form="rules { RULE VALUE; TRIGGER: EFFECTS; step NAME after OTHER: EFFECTS }",
    writes=("rules", "triggers", "steps", "counters", "rule_slots", "awards"),
)
def rules(c: _Compiler, st: Stmt) -> None:
    """`rules { ... }`: rule values, the pack's triggers, steps, slots, counters and awards."""
    table = {tuple(p.words.split()): p for p in RULE_PARAMS}
    for s in st.block or []:
        if s.words[0] == "step" or s.words[:2] == ["remove", "step"]:
            _step(c, s)
            continue
        if s.words[0] == "slot":
            _slot(c, s)
            continue
        if s.words[0] == "counter" and s.effects is None:
            _counter(c, s)
            continue
        if is_award(s):
            c.award_line(s)
            continue
        if s.effects is not None:
            trig = c._trigger(s, "rules")
            if trig is not None:
                c.triggers.append(trig)
            continue
        hit = _match_words(s.words, table)
        if hit is None:
            c.error(
                "CW102",
                f"unknown rule `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(" ".join(s.words[:2]), [p.words for p in RULE_PARAMS])
                or "rules: " + ", ".join(p.words for p in RULE_PARAMS),
            )
            continue
        param, n = hit
        rest = s.head[n:]
        rule_value(c, param, s, rest)


part(
    "step",
    inside="a `step` goes inside the `rules { ... }` block: rules { step NAME after OTHER: ... }",
    doc="`step NAME [before|after|replaces OTHER]: EFFECTS` (or `remove step NAME`) in the "
    "rules block: a change to the steps of setup or the turn.",
    form="step NAME after OTHER: EFFECTS",
    writes=("steps",),
)


def _counter(c: _Compiler, s: Stmt) -> None:
    """`counter NAME [max N]`: a marker on a track of the pack's own (a doom track)."""
    h = s.head
    top = 100
    if len(h) == 4 and h[2].kind == "word" and h[2].text.lower() == "max":
        got = c._int(s, h[3:], "counter max", "counter")
        if got is None:
            return
        top = got
    elif len(h) != 2:
        c.error("CW105", "write `counter NAME` or `counter NAME max N`", s.span)
        return
    if h[1].kind not in ("word", "string"):
        c.error("CW105", "a counter needs a name", h[1].span, hint="counter doom max 5")
        return
    c._clean([h[1]])
    c.counters.append({"name": h[1].text, "max": top, "at": _at(s.span)})


def _step(c: _Compiler, s: Stmt) -> None:
    """`step NAME [before|after|replaces OTHER]: effects` or `remove step NAME`."""
    removing = s.words[0] == "remove"
    names = s.head[2:] if removing else s.head[1:]
    form = "remove step NAME" if removing else "step NAME [before|after|replaces OTHER]: effects"
    ok = (
        len(names) == 1
        if removing
        else len(names) == 1
        or (
            len(names) == 3
            and names[1].kind == "word"
            and names[1].text.lower() in ("before", "after", "replaces")
        )
    )
    if not ok or any(a.kind not in ("word", "string") for a in names[::2]):
        c.error(
            "CW105",
            f"write `{form}`",
            s.span,
            hint="steps are named like end_of_turn.draw_hand",
        )
        return
    change: dict[str, Any] = {
        "change": "remove" if removing else "insert",
        "step": names[0].text,
        "at": _at(s.span),
    }
    if removing:
        if s.effects is not None:
            c.error("CW112", "`remove step` takes no effects", s.span)
            return
    else:
        if len(names) == 3:
            where = names[1].text.lower()
            change[where] = names[2].text
            if where == "replaces":
                change["change"] = "replace"
        if s.effects is None:
            c.error(
                "CW109",
                f"step {names[0].text!r} has no effects",
                s.span,
                hint=f"write `{s.head_text()}: EFFECTS`",
            )
            return
        effects = c.effects(s.effects)
        if effects is None:
            return
        change["effects"] = effects
    c.steps.append(change)


def _slot(c: _Compiler, s: Stmt) -> None:
    """`slot NAME before|after STEP`: a rule slot, an empty step a sticker fills;
    `slot NAME covers STEP`: a box printed with an engine step's rule, which holds until a
    sticker covers it with effects;
    `slot NAME TRIGGER` (`slot R13 whenever you heal`): an empty rules trigger a sticker
    fills with effects; `slot NAME rule WORDS` (`slot R15 rule market price`): a rule
    parameter a sticker sets (`fills R15 { market price 5 }`)."""
    h = s.head
    form_hint = (
        "e.g. `slot R10 after setup.players`, `slot R13 whenever you heal` or "
        "`slot R15 rule market price`; a sticker then `fills R10: ...`"
    )
    if len(h) < 3 or s.effects is not None or h[1].kind not in ("word", "string"):
        c.error(
            "CW105",
            "write `slot NAME before|after STEP`, `slot NAME TRIGGER` or "
            "`slot NAME rule WORDS` (a slot has no effects of its own)",
            s.span,
            hint=form_hint,
        )
        return
    name = h[1].text
    low2 = h[2].text.lower() if h[2].kind == "word" else None
    if low2 == "rule":
        _rule_slot(c, s, name)
        return
    if low2 in ("before", "after", "covers"):
        if len(h) != 4 or h[3].kind not in ("word", "string"):
            c.error("CW105", "write `slot NAME before|after|covers STEP`", s.span, hint=form_hint)
            return
        anchor = h[3].text
        phase = anchor.split(".", 1)[0]
        change: dict[str, Any] = {
            "change": "replace" if low2 == "covers" else "insert",
            "step": f"{phase}.{name}",
            "replaces" if low2 == "covers" else low2: anchor,
            "effects": [],
            "slot": name,
            "at": _at(s.span),
        }
        if low2 == "covers":
            # A box printed with a rule: the rule holds until a sticker covers it.
            change["covers"] = anchor
        c.steps.append(change)
        return
    # A moment: the rest is a trigger of the rules block, without effects of its own.
    trig = c._trigger(Stmt(h[2:], s.span), "rules")
    if trig is not None:
        trig["slot"] = name
        c.triggers.append(trig)


def _rule_slot(c: _Compiler, s: Stmt, name: str) -> None:
    """`slot NAME rule WORDS`: a rule parameter a sticker sets (CW102 for unknown words)."""
    h = s.head
    table = {tuple(p.words.split()): p for p in RULE_PARAMS}
    hit = _match_words([a.text.lower() for a in h[3:]], table) if len(h) > 3 else None
    if hit is None or hit[1] != len(h) - 3:
        words = " ".join(a.source() for a in h[3:])
        c.error(
            "CW102",
            f"unknown rule `{words}` for slot {name}",
            _phrase_span(h[3:]) if len(h) > 3 else s.span,
            hint=did_you_mean(words, [p.words for p in RULE_PARAMS])
            or "rules: " + ", ".join(p.words for p in RULE_PARAMS),
        )
        return
    c.rule_slots.append({"slot": name, "rule": hit[0].key, "at": _at(s.span)})


def rule_value(c: _Compiler, param: Any, s: Stmt, rest: list[Atom]) -> None:
    """A rule parameter's value (``rest``: after its words), for every player count or
    `with N players`, into the compiler's rules (a rule sticker's block uses it too)."""
    players: str = "*"
    words = [a.text.lower() if a.kind == "word" else None for a in rest]
    if len(rest) >= 3 and words[-3] == "with" and words[-1] in ("players", "player"):
        if rest[-2].kind != "number":
            c.error("CW105", "with N players needs a number", rest[-2].span)
            return
        seats = c._in_range(rest[-2], "with N players", RANGES["players"])
        if seats is None:
            return
        players = str(seats)
        rest = rest[:-3]
    if not rest and param.switch and players == "*":
        c.rules[param.key] = 1  # a switch's words alone turn it on
        c.rules_at[param.key] = _at(s.span)
        return
    if not rest or any(a.kind != "number" for a in rest):
        c.error(
            "CW105",
            f"rule `{param.words}` takes " + ("numbers" if param.shape == "ints" else "one number"),
            _phrase_span(rest) if rest else s.span,
            hint=f"write `{param.words} {param.default if param.shape == 'int' else '...'}`",
        )
        return
    if param.shape == "ints" and len(rest) > param.max_len:
        c.error(
            "CW113",
            f"rule `{param.words}` cannot list {len(rest)} numbers; the most is {param.max_len}",
            _phrase_span(rest[param.max_len :]),
            hint=f"list from 1 to {param.max_len} numbers",
        )
        return
    limit = Range(param.low, param.high, param.doc)
    checked = [c._in_range(a, f"rule `{param.words}`", limit) for a in rest]
    if None in checked:
        return
    values = [int(v) for v in checked if v is not None]
    if param.shape == "ints":
        c.rules[param.key] = values
    elif len(values) != 1:
        c.error("CW105", f"rule `{param.words}` takes one number", _phrase_span(rest))
        return
    elif param.shape == "by_players":
        c.rules[param.key][players] = values[0]
    else:
        if players != "*":
            c.error(
                "CW105",
                f"rule `{param.words}` does not vary with the number of players",
                s.span,
            )
            return
        c.rules[param.key] = values[0]
    c.rules_at[param.key] = _at(s.span)
