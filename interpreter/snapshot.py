"""A game's state as plain JSON data: snapshot, restore, play on, fingerprint, components.

The state is what `Game.STATE` declares (attribute names with their types) plus every field of
`PlayerState`; this module walks that declaration, type by type, so a new field is one line
there and is written, read, fingerprinted and (when it holds cards or tokens) counted by the
invariant checks with no change here. Components are written as references: a card as its
design's name (every copy is the same `CardDef`), a token as its name (an artifact that setup
made for a space's value as ``{"implicit artifact": value}``), a player as a seat, a `Move` as
``[path, to]``, an IR node a player waits on as where it lies in its design (``["play", 0,
1]``). The RNG state is inside (``random.Random.getstate()`` as lists).

A snapshot (``FORMAT``) also carries the pack's name, version, board and a digest of each
design, so that restoring against a changed pack is refused with a ValueError naming what
differs; the log so far; where in the turn it was taken; and each bot's carried state (see
``bot_state`` in interpreter/bots.py). Left out: the simulation counters (`GameStats`), the
result (recomputed when the game is over) and the lookup tables a `Game` builds itself.
docs/simulation.md describes the format; schemas/snapshot.schema.json is `snapshot_schema()`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import types
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from .board import Board, Move, Way
from .catalog import CardDef, Catalog, TokenDef, implicit_artifact
from .content_actions import ContentAction
from .hooks import Hook
from .state import DESIGNS, IR, REF, SEAT, Ctx, GameCore, GameState, PlayerState

FORMAT = "clankwork-snapshot/1"
# Where in the game a snapshot was taken: after a turn ended, or between two actions of one.
BETWEEN_TURNS = "between turns"
BETWEEN_ACTIONS = "between actions"

# -- reading context --------------------------------------------------------------------------


class _Reader:
    """What decoding needs: designs by name, the board's moves, the players being filled."""

    def __init__(
        self, catalog: Catalog, players: list[PlayerState], board: Board | None = None
    ) -> None:
        self.cards = {c.name: c for c in catalog.cards}
        self.tokens = {t.name: t for t in catalog.tokens}
        # The moves of the game's own board (a modular board's assembly).
        moves = (board or catalog.board).moves
        self.moves = {(m.path, m.to): m for ms in moves for m in ms}
        self.players = players

    def card(self, name: str) -> CardDef:
        try:
            return self.cards[name]
        except KeyError:
            raise ValueError(f"the snapshot names card {name!r}, which the pack lacks") from None

    def token(self, ref: Any) -> TokenDef:
        if isinstance(ref, dict):
            return implicit_artifact(int(ref["implicit artifact"]))
        try:
            return self.tokens[ref]
        except KeyError:
            raise ValueError(f"the snapshot names token {ref!r}, which the pack lacks") from None

    def move(self, ref: list[int]) -> Move:
        try:
            return self.moves[(ref[0], ref[1])]
        except KeyError:
            raise ValueError(f"the snapshot names a move {ref} the board lacks") from None


# An encoder takes a value and the design IR nodes are found in (or None); a decoder takes the
# data, the reader and that design.
Enc = Callable[[Any, Any], Any]
Dec = Callable[[Any, _Reader, Any], Any]


