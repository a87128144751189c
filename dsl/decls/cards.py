"""Cards: `card`, `monster`, `event` and `reserve` declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clankwork.interpreter.effects import COUNTS
from clankwork.interpreter.effects.triggers import CARD_MOMENTS

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..parser import Atom, Stmt
from ..phrases import leading_words, resolve
from .registry import declaration
from .shared import CARD_FLAGS, _at, _phrase_span, feature_name, first_words

if TYPE_CHECKING:
    from ..compiler import _Compiler

CARD_PROPS = (
    "copies",
    "cost",
    "fight",
    "points",
    "starting",
    "tag",
    "faction",
    "dragon attack",
    "danger",
    "only in",
    "not in",
    "set aside",
    "art",
)


@declaration(
    "card", properties=CARD_PROPS, form="card NAME { cost N; play: EFFECTS }", writes=("cards",)
)
def card(c: _Compiler, st: Stmt) -> None:
    """`card NAME { ... }`: a card of the adventure deck bought with skill (or a starting card)."""
    _card(c, st, deck="adventure", type_="acquire")


@declaration("monster", form="monster NAME { fight N; defeat: EFFECTS }", writes=("cards",))
def monster(c: _Compiler, st: Stmt) -> None:
    """`monster NAME { fight N; defeat: ... }`: a monster of the adventure deck."""
    _card(c, st, deck="adventure", type_="monster")


@declaration("reserve", form="reserve NAME { cost N; play: EFFECTS }", writes=("cards",))
def reserve(c: _Compiler, st: Stmt) -> None:
    """`reserve NAME { ... }`: a card of the reserve (a reserve monster once it has `fight`)."""
    _card(c, st, deck="reserve", type_="acquire")


@declaration("event", form="event NAME { arrive: EFFECTS }", writes=("cards",))
def event(c: _Compiler, st: Stmt) -> None:
    """`event NAME { arrive: ... }`: an event of the adventure deck."""
    _card(c, st, deck="adventure", type_="event")


def _card(c: _Compiler, st: Stmt, deck: str, type_: str) -> None:
    """Any card kind's declaration: its properties and trigger lines, in ``deck``."""
    kind = st.words[0]
    named = c._name(st, kind)
    if named is None:
        return
    card: dict[str, Any] = {
        "name": named[0],
        "deck": deck,
        "type": type_,
        "copies": 1,
        "points": 0,
        "tags": [],
        "dragon": False,
        "danger": False,
        "triggers": [],
        "at": _at(st.span),
    }
    seen: dict[str, Span] = {}
    before = len(c.diags)
    # A reserve card becomes the reserve monster once it has `fight`.
    selfs = {
        "acquire": ("play", "acquire", "arrive", "use", *CARD_MOMENTS)
        + (("defeat",) if deck == "reserve" else ()),
        "monster": ("defeat", "arrive"),
        "event": ("arrive",),
    }[type_]
    for s in st.block or []:
        if s.effects is not None:
            trig = c._trigger(s, "card" if type_ == "acquire" else type_, selfs)
            if trig is not None:
                card["triggers"].append(trig)
            continue
        _card_prop(c, card, s, seen)
    _settle_card(c, card, st, seen, before)
    c.cards.append(card)


def _card_prop(c: _Compiler, card: dict[str, Any], s: Stmt, seen: dict[str, Span]) -> None:
    words, rest = s.words, s.head[1:]
    key = words[0]
    if s.block is not None:
        c.error("CW112", f"`{key}` does not take a block", s.block_span, hint="remove { }")
    if key in seen:
        c.diags.append(
            Diagnostic(
                "CW111",
                f"`{key}` is given twice in {card['name']!r}",
                s.span,
                hint="keep one; the last one wins",
                notes=(("first given here", seen[key]),),
            )
        )
    seen[key] = s.span
    if key in ("copies", "cost", "fight"):
        value = c._int(s, rest, key, key)
        if value is not None:
            card[key] = value
    elif key in ("cardporium", "starting"):
        _card_deck(c, card, s, key)
    elif key == "points":
        points(c, card, s, rest)
    elif key in CARD_FLAGS and not rest:
        card["tags"].append(CARD_FLAGS[key])
    elif key in ("tag", "faction") and len(rest) == 1:
        c._clean(rest)
        card["tags"].append(rest[0].text.lower())
    elif words == ["dragon", "attack"] or words == ["dragon"]:
        card["dragon"] = True
    elif words == ["danger"]:
        card["danger"] = True
    elif words == ["set", "aside"]:
        # Out of play at setup until an effect flips it in (`flip OLD to NEW`); only a
        # reserve monster (checked once the card is read, see `_card`).
        card["aside"] = True
    elif key == "art":
        _card_art(c, card, s)
    elif words[:2] in (["only", "in"], ["not", "in"]) and len(words) > 2:
        c._clean(s.head[2:])
        where = words[3:] if words[2] in ("a", "an") and len(words) > 3 else words[2:]
        card["only_in" if key == "only" else "not_in"] = feature_name(" ".join(where))
    else:
        c.error(
            "CW102",
            f"unknown card property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(key, [*first_words(CARD_PROPS), *CARD_FLAGS])
            or "see docs/language.md for card properties",
        )


