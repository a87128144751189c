"""How a decision and a card are put to a person, in the terminal (`clankwork play`) and in
the browser (`play --web`): the question a decision asks, its options' text, a card's
numbers and generated rules text."""

from __future__ import annotations

from typing import Any

from clankwork.interpreter.catalog import CardDef
from clankwork.interpreter.decisions import ACTION, Decision
from clankwork.interpreter.effects.registry import antagonist, render_effects
from clankwork.interpreter.game import Game

from .render_cards import card_rules

HUMAN = "human"
"""A seat a person plays (its name in the log header's `bots`)."""


def card_text(card: CardDef, cards: dict[str, dict[str, Any]], dragon: str = "dragon") -> str:
    """A card's numbers and its rules text, generated from its effect tree; ``dragon`` is
    the pack's word for the antagonist (its attack symbol: "dragon attack")."""
    ir = cards.get(card.name)
    bits = []
    if card.type == "monster" or card.fight:
        bits.append(f"fight {card.fight}")
    elif card.deck != "starting":
        bits.append(f"cost {card.cost}")
    if card.points:
        bits.append(f"{card.points} point{'s' if card.points != 1 else ''}")
    if card.dragon:
        bits.append(f"{dragon} attack")
    if card.danger:
        bits.append("danger")
    if card.only_in:
        bits.append(f"only in {card.only_in}")
    if card.not_in:
        bits.append(f"not in {card.not_in}")
    with antagonist(dragon):
        rules = "; ".join(f"{head} {text}" for head, text in card_rules(ir)) if ir else ""
    return ", ".join(bits) + (" - " if bits and rules else "") + rules


def _option_card(value: Any) -> CardDef | None:
    if isinstance(value, CardDef):
        return value
    if isinstance(value, tuple) and len(value) > 1:
        for v in value[:2]:
            if isinstance(v, CardDef):
                return v
    return None


_QUESTIONS = {
    "choose": "choose one:",
    "may": "do it?",
    "discard": "discard which card?",
    "trash": "trash which card?",
    "teleport": "teleport where?",
}


def question(game: Game, decision: Decision) -> str:
    """What a decision asks, as its menu's heading: `Your action:`, `Mysterious Tome: do
    it?`, `(on P2's turn) discard which card?`."""
    if decision.kind == ACTION:
        return "Your action:"
    head = _QUESTIONS.get(decision.kind, f"{decision.kind}?")
    if decision.kind == "may" and isinstance(decision.detail, dict):
        head = f"{render_effects([decision.detail])}?"
    if isinstance(decision.detail, dict) and decision.detail.get("text"):
        # A choice read aloud (a passage's): its text before the question.
        head = f"{decision.detail['text']} {head}"
    if decision.source:
        head = f"{decision.source}: {head}"
    if decision.player != game.active.seat:
        head = f"(on P{game.active.seat + 1}'s turn) {head}"
    return head


def option_text(game: Game, option: Any, cards: dict[str, dict[str, Any]]) -> str:
    """The text an option carries: the generated text of the card it names (else empty)."""
    card = _option_card(option.value)
    return card_text(card, cards, game.catalog.dragon_word) if card is not None else ""