def _token_ref(t: TokenDef) -> Any:
    return {"implicit artifact": t.points} if t.implicit else t.name


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_load(data: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


# -- IR nodes as places in their design -------------------------------------------------------


def _design_parts(design: Any) -> Iterator[tuple[str, Any]]:
    for f in dataclasses.fields(design):
        yield f.name, getattr(design, f.name)


def _find(where: Any, node: Any, path: list[Any]) -> list[Any] | None:
    if where is node:
        return path
    if isinstance(where, (list, tuple)):
        items: Any = enumerate(where)
    elif isinstance(where, dict):
        items = where.items()
    else:
        return None
    for k, v in items:
        if isinstance(v, (list, tuple, dict)):
            found = _find(v, node, [*path, k])
            if found is not None:
                return found
    return None


def _node_ref(node: Any, design: Any) -> Any:
    if node is None:
        return None
    if dataclasses.is_dataclass(design):
        for name, part in _design_parts(design):
            found = _find(part, node, [name])
            if found is not None:
                return found
    # A node no design holds (made by a handler, or held outside its design, like a "this
    # turn" modifier): a copy, which behaves the same. Its spans are left out: they name
    # where the pack lies on this machine, which neither the game nor its fingerprint
    # depends on.
    return {"$ir": _plain(_no_spans(node))}


def _node_load(data: Any, design: Any) -> Any:
    if data is None:
        return None
    if isinstance(data, dict):
        return data["$ir"]
    here = getattr(design, data[0])
    for k in data[1:]:
        here = here[k]
    return here


def _plain(v: Any) -> Any:
    """IR data as JSON data (tuples as lists)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


# -- any value, tagged (bots' state, `Any` in a declaration) ----------------------------------


def _sorted_items(items: list[Any]) -> list[Any]:
    # A set's order must not depend on the process (string hashes are salted).
    return sorted(items, key=lambda x: json.dumps(x, sort_keys=True))


_PLAIN = frozenset((type(None), bool, int, str))


def encode_any(v: Any) -> Any:
    """Any value the engine or a bot holds, as JSON data with ``$`` tags for what JSON lacks."""
    t = type(v)
    if t in _PLAIN:
        return v
    if t is list:  # the common case first (the fingerprint walks the rules each time)
        return [x if type(x) in _PLAIN else encode_any(x) for x in v]
    if t is dict and all(type(k) is str and k[:1] != "$" for k in v):
        return {k: x if type(x) in _PLAIN else encode_any(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"$float": repr(v)}
    if isinstance(v, CardDef):
        return {"$card": v.name}
    if isinstance(v, TokenDef):
        return {"$token": _token_ref(v)}
    if isinstance(v, Move):
        return {"$move": [v.path, v.to]}
    if isinstance(v, PlayerState):
        return {"$seat": v.seat}
    if isinstance(v, random.Random):
        return {"$random": _rng_state(v)}
    if isinstance(v, list):
        return [encode_any(x) for x in v]
    if isinstance(v, tuple):
        return {"$tuple": [encode_any(x) for x in v]}
    if isinstance(v, Counter):
        return {"$counter": [[encode_any(k), encode_any(x)] for k, x in v.items()]}
    if isinstance(v, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in v):
            return {k: encode_any(x) for k, x in v.items()}
        return {"$dict": [[encode_any(k), encode_any(x)] for k, x in v.items()]}
    if isinstance(v, (set, frozenset)):
        tag = "$set" if isinstance(v, set) else "$frozenset"
        return {tag: _sorted_items([encode_any(x) for x in v])}
    raise TypeError(f"a snapshot cannot hold a {type(v).__name__} ({v!r})")


def decode_any(d: Any, r: _Reader) -> Any:
    """The value `encode_any` wrote."""
    if isinstance(d, list):
        return [decode_any(x, r) for x in d]
    if not isinstance(d, dict):
        return d
    if len(d) == 1:
        ((tag, x),) = d.items()
        if tag == "$float":
            return float(x)
        if tag == "$card":
            return r.card(x)
        if tag == "$token":
            return r.token(x)
        if tag == "$move":
            return r.move(x)
        if tag == "$seat":
            return r.players[x]
        if tag == "$random":
            return _rng_load(x)
        if tag == "$tuple":
            return tuple(decode_any(y, r) for y in x)
        if tag == "$counter":
            return Counter({decode_any(k, r): decode_any(y, r) for k, y in x})
        if tag == "$dict":
            return {decode_any(k, r): decode_any(y, r) for k, y in x}
        if tag == "$set":
            return {decode_any(y, r) for y in x}
        if tag == "$frozenset":
            return frozenset(decode_any(y, r) for y in x)
    return {k: decode_any(x, r) for k, x in d.items()}


def load_attributes(obj: Any, game: GameCore, state: dict[str, Any]) -> None:
    """Set the attributes `encode_any` wrote of ``obj`` (a bot), for a restored ``game``: its
    moves are read on the game's own board (a modular board's assembly, with the paths the
    game added), not on the pack's printed one."""
    reader = _Reader(game.catalog, game.players, game.board)
    for k, v in state.items():
        setattr(obj, k, decode_any(v, reader))


