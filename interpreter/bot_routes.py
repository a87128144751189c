"""What the heuristic bot knows of a board: route tables to every space (`_Routes`), the
board's stops, ways and tolls, and each design's profile read once (`_BoardInfo`)."""

from __future__ import annotations

import heapq
import math
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from .board import ROW_CELLS, Board, Move, summed_rewards
from .bot_values import (
    _INF,
    _NONE,
    _REWARD_KINDS,
    BOOTS,
    DETOUR_MAX,
    DRAW,
    FOOTPRINT_COST,
    FOREST_COST,
    _effect_lists,
    _Reading,
    _reading_of,
)
from .catalog import CardDef
from .decisions import Option
from .effects.entry_toll import is_toll
from .effects.registry import CONDITIONS, EFFECTS
from .rules import for_players

# The tails by h, then by lam in hundredths.
_TAILS: dict[int, dict[int, float]] = {}


def _tail(lam: float, h: int) -> float:
    """P(X >= h) for X ~ Poisson(lam): the chance that expected damage ``lam`` fills ``h``
    (``lam`` is read to the hundredth; the values are remembered)."""
    if h <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    k = round(lam * 100)
    row = _TAILS.get(h)
    if row is None:
        row = _TAILS[h] = {}
    v = row.get(k)
    if v is None:
        v = row[k] = _poisson_tail(k / 100, h)
    return v


def _poisson_tail(lam: float, h: int) -> float:
    term = math.exp(-lam)
    below = term
    for i in range(1, h):
        term *= lam / i
        below += term
    return max(0.0, 1.0 - below)


class _Rows(dict[int, list[Any]]):
    """One of a route table's tables by target (``cost``, ``icons``, ``step``, ``walk``):
    the rows for a target are worked out together when one of them is first read. It points
    back at its table weakly: a cycle would leave each table dropped to the cycle collector,
    which a long run of games calls seldom."""

    __slots__ = ("routes",)

    def __init__(self, routes: _Routes) -> None:
        super().__init__()
        self.routes = weakref.ref(routes)

    def __missing__(self, t: int) -> list[Any]:
        routes = self.routes()
        assert routes is not None, "a route table's row read after the table was dropped"
        routes.add(t)
        return dict.__getitem__(self, t)


