"""The actions of a turn as records: which are legal now, doing one, its label, its worth.

Each kind of action is one `ActionKind` record (`PLAY`, `TAKE`, `USE`, `ACT`, `MOVE`, `COACH`,
`FIGHT`, `FIGHT_RESERVE`, `ACQUIRE`, `ACQUIRE_RESERVE`, `BUY`, `END`, in `ACTION_KINDS`) holding
everything about it: ``legal`` (its options now), ``apply``, ``label``, ``narrate`` (the replay's
sentence), ``script`` (which labels a scenario step names) and ``appraise`` (a bot's estimate,
against the `Valuer` protocol of the op registry). An option's value is a tuple whose first
item is its record, so the engine, the bots, scenarios and the narrator ask the record and
never match action names.

Options come in the records' order and, inside each kind, in hand, row, reserve or board
order, so the same position always gives the same option list: the log of a seeded game
replays exactly.
"""

from __future__ import annotations

import weakref
from typing import Any

from .board import TUNNEL, Board, Move, Space
from .decisions import Option
from .effects.entry_toll import toll_open
from .effects.registry import Valuer
from .effects.turn_modifiers import ignores_monsters, largest_discount, price
from .effects.where import has_feature
from .state import Ctx, PlayerState
from .state import GameCore as Game
from .statuses import forbids


class ActionKind:
    """One kind of action. Subclasses override what applies to them; ``verb`` is the word a
    scenario step starts with (`move`, `acquire`...)."""

    name = ""
    verb = ""
    doc = ""

    def present(self, game: Game) -> bool:
        """Whether the kind can ever be legal on this board with this pack (`legal_actions`
        skips a kind that cannot; used for the kinds rarely legal)."""
        return True

    def legal(
        self, game: Game, p: PlayerState, here: Space, cache: dict[Any, Option], out: list[Option]
    ) -> None:
        """Append this kind's legal options for ``p`` now (cached Option objects)."""
        raise NotImplementedError

    def label(self, game: Game, value: tuple[Any, ...]) -> str:
        """The label of the option with that value (what the log and scenarios read)."""
        raise NotImplementedError

    def offer(self, game: Game, key: Any, cache: dict[Any, Option], out: list[Option]) -> None:
        """Append the option of value ``(self, key)`` (a card, a token), labelled by `label`:
        made the first time and kept in ``cache``."""
        o = cache.get(key)
        if o is None:
            value = (self, key)
            o = cache[key] = Option(self.label(game, value), value)
        out.append(o)

    def apply(self, game: Game, p: PlayerState, value: tuple[Any, ...]) -> None:
        """Do the action (a legal one)."""
        raise NotImplementedError

    def narrate(self, game: Game, p: PlayerState, value: tuple[Any, ...]) -> str:
        """The replay's sentence for the action, said before it is done ("acquires X")."""
        return self.label(game, value)

    def lands(self, value: tuple[Any, ...]) -> int | None:
        """The space the action takes the player to, when it moves them."""
        return None

    def forbidden(self, game: Game, p: PlayerState, value: tuple[Any, ...]) -> bool:
        """Whether a status of ``p`` forbids the option (`cannot move`, `cannot use boots`):
        asked only of a player with statuses; a forbidden option is not listed."""
        return False

    def script(self, step: dict[str, Any]) -> tuple[tuple[str, ...], bool]:
        """Labels a scenario step of this kind's verb names, in order of preference, and
        whether a label may merely start with one."""
        return ((f"{self.verb} {step.get('arg')}",), False)

    def appraise(self, value: tuple[Any, ...], v: Valuer) -> float:
        """What taking the option is worth to its player, in points (see `Valuer`). Every
        kind answers (tests/interpreter/test_registry.py fails on one that does not)."""
        raise NotImplementedError(f"action kind {self.name!r} has no bot appraisal")

    def __repr__(self) -> str:
        return f"<action {self.name}>"


def _price(game: Game, card: Any) -> int:
    # A card's cost in Skill, less this turn's discounts (effects/turn_modifiers.py).
    return price(game, card) if game.turn_modifiers else card.cost