# -- declared values, by type -----------------------------------------------------------------

_CODECS: dict[Any, tuple[Enc, Dec]] = {}


def _codec(tp: Any) -> tuple[Enc, Dec]:
    """The encoder and decoder of a declared type (built once per type)."""
    got = _CODECS.get(tp)
    if got is None:
        got = _CODECS[tp] = _build(tp)
    return got


def _ident(v: Any, src: Any) -> Any:
    return v


def _ident_dec(d: Any, r: _Reader, src: Any) -> Any:
    return d


def _build(tp: Any) -> tuple[Enc, Dec]:
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        base, *marks = args
        if SEAT in marks:
            return (lambda p, s: p.seat), (lambda d, r, s: r.players[d])
        if IR in marks:
            return (lambda v, s: _node_ref(v, s)), (lambda d, r, s: _node_load(d, s))
        fixed = next((m for m in marks if get_origin(m) is tuple), None)
        if fixed is not None:  # a list written as a tuple of known types
            enc, dec = _codec(fixed)
            return enc, (lambda d, r, s: list(dec(d, r, s)))
        return _codec(base)
    if tp in (int, str, bool) or tp is type(None):
        return _ident, _ident_dec
    if tp is float:
        return (lambda v, s: encode_any(v)), (lambda d, r, s: decode_any(d, r))
    if tp is Any:
        return (lambda v, s: encode_any(v)), (lambda d, r, s: decode_any(d, r))
    if tp is CardDef:
        return (lambda c, s: c.name), (lambda d, r, s: r.card(d))
    if tp is TokenDef:
        return (lambda t, s: _token_ref(t)), (lambda d, r, s: r.token(d))
    if tp is Move:
        return (lambda m, s: [m.path, m.to]), (lambda d, r, s: r.move(d))
    if tp is random.Random:
        return (lambda v, s: _rng_state(v)), (lambda d, r, s: _rng_load(d))
    if tp is PlayerState:
        return _player_codec()
    if tp is Ctx:
        return (
            (lambda c, s: [c.player.seat, encode_any(c.source)]),
            (lambda d, r, s: Ctx(r.players[d[0]], decode_any(d[1], r))),
        )
    return _generic_codec(tp, origin, args)


