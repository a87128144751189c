"""Campaign declarations: stickers, passages, contracts, patrons, goals and the
campaign block."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..parser import Stmt
from .registry import declaration

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("sticker", form="sticker NAME { fills SLOT: EFFECTS }", writes=("stickers",))
def sticker(c: _Compiler, st: Stmt) -> None:
    """`sticker NAME { fills SLOT: EFFECTS }`: a campaign sticker (rule, board or card)."""
    c.decl_sticker(st)


@declaration("passage", form='passage N { text "..."; read N }', writes=("passages",))
def passage(c: _Compiler, st: Stmt) -> None:
    """`passage N { ... }`: a Book of Secrets entry."""
    c.decl_passage(st)


@declaration(
    "contract", form="contract NAME { complete: PRICE -> REWARD; passage N }", writes=("contracts",)
)
def contract(c: _Compiler, st: Stmt) -> None:
    """`contract NAME { complete: PRICE -> REWARD; passage N }`: a campaign contract."""
    c.decl_contract(st)


@declaration("patron", form="patron NAME { TRIGGER: EFFECTS }", writes=("patrons",))
def patron(c: _Compiler, st: Stmt) -> None:
    """`patron NAME { TRIGGER: EFFECTS }`: a patron's rules for one campaign game."""
    c.decl_patron(st)


@declaration("goal", form="goal NAME { player N; boxes N; TRIGGER }", writes=("goals",))
def goal(c: _Compiler, st: Stmt) -> None:
    """`goal NAME { player N; boxes N; TRIGGER }`: a personal goal on a player's deck box."""
    c.decl_goal(st)


@declaration(
    "campaign",
    form="campaign { status NAME at N reads P; track NAME { ... }; death ... }",
    writes=("campaign",),
)
def campaign(c: _Compiler, st: Stmt) -> None:
    """`campaign { ... }`: the campaign's status track, its tracks and what a death does."""
    c.decl_campaign(st)
