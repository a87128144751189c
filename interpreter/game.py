"""A game: the facade that binds the engine's procedures to the game state.

The state is `state.GameState` (declared, typed fields) and `state.GameCore` (what a running
game holds besides: the pack, the bots, lookup tables, the log). The procedures are modules of
functions over it, one concern each: `turn` (the round loop, a turn's actions and end),
`events` (effects, triggers, phases), `asking` (decisions), `economy` (resources, Clank!,
health), `cards` (cards and zones), `tokens`, `movement`, `dragon` (rage, the bag, attacks,
counters), `ending` (the end of a game) and `campaign_marks` (contracts, a campaign game's
marks). `Game` makes a new game and names those functions as its methods: the API the effect
handlers, the step handlers, the bots, scenarios and tools call (``game.gain(...)`` is
`economy.gain(game, ...)`).

One `Game` owns its RNG, its state and its log. Players are answered by bots through
`Game.decide`; `Game.play()` runs the game to its end and returns a `GameResult`. Tests and
scenarios can instead drive a turn step by step with `begin_turn`, `act` and `end_turn`.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from . import (
    asking,
    campaign_marks,
    cards,
    dragon,
    economy,
    ending,
    events,
    movement,
    paths,
    statuses,
    tokens,
    turn,
)
from .assembly import label as assembly_label
from .catalog import CardDef, Catalog, prepare
from .clone import clone
from .decisions import Bot
from .effects import CONDITIONS, COUNTS, EFFECTS
from .events import MAX_TRIGGER_DEPTH
from .snapshot import snapshot
from .state import BLACK, GameCore, PlayerState
from .turn import MAX_STEPS

__all__ = ["BLACK", "LOG_FORMAT", "LOG_FORMATS_READ", "MAX_STEPS", "MAX_TRIGGER_DEPTH", "Game"]

# /2: a modular board's assembly named in the header draws the numbers drawing it would have
# (`Catalog.choose_assembly`); a /1 log's named assembly drew nothing.
LOG_FORMAT = "clankwork-log/2"
LOG_FORMATS_READ = ("clankwork-log/1", LOG_FORMAT)


class Game(GameCore):
    """One game: its state (`GameState`), and the engine's procedures as its methods."""

    __slots__ = ()

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
        stats: Any = None,
        modules: str | Sequence[Sequence[str]] | None = None,
        goals_before: Sequence[dict[str, int]] = (),
        keep_log: bool = True,
        digest: bool | None = None,
    ) -> None:
        """A game of ``pack`` played by ``bots`` on ``seed``, set up (the `setup` phase run).

        ``first_player`` and ``stacked_adventure`` deal a scenario "as dealt"; ``modules``
        names a modular board's assembly (else it is drawn); ``goals_before`` are a campaign
        game's personal goals filled in earlier games; ``stats`` a `GameStats` counting the
        game; ``keep_log=False`` keeps no decision records (the game itself is the same) and,
        unless ``digest`` says so, no digest of the final state in its result."""
        self.catalog = pack if isinstance(pack, Catalog) else prepare(pack, board)
        self.first_player = first_player
        self.stacked_adventure = list(stacked_adventure)
        # A scenario's rolls (`rolls N`): the options random outcomes take next, in order.
        self.stacked_rolls: list[int] = []
        self.goals_before = [dict(g) for g in goals_before]
        self.rules = dict(self.catalog.rules)
        if rules:
            self.rules.update(rules)
        self.bots = list(bots)
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
        self.assembly = [list(a) for a in chosen or ()]
        self.board = self.catalog.board_for(chosen)
        self.stats = stats
        self._keep_log = keep_log
        self._digest = keep_log if digest is None else digest
        self._tables()
        self._fresh_state(n)
        self.result = None
        self.log = [self._header(rules)]
        events.run_phase(self, "setup", self.active)

    def _tables(self) -> None:
        """What the engine looks up on every step, from the pack: handlers and triggers."""
        self._effect = EFFECTS.handlers
        self._condition = CONDITIONS.handlers
        self._count = COUNTS.handlers
        self._rule_on = self.catalog.rule_hooks
        self._held = self.catalog.held_events
        # Events something watches: any other event is emitted for nothing; and with the
        # events a space watches (its `enter` runs in `enter`), every event `emit` has
        # something to do for.
        self._watched = frozenset(self._rule_on) | self._held
        self._emits = self._watched | self.board.events
        # What the active player gained this turn is always kept (read by `bonus_on_gain` and
        # the run's statistics), so a game's state and log are the same with statistics or not.
        self._track_gains = True
        self._depth = 0
        self._ending = False

    def _fresh_state(self, n: int) -> None:
        """The state before setup: ``n`` players with nothing, empty piles and banks."""
        self.players = [PlayerState(i) for i in range(n)]
        self.order = list(range(n))
        self.active = self.players[0]
        self.row, self.adventure_deck, self.adventure_discard = [], [], []
        self.reserve, self.reserve_monsters, self.trashed = {}, [], []
        self.rage = 0
        self.bag, self.black_aside, self.stacked_draws = [], 0, []
        self.area_cubes, self.bag_tokens = [], []
        self.minor_bank, self.major_bank = [], []
        self.space_tokens = [[] for _ in self.board.spaces]
        self.space_artifact = [None] * len(self.board.spaces)
        self.path_tokens, self.closed_paths, self.added_paths = {}, [], []
        self.switches = dict.fromkeys(self.board.switches, 1)
        if self.switches:
            paths.reshape(self)  # the paths of each switch's other states are closed
        self.token_supply, self.box = {}, []
        self.used = {}
        self.new_dragon = False
        self.left, self.counters = [], {}
        self.turn_modifiers, self.turn_gained = [], {}
        self.completed_contracts, self.campaign_marks, self.reads = [], {}, []
        self.passages_read, self.opened_contracts = [], []
        self.round = self.turn = 0
        self.over = self.capped = False
        self.end_reason = ""

    def _header(self, rules: dict[str, Any] | None) -> dict[str, Any]:
        """The log's first record: what the game is (its seed, pack, board, players)."""
        modular = self.catalog.modular
        return {
            "type": "header",
            "format": LOG_FORMAT,
            "seed": self.seed,
            "pack": self.catalog.name,
            "version": self.catalog.version,
            "board": self.board.name,
            **({"modules": assembly_label(modular, self.assembly)} if modular else {}),
            "players": len(self.bots),
            "bots": [getattr(b, "name", type(b).__name__) for b in self.bots],
            "rules": {k: v for k, v in sorted((rules or {}).items())},
        }

    # -- the turn (turn.py) -------------------------------------------------------------
    play = turn.play
    take_turn = turn.take_turn
    begin_turn = turn.begin_turn
    empty_pool = turn.empty_pool
    step = turn.step
    apply = turn.apply
    act = turn.act
    end_turn = turn.end_turn
    _off_clock_turn = turn.off_clock_turn
    add_turn_modifier = turn.add_turn_modifier
    set_turn_modifiers = turn.set_turn_modifiers

    # -- effects, triggers and phases (events.py) ---------------------------------------
    run = events.run
    holds = events.holds
    count_of = events.count_of
    run_triggers = events.run_triggers
    emit = events.emit
    fire = events.fire
    run_phase = events.run_phase
    each = events.each

    # -- decisions (asking.py) ----------------------------------------------------------
    decide = asking.decide
    choose = asking.choose
    _log_decision = asking.log_decision
    roll = asking.roll

    # -- resources, Clank! and health (economy.py) --------------------------------------
    gain = economy.gain
    clear_turn_pools = economy.clear_turn_pools
    pool = economy.pool
    clank = economy.clank
    can_spend = economy.can_spend
    spend = economy.spend
    _pay_gold = economy.pay_gold
    gold_of = economy.gold_of
    heal = economy.heal
    can_take_damage = economy.can_take_damage
    take_damage = economy.take_damage
    knock_out = economy.knock_out
    refresh = economy.refresh
    can_box_cubes = economy.can_box_cubes
    box_cubes = economy.box_cubes

    # -- statuses (statuses.py) ---------------------------------------------------------
    give_status = statuses.give_status
    end_status = statuses.take_status
    has_status = statuses.status_held
    prohibition = staticmethod(statuses.prohibition)

    # -- cards and zones (cards.py) -----------------------------------------------------
    draw = cards.draw
    play_card = cards.play_card
    check_pending = cards.check_pending
    recount_later = cards.recount_later
    keep_in_play = cards.keep_in_play
    clear_play_area = cards.clear_play_area
    replay_lines = cards.replay_lines
    can_discard = cards.can_discard
    discard = cards.discard
    trash = cards.trash
    can_trash = cards.can_trash
    unmark_left_play = cards.unmark_left_play
    take_from_reserve = cards.take_from_reserve
    flip_reserve_monster = cards.flip_reserve_monster
    replace_row_card = cards.replace_row_card
    refill_row = cards.refill_row
    count_in_play = cards.count_in_play
    count_in_play_of = cards.count_in_play_of
    count_owned = cards.count_owned

    # -- tokens (tokens.py) -------------------------------------------------------------
    take_here = tokens.take_here
    take_secret = tokens.take_secret
    reveal = tokens.reveal
    take_token = tokens.take_token
    return_token = tokens.return_token
    return_held = tokens.return_held
    supply_to_box = tokens.supply_to_box
    take_random = tokens.take_random
    place_held = tokens.place_held
    place_from_supply = tokens.place_from_supply
    put_cubes = tokens.put_cubes
    _from_supply = tokens.from_supply
    count_tokens = tokens.count_tokens
    deal_face_down = tokens.deal_face_down
    remove_random = tokens.remove_random
    has_token = tokens.has_token
    held_count = tokens.held_count
    return_to_supply = tokens.return_to_supply
    grants = tokens.grants
    artifact_room = tokens.artifact_room

    # -- movement (movement.py) ---------------------------------------------------------
    teleport = movement.teleport
    enter = movement.enter
    reshape = paths.reshape
    pick_path = paths.pick_path
    paths_next_to = paths.paths_next_to
    place_on_path = paths.place_on_path
    set_path = paths.set_path
    add_path = paths.add_path
    cross = paths.cross
    turn_switch = paths.turn_switch
    random_switch_state = paths.random_switch_state
    escape = movement.escape
    space_has = movement.space_has

    # -- the dragon and the counters (dragon.py) ----------------------------------------
    advance_rage = dragon.advance_rage
    attack_size = dragon.attack_size
    dragon_attack = dragon.dragon_attack
    _area_into_bag = dragon.area_into_bag
    _draw_cubes = dragon.draw_cubes
    off_clock_draw = dragon.off_clock_draw
    return_black_cubes = dragon.return_black_cubes
    remove_own_cubes = dragon.remove_own_cubes
    move_counter = dragon.move_counter

    # -- the end of a game, contracts and a campaign's marks ----------------------------
    _finish = ending.finish
    _check_all_off = ending.check_all_off
    resolve_contracts = campaign_marks.resolve_contracts
    contract_instructions = campaign_marks.contract_instructions
    post_game = campaign_marks.post_game
    add_checkmark = campaign_marks.add_checkmark
    mark_track = campaign_marks.mark_track
    queue_read = campaign_marks.queue_read
    read_now = campaign_marks.read_now
    passage_choice = campaign_marks.passage_choice
    mark_goal = campaign_marks.mark_goal
    review = campaign_marks.review
    check_death = campaign_marks.check_death

    # -- inspection -----------------------------------------------------------------------

    def cube_count(self, player: PlayerState) -> int:
        """All of a player's cubes wherever they are (constant: the conservation check)."""
        return (
            player.supply
            + player.area
            + player.damage
            + player.boxed_cubes
            + self.bag.count(player.seat)
        )

    def decision_log(self) -> list[dict[str, Any]]:
        """The decision records of the log."""
        return [r for r in self.log if r["type"] == "decision"]

    def snapshot(self, *, mid_turn: bool = False) -> dict[str, Any]:
        """The game as plain JSON data (see `interpreter.snapshot.snapshot`)."""
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