def _generic_codec(tp: Any, origin: Any, args: tuple[Any, ...]) -> tuple[Enc, Dec]:
    """The codec of an optional value, a list, tuple, set or dict, from its items' codecs."""
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise TypeError(f"a snapshot cannot hold the union {tp}")
        enc, dec = _codec(rest[0])
        return (
            (lambda v, s: None if v is None else enc(v, s)),
            (lambda d, r, s: None if d is None else dec(d, r, s)),
        )
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        enc, dec = _codec(args[0])
        make = list if origin is list else tuple
        # The zones of cards and tokens are most of a state: written without a call a card.
        if args[0] is CardDef:
            return (lambda v, s: [c.name for c in v]), (lambda d, r, s: make(map(r.card, d)))
        if args[0] is TokenDef:
            return (lambda v, s: [_token_ref(t) if t.implicit else t.name for t in v]), (
                lambda d, r, s: make(map(r.token, d))
            )
        if enc is _ident:
            return (lambda v, s: list(v)), (lambda d, r, s: make(d))
        return (lambda v, s: [enc(x, s) for x in v]), (
            lambda d, r, s: make(dec(x, r, s) for x in d)
        )
    if origin is tuple:
        return _tuple_codec(args)
    if origin in (set, frozenset):
        enc, dec = _codec(args[0])
        make = set if origin is set else frozenset
        if enc is _ident:  # numbers or names: sorted as they are
            return (lambda v, s: sorted(v)), (lambda d, r, s: make(d))
        return (lambda v, s: _sorted_items([enc(x, s) for x in v])), (
            lambda d, r, s: make(dec(x, r, s) for x in d)
        )
    if origin is dict:
        kenc, kdec = _codec(args[0])
        venc, vdec = _codec(args[1])
        if args[0] is str:
            if venc is _ident:  # names to numbers or names: the dict as it is
                return (lambda v, s: dict(v)), (lambda d, r, s: dict(d))
            return (lambda v, s: {k: venc(x, s) for k, x in v.items()}), (
                lambda d, r, s: {k: vdec(x, r, s) for k, x in d.items()}
            )
        # Pairs in insertion order: the engine walks these dicts in order.
        return (lambda v, s: [[kenc(k, s), venc(x, s)] for k, x in v.items()]), (
            lambda d, r, s: {kdec(k, r, s): vdec(x, r, s) for k, x in d}
        )
    raise TypeError(f"a snapshot cannot hold the type {tp}")


def _source_of(v: Any) -> Any:
    return v.source if isinstance(v, Ctx) else v


def _tuple_codec(args: Sequence[Any]) -> tuple[Enc, Dec]:
    # A design (or a Ctx's source) earlier in the tuple is where its IR nodes are found.
    codecs = [_codec(a) for a in args]
    sources = [a in (CardDef, TokenDef, Ctx) for a in args]

    def enc(v: Any, src: Any) -> Any:
        out = []
        for (e, _), x, is_src in zip(codecs, v, sources, strict=True):
            out.append(e(x, src))
            if is_src:
                src = _source_of(x)
        return out

    def dec(d: Any, r: _Reader, src: Any) -> Any:
        out = []
        for (_, de), x, is_src in zip(codecs, d, sources, strict=True):
            y = de(x, r, src)
            out.append(y)
            if is_src:
                src = _source_of(y)
        return tuple(out)

    return enc, dec


@lru_cache(maxsize=1)
def player_fields() -> tuple[tuple[str, Any], ...]:
    """PlayerState's fields with their types: all of them are state."""
    hints = get_type_hints(PlayerState, include_extras=True)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(PlayerState))


class _Fields:
    """How the declared fields of an object (a game, a player) are written: every value read
    at once, then each one that is not a plain number, flag or name through its encoder. The
    dict keeps the declaration's order (the fingerprint hashes its text)."""

    def __init__(self, fields: Sequence[tuple[str, Any]]) -> None:
        self.names = tuple(name for name, _ in fields)
        self.read = attrgetter(*self.names)
        # The generator fields (`random.Random`), which the fingerprint hashes as words.
        self.randoms = tuple(name for name, tp in fields if tp is random.Random)
        encoders = ((name, _codec(tp)[0]) for name, tp in fields)
        self.coded = tuple(
            (name, enc) for name, enc in encoders if enc is not _ident and name not in self.randoms
        )

    def values(self, obj: Any) -> dict[str, Any]:
        """The fields' values by name, as they are (not encoded)."""
        return dict(zip(self.names, self.read(obj), strict=True))

    def encode_values(self, d: dict[str, Any]) -> dict[str, Any]:
        """Encode, in place, the coded values of ``d`` (the generators excepted)."""
        for name, enc in self.coded:
            d[name] = enc(d[name], None)
        return d

    def encode(self, obj: Any) -> dict[str, Any]:
        """Every field of ``obj``, encoded."""
        d = self.encode_values(self.values(obj))
        for name in self.randoms:
            d[name] = _rng_state(d[name])
        return d


