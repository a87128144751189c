"""Paths that change during a game: tokens lying on them, paths closed, opened and added.

The printed board never changes (a `Board` is shared by every game of a run); a game's
changes live in its state (`path_tokens`, `closed_paths`, `added_paths`) and `reshape` points
`game.board` at the printed board with those changes (`Board.reshaped`, made once per shape
and shared), so the legal moves, the distances and the bots' route tables all follow.

    token Spike { token 4; extra boots 1; removed when crossed; when you cross this: +1 clank }
    card Spinner { cost 3; play: place a Spike on a tunnel next to you }
"""

from __future__ import annotations

from .context import Ctx
from .events import run_triggers
from .rng import below
from .state import GameCore, PlayerState
from .tokens import from_supply, random_from_supply, reveal


def reshape(game: GameCore) -> None:
    """Point ``game.board`` at the printed board with the game's changes to its paths."""
    extra: dict[int, int] = {}
    for k, toks in game.path_tokens.items():
        n = 0
        for t in toks:
            n += t.extra_boots
        if n:
            extra[k] = n
    closed = frozenset(game.closed_paths)
    switched = game.board.base.switched
    if switched:
        switches = game.switches
        closed |= {k for k, name, states in switched if switches.get(name, 1) not in states}
    shape = (
        closed,
        tuple((a, b, c) for a, b, c in game.added_paths),
        tuple(sorted(extra.items())),
    )
    game.board = game.board.reshaped(shape)


def paths_next_to(game: GameCore, space: int) -> list[int]:
    """The open paths (printed or added) with an end at ``space``, by index."""
    board = game.board
    out = []
    for k in range(len(board.ir["paths"]) + len(game.added_paths)):
        e = board.ends(k)
        if e is not None and space in e and not is_closed(game, k):
            out.append(k)
    return out


def open_paths(game: GameCore) -> list[int]:
    """Every open path (printed or added) joining two spaces, by index."""
    board = game.board
    n = len(board.ir["paths"]) + len(game.added_paths)
    return [k for k in range(n) if board.ends(k) is not None and not is_closed(game, k)]


def pick_path(game: GameCore, player: PlayerState, where: str) -> int | None:
    """The path a line names: ``crossed`` (the one the player last moved along this turn),
    ``adjacent`` (one with an end at the player's space, the first by index: a line asks
    the player which, `effects/path_changes.py`) or ``random``
    (any open path, drawn with the game's RNG); None when there is none."""
    if where == "crossed":
        return player.crossed if player.crossed >= 0 else None
    if where == "adjacent":
        near = paths_next_to(game, player.pos)
        return near[0] if near else None
    everywhere = open_paths(game)
    return everywhere[below(game.rng, len(everywhere))] if everywhere else None


def place_on_path(game: GameCore, path: int, what: str, at_random: bool = False) -> bool:
    """Put a token matching ``what`` from the supply on ``path``, the first in the supply's
    order or one drawn ``at_random`` with the game's RNG; False if none is left."""
    taken = random_from_supply(game, what, 1) if at_random else from_supply(game, what, 1)
    if not taken:
        return False
    game.path_tokens.setdefault(path, []).extend(taken)
    if taken[0].extra_boots:
        reshape(game)
    return True


def set_path(game: GameCore, path: int, closed: bool) -> None:
    """Close or open a path (printed or added)."""
    if closed and path not in game.closed_paths:
        game.closed_paths.append(path)
        game.closed_paths.sort()
    elif not closed and path in game.closed_paths:
        game.closed_paths.remove(path)
    else:
        return
    reshape(game)


def add_path(game: GameCore, a: int, b: int, boots: int) -> int:
    """Add a tunnel between spaces ``a`` and ``b`` costing ``boots``; its path index."""
    game.added_paths.append([a, b, boots])
    reshape(game)
    return len(game.board.ir["paths"]) + len(game.added_paths) - 1


def turn_switch(game: GameCore, name: str, state: int | None = None) -> None:
    """Set switch ``name`` to ``state``, or turn it to its next state (after the last, the
    first); its paths open and close with it. Nothing for a switch the board lacks."""
    n = game.board.switches.get(name)
    if n is None:
        return
    now = game.switches.get(name, 1)
    new = now % n + 1 if state is None else state
    if 1 <= new <= n and new != now:
        game.switches[name] = new
        reshape(game)


def random_switch_state(game: GameCore, name: str) -> int | None:
    """A state of switch ``name`` drawn with the game's RNG (each as likely); None for a
    switch the board lacks."""
    n = game.board.switches.get(name)
    return None if n is None else below(game.rng, n) + 1


def is_closed(game: GameCore, path: int) -> bool:
    """Whether a path is closed now: blocked, or its switch is in another state."""
    if path in game.closed_paths:
        return True
    for k, name, states in game.board.base.switched:
        if k == path and game.switches.get(name, 1) not in states:
            return True
    return False


def cross(game: GameCore, player: PlayerState, path: int) -> None:
    """``player`` moves along ``path``: each token lying on it does what it says to them (its
    `when you cross this:` lines), then stays, is removed (back to the supply) or is taken
    by them, as the token says."""
    player.crossed = path
    lying = game.path_tokens.get(path)
    if not lying:
        return
    changed = False
    for tok in list(lying):
        if game.over:
            return
        if tok.cross:
            run_triggers(game, Ctx(player, tok), tok.cross)
        if tok.crossed != "stays" and tok in lying:
            lying.remove(tok)
            changed = changed or bool(tok.extra_boots)
            if tok.crossed == "taken":
                reveal(game, player, tok)
            else:
                game.token_supply[tok] = game.token_supply.get(tok, 0) + 1
    if not lying:
        del game.path_tokens[path]
    if changed:
        reshape(game)
