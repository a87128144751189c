"""The heuristic bot's valuation: what a unit of each resource, a card, a token, a market
item, a way and a space's entry is worth to it this turn, in points of final score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .bot_routes import (
    _doable,
)
from .bot_values import (
    _UNKNOWN_UNIT,
)
from .catalog import CardDef
from .effects.registry import COUNTS, TRIGGERS, Valuer
from .scoring import award_margin
from .state import Ctx


def award_margins(game: Any, p: Any, what: str) -> list[tuple[str, float]]:
    """For each ranked award of the pack whose count is made of ``what`` ("unit": a
    resource or damage; "holding": tokens held; "owning": cards owned, as its count
    record's meta says), the thing counted (a unit key, a token's or a card's word) and the
    points one more of it wins the player now (`scoring.award_margin`)."""
    out = []
    for award in game.catalog.awards:
        count = award["count"]
        meta = COUNTS[count["count"]].meta
        if what == "unit":
            key = meta.get("unit_key") or count.get(meta.get("unit", ""))
        else:
            key = count.get(meta.get(what, ""))
        if key:
            out.append((str(key).lower(), float(award_margin(game, p, award))))
    return out


class _Worths:
    """Part of `HeuristicBot`: answers the `Valuer` questions with this turn's weights, and
    values cards and items."""

    __slots__ = ()

    def _way_unit(
        self, game: Any, p: Any, res: str, boots: float | None = None, reach: bool = True
    ) -> float:
        """Points one more unit of ``res`` (a resource some way of the board is paid in)
        brings: the boots a path of that way saves on the route to where the bot is going,
        worth a boot each. With ``reach``, a resource lost at the end of the turn is worth
        something only when such a path is within this turn's ``boots`` (default: the boots
        the player has)."""
        hq = game.board.hq
        goal = self.waypoint if self.waypoint not in (None, p.pos) else self.target
        if p.artifact is not None and self.waypoint in (None, p.pos):
            goal = hq
        if goal is None or goal == p.pos or self.routes is None:
            return 0.0
        info = self.info
        grants = self._grants(p)
        mu = self.routes.mu
        others = frozenset(x for x in self._paid if x[0] != res)
        closed = info.closed(game)
        without = info.table(grants, mu, closed, paid=others, tolls=info.all_tolls)
        with_it = info.table(grants, mu, closed, paid=others | {(res, 1.0)}, tolls=info.all_tolls)
        saved = without.cost[goal][p.pos] - with_it.cost[goal][p.pos]
        if saved < 0.5:
            return 0.0
        if reach and res in info.per_turn:
            left = float(p.boots if boots is None else boots) if not p.exhausted else 0.0
            step = with_it.step[goal]
            forest = info.forest
            pos = p.pos
            while True:
                m = step[pos]
                if m is None or pos == goal:
                    return 0.0
                paid = m.way.paid_in
                if paid == res:
                    break
                if paid == "boots":
                    if m.boots > left:
                        return 0.0
                    left -= m.boots
                pos = m.to
                if forest[pos]:
                    left = 0.0
        return min(saved, 3.0) * self.boot_value

    def _way_plan(self, res: str) -> float:
        """What a unit of ``res`` (it pays for a way) in a card is worth, over the plays to
        come: most of a boot while such a way shortens the trip (remembered for the turn)."""
        v = self._way_plans.get(res)
        if v is None:
            game = self._game
            p = game.players[self._seat]
            saves = self._way_unit(game, p, res, reach=False) > 0
            v = self._way_plans[res] = (0.8 if saves else 0.3) * self.boot_value
        return v

    def token(self, what: str) -> float:
        """Worth of taking one token matching ``what`` to hold, in points: a token that opens
        the way to the artifacts is worth ENABLE_CAP while they are out of reach (see
        `_errand`); any other, the mean over the pack's tokens that match (by their copies)
        of their points, what taking one gives (`on reveal`), its triggers while held, its
        `use` and its actions (remembered for the turn)."""
        worth = self._grant_worth.get(what)
        if worth is not None:
            return worth
        v = self._tokens.get(what)
        if v is not None:
            return v
        self._tokens[what] = Valuer.token(self, what)  # a token that takes itself stops here
        want = what.lower()
        total = 0.0
        n = 0
        game = self._game
        ranked = (
            award_margins(game, game.players[self._seat], "holding") if game.catalog.awards else ()
        )
        for t in game.catalog.tokens:
            if want in t.match and t.count:
                w = t.points * self.unit("points") + self._lines(t.reveal) + self._held(t)
                for word, margin in ranked:
                    if word in t.match:
                        w += margin * self.unit("points")
                if t.points_per:
                    w += self._points_counted(game, game.players[self._seat], t)
                total += t.count * w
                n += t.count
        v = self._tokens[what] = total / n if n else Valuer.token(self, what)
        return v

    def _lines(self, triggers: Any) -> float:
        """Worth of card or token lines (`use`, `on reveal`), each by its condition's chance."""
        total = 0.0
        for cond, eff in triggers:
            total += (1.0 if cond is None else self.chance(cond)) * self.effects(eff)
        return total

    def _held(self, t: Any) -> float:
        """What a token's own abilities bring while held: its triggers (each as often as its
        record says it fires over a game, for the share of a game the player has left to
        play), its `use` and its actions."""
        v = 0.0
        share = min(1.0, self.turns_left / self.GAME_TURNS)
        for h in t.hooks:
            v += share * self.line(h.cond) * TRIGGERS[h.on].appraise({"effects": h.effects}, self)
        if t.use:
            v += self._lines(t.use)
        for a in t.actions:
            v += max(0.0, self.effects(list(a.cost)) + self.effects(list(a.effects)))
        return v

    def _item_worth(self, game: Any, p: Any, tok: Any) -> float:
        """What a market item adds besides its printed points: its own abilities (a
        once-a-game action that gives a resource for a way: the boots it may save later)
        and what holding it changes (`_as_held`), remembered for the turn."""
        v = self._items.get(tok)
        if v is not None:
            return v
        v = 0.0
        if tok.hooks or tok.use or tok.actions:
            units = self._units if self._units is not None else self._make_units()
            now = {res: units.get(res) for res in self.info.way_resources}
            for res in now:
                units[res] = 0.7 * self._way_unit(game, p, res, reach=False)
            try:
                v = self._held(tok)
            finally:
                for res, x in now.items():
                    if x is None:
                        units.pop(res, None)
                    else:
                        units[res] = x
        if tok.points_per or self.info.asks_tokens:
            v += self._as_held(game, p, tok)
        self._items[tok] = v
        return v

    def _as_held(self, game: Any, p: Any, tok: Any) -> float:
        """What holding ``tok`` changes that its own lines do not say: its points when they
        count something (`points 3 per companion`), counted as the player stands now with
        the token; and the lines of the board's spaces whose condition asks about it (`when
        you enter if you lack "Fire Cloak": take 3 damage`), each space counted by the chance
        the player goes there (`_going`)."""
        tokens = p.tokens
        tokens.append(tok)  # as if held: read only, and taken back at once
        try:
            v = self._space_lines(game, p)
        finally:
            tokens.pop()
        if tok.points_per:
            v += self._points_counted(game, p, tok)
        return v - self._space_lines(game, p)

    def _points_counted(self, game: Any, p: Any, tok: Any) -> float:
        """The worth of ``tok``'s points that count something (`points 3 per companion`,
        `points 1 per cog you hold`), counted as ``p`` would stand holding it."""
        tokens = p.tokens
        tokens.append(tok)  # as if held: read only, and taken back at once
        try:
            per = tok.points_per
            return per["points"] * game.count_of(p, per["per"]) * self.unit("points")
        finally:
            tokens.pop()

    def _space_lines(self, game: Any, p: Any) -> float:
        """The worth of the board's conditional space lines whose condition holds for ``p``
        now, each by the chance the player goes to its space."""
        spaces = game.board.spaces
        v = 0.0
        for x, hooks in self.info.asks_tokens:
            ctx = Ctx(p, spaces[x])
            going = self._going(game, x)
            for h in hooks:
                if game.holds(ctx, h.cond):
                    v += going * self.effects(h.effects)
        return v

    def _going(self, game: Any, x: int) -> float:
        """The chance the bot goes to space ``x`` (a rough one): its target surely, a space
        still holding an artifact as one choice among the others, any other now and then."""
        if x == self.target:
            return 1.0
        if game.space_artifact[x] is not None:
            return 0.5
        return 0.2

    def _entry_gain(self, game: Any, p: Any, x: int, hooks: Sequence[Any]) -> float:
        """What entering space ``x`` now would give through its entry triggers: each whose
        limit allows it, whose condition holds and whose effects can all be done there."""
        # The same while the player's tokens and the tokens lying there do not change (a
        # limit that was used this turn: the player has entered, `visited` tells).
        key = (x, game.turn, len(p.tokens), len(game.space_tokens[x]))
        gain = self._gains.get(key)
        if gain is not None:
            return gain
        sp = game.board.spaces[x]
        ctx = Ctx(p, sp)
        gain = 0.0
        for h in hooks:
            if h.limit is not None:
                last = game.used.get(h.keys[p.seat])
                if last is not None and (h.limit == "game" or last == game.turn):
                    continue
            if h.cond is not None and not game.holds(ctx, h.cond):
                continue
            if not _doable(game, ctx, h.effects):
                continue
            worth = self._gains.get(h.uid)
            if worth is None:
                worth = self._gains[h.uid] = self.effects(h.effects)  # the same all turn
            gain += worth
        self._gains[key] = gain
        return gain

    def unit(self, key: str) -> float:
        """Worth of one unit of ``key`` this turn, in points (see `_weights`)."""
        units = self._units
        if units is None:
            units = self._make_units()
        v = units.get(key)
        if v is None:
            if key not in self.info.way_resources:
                return _UNKNOWN_UNIT
            # A resource that pays for a way: what it saves where the player stands now.
            game = self._game
            v = self._way_unit(game, game.players[self._seat], key, self._way_boots)
            units[key] = self._way_units[key] = v
        return v

    def _lines_worth(self, thing: Any, on: str) -> float:
        """Worth of every effect of a card's or token's triggers of one kind, taken as one
        list (remembered for the turn: the weights change only between turns)."""
        key = (thing, on)
        v = self._lw.get(key)
        if v is None:
            v = self._lw[key] = self.effects(self.info.effects(thing, on))
        return v

    def _moments_bonus(self, p: Any, card: CardDef) -> float:
        """What a card's own-move lines ("when you discard this") are worth on top of their
        record's chance for this player: more while the player's cards hold effects that make
        that move (a discard trigger in a deck of discarding cards), by the share of them."""
        cards = p.cards()
        if not cards:
            return 0.0
        info = self.info
        v = 0.0
        for event, lines in card.moments.items():
            doers = sum(1 for c in cards if info.amounts(c).get(event))
            if doers:
                share = min(1.0, self.cards_turn * doers / len(cards))
                v += share * self._lines(lines)
        return v

    def trash_value(self, name: str | None) -> float:
        """Worth of trashing one card (the weakest one the player could pick)."""
        return 1.0 if name is None else 0.6

    def power(self, card: CardDef) -> float:
        """What playing the card is worth this turn, in points: its profile weighed (`_weighted`,
        over the resources it gives: a zero amount adds nothing to the sum)."""
        v = self._power.get(card)
        if v is None:
            terms = self.info.terms.get(card)
            if terms is None:
                terms = self.info.profile_terms(card)
            w = self.w
            v = 0.0
            for i, a in terms:
                v += a * w[i]
            ways = self.info.way_resources
            if ways:
                # A resource that pays for a way: its profile counts it as a little of
                # anything; it is worth most of a boot while a way shortens the trip.
                got = self.info.amounts(card)
                for r in ways:
                    x = got.get(r)
                    if x:
                        v += x * (self._way_plan(r) - _UNKNOWN_UNIT)
            game = self._game
            if game.catalog.awards:
                # A resource (or damage) a ranked award counts: what one more wins now.
                got = self.info.amounts(card)
                for key, margin in award_margins(game, game.players[self._seat], "unit"):
                    x = got.get(key)
                    if x:
                        v += x * margin
            self._power[card] = v
        return v

    def _keep(self, card: CardDef) -> float:
        """How much the player wants to keep a card in its deck."""
        return self.power(card) + 2 * card.points

    def card_value(self, game: Any, p: Any, card: CardDef) -> float:
        """Points a card adds to the final score if acquired now."""
        v = self._worth.get(card)
        if v is not None:
            return v
        acq = self._lines_worth(card, "acquire") if card.acquire else 0.0
        if card.use:
            v = acq + self._lines_worth(card, "use")
        else:
            points = float(card.points)
            if game.catalog.awards:
                # A ranked award on cards owned with its name or a tag: what one more wins.
                for word, margin in award_margins(game, p, "owning"):
                    if word in card.match:
                        points += margin
            if card.points_per:
                # What it counts now, and what its record expects it to add by the end.
                per = card.points_per
                points += per["points"] * (game.count_of(p, per["per"]) + self.count(per["per"]))
            # The plays a card bought now is expected to get (the same for every card while
            # the deck is as long).
            deck = len(p.deck)
            known = self._plays
            if known is not None and known[0] == deck:
                plays = known[1]
            else:
                ct = self.cards_turn
                plays = max(0.0, self.turns_left - deck / ct) * ct / (self._deck_n + 1)
                self._plays = (deck, plays)
            power = self._power.get(card)
            if power is None:
                power = self.power(card)
            v = self.POINTS_SHARE * points + plays * (power - self.avg_power) + acq
            if card.moments:
                v += plays * self._moments_bonus(p, card)
        if card.danger:
            v += 1.0  # one cube less in every attack while it would have waited in the row
        self._worth[card] = v
        return v