def _triggers_worth(triggers: Any, v: Valuer) -> float:
    return sum(v.effects(eff) * (1.0 if cond is None else v.chance(cond)) for cond, eff in triggers)


class _Play(ActionKind):
    name, verb = "play", "play"
    doc = "Play a card from the hand: its `play:` lines run."

    def legal(self, game, p, here, cache, out):
        # A second copy in the hand is listed once; a list tests a hand's few cards faster
        # than a dict of them is built.
        seen: list[Any] = []
        for card in p.hand:
            if card in seen:
                continue
            seen.append(card)
            self.offer(game, card, cache, out)

    def label(self, game, value):
        return f"play {value[1].name}"

    def apply(self, game, p, value):
        game.play_card(p, value[1])

    def narrate(self, game, p, value):
        return f"plays {value[1].name}"

    def appraise(self, value, v):
        return _triggers_worth(value[1].play, v)


class _Take(ActionKind):
    name, verb = "take artifact", "take artifact"
    doc = (
        "Take the artifact on the player's space; rage +1. A player carries one artifact, and "
        "one more for each held token that grants `artifact slot` (the extra ones are held "
        "with the tokens and score as tokens)."
    )

    def legal(self, game, p, here, cache, out):
        tok = game.space_artifact[p.pos]
        if tok is not None and (p.artifact is None or game.artifact_room(p)):
            self.offer(game, tok, cache, out)

    def label(self, game, value):
        return f"take {value[1].name}"

    def apply(self, game, p, value):
        tok = game.space_artifact[p.pos]
        if p.artifact is None:
            p.artifact = tok
        else:
            p.tokens.append(tok)  # carried in an extra slot
        game.space_artifact[p.pos] = None
        game.advance_rage(1)

    def narrate(self, game, p, value):
        tok = value[1]
        return f"takes the artifact {tok.name} ({tok.points} points)"

    def script(self, step):
        return (("take ",), True)

    def appraise(self, value, v):
        return value[1].points * v.unit("points") + v.unit("rage")


class _Use(ActionKind):
    name, verb = "use", "use"
    doc = "Use a held token with `use:` lines; it goes back to the box."

    def legal(self, game, p, here, cache, out):
        seen: list[Any] = []
        for tok in p.tokens:
            if not tok.use or tok in seen:
                continue
            seen.append(tok)
            self.offer(game, tok, cache, out)

    def label(self, game, value):
        return f"use {value[1].name}"

    def apply(self, game, p, value):
        tok = value[1]
        p.tokens.remove(tok)
        game.box.append(tok)
        game.run_triggers(Ctx(p, tok), tok.use)

    def narrate(self, game, p, value):
        return f"uses {value[1].name}"

    def appraise(self, value, v):
        tok = value[1]
        return _triggers_worth(tok.use, v) - tok.points * v.unit("points")


class _Act(ActionKind):
    """A pack's `action` line on the player's space or on a token they hold."""

    name, verb = "act", "act"
    doc = (
        "Take an action the pack declares on the player's space or a token they hold "
        "(`action [NAME] [once per turn|once per game]: PRICE -> EFFECTS`)."
    )

    def present(self, game):
        return bool(game.board.action_spaces) or any(t.actions for t in game.catalog.tokens)

    def legal(self, game, p, here, cache, out):
        if here.actions:
            for a in here.actions:
                if a.open_to(game, p, here):
                    o = cache.get(a)
                    if o is None:
                        o = cache[a] = Option(a.label, (self, a, here))
                    out.append(o)
        if p.tokens:
            for tok in dict.fromkeys(t for t in p.tokens if t.actions):
                for a in tok.actions:
                    if a.open_to(game, p, tok):
                        o = cache.get(a)
                        if o is None:
                            o = cache[a] = Option(a.label, (self, a, tok))
                        out.append(o)

    def label(self, game, value):
        return value[1].label

    def apply(self, game, p, value):
        value[1].take(game, p, value[2])

    def narrate(self, game, p, value):
        a = value[1]
        return f"takes the action {a.label}" if a.name else f"acts {a.label[4:]}"

    def script(self, step):
        arg = step.get("arg")
        return ((f"{arg} at ", f"{arg} with ", f"{arg}"), True)

    def appraise(self, value, v):
        a = value[1]
        return v.effects(list(a.cost)) + v.effects(list(a.effects))


