"""A game of the base rules: its state, the Game API the effect handlers call, and the turn.

One `Game` owns its RNG, its state and its log. Players are answered by bots through
`Game.decide`; `Game.play()` runs the game to its end and returns a `GameResult`. Tests and
scenarios can instead drive a turn step by step with `begin_turn`, `act` and `end_turn`.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from . import actions
from .assembly import label as assembly_label
from .board import Space
from .catalog import CardDef, Catalog, TokenDef, prepare
from .clone import clone
from .decisions import ACTION, DISCARD, MAY, TELEPORT, TRASH, Bot, Decision, Option
from .effects import CONDITIONS, COUNTS, EFFECTS
from .effects.stay_in_play import replay_held_over
from .effects.turn_modifiers import ignores_exhaustion, on_gain
from .rules import ROUND_CAP_MAX
from .scoring import GameResult, final_result
from .state import ESCAPED, GAME_STATE, KNOCKED_OUT, ON_CLOCK, Ctx, PlayerState
from .stats import GameStats

# The base resources of the turn's pool (lost when the turn ends).
_TURN_POOL = frozenset(("skill", "swords", "boots"))

BLACK = -1  # a dragon cube in the bag; player cubes are the player's seat number

# /2: a modular board's assembly named in the header draws the numbers drawing it would have
# (`Catalog.choose_assembly`); a /1 log's named assembly drew nothing.
LOG_FORMAT = "clankwork-log/2"
LOG_FORMATS_READ = ("clankwork-log/1", LOG_FORMAT)

# Actions in one turn beyond which the game is stuck in a loop.
MAX_STEPS = 5000
# Triggers set off by triggers, at most this deep (a space whose entry teleports you).
MAX_TRIGGER_DEPTH = 32


class Game:
    """One game: state, rules procedures and the API the effect handlers use."""

    # The game's state: every attribute a game changes, with its type; declared in state.py
    # (`GAME_STATE`, where a new field of the game is one line) beside PlayerState.
    STATE: ClassVar[dict[str, Any]] = GAME_STATE
    # What is not state: the pack, the players' bots, setup inputs, counters, lookup tables,
    # and the log and result (a snapshot carries the log beside the state).
    NOT_STATE: ClassVar[frozenset[str]] = frozenset(
        (
            "catalog",
            "board",
            "bots",
            "_play_firsts",
            "_actors",
            "seed",
            "first_player",
            "stacked_adventure",
            "goals_before",
            "stats",
            "_effect",
            "_condition",
            "_count",
            "log",
            "result",
            # The pack's trigger tables, and the trigger depth and game-end guard, which are
            # back to 0 and False whenever a decision is asked between actions.
            "_rule_on",
            "_held",
            "_watched",
            "_emits",
            "_track_gains",
            "_depth",
            "_ending",
            "_keep_log",
        )
    )
    # Every attribute is declared above, so a game keeps them in slots (read faster than from
    # an instance dict); a subclass that declares more state has a dict for them.
    __slots__ = (*STATE, *sorted(NOT_STATE))

    def __init__(
        self,
        pack: Catalog | dict[str, Any],
        bots: Sequence[Bot],
        seed: int,
        *,
        board: int | str = 0,
        rules: dict[str, Any] | None = None,
        first_player: int | None = None,
        stacked_adventure: Sequence[CardDef] = (),
        stats: GameStats | None = None,
        modules: str | Sequence[Sequence[str]] | None = None,
        goals_before: Sequence[dict[str, int]] = (),
        keep_log: bool = True,
    ) -> None:
        self.catalog = pack if isinstance(pack, Catalog) else prepare(pack, board)
        # Setup normally draws the first player at random and shuffles the adventure deck;
        # a scenario "as dealt" may name the first player (a seat) and the deck's top cards.
        self.first_player = first_player
        self.stacked_adventure = list(stacked_adventure)
        # A campaign game: the boxes of each seat's personal goals filled in earlier games.
        self.goals_before = [dict(g) for g in goals_before]
        self.board = self.catalog.board
        self.rules = dict(self.catalog.rules)
        if rules:
            self.rules.update(rules)
        self.bots = list(bots)
        # Each seat's `play_first` and `choose_action`, looked up once (most bots have none).
        self._play_firsts = [getattr(b, "play_first", None) for b in self.bots]
        self._actors = [getattr(b, "choose_action", None) for b in self.bots]
        n = len(self.bots)
        if not self.rules["min_players"] <= n <= self.rules["max_players"]:
            raise ValueError(
                f"{n} players; the rules allow {self.rules['min_players']} to "
                f"{self.rules['max_players']}"
            )
        self.seed = seed
        self.rng = random.Random(seed)
        # A modular board is assembled first, before any table sized by the board: as
        # ``modules`` says (written, or a snapshot's triples), else drawn with the game's RNG
        # (a plain board draws nothing, so its games deal as before).
        if modules is None or isinstance(modules, str):
            chosen = self.catalog.choose_assembly(self.rng, modules)
        else:
            chosen = tuple((str(p), str(m), str(s)) for p, m, s in modules) or None
        self.assembly: list[list[str]] = [list(a) for a in chosen or ()]
        self.board = self.catalog.board_for(chosen)
        # Counters for simulations (and the replay narrator); they never change the game.
        self.stats = stats
        # False: no decision records in the log and no digest of the final state (a simulated
        # game whose log and record nobody reads); the game itself is the same.
        self._keep_log = keep_log
        # Handlers by name (the registries' tables, shared by every game): a dict lookup per
        # node rather than the registry's.
        self._effect = EFFECTS.handlers
        self._condition = CONDITIONS.handlers
        self._count = COUNTS.handlers
        self.players = [PlayerState(i) for i in range(n)]
        self.order: list[int] = list(range(n))
        self.active: PlayerState = self.players[0]

        self.row: list[CardDef] = []
        self.adventure_deck: list[CardDef] = []
        self.adventure_discard: list[CardDef] = []
        self.reserve: dict[CardDef, int] = {}
        self.reserve_monsters: list[CardDef] = []
        self.trashed: list[CardDef] = []

        self.rage = 0  # index into rules["rage_track"]
        self.bag: list[int] = []
        self.black_aside = 0
        self.area_cubes: list[TokenDef] = []
        self.bag_tokens: list[TokenDef] = []
        # Cubes a scenario stacks on top of the bag: drawn first, in this order (a player's
        # seat, BLACK, or -2 - k for the pack's k-th token, a cube token).
        self.stacked_draws: list[int] = []

        self.minor_bank: list[TokenDef] = []
        self.major_bank: list[TokenDef] = []
        # Tokens a space holds (placed at setup by `holds`; the top of each is its end), and
        # the artifact on an artifact space.
        self.space_tokens: list[list[TokenDef]] = [[] for _ in self.board.spaces]
        self.space_artifact: list[TokenDef | None] = [None] * len(self.board.spaces)
        # "once per turn" / "once per game" triggers: hook key (uid@seat) -> turn last fired.
        self.used: dict[str, int] = {}
        self._rule_on = self.catalog.rule_hooks
        self._held = self.catalog.held_events
        # Events something watches: any other event is emitted for nothing.
        self._watched = frozenset(self._rule_on) | self._held
        # ... and with the events a space watches (its `enter` runs in `enter`), every event
        # `emit` has something to do for.
        self._emits = self._watched | self.board.events
        # What the active player gained this turn (read by `bonus_on_gain` and by the run's
        # statistics: the skill a turn had, for "could have acquired"). Always kept, so a
        # game's state and log are the same with statistics or without.
        self._track_gains = True
        self._depth = 0
        self._ending = False
        # The end-of-turn refill added a card with the dragon symbol (for the attack step).
        self.new_dragon = False
        # Seats in the order they went off the clock; the pack's counters by name.
        self.left: list[int] = []
        self.counters: dict[str, int] = {}
        self.token_supply: dict[TokenDef, int] = {}
        self.box: list[TokenDef] = []

        # "This turn" effects of the active player and what they gained (effects/turn_modifiers).
        self.turn_modifiers: list[dict[str, Any]] = []
        self.completed_contracts: list[list[Any]] = []
        self.campaign_marks: dict[str, int] = {}
        self.reads: list[int] = []
        self.turn_gained: dict[str, list[int]] = {}
        self.round = 0
        self.turn = 0
        self.over = False
        self.capped = False
        self.end_reason = ""
        self.result: GameResult | None = None
        self.log: list[dict[str, Any]] = [
            {
                "type": "header",
                "format": LOG_FORMAT,
                "seed": seed,
                "pack": self.catalog.name,
                "version": self.catalog.version,
                "board": self.board.name,
                **(
                    {"modules": assembly_label(self.catalog.modular, self.assembly)}
                    if self.catalog.modular is not None
                    else {}
                ),
                "players": n,
                "bots": [getattr(b, "name", type(b).__name__) for b in self.bots],
                "rules": {k: v for k, v in sorted((rules or {}).items())},
            }
        ]
        self.run_phase("setup", self.active)

    # -- running the game -----------------------------------------------------------------

    def play(self, after_turn: Callable[[Game], None] | None = None) -> GameResult:
        """Play to the end (or the round cap) and return the result.

        ``after_turn(game)`` is called after every turn (for checks and viewers).
        """
        # No pack and no --rule can lift the hard cap: every game ends.
        cap = min(self.rules["round_cap"], ROUND_CAP_MAX)
        while not self.over:
            if self.round >= cap:
                self.capped = True
                self._finish("round cap")
                break
            self.round += 1
            for seat in self.order:
                self.take_turn(self.players[seat])
                if after_turn is not None:
                    after_turn(self)
                if self.over:
                    break
        assert self.result is not None
        return self.result

    def take_turn(self, player: PlayerState) -> None:
        """One whole turn: an off-the-clock draw, or actions until the player ends the turn."""
        self.turn += 1
        self.active = player
        if player.status != ON_CLOCK:
            self._off_clock_turn()
            return
        self.begin_turn(player)
        steps = 0
        while self.step(player):
            steps += 1
            if steps >= MAX_STEPS:
                # Only content can do this (say a reserve monster whose defeat pays its swords):
                # the game is capped and reported, like one that reaches the round cap.
                self.capped = True
                self._finish("turn cap")
                return
        if not self.over:
            self.end_turn(player)

    def begin_turn(self, player: PlayerState) -> None:
        """Make ``player`` the active player and run the pack's `turn` phase (the base rules:
        `turn.begin`, an empty pool)."""
        self.active = player
        self.run_phase("turn", player)

    def empty_pool(self, player: PlayerState) -> None:
        """A turn begins: the pool is empty, nothing is exhausted or visited, this turn's
        modifiers are gone; the `turn start` event."""
        player.skill = player.swords = player.boots = player.clank_debt = 0
        player.exhausted = player.escaping = False
        player.visited.clear()
        player.pending.clear()
        player.recounts.clear()
        self.turn_modifiers, self.turn_gained = [], {}
        self.clear_turn_pools(player)
        if player.held_over:
            replay_held_over(self, player)  # a card's second turn in play
        self.emit("turn start", player)

    def step(self, player: PlayerState) -> bool:
        """Ask for one action and do it; False once the turn is over.

        A bot with ``play_first(view, player)`` may first name a card of the hand to play
        before any other action is listed (None: list them all), which saves building every
        action while a hand is played. It is logged as the same decision: plays are the first
        options of `actions.legal_actions`, in hand order, so the index and label are those
        the full list would give, and the log is the same either way."""
        hand = player.hand
        if hand:
            ask = self._play_firsts[player.seat]
            if ask is not None:
                card = ask(self, player)
                if card is not None:
                    try:
                        first = hand.index(card)
                    except ValueError:
                        raise RuntimeError(
                            f"bot {self.bots[player.seat]!r} played {card!r}, not in hand"
                        ) from None
                    if self._keep_log:
                        # Its index among the hand's plays: the designs before its first copy.
                        self._log_decision(
                            player.seat,
                            ACTION,
                            len(set(hand[:first])) if first > 1 else first,
                            actions.play_option(self, card).label,
                        )
                    # `apply` of the play (`actions.PLAY`), inlined: half of all actions.
                    self.play_card(player, card)
                    if player.pending or player.recounts:
                        self.check_pending(player)
                    if "action" in self._watched and not self.over:
                        self.emit("action", player)
                    return player.status == ON_CLOCK and not self.over
        groups: dict[Any, range] = {}
        options = actions.legal_actions(self, player, groups)
        actor = self._actors[player.seat]
        if actor is None:
            # The decision's detail: each kind's option indexes (bots need not group them).
            choice = self.decide(player, ACTION, options, prompt="your action", detail=groups)
        else:
            # A bot's `choose_action(view, player, options, groups)` answers the same decision
            # without a Decision built for it (several a turn); checked and logged alike.
            choice = actor(self, player, options, groups)
            if not isinstance(choice, int) or not 0 <= choice < len(options):
                raise RuntimeError(f"bot {self.bots[player.seat]!r} answered {choice!r} to action")
            if self._keep_log:
                self._log_decision(player.seat, ACTION, choice, options[choice].label)
        if self.stats is not None:
            self.stats.on_options(self, player, options, choice)  # what was offered, and taken
        value = options[choice].value
        if value[0] is actions.END_TURN:
            return False
        self.apply(player, value)
        return player.status == ON_CLOCK and not self.over

    def apply(self, player: PlayerState, value: tuple[Any, ...]) -> None:
        """Do one action (a legal one: see `actions.legal_actions`), then fire waiting lines."""
        value[0].apply(self, player, value)  # the action's record (actions.ActionKind)
        if player.pending or player.recounts:  # the hot loop: most actions leave none waiting
            self.check_pending(player)
        if "action" in self._watched and not self.over:
            self.emit("action", player)  # `after each action` triggers

    def act(self, player: PlayerState, label: str) -> None:
        """Do the legal action with that label (for tests and scenarios)."""
        options = actions.legal_actions(self, player)
        for o in options:
            if o.label == label:
                self.apply(player, o.value)
                return
        raise ValueError(f"{label!r} is not a legal action; legal: {[o.label for o in options]}")

    def end_turn(self, player: PlayerState) -> None:
        """The end-of-turn steps in the rulebook's order (the pack's `end_of_turn` phase)."""
        if self.stats is not None:
            self.stats.on_turn_end(self, player)
        self.emit("turn end", player)
        if self.over:
            return
        self.run_phase("end_of_turn", player)
        # Negative Clank! an event just gave is lost with the turn too; it must not cancel
        # Clank! that others give this player before their next turn.
        player.clank_debt = 0
        self._check_all_off()

    def run_phase(self, phase: str, player: PlayerState) -> None:
        """Run a phase's steps in order (engine steps, or a pack's effects) for ``player``."""
        for planned in self.catalog.steps[phase]:
            if self.over:
                return
            if planned.step is None:
                if planned.effects:  # an empty slot (a box no sticker fills) does nothing
                    self.run(Ctx(player, None), planned.effects)
            elif phase == "setup":
                planned.step.handler(self)
                player = self.active  # the first player, once drawn
            else:
                planned.step.handler(self, player)

    def _off_clock_turn(self) -> None:
        self.run_phase("off_clock", self.active)
        self._check_all_off()

    def off_clock_draw(self, n: int) -> None:
        """The Clank! area goes into the bag and exactly ``n`` cubes are drawn."""
        self._area_into_bag()
        if self.stats is not None:
            self.stats.on_attack(self, n, True)
        self._draw_cubes(n)

    def escape(self, player: PlayerState) -> None:
        """The player escapes: off the clock, Clank! cubes back to the supply."""
        player.status = ESCAPED
        self.left.append(player.seat)
        player.supply += player.area
        player.area = 0
        # What escaping earns (a mug, a trophy) is the pack's `when you escape:`.
        self.emit("escape", player)

    def refill_row(self) -> bool:
        """Fill the row up to its size; True when a newly added card has the dragon symbol."""
        dragon = False
        reshuffled = False
        while len(self.row) < self.rules["row_size"]:
            if not self.adventure_deck:
                # One reshuffle per refill: after it, the discard pile holds only the events
                # this refill revealed, and shuffling them back again would loop for ever.
                if not self.adventure_discard or reshuffled:
                    break
                reshuffled = True
                if self.stats is not None:
                    self.stats.on_recycle(self)
                self.adventure_deck = self.adventure_discard
                self.adventure_discard = []
                self.rng.shuffle(self.adventure_deck)
            card = self.adventure_deck.pop()
            if card.type == "event":
                # An event is carried out and discarded; it never joins the row.
                if self.stats is not None:
                    self.stats.on_event(self, card)
                self.run_triggers(Ctx(self.active, card), card.arrive)
                self.adventure_discard.append(card)
            else:
                self.row.append(card)
                dragon = dragon or card.dragon
                self.run_triggers(Ctx(self.active, card), card.arrive)
            if self.over:
                break
        return dragon

    def _check_all_off(self) -> None:
        if self.over:
            return
        for p in self.players:
            if p.status == ON_CLOCK:
                return
        self._finish("all off the clock")

    def _finish(self, reason: str) -> None:
        if not self._ending:
            self._ending = True
            # The pack's `end_of_game` phase (base rules: the `game end` event), then scoring.
            self.run_phase("end_of_game", self.active)
            if self.over:
                return  # a game-end trigger or step ended it already
        self.over = True
        self.end_reason = reason
        self.result = final_result(self, digest=self._keep_log)
        if self._keep_log:
            self.log.append(self.result.record())

    # -- decisions ------------------------------------------------------------------------

    def decide(
        self,
        player: PlayerState,
        kind: str,
        options: list[Option],
        prompt: str = "",
        source: str | None = None,
        detail: Any = None,
    ) -> int:
        """Put a decision to the player's bot, log the answer and return its index."""
        n = len(options)
        if n < 2:
            if not n:
                raise RuntimeError(f"a {kind} decision without options")
            if kind not in (ACTION, MAY):
                return 0
        seat = player.seat
        index = self.bots[seat].choose(self, Decision(seat, kind, options, prompt, source, detail))
        if not isinstance(index, int) or not 0 <= index < n:
            raise RuntimeError(f"bot {self.bots[seat]!r} answered {index!r} to {kind}")
        if self._keep_log:
            self._log_decision(seat, kind, index, options[index].label)
        return index

    def _log_decision(self, seat: int, kind: str, index: int, label: str) -> None:
        """The log's record of a decision answered."""
        self.log.append(
            {
                "type": "decision",
                "turn": self.turn,
                "player": seat,
                "kind": kind,
                "index": index,
                "label": label,
            }
        )

    def choose(
        self,
        player: PlayerState,
        kind: str,
        labels: Sequence[str],
        source: Any = None,
        detail: Any = None,
    ) -> int:
        """The effect handlers' decision point: the index of the label the player picks."""
        options = [Option(label, i) for i, label in enumerate(labels)]
        pick = self.decide(
            player, kind, options, source=getattr(source, "name", source), detail=detail
        )
        if self.stats is not None and isinstance(source, Space):
            # What players answer to a space (its entry toll, what it offers): counted even
            # when only one option was open, as the rules then decided for them.
            self.stats.on_choice(self, player, source.index, kind, labels[pick], detail)
        return pick

    # -- effects --------------------------------------------------------------------------

    def run(self, ctx: Ctx, effects: list[dict[str, Any]]) -> None:
        """Run effect nodes in order for ``ctx``."""
        for node in effects:
            if self.over:
                return
            self._effect[node["op"]](self, ctx, node)

    def holds(self, ctx: Ctx, cond: dict[str, Any]) -> bool:
        """Whether a condition node holds now for ``ctx``."""
        return bool(self._condition[cond["cond"]](self, ctx, cond))

    def count_of(self, player: PlayerState, count: dict[str, Any]) -> int:
        """The value of a count node (a "per ..." formula) for ``player``."""
        return int(self._count[count["count"]](self, player, count))

    def run_triggers(self, ctx: Ctx, triggers: Sequence[tuple[Any, list[dict[str, Any]]]]) -> None:
        """Run acquire, defeat, arrive, use or reveal lines whose condition holds now."""
        # Unlike "play if", these test their condition once, when they happen.
        for cond, effects in triggers:
            if cond is None or self.holds(ctx, cond):
                self.run(ctx, effects)

    # -- events and triggers --------------------------------------------------------------

    def emit(self, event: str, player: PlayerState | None, space: int | None = None) -> None:
        """A rules step happened: fire the triggers that watch ``event``.

        ``player`` is who it is about (None for the dragon and the game's end); ``space`` is
        the space it happened on (default: the player's). Fires, in order: the space's
        triggers, the pack's rules triggers, then cards in play and tokens held, player by
        player from the active one."""
        if event not in self._emits or self.over:
            return
        if player is not None:
            sp = self.board.spaces[player.pos if space is None else space]
            on = sp.on.get(event)
            if on is not None and event != "enter":
                ctx = Ctx(player, sp)
                for hook in on:
                    self.fire(hook, ctx)
        if event not in self._watched:
            return
        rules = self._rule_on.get(event)
        if rules:
            ctx = Ctx(player if player is not None else self.active, None)
            for hook in rules:
                if hook.who != "other":
                    self.fire(hook, ctx)
        if event in self._held:
            seats = self.order
            start = seats.index(self.active.seat)
            for k in range(len(seats)):
                owner = self.players[seats[(start + k) % len(seats)]]
                held = [*owner.play, *owner.tokens]
                if owner.artifact is not None:
                    held.append(owner.artifact)
                for thing in dict.fromkeys(held):
                    for hook in thing.hooks:
                        if hook.event != event:
                            continue
                        who = hook.who
                        if (
                            who == "any"
                            or (who == "you" and owner is player)
                            or (who == "other" and player is not None and owner is not player)
                        ):
                            self.fire(hook, Ctx(owner, thing))

    def fire(self, hook: Any, ctx: Ctx) -> None:
        """Run one trigger for ``ctx`` if its limit and condition allow it now."""
        if self.over or self._depth >= MAX_TRIGGER_DEPTH:
            # A trigger whose effects set off itself again (enter: teleport, between two
            # such spaces) stops here rather than recursing for ever.
            return
        key = None
        if hook.limit is not None:
            key = hook.keys[ctx.player.seat]
            last = self.used.get(key)
            if last is not None and (hook.limit == "game" or last == self.turn):
                return
        if hook.cond is not None and not self.holds(ctx, hook.cond):
            return
        if key is not None:
            self.used[key] = self.turn
        self._depth += 1
        try:
            self.run(ctx, hook.effects)
        finally:
            self._depth -= 1

    def play_card(self, player: PlayerState, card: CardDef) -> None:
        """Move a card from hand to play area and resolve its play lines."""
        player.hand.remove(card)
        player.play.append(card)
        gains = card.gains
        if gains is not None:
            # Nothing but plain gains (most cards): given as the `gain` op gives them.
            for resource, amount in gains:
                if self.over:
                    return
                self.gain(player, resource, amount)
            if "play" in self._emits and not self.over:
                self.emit("play", player)
            return
        # A card's play lines (a `play if` line waits for its condition all turn). Inlined:
        # this runs for about half of all actions.
        ctx = Ctx(player, card)
        for cond, effects in card.play:
            if cond is None:
                self.run(ctx, effects)
            else:
                # "Regardless of order": tested now and after every later step of the turn.
                player.pending.append((card, cond, effects))
            if self.over:
                return
        if "play" in self._emits:
            self.emit("play", player)

    def check_pending(self, player: PlayerState) -> None:
        """Fire each waiting "play if" line whose condition now holds (once each)."""
        fired = True
        while fired and player.pending and not self.over:
            fired = False
            for item in list(player.pending):
                card, cond, effects = item
                ctx = Ctx(player, card)
                if item in player.pending and self.holds(ctx, cond):
                    player.pending.remove(item)
                    self.run(ctx, effects)
                    fired = True
        for item in player.recounts:
            ctx, node, given = item
            due = node["amount"] * self.count_of(ctx.player, node["per"])
            if abs(due) > abs(given) and not self.over:
                item[2] = due
                self.gain(ctx.player, node["resource"], due - given)

    def recount_later(self, ctx: Ctx, node: dict[str, Any], given: int) -> None:
        """Keep counting a "per ... in play" gain of a played card for the rest of the turn."""
        # "You get a card's effects regardless of the order in which you play your cards."
        if ctx.player is self.active and ctx.source in ctx.player.play:
            ctx.player.recounts.append([ctx, node, given])

    # -- the Game API of the effect handlers ------------------------------------------------

    def deal_face_down(self, what: str, feature: str) -> None:
        """Shuffle every supply token matching ``what`` face down and put one on each space
        with ``feature``, in board order; the extras go back to the box unseen."""
        pile: list[TokenDef] = []
        for tok, left in self.token_supply.items():
            if left and what in tok.match:
                pile.extend([tok] * left)
                self.token_supply[tok] = 0
        self.rng.shuffle(pile)
        for sp in self.board.spaces:
            if feature in sp.features and pile:
                self.space_tokens[sp.index].append(pile.pop())
        self.box.extend(pile)

    def keep_in_play(self, player: PlayerState, card: CardDef) -> None:
        """Mark one copy of ``card`` in the play area to stay there for the next turn."""
        player.staying.append(card)

    def clear_play_area(self, player: PlayerState) -> None:
        """The end of the turn's discard: the copies told to stay remain in play for the next
        turn (and are its held-over cards); everything else goes to the discard pile."""
        keep = player.staying
        if not keep and not player.held_over:
            player.discard.extend(player.play)
            player.play.clear()
            return
        rest = list(player.play)
        for card in keep:
            rest.remove(card)
        player.discard.extend(rest)
        player.play[:] = keep
        player.held_over = list(keep)
        player.staying = []

    def replay_lines(self, player: PlayerState, card: CardDef) -> bool:
        """Run a card's play lines again (a card in its second turn in play); False if the
        game ended on the way."""
        ctx = Ctx(player, card)
        for cond, effects in card.play:
            if cond is None:
                self.run(ctx, effects)
            else:
                player.pending.append((card, cond, effects))
            if self.over:
                return False
        return True

    def gain(self, player: PlayerState, resource: str, amount: int) -> None:
        """Add ``amount`` (possibly negative) of a resource to the player's pool."""
        if amount > 0 and player is self.active and resource in _TURN_POOL:
            # The commonest gains of all (a played card's skill, boots or swords), kept
            # short: no floor to apply.
            if resource == "skill":
                player.skill += amount
            elif resource == "boots":
                player.boots += amount
            else:
                player.swords += amount
            got = self.turn_gained.get(resource)
            if got is None:
                got = self.turn_gained[resource] = [0, 0]
            got[0] += amount
            got[1] += 1
            if self.turn_modifiers:
                on_gain(self, player, resource, amount)
            return
        if resource == "skill":
            player.skill = max(0, player.skill + amount)
        elif resource == "swords":
            player.swords = max(0, player.swords + amount)
        elif resource == "boots":
            player.boots = max(0, player.boots + amount)
        elif resource == "gold":
            if amount >= 0:
                player.gold += amount
            else:
                self._pay_gold(player, min(-amount, self.gold_of(player)))
        elif resource == "clank":
            before = player.area
            self.clank(player, amount)
            # Clank! made is what reached the area (debt and an empty supply take the rest).
            amount = player.area - before
        elif resource in self.catalog.resources:
            pools = player.pools
            pools[resource] = max(0, pools.get(resource, 0) + amount)
        else:
            raise ValueError(f"unknown resource {resource!r}")
        if amount > 0 and self._track_gains and player is self.active:
            got = self.turn_gained.setdefault(resource, [0, 0])
            got[0] += amount
            got[1] += 1
            if self.turn_modifiers:
                on_gain(self, player, resource, amount)

    def clear_turn_pools(self, player: PlayerState) -> None:
        """Empty the player's declared resources that last one turn (like boots)."""
        if player.pools:
            resources = self.catalog.resources
            for name in player.pools:
                if resources[name].per_turn:
                    player.pools[name] = 0

    def pool(self, player: PlayerState, resource: str) -> int:
        """How much of a resource the player has now (gold counts gold-valued tokens)."""
        if resource == "gold":
            return self.gold_of(player)
        if resource == "clank":
            return player.area
        if resource in ("skill", "swords", "boots"):
            return int(getattr(player, resource))
        return player.pools.get(resource, 0)

    def clank(self, player: PlayerState, amount: int) -> None:
        """Add or remove Clank! cubes; negative Clank! waits for later Clank! this turn."""
        if not player.on_clock:
            return  # off the clock: no more Clank!
        if amount < 0:
            removed = min(-amount, player.area)
            player.area -= removed
            player.supply += removed
            if player is self.active:
                player.clank_debt += -amount - removed
            return
        cancel = min(amount, player.clank_debt)
        player.clank_debt -= cancel
        added = min(amount - cancel, player.supply)
        player.supply -= added
        player.area += added

    def can_spend(self, player: PlayerState, resource: str, n: int) -> bool:
        """Whether the player can pay ``n`` of a resource."""
        return self.pool(player, resource) >= n

    def spend(self, player: PlayerState, resource: str, n: int) -> None:
        """Pay ``n`` of a resource (the caller checked `can_spend`)."""
        if resource == "gold":
            self._pay_gold(player, n)
        elif resource == "clank":
            player.area -= n
            player.supply += n
        elif resource in ("skill", "swords", "boots"):
            setattr(player, resource, getattr(player, resource) - n)
        else:
            player.pools[resource] -= n

    def _pay_gold(self, player: PlayerState, n: int) -> None:
        # Coins first; then gold-valued tokens, smallest first, with change in coins.
        from_coins = min(n, player.gold)
        player.gold -= from_coins
        n -= from_coins
        while n > 0:
            tok = min((t for t in player.tokens if t.gold), key=lambda t: t.gold, default=None)
            if tok is None:
                raise RuntimeError("paid more gold than the player has")
            player.tokens.remove(tok)
            self.box.append(tok)
            if tok.gold > n:
                player.gold += tok.gold - n
                n = 0
            else:
                n -= tok.gold

    def gold_of(self, player: PlayerState) -> int:
        """Gold plus the gold value of tokens that count as gold."""
        gold = player.gold
        for t in player.tokens:
            gold += t.gold
        return gold

    def draw(self, player: PlayerState, n: int) -> None:
        """Draw cards, reshuffling the discard pile (never the play area) into an empty deck."""
        hand = player.hand
        while n > 0:
            deck = player.deck
            if not deck:
                if not player.discard:
                    return
                player.deck, player.discard = player.discard, []
                self.rng.shuffle(player.deck)
                deck = player.deck
            # The top k cards, top first (the top of a deck is its end), in one slice.
            k = min(n, len(deck))
            hand.extend(deck[: -k - 1 : -1])
            del deck[-k:]
            n -= k

    def heal(self, player: PlayerState, n: int) -> None:
        """Return up to ``n`` cubes from the health meter to the supply."""
        k = min(n, player.damage)
        player.damage -= k
        player.supply += k
        if k:
            self.emit("heal", player)

    def can_take_damage(self, player: PlayerState, n: int) -> bool:
        """Voluntary damage needs the cubes in supply and must not fill the health meter."""
        return player.supply >= n and player.damage + n < self.rules["health"]

    def take_damage(self, player: PlayerState, n: int) -> None:
        """Damage with cubes from the player's supply (as many as it holds)."""
        if not player.on_clock:
            return
        k = min(n, player.supply)
        player.supply -= k
        player.damage += k
        if player.damage >= self.rules["health"]:
            self.knock_out(player)
        elif k:
            self.emit("damage", player)

    def knock_out(self, player: PlayerState) -> None:
        """The player's health meter is full: off the clock."""
        player.status = KNOCKED_OUT
        self.left.append(player.seat)
        self.emit("knocked out", player)

    def teleport(self, player: PlayerState) -> None:
        """Move to an adjacent space of the player's choice (arrows and icons ignored)."""
        targets = actions.teleport_targets(self, player)
        if not targets:
            return
        spaces = self.board.spaces
        pick = self.decide(
            player, TELEPORT, [Option(f"teleport to {spaces[s].name}", s) for s in targets]
        )
        self.enter(player, targets[pick])

    def enter(self, player: PlayerState, space: int) -> None:
        """Arrive on a space: leave the old one, exhaustion, the space's `when you enter:`
        triggers (a reward is one, once per turn), the pack's, then escape."""
        old = player.pos
        if old != space and ("leave" in self._watched or "leave" in self.board.spaces[old].on):
            self.emit("leave", player, old)
            if self.over or not player.on_clock:
                return
        player.pos = space
        if self.stats is not None:
            self.stats.on_enter(self, player, space)
        sp = self.board.spaces[space]
        if sp.exhausts and not (self.turn_modifiers and ignores_exhaustion(self)):
            player.exhausted = True
        player.visited.add(space)
        on = sp.on.get("enter")
        if on is not None:
            ctx = Ctx(player, sp)
            for hook in on:
                self.fire(hook, ctx)
                if self.over or not player.on_clock:
                    return
        if "enter" in self._watched:
            self.emit("enter", player, space)
            if self.over or not player.on_clock:
                return
        if space == self.board.hq and player.artifact is not None:
            player.escaping = True

    def take_here(self, player: PlayerState, what: str) -> None:
        """Take the top token matching ``what`` from the player's space (nothing if none)."""
        want = what.lower()
        here = self.space_tokens[player.pos]
        for i in range(len(here) - 1, -1, -1):
            tok = here[i]
            if want in tok.match or want in ("token", "any token"):
                del here[i]
                self.reveal(player, tok)
                return

    def can_discard(self, player: PlayerState, n: int) -> bool:
        """Whether the hand holds ``n`` unplayed cards."""
        return len(player.hand) >= n

    def discard(self, player: PlayerState, n: int) -> None:
        """Discard ``n`` cards of the player's choice from hand, without their effects."""
        for _ in range(n):
            if not player.hand:
                return
            choices = list(dict.fromkeys(player.hand))
            pick = self.decide(player, DISCARD, [Option(f"discard {c.name}", c) for c in choices])
            card = choices[pick]
            player.hand.remove(card)
            player.discard.append(card)

    def trash(self, player: PlayerState, n: int, card: str | None = None) -> None:
        """Trash cards of the player's choice from discard pile or play area (name or tag)."""
        want = card.lower() if card else None
        for _ in range(n):
            options = [
                Option(f"trash {c.name} from {where}", (zone, c))
                for where, zone in (("discard pile", player.discard), ("play area", player.play))
                for c in dict.fromkeys(zone)
                if want is None or want in c.match
            ]
            if not options:
                return
            zone, chosen = options[self.decide(player, TRASH, options)].value
            zone.remove(chosen)
            self.trashed.append(chosen)
            if zone is player.play:
                self.unmark_left_play(player, chosen)

    def unmark_left_play(self, player: PlayerState, card: CardDef) -> None:
        """A copy of ``card`` left the play area: a mark (held over, told to stay) that now
        names more copies than are in play goes with it, the held-over one first (it has
        given its second turn's text already)."""
        if player.held_over.count(card) + player.staying.count(card) > player.play.count(card):
            marks = player.held_over if card in player.held_over else player.staying
            marks.remove(card)

    def take_secret(self, player: PlayerState, size: str) -> None:
        """Take a secret of that size from the bank (nothing when it is empty) and reveal it."""
        bank = self.minor_bank if size == "minor" else self.major_bank
        if bank:
            self.reveal(player, bank.pop())

    def reveal(self, player: PlayerState, token: TokenDef) -> None:
        """The player takes a token: artifacts to the artifact slot, "on reveal" lines run."""
        if self.stats is not None:
            self.stats.on_token(self, player, token)
        if token.kind == "artifact":
            if player.artifact is None:
                player.artifact = token
            else:
                self.box.append(token)
                return
        else:
            player.tokens.append(token)
        if token.reveal:
            self.run_triggers(Ctx(player, token), token.reveal)
        if "reveal" in self._watched:
            self.emit("reveal", player)
        if token.returns and token in player.tokens:
            player.tokens.remove(token)
            self.box.append(token)

    def take_token(self, player: PlayerState, name: str) -> None:
        """Take one token of that name from the supply (nothing if none is left)."""
        want = name.lower()
        for tok, left in self.token_supply.items():
            if left and tok.name.lower() == want:
                self.token_supply[tok] = left - 1
                self.reveal(player, tok)
                return

    def return_token(self, player: PlayerState, token: TokenDef) -> None:
        """The player gives a token they hold back to the box (a token used up by its own
        lines: `return this token to the box`)."""
        if token in player.tokens:
            player.tokens.remove(token)
            self.box.append(token)

    def supply_to_box(self, what: str, n: int) -> int:
        """Put up to ``n`` tokens matching ``what`` from the supply back in the box (fewer
        market items with fewer players); how many went."""
        taken = self._from_supply(what, n)
        self.box.extend(taken)
        return len(taken)

    def place_held(self, player: PlayerState, what: str) -> bool:
        """Put a token the player holds (matching ``what``) on their space, where it lies
        for the rest of the game; False when they hold none."""
        want = what.lower()
        for tok in player.tokens:
            if want in tok.match:
                player.tokens.remove(tok)
                self.space_tokens[player.pos].append(tok)
                return True
        return False

    def place_from_supply(self, what: str, feature: str) -> None:
        """Put a token matching ``what`` from the supply on each space with ``feature``, in
        board order, while the supply lasts."""
        want, feature = what.lower(), feature.lower()
        for sp in self.board.spaces:
            if feature not in sp.features:
                continue
            for tok, left in self.token_supply.items():
                if left and want in tok.match:
                    self.token_supply[tok] = left - 1
                    self.space_tokens[sp.index].append(tok)
                    break

    def put_cubes(self, what: str, n: int) -> int:
        """Put up to ``n`` cube tokens matching ``what`` from the supply into the Clank!
        area (they go into the bag with the next attack); how many went."""
        taken = self._from_supply(what, n, kind="cube")
        self.area_cubes.extend(taken)
        return len(taken)

    def _from_supply(self, what: str, n: int, kind: str | None = None) -> list[TokenDef]:
        """Up to ``n`` tokens matching ``what`` (and of ``kind``, if given) taken out of the
        supply, in the supply's order."""
        want = what.lower()
        taken: list[TokenDef] = []
        for tok, left in self.token_supply.items():
            if len(taken) >= n:
                break
            if left and (kind is None or tok.kind == kind) and want in tok.match:
                k = min(left, n - len(taken))
                self.token_supply[tok] = left - k
                taken.extend([tok] * k)
        return taken

    def count_tokens(self, player: PlayerState, what: str) -> int:
        """Tokens the player holds (the artifact included) matching ``what``."""
        want = what.lower()
        n = sum(1 for t in player.tokens if want in t.match)
        art = player.artifact
        return n + (1 if art is not None and want in art.match else 0)

    # -- the API effect handlers change the state through (they never set fields) ---------

    def resolve_contracts(self, player: PlayerState) -> None:
        """The end of ``player``'s turn: they may complete each open contract they can (its
        condition holds, its price can be paid); completing runs its effects."""
        done = {name for name, _ in self.completed_contracts}
        ctx = Ctx(player, None)
        for c in self.catalog.contracts:
            if c["name"] in done or self.over:
                continue
            if "effects" not in c or ("if" in c and not self.holds(ctx, c["if"])):
                continue
            if not all(
                EFFECTS[e["op"]].can_pay is None or EFFECTS[e["op"]].can_pay(self, ctx, e)
                for e in c["effects"]
            ):
                continue
            node = {"op": "may", "do": c["effects"]}  # what a bot weighs, like a "may"
            if self.choose(player, MAY, ["yes", "no"], source=c["name"], detail=node) != 0:
                continue
            self.completed_contracts.append([c["name"], player.seat])
            self.log.append({"type": "contract", "name": c["name"], "seat": player.seat})
            self.run(ctx, c["effects"])

    def contract_instructions(self, moment: str) -> None:
        """Each open contract's instructions for the ``moment`` ("start" of the game, or its
        "end", after scoring), in the order of the Contracts row, for the active player; a
        contract completed this game has left the row."""
        ctx = Ctx(self.active, None)
        done = {name for name, _ in self.completed_contracts}
        for c in self.catalog.contracts:
            effects = c.get(moment)
            if effects and c["name"] not in done:  # a completed contract left the row
                self.run(ctx, effects)

    # -- a campaign game's marks (the post-game steps; tools/campaign.py keeps them) ------

    def post_game(self) -> None:
        """A campaign game's post-game steps (the `post_game` phase), after scoring; `each
        player` is every player, as at the end of the game."""
        assert self.result is not None, "the game is not over"
        # The game is scored; its effects run once more, for the campaign's marks.
        self.over = False
        try:
            for planned in self.catalog.steps["post_game"]:
                if planned.step is None:
                    self.run(Ctx(self.active, None), planned.effects or [])
                else:
                    planned.step.handler(self, self.active)
        finally:
            self.over = True

    def add_checkmark(self, player: PlayerState, why: str) -> None:
        """A Checkmark of Grudging Approval for the player (the campaign marks it on their
        Associate Status track after the game)."""
        player.checkmarks.append(why)

    def mark_track(self, track: str) -> None:
        """An X on the campaign track ``track`` (the campaign marks it after the game)."""
        self.campaign_marks[track] = self.campaign_marks.get(track, 0) + 1

    def queue_read(self, passage: int, seat: int | None = None) -> None:
        """A Book of Secrets passage to read after the game (the campaign reads it); ``seat``:
        the player whose action read it, who makes its choices (a campaign's game keeps it:
        tools/campaign.py)."""
        self.reads.append(passage)

    def mark_goal(self, player: PlayerState, name: str) -> None:
        """The player fills a box of their personal goal ``name`` (another player's goal,
        or a row already full, is not theirs to mark)."""
        goal = self.catalog.goals.get(name)
        if goal is None or goal["player"] != player.seat + 1:
            return
        before = self.goals_before[player.seat].get(name, 0) if self.goals_before else 0
        if before + player.goals.get(name, 0) < goal["boxes"]:
            player.goals[name] = player.goals.get(name, 0) + 1

    def review(self) -> None:
        """Employee reviews: a checkmark for scoring more than 0, one for winning, one for
        each row of personal goals completed this game."""
        assert self.result is not None
        for p in self.players:
            if self.result.scores[p.seat] > 0:
                self.add_checkmark(p, "scored more than 0")
            if p.seat in self.result.winners:
                self.add_checkmark(p, "won the game")
            before = self.goals_before[p.seat] if self.goals_before else {}
            for name, n in p.goals.items():
                size = self.catalog.goals[name]["boxes"]
                if before.get(name, 0) < size <= before.get(name, 0) + n:
                    self.add_checkmark(p, f"completed the row of {name}")

    def check_death(self) -> None:
        """Player death: if any player scored 0, one X on the track the pack's campaign names
        for a death (`death marks TRACK`; never more than one), then its passage (`reads P`)."""
        assert self.result is not None
        death = self.catalog.campaign.get("death")
        if death is not None and any(s == 0 for s in self.result.scores):
            if "marks" in death:
                self.mark_track(death["marks"])
            if "reads" in death:
                self.queue_read(death["reads"])

    def add_turn_modifier(self, node: dict[str, Any]) -> None:
        """A "this turn" effect is in force for the active player until the turn ends."""
        self.turn_modifiers.append(node)

    def set_turn_modifiers(self, mods: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Replace the turn's modifiers (to set them aside and put them back); the old ones."""
        old, self.turn_modifiers = self.turn_modifiers, mods
        return old

    def refresh(self, player: PlayerState) -> None:
        """The player is no longer exhausted: boots may be spent on movement again."""
        player.exhausted = False

    def return_black_cubes(self, n: int) -> int:
        """Put up to ``n`` set-aside black cubes back into the bag; how many went back."""
        k = min(n, self.black_aside)
        self.black_aside -= k
        self.bag.extend([BLACK] * k)
        return k

    def take_from_reserve(self, player: PlayerState, card: CardDef, n: int) -> int:
        """Up to ``n`` cards of a reserve pile into the player's discard pile (no cost, no
        acquire text); how many were taken."""
        k = min(self.reserve.get(card, 0), n)
        if k:
            self.reserve[card] -= k
            player.discard.extend([card] * k)
        return k

    def flip_reserve_monster(self, old: str, new: str) -> bool:
        """The reserve monster named ``old`` is turned over: the design ``new`` takes its
        place in the Reserve for the rest of the game; False when ``old`` is not there."""
        by_name = self.catalog.by_name
        was, now = by_name.get(old.lower()), by_name.get(new.lower())
        if was is None or now is None or was not in self.reserve_monsters:
            return False
        self.reserve_monsters[self.reserve_monsters.index(was)] = now
        return True

    def replace_row_card(self, card: CardDef) -> None:
        """Discard a card of the row and put the adventure deck's next card in its place: its
        dragon symbol is ignored, its arrive text happens; an event drawn is carried out and
        discarded, and the next card drawn."""
        where = self.row.index(card)
        self.row.remove(card)
        self.adventure_discard.append(card)
        while self.adventure_deck and not self.over:
            new = self.adventure_deck.pop()
            self.run_triggers(Ctx(self.active, new), new.arrive)
            if new.type == "event":
                self.adventure_discard.append(new)
                continue
            self.row.insert(where, new)
            return

    def remove_random(self, what: str, n: int) -> None:
        """Put ``n`` tokens matching ``what``, drawn at random from the board, in the box."""
        want = what.lower()
        for _ in range(n):
            spots = [
                (s, None) for s, t in enumerate(self.space_artifact) if t and want in t.match
            ] + [
                (s, i)
                for s, held in enumerate(self.space_tokens)
                for i, t in enumerate(held)
                if want in t.match
            ]
            if not spots:
                return
            s, i = spots[self.rng.randrange(len(spots))]
            if i is None:
                tok = self.space_artifact[s]
                self.space_artifact[s] = None
            else:
                tok = self.space_tokens[s].pop(i)
            assert tok is not None
            self.box.append(tok)

    def move_counter(self, name: str, n: int) -> None:
        """Move a counter the pack declares; it stays between 0 and its maximum."""
        top = self.catalog.counters.get(name, 0)
        self.counters[name] = max(0, min(top, self.counters.get(name, 0) + n))

    def advance_rage(self, n: int) -> None:
        """Move the dragon marker; it stays within the track. Each space it reaches going up
        is a `rage` event (`when the rage marker advances:`)."""
        new = max(0, min(len(self.rules["rage_track"]) - 1, self.rage + n))
        if new <= self.rage or "rage" not in self._watched:
            self.rage = new
            return
        while self.rage < new and not self.over:
            self.rage += 1
            self.emit("rage", None)

    def attack_size(self) -> int:
        """Cubes an attack draws now: the rage value plus one per danger card in the row."""
        n = self.rules["rage_track"][self.rage]
        for c in self.row:
            if c.danger:
                n += 1
        return n

    def dragon_attack(self, extra: int = 0) -> None:
        """The Clank! area goes into the bag, then rage value + danger (+ ``extra``) cubes
        are drawn."""
        self._area_into_bag()
        n = self.attack_size() + extra
        if self.stats is not None:
            self.stats.on_attack(self, n, False)
        self._draw_cubes(n)
        self.emit("dragon attack", None)

    def _area_into_bag(self) -> None:
        for p in self.players:
            if p.area:
                self.bag.extend([p.seat] * p.area)
                p.area = 0
        if self.area_cubes:
            self.bag_tokens.extend(self.area_cubes)
            self.area_cubes = []

    def _draw_cubes(self, n: int) -> None:
        health = self.rules["health"]
        bag, rng = self.bag, self.rng
        drawn: list[PlayerState] = []  # whose cubes came out, in the order drawn
        tokens = self.bag_tokens  # cube tokens of no player (empty in most packs)
        pulled: list[TokenDef] = []
        for _ in range(n):
            if not bag and not tokens:
                break
            stacked = self.stacked_draws
            if stacked and stacked[0] <= -2 and self.catalog.tokens[-2 - stacked[0]] in tokens:
                # A scenario names a cube token to draw next (-2 - its index in the pack).
                tok = self.catalog.tokens[-2 - stacked.pop(0)]
                tokens.remove(tok)
                pulled.append(tok)
                if self.stats is not None:
                    self.stats.on_cube_token(self, tok)
                continue
            if stacked and stacked[0] in bag:
                i = bag.index(stacked.pop(0))
            elif tokens:
                i = rng.randrange(len(bag) + len(tokens))
                if i >= len(bag):
                    tok = tokens.pop(i - len(bag))
                    pulled.append(tok)
                    if self.stats is not None:
                        self.stats.on_cube_token(self, tok)
                    continue
            else:
                i = rng.randrange(len(bag))
            bag[i], bag[-1] = bag[-1], bag[i]
            cube = bag.pop()
            if cube == BLACK:
                self.black_aside += 1
                continue
            p = self.players[cube]
            if p not in drawn:
                drawn.append(p)
            if p.on_clock:
                p.damage += 1
                if self.stats is not None:
                    self.stats.on_hit(self, p)
                if p.damage >= health:
                    self.knock_out(p)
            else:
                p.supply += 1  # off the clock: no damage, the cube goes home
        if drawn and not self.over:
            for p in drawn:
                self.emit("cubes drawn", p)
                if p.on_clock:
                    self.emit("damage", p)  # the dragon's damage is damage
        for tok in pulled:
            # A cube token's `when drawn:` lines act for the active player; then it goes back
            # to the Clank! area, to be bagged again by the next attack.
            self.area_cubes.append(tok)
            if tok.drawn and not self.over:
                self.run_triggers(Ctx(self.active, tok), tok.drawn)
        if not bag and not tokens:
            # An empty bag after an attack ends the game: everyone still in is knocked out.
            for p in self.players:
                if p.on_clock:
                    self.knock_out(p)
            self._finish("dragon bag empty")

    def each(self, player: PlayerState, include_self: bool = True) -> Iterator[PlayerState]:
        """Players on the clock from the active player clockwise (``player`` optional); in
        the `end_of_game` phase, when nobody is on the clock any more, every player."""
        seats = self.order
        start = seats.index(self.active.seat)
        everyone = self._ending
        for k in range(len(seats)):
            p = self.players[seats[(start + k) % len(seats)]]
            if (everyone or p.on_clock) and (include_self or p is not player):
                yield p

    def count_in_play(self, ctx: Ctx, tag: str, other: bool = False) -> int:
        """Cards in ctx's play area with that tag or name; ``other`` leaves out the source."""
        want = tag.lower()
        play = ctx.player.play
        n = sum(1 for c in play if want in c.match)
        source = ctx.source
        if other and isinstance(source, CardDef) and want in source.match and source in play:
            n -= 1
        return n

    def count_in_play_of(self, player: PlayerState, tag: str) -> int:
        """Cards in the player's play area with that tag or name."""
        want = tag.lower()
        return sum(1 for c in player.play if want in c.match)

    def count_owned(self, player: PlayerState, name: str) -> int:
        """Cards the player owns (deck, hand, discard, play area) with that name or tag."""
        want = name.lower()
        return sum(1 for c in player.cards() if want in c.match)

    def has_token(self, player: PlayerState, what: str) -> bool:
        """Whether the player holds a token matching a kind, type, name or granted word."""
        want = what.lower()
        if player.artifact is not None and want in player.artifact.match:
            return True
        return any(want in t.match for t in player.tokens)

    def grants(self, player: PlayerState, requirement: str) -> bool:
        """Whether a held token grants a path requirement (a canoe for water)."""
        return any(requirement in t.grants for t in player.tokens)

    def artifact_room(self, player: PlayerState) -> bool:
        """Whether the player, already carrying an artifact, may carry one more: held tokens
        that grant `artifact slot` outnumber the extra artifacts carried."""
        slots = carried = 0
        for t in player.tokens:
            if "artifact slot" in t.grants:
                slots += 1
            elif t.kind == "artifact":
                carried += 1
        return slots > carried

    def space_has(self, player: PlayerState, feature: str) -> bool:
        """Whether the player's space has that feature ("coach" and "waypoint" included)."""
        sp = self.board.spaces[player.pos]
        want = feature.lower()
        return (
            want in sp.features
            or (want == "coach" and sp.coach is not None)
            or (want == "waypoint" and sp.waypoint is not None)
        )

    # -- inspection -----------------------------------------------------------------------

    def cube_count(self, player: PlayerState) -> int:
        """All of a player's cubes wherever they are (constant: the conservation check)."""
        return player.supply + player.area + player.damage + self.bag.count(player.seat)

    def decision_log(self) -> list[dict[str, Any]]:
        """The decision records of the log."""
        return [r for r in self.log if r["type"] == "decision"]

    def snapshot(self, *, mid_turn: bool = False) -> dict[str, Any]:
        """The game as plain JSON data (see `interpreter.snapshot.snapshot`)."""
        from .snapshot import snapshot

        return snapshot(self, mid_turn=mid_turn)

    def clone(self, bots: Sequence[Bot] = (), *, keep_log: bool = False) -> Game:
        """A copy that plays on independently (see `interpreter.clone`): for search bots and
        what-if questions. ``bots`` answer the copy's decisions."""
        return clone(self, bots, keep_log=keep_log)

    def __repr__(self) -> str:
        return f"<game seed={self.seed} round={self.round} turn={self.turn}>"


# The young generation's threshold while `many_games` runs (Python's default is 700).
MANY_GAMES_GC_THRESHOLD = 10_000


@contextmanager
def many_games() -> Iterator[None]:
    """Around a loop that plays many games in one process (simulate's workers, the
    benchmarks): Python's cyclic garbage collector runs less often. A game allocates a great
    many short-lived objects that reference counting frees, and leaves a few reference cycles
    (players, bots and the log point at each other); with the default threshold the collector
    walks the young objects every 700 allocations, and each full walk visits the catalog, the
    boards and the bots' tables too. So on entry the garbage is collected and what is left is
    frozen (`gc.freeze`: never walked again while the loop runs), and collections come every
    10,000 allocations: ~3-5% more games a second, the same games (nothing a game decides
    depends on when garbage is collected). Collecting first matters: a game already dead but
    not yet collected would be frozen with the rest and never freed, chunk after chunk. The
    cycles the loop's own games leave are collected as it runs, so memory stays bounded.
    The collector's settings are restored afterwards; a nested use (or a caller's own freeze)
    is left as it was. The settings are the process's: use it from one thread at a time."""
    threshold = gc.get_threshold()
    outermost = gc.get_freeze_count() == 0
    if outermost:
        gc.collect()
        gc.freeze()
    gc.set_threshold(MANY_GAMES_GC_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if outermost:
            gc.unfreeze()
