"""How the scenario compiler reads each statement verb and each fact: the compile side of the
scenario records (interpreter/scenario_words.py holds the records, their docs and their run
side; the two join by the verb's or the fact's words).

Four tables, each filled by a decorator:

- `STATEMENTS`: a setup statement's (or `expect`'s) compile function by the verb's words,
  ``fn(compiler, scenario_ir, stmt, args)`` with ``args`` the atoms after those words; it
  returns False when the statement is not of its form (the compiler then reads it as a step
  and reports an unknown one), else None.
- `STEP_ARGS`: how a script step reads its argument, by the record's ``arg`` kind,
  ``fn(compiler, verb, args, step)``: True when read (``step`` filled), None when reported,
  False when the step is not of this form.
- `FORMS`: an expectation with a form of its own by its first word (`can`, `tunnel`...),
  ``fn(compiler, step, stmt, rest)``: False when it is not of the form, None when read or
  reported (the step then holds a "fact" when read).
- `SHAPES`: how a fact's value reads, by the fact record's ``shape``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clankwork.interpreter.scenario_setup import VERBS, Verb, facts, verbs
from clankwork.interpreter.state import state_facts

from .diagnostics import Span
from .parser import Atom

STATEMENTS: dict[str, Callable[..., bool | None]] = {}
STEP_ARGS: dict[str | None, Callable[..., bool | None]] = {}
FORMS: dict[str, Callable[..., bool | None]] = {}


@dataclass(frozen=True)
class Shape:
    """How a fact's value is written: in words and by example (for a diagnostic's message and
    hint), and the function that reads it, ``read(compiler, step, stmt, fact, prefix, args)``
    -> True when ``step`` holds the fact and its value."""

    words: str
    example: str
    arity: int
    read: Callable[..., bool]


SHAPES: dict[str, Shape] = {}


def _refuse_twice(table: dict[Any, Any], key: Any, what: str) -> None:
    """A second record under one key would silently replace the first."""
    if key in table:
        raise ValueError(f"{what} {key!r} is registered twice")


def compiles(words: str) -> Callable[[Callable[..., bool | None]], Callable[..., bool | None]]:
    """Register the decorated function as the compile function of a statement verb."""

    def register(fn: Callable[..., bool | None]) -> Callable[..., bool | None]:
        _refuse_twice(STATEMENTS, words, "statement verb")
        STATEMENTS[words] = fn
        return fn

    return register


def step_arg(
    kind: str | None,
) -> Callable[[Callable[..., bool | None]], Callable[..., bool | None]]:
    """Register the decorated function as the reader of a script step's argument kind."""

    def register(fn: Callable[..., bool | None]) -> Callable[..., bool | None]:
        _refuse_twice(STEP_ARGS, kind, "step argument kind")
        STEP_ARGS[kind] = fn
        return fn

    return register


def form(*first: str) -> Callable[[Callable[..., bool | None]], Callable[..., bool | None]]:
    """Register the decorated function as the reader of the expectations begun by ``first``."""

    def register(fn: Callable[..., bool | None]) -> Callable[..., bool | None]:
        for word in first:
            _refuse_twice(FORMS, word, "expectation form")
            FORMS[word] = fn
        return fn

    return register


def shape(
    name: str, words: str, example: str, arity: int = 1
) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    """Register the decorated function as the reader of a fact value's shape."""

    def register(fn: Callable[..., bool]) -> Callable[..., bool]:
        _refuse_twice(SHAPES, name, "fact value shape")
        SHAPES[name] = Shape(words, example, arity, fn)
        return fn

    return register


def longest_verb(words: list[str | None], parts: tuple[str, ...]) -> Verb | None:
    """The registered verb of those parts with the most words that ``words`` begins."""
    best = None
    for v in VERBS.values():
        said = v.words.split()
        fits = v.part in parts and words[: len(said)] == said
        if fits and (best is None or len(said) > len(best.words.split())):
            best = v
    return best


def fact_table(about: str) -> dict[tuple[str, ...], str]:
    """The facts about a player or the game, by their words, with their shapes."""
    return {f.words: f.shape for f in facts(about)}


def setup_words() -> tuple[str, ...]:
    """The setup statements' first words, in registration order."""
    return tuple(v.words for v in verbs("setup"))


def action_words() -> tuple[str, ...]:
    """The script steps' words, in registration order."""
    return tuple(v.words for v in verbs("step"))


def setup_word(words: list[str]) -> str | None:
    """The setup statement ``words`` begin (`adventure deck`, `bag`), None for the others
    (`player N { ... }` blocks carry their own span)."""
    said = [
        tuple(w.split()) for v in verbs("setup") if v.words != "player" for w in (v.words, *v.said)
    ]
    best = max((w for w in said if tuple(words[: len(w)]) == w), key=len, default=None)
    return " ".join(best) if best is not None else None


# The tables the editor tools read (completion, the TextMate grammar), as registered when
# the language is imported.
SETUP_WORDS = setup_words()
ACTIONS = action_words()
PLAYER_FACTS = fact_table("player")
GAME_FACTS = fact_table("game")
PLAYER_LISTS = ("hand", "deck", "discard", "in play", "tokens")
PLAYER_NUMBERS = ("gold", "damage", "clank", "skill", "swords", "boots", "supply")
PLAYER_SETUP = (*PLAYER_LISTS, *PLAYER_NUMBERS, "at", "artifact", "status")
DECLARED_FACTS = state_facts()


def at(span: Span) -> dict[str, Any]:
    """A span as the IR writes it."""
    return span.to_ir()


def lower(atoms: list[Atom]) -> list[str | None]:
    """Lower-cased unquoted words; None for numbers and quoted names (never keywords)."""
    return [a.text.lower() if a.kind == "word" else None for a in atoms]


def is_none(atoms: list[Atom]) -> bool:
    """True for the one word `none`."""
    return len(atoms) == 1 and atoms[0].kind == "word" and atoms[0].text.lower() == "none"