class _Move(ActionKind):
    name, verb = "move", "move"
    doc = (
        "Move along a path: pay its cost in its way's resource (boots for a tunnel), meet "
        "its requirements, and take a damage for each monster icon not paid with a sword."
    )

    def legal(self, game, p, here, cache, out):
        if p.escaping:
            return
        board = game.board
        walk = p.boots and not p.exhausted
        if not walk and board.plain:
            return
        hq = board.hq
        tolled = board.tolled
        for m in board.moves[p.pos]:
            if m.plain:
                if not walk or m.boots > p.boots:
                    continue
            elif not can_take(game, p, m):
                continue
            if m.to == hq and p.artifact is None:
                continue
            if m.requires and not all(game.grants(p, r) for r in m.requires):
                continue
            toll = tolled and m.to in tolled
            if not m.monsters or (game.turn_modifiers and ignores_monsters(game)):
                # The toll is owed on arrival, after the path is paid.
                if toll and not _toll_open_after(game, p, m, 0, 0):
                    continue
                o = cache.get(m)
                if o is None:
                    o = cache[m] = Option(self.label(game, (self, m, 0)), (self, m, 0))
                out.append(o)
                continue
            for swords in range(min(p.swords, m.monsters), -1, -1):
                hurt = m.monsters - swords
                if hurt and not game.can_take_damage(p, hurt):
                    continue
                if toll and not _toll_open_after(game, p, m, swords, hurt):
                    continue
                o = cache.get((m, swords))
                if o is None:
                    o = cache[(m, swords)] = Option(
                        self.label(game, (self, m, swords)), (self, m, swords)
                    )
                out.append(o)

    def label(self, game, value):
        _, m, swords = value
        name = game.board.spaces[m.to].name
        # A path of a declared way says so ("by ladder"): a tunnel and a ladder may join the
        # same two spaces.
        way = "" if m.way is TUNNEL else f" by {m.way.name}"
        if not m.monsters:
            return f"move to {name}{way}"
        return f"move to {name} ({swords} swords, {m.monsters - swords} damage){way}"

    def apply(self, game, p, value):
        _, m, swords = value
        if m.plain:
            p.boots -= m.boots
        else:
            game.spend(p, m.way.paid_in, m.boots)
        p.swords -= swords
        hurt = m.monsters - swords
        if hurt and not (game.turn_modifiers and ignores_monsters(game)):
            game.take_damage(p, hurt)
        if p.on_clock:
            if game.stats is not None:
                game.stats.on_move(game, p, p.pos, m.to, m.way.name)
            if m.way.exhausts:
                p.exhausted = True
            game.emit("move", p)  # along the path, from the space it leaves
            on_path = game.board.path_on.get(m.path)
            if on_path:
                ctx = Ctx(p, None)
                for hook in on_path:
                    game.fire(hook, ctx)
            p.crossed = m.path
            if game.path_tokens and m.path in game.path_tokens:
                game.cross(p, m.path)
            game.enter(p, m.to)

    def narrate(self, game, p, value):
        _, m, swords = value
        hurt = 0 if game.turn_modifiers and ignores_monsters(game) else m.monsters - swords
        unit = m.way.paid_in
        if unit == "boots":
            unit = "boot" if m.boots == 1 else "boots"
        how = [f"{m.boots} {unit}"] + ([f"{swords} swords"] if swords else [])
        how += [f"{hurt} damage"] if hurt else []
        return f"moves to {game.board.spaces[m.to].name} ({', '.join(how)})"

    def lands(self, value):
        return value[1].to

    def forbidden(self, game, p, value):
        _, m, swords = value
        return (
            forbids(p, "move")
            or (m.boots > 0 and forbids(p, "use", m.way.paid_in))
            or (swords > 0 and forbids(p, "use", "swords"))
        )

    def script(self, step):
        arg = step.get("arg")
        if "swords" in step:
            return ((f"move to {arg} ({step['swords']} swords",), True)
        return ((f"move to {arg}", f"move to {arg} ("), True)

    def appraise(self, value, v):
        _, m, swords = value
        return -(
            m.boots * v.unit(m.way.paid_in)
            + swords * v.unit("swords")
            + (m.monsters - swords) * v.unit("damage")
        )


