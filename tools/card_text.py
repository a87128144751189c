"""A card's rules as words, generated from its effect tree: what `render cards` prints in
its rules box, `play` shows, and the language server's hover gives (without the drawing
code `render_cards` needs)."""

from __future__ import annotations

from typing import Any

from clankwork.interpreter.effects.registry import (
    TRIGGERS,
    render_condition,
    render_count,
    render_effects,
)
from clankwork.interpreter.effects.triggers import LIMITS, heading

TRIGGER_WORDS = {
    "play": "Play",
    "acquire": "Acquire",
    "arrive": "Arrive",
    "defeat": "Defeat",
    "use": "Use",
    "reveal": "Reveal",
    "enter": "Enter",
}


def card_rules(card: dict[str, Any]) -> list[tuple[str, str]]:
    """The card's rules as (heading, text) paragraphs, generated from its effect tree.

    Headings carry their colon: ``("Play, if another companion is in your play area:",
    "+1 Skill")``; a ``points_per`` card ends with ``("*", "1 point per 5 Gold you have")``,
    the asterisk matching the one in its points hexagon.
    """
    out = []
    for trig in card.get("triggers", []):
        on = trig["on"]
        head = TRIGGER_WORDS.get(on)
        if head is None:
            # Another trigger: its phrase ("When the dragon attacks", in the pack's word).
            phrase = heading(on) if on in TRIGGERS else on.replace("_", " ")
            head = phrase[:1].upper() + phrase[1:]
        limit = LIMITS.get(trig.get("limit", ""))
        if limit:
            head = limit[:1].upper() + limit[1:] + head[:1].lower() + head[1:]
        if "if" in trig:
            head += ", if " + render_condition(trig["if"])
        out.append((head + ":", render_effects(trig["effects"])))
    pp = card.get("points_per")
    if pp:
        unit = "point" if pp["points"] == 1 else "points"
        out.append(("*", f"{pp['points']} {unit} per {render_count(pp['per'])}"))
    return out


def card_kind(card: dict[str, Any]) -> str:
    """The banner kind of a card: acquire, monster, reserve, event or starting."""
    if card["type"] in ("monster", "event"):
        return card["type"]
    if card["deck"] in ("reserve", "starting"):
        return card["deck"]
    return "acquire"
