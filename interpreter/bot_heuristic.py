"""The heuristic bot: it plays like people (see `HeuristicBot`). Its parts are mixins, one
concern each: estimates (bot_estimates), the plan (bot_targets), valuation (bot_worth),
walking (bot_moves) and the action cascade (bot_turn)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .bot_estimates import _Estimates
from .bot_moves import _Moves
from .bot_routes import (
    _board_info,
    _BoardInfo,
    _game_rules,
    _Routes,
)
from .bot_targets import _Targets
from .bot_turn import _Turn
from .bot_values import (
    _BASE_W,
    _NONE,
    _Appraiser,
    _effect_lists,
)
from .bot_worth import _Worths
from .catalog import CardDef
from .decisions import Decision, Option


class HeuristicBot(_Turn, _Moves, _Targets, _Estimates, _Worths, _Appraiser):
    """Plays like people: an artifact worth its risk, a planned route there and home, a deck
    built for the trip, points once the trip is nearly over, and an eye on its health.

    Each turn it estimates its deck (boots, skill and swords a turn), the dragon (damage a
    round for it: attacks a round times cubes an attack, times its share of the bag, plus what
    players off the clock draw) and, for each artifact left, the turns a round trip takes, the
    chance to die on the way (Poisson) and the score it would bring home. It takes the best,
    walks the cheapest route (boots, monster icons against its swords and health, forests,
    water once it has a canoe, coaches when gold buys time), stops for secrets, healing and a
    crown when the detour is worth it, fights with swords it does not need for the paths, and
    buys the set of cards that adds most to its final score (deck power while there are turns
    left to play them, points late). It never uses randomness: a game depends on its seed.

    `play_first` lets the engine skip building every action while a hand is being played.
    """

    name = "heuristic"

    # Extra points the current target gets, so the bot does not dither between two.
    STICK = 3.0
    # Boots a turn the deck gains per turn while it is built, up to a cap.
    BOOTS_GROWTH = 0.15
    BOOTS_CAP = 3.0
    # Share of a turn's points that one turn saved is worth (sets the value of a boot).
    BOOT_TIME = 1.0
    # Points a Skill turns into, late in the game.
    PTS_SKILL = 0.5
    # Share of a route's monster icons expected to hurt (swords come with the deck).
    HURT_SHARE = 0.5
    # A card's points count this much (they count only if the player scores).
    POINTS_SHARE = 0.9
    # Share of a turn's points that makes one more turn a step from HQ worth its risk (0:
    # never stay out), and the most turns the bot stays out in a game.
    LINGER = 1.0
    LINGER_TURNS = 6
    # Damage comes in lumps (an attack can draw several of one's cubes): the expected damage
    # of a round is taken this many times over when staying out.
    LINGER_RISK = 3.0
    # Points a Sword not needed for the paths is worth (fights it could win instead), and a
    # Sword in a card's profile.
    SWORD_VALUE = 0.35
    W_SWORDS = 0.7
    # The most points an item that opens paths is taken to add (a route it makes possible at
    # all would otherwise be worth the unreachable distance).
    ENABLE_CAP = 20.0
    # The most boots a path paid in another resource counts as while the bot waits for a
    # turn that brings one (`_paying`).
    WAY_WAIT = 4.0
    # The turns a player takes in a whole game, about (a held token's triggers count for the
    # share of them still to come).
    GAME_TURNS = 12.0

    __slots__ = (
        "seed",
        "target",
        "waypoint",
        "coach_to",
        "_detoured",
        "_waits",
        "_wait_turn",
        "_game",
        "_turn",
        "_revealed",
        "_deck_left",
        "_deck_key",
        "_deck_avg",
        "_deck_points",
        "_deck_n",
        "_counts",
        "_tot",
        "_power",
        "_worth",
        "_lw",
        "_enable",
        "_units",
        "_looked",
        "_buys",
        "_plays",
        "info",
        "_rules",
        "routes",
        "w",
        "health_left",
        "health_value",
        "boot_value",
        "discard_cost",
        "attack_cost",
        "avg_power",
        "turns_left",
        "boots_turn",
        "swords_turn",
        "cards_turn",
        "pts_turn",
        "dmg_round",
        "cubes_round",
        "in_bag",
        "lam",
        "stake",
        "_ev",
        "_paid",
        "_live",
        "_live_seen",
        "_way_seen",
        "_way_boots",
        "_seat",
        "_way_rate",
        "_rates_key",
        "_held_ways",
        "_way_prices",
        "_way_units",
        "_way_plans",
        "_items",
        "_tokens",
        "_gains",
        "_grant_worth",
        "_errand_on",
    )

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._init_plan()
        self._init_deck()
        self._init_estimates()
        self._init_ways()
        self._init_turn_memory()

    def _init_plan(self) -> None:
        """No plan yet: no target, waypoint or coach ride, no errand, no wait, no purchase
        planned, and no game or turn the estimates are for."""
        self.target: int | None = None
        self.waypoint: int | None = None
        self.coach_to: int | None = None
        self._detoured = True
        # Turns spent waiting a step from HQ, and the last of them.
        self._waits = 0
        self._wait_turn = -1
        # The game and turn the estimates are for.
        self._game: Any = None
        self._turn = -1
        # The turn and space where the bot last weighed the artifact it stands on.
        self._looked: tuple[int, int] | None = None
        # The cards still to buy this turn and the skill that will be left for them.
        self._buys: tuple[int, list[tuple[str, CardDef]]] | None = None
        # The plays a card acquired now gets, for the deck length they were worked out at.
        self._plays: tuple[int, float] | None = None
        # Whether the target is an errand (a space whose action may give a token that grants
        # a missing path requirement) rather than an artifact.
        self._errand_on = False

    def _init_deck(self) -> None:
        """Nothing counted yet of the adventure deck or the player's own cards."""
        # Adventure cards revealed so far, and the deck's size when last looked at.
        self._revealed = 0
        self._deck_left: int | None = None
        self._deck_key: tuple[int, int, int] | None = None
        self._deck_avg: list[float] = [0.0] * 9
        self._deck_points = 0
        self._deck_n = 1
        self._counts: dict[CardDef, int] = {}
        self._tot: list[float] = [0.0] * 9

    def _init_estimates(self) -> None:
        """The turn's estimates before the first turn (`_begin` works them out): no board
        tables or route table yet, and middling figures for a fresh player."""
        self.info: _BoardInfo | None = None
        # The rules `_begin` reads, for the game `_game` (`_game_rules`).
        self._rules: tuple[int, int, int, float] = (5, 6, 10, 0.0)
        self.routes: _Routes | None = None
        self.w: list[float] = list(_BASE_W)
        self.health_left = 10
        self.health_value = 1.0
        self.boot_value = 1.5
        self.discard_cost = 1.0
        self.attack_cost = 2.0
        self.avg_power = 1.0
        self.turns_left = 10.0
        self.boots_turn = 1.0
        self.swords_turn = 0.0
        self.cards_turn = 5.0
        self.pts_turn = 3.0
        self.dmg_round = 0.5
        self.cubes_round = 1.0
        self.in_bag = 24.0
        self.lam = 0.0
        self.stake = 0.0
        # The expected final score of the trip to the target (`_choose_target`).
        self._ev = 0.0

    def _init_ways(self) -> None:
        """Nothing known yet of the resources that pay for ways or of the live entry tolls."""
        # Resources held now that pay for ways, and the spaces whose entry toll is live:
        # part of the route table's key (`_BoardInfo.table`).
        self._paid: frozenset[tuple[str, float]] = _NONE
        self._live: frozenset[int] = _NONE
        # What `_live` and the way units were last worked out for (`_refresh_routes`).
        self._live_seen: list[int] | None = None
        self._way_seen: tuple[Any, ...] | None = None
        # The boots `_way_unit` counts on (None: the player's own, mid-turn), and whose seat.
        self._way_boots: float | None = None
        self._seat = 0
        # Units a turn the deck brings of each resource that pays for a way (`_way_rates`),
        # and what one more unit of each is worth now (`_way_unit`).
        self._way_rate: dict[str, float] = {}
        # What the rates and the prices were last worked out for (`_way_rates`, `_paying`).
        self._rates_key: tuple[Any, ...] | None = None
        self._held_ways: list[bool] = []
        self._way_prices: frozenset[tuple[str, float]] | None = None
        self._way_units: dict[str, float] = {}
        self._way_plans: dict[str, float] = {}

    def _init_turn_memory(self) -> None:
        """Nothing remembered yet of what things are worth (`_begin` empties most of it each
        turn)."""
        self._power: dict[CardDef, float] = {}
        self._worth: dict[CardDef, float] = {}
        self._lw: dict[tuple[Any, str], float] = {}
        # What each market item that grants a path requirement adds this turn (`_enabling`).
        self._enable: dict[Any, float] = {}
        # What one unit of each key is worth this turn (the Valuer's answers).
        self._units: dict[str, float] | None = {}
        # What each market item's own abilities (actions, use, triggers) add (`_item_worth`).
        self._items: dict[Any, float] = {}
        # What holding a token matching a word is worth this turn (`token`), and what entering
        # a space gives (`_entry_gain`).
        self._tokens: dict[str, float] = {}
        self._gains: dict[Any, float] = {}
        # While no artifact can be reached: what each token that grants a missing path
        # requirement is worth (`token`).
        self._grant_worth: dict[str, float] = {}

    # -- carried state (interpreter/snapshot.py) ---------------------------------------------

    # Rebuilt from the game on load rather than written: the game the estimates are for, the
    # board's tables, the route table (written as its key) and the deck count's game id.
    _REBUILT = ("_game", "info", "routes", "_deck_key", "_rules")

    def bot_state(self) -> dict[str, Any]:
        """Every attribute the bot carries between decisions (plans, estimates, the running
        deck totals whose float sums depend on their history), as plain data."""
        from .snapshot import encode_any

        state = {k: encode_any(v) for k, v in self._attributes().items() if k not in self._REBUILT}
        routes = None
        if self.routes is not None and self.info is not None:
            key = next(k for k, r in self.info.routes.items() if r is self.routes)
            routes = [sorted(key[0]), key[1]]
            if len(key) > 2:
                routes += [sorted(key[2]), sorted(map(list, key[3])), sorted(key[4])]
        state["$rebuilt"] = {
            "game": self._game is not None,
            "routes": routes,
            "deck_key": None if self._deck_key is None else list(self._deck_key[1:]),
        }
        return state

    def _attributes(self) -> dict[str, Any]:
        """Every attribute the bot holds, in the order they were first set (its slots, then
        what a subclass keeps in its own dict)."""
        out = {k: getattr(self, k) for k in HeuristicBot.__slots__ if hasattr(self, k)}
        out.update(getattr(self, "__dict__", {}))
        return out

    def load_bot_state(self, game: Any, state: dict[str, Any]) -> None:
        """Carry on from `bot_state` in a restored game."""
        from .snapshot import load_attributes

        rebuilt = state["$rebuilt"]
        # What an older Clankwork's bot kept and this one no longer does (a play order it
        # remembered, say) is left out: it was only ever a cache of what the bot works out.
        slots = set(HeuristicBot.__slots__)
        anything = type(self) is not HeuristicBot  # a subclass may keep more in its dict
        kept = {k: v for k, v in state.items() if k != "$rebuilt" and (anything or k in slots)}
        load_attributes(self, game, kept)
        self._game = game if rebuilt["game"] else None
        self.info = _board_info(game) if rebuilt["game"] else None
        self._rules = _game_rules(game)
        self.routes = None
        if rebuilt["routes"] is not None and self.info is not None:
            grants, mu, *more = rebuilt["routes"]
            closed = frozenset(more[0]) if more else frozenset()
            paid = frozenset(map(tuple, more[1])) if len(more) > 1 else _NONE
            tolls = frozenset(more[2]) if len(more) > 2 else _NONE
            self.routes = self.info.table(frozenset(grants), mu, closed, paid, tolls)
        key = rebuilt["deck_key"]
        self._deck_key = None if key is None else (id(game), *key)

    # -- decisions ----------------------------------------------------------------------------

    def play_first(self, view: Any, p: Any) -> CardDef | None:
        """The card to play before looking at any other action (None: look at them all)."""
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        return self._choose_play(view, p)

    def choose_action(
        self, view: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int:
        """Answer an action decision (``groups``: each kind's option indexes) without a
        `Decision` built for it: the engine's shortcut (`Game.step`), several times a turn. A
        subclass that answers action decisions in its own `choose` sets this to None."""
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        return self._action(view, p, opts, groups)

    def choose(self, view: Any, decision: Decision) -> int:
        """Answer any decision."""
        p = view.players[decision.player]
        if view.turn != self._turn or view is not self._game:
            self._begin(view, p)
        kind = decision.kind
        opts = decision.options
        if kind == "action":
            return self._action(view, p, opts, decision.detail)
        if kind == "may":
            node = decision.detail
            if isinstance(node, dict):
                v = sum(self.effects(lst) for lst in _effect_lists(node))
                return 0 if v > 0 else 1
            return 0
        if kind == "choose":
            node = decision.detail
            if isinstance(node, dict) and "options" in node:
                values = [self.effects(o) for o in node["options"]]
                return values.index(max(values))
            return 0
        if kind == "discard":
            return min(range(len(opts)), key=lambda i: self._keep(opts[i].value))
        if kind == "trash":
            return min(range(len(opts)), key=lambda i: self._keep(opts[i].value[1]))
        if kind == "teleport":
            goal = self._goal(view, p)
            if goal is None:
                return 0
            cost = self.routes.cost[goal]
            return min(range(len(opts)), key=lambda i: cost[opts[i].value])
        return 0