def can_take(game: Game, p: PlayerState, m: Move) -> bool:
    """Whether ``p`` can pay for ``m`` and may take its way now (exhaustion included); the
    requirements and the HQ rule are checked by the caller."""
    way = m.way
    if p.exhausted and not way.while_exhausted:
        return False
    if way.blocked_by and _blocked(game, way, p.pos, m.to):
        return False
    return game.can_spend(p, way.paid_in, m.boots)


def _blocked(game: Game, way: Any, a: int, b: int) -> bool:
    """Whether a token that closes ``way`` lies on space ``a`` or ``b``."""
    tokens = game.space_tokens
    return any(w in t.match for w in way.blocked_by for t in (*tokens[a], *tokens[b]))


class _Coach(ActionKind):
    name, verb = "coach", "coach"
    doc = "Hire a coach: 1 boot and both spaces' fares in gold, to another coach space."

    def present(self, game):
        return bool(game.board.coach_spaces)

    def legal(self, game, p, here, cache, out):
        if p.escaping or here.coach is None or p.boots < 1:
            return
        board = game.board
        spaces = board.spaces
        gold = game.gold_of(p)
        for s in board.coach_spaces:
            if s == p.pos or (s == board.hq and p.artifact is None):
                continue
            fare = here.coach + spaces[s].coach
            if fare <= gold:
                o = cache.get((p.pos, s))
                if o is None:
                    o = cache[(p.pos, s)] = Option(
                        f"hire a coach to {spaces[s].name}", (self, s, fare)
                    )
                out.append(o)

    def label(self, game, value):
        return f"hire a coach to {game.board.spaces[value[1]].name}"

    def apply(self, game, p, value):
        dest = value[1]
        spaces = game.board.spaces
        p.boots -= 1
        game.spend(p, "gold", spaces[p.pos].coach + spaces[dest].coach)
        game.enter(p, dest)
        game.emit("coach", p)

    def narrate(self, game, p, value):
        return f"hires a coach to {game.board.spaces[value[1]].name}"

    def lands(self, value):
        return value[1]

    def forbidden(self, game, p, value):
        return forbids(p, "move") or forbids(p, "use", "boots") or forbids(p, "use", "gold")

    def script(self, step):
        return ((f"hire a coach to {step.get('arg')}",), False)

    def appraise(self, value, v):
        return -(v.unit("boots") + value[2] * v.unit("gold"))


class _RowOrReserve(ActionKind):
    """An action on a card of the dungeon row or (``reserve``) of a reserve; its options are
    labelled "<verb> <card>", with " (reserve)" after a reserve card."""

    row_doc = reserve_doc = ""

    def __init__(self, reserve: bool) -> None:
        self.reserve = reserve
        self.name = f"{self.verb} reserve" if reserve else self.verb
        self.doc = self.reserve_doc if reserve else self.row_doc

    def label(self, game, value):
        return f"{self.verb} {value[1].name}" + (" (reserve)" if self.reserve else "")

    def script(self, step):
        arg = step.get("arg")
        # A step names the card; the row's copy is preferred over the reserve's.
        return ((f"{self.verb} {arg}", f"{self.verb} {arg} (reserve)"), False)