def points(c: _Compiler, owner: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
    """`points N` or `points N per COUNT` of a card or a token (``rest``: after `points`)."""
    if len(rest) >= 3 and rest[1].kind == "word" and rest[1].text.lower() == "per":
        pts = c._int(s, rest[:1], "points", "points per")
        failures: list[Any] = []
        per = resolve(COUNTS, rest[2:], failures)
        if per is not None and c._out_of_range(failures):
            return
        if per is None:
            c.error(
                "CW104",
                f"unknown count `{' '.join(a.source() for a in rest[2:])}`",
                _phrase_span(rest[2:]),
                hint=did_you_mean(rest[2].text, leading_words(COUNTS))
                or 'counts: `5 gold`, `companion in play`, `"Some Card"`',
            )
            return
        if pts is not None:
            per["at"] = _at(_phrase_span(rest[2:]))
            owner["points_per"] = {"points": pts, "per": per}
        return
    value = c._int(s, rest, "points", "points")
    if value is not None:
        owner["points"] = value


def _card_deck(c: _Compiler, card: dict[str, Any], s: Stmt, key: str) -> None:
    """`cardporium N` (held out of play until a passage fetches it into the adventure deck)
    or `starting N` (a starting-deck card, N copies)."""
    rest = s.head[1:]
    if key == "cardporium":
        value = c._int(s, rest, key, "passage")
        if value is not None:
            if card["deck"] != "adventure":
                c.error(
                    "CW112",
                    "only an adventure-deck card can wait in the Cardporium",
                    s.span,
                    hint="declare it as `card`, `monster` or `event`",
                )
            card["deck"], card["cardporium"] = "cardporium", value
        return
    value = c._int(s, rest, key, "starting")
    if value is not None:
        if card["deck"] != "adventure" or card["type"] != "acquire":
            c.error(
                "CW112",
                "only a `card` can be a starting-deck card",
                s.span,
                hint="declare it as `card NAME { starting N }`",
            )
        card["deck"], card["copies"] = "starting", value


def _card_art(c: _Compiler, card: dict[str, Any], s: Stmt) -> None:
    """`art "FILE"`: the card's picture, read once every file is (dsl/art.py)."""
    rest = s.head[1:]
    if len(rest) == 1 and rest[0].kind == "string":
        c.art_refs.append((card, str(rest[0].value), rest[0].span))
    else:
        c.error(
            "CW105",
            "art takes one quoted file name",
            _phrase_span(rest) if rest else s.span,
            hint='write `art "art/goblin.png"`: a PNG, JPEG or SVG inside the pack folder',
        )


def _settle_card(
    c: _Compiler, card: dict[str, Any], st: Stmt, seen: dict[str, Span], before: int
) -> None:
    """A card once its block is read: a reserve card with `fight` is the reserve monster;
    CW112 for a set-aside card that is none, CW109 for a missing fight or cost (unless a
    property of it was unknown, from ``before`` on, which may have been the one)."""
    if card["deck"] == "reserve" and "fight" in card:
        card["type"] = "monster"
    if card.get("aside") and card["type"] != "monster":
        c.error(
            "CW112",
            "only a reserve monster (a `reserve` card with `fight`) can be set aside",
            seen.get("set", st.span),
            hint="declare it as `reserve NAME { fight N; set aside; defeat: ... }`",
        )
    unsure = any(d.code == "CW102" for d in c.diags[before:])
    if card["type"] == "monster" and "fight" not in card and not unsure:
        c.error(
            "CW109",
            f"monster {card['name']!r} has no fight value",
            st.head[1].span,
            hint="add `fight N`: the swords needed to defeat it",
        )
    if (
        card["type"] == "acquire"
        and card["deck"] != "starting"
        and "cost" not in card
        and (not unsure)
    ):
        c.error(
            "CW109",
            f"card {card['name']!r} has no cost",
            st.head[1].span,
            hint="add `cost N` (skill), or `starting N` for a starting-deck card",
        )
    if card["type"] == "monster":
        card.pop("cost", None)
