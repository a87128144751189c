"""The heuristic bot's plan: which artifact (or errand) to go for, and the detours worth
taking on the way."""

from __future__ import annotations

from typing import Any

from .actions import (
    ACT,
)
from .bot_routes import (
    _TAILS,
    _holds_kind,
    _Routes,
    _tail,
)
from .bot_values import (
    _INF,
    _NOWHERE,
)


class _Targets:
    """Part of `HeuristicBot`: chooses the target and the detours."""

    __slots__ = ()

    def _choose_target(self, game: Any, p: Any, k: int | None = None) -> None:
        """The artifact to go for (by expected final score), or HQ once holding one (``k``:
        the cubes an attack draws now, when the caller knows)."""
        stake = self._stake(game, p)
        mug = self._mug(game)
        if p.artifact is not None:
            self.target = hq = game.board.hq
            t_home = self.routes.cost[hq][p.pos] / self.boots_turn
            self.turns_left = t_home + 0.5
            self.lam = self.dmg_round * self.turns_left
            self.stake = p.artifact.points + mug + stake + self.pts_turn * t_home
            return
        best, self._ev, best_info = self._best_target(game, p, self.routes, stake, mug, k=k)
        self._grant_worth = {}
        self._errand_on = False
        if best is None and any(game.space_artifact[s] for s in game.board.artifact_spaces):
            best = self._errand(game, p)
            self._errand_on = best is not None
        self.target = best
        self.turns_left, self.lam, self.stake = best_info

    def _errand(self, game: Any, p: Any) -> int | None:
        """When every artifact left is out of reach for want of a path requirement (a key, a
        pass): the space whose action is worth most for its walk, the tokens that grant a
        missing requirement counted at ENABLE_CAP (an action that may give one leads on to
        the artifacts). None when no action is open or worth its walk."""
        lacking = self.info.requirements - self._grants(p)
        if not lacking:
            return None
        for t in self.info.granting:
            if lacking.intersection(t.grants):
                self._grant_worth[t.name] = self.ENABLE_CAP
        board = game.board
        from_pos = self.routes.out(p.pos)
        bv = self.boot_value
        best, best_v = None, 0.0
        for s in board.action_spaces:
            d = from_pos[s]
            if d >= _INF / 4:
                continue
            sp = board.spaces[s]
            for a in sp.actions:
                if not a.open_to(game, p, sp):
                    continue
                v = ACT.appraise((ACT, a, sp), self) - d * bv
                if v > best_v:
                    best, best_v = s, v
        return best

    def _best_target(
        self,
        game: Any,
        p: Any,
        r: _Routes,
        stake: float,
        mug: float,
        stick: bool = True,
        k: int | None = None,
    ) -> tuple[int | None, float, tuple[float, float, float]]:
        """The artifact with the best expected final score along the routes ``r`` (the current
        target gets STICK more, with ``stick``): (its space, that score without STICK, (turns
        left, expected damage, score if the player escapes)). ``k``: the cubes an attack draws
        now, when the caller knows."""
        rate, rate_home, hurt_share, b0, cap, growth, base, half_stake, pts_turn = self._trip_model(
            game, k, stake, mug
        )
        legs = r.legs(p.pos, game.board, self.info.danger_zone)
        # The expected score of each artifact's round trip: this is the bot's hottest loop
        # (every turn, every artifact left), kept in one piece.
        on_board = game.space_artifact
        left = self.health_left
        tails = _TAILS.get(left) or {}
        # The best: the most expected score, the current target's with STICK more; among
        # equals, the one with more without STICK, then the first in the board's order.
        best = found = None
        best_ev = raw = -_INF
        target = self.target if stick else _NOWHERE
        stick_v = self.STICK
        for s, b1, b2, sb, icons, danger in legs:
            tok = on_board[s]
            if not tok:
                continue
            # The deck gets faster as boots are bought: project boots a turn over the trip.
            b = b0 + growth * sb / b0
            if b > cap:
                b = cap
            b = b0 + growth * sb / b
            if b > cap:
                b = cap
            t1 = b1 / b
            t2 = b2 / b
            lam = rate * (t1 + 0.5) + rate_home * t2 + icons * hurt_share
            if left <= 0:
                die = 1.0
            elif lam <= 0.0:
                die = 0.0
            else:
                die = tails.get(round(lam * 100.0))
                if die is None:
                    die = _tail(lam, left)
            points = tok.points
            win = (points + base) + pts_turn * (t1 + t2)
            keep = 0.0 if danger else 0.5 * (points + half_stake)
            held = (1.0 - die) * win + die * keep
            ev = held + stick_v if s == target else held
            if ev > best_ev or (ev == best_ev and held > raw):
                best, best_ev, raw = s, ev, held
                found = (t1 + t2 + 0.5, lam, win)
        return best, raw, (10.0, 1.0, 1.0) if found is None else found

    def _trip_model(
        self, game: Any, k: int | None, stake: float, mug: float
    ) -> tuple[float, float, float, float, float, float, float, float, float]:
        """The terms of `_best_target`'s round trip to an artifact: the damage a round on the
        way there and on the way home (taking an artifact moves the rage marker: more cubes
        an attack; ``k``: the cubes an attack draws now, when the caller knows), the share of
        monster icons that hurt (fewer with more swords a turn), the boots a turn now, their
        cap and how fast they grow as boots are bought, the points brought home besides the
        artifact (a mug and the stake), half the stake, and the points a turn of the trip
        brings. Whole numbers are made floats (the same sums: they are small), so the trip's
        arithmetic stays float on float."""
        rate = self.dmg_round
        if k is None:
            k = game.attack_size()
        rate_home = rate * (k + 1) / k if k else rate
        hurt_share = self.HURT_SHARE * max(0.2, 1.0 - self.swords_turn / 3.0)
        b0 = self.boots_turn
        cap = max(b0, self.BOOTS_CAP)
        growth = self.BOOTS_GROWTH / 2
        base, half_stake = float(mug + stake), float(stake)
        return rate, rate_home, hurt_share, b0, cap, growth, base, half_stake, self.pts_turn

    def _enabling(self, game: Any, p: Any, tok: Any) -> float:
        """Points an item adds by the paths it opens (a canoe's water, a key's locked doors):
        the time its routes save on the way still to go, or, before the artifact, the best
        trip with it against the best without, when a better artifact needs it (remembered
        for the turn)."""
        if not tok.grants:
            return 0.0
        v = self._enable.get(tok)
        if v is not None:
            return v
        v = 0.0
        r = self.routes
        info = self.info
        with_item = info.table(
            self._grants(p) | frozenset(tok.grants),
            r.mu,
            info.closed(game),
            self._paid,
            info.all_tolls,
        )
        if with_item is not r:
            hq, pos = game.board.hq, p.pos
            if p.artifact is not None:
                saved = r.cost[hq][pos] - with_item.cost[hq][pos]
                v = min(self.ENABLE_CAP, saved * self.boot_value)
            else:
                t = self.target
                if t is not None:
                    saved = r.cost[t][pos] + r.cost[hq][t]
                    saved -= with_item.cost[t][pos] + with_item.cost[hq][t]
                    v = saved * self.boot_value
                # Only a trip the item shortens can make another artifact the better one.
                if self._shortens(game, r, with_item, pos, t):
                    stake = self._stake(game, p)
                    supply = game.token_supply
                    mug = max((m.points for m in self.info.mugs if supply[m]), default=0)
                    b1, ev1, _ = self._best_target(game, p, with_item, stake, mug, stick=False)
                    if b1 is not None and b1 != t:
                        # A route the item opens leads to a better artifact: worth what it
                        # adds beyond what would make the bot change its target.
                        ev0 = self._ev + self.STICK if t is not None else 0.0
                        v = max(v, ev1 - ev0)
                v = min(self.ENABLE_CAP, v)
        self._enable[tok] = v
        return v

    def _shortens(self, game: Any, r: _Routes, with_item: _Routes, pos: int, t: Any) -> bool:
        """Whether the route table ``with_item`` (one more item) shortens the round trip from
        ``pos`` to an artifact still on the board other than ``t`` against ``r``. What it
        shortens is remembered by space for the two tables and ``pos`` (for every turn and
        game on the board), and asked only of the spaces still holding an artifact: the
        rows of a space whose artifact is gone are not worked out for it."""
        left = game.space_artifact
        hq = game.board.hq
        known = self.info.shortened.get((r, with_item, pos))
        if known is None:
            known = self.info.shortened[(r, with_item, pos)] = {}
        for s in game.board.artifact_spaces:
            if not left[s] or s == t:
                continue
            shorter = known.get(s)
            if shorter is None:
                shorter = known[s] = (
                    with_item.cost[s][pos] + with_item.cost[hq][s]
                    < r.cost[s][pos] + r.cost[hq][s] - 1e-9
                )
            if shorter:
                return True
        return False

    def _goal(self, game: Any, p: Any) -> int | None:
        """Where to walk now: a detour stop, else the target."""
        if not self._detoured:
            self._detoured = True
            self._plan_detour(game, p)
        if self.waypoint is not None:
            if self.waypoint != p.pos:
                return self.waypoint
            self.waypoint = None  # reached: on to the target
        if p.artifact is not None:
            return game.board.hq
        return self.target

    def _plan_detour(self, game: Any, p: Any) -> None:
        """A stop worth its extra boots (a secret, healing, a crown), or a coach ride."""
        self.waypoint = self.coach_to = None
        goal = self._goal(game, p)
        if goal is None:
            return
        if self.routes.cost[goal][p.pos] >= _INF / 4:
            return
        gold = game.gold_of(p)
        self.waypoint = self._best_stop(game, p, goal, gold)
        # A coach: walk to one coach space, ride to another, when the time saved pays the fare.
        if not self.info.coach_pairs or gold < self.info.least_fare:
            return
        self._plan_coach(game, p, gold)

    def _crown_worth(self, game: Any, p: Any, gold: int) -> float:
        """What the best market item the player can buy now adds (0 when it cannot pay):
        what a stop in a town is worth beyond its other rewards."""
        price = game.rules["market_price"]
        crown = 0.0
        if gold >= price:
            held = {t.type for t in p.tokens if t.kind == "market"}
            for t in self.info.market:
                if game.token_supply[t] and t.type not in held:
                    worth = t.points - price + self._enabling(game, p, t)
                    crown = max(crown, worth + self._item_worth(game, p, t))
        return crown

    def _best_stop(self, game: Any, p: Any, goal: int, gold: int) -> int | None:
        """The stop on the way to ``goal`` whose rewards (a secret, healing, cards, a crown)
        are worth the most beyond its extra boots, if any is worth enough; the stops are
        looked at the nearest first, until none further could be worth more."""
        info = self.info
        bv = self.boot_value
        damage = game.rules["health"] - self.health_left
        minor = 2.0 if game.minor_bank else 0.0
        crown = self._crown_worth(game, p, gold)
        heal_v = self.health_value if damage else 0.0
        draw_v = 0.5 * self.avg_power
        best, best_net = None, 0.3
        pos = p.pos
        visited = p.visited
        mx = info.most
        held = game.space_tokens
        # The spaces still holding a major secret.
        majors_left = [x for x in info.major_spaces for t in held[x] if t.kind == "major"]
        majors = 4.0 * mx[0] if majors_left else 0.0
        top = majors + minor * mx[1] + heal_v * mx[2] + mx[3] + draw_v * mx[4] + 0.5 + crown
        near = self.routes._near.get((pos, goal))
        if near is None:
            near = self.routes.near(pos, goal, info.rewards)
        for extra, x, major, minor_k, heal, coins, draw, fruit, town in near:
            if top - extra * bv <= best_net:
                break
            if x in visited:
                continue
            gain = coins + minor * minor_k + draw_v * draw
            if major and x in majors_left:
                gain += 4.0
            if heal and damage:
                gain += heal_v * min(heal, damage)
            if fruit and _holds_kind(held[x], "fruit"):
                gain += 0.5
            if town and crown:
                gain += crown
            net = gain - extra * bv
            if net > best_net:
                best, best_net = x, net
        return best

    def _plan_coach(self, game: Any, p: Any, gold: int) -> None:
        """A coach ride, when one saves more time than its fare costs: walk to a coach space
        within two turns' boots, ride to another (not HQ before the artifact) nearer the
        goal; sets the waypoint (the coach space to walk to) and the ride's end."""
        info = self.info
        pos = p.pos
        bv = self.boot_value
        to_goal = self.routes.cost[self._goal(game, p)]
        best_c, best_cost = None, to_goal[pos] - 1.0
        reach = 2 * self.boots_turn
        hq = game.board.hq if p.artifact is None else -1
        from_pos = self.routes.out(pos)
        for c1, pairs in info.coach_pairs:
            walk = from_pos[c1] if c1 != pos else 0.0
            if walk > reach:
                continue
            for c2, fare in pairs:
                if c2 == hq or fare > gold:
                    continue
                total = walk + 1 + to_goal[c2] + fare / bv
                if total < best_cost:
                    best_c, best_cost = (c1, c2), total
        if best_c is not None:
            self.waypoint = best_c[0] if best_c[0] != pos else None
            self.coach_to = best_c[1]