class _Fight(_RowOrReserve):
    """Defeat a monster of the row (``reserve``: a reserve monster, which stays)."""

    verb = "fight"
    row_doc = "Defeat a monster of the dungeon row with swords; it goes to the discard pile."
    reserve_doc = "Defeat a reserve monster (it stays in the reserve) with swords."

    def legal(self, game, p, here, cache, out):
        swords = p.swords
        if not swords:
            return
        if self.reserve:
            for card in game.reserve_monsters:
                if card.fight <= swords and allowed_here(card, here):
                    self.offer(game, card, cache, out)
            return
        row = game.row
        for k, card in enumerate(row):
            if card.type == "monster" and card.fight <= swords and allowed_here(card, here):
                if row.index(card) != k:
                    continue  # a second copy in the row: listed once
                self.offer(game, card, cache, out)

    def apply(self, game, p, value):
        card = value[1]
        p.swords -= card.fight
        if game.stats is not None:
            game.stats.on_defeat(game, p, card)
        if not self.reserve:
            game.row.remove(card)
            game.adventure_discard.append(card)
        game.run_triggers(Ctx(p, card), card.defeat)
        game.emit("defeat", p)

    def narrate(self, game, p, value):
        card = value[1]
        return f"defeats {card.name} ({card.fight} swords)"

    def forbidden(self, game, p, value):
        return forbids(p, "fight") or (value[1].fight > 0 and forbids(p, "use", "swords"))

    def appraise(self, value, v):
        card = value[1]
        return _triggers_worth(card.defeat, v) - card.fight * v.unit("swords")


class _Acquire(_RowOrReserve):
    """Acquire a card of the row (``reserve``: from a reserve pile) with skill."""

    verb = "acquire"
    row_doc = "Acquire a card of the dungeon row with skill; a device is used at once."
    reserve_doc = "Acquire a card from a reserve pile with skill."

    def legal(self, game, p, here, cache, out):
        skill = p.skill
        mods = game.turn_modifiers  # a discount this turn lowers prices (turn_modifiers.py)
        if self.reserve:
            for card, left in game.reserve.items():
                if (
                    left
                    and (price(game, card) if mods else card.cost) <= skill
                    and allowed_here(card, here)
                ):
                    self.offer(game, card, cache, out)
            return
        seen: list[Any] = []  # a second copy in the row is listed once, at the first
        for card in game.row:
            if (
                card.type == "acquire"
                and (price(game, card) if mods else card.cost) <= skill
                and (card.only_in is None and card.not_in is None or allowed_here(card, here))
            ):
                if card in seen:
                    continue
                seen.append(card)
                self.offer(game, card, cache, out)

    def apply(self, game, p, value):
        card = value[1]
        p.skill -= _price(game, card)
        if game.stats is not None:
            game.stats.on_acquire(game, p, card)
        if self.reserve:
            game.reserve[card] -= 1
        else:
            game.row.remove(card)
        ctx = Ctx(p, card)
        game.run_triggers(ctx, card.acquire)
        if card.use:
            # A device is used as it is acquired and goes to the adventure discard.
            game.run_triggers(ctx, card.use)
            game.adventure_discard.append(card)
        else:
            p.discard.append(card)
        game.emit("acquire", p)

    def narrate(self, game, p, value):
        card = value[1]
        where = " from the reserve" if self.reserve else ""
        return f"acquires {card.name}{where} ({_price(game, card)} skill)"

    def forbidden(self, game, p, value):
        return forbids(p, "acquire") or (_price(game, value[1]) > 0 and forbids(p, "use", "skill"))

    def appraise(self, value, v):
        card = value[1]
        return (
            card.points * v.unit("points")
            + _triggers_worth(card.acquire, v)
            + _triggers_worth(card.use, v)
            - card.cost * v.unit("skill")
        )


class _Buy(ActionKind):
    name, verb = "buy", "buy"
    doc = "Buy a market item in a town: the best one left of a type the player lacks."

    def present(self, game):
        return game.board.towns

    def legal(self, game, p, here, cache, out):
        if "town" not in here.features:
            return
        price = game.rules["market_price"]
        if game.gold_of(p) < price:
            return
        held = {t.type for t in p.tokens if t.kind == "market"}
        for typ in dict.fromkeys(
            t.type for t, n in game.token_supply.items() if n and t.kind == "market"
        ):
            if typ not in held:
                best = best_market_item(game, typ)
                out.append(Option(f"buy {best.name}", (self, typ, best, price)))

    def label(self, game, value):
        return f"buy {best_market_item(game, value[1]).name}"

    def apply(self, game, p, value):
        tok = best_market_item(game, value[1])
        game.spend(p, "gold", game.rules["market_price"])
        game.token_supply[tok] -= 1
        game.reveal(p, tok)  # held, counted, and its `on reveal:` lines run (heal on buying)
        game.emit("buy", p)

    def narrate(self, game, p, value):
        return f"buys {best_market_item(game, value[1]).name}"

    def forbidden(self, game, p, value):
        return forbids(p, "buy") or forbids(p, "use", "gold")

    def appraise(self, value, v):
        return value[2].points * v.unit("points") - value[3] * v.unit("gold")