class _Routes:
    """Route costs to every space on one board, for one monster weight and item set.

    ``cost[t][a]`` is the weighted cost of the best route from a to t (boots, plus mu per
    monster icon, plus a forest's lost boots), ``icons[t][a]`` the monster icons on it and
    ``step[t][a]`` its first `Move`, ``walk[t][a]`` its cost without the monster weight
    (``cost - mu * icons``, the boots and forests the trip takes). Routes never pass through HQ.

    A path of a way paid in another resource than boots counts only when ``paid`` prices that
    resource, (resource, boots one unit counts as) pairs: 1 while the player holds some, more
    while it has to wait for a turn that brings one. Entering a space of ``tolls`` (its entry
    toll is live) counts as ``toll[space]`` more monster icons.

    The rows for a target t (``cost[t]`` and the others) are worked out when first read, by
    Dijkstra's algorithm from t along the moves reversed, and kept while the table holds
    fewer than ROW_CELLS cells a table (every row on a board of up to 1,000 spaces); `out`
    gives the costs from one space to every target without working out their rows.
    """

    __slots__ = (
        "cost",
        "icons",
        "step",
        "walk",
        "mu",
        "_near",
        "_legs",
        "_ahead",
        "_incoming",
        "_outgoing",
        "_out",
        "_hq",
        "_forest",
        "_toll",
        "_keep",
        "__weakref__",
    )

    def __init__(
        self,
        board: Board,
        grants: frozenset[str],
        mu: float,
        closed: frozenset[int] = frozenset(),
        paid: frozenset[tuple[str, float]] = _NONE,
        tolls: dict[int, int] | None = None,
        incoming: list[list[tuple[int, Move, float, float, int, bool]]] | None = None,
    ) -> None:
        n = len(board.spaces)
        self._hq = board.hq
        self._forest = [sp.exhausts for sp in board.spaces]
        toll = self._toll = [0] * n
        for s, k in (tolls or {}).items():
            toll[s] = k
        self._toll = toll
        if incoming is None:
            incoming = ways_in(board, grants, closed, paid)
        self._incoming = incoming
        self._outgoing: list[list[tuple[int, float, float, bool]]] | None = None
        self.mu = mu
        self._near: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
        self._legs: dict[int, list[tuple[int, float, float, float, float, bool]]] = {}
        self._ahead: dict[tuple[int, int, int], int] = {}
        self._out: dict[int, list[float]] = {}
        self._keep = max(1, ROW_CELLS // max(1, n))
        self.cost: _Rows = _Rows(self)
        self.icons: _Rows = _Rows(self)
        self.step: _Rows = _Rows(self)
        self.walk: _Rows = _Rows(self)

    def add(self, t: int) -> None:
        """Work out the rows for target t: the best route from every space to t, by
        Dijkstra's algorithm from t along the moves reversed (of two routes that cost the
        same, the one through the space settled first, then along the move listed first)."""
        n = len(self._incoming)
        if not 0 <= t < n:
            raise IndexError(f"no space {t!r} on the board")
        mu, hq, forest, toll, incoming = self.mu, self._hq, self._forest, self._toll, self._incoming
        d = [_INF] * n
        icons = [0] * n
        step: list[Move | None] = [None] * n
        done = [False] * n
        d[t] = 0.0
        heap = [(0.0, t)]
        while heap:
            du, u = heapq.heappop(heap)
            if done[u]:
                continue
            done[u] = True
            if u == hq and t != hq:
                continue
            enter = FOREST_COST if forest[u] and u != t else 0.0
            hurt = toll[u]
            if hurt:
                enter += mu * hurt
            for a, m, boots, extra, monsters, exhausts in incoming[u]:
                nd = du + boots + extra + mu * monsters + enter
                if exhausts:
                    # A way that exhausts (a lift) ends the turn's walking, like a forest.
                    nd += FOREST_COST
                if nd < d[a] - 1e-9:
                    d[a] = nd
                    icons[a] = icons[u] + monsters + hurt
                    step[a] = m
                    heapq.heappush(heap, (nd, a))
        tables = (self.cost, self.icons, self.step, self.walk)
        if len(self.cost) >= self._keep:
            oldest = next(iter(self.cost))
            for table in tables:
                del table[oldest]
        # The same expression the trip estimates evaluated every turn (`_best_target`); a
        # route without icons walks what it costs (the same float, not a copy of it).
        walk = [c - mu * k if k else c for c, k in zip(d, icons, strict=True)]
        for table, row in zip(tables, (d, icons, step, walk), strict=True):
            dict.__setitem__(table, t, row)

    def out(self, a: int) -> list[float]:
        """``cost[t][a]`` for every target t (the costs of the best routes from a), by one
        Dijkstra from a (remembered, like the rows): what a look at every stop around reads.

        The same figures as the rows: a route's cost is a sum of boots, footprints, forests
        and icons times mu, all multiples of a quarter, which floats add exactly in any order;
        a forest ends the walk everywhere but at the route's end, so the cost to t is the
        cost of a route entering t minus t's forest."""
        row = self._out.get(a)
        if row is not None:
            return row
        n = len(self._incoming)
        if not 0 <= a < n:
            raise IndexError(f"no space {a!r} on the board")
        mu, hq, forest, toll = self.mu, self._hq, self._forest, self._toll
        outgoing = self._outgoing
        if outgoing is None:
            outgoing = self._outgoing = [[] for _ in range(n)]
            for u, ways_in in enumerate(self._incoming):
                enter = (FOREST_COST if forest[u] else 0.0) + mu * toll[u]
                for b, _m, boots, extra, monsters, exhausts in ways_in:
                    outgoing[b].append((u, boots + extra + mu * monsters, enter, exhausts))
        g = [_INF] * n
        g[a] = 0.0
        heap = [(0.0, a)]
        while heap:
            du, u = heapq.heappop(heap)
            if du > g[u]:
                continue
            if u == hq and u != a:
                continue
            for v, w, enter, exhausts in outgoing[u]:
                nd = du + w + enter
                if exhausts:
                    nd += FOREST_COST
                if nd < g[v]:
                    g[v] = nd
                    heapq.heappush(heap, (nd, v))
        for t in range(n):
            if forest[t] and t != a and g[t] < _INF:
                g[t] -= FOREST_COST
        g[a] = 0.0
        if len(self._out) >= self._keep:
            del self._out[next(iter(self._out))]
        self._out[a] = g
        return g

    def legs(
        self, pos: int, board: Board, danger_zone: Sequence[bool]
    ) -> list[tuple[int, float, float, float, float, bool]]:
        """The round trips from pos to each artifact space and on to HQ that can be walked, in
        the board's order of artifact spaces: (space, walk there, walk home, the two summed,
        monster icons on both, whether the space is in a danger zone) (cached)."""
        out = self._legs.get(pos)
        if out is None:
            hq = board.hq
            walk, icons = self.walk, self.icons
            home_walk, home_icons = walk[hq], icons[hq]
            out = []
            for s in board.artifact_spaces:
                b1, b2 = walk[s][pos], home_walk[s]
                if b1 + b2 >= _INF / 4:
                    continue
                # The icons as a float: they are only ever multiplied by one.
                ic = float(icons[s][pos] + home_icons[s])
                out.append((s, b1, b2, b1 + b2, ic, danger_zone[s]))
            self._legs[pos] = out
        return out

    def near(self, pos: int, goal: int, stops: Sequence[tuple[Any, ...]]) -> list[Any]:
        """The stops (``stops[i][0]`` is a space) at most DETOUR_MAX boots off the best route
        from pos to goal, as (extra boots, *stop), nearest first (cached)."""
        key = (pos, goal)
        out = self._near.get(key)
        if out is None:
            to_goal = self.cost[goal]
            here = to_goal[pos]
            # ``cost[x][pos]`` for every stop x, without working out a row for each.
            from_pos = self.out(pos)
            out = []
            for stop in stops:
                x = stop[0]
                if x in (pos, goal):
                    continue
                extra = from_pos[x] + to_goal[x] - here
                if extra <= DETOUR_MAX:
                    # The amounts the gain multiplies or adds, as floats (the same sums).
                    x, major, minor, heal, gold, draw, fruit, town = stop
                    out.append(
                        (extra, x, major, float(minor), heal, float(gold), float(draw), fruit, town)
                    )
            out.sort(key=lambda e: e[0])
            self._near[key] = out
        return out


def ways_in(
    board: Board,
    grants: frozenset[str],
    closed: frozenset[int] = frozenset(),
    paid: frozenset[tuple[str, float]] = _NONE,
) -> list[list[tuple[int, Move, float, float, int, bool]]]:
    """Each space's ways in for a route table: (from, move, boots, the footprints' extra,
    icons, exhausts), the moves these items open and the ways closed at ``closed`` left out;
    a way paid in another resource counts its price in boots (``paid``), or is left out. The
    same for every monster weight and toll: tables that differ only in those share one."""
    n = len(board.spaces)
    price = dict(paid)
    incoming: list[list[tuple[int, Move, float, float, int, bool]]] = [[] for _ in range(n)]
    for a, moves in enumerate(board.moves):
        for m in moves:
            if closed and m.way.blocked_by and (a in closed or m.to in closed):
                continue  # a way closed there now (a token that blocks it lies on an end)
            boots: float = m.boots
            if m.way.paid_in != "boots":
                unit = price.get(m.way.paid_in, 0.0)
                if not unit:
                    continue
                boots = m.boots * unit
            if all(r in grants for r in m.requires):
                # A free move (a lift: no boots) has no footprints to pay extra for.
                extra = FOOTPRINT_COST * (m.boots - 1) if m.boots else 0.0
                incoming[m.to].append((a, m, boots, extra, m.monsters, m.way.exhausts))
    return incoming


class _BoardInfo:
    """What the heuristic bot precomputes once per board (and its pack): route tables by
    monster weight and items held, the resource profile of each card, the attack rate."""

    __slots__ = (
        "asks_tokens",
        "board",
        "catalog",
        "routes",
        "plain_routes",
        "requirements",
        "way_resources",
        "way_list",
        "per_turn",
        "toll_hurt",
        "toll_swords",
        "toll_hooks",
        "toll_fight",
        "all_tolls",
        "dynamic",
        "entry_hooks",
        "_amounts",
        "blockers",
        "profiles",
        "terms",
        "deck_cards",
        "dragon_share",
        "forest",
        "danger_zone",
        "mugs",
        "market",
        "granting",
        "rewards",
        "major_spaces",
        "most",
        "place",
        "lines",
        "least_fare",
        "coach_pairs",
        "kinds",
        "shortened",
        "_ways_in",
    )

    def __init__(self, game: Any) -> None:
        board = game.board
        self.board = board
        # The pack it was made for (a variant of a pack plays on the same board).
        self.catalog = game.catalog
        self.routes: dict[tuple[Any, ...], _Routes] = {}
        # The tables for a player whose items open no path, by monster weight.
        self.plain_routes: dict[float, _Routes] = {}
        # The ways in of the route tables (`ways_in`), by items, closed spaces and prices.
        self._ways_in: dict[tuple[Any, ...], list[list[Any]]] = {}
        self._read_ways(board, game.catalog.resources)
        self._read_tolls(board)
        # Whether the route table depends on what the player holds or on the tolls.
        self.dynamic = bool(self.way_resources or self.toll_hooks)
        self._read_entry_hooks(board)
        # What the bot works out of a card or a token's lines when first asked (`profile`,
        # `amounts`, `play_kind`, `effects`...).
        self._amounts: dict[CardDef, dict[str, float]] = {}
        self.profiles: dict[CardDef, tuple[float, ...]] = {}
        self.terms: dict[CardDef, tuple[tuple[int, float], ...]] = {}
        self.place: dict[CardDef, str] = {}
        self.lines: dict[tuple[Any, str], list[dict[str, Any]]] = {}
        self.kinds: dict[CardDef, int] = {}
        self._read_deck(game.catalog.cards)
        self.forest = [sp.exhausts for sp in board.spaces]
        self.danger_zone = [sp.danger_zone for sp in board.spaces]
        tokens = game.catalog.tokens
        self.mugs = [t for t in tokens if t.kind == "mug"]
        self.market = [t for t in tokens if t.kind == "market"]
        # The tokens that grant a path requirement (`_errand` looks at them every turn).
        self.granting = [t for t in tokens if t.grants]
        # Spaces whose entry lines ask whether the player holds a token (`when you enter if
        # you lack "Fire Cloak": ...`), with those lines: what holding an item changes there.
        self.asks_tokens = []
        for sp in board.spaces:
            asks = [h for h in sp.on.get("enter", ()) if _asks_token(h.cond)]
            if asks:
                self.asks_tokens.append((sp.index, asks))
        self._read_stops(board)
        # Whether a route table with one more item shortens the round trip from a space to
        # an artifact space, by the tables without and with it and the space, then by the
        # artifact space (`_Targets._shortens`).
        self.shortened: dict[tuple[Any, ...], dict[int, bool]] = {}

    def _read_ways(self, board: Board, declared: dict[str, Any]) -> None:
        """What the board's ways ask of a route: the items some path requires, the resources
        other than boots some path's way is paid in (a route prices such a path by how soon
        the player has some: `HeuristicBot._paying`) and the per-turn ones among them, and
        the words of tokens that close a way where they lie (`blocked by`: the route tables
        leave out moves of such a way from or to a space holding one, see `closed`)."""
        self.requirements = frozenset(r for ms in board.moves for m in ms for r in m.requires)
        self.way_resources = frozenset(
            m.way.paid_in for ms in board.moves for m in ms if m.way.paid_in != "boots"
        )
        self.way_list = tuple(sorted(self.way_resources))
        self.per_turn = frozenset(
            r for r in self.way_resources if r not in declared or declared[r].per_turn
        )
        self.blockers = frozenset(w for ms in board.moves for m in ms for w in m.way.blocked_by)

    def _read_tolls(self, board: Board) -> None:
        """The spaces with an entry toll: the damage it may deal (a route counts it as
        monster icons while the toll is live), the swords one of its options asks (kept for
        it) and that option as an effect list, its hooks; and all of them (route tables count
        them all: a guard beaten since is seen on the move into its space,
        `HeuristicBot._live`, so they stay few)."""
        self.toll_hurt: dict[int, int] = {}
        self.toll_swords: dict[int, int] = {}
        self.toll_hooks: dict[int, tuple[Any, ...]] = {}
        self.toll_fight: dict[int, list[dict[str, Any]]] = {}
        for s in sorted(board.tolled):
            hooks = tuple(h for h in board.spaces[s].on.get("enter", ()) if is_toll(h))
            hurt = swords = 0
            for h in hooks:
                for lst in _nested_lists(h.effects):
                    terms = _reading_of(lst).terms
                    hurt = max(hurt, round(terms.get("damage", 0.0)))
                    asks = round(-terms.get("swords", 0.0))
                    if asks > swords:
                        swords = asks
                        self.toll_fight[s] = lst
            self.toll_hooks[s] = hooks
            self.toll_hurt[s] = hurt
            self.toll_swords[s] = swords
        self.all_tolls = frozenset(self.toll_hooks)

    def _read_entry_hooks(self, board: Board) -> None:
        """The spaces whose entry triggers give something `Space.rewards` does not sum up (a
        token taken if the player lacks one, a choice of tokens...): their hooks by space,
        weighed with the game in view when the bot picks a move (`_entry_gain`)."""
        self.entry_hooks: dict[int, tuple[Any, ...]] = {}
        for sp in board.spaces:
            hooks = tuple(
                h
                for h in sp.on.get("enter", ())
                if not is_toll(h) and h.who == "you" and not summed_rewards((h,))
            )
            if hooks:
                self.entry_hooks[sp.index] = hooks

    def _read_deck(self, cards: Sequence[CardDef]) -> None:
        """The adventure deck's size and the chance that one card revealed into the row
        starts an attack (a dragon card, or an event that attacks)."""
        adventure = [c for c in cards if c.deck == "adventure"]
        size = sum(c.copies for c in adventure if c.type != "event") or 1
        dragons = sum(c.copies for c in adventure if c.dragon and c.type != "event")
        events = sum(c.copies for c in adventure if c.type == "event")
        attack_events = sum(
            c.copies
            for c in adventure
            if c.type == "event" and "dragon attack" in _reading_of(c.arrive, lines=True).asked
        )
        self.deck_cards = size + events
        self.dragon_share = (dragons + attack_events) / (size + events)

    def _read_stops(self, board: Board) -> None:
        """The spaces worth a stop (space, major, minor, heal, gold, draw, fruit, town), the
        major ones, the most of each reward one space gives (bounds the worth of a stop), and
        the coach: the least fare of a ride and each coach space with the rides from it
        ((coach space, [(other coach space, fare)]), none on a board with fewer than two)."""
        self.rewards = _stops(board)
        self.major_spaces = [r[0] for r in self.rewards if r[1]]
        self.most = [max((r[i] for r in self.rewards), default=0) for i in range(1, 6)]
        fares = [
            board.spaces[a].coach + board.spaces[b].coach
            for a in board.coach_spaces
            for b in board.coach_spaces
            if a != b
        ]
        self.least_fare = min(fares, default=0)
        coach = board.coach_spaces
        self.coach_pairs = [
            (a, [(b, board.spaces[a].coach + board.spaces[b].coach) for b in coach if b != a])
            for a in coach
        ]
        if len(coach) < 2:
            self.coach_pairs = []

    def table(
        self,
        grants: frozenset[str],
        mu: float,
        closed: frozenset[int] = frozenset(),
        paid: frozenset[tuple[str, float]] = _NONE,
        tolls: frozenset[int] = _NONE,
    ) -> _Routes:
        """The route table for these items, this monster weight, the spaces where a blocked
        way is closed now, the price in boots of the other resources that pay for ways and
        the spaces whose entry toll is live (built on first use)."""
        if closed or paid or tolls:
            key: tuple[Any, ...] = (grants & self.requirements, mu, closed, paid, tolls)
        else:
            key = (grants & self.requirements, mu)
        r = self.routes.get(key)
        if r is None:
            hurt = {s: self.toll_hurt[s] for s in tolls if s in self.toll_hurt}
            ways = self._ways_in.get((key[0], closed, paid))
            if ways is None:
                ways = self._ways_in[key[0], closed, paid] = ways_in(
                    self.board, key[0], closed, paid
                )
            r = self.routes[key] = _Routes(self.board, key[0], mu, closed, paid, hurt, ways)
        return r

    def closed(self, game: Any) -> frozenset[int]:
        """The spaces where a token that blocks a way lies now (empty on most boards)."""
        if not self.blockers:
            return frozenset()
        words = self.blockers
        # Loops and `isdisjoint`, not a generator in `any`: asked several times a turn.
        out = []
        for s, held in enumerate(game.space_tokens):
            for t in held:
                if not words.isdisjoint(t.match):
                    out.append(s)
                    break
        return frozenset(out)

    def table_for(self, tokens: Sequence[Any], mu: float) -> _Routes:
        """`table` for what these held tokens grant (the common case, a board whose paths
        need nothing or a player holding nothing that grants, without building the set)."""
        if tokens and self.requirements and any(t.grants for t in tokens):
            return self.table(frozenset(g for t in tokens for g in t.grants), mu)
        r = self.plain_routes.get(mu)
        if r is None:
            r = self.plain_routes[mu] = self.table(_NO_GRANTS, mu)
        return r

    def profile(self, card: CardDef) -> tuple[float, ...]:
        """What playing the card gives, by resource (conditional lines count by their
        chance), its triggers on events while in play included."""
        v = self.profiles.get(card)
        if v is None:
            v = self.profiles[card] = _card_reading(card).profile
        return v

    def profile_terms(self, card: CardDef) -> tuple[tuple[int, float], ...]:
        """The card's profile as (index, amount) for each resource it gives, in profile
        order (cached): what `HeuristicBot.power` sums."""
        v = self.terms.get(card)
        if v is None:
            prof = self.profile(card)
            v = self.terms[card] = tuple((i, a) for i, a in enumerate(prof) if a)
        return v

    def amounts(self, card: CardDef) -> dict[str, float]:
        """What playing the card gives of each unit key (``_Reading.terms``, remembered)."""
        v = self._amounts.get(card)
        if v is None:
            v = self._amounts[card] = _card_reading(card).terms
        return v

    def effects(self, thing: Any, on: str) -> list[dict[str, Any]]:
        """Every effect of a card's or token's triggers of one kind, in one list."""
        key = (thing, on)
        out = self.lines.get(key)
        if out is None:
            out = self.lines[key] = [e for _, eff in getattr(thing, on) for e in eff]
        return out

    def play_kind(self, card: CardDef) -> int:
        """3: pays off on some space (and gives no boots), 2: discards to draw, 1: draws,
        0: anything else."""
        k = self.kinds.get(card)
        if k is None:
            k = 0
            reading = _reading_of(card.play, lines=True)
            prof = reading.profile
            if reading.places and prof[BOOTS] <= 0:
                self.place[card] = reading.places[0]
                k = 3
            elif "discard" in reading.asked:
                k = 2
            elif prof[DRAW] > 0:
                k = 1
            self.kinds[card] = k
        return k


def _nested_lists(nodes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """An effect list and every effect list nested in its nodes (a choice's options too)."""
    out = [nodes]
    for node in nodes:
        for k, x in node.items():
            if k == "at" or not isinstance(x, list) or not x:
                continue
            if isinstance(x[0], dict) and "op" in x[0]:
                out += _nested_lists(x)
            elif isinstance(x[0], list):
                for lst in x:
                    if lst and isinstance(lst[0], dict) and "op" in lst[0]:
                        out += _nested_lists(lst)
    return out


def _doable(game: Any, ctx: Any, nodes: list[dict[str, Any]]) -> bool:
    """Whether every node of an effect list (and of the lists nested in it) that has a price
    or a precondition (`can_pay`) could be done now: a token still there to take, one to
    take from elsewhere... (a choice's options are not asked: one of them will do)."""
    for n in nodes:
        can = EFFECTS[n["op"]].can_pay
        if can is not None and not can(game, ctx, n):
            return False
        for lst in _effect_lists(n):
            if not _doable(game, ctx, lst):
                return False
    return True


def _card_reading(card: CardDef) -> Any:
    """How the bot reads what playing a card gives: its play lines, and with its triggers on
    events while in play when it has any (a reading of lines alone is shared by equal ones)."""
    if getattr(card, "hooks", ()):
        return _Reading(card.play, card)
    return _reading_of(card.play, lines=True)


def _asks_token(cond: Any) -> bool:
    """Whether a line's condition asks whether the player holds a token (a condition record
    whose meta names a `holding` parameter: `you have`, `you lack`), alone or inside another
    condition."""
    if not isinstance(cond, dict):
        return False
    if "cond" in cond and CONDITIONS[cond["cond"]].meta.get("holding"):
        return True
    return any(_asks_token(c) for v in cond.values() for c in (v if isinstance(v, list) else [v]))


def _stops(board: Board) -> list[tuple[int, int, int, int, int, int, int, bool]]:
    """The spaces worth a stop, from their rewards: (space, major, minor, heal, gold, draw,
    fruit, town). The only place the bot reads `Space.rewards`."""
    out = []
    for sp in board.spaces:
        got = dict.fromkeys(_REWARD_KINDS, 0)
        for kind, k in sp.rewards:
            if kind in got:
                got[kind] += k
        town = "town" in sp.features
        if town or any(got.values()):
            out.append((sp.index, *got.values(), town))
    return out


_NO_GRANTS: frozenset[str] = frozenset()


def _holds_kind(tokens: Sequence[Any], kind: str) -> bool:
    """Whether any of the tokens is of that kind (a loop: cheaper than `any` of a generator)."""
    for t in tokens:  # noqa: SIM110
        if t.kind == kind:
            return True
    return False


# The tables of the boards played last, at most BOARDS_KEPT of them, the least recently used
# dropped first. A pack plays on one board or a few, whose tables then last the whole run; a
# modular board is assembled for each game from the ships its seed draws (Space: 48 ships),
# and the catalog keeps the boards of the last ASSEMBLIES_KEPT (64) ships it assembled, so a
# ship played again is the same board: its tables are kept as long, not worked out again
# each time the ship comes back (one Space ship's tables take about 1.3 MiB, so a long run
# of Space keeps about 60 MiB of them; keeping every board met, when each game assembled a
# new one, grew to ~300 MiB). The tables are a cache: rebuilt, they are the same, and so are
# the games. Keyed by the board and the id of the pack it is played with: a variant of a pack
# (simulate's --without, --give, --sweep) plays on the same board with other cards (the
# entry keeps its pack, so the id is never another pack's meanwhile).
BOARDS_KEPT = 64
_INFO: OrderedDict[tuple[Board, int], _BoardInfo] = OrderedDict()


def _board_info(game: Any) -> _BoardInfo:
    key = (game.board, id(game.catalog))
    info = _INFO.get(key)
    if info is None or info.catalog is not game.catalog:
        info = _INFO[key] = _BoardInfo(game)
        while len(_INFO) > BOARDS_KEPT:
            _INFO.popitem(last=False)
    else:
        _INFO.move_to_end(key)
    return info


def _groups(opts: Sequence[Option]) -> dict[Any, Sequence[int]]:
    """The option indexes of each action kind. `legal_actions` lists a kind's options
    together, so each kind is a range of indexes, found by looking at where the kind changes;
    a list whose kinds come back later is grouped one option at a time."""
    groups: dict[Any, Sequence[int]] = {}
    prev = None
    start = 0
    i = 0
    for o in opts:
        kind = o[1][0]
        if kind is not prev:
            if prev is not None:
                groups[prev] = range(start, i)
            if kind in groups:
                return _groups_slow(opts)
            prev, start = kind, i
        i += 1
    if prev is not None:
        groups[prev] = range(start, i)
    return groups


def _groups_slow(opts: Sequence[Option]) -> dict[Any, Sequence[int]]:
    groups: dict[Any, list[int]] = {}
    for i, o in enumerate(opts):
        groups.setdefault(o[1][0], []).append(i)
    return groups  # type: ignore[return-value]


def _game_rules(game: Any) -> tuple[int, int, int, Any]:
    """The rules the heuristic bot reads every turn, for one game: hand size, row size, health
    and the cubes drawn a turn off the clock at this player count."""
    rules = game.rules
    off_draw = for_players(rules["off_clock_draw"], len(game.players))
    return rules["hand_size"], rules["row_size"], rules["health"], off_draw


def _weighted(amounts: Sequence[float], weights: Sequence[float]) -> float:
    """The value of a resource profile: each amount times its weight, summed left to right
    (the same order of float additions every time, so bots stay deterministic)."""
    a, w = amounts, weights
    # Unrolled for speed (a profile has nine entries); the additions stay left to right.
    return (
        a[0] * w[0]
        + a[1] * w[1]
        + a[2] * w[2]
        + a[3] * w[3]
        + a[4] * w[4]
        + a[5] * w[5]
        + a[6] * w[6]
        + a[7] * w[7]
        + a[8] * w[8]
    )
