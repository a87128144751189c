"""Cards: `card`, `monster`, `event` and `reserve` declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler

CARD_PROPS = (
    "copies",
    "cost",
    "fight",
    "points",
    "starting",
    "tag",
    "faction",
    "dragon attack",
    "danger",
    "only in",
    "not in",
    "set aside",
    "art",
)


@declaration(
    "card", properties=CARD_PROPS, form="card NAME { cost N; play: EFFECTS }", writes=("cards",)
)
def card(c: _Compiler, st: Stmt) -> None:
    """`card NAME { ... }`: a card of the adventure deck bought with skill (or a starting card)."""
    c.decl_card(st)


@declaration("monster", form="monster NAME { fight N; defeat: EFFECTS }", writes=("cards",))
def monster(c: _Compiler, st: Stmt) -> None:
    """`monster NAME { fight N; defeat: ... }`: a monster of the adventure deck."""
    c.decl_monster(st)


@declaration("reserve", form="reserve NAME { cost N; play: EFFECTS }", writes=("cards",))
def reserve(c: _Compiler, st: Stmt) -> None:
    """`reserve NAME { ... }`: a card of the reserve (a reserve monster once it has `fight`)."""
    c.decl_reserve(st)


@declaration("event", form="event NAME { arrive: EFFECTS }", writes=("cards",))
def event(c: _Compiler, st: Stmt) -> None:
    """`event NAME { arrive: ... }`: an event of the adventure deck."""
    c.decl_event(st)