class _End(ActionKind):
    name, verb = "end turn", "end turn"
    doc = "End the turn (only once every card of the hand is played)."

    def legal(self, game, p, here, cache, out):
        if not p.hand:
            out.append(END)

    def label(self, game, value):
        return "end turn"

    def apply(self, game, p, value):
        pass  # the engine ends the turn: see Game.step

    def narrate(self, game, p, value):
        return "ends the turn"

    def script(self, step):
        return (("end turn",), False)

    def appraise(self, value, v):
        return 0.0  # what ending gives is the next turn's hand, which no option here changes


PLAY = _Play()
TAKE = _Take()
USE = _Use()
ACT = _Act()
MOVE = _Move()
COACH = _Coach()
FIGHT = _Fight(reserve=False)
FIGHT_RESERVE = _Fight(reserve=True)
ACQUIRE = _Acquire(reserve=False)
ACQUIRE_RESERVE = _Acquire(reserve=True)
BUY = _Buy()
END_TURN = _End()

# Every kind, in the order their options are listed.
ACTION_KINDS: tuple[ActionKind, ...] = (
    PLAY,
    TAKE,
    USE,
    ACT,
    MOVE,
    COACH,
    FIGHT,
    FIGHT_RESERVE,
    ACQUIRE,
    ACQUIRE_RESERVE,
    BUY,
    END_TURN,
)

END = Option("end turn", (END_TURN,))


class _Listing:
    """For one board and its pack: each kind's cache of options, and which of the kinds that
    are rarely legal can be legal here at all. An option is immutable, so each is made once
    and reused by every later list (the hot loop)."""

    __slots__ = (
        "catalog",
        "caches",
        "least_cost",
        "least_reserve_cost",
        "act",
        "coach",
        "buy",
        "c_play",
        "c_take",
        "c_use",
        "c_act",
        "c_move",
        "c_coach",
        "c_fight",
        "c_fight_reserve",
        "c_acquire",
        "c_acquire_reserve",
        "c_buy",
    )

    def __init__(self, game: Game) -> None:
        # The pack it was made for: a variant of a pack (simulate's --without, --give,
        # --sweep) plays on the same board with other cards, so it has a listing of its own.
        self.catalog = game.catalog
        self.caches: dict[ActionKind, dict[Any, Option]] = {k: {} for k in ACTION_KINDS}
        # The least skill any card of the row or of a reserve pile can cost: below it,
        # neither acquiring kind is asked.
        cards = game.catalog.cards
        buy = [c for c in cards if c.type == "acquire"]
        self.least_cost = min((c.cost for c in buy if c.deck == "adventure"), default=0)
        self.least_reserve_cost = min((c.cost for c in buy if c.deck == "reserve"), default=0)
        # The same caches as attributes: the hot loop reads an attribute faster than a key.
        c = self.caches
        self.c_play, self.c_take, self.c_use, self.c_act = c[PLAY], c[TAKE], c[USE], c[ACT]
        self.c_move, self.c_coach, self.c_fight = c[MOVE], c[COACH], c[FIGHT]
        self.c_fight_reserve, self.c_acquire = c[FIGHT_RESERVE], c[ACQUIRE]
        self.c_acquire_reserve, self.c_buy = c[ACQUIRE_RESERVE], c[BUY]
        # Kinds the board (and the pack's tokens) can never offer; the others' guards are
        # cheap enough to ask every time (a scenario may place an artifact anywhere).
        self.act = ACT.present(game)
        self.coach = COACH.present(game)
        self.buy = BUY.present(game)


