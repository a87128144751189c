"""The pack's own words in a simulation report (the text and the web page): the word for
the antagonist who attacks, and the end reasons as people read them."""

from __future__ import annotations

from typing import Any


def dragon_word(rep: dict[str, Any]) -> str:
    """The report's pack's word for the antagonist who attacks ("dragon" unless it names
    one: `dragon { word boss }`)."""
    return str(rep["pack"].get("dragon", {}).get("word", "dragon"))


def end_reason(rep: dict[str, Any], key: str) -> str:
    """An end reason as people read it: the engine's key ("dragon bag empty") in the pack's
    words ("boss bag empty"); the report's keys stay the engine's."""
    word = dragon_word(rep)
    if word != "dragon" and key.startswith("dragon "):
        return f"{word} {key[len('dragon ') :]}"
    return key
