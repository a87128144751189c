"""Moving: entering a space (its triggers, exhaustion), teleporting, escaping."""

from __future__ import annotations

from .actions import teleport_targets
from .asking import decide
from .context import Ctx
from .decisions import TELEPORT, Option
from .effects.turn_modifiers import ignores_exhaustion
from .events import emit, fire
from .state import ESCAPED, GameCore, PlayerState
from .statuses import forbids


def teleport(game: GameCore, player: PlayerState) -> None:
    """Move to an adjacent space of the player's choice (arrows and icons ignored); not
    while a status forbids it (`cannot teleport`)."""
    if player.statuses and forbids(player, "teleport"):
        return
    targets = teleport_targets(game, player)
    if not targets:
        return
    spaces = game.board.spaces
    pick = decide(
        game, player, TELEPORT, [Option(f"teleport to {spaces[s].name}", s) for s in targets]
    )
    enter(game, player, targets[pick])


def enter(game: GameCore, player: PlayerState, space: int) -> None:
    """Arrive on a space: leave the old one, exhaustion, the space's `when you enter:`
    triggers (a reward is one, once per turn), the pack's, then escape."""
    old = player.pos
    if old != space and ("leave" in game._watched or "leave" in game.board.spaces[old].on):
        emit(game, "leave", player, old)
        if game.over or not player.on_clock:
            return
    player.pos = space
    if game.stats is not None:
        game.stats.on_enter(game, player, space)
    sp = game.board.spaces[space]
    if sp.exhausts and not (game.turn_modifiers and ignores_exhaustion(game)):
        player.exhausted = True
    player.visited.add(space)
    on = sp.on.get("enter")
    if on is not None:
        ctx = Ctx(player, sp)
        for hook in on:
            fire(game, hook, ctx)
            if game.over or not player.on_clock:
                return
    if "enter" in game._watched:
        emit(game, "enter", player, space)
        if game.over or not player.on_clock:
            return
    if space == game.board.hq and player.artifact is not None:
        player.escaping = True


def escape(game: GameCore, player: PlayerState) -> None:
    """The player escapes: off the clock, Clank! cubes back to the supply."""
    player.status = ESCAPED
    game.left.append(player.seat)
    player.supply += player.area
    player.area = 0
    # What escaping earns (a mug, a trophy) is the pack's `when you escape:`.
    emit(game, "escape", player)


def space_has(game: GameCore, player: PlayerState, feature: str) -> bool:
    """Whether the player's space has that feature ("coach" and "waypoint" included)."""
    sp = game.board.spaces[player.pos]
    want = feature.lower()
    return (
        want in sp.features
        or (want == "coach" and sp.coach is not None)
        or (want == "waypoint" and sp.waypoint is not None)
    )