# Listings by board, then by the id of the pack they were made for (the listing keeps its
# pack, so the id is never another pack's while the entry lives).
_LISTINGS: weakref.WeakKeyDictionary[Board, dict[int, _Listing]] = weakref.WeakKeyDictionary()

# The last board and pack asked for, and their listing: most calls in a row are for them.
_LAST: tuple[Board | None, Any, _Listing | None] = (None, None, None)


def _listing(game: Game) -> _Listing:
    global _LAST
    board, catalog = game.board, game.catalog
    if _LAST[0] is board and _LAST[1] is catalog:
        return _LAST[2]  # type: ignore[return-value]
    per_pack = _LISTINGS.get(board)
    if per_pack is None:
        per_pack = _LISTINGS[board] = {}
    made = per_pack.get(id(catalog))
    if made is None or made.catalog is not catalog:
        made = per_pack[id(catalog)] = _Listing(game)
    _LAST = (board, catalog, made)
    return made


def play_option(game: Game, card: Any) -> Option:
    """The option that plays ``card`` (the same object every time)."""
    cache = _listing(game).caches[PLAY]
    o = cache.get(card)
    if o is None:
        o = cache[card] = Option(f"play {card.name}", (PLAY, card))
    return o


def teleport_targets(game: Game, p: PlayerState) -> list[int]:
    """Adjacent spaces a teleport may reach now (HQ only with an artifact)."""
    if p.escaping:
        return []
    board = game.board
    hq, tolled, needs = board.hq, board.tolled, board.entry_requires
    return [
        s
        for s in board.adjacent[p.pos]
        if (s != hq or p.artifact is not None)
        and not (tolled and s in tolled and not toll_open(game, p, s))
        and not (needs and s in needs and not all(game.grants(p, r) for r in needs[s]))
    ]


def legal_actions(
    game: Game, p: PlayerState, groups: dict[ActionKind, range] | None = None
) -> list[Option]:
    """Every legal action for the active player ``p`` now: each kind's options, in the order
    of `ACTION_KINDS`. Given ``groups``, it is filled with the indexes of each kind's options
    (a range: a kind's options are listed together); a kind with none is left out.

    This is the engine's hottest function, so the guard each kind's ``legal`` starts with is
    repeated here where it is cheap (a kind with nothing to offer is not asked), and kinds a
    board can never offer are skipped; the options are exactly those of asking every record.
    A new kind is added to `ACTION_KINDS` and here."""
    board = game.board
    here = board.spaces[p.pos]
    last = _LAST
    made: _Listing = (
        last[2] if last[0] is board and last[1] is game.catalog else _listing(game)  # type: ignore[assignment]
    )
    out: list[Option] = []
    if groups is None:
        groups = {}
    n = 0  # the options listed so far
    if p.hand:
        n = _ask(PLAY, game, p, here, made.c_play, out, groups, n)
    if game.space_artifact[p.pos] is not None:
        n = _ask(TAKE, game, p, here, made.c_take, out, groups, n)
    if p.tokens:
        n = _ask(USE, game, p, here, made.c_use, out, groups, n)
    if made.act:
        n = _ask(ACT, game, p, here, made.c_act, out, groups, n)
    if not p.escaping:
        if (p.boots and not p.exhausted) or not board.plain:
            n = _ask(MOVE, game, p, here, made.c_move, out, groups, n)
        if made.coach and here.coach is not None:
            n = _ask(COACH, game, p, here, made.c_coach, out, groups, n)
    if p.swords:
        n = _ask(FIGHT, game, p, here, made.c_fight, out, groups, n)
        if game.reserve_monsters:
            n = _ask(FIGHT_RESERVE, game, p, here, made.c_fight_reserve, out, groups, n)
    skill = p.skill
    if game.turn_modifiers:
        skill += largest_discount(game)  # a discount this turn may bring a card in reach
    if skill >= made.least_cost:
        n = _ask(ACQUIRE, game, p, here, made.c_acquire, out, groups, n)
    if skill >= made.least_reserve_cost:
        n = _ask(ACQUIRE_RESERVE, game, p, here, made.c_acquire_reserve, out, groups, n)
    if made.buy and "town" in here.features:
        n = _ask(BUY, game, p, here, made.c_buy, out, groups, n)
    if not p.hand:
        out.append(END)
        groups[END_TURN] = range(n, n + 1)
    return out


