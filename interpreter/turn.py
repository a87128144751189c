"""A game's turns: the round loop, a turn's actions, its end.

A bot is asked for one action at a time (`step`); an action's record does it (see actions.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import actions
from .asking import decide, log_decision
from .cards import check_pending, play_card
from .decisions import ACTION
from .economy import clear_turn_pools
from .effects.stay_in_play import replay_held_over
from .ending import check_all_off, finish
from .events import emit, run_phase
from .rules import ROUND_CAP_MAX
from .scoring import GameResult
from .state import ON_CLOCK, GameCore, PlayerState

# Actions in one turn beyond which the game is stuck in a loop.
MAX_STEPS = 5000


def play(game: GameCore, after_turn: Callable[[Any], None] | None = None) -> GameResult:
    """Play to the end (or the round cap) and return the result.

    ``after_turn(game)`` is called after every turn (for checks and viewers).
    """
    # No pack and no --rule can lift the hard cap: every game ends.
    cap = min(game.rules["round_cap"], ROUND_CAP_MAX)
    while not game.over:
        if game.round >= cap:
            game.capped = True
            finish(game, "round cap")
            break
        game.round += 1
        for seat in game.order:
            take_turn(game, game.players[seat])
            if after_turn is not None:
                after_turn(game)
            if game.over:
                break
    assert game.result is not None
    return game.result


def take_turn(game: GameCore, player: PlayerState) -> None:
    """One whole turn: an off-the-clock draw, or actions until the player ends the turn."""
    game.turn += 1
    game.active = player
    if player.status != ON_CLOCK:
        off_clock_turn(game)
        return
    begin_turn(game, player)
    steps = 0
    while step(game, player):
        steps += 1
        if steps >= MAX_STEPS:
            # Only content can do this (say a reserve monster whose defeat pays its swords):
            # the game is capped and reported, like one that reaches the round cap.
            game.capped = True
            finish(game, "turn cap")
            return
    if not game.over:
        end_turn(game, player)


def begin_turn(game: GameCore, player: PlayerState) -> None:
    """Make ``player`` the active player and run the pack's `turn` phase (the base rules:
    `turn.begin`, an empty pool)."""
    game.active = player
    run_phase(game, "turn", player)


def empty_pool(game: GameCore, player: PlayerState) -> None:
    """A turn begins: the pool is empty, nothing is exhausted or visited, this turn's
    modifiers are gone; the `turn start` event."""
    player.skill = player.swords = player.boots = player.clank_debt = 0
    player.exhausted = player.escaping = False
    player.crossed = -1
    player.visited.clear()
    player.pending.clear()
    player.recounts.clear()
    game.turn_modifiers, game.turn_gained = [], {}
    clear_turn_pools(game, player)
    if player.held_over:
        replay_held_over(game, player)  # a card's second turn in play
    emit(game, "turn start", player)


def step(game: GameCore, player: PlayerState) -> bool:
    """Ask for one action and do it; False once the turn is over.

    A bot with ``play_first(view, player)`` may first name a card of the hand to play
    before any other action is listed (None: list them all), which saves building every
    action while a hand is played. It is logged as the same decision: plays are the first
    options of `actions.legal_actions`, in hand order, so the index and label are those
    the full list would give, and the log is the same either way."""
    hand = player.hand
    if hand:
        ask = game._play_firsts[player.seat]
        if ask is not None:
            card = ask(game, player)
            if card is not None:
                try:
                    first = hand.index(card)
                except ValueError:
                    raise RuntimeError(
                        f"bot {game.bots[player.seat]!r} played {card!r}, not in hand"
                    ) from None
                if game._keep_log:
                    # Its index among the hand's plays: the designs before its first copy.
                    log_decision(
                        game,
                        player.seat,
                        ACTION,
                        len(set(hand[:first])) if first > 1 else first,
                        actions.play_option(game, card).label,
                    )
                # `apply` of the play (`actions.PLAY`), inlined: half of all actions.
                play_card(game, player, card)
                if player.pending or player.recounts:
                    check_pending(game, player)
                if "action" in game._watched and not game.over:
                    emit(game, "action", player)
                return player.status == ON_CLOCK and not game.over
    groups: dict[Any, range] = {}
    options = actions.legal_actions(game, player, groups)
    actor = game._actors[player.seat]
    if actor is None:
        # The decision's detail: each kind's option indexes (bots need not group them).
        choice = decide(game, player, ACTION, options, prompt="your action", detail=groups)
    else:
        # A bot's `choose_action(view, player, options, groups)` answers the same decision
        # without a Decision built for it (several a turn); checked and logged alike.
        choice = actor(game, player, options, groups)
        if not isinstance(choice, int) or not 0 <= choice < len(options):
            raise RuntimeError(f"bot {game.bots[player.seat]!r} answered {choice!r} to action")
        if game._keep_log:
            log_decision(game, player.seat, ACTION, choice, options[choice].label)
    if game.stats is not None:
        game.stats.on_options(game, player, options, choice)  # what was offered, and taken
    value = options[choice].value
    if value[0] is actions.END_TURN:
        return False
    apply(game, player, value)
    return player.status == ON_CLOCK and not game.over


def apply(game: GameCore, player: PlayerState, value: tuple[Any, ...]) -> None:
    """Do one action (a legal one: see `actions.legal_actions`), then fire waiting lines."""
    value[0].apply(game, player, value)  # the action's record (actions.ActionKind)
    if player.pending or player.recounts:  # the hot loop: most actions leave none waiting
        check_pending(game, player)
    if "action" in game._watched and not game.over:
        emit(game, "action", player)  # `after each action` triggers


def act(game: GameCore, player: PlayerState, label: str) -> None:
    """Do the legal action with that label (for tests and scenarios)."""
    options = actions.legal_actions(game, player)
    for o in options:
        if o.label == label:
            apply(game, player, o.value)
            return
    raise ValueError(f"{label!r} is not a legal action; legal: {[o.label for o in options]}")


def end_turn(game: GameCore, player: PlayerState) -> None:
    """The end-of-turn steps in the rulebook's order (the pack's `end_of_turn` phase)."""
    if game.stats is not None:
        game.stats.on_turn_end(game, player)
    emit(game, "turn end", player)
    if game.over:
        return
    run_phase(game, "end_of_turn", player)
    # Negative Clank! an event just gave is lost with the turn too; it must not cancel
    # Clank! that others give this player before their next turn.
    player.clank_debt = 0
    check_all_off(game)


def off_clock_turn(game: GameCore) -> None:
    """The turn of a player off the clock: the pack's `off_clock` phase."""
    run_phase(game, "off_clock", game.active)
    check_all_off(game)


def add_turn_modifier(game: GameCore, node: dict[str, Any]) -> None:
    """A "this turn" effect is in force for the active player until the turn ends."""
    game.turn_modifiers.append(node)


def set_turn_modifiers(game: GameCore, mods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replace the turn's modifiers (to set them aside and put them back); the old ones."""
    old, game.turn_modifiers = game.turn_modifiers, mods
    return old
