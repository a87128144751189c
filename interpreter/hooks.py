"""Triggers prepared for play: which event they watch, for whom, how often, what they do.

A `Hook` is one trigger line of a card, token, space or the pack's rules, read once from the
IR when a pack is prepared. The engine emits events (`Game.emit`) and fires the hooks that
watch them; "once per turn" and "once per game" are kept in the game state (`Game.used`),
keyed by the hook's ``uid`` and the player's seat, so a snapshot carries them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .effects import TRIGGERS
from .rules import MAX_PLAYERS


@dataclass(frozen=True, slots=True, eq=False)
class Hook:
    """One prepared trigger."""

    uid: str
    on: str
    event: str
    who: str
    limit: str | None
    cond: dict[str, Any] | None
    effects: list[dict[str, Any]]
    # uid@seat for every seat: the keys of `Game.used`, made once.
    keys: tuple[str, ...]


def hooks(
    owner: str, triggers: list[dict[str, Any]] | tuple[dict[str, Any], ...]
) -> tuple[Hook, ...]:
    """The generic (not a component's own moment) triggers of one IR component."""
    out = []
    for k, t in enumerate(triggers):
        record = TRIGGERS[t["on"]]
        if record.meta["who"] == "self":
            continue
        uid = f"{owner}#{k}"
        out.append(
            Hook(
                uid=uid,
                on=t["on"],
                event=record.meta["event"],
                who=record.meta["who"],
                limit=t.get("limit"),
                cond=t.get("if"),
                effects=t["effects"],
                keys=tuple(f"{uid}@{seat}" for seat in range(MAX_PLAYERS)),
            )
        )
    return tuple(out)