def _ask(
    kind: ActionKind,
    game: Game,
    p: PlayerState,
    here: Space,
    cache: dict[Any, Option],
    out: list[Option],
    groups: dict[ActionKind, range],
    n: int,
) -> int:
    """Append ``kind``'s options to ``out`` and note their indexes in ``groups``; how many
    options are listed now."""
    kind.legal(game, p, here, cache, out)
    if p.statuses:
        _drop_forbidden(game, p, out, n)
    k = len(out)
    if k > n:
        groups[kind] = range(n, k)
    return k


def kinds_legal(game: Game, p: PlayerState) -> list[Option]:
    """The same options as `legal_actions`, by asking every record in turn (the reference
    the fast function is tested against)."""
    here = game.board.spaces[p.pos]
    caches = _listing(game).caches
    out: list[Option] = []
    for kind in ACTION_KINDS:
        n = len(out)
        kind.legal(game, p, here, caches[kind], out)
        if p.statuses:
            _drop_forbidden(game, p, out, n)
    return out


def _drop_forbidden(game: Game, p: PlayerState, out: list[Option], n: int) -> None:
    """Take out of ``out[n:]`` the options a status of ``p`` forbids."""
    kept = [o for o in out[n:] if not o.value[0].forbidden(game, p, o.value)]
    if len(kept) != len(out) - n:
        del out[n:]
        out.extend(kept)


def allowed_here(card: Any, here: Any) -> bool:
    """`only in FEATURE`: the card is fought or acquired only on a space with that feature;
    `not in FEATURE`: never on one."""
    return (card.only_in is None or has_feature(here.features, card.only_in)) and (
        card.not_in is None or not has_feature(here.features, card.not_in)
    )


def best_market_item(game: Game, typ: str) -> Any:
    """The most valuable item of a market type still in stock (the best crown left)."""
    best = None
    for t, n in game.token_supply.items():
        if n and t.kind == "market" and t.type == typ and (best is None or t.points > best.points):
            best = t
    return best


def apply_action(game: Game, p: PlayerState, value: tuple[Any, ...]) -> None:
    """Do one legal action for ``p``."""
    value[0].apply(game, p, value)


def kind_of(option: Option) -> ActionKind | None:
    """The record of an action option (None for an effect decision's option)."""
    value = option.value
    if isinstance(value, tuple) and value and isinstance(value[0], ActionKind):
        return value[0]
    return None


def _toll_open_after(game: Game, p: PlayerState, m: Move, swords: int, hurt: int) -> bool:
    """Whether ``p`` could pay the entry tolls of ``m.to`` once the path there is paid: its
    Boots (or the way's resource), ``swords`` on its monster icons and ``hurt`` damage.

    The toll is owed on arrival, so what the path took cannot pay it (a player whose last Boot
    paid for the tunnel cannot also pay a Boot to enter). The player pays for the path for the
    question and everything paying touches is put back as it was (a copy of the game, asked
    instead, made the Vault's move listing 20-30 % slower); the damage is counted as cubes
    moved, without the events taking it would set off."""
    if not (m.boots or swords or hurt):
        return toll_open(game, p, m.to)
    box = game.box
    saved = (p.gold, list(p.tokens), len(box), p.supply, p.area, p.damage)
    spent = (p.skill, p.swords, p.boots, dict(p.pools))
    try:
        if m.boots:
            game.spend(p, m.way.paid_in, m.boots)
        p.swords -= swords
        k = min(hurt, p.supply)
        p.supply -= k
        p.damage += k
        return toll_open(game, p, m.to)
    finally:
        p.gold, p.tokens[:], n, p.supply, p.area, p.damage = saved
        p.skill, p.swords, p.boots, pools = spent
        del box[n:]
        p.pools.clear()
        p.pools.update(pools)
