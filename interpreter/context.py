"""The context an effect runs in: who it acts for and what caused it.

It sits below everything that runs effects (the catalog's content actions, the effect
handlers, the engine), so none of them reaches up to the game state's module for it.
"""

from __future__ import annotations

from typing import Any


class Ctx:
    """Who an effect acts for (a `PlayerState`) and what caused it (a card, a token, a space,
    or None)."""

    __slots__ = ("player", "source")

    def __init__(self, player: Any, source: Any = None) -> None:
        self.player = player
        self.source = source

    def for_player(self, player: Any) -> Ctx:
        """The same source acting for another player (for "each player")."""
        return Ctx(player, self.source)

    @property
    def source_name(self) -> str | None:
        """The source's name, for decisions and the log."""
        return getattr(self.source, "name", None)
