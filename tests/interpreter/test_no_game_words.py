"""The engine names no component of one game: classic Clank!'s countdown track, idols,
Mastery tokens and Depths are content (content/clank), written with general records."""

from __future__ import annotations

import re
from pathlib import Path

INTERPRETER = Path(__file__).resolve().parents[2] / "interpreter"
WORDS = re.compile(r"countdown|idol|mastery|depths", re.IGNORECASE)


def test_interpreter_names_no_classic_mechanic() -> None:
    hits = [
        f"{path.relative_to(INTERPRETER)}:{n}: {line.strip()}"
        for path in sorted(INTERPRETER.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WORDS.search(line)
    ]
    assert not hits, "\n".join(hits)


# Clank! In! Space!'s components (content/space): the issue's grep, over the engine, the
# language and the tools.
SPACE_WORDS = re.compile(
    r"data port|command code|hyperlift|telepad|bounty|escape pod|blockade", re.IGNORECASE
)


def test_engine_language_and_tools_name_no_space_component() -> None:
    root = INTERPRETER.parent
    hits = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for folder in ("interpreter", "dsl", "tools")
        for path in sorted((root / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SPACE_WORDS.search(line)
    ]
    assert not hits, "\n".join(hits)


# Clank! Legacy's rival company track (content/acqinc declares it in its campaign block): the
# engine, the language and the tools know campaign tracks only by the names packs give them.
# `randrange` holds the same four letters, so the word is looked for not after "ran".
LEGACY_WORDS = re.compile(r"(?<!ran)dran", re.IGNORECASE)


def test_engine_language_and_tools_name_no_legacy_track() -> None:
    root = INTERPRETER.parent
    hits = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for folder in ("interpreter", "dsl", "tools")
        for path in sorted((root / folder).rglob("*"))
        if path.suffix in (".py", ".lark", ".sh")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LEGACY_WORDS.search(line)
    ]
    assert not hits, "\n".join(hits)
    # The test can fail: the words it looks for are found where they are.
    assert LEGACY_WORDS.search('add an X to the "Dran Enterprises" track')
    assert not LEGACY_WORDS.search("rng.randrange(n)")
