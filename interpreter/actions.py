"""The actions of a turn: which are legal now, and doing one.

Options come in a fixed order (play, artifact, use, move, coach, fight, acquire, buy, end) and,
inside each group, in hand, row, reserve or board order, so the same position always gives the
same option list: the log of a seeded game replays exactly.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from .board import Board
from .decisions import Option
from .state import Ctx, PlayerState

if TYPE_CHECKING:
    from .game import Game

END = Option("end turn", ("end",))


class _Options:
    """Options already built for one board and its pack, by what they are about. An option is
    immutable, so each is made once and reused by every later list (the hot loop)."""

    __slots__ = (
        "play",
        "take",
        "use",
        "move",
        "coach",
        "fight",
        "fight_reserve",
        "acquire",
        "acquire_reserve",
    )

    def __init__(self) -> None:
        self.play: dict[Any, Option] = {}
        self.take: dict[Any, Option] = {}
        self.use: dict[Any, Option] = {}
        self.move: dict[Any, Option] = {}
        self.coach: dict[int, Option] = {}
        self.fight: dict[Any, Option] = {}
        self.fight_reserve: dict[Any, Option] = {}
        self.acquire: dict[Any, Option] = {}
        self.acquire_reserve: dict[Any, Option] = {}


_OPTIONS: weakref.WeakKeyDictionary[Board, _Options] = weakref.WeakKeyDictionary()


# The last board asked for, and its options: most calls in a row are for the same board.
_LAST: tuple[Board | None, _Options] = (None, _Options())


def _options(board: Board) -> _Options:
    global _LAST
    if _LAST[0] is board:
        return _LAST[1]
    made = _OPTIONS.get(board)
    if made is None:
        made = _OPTIONS[board] = _Options()
    _LAST = (board, made)
    return made


def play_option(board: Board, card: Any) -> Option:
    """The option that plays ``card`` (the same object every time)."""
    cache = _options(board).play
    o = cache.get(card)
    if o is None:
        o = cache[card] = Option(f"play {card.name}", ("play", card))
    return o


def teleport_targets(game: Game, p: PlayerState) -> list[int]:
    """Adjacent spaces a teleport may reach now (HQ only with an artifact)."""
    if p.escaping:
        return []
    hq = game.board.hq
    return [s for s in game.board.adjacent[p.pos] if s != hq or p.artifact is not None]


def legal_actions(game: Game, p: PlayerState) -> list[Option]:
    """Every legal action for the active player ``p`` now."""
    board = game.board
    spaces = board.spaces
    here = spaces[p.pos]
    made = _options(board)
    out: list[Option] = []

    if p.hand:
        cache = made.play
        for card in dict.fromkeys(p.hand):
            o = cache.get(card)
            if o is None:
                o = play_option(board, card)
            out.append(o)

    tok = game.space_artifact[p.pos]
    if tok is not None and p.artifact is None:
        o = made.take.get(tok)
        if o is None:
            o = made.take[tok] = Option(f"take {tok.name}", ("artifact",))
        out.append(o)

    if p.tokens:
        cache = made.use
        for tok in dict.fromkeys(t for t in p.tokens if t.use):
            o = cache.get(tok)
            if o is None:
                o = cache[tok] = Option(f"use {tok.name}", ("use", tok))
            out.append(o)

    if not p.escaping:
        if p.boots and not p.exhausted:
            hq = board.hq
            cache = made.move
            for m in board.moves[p.pos]:
                if m.boots > p.boots or (m.to == hq and p.artifact is None):
                    continue
                if m.requires and not all(game.grants(p, r) for r in m.requires):
                    continue
                if not m.monsters:
                    o = cache.get(m)
                    if o is None:
                        o = cache[m] = Option(f"move to {spaces[m.to].name}", ("move", m, 0))
                    out.append(o)
                    continue
                for swords in range(min(p.swords, m.monsters), -1, -1):
                    hurt = m.monsters - swords
                    if hurt and not game.can_take_damage(p, hurt):
                        continue
                    o = cache.get((m, swords))
                    if o is None:
                        o = cache[(m, swords)] = Option(
                            f"move to {spaces[m.to].name} ({swords} swords, {hurt} damage)",
                            ("move", m, swords),
                        )
                    out.append(o)
        if here.coach is not None and p.boots >= 1:
            gold = game.gold_of(p)
            for s in board.coach_spaces:
                if s == p.pos or (s == board.hq and p.artifact is None):
                    continue
                if here.coach + spaces[s].coach <= gold:
                    o = made.coach.get(s)
                    if o is None:
                        o = made.coach[s] = Option(
                            f"hire a coach to {spaces[s].name}", ("coach", s)
                        )
                    out.append(o)

    row = dict.fromkeys(game.row)
    swords = p.swords
    if swords:
        cache = made.fight
        for card in row:
            if card.type == "monster" and card.fight <= swords and allowed_here(card, here):
                o = cache.get(card)
                if o is None:
                    o = cache[card] = Option(f"fight {card.name}", ("fight", card))
                out.append(o)
        cache = made.fight_reserve
        for card in game.reserve_monsters:
            if card.fight <= swords and allowed_here(card, here):
                o = cache.get(card)
                if o is None:
                    o = cache[card] = Option(
                        f"fight {card.name} (reserve)", ("fight reserve", card)
                    )
                out.append(o)

    cache = made.acquire
    skill = p.skill
    for card in row:
        if card.type == "acquire" and card.cost <= skill and allowed_here(card, here):
            o = cache.get(card)
            if o is None:
                o = cache[card] = Option(f"acquire {card.name}", ("acquire", card))
            out.append(o)
    cache = made.acquire_reserve
    for card, left in game.reserve.items():
        if left and card.cost <= skill and allowed_here(card, here):
            o = cache.get(card)
            if o is None:
                o = cache[card] = Option(
                    f"acquire {card.name} (reserve)", ("acquire reserve", card)
                )
            out.append(o)

    if "town" in here.features:
        price = game.rules["market_price"]
        if game.gold_of(p) >= price:
            held = {t.type for t in p.tokens if t.kind == "market"}
            for typ in dict.fromkeys(
                t.type for t, n in game.token_supply.items() if n and t.kind == "market"
            ):
                if typ not in held:
                    out.append(Option(f"buy {best_market_item(game, typ).name}", ("buy", typ)))

    if not p.hand:
        out.append(END)
    return out


def allowed_here(card: Any, here: Any) -> bool:
    """`only in FEATURE`: the card is fought or acquired only on a space with that feature."""
    return card.only_in is None or card.only_in.lower() in here.features


def best_market_item(game: Game, typ: str) -> Any:
    """The most valuable item of a market type still in stock (the best crown left)."""
    best = None
    for t, n in game.token_supply.items():
        if n and t.kind == "market" and t.type == typ and (best is None or t.points > best.points):
            best = t
    return best


def apply_action(game: Game, p: PlayerState, value: tuple[Any, ...]) -> None:
    """Do one legal action for ``p``."""
    kind = value[0]
    if kind == "play":
        game.play_card(p, value[1])
    elif kind == "move":
        _, m, swords = value
        p.boots -= m.boots
        p.swords -= swords
        hurt = m.monsters - swords
        if hurt:
            game.take_damage(p, hurt)
        if p.on_clock:
            if game.stats is not None:
                game.stats.on_move(game, p, p.pos, m.to)
            game.enter(p, m.to)
    elif kind == "acquire" or kind == "acquire reserve":
        card = value[1]
        p.skill -= card.cost
        if game.stats is not None:
            game.stats.on_acquire(game, p, card)
        if kind == "acquire":
            game.row.remove(card)
        else:
            game.reserve[card] -= 1
        ctx = Ctx(p, card)
        game.run_triggers(ctx, card.acquire)
        if card.use:
            # A device is used as it is acquired and goes to the adventure discard.
            game.run_triggers(ctx, card.use)
            game.adventure_discard.append(card)
        else:
            p.discard.append(card)
    elif kind == "fight" or kind == "fight reserve":
        card = value[1]
        p.swords -= card.fight
        if game.stats is not None:
            game.stats.on_defeat(game, p, card)
        if kind == "fight":
            game.row.remove(card)
            game.adventure_discard.append(card)
        game.run_triggers(Ctx(p, card), card.defeat)
    elif kind == "artifact":
        p.artifact = game.space_artifact[p.pos]
        game.space_artifact[p.pos] = None
        game.advance_rage(1)
    elif kind == "use":
        tok = value[1]
        p.tokens.remove(tok)
        game.box.append(tok)
        game.run_triggers(Ctx(p, tok), tok.use)
    elif kind == "buy":
        tok = best_market_item(game, value[1])
        game.spend(p, "gold", game.rules["market_price"])
        game.token_supply[tok] -= 1
        p.tokens.append(tok)
    elif kind == "coach":
        dest = value[1]
        spaces = game.board.spaces
        p.boots -= 1
        game.spend(p, "gold", spaces[p.pos].coach + spaces[dest].coach)
        game.enter(p, dest)
    else:
        raise ValueError(f"unknown action {value!r}")