def _player_codec() -> tuple[Enc, Dec]:
    fields = player_fields()
    record = _Fields(fields)
    codecs = [(name, _codec(tp)[1]) for name, tp in fields]

    def enc(p: PlayerState, src: Any) -> Any:
        return record.encode(p)

    def dec(d: Any, r: _Reader, src: Any) -> PlayerState:
        p = r.players[d["seat"]]
        for name, de in codecs:
            setattr(p, name, de(d[name], r, None))
        return p

    return enc, dec


def game_fields(game: GameCore | type[GameCore]) -> tuple[tuple[str, Any], ...]:
    """The game's declared state: (attribute, type) pairs in declaration order."""
    return tuple(game.STATE.items())


# -- the snapshot -----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _state_codecs(cls: type[GameCore]) -> tuple[tuple[str, Enc, Dec], ...]:
    return tuple((name, *_codec(tp)) for name, tp in cls.STATE.items())


@lru_cache(maxsize=8)
def _state_fields(cls: type[GameCore]) -> _Fields:
    return _Fields(tuple(cls.STATE.items()))


def encode_state(game: GameCore) -> dict[str, Any]:
    """The declared state of the game as JSON data (the snapshot's ``state``)."""
    return _state_fields(type(game)).encode(game)


def _digest(v: Any) -> str:
    text = json.dumps(v, sort_keys=True, separators=(",", ":"), default=_unordered)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _unordered(v: Any) -> Any:
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if isinstance(v, Move):
        # A path out of a space, field by field (as when moves were named tuples).
        return [getattr(v, f.name) for f in dataclasses.fields(v)]
    if isinstance(v, Way):
        # A path's way counts by what it does (a pack's declared ways are part of the pack).
        return [
            v.name,
            v.paid_in,
            list(v.requires),
            v.exhausts,
            v.while_exhausted,
            v.teleport,
            *([list(v.within)] if v.within else []),
        ]
    if isinstance(v, Hook):
        # A card's or token's trigger line (`whenever you defeat a monster: ...`).
        return _no_spans([v.uid, v.on, v.limit, v.cond, v.effects])
    if isinstance(v, ContentAction):
        # A token's or space's `action` line.
        return _no_spans([v.key, v.name, v.limit, list(v.cost), list(v.effects)])
    raise TypeError(f"cannot digest a {type(v).__name__}")


def _no_spans(v: Any) -> Any:
    # Spans move when a file is reformatted; the design is the same.
    if isinstance(v, dict):
        return {k: _no_spans(x) for k, x in v.items() if k != "at"}
    if isinstance(v, (list, tuple)):
        return [_no_spans(x) for x in v]
    return v


def pack_identity(catalog: Catalog) -> dict[str, Any]:
    """The pack a snapshot belongs to: name, version, board and a digest of each design."""
    board = catalog.board
    return {
        "name": catalog.name,
        "version": catalog.version,
        "board": board.name,
        "cards": {c.name: _digest(_no_spans(dict(_design_parts(c)))) for c in catalog.cards},
        "tokens": {t.name: _digest(_no_spans(dict(_design_parts(t)))) for t in catalog.tokens},
        "spaces": _digest([dataclasses.astuple(s) for s in board.spaces]),
        "paths": _digest([list(ms) for ms in board.moves]),
        "rules": _digest(_no_spans(catalog.rules)),
    }


def snapshot(game: GameCore, *, mid_turn: bool = False, log: bool = True) -> dict[str, Any]:
    """The game as plain JSON data, to be written with `json.dumps` and read by `restore`.

    Take it after a turn (from ``Game.play``'s ``after_turn``), or with ``mid_turn`` between
    two actions of the active player (between two `Game.step` calls). ``log=False`` leaves the
    log out (the restored game then starts a new one after a copy of the header).
    """
    bots = []
    for bot in game.bots:
        carried = getattr(bot, "bot_state", None)
        bots.append(
            {
                "name": getattr(bot, "name", type(bot).__name__),
                "state": carried() if carried else None,
            }
        )
    header = game.log[0] if game.log and game.log[0].get("type") == "header" else None
    return {
        "format": FORMAT,
        "pack": pack_identity(game.catalog),
        "seed": game.seed,
        "at": BETWEEN_ACTIONS if mid_turn else BETWEEN_TURNS,
        "state": encode_state(game),
        "bots": bots,
        "log": json.loads(json.dumps(game.log if log else [header] if header else [])),
    }


