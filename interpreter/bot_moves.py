"""The heuristic bot's walking: which path to take, which monster icons to pay, and
whether to stay out one more turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .actions import (
    allowed_here,
)
from .bot_routes import (
    _tail,
)
from .bot_values import (
    _INF,
    _NONE,
)
from .decisions import Option


class _Moves:
    """Part of `HeuristicBot`: picks moves along the route and decides whether to linger."""

    __slots__ = ()

    def _needs_boot(self, game: Any, p: Any) -> bool:
        """One more boot lets the player make progress it cannot make now."""
        goal = self._goal(game, p)
        if goal is None or p.exhausted or p.escaping or goal == p.pos:
            return False
        cost = self.routes.cost[goal]
        here = cost[p.pos]
        moves = game.board.moves[p.pos]
        if any(m.boots <= p.boots and cost[m.to] < here for m in moves):
            return False
        return any(m.boots == p.boots + 1 and cost[m.to] < here for m in moves)

    def _needs_swords(self, game: Any, p: Any) -> bool:
        """Two more swords would save damage on the way or win a fight worth having."""
        if self._icons_ahead(game, p) > p.swords and self.health_left <= 6:
            return True
        here = game.board.spaces[p.pos]
        for card in game.row:
            if card.type != "monster" or not p.swords < card.fight <= p.swords + 2:
                continue
            if not allowed_here(card, here):
                continue
            if self._lines_worth(card, "defeat") >= 2.5:
                return True
        return False

    def _icons_ahead(self, game: Any, p: Any, tolls: bool = True) -> int:
        """Monster icons on the planned route that this turn's boots reach (swords to keep);
        with ``tolls``, also the swords a live entry toll on it asks, when the player has them
        (beating its guard beats taking its damage)."""
        goal = self._goal(game, p)
        boots = p.boots
        if goal is None or p.exhausted or not boots:
            return 0
        r = self.routes
        live = self._live if tolls else _NONE
        if live:
            return self._swords_ahead(p, r.step[goal], goal, live)
        key = (goal, p.pos, boots)
        icons = r._ahead.get(key)
        if icons is None:
            step = r.step[goal]
            forest = self.info.forest
            pos, icons = p.pos, 0
            while pos != goal:
                m = step[pos]
                if m is None or m.boots > boots:
                    break
                if not m.plain and m.way.paid_in != "boots":
                    break  # the rest of the way waits for a move paid otherwise
                boots -= m.boots
                icons += m.monsters
                pos = m.to
                if forest[pos]:
                    break
            r._ahead[key] = icons
        return icons

    def _swords_ahead(self, p: Any, step: Sequence[Any], goal: int, live: frozenset[int]) -> int:
        """`_icons_ahead` on a board with live tolls: the icons, and the swords a toll on the
        way asks when the player has them (not remembered: it depends on the swords)."""
        forest = self.info.forest
        need_at = self.info.toll_swords
        pos, boots, icons = p.pos, p.boots, 0
        while pos != goal:
            m = step[pos]
            if m is None or m.boots > boots:
                break
            if not m.plain and m.way.paid_in != "boots":
                break
            boots -= m.boots
            icons += m.monsters
            pos = m.to
            if pos in live:
                need = need_at[pos]
                if need and p.swords >= icons + need:
                    icons += need
            if forest[pos]:
                break
        return icons

    def _pick_move(
        self, game: Any, p: Any, opts: Sequence[Option], moves: Sequence[int]
    ) -> int | None:
        """The move that leaves the cheapest way still to go (damage and swords counted)."""
        goal = self._goal(game, p)
        if goal is None:
            return None
        cost = self.routes.cost[goal]
        bv = self.boot_value
        hv = self.health_value
        sv = self.SWORD_VALUE
        forest = self.info.forest
        left = self.health_left
        best, best_key = None, cost[p.pos] * bv - 1e-6
        hq = game.board.hq
        stay = goal == hq and self._linger(game, p)
        boots = p.boots
        live = self._live
        stops = self.info.entry_hooks
        spaces = live or stops  # spaces whose entry asks or gives something
        for i in moves:
            _, m, swords = opts[i][1]
            to = m.to
            hurt = m.monsters - swords
            if hurt and left - hurt <= 1:
                continue
            if stay and to == hq:
                continue
            # cost * bv + hurt * hv + swords * sv, without adding the zeros (the same sum).
            key = cost[to] * bv
            if hurt:
                key = key + hurt * hv
            if swords:
                key = key + swords * sv
            if (forest[to] or m.way.exhausts) and to != goal:
                key += max(0, boots - m.boots) * bv * 0.8
            if spaces:
                if to in live:
                    # The route costs count tolls only beyond the next space: this one's.
                    key += self._toll_cost(p, to, p.swords - swords)
                if to in stops and to not in p.visited:
                    # What the space's entry triggers give (a token lying there the player
                    # lacks...): worth a step off the route when it pays more than the step.
                    key -= self._entry_gain(game, p, to, stops[to])
            if key < best_key:
                best, best_key = i, key
        if best is None and boots:
            nxt = self.routes.step[goal][p.pos]
            if nxt is not None and (nxt.way.exhausts or forest[nxt.to]) and nxt.to != goal:
                # The route's next step exhausts (it would waste the boots in hand) and no
                # other step gets nearer: a walk of a few steps may (the route table prices
                # the exhausting step at a boot, so walking on is as long at each step).
                return self._walk_plan(game, p, opts, moves, cost, best_key, stay)
        return best

    # The most moves `_walk_plan` looks ahead.
    PLAN_DEPTH = 8

    def _walk_plan(
        self,
        game: Any,
        p: Any,
        opts: Sequence[Option],
        moves: Sequence[int],
        cost: Sequence[float],
        stay_key: float,
        stay: bool,
    ) -> int | None:
        """The first move of the walk this turn's boots can make that ends nearest the goal
        (``cost``: the route table's cost to it), when it ends nearer than staying put
        (``stay_key``): monster damage and swords on the way counted as `_pick_move` counts
        them, a way or space that exhausts ending the walk, HQ too (and left out while the
        player lingers, ``stay``). Walks on only along paths paid in boots, open to the
        player now."""
        hq = game.board.hq
        bv = self.boot_value
        hv = self.health_value
        sv = self.SWORD_VALUE
        forest = self.info.forest
        live = self._live
        best_i, best_v = None, stay_key
        walk = self._walk_on(game, p, cost, stay)
        left = self.health_left
        for i in moves:
            _, m, swords = opts[i][1]
            if m.way.paid_in != "boots":
                continue
            to = m.to
            if stay and to == hq:
                continue
            hurt = m.monsters - swords
            if hurt and left - hurt <= 1:
                continue
            v = hurt * hv + swords * sv
            if to in live:
                v += self._toll_cost(p, to, p.swords - swords)
            if forest[to] or m.way.exhausts or to == hq or cost[to] <= 0:
                v += cost[to] * bv
            else:
                v = walk(to, p.boots - m.boots, p.swords - swords, left - hurt, v, 1)
            if v < best_v - 1e-9:
                best_i, best_v = i, v
        return best_i

    def _walk_on(
        self, game: Any, p: Any, cost: Sequence[float], stay: bool
    ) -> Callable[[int, int, int, int, float, int], float]:
        """The search `_walk_plan` runs on from each first step: ``walk(u, boots, swords,
        left, spent, k)`` is the least a walk on from space u can come to (``spent`` on the
        way plus the goal's cost from where it stops), with these boots, swords and health
        left, at step k of at most PLAN_DEPTH. A state reached again with no less spent is
        not searched again."""
        board = game.board
        hq = board.hq
        bv = self.boot_value
        hv = self.health_value
        sv = self.SWORD_VALUE
        forest = self.info.forest
        all_moves = board.moves
        grants = self._grants(p)
        closed = self.info.closed(game)
        carrying = p.artifact is not None
        tolled = board.tolled
        depth = self.PLAN_DEPTH
        # The least spent on the way to each (space, boots, swords, health left) reached.
        seen: dict[tuple[int, int, int, int], float] = {}

        def walk(u: int, boots: int, swords: int, left: int, spent: float, k: int) -> float:
            out = spent + cost[u] * bv
            if k >= depth:
                return out
            key = (u, boots, swords, left)
            was = seen.get(key)
            if was is not None and was <= spent:
                return _INF
            seen[key] = spent
            for m in all_moves[u]:
                to = m.to
                if m.boots > boots or m.way.paid_in != "boots":
                    continue
                if to == hq and (not carrying or stay):
                    continue
                if to in tolled:
                    continue  # an entry toll: planned from the next step on, when it is open
                if m.requires and not grants.issuperset(m.requires):
                    continue
                if m.way.blocked_by and closed and (u in closed or to in closed):
                    continue
                use = min(swords, m.monsters)
                hurt = m.monsters - use
                if hurt and left - hurt <= 1:
                    continue
                v = spent + hurt * hv + use * sv
                if forest[to] or m.way.exhausts or to == hq or cost[to] <= 0:
                    v += cost[to] * bv
                else:
                    v = walk(to, boots - m.boots, swords - use, left - hurt, v, k + 1)
                if v < out:
                    out = v
            return out

        return walk

    def _toll_cost(self, p: Any, x: int, swords: int) -> float:
        """What meeting the live entry toll of space ``x`` costs, in points, with ``swords``
        in hand: the guard beaten when the swords suffice (its reward less the swords, so
        usually a gain), else its damage."""
        info = self.info
        need = info.toll_swords[x]
        if need and swords >= need and x in info.toll_fight:
            return -self.effects(info.toll_fight[x])
        return info.toll_hurt[x] * self.health_value

    def _linger(self, game: Any, p: Any) -> bool:
        """Stay one more turn a step from HQ with the artifact: worth it while another player
        is still out there and a turn of buying brings more than the risk of a knock-out
        (which costs the mug) before the next turn."""
        if self.LINGER <= 0 or p.artifact is None:
            return False
        board = game.board
        hq = board.hq
        if not any(m.to == hq and m.boots == 1 and not m.monsters for m in board.moves[p.pos]):
            return False
        if board.spaces[p.pos].danger_zone:
            return False
        if self._waits >= self.LINGER_TURNS and self._wait_turn != game.turn:
            return False  # people do not wait for ever
        # Waiting only pays while somebody is still out there: two players waiting for each
        # other a step from HQ would wait for ever.
        to_hq = board.dist_to_hq
        if not any(
            q.on_clock and q is not p and (q.artifact is None or to_hq[q.pos] > 2)
            for q in game.players
        ):
            return False
        # An emptied bag knocks out everyone still on the clock.
        if self.in_bag <= 2 * self.cubes_round + 4:
            return False
        supply = game.token_supply
        mug = max((t.points for t in self.info.mugs if supply[t]), default=0)
        risk = _tail(self.dmg_round * self.LINGER_RISK, self.health_left)
        if self.LINGER * self.pts_turn <= risk * (mug + 2 * self.pts_turn):
            return False
        if self._wait_turn != game.turn:
            self._wait_turn = game.turn
            self._waits += 1
        return True
