"""Effects, triggers and phases run: the engine's innermost loop.

`run` runs effect nodes through the op registry's handlers, `holds` and `count_of` ask the
condition and count handlers, `emit` fires the triggers that watch an event (a space's, the
pack's rules', then what players hold), `fire` runs one trigger within its limit, and
`run_phase` runs a phase's planned steps (engine steps or a pack's effects).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .context import Ctx
from .state import GameCore, PlayerState

# Triggers set off by triggers, at most this deep (a space whose entry teleports you).
MAX_TRIGGER_DEPTH = 32


def run(game: GameCore, ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    """Run effect nodes in order for ``ctx``."""
    for node in effects:
        if game.over:
            return
        game._effect[node["op"]](game, ctx, node)


def holds(game: GameCore, ctx: Ctx, cond: dict[str, Any]) -> bool:
    """Whether a condition node holds now for ``ctx``."""
    return bool(game._condition[cond["cond"]](game, ctx, cond))


def count_of(game: GameCore, player: PlayerState, count: dict[str, Any]) -> int:
    """The value of a count node (a "per ..." formula) for ``player``."""
    return int(game._count[count["count"]](game, player, count))


def run_triggers(
    game: GameCore, ctx: Ctx, triggers: Sequence[tuple[Any, list[dict[str, Any]]]]
) -> None:
    """Run acquire, defeat, arrive, use or reveal lines whose condition holds now."""
    # Unlike "play if", these test their condition once, when they happen.
    for cond, effects in triggers:
        if cond is None or holds(game, ctx, cond):
            run(game, ctx, effects)


def emit(game: GameCore, event: str, player: PlayerState | None, space: int | None = None) -> None:
    """A rules step happened: fire the triggers that watch ``event``.

    ``player`` is who it is about (None for the dragon and the game's end); ``space`` is
    the space it happened on (default: the player's). Fires, in order: the space's
    triggers, the pack's rules triggers, then cards in play and tokens held, player by
    player from the active one."""
    if event not in game._emits or game.over:
        return
    if player is not None:
        sp = game.board.spaces[player.pos if space is None else space]
        on = sp.on.get(event)
        if on is not None and event != "enter":
            ctx = Ctx(player, sp)
            for hook in on:
                fire(game, hook, ctx)
    if event not in game._watched:
        return
    rules = game._rule_on.get(event)
    if rules:
        ctx = Ctx(player if player is not None else game.active, None)
        for hook in rules:
            if hook.who != "other":
                fire(game, hook, ctx)
    if event in game._held:
        if event in game.catalog.held_own:
            # Triggers for their owner's own doing only: nobody else's can fire.
            if player is not None:
                _fire_own(game, event, player)
            return
        seats = game.order
        players = game.players
        n = len(seats)
        start = seats.index(game.active.seat)
        for k in range(n):
            owner = players[seats[(start + k) % n]]
            held = _watching(owner, event)
            if held is None:
                continue
            for thing in held:
                for hook in thing.hooks:
                    if hook.event != event:
                        continue
                    who = hook.who
                    if (
                        who == "any"
                        or (who == "you" and owner is player)
                        or (who == "other" and player is not None and owner is not player)
                    ):
                        fire(game, hook, Ctx(owner, thing))


def _fire_own(game: GameCore, event: str, player: PlayerState) -> None:
    """`emit`'s held triggers when each of them fires for its owner's own doing: those of what
    ``player`` holds (the other players' would be looked at and none of them fire)."""
    held = _watching(player, event)
    if held is not None:
        for thing in held:
            for hook in thing.hooks:
                if hook.event == event:
                    fire(game, hook, Ctx(player, thing))


def _watching(owner: PlayerState, event: str) -> list[Any] | None:
    """What ``owner`` holds with a trigger on ``event``, each once, in order: play area,
    tokens, artifact (None: nothing). Listed before any of them fires, so what a trigger
    plays or discards does not change who fires for this event. Most of what a player holds
    has no trigger at all, and this runs for each player on each event something held
    watches (the Vault's study tokens watch every action): plain loops, no list or dict made
    for a player holding nothing that watches it."""
    found = None
    for group in (owner.play, owner.tokens):
        for thing in group:
            hooks = thing.hooks
            if hooks and _has_event(hooks, event):
                if found is None:
                    found = [thing]
                elif thing not in found:  # two copies of a design: its triggers fire once
                    found.append(thing)
    art = owner.artifact
    if art is not None and art.hooks and _has_event(art.hooks, event):
        if found is None:
            found = [art]
        elif art not in found:
            found.append(art)
    return found


def _has_event(hooks: Sequence[Any], event: str) -> bool:
    """Whether one of the hooks watches ``event`` (a loop: cheaper than `any`)."""
    for h in hooks:  # noqa: SIM110
        if h.event == event:
            return True
    return False


def fire(game: GameCore, hook: Any, ctx: Ctx) -> None:
    """Run one trigger for ``ctx`` if its limit and condition allow it now."""
    if game.over or game._depth >= MAX_TRIGGER_DEPTH:
        # A trigger whose effects set off itself again (enter: teleport, between two
        # such spaces) stops here rather than recursing for ever.
        return
    key = None
    if hook.limit is not None:
        key = hook.keys[ctx.player.seat]
        last = game.used.get(key)
        if last is not None and (hook.limit == "game" or last == game.turn):
            return
    if hook.cond is not None and not holds(game, ctx, hook.cond):
        return
    if key is not None:
        game.used[key] = game.turn
    game._depth += 1
    try:
        run(game, ctx, hook.effects)
    finally:
        game._depth -= 1


def run_phase(game: GameCore, phase: str, player: PlayerState) -> None:
    """Run a phase's steps in order (engine steps, or a pack's effects) for ``player``."""
    for planned in game.catalog.steps[phase]:
        if game.over:
            return
        if planned.step is None:
            if planned.effects:  # an empty slot (a box no sticker fills) does nothing
                run(game, Ctx(player, None), planned.effects)
        elif phase == "setup":
            planned.step.handler(game)
            player = game.active  # the first player, once drawn
        else:
            planned.step.handler(game, player)


def each(game: GameCore, player: PlayerState, include_self: bool = True) -> Iterator[PlayerState]:
    """Players on the clock from the active player clockwise (``player`` optional); in
    the `end_of_game` phase, when nobody is on the clock any more, every player."""
    seats = game.order
    start = seats.index(game.active.seat)
    everyone = game._ending
    for k in range(len(seats)):
        p = game.players[seats[(start + k) % len(seats)]]
        if (everyone or p.on_clock) and (include_self or p is not player):
            yield p