def fingerprint(game: GameCore) -> str:
    """A digest of the whole declared state (the snapshot's ``state``, RNG included, log not):
    equal states give equal digests."""
    digest = hashlib.sha256()
    fields = _state_fields(type(game))
    state = fields.values(game)
    for name in fields.randoms:
        # The numbers the snapshot writes, hashed as machine words (decimal text is slow).
        version, internal, gauss = state.pop(name).getstate()
        digest.update(array("Q", internal).tobytes())
        digest.update(repr((version, gauss)).encode())
    digest.update(_COMPACT.encode(fields.encode_values(state)).encode())
    return digest.hexdigest()[:16]


# The text `json.dumps(state, separators=(",", ":"))` gives, made faster: one encoder for
# every call, and no check for cycles (the encoded state is plain lists and dicts).
_COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False)


# -- components in zones (the invariant checks) -----------------------------------------------

_ZONES: dict[Any, Callable[[Any, list[tuple[Any, int]]], None] | None] = {}


def _zone_walker(tp: Any) -> Callable[[Any, list[tuple[Any, int]]], None] | None:
    """How to list the cards and tokens a value of this type holds as a zone (None: none)."""
    if tp in _ZONES:
        return _ZONES[tp]
    origin, args = get_origin(tp), get_args(tp)
    walk: Callable[[Any, list[tuple[Any, int]]], None] | None = None
    if origin is Annotated:
        if not {REF, DESIGNS, IR, SEAT} & set(args[1:]):
            walk = _zone_walker(args[0])
    elif tp in (CardDef, TokenDef):

        def walk(v: Any, out: list[tuple[Any, int]]) -> None:
            out.append((v, 1))

    elif tp is PlayerState:
        walkers = ((name, _zone_walker(t)) for name, t in player_fields())
        inner = [(name, w) for name, w in walkers if w is not None]

        def walk(v: Any, out: list[tuple[Any, int]]) -> None:
            for name, w in inner:
                w(getattr(v, name), out)

    elif origin in (Union, types.UnionType):
        parts = [w for w in map(_zone_walker, args) if w is not None]
        if parts:

            def walk(v: Any, out: list[tuple[Any, int]]) -> None:
                if v is not None:
                    for w in parts:
                        w(v, out)

    elif origin in (list, set, frozenset) or (origin is tuple and args[-1:] == (Ellipsis,)):
        item = _zone_walker(args[0])
        if item is not None:

            def walk(v: Any, out: list[tuple[Any, int]]) -> None:
                for x in v:
                    item(x, out)

    elif origin is dict and args[0] in (CardDef, TokenDef) and args[1] is int:

        def walk(v: Any, out: list[tuple[Any, int]]) -> None:
            out.extend(v.items())  # a pile: the number of copies left

    elif origin is dict and _zone_walker(args[1]) is not None:
        value = _zone_walker(args[1])
        assert value is not None

        def walk(v: Any, out: list[tuple[Any, int]]) -> None:
            for x in v.values():  # zones by a key (tokens on each path)
                value(x, out)

    _ZONES[tp] = walk
    return walk


def components(game: GameCore) -> Iterator[tuple[str, Any, int]]:
    """Every card and token in a zone of the declared state: (field, component, copies)."""
    for name, tp in game.STATE.items():
        walk = _zone_walker(tp)
        if walk is not None:
            out: list[tuple[Any, int]] = []
            walk(getattr(game, name), out)
            for c, k in out:
                yield name, c, k


# -- the JSON Schema ---------------------------------------------------------------------------


