"""Decisions: every choice a player makes, with its legal options, answered by a bot.

The engine never guesses for a player. The main action of each step of a turn (play a card,
acquire, fight, move, buy, hire a coach, take an artifact, use a token, end the turn) is a
decision of kind ``action``; effects ask decisions of kind ``choose``, ``may``, ``discard``,
``trash`` and ``teleport``. A decision with a single option of a kind other than ``action`` or
``may`` is forced and is not asked (nor logged).

Action values are tuples whose first item is the action's record (`actions.ActionKind`:
``(PLAY, card)``, ``(MOVE, Move, swords)``, ``(END_TURN,)``...); ask the record (its label,
narration, appraisal) rather than matching names. See interpreter/actions.py.
Effect decisions carry the option index as value, or the card / space chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

ACTION = "action"
CHOOSE = "choose"
MAY = "may"
DISCARD = "discard"
TRASH = "trash"
TELEPORT = "teleport"
KINDS = (ACTION, CHOOSE, MAY, DISCARD, TRASH, TELEPORT)


class Option(NamedTuple):
    """One legal answer: what is shown and logged (label) and what the engine uses (value)."""

    label: str
    value: Any


@dataclass(slots=True)
class Decision:
    """A choice put to one player."""

    player: int
    kind: str
    options: list[Option]
    prompt: str = ""
    source: str | None = None
    # The IR node behind a "may" or a price, for bots that want to read it; for an action
    # decision, the option indexes of each action kind (`actions.legal_actions`'s groups).
    detail: Any = None

    @property
    def labels(self) -> list[str]:
        """The option labels in order."""
        return [o.label for o in self.options]

    def index_of(self, label: str) -> int:
        """The index of the first option with that label (ValueError when none)."""
        for i, o in enumerate(self.options):
            if o.label == label:
                return i
        raise ValueError(f"{label!r} is not an option of {self.kind}: {self.labels}")


@runtime_checkable
class Bot(Protocol):
    """Anything that answers decisions. ``view`` is the game, to be read, never changed.

    Two shortcuts a bot may also have, which `Game.step` takes when it does (the log is the
    same either way): ``play_first(view, player)``, a card of the hand to play before any
    other action is listed (None: list them), and ``choose_action(view, player, options,
    groups)``, the index of an action decision's option without a `Decision` built for it
    (``groups``: each action kind's option indexes)."""

    name: str

    def choose(self, view: Any, decision: Decision) -> int:
        """The index of the chosen option."""
        ...


class UnscriptedDecision(Exception):
    """A scripted player met a decision its script does not answer."""


class ScriptedBot:
    """Answers from a list of labels (or indexes), in order; fails on anything else.

    With ``fallback``, decisions after the script runs out go to that bot instead.
    """

    name = "scripted"

    def __init__(self, answers: Iterable[str | int], fallback: Bot | None = None) -> None:
        self.answers: list[str | int] = list(answers)
        self.fallback = fallback
        self.asked: list[Decision] = []

    def choose(self, view: Any, decision: Decision) -> int:
        """Pop the next scripted answer; it must be one of the decision's options."""
        self.asked.append(decision)
        if not self.answers:
            if self.fallback is not None:
                return self.fallback.choose(view, decision)
            raise UnscriptedDecision(
                f"player {decision.player}: unscripted {decision.kind} decision "
                f"({decision.prompt or decision.source}); options: {decision.labels}"
            )
        answer = self.answers.pop(0)
        if isinstance(answer, int):
            if not 0 <= answer < len(decision.options):
                raise UnscriptedDecision(f"index {answer} out of range for {decision.labels}")
            return answer
        try:
            return decision.index_of(answer)
        except ValueError as e:
            raise UnscriptedDecision(str(e)) from None


def labels_options(labels: Sequence[str]) -> list[Option]:
    """Options whose values are their indexes (for effect decisions given as labels)."""
    return [Option(label, i) for i, label in enumerate(labels)]
