"""A fast copy of a game: what search bots and what-if questions play on.

The copy is made from the declared state (`Game.STATE`, PlayerState's fields), type by type,
as `interpreter.snapshot` writes it, but without leaving Python objects: a zone is copied as a
list of the same `CardDef` references (designs never change during a game), an IR node is
shared (IR is never changed by play), the RNG is a new generator in the same state, and every
reference to a player (the active player, an effect context waiting in `recounts`) points at
the copy's player of that seat. A new field is copied as its declared type says, with no
change here; a type this module cannot copy is a TypeError when the first copy is made, not a
copy that shares what it should not.

What is not state (the pack, the board, the registries' handler tables, the trigger tables)
is shared. The copy has its own bots (given, or none: then it can only be driven by a caller
that answers its decisions), no statistics hook, and a log only when asked for.
"""

from __future__ import annotations

import dataclasses
import random
import types
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from .board import Move
from .catalog import CardDef, TokenDef
from .decisions import Bot
from .state import SEAT, Ctx, GameCore, PlayerState

# A copier takes a value and the copy's players (by seat) and returns the value to put in the
# copy. None as a copier: the value is shared (immutable, or never changed by play).
Copier = Callable[[Any, Sequence[PlayerState]], Any] | None

_SHARED = (int, str, bool, float, type(None), CardDef, TokenDef, Move)


def _copier(tp: Any) -> Copier:
    """How a value of a declared type is copied (None: shared as it is)."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        base, *marks = args
        if SEAT in marks:
            return lambda p, players: players[p.seat]
        fixed = next((m for m in marks if get_origin(m) is tuple), None)
        if fixed is not None:  # a list written as a tuple of known types (see state.py)
            item = _copier(fixed)
            if item is None:
                return lambda v, players: list(v)
            return lambda v, players: list(item(v, players))
        return _copier(base)
    if tp in _SHARED or tp is Any:
        # `Any` in the declared state is an IR value or a name: never changed in place.
        return None
    if tp is random.Random:
        return _copy_rng
    if tp is PlayerState:
        return _copy_player
    if tp is Ctx:
        return lambda c, players: Ctx(players[c.player.seat], c.source)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"a game copy cannot hold the union {tp}")
        item = _copier(rest[0])
        if item is None:
            return None
        return lambda v, players: None if v is None else item(v, players)
    if origin is list:
        item = _copier(args[0])
        if item is None:
            return lambda v, players: list(v)
        return lambda v, players: [item(x, players) for x in v]
    if origin is tuple:
        items = [_copier(a) for a in args if a is not Ellipsis]
        if all(c is None for c in items):
            return None  # a tuple of shared things is itself shared
        if len(args) == 2 and args[1] is Ellipsis:
            one = items[0]
            return lambda v, players: tuple(one(x, players) for x in v)  # type: ignore[misc]
        return lambda v, players: tuple(
            x if c is None else c(x, players) for c, x in zip(items, v, strict=True)
        )
    if origin in (set, frozenset):
        if _copier(args[0]) is not None:
            raise TypeError(f"a game copy cannot hold a set of {args[0]}")
        return None if origin is frozenset else (lambda v, players: set(v))
    if origin is dict:
        if _copier(args[0]) is not None:
            raise TypeError(f"a game copy cannot key a dict by {args[0]}")
        value = _copier(args[1])
        if value is None:
            return lambda v, players: dict(v)
        return lambda v, players: {k: value(x, players) for k, x in v.items()}
    raise TypeError(f"a game copy cannot hold the type {tp}")


def _copy_rng(rng: random.Random, players: Sequence[PlayerState]) -> random.Random:
    new = random.Random()
    new.setstate(rng.getstate())
    return new


@lru_cache(maxsize=1)
def _player_plan() -> tuple[tuple[str, Copier], ...]:
    hints = get_type_hints(PlayerState, include_extras=True)
    return tuple((f.name, _copier(hints[f.name])) for f in dataclasses.fields(PlayerState))


def _copy_player(p: PlayerState, players: Sequence[PlayerState]) -> PlayerState:
    # The copy's players are made before any field is copied (see `clone`): fill that one.
    new = players[p.seat]
    for name, copy in _player_plan():
        value = getattr(p, name)
        setattr(new, name, value if copy is None else copy(value, players))
    return new


@lru_cache(maxsize=8)
def _game_plan(cls: type[GameCore]) -> tuple[tuple[str, Copier], ...]:
    return tuple((name, _copier(tp)) for name, tp in cls.STATE.items())


# What is not state and is shared by a game and its copies (read-only tables, the pack); the
# rest of `Game.NOT_STATE` is set by `clone` itself.
SHARED_NOT_STATE = (
    "catalog",
    "board",
    "seed",
    "first_player",
    "stacked_adventure",
    "goals_before",
    "_effect",
    "_condition",
    "_count",
    "_rule_on",
    "_held",
    "_watched",
    "_emits",
    "_track_gains",
    "_ending",
)


def clone(game: GameCore, bots: Sequence[Bot] = (), *, keep_log: bool = False) -> GameCore:
    """A copy of ``game`` that plays on independently, with ``bots`` answering its decisions.

    Playing the copy never changes ``game``, and a copy played by bots in the same state as
    the original's plays the same game (the RNG is copied too). The copy keeps a log only with
    ``keep_log`` (a copy of the log so far, then its own records)."""
    cls = type(game)
    new = cls.__new__(cls)
    players = [PlayerState(p.seat) for p in game.players]
    for name, copy in _game_plan(cls):
        value = getattr(game, name)
        setattr(new, name, value if copy is None else copy(value, players))
    for name in SHARED_NOT_STATE:
        setattr(new, name, getattr(game, name))
    new.bots = list(bots)
    new._play_firsts = [getattr(b, "play_first", None) for b in new.bots]
    new._actors = [getattr(b, "choose_action", None) for b in new.bots]
    new.stats = None
    new._depth = 0
    new.stacked_rolls = list(game.stacked_rolls)  # a copy rolling must not use them up
    new._keep_log = keep_log
    new._digest = keep_log
    new.log = list(game.log) if keep_log else []
    new.result = game.result
    return new