def _type_schema(tp: Any) -> dict[str, Any]:
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        base, *marks = args
        if SEAT in marks:
            return {"type": "integer", "minimum": 0, "description": "a seat"}
        if IR in marks:
            return {
                "description": "an IR node: its place in its design, or a copy",
                "anyOf": [
                    {"type": "array", "items": {"type": ["string", "integer"]}},
                    {"type": "object", "required": ["$ir"]},
                ],
            }
        fixed = next((m for m in marks if get_origin(m) is tuple), None)
        return _type_schema(fixed if fixed is not None else base)
    simple = {int: "integer", str: "string", bool: "boolean", type(None): "null"}
    if tp in simple:
        return {"type": simple[tp]}
    if tp is float:
        return {"anyOf": [{"type": "number"}, {"type": "object", "required": ["$float"]}]}
    if tp is Any:
        return {"description": "JSON data; $-tagged objects for what JSON lacks"}
    if tp is CardDef:
        return {"type": "string", "description": "a card design's name"}
    if tp is TokenDef:
        return {"$ref": "#/$defs/token"}
    if tp is Move:
        return {"type": "array", "prefixItems": [{"type": "integer"}] * 2, "items": False}
    if tp is random.Random:
        return {"type": "array", "description": "random.Random.getstate() as lists"}
    if tp is PlayerState:
        return {"$ref": "#/$defs/player"}
    if tp is Ctx:
        return {"type": "array", "prefixItems": [{"type": "integer"}, {}], "items": False}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_type_schema(a) for a in args]}
    if origin in (list, set, frozenset) or (origin is tuple and args[-1:] == (Ellipsis,)):
        return {"type": "array", "items": _type_schema(args[0])}
    if origin is tuple:
        return {"type": "array", "prefixItems": [_type_schema(a) for a in args], "items": False}
    if origin is dict:
        if args[0] is str:
            return {"type": "object", "additionalProperties": _type_schema(args[1])}
        pair = [_type_schema(args[0]), _type_schema(args[1])]
        return {"type": "array", "items": {"type": "array", "prefixItems": pair, "items": False}}
    raise TypeError(f"no schema for {tp}")


def _closed(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def snapshot_schema() -> dict[str, Any]:
    """The JSON Schema of a snapshot (``schemas/snapshot.schema.json``), from the declaration."""
    digests = {"type": "object", "additionalProperties": {"type": "string"}}
    pack = _closed(
        {
            "name": {"type": "string"},
            "version": {"type": "string"},
            "board": {"type": "string"},
            "cards": digests,
            "tokens": digests,
            "spaces": {"type": "string"},
            "paths": {"type": "string"},
            "rules": {"type": "string"},
        }
    )
    bot = _closed({"name": {"type": "string"}, "state": {"type": ["object", "null"]}})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://clankwork.invalid/schemas/snapshot.schema.json",
        "title": "Clankwork game snapshot",
        "description": "A game's state as plain data (interpreter/snapshot.py); generated from "
        "Game.STATE and PlayerState's fields.",
        **_closed(
            {
                "format": {"const": FORMAT},
                "pack": pack,
                "seed": {"type": "integer"},
                "at": {"enum": [BETWEEN_TURNS, BETWEEN_ACTIONS]},
                "state": _closed({k: _type_schema(t) for k, t in GameState.STATE.items()}),
                "bots": {"type": "array", "items": bot},
                "log": {"type": "array", "items": {"type": "object"}},
            }
        ),
        "$defs": {
            "player": _closed({k: _type_schema(t) for k, t in player_fields()}),
            "token": {
                "description": "a token design's name, or an artifact setup made for a value",
                "anyOf": [
                    {"type": "string"},
                    _closed({"implicit artifact": {"type": "integer"}}),
                ],
            },
        },
    }


def schema_text() -> str:
    """`snapshot_schema()` as the text of the committed file."""
    return json.dumps(snapshot_schema(), indent=2) + "\n"
