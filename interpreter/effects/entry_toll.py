"""An entry toll: what a player must do on entering a space, and may not enter without.

    space Bridge {
      to enter if there is a troll here: choose one (defeat a troll here with 3 swords |
          take 1 damage)
    }

A `to enter:` line runs like `when you enter:`; besides, a move or teleport onto the space is
legal only when the player could do what the line asks: a price they can pay, or one option
of a `choose` they can pay ("you can't voluntarily take damage if ... In these situations,
you can't enter a room with [it] unless you have the Swords to defeat it").
"""

from __future__ import annotations

from typing import Any

from ..context import Ctx
from .registry import EFFECTS
from .triggers import _trigger

_trigger(
    "toll",
    "enter",
    "you",
    ("to enter", "on entering"),
    ("space",),
    "When a player enters the space, like `when you enter:`; and a player who could not "
    "do what it asks (pay its price, or one option of its `choose`) may not enter.",
    examples=("to enter if there is a troll here: choose one (pay 2 gold | take 1 damage)",),
)


def _payable(game: Any, ctx: Any, nodes: list[dict[str, Any]]) -> bool:
    for n in nodes:
        op = n["op"]
        if op == "choose":
            if not any(_payable(game, ctx, o) for o in n["options"]):
                return False
        elif op == "pay" and not n["optional"]:
            if not _payable(game, ctx, n["cost"]):
                return False
        else:
            can = EFFECTS[op].can_pay
            if can is not None and not can(game, ctx, n):
                return False
    return True


def toll_open(game: Any, player: Any, space: int) -> bool:
    """Whether ``player`` could pay every entry toll of ``space`` whose condition holds."""
    sp = game.board.spaces[space]
    ctx = Ctx(player, sp)
    for hook in sp.on.get("enter", ()):
        if hook.on != "toll":
            continue
        if hook.cond is not None and not game.holds(ctx, hook.cond):
            continue
        if not _payable(game, ctx, hook.effects):
            return False
    return True


def is_toll(hook: Any) -> bool:
    """Whether a prepared trigger (`hooks.Hook`) is an entry toll."""
    return hook.on == "toll"


def tolled_spaces(board: Any) -> frozenset[int]:
    """The spaces of a board with an entry toll (asked by the legal moves and teleports)."""
    return frozenset(s.index for s in board.spaces if any(map(is_toll, s.on.get("enter", ()))))
