"""The heuristic bot's estimates, refreshed once a turn: its deck, the dragon, its health,
the ways its resources pay for, and the route table they select."""

from __future__ import annotations

import math

try:  # counting into a dict at C speed (what Counter(iterable) does, without its checks)
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Pythons

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        for x in iterable:
            mapping[x] = mapping.get(x, 0) + 1


from typing import Any

from .bot_routes import (
    _board_info,
    _game_rules,
    _tail,
    _weighted,
)
from .bot_values import (
    _NONE,
    _UNKNOWN_UNIT,
    BOOTS,
    CLANK,
    DRAW,
    GOLD,
    HEAL,
    MU_LEVELS,
    OTHER,
    SKILL,
    SWORDS,
    TELEPORT,
)
from .bot_worth import award_margins
from .catalog import CardDef
from .state import ON_CLOCK, Ctx


class _Estimates:
    """Part of `HeuristicBot`: refreshes the turn's estimates (deck, dragon, health, ways,
    routes)."""

    __slots__ = ()

    # -- estimates ----------------------------------------------------------------------------

    def _begin(self, game: Any, p: Any) -> None:
        """Refresh the turn's estimates (once per turn, and when the plan changes)."""
        # A board whose paths changed (a path blocked or added, a token asking boots) is
        # another board: its routes are worked out again at once, mid-turn too.
        same_board = self.info is not None and self.info.board is game.board
        if game.turn == self._turn and game is self._game and same_board:
            return
        if game is not self._game or not same_board:
            self._deck_left = None
            self.info = _board_info(game)
            self._rules = _game_rules(game)
        self._game, self._turn = game, game.turn
        hand, row_size, health, off_draw = self._rules
        avg, ct = self._deck_turn(game, p, hand)
        k = self._dragon_turn(game, p, row_size, off_draw, avg[CLANK] * ct)
        self.health_left = health_left = health - p.damage

        # How many boots a monster icon is worth avoiding, from health and swords a turn.
        mu_k = 1 if health_left >= 7 else 2 if health_left >= 4 else 3
        if self.swords_turn >= 2:
            mu_k -= 1
        self._pick_routes(game, p, MU_LEVELS[mu_k])
        self._choose_target(game, p, k)
        self._weights(game, avg, k)
        self._forget_turn(p)

    def _deck_turn(self, game: Any, p: Any, hand: int) -> tuple[list[float], float]:
        """The average profile of the player's cards and the cards it plays a turn, with the
        boots, swords and points a turn they bring (counted again only when its cards
        changed since the last count)."""
        n = len(p.deck) + len(p.hand) + len(p.discard) + len(p.play)
        if (id(game), n, len(game.trashed)) != self._deck_key:
            avg = self._deck(game, p)
            self.cards_turn = ct = min(float(self._deck_n), hand * (1 + max(0.0, avg[DRAW])))
            self.boots_turn = max(0.8, avg[BOOTS] * ct)
            self.swords_turn = max(0.0, avg[SWORDS] * ct)
            self.pts_turn = self.PTS_SKILL * avg[SKILL] * ct + max(0.0, avg[GOLD] * ct)
            return avg, ct
        # The same cards as at the last count: the same deck estimates.
        return self._deck_avg, self.cards_turn

    def _dragon_turn(
        self, game: Any, p: Any, row_size: int, off_draw: Any, clank_turn: float
    ) -> int:
        """The dragon: the cubes drawn a round, from the cards revealed into the row a turn
        so far (half a card a turn before any is seen), the bag, and this player's share of
        it and so its damage a round (``clank_turn``: the clank its cards add a turn).
        Returns the cubes an attack draws."""
        info = self.info
        players = game.players
        on = area = 0
        for q in players:
            if q.status == ON_CLOCK:
                on += 1
            area += q.area
        left = len(game.adventure_deck)
        if self._deck_left is None:
            self._revealed = max(0, info.deck_cards - row_size - left)
        elif left <= self._deck_left:
            self._revealed += self._deck_left - left
        else:
            self._revealed += self._deck_left  # reshuffled: at least the rest was revealed
        self._deck_left = left
        per_turn = (self._revealed + 2.0) / (game.turn + 4)
        attack_rate = 1 - (1 - info.dragon_share) ** per_turn
        k = game.attack_size()
        self.cubes_round = on * attack_rate * k + (len(players) - on) * off_draw
        bag = game.bag
        self.in_bag = max(1.0, len(bag) + area)
        mine = bag.count(p.seat) + p.area + max(0.0, clank_turn)
        self.dmg_round = self.cubes_round * mine / self.in_bag
        return k

    def _pick_routes(self, game: Any, p: Any, mu: float) -> None:
        """The route table for the turn: for monster weight ``mu``, what the player holds,
        the ways closed now and, on a board with ways paid in other resources or entry
        tolls, what the player pays with and which guards are still there."""
        info = self.info
        tokens = p.tokens
        closed = info.closed(game)  # empty unless the board has a way tokens may block
        if info.dynamic:
            if info.way_resources:
                self._way_rates(p)
            self._paid = self._paying(game, p)
            self._live = self._live_tolls(game, p)
            self.routes = info.table(self._grants(p), mu, closed, self._paid, info.all_tolls)
        elif closed:
            self.routes = info.table(frozenset(g for t in tokens for g in t.grants), mu, closed)
        elif tokens and info.requirements:
            self.routes = info.table_for(tokens, mu)
        else:
            routes = info.plain_routes.get(mu)
            self.routes = routes if routes is not None else info.table_for(tokens, mu)

    def _forget_turn(self, p: Any) -> None:
        """Empty what was remembered for the turn (emptied, not replaced: fewer objects to
        collect); the ways' units are worked out when first asked for (`unit`) with this
        turn's expected boots, and detours and coach rides planned when the bot first looks
        where to walk."""
        if self.info.way_resources:
            self._way_units = {}
            self._way_plans = {}
            self._way_boots = self.boots_turn
            self._seat = p.seat
        self._detoured = False
        self._power.clear()
        self._worth.clear()
        self._lw.clear()
        self._enable.clear()
        self._items.clear()
        self._tokens.clear()
        self._gains.clear()
        self._buys = None
        self._plays = None

    def _replan(self, game: Any, p: Any) -> None:
        self._turn = -1
        self._begin(game, p)

    def _deck(self, game: Any, p: Any) -> list[float]:
        """The average profile of the player's cards (recounted when the cards change)."""
        n = len(p.deck) + len(p.hand) + len(p.discard) + len(p.play)
        key = (id(game), n, len(game.trashed))
        if key != self._deck_key:
            if self._deck_key is None or key[0] != self._deck_key[0]:
                self._counts = {}
                self._tot = [0.0] * 9
                self._deck_points = 0
            self._deck_key = key
            # Add what changed since the last count, each design over the resources it
            # gives (a total is never -0.0, so adding a zero amount would leave it as it is),
            # in an order the game alone decides (the float sums depend on it): the designs
            # as the player's cards first show them, then those the player no longer has.
            tot = self._tot
            old = self._counts
            new: dict[CardDef, int] = {}
            for cards in (p.deck, p.hand, p.discard, p.play):
                _count_elements(new, cards)
            was = old.get
            kept = 0  # designs the player had and still has
            for c, k in new.items():
                had = was(c)
                if had is not None:
                    kept += 1
                    if k == had:
                        continue
                    self._add_design(c, k - had, tot)
                else:
                    self._add_design(c, k, tot)
            if kept < len(old):
                for c, k in old.items():
                    if c not in new:
                        self._add_design(c, -k, tot)
            self._counts = new
            self._deck_n = dn = max(1, n)
            self._deck_avg = [x / dn for x in tot]
        return self._deck_avg

    def _add_design(self, c: CardDef, d: int, tot: list[float]) -> None:
        """Add ``d`` more copies of design ``c`` to the deck's running totals."""
        terms = self.info.terms.get(c)
        if terms is None:
            terms = self.info.profile_terms(c)
        for i, x in terms:
            tot[i] += d * x
        self._deck_points += d * c.points

    def _grants(self, p: Any) -> frozenset[str]:
        return frozenset(g for t in p.tokens for g in t.grants)

    def _paying(self, game: Any, p: Any) -> frozenset[tuple[str, float]]:
        """What a unit of each resource that pays for a way of the board counts as, in boots:
        1 while the player holds some; else the turns it waits for one (its deck brings one
        a turn with chance P: 1/P, rounded up to 2, 3 or WAY_WAIT), none when its deck never
        brings one."""
        ways = self.info.way_list
        if not ways:
            return _NONE
        held = [game.pool(p, r) > 0 for r in ways]
        if held == self._held_ways and self._way_prices is not None:
            return self._way_prices
        out = []
        for r, has in zip(ways, held, strict=True):
            if has:
                out.append((r, 1.0))
                continue
            rate = self._way_rate.get(r, 0.0)
            if rate > 0:
                # Coarse levels (2, 3, WAY_WAIT boots): each is a route table of its own.
                wait = 1.0 / (1.0 - math.exp(-rate))
                out.append((r, 2.0 if wait <= 2.0 else 3.0 if wait <= 3.0 else self.WAY_WAIT))
        self._held_ways, self._way_prices = held, frozenset(out)
        return self._way_prices

    def _way_rates(self, p: Any) -> None:
        """Units of each resource that pays for a way the player's deck brings a turn."""
        info = self.info
        key = (self._deck_key, self.cards_turn)
        self._way_prices = None  # priced again from this turn's rates
        if key == self._rates_key:
            return
        self._rates_key = key
        ct = self.cards_turn / self._deck_n
        rates = dict.fromkeys(info.way_resources, 0.0)
        for card, k in self._counts.items():
            got = info.amounts(card)
            for r in rates:
                x = got.get(r)
                if x:
                    rates[r] += k * x * ct
        self._way_rate = rates

    def _live_tolls(self, game: Any, p: Any) -> frozenset[int]:
        """The spaces whose entry toll would ask something of the player now (its condition
        holds: the guard is still there)."""
        tolls = self.info.toll_hooks
        if not tolls:
            return _NONE
        # Asked again only when the tokens on those spaces change (a guard is beaten).
        lying = game.space_tokens
        seen = [p.seat]
        for s in tolls:
            seen.append(len(lying[s]))
        if seen == self._live_seen:
            return self._live
        spaces = game.board.spaces
        live = frozenset(
            s
            for s, hooks in tolls.items()
            if any(h.cond is None or game.holds(Ctx(p, spaces[s]), h.cond) for h in hooks)
        )
        self._live_seen, self._live = seen, live
        return live

    def _refresh_routes(self, game: Any, p: Any) -> None:
        """Mid-turn, on a board with ways paid in other resources or entry tolls: take the
        route table for what the player holds now (a card played gave a special resource, a
        toll's guard was beaten), and plan the detour again when it changed."""
        info = self.info
        self._live_tolls(game, p)
        if not info.way_resources:
            return
        paid = self._paying(game, p)
        if paid != self._paid:
            self._paid = paid
            self.routes = info.table(
                self._grants(p), self.routes.mu, info.closed(game), paid=paid, tolls=info.all_tolls
            )
            self._detoured = False
            self._enable = {}
        # What one more unit of each is worth here and now: forgotten when something it
        # depends on changes, worked out again when asked for (`unit`).
        seen = (game.turn, p.pos, p.boots, p.exhausted, paid, self.waypoint, self.target)
        if seen == self._way_seen:
            return
        self._way_seen = seen
        self._way_boots = None
        self._seat = p.seat
        if self._way_units:
            self._way_units = {}
            units = self._units
            if units is not None:
                for res in info.way_resources:
                    units.pop(res, None)

    def _stake(self, game: Any, p: Any) -> float:
        """Points the player holds besides an artifact (cards, gold, tokens)."""
        gold = p.gold
        points = 0
        for t in p.tokens:
            gold += t.gold
            points += t.points
        return gold + points + self._deck_points

    def _mug(self, game: Any) -> int:
        """The points of the best mug still in the supply (0: none)."""
        supply = game.token_supply
        mug = None
        for t in self.info.mugs:
            if supply[t] and (mug is None or t.points > mug):
                mug = t.points
        return 0 if mug is None else mug

    def _weights(self, game: Any, avg: list[float], k: int) -> None:
        """What a unit of each resource, a point of health and a card draw are worth now
        (``k``: the cubes an attack draws)."""
        left = self.health_left
        lam = self.lam
        # Losing one health raises the chance of dying by P(damage is exactly what is left).
        self.health_value = hv = (
            0.3 + max(0.0, _tail(lam, left - 1) - _tail(lam, left)) * self.stake
        )
        # A boot saves the time a turn takes: its points and its risk.
        time = self.BOOT_TIME * self.pts_turn + self.dmg_round * hv
        self.boot_value = bv = max(0.4, time / self.boots_turn) if self.target is not None else 0.3
        # A Clank! cube goes into the bag; this is its chance to come out as damage.
        cube = min(1.0, self.cubes_round * self.turns_left / self.in_bag)
        w = self.w
        w[SKILL] = 1.0
        w[SWORDS] = self.W_SWORDS
        w[BOOTS] = bv
        w[GOLD] = 1.0
        w[CLANK] = -cube * hv
        w[HEAL] = hv if left < game.rules["health"] else 0.1
        w[TELEPORT] = bv * 1.2
        w[OTHER] = 1.0
        w[DRAW] = 1.0
        self.avg_power = max(0.3, _weighted(avg, w))
        w[DRAW] = self.discard_cost = self.avg_power
        self.attack_cost = k * self.dmg_round / max(0.1, self.cubes_round)
        self.attack_cost *= hv
        # The Valuer's answers (`unit`) are worked out when first asked for (`_make_units`).
        self._units = None

    def _make_units(self) -> dict[str, float]:
        """What `unit` answers this turn, from the weights `_weights` set."""
        w = self.w
        hv = self.health_value
        # In the order of _DIM, then the others.
        self._units = units = {
            "skill": w[SKILL],
            "swords": w[SWORDS],
            "boots": w[BOOTS],
            "gold": w[GOLD],
            "clank": w[CLANK],
            "draw": w[DRAW],
            "heal": w[HEAL],
            "teleport": w[TELEPORT],
            "damage": -hv,
            "discard": -self.discard_cost,
            "trash": self.trash_value(None),
            "rage": -2.0,
            "token": 1.0,
            "points": 1.0,
            "minor secret": 2.0,
            "major secret": 4.0,
            "dragon attack": -self.attack_cost,
            "bag cube": 0.3,
        }
        if self._way_units:
            units.update(self._way_units)
        game = self._game
        if game.catalog.awards:
            # A ranked award on a count of a unit (a resource, damage): what one more wins.
            p = game.players[self._seat]
            for key, margin in award_margins(game, p, "unit"):
                if key not in self.info.way_resources:
                    units[key] = units.get(key, _UNKNOWN_UNIT) + margin
        return units
