"""The scenario language's words: one record per statement verb and one per fact.

A scenario (docs/scenarios.md) is made of statements, each begun by a verb: setup statements
(`switch dial 2`, `place Spike on tunnel Hall -- Cellar`) state the position, script steps
(`play Burgle`, `end turn`) answer the game's decisions, and `expect` states a fact (`expect
player 1 gold 3`, `expect tunnel Hall -- Cellar has Spike`). Each verb and each fact is a
record here, with its words, its form, a doc line and an example; the run side registers
with it (a setup statement's `setup_run`, a fact's value or check), the compiler
(dsl/scenario_words.py) registers how each reads, by the same words. Registering a record is
all a new word needs besides those two functions (docs/extending.md).

The records are the run side of the scenario language: the interpreter runs scenario IR from
any source, so nothing here imports the compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# What a statement is: it sets up the position before play, it is a step of the script (an
# action or an answer, run by matching the game's decision labels), or `expect`.
PARTS = ("setup", "step", "expect")

# Who a fact is about: one player (`expect player N FACT VALUE`), the game (`expect FACT
# VALUE`), or neither: an expectation with a form of its own (`expect can ACTION`), read by
# the compiler's form for its first words and run as a game fact.
ABOUT = ("player", "game", "form")


@dataclass(frozen=True)
class Verb:
    """One scenario statement by its first words (`first player`, `end turn`)."""

    words: str
    part: str
    # Each form the statement takes, with what it means (a line of docs/scenarios.md).
    forms: tuple[tuple[str, str], ...]
    example: str
    # A script step's argument, as the compiler reads it: "card", "token", "space", "move"
    # (a space, then `spending N swords`), "words" (an action's label), "answer", or None.
    arg: str | None = None
    # Longer statements this one begins, named apart where setup reports a failure
    # (`adventure deck`, `adventure discard`).
    said: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        """What the statement means (its first form's meaning)."""
        return self.forms[0][1]


@dataclass(frozen=True)
class Fact:
    """One fact an `expect` states, by its words after `expect [player N]`.

    ``shape`` is the form of its value (the compiler reads each shape; see
    dsl/scenario_expect.py). ``value`` gives the fact's value in a game, compared with the
    expected one; ``check`` instead judges the step itself (None when it holds, else why not).
    """

    about: str
    words: tuple[str, ...]
    shape: str
    doc: str
    example: str
    name: str
    value: Callable[..., Any] | None = None
    check: Callable[..., str | None] | None = None


VERBS: dict[str, Verb] = {}
# Facts by who they are about and their IR name ("has no status").
FACTS: dict[tuple[str, str], Fact] = {}
# The setup statements' run steps in the order they change the position, each with the
# statements (their first words) it sets up: a failure while setting one up is reported at
# its line. ``fn(game, scenario_ir)``.
SETUP_RUNS: list[tuple[tuple[str, ...], Callable[[Any, dict[str, Any]], None]]] = []


def verb(
    words: str,
    part: str,
    forms: tuple[tuple[str, str], ...],
    example: str,
    arg: str | None = None,
    said: tuple[str, ...] = (),
) -> Verb:
    """Register a statement verb (a second with the same words is a bug)."""
    if part not in PARTS:
        raise ValueError(f"verb {words!r}: part {part!r} is not one of {PARTS}")
    if words in VERBS:
        raise ValueError(f"verb {words!r} is registered twice")
    VERBS[words] = rec = Verb(words, part, forms, example, arg, said)
    return rec


def fact(
    about: str, words: str, shape: str, doc: str, example: str, name: str | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as a fact's value: ``fn(game, player, step)`` (the
    player is None for a game fact). ``name`` is its IR name when not its words."""
    return _fact(about, words, shape, doc, example, name, "value")


def fact_check(
    about: str, words: str, shape: str, doc: str, example: str, name: str | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as a fact's check: ``fn(game, player, step)`` gives
    None when the expectation holds, else a sentence with the expected and actual values."""
    return _fact(about, words, shape, doc, example, name, "check")


def _fact(
    about: str,
    words: str,
    shape: str,
    doc: str,
    example: str,
    name: str | None,
    how: str,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    if about not in ABOUT:
        raise ValueError(f"fact {words!r}: about {about!r} is not one of {ABOUT}")
    ir_name = name or words

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        key = ("player" if about == "player" else "game", ir_name)
        if key in FACTS:
            raise ValueError(f"fact {key} is registered twice")
        FACTS[key] = Fact(about, tuple(words.split()), shape, doc, example, ir_name, **{how: fn})
        return fn

    return register


def setup_run(
    *words: str,
) -> Callable[[Callable[[Any, dict[str, Any]], None]], Callable[[Any, dict[str, Any]], None]]:
    """Register the decorated function as a setup run step, after those registered before."""

    def register(
        fn: Callable[[Any, dict[str, Any]], None],
    ) -> Callable[[Any, dict[str, Any]], None]:
        SETUP_RUNS.append((words, fn))
        return fn

    return register


def verbs(part: str) -> list[Verb]:
    """The verbs of one part, in the order they were registered."""
    return [v for v in VERBS.values() if v.part == part]


def facts(about: str) -> list[Fact]:
    """The facts about a player, the game, or with forms of their own, in registration order."""
    return [f for f in FACTS.values() if f.about == about]


def fact_of(step: dict[str, Any]) -> Fact | None:
    """The record of an expectation step's fact (a player's when the step names a seat)."""
    return FACTS.get(("player" if "seat" in step else "game", step["fact"]))
