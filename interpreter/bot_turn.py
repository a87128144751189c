"""The heuristic bot's action decisions: the cascade from playing cards to ending the
turn, and the picks of a use, a fight, an acquisition and a purchase."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import (
    ACQUIRE,
    ACQUIRE_RESERVE,
    ACT,
    BUY,
    COACH,
    END_TURN,
    FIGHT,
    FIGHT_RESERVE,
    MOVE,
    PLAY,
    TAKE,
    USE,
    best_market_item,
)
from .bot_routes import (
    _groups,
)
from .bot_values import (
    _GAINS,
    _reading_of,
    _third,
    best_untaught,
)
from .catalog import CardDef
from .decisions import Option

# The action kinds the cascade below has a rule for; any other is taken by its appraisal.
_TAUGHT = frozenset(
    (
        PLAY,
        USE,
        ACT,
        TAKE,
        BUY,
        COACH,
        FIGHT,
        FIGHT_RESERVE,
        MOVE,
        ACQUIRE,
        ACQUIRE_RESERVE,
        END_TURN,
    )
)


class _Turn:
    """Part of `HeuristicBot`: answers action decisions, one kind of option after the other."""

    __slots__ = ()

    def _action(self, game: Any, p: Any, opts: Sequence[Option], detail: Any = None) -> int:
        """The option the cascade comes to: what adds to the turn first (`_pick_gain`), then
        what the space offers (`_pick_here`), then spending swords, boots and skill
        (`_pick_spend`); a card that waited for a space, else the end of the turn."""
        if len(opts) == 1 and opts[0][1][0] is END_TURN:
            # Nothing to do but end the turn (what the cascade below comes to for it).
            if p.artifact is not None and self.target != game.board.hq:
                self._replan(game, p)
            return 0
        if self.info.dynamic:
            self._refresh_routes(game, p)
        # The engine's grouping of an action decision's options, else worked out here.
        groups = detail if type(detail) is dict else _groups(opts)
        i = self._pick_gain(game, p, opts, groups)
        if i is None:
            i = self._pick_here(game, p, opts, groups)
            if i is None:
                i = self._pick_spend(game, p, opts, groups)
        if i is not None:
            return i
        plays = groups.get(PLAY)
        if plays:
            return plays[0]  # a card that waited for a space, now that the walking is done
        return groups[END_TURN][0] if END_TURN in groups else 0

    def _pick_gain(
        self, game: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int | None:
        """What adds to the turn before anything is spent: a card to play (`_choose_play`),
        a token worth using, an action worth taking, or an option of a kind the cascade has
        no rule for, by its appraisal."""
        plays = groups.get(PLAY)
        if plays:
            card = self._choose_play(game, p)
            if card is not None:
                for i in plays:
                    if opts[i][1][1] is card:
                        return i

        if USE in groups:
            i = self._pick_use(game, p, opts, groups[USE])
            if i is not None:
                return i

        if ACT in groups:
            i = self._pick_act(opts, groups[ACT])
            if i is not None:
                return i

        if not _TAUGHT.issuperset(groups):  # a kind with no rule here (no set made)
            return best_untaught(opts, groups, _TAUGHT, self)
        return None

    def _pick_act(self, opts: Sequence[Option], acts: Sequence[int]) -> int | None:
        """The first action its appraisal finds worth taking; taking it ends an errand (done
        or not), so the bot plans again at the next decision."""
        for i in acts:
            if ACT.appraise(opts[i][1], self) > 0:
                if self._errand_on:
                    self._turn = -1
                return i
        return None

    def _pick_here(
        self, game: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int | None:
        """What the space offers: the artifact aimed at (looking again on arriving at
        another), a market item worth buying, the coach ride planned. A player holding an
        artifact heads home (planned again if its target is elsewhere)."""
        if TAKE in groups:
            if self.target != p.pos and self._looked != (game.turn, p.pos):
                # Arrived on another artifact: is this one the best now?
                self._looked = (game.turn, p.pos)
                self._choose_target(game, p)
            if self.target == p.pos:
                return groups[TAKE][0]
        if p.artifact is not None and self.target != game.board.hq:
            self._replan(game, p)

        if BUY in groups:
            i = self._pick_buy(game, p, opts, groups[BUY])
            if i is not None:
                return i

        if COACH in groups and self._goal(game, p) is not None and self.coach_to is not None:
            for i in groups[COACH]:
                if opts[i][1][1] == self.coach_to:
                    self.coach_to = self.waypoint = None
                    return i
        return None

    def _pick_spend(
        self, game: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int | None:
        """Spending the turn: a fight worth its swords beyond those the route ahead needs,
        a move, then a fight with any sword, then the cards to acquire (`_pick_acquire`)."""
        fights = groups.get(FIGHT)
        if FIGHT_RESERVE in groups:
            more = groups[FIGHT_RESERVE]
            fights = [*fights, *more] if fights else more
        if fights:
            spare = p.swords - self._icons_ahead(game, p)
            i = self._pick_fight(game, p, opts, fights, spare, self.SWORD_VALUE)
            if i is not None:
                return i

        if MOVE in groups:
            i = self._pick_move(game, p, opts, groups[MOVE])
            if i is not None:
                return i

        if fights:
            i = self._pick_fight(game, p, opts, fights, p.swords, 0.0)
            if i is not None:
                return i

        acquires = groups.get(ACQUIRE)
        if ACQUIRE_RESERVE in groups:
            more = groups[ACQUIRE_RESERVE]
            acquires = [*acquires, *more] if acquires else more
        if acquires:
            return self._pick_acquire(game, p, opts, acquires)
        return None

    def _choose_play(self, game: Any, p: Any) -> CardDef | None:
        """The first card of the hand, except that a card whose bonus needs a space it may
        still reach this turn waits (None when only such cards are left). Ordering the hand
        (draws first, weak cards last) added no strength: measured with bot_strength.py."""
        info = self.info
        kinds = info.kinds
        walking = p.boots > 0 and not p.exhausted
        for c in p.hand:
            kind = kinds.get(c)
            if kind is None:
                kind = info.play_kind(c)
            if kind == 3 and walking and not game.space_has(p, info.place[c]):
                continue
            return c
        return None

    def _pick_use(
        self, game: Any, p: Any, opts: Sequence[Option], uses: Sequence[int]
    ) -> int | None:
        for i in uses:
            tok = opts[i].value[1]
            nodes = self.info.effects(tok, "use")
            reading = _reading_of(nodes)
            asked, terms = reading.asked, reading.terms
            if "heal" in asked:
                heal = max(1.0, terms.get("heal", 0.0))
                if p.damage >= heal or (p.damage and self.health_left <= 4):
                    return i
            elif "trash" in asked:
                if any(self._keep(c) < 0.8 for c in (*p.discard, *p.play)):
                    return i
            elif asked and asked <= _GAINS.keys() and all(terms.get(k, 0) > 0 for k in asked):
                # Only resources, all gained: use it when they help.
                if "boots" in asked and self._needs_boot(game, p):
                    return i
                if "swords" in asked and self._needs_swords(game, p):
                    return i
                if "skill" in asked or "gold" in asked:
                    return i
            elif self._lines_worth(tok, "use") > 0:
                return i
        return None

    def _pick_fight(
        self,
        game: Any,
        p: Any,
        opts: Sequence[Option],
        fights: Sequence[int],
        swords: int,
        per_sword: float,
    ) -> int | None:
        best, best_v = None, 0.0
        for i in fights:
            kind, card = opts[i].value
            if card.fight > swords:
                continue
            v = self._lines_worth(card, "defeat")
            if card.danger and kind is FIGHT:
                v += 1.0
            v -= per_sword * card.fight
            if v > best_v:
                best, best_v = i, v
        return best

    def _pick_acquire(
        self, game: Any, p: Any, opts: Sequence[Option], acquires: Sequence[int]
    ) -> int | None:
        """The first card of the affordable set that adds most to the score (a knapsack); the
        rest of the set is kept for the next decisions while the skill left is as planned."""
        budget = p.skill
        plan = self._buys
        if plan is not None and plan[0] == budget:
            if not plan[1]:
                return None  # the planned set is bought; nothing else adds to it
            want = plan[1][0]
            for i in acquires:
                if opts[i][1] == want:
                    self._buys = (budget - want[1].cost, plan[1][1:])
                    return i
        items, least = self._acquire_items(game, p, opts, acquires, budget)
        if not items:
            self._buys = (budget, [])
            return None
        if len(items) == 1 or 2 * least > budget:  # type: ignore[operator]
            # Room for one card only: the most valuable (the first of equals).
            top = items[0]
            for it in items:
                if it[2] > top[2]:
                    top = it
            self._buys = (budget - top[1], [])
            return top[0]
        chosen = _knapsack(items, budget)
        chosen.sort(key=_third, reverse=True)  # stable: equals keep their order
        first = chosen[0][0]
        rest = [opts[i][1] for i, _, _ in chosen[1:]]
        self._buys = (budget - chosen[0][1], rest)
        return first

    def _acquire_items(
        self, game: Any, p: Any, opts: Sequence[Option], acquires: Sequence[int], budget: int
    ) -> tuple[list[tuple[int, int, float]], int | None]:
        """The cards worth acquiring as knapsack items (option index, cost, value), one per
        copy on offer (in the row, or in the reserve as many as the budget pays for), and the
        least cost among them."""
        items: list[tuple[int, int, float]] = []  # (option index, cost, value)
        worth = self._worth
        least = None
        for i in acquires:
            kind, card = opts[i][1]
            v = worth.get(card)
            if v is None:
                v = self.card_value(game, p, card)
            if v <= 0.05:
                continue
            cost = card.cost
            if kind is ACQUIRE:
                copies = game.row.count(card)
            else:
                copies = min(game.reserve[card], budget // max(1, cost))
            if copies:
                if copies == 1:
                    items.append((i, cost, v))
                else:
                    items.extend([(i, cost, v)] * copies)
                if least is None or cost < least:
                    least = cost
        return items, least

    def _pick_buy(
        self, game: Any, p: Any, opts: Sequence[Option], buys: Sequence[int]
    ) -> int | None:
        price = game.rules["market_price"]
        best, best_v = None, 0.0
        for i in buys:
            tok = best_market_item(game, opts[i].value[1])
            v = tok.points - price + self._enabling(game, p, tok) + self._item_worth(game, p, tok)
            if tok.reveal:
                v += self._lines_worth(tok, "reveal")  # what buying it does (heal on buying)
            if v > best_v:
                best, best_v = i, v
        if best is not None:
            self._turn = -1  # a canoe changes the routes: plan again at the next decision
        return best


def _knapsack(items: list[tuple[int, int, float]], budget: int) -> list[tuple[int, int, float]]:
    """The items (option index, cost, value) of most value whose costs fit the budget, in
    their order (of two sets of the same value, the one found first)."""
    best = [0.0] * (budget + 1)
    pick = [0] * (budget + 1)  # the items of each best set, as bits
    for k, (_, c, v) in enumerate(items):
        bit = 1 << k
        for b in range(budget, c - 1, -1):
            x = best[b - c] + v
            if x > best[b]:
                best[b] = x
                pick[b] = pick[b - c] | bit
    bits = pick[budget]
    return [it for k, it in enumerate(items) if bits >> k & 1]
