"""Restoring a snapshot (interpreter/snapshot.py) into a game, and playing it on.

`restore` checks the snapshot against the pack (a changed pack is a ValueError naming what
differs), makes a `Game` and writes the snapshot's state over it; `play_on` plays a restored
game to its end from where the snapshot was taken; `resume` does both.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from .catalog import Catalog, prepare
from .decisions import Bot
from .game import Game
from .scoring import GameResult, final_result
from .snapshot import BETWEEN_ACTIONS, FORMAT, _Reader, _state_codecs, pack_identity
from .state import PlayerState
from .turn import MAX_STEPS


def _check_pack(catalog: Catalog, data: dict[str, Any]) -> None:
    want, have = data["pack"], pack_identity(catalog)
    for key in ("name", "version", "board"):
        if want[key] != have[key]:
            raise ValueError(
                f"the snapshot is of pack {want['name']} {want['version']} on board "
                f"{want['board']!r}; this is {have['name']} {have['version']} on board "
                f"{have['board']!r} ({key} differs)"
            )
    differs: list[str] = []
    for kind in ("cards", "tokens"):
        what = kind[:-1]
        for name, d in want[kind].items():
            if name not in have[kind]:
                differs.append(f"{what} {name!r} is not in this pack")
            elif have[kind][name] != d:
                differs.append(f"{what} {name!r} differs")
        differs += [f"{what} {n!r} is new" for n in have[kind] if n not in want[kind]]
    differs += [f"the board's {k} differ" for k in ("spaces", "paths") if want[k] != have[k]]
    if want["rules"] != have["rules"]:
        differs.append("the pack's rules differ")
    if differs:
        more = f" (and {len(differs) - 5} more)" if len(differs) > 5 else ""
        raise ValueError(
            f"the snapshot's pack {want['name']} {want['version']} is not this one: "
            + "; ".join(differs[:5])
            + more
        )


def restore(pack: Catalog | dict[str, Any], data: dict[str, Any], bots: Sequence[Bot]) -> Game:
    """A game in the state `snapshot` wrote, played by ``bots`` (each bot of the kind named in
    the snapshot takes up that seat's carried state). ValueError when the pack differs."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a snapshot of format {FORMAT} (format {data.get('format')!r})")
    catalog = pack if isinstance(pack, Catalog) else prepare(pack, data["pack"]["board"])
    _check_pack(catalog, data)
    state = data["state"]
    n = len(state["players"])
    if n != len(bots):
        raise ValueError(f"the snapshot has {n} players; {len(bots)} bots were given")
    players = [PlayerState(i) for i in range(n)]
    # The ship the game was played on (a modular board's assembly), before anything that
    # reads the board.
    assembly = tuple(tuple(a) for a in state.get("assembly") or ())
    if catalog.modular is not None and not assembly:
        raise ValueError("the snapshot records no assembly, but the pack's board is modular")
    try:
        board = catalog.board_for(assembly or None)  # type: ignore[arg-type]
    except (KeyError, ValueError) as e:
        raise ValueError(f"the snapshot's assembly does not fit the pack's board: {e}") from None
    reader = _Reader(catalog, players, board)
    codecs = _state_codecs(Game)
    rules = next(dec for name, _, dec in codecs if name == "rules")(state["rules"], reader, None)
    # The engine builds what is not state (tables, setup); the state is then written over it.
    game = Game(catalog, bots, data["seed"], rules=rules, modules=assembly or None)
    game.players = players
    for name, _, dec in codecs:
        setattr(game, name, dec(state[name], reader, None))
    game.reshape()  # the board with the paths the game changed
    game.log = json.loads(json.dumps(data["log"])) or game.log[:1]
    game.result = final_result(game) if game.over else None
    for bot, carried in zip(game.bots, data["bots"], strict=True):
        # A bot of another kind in that seat starts afresh.
        load = getattr(bot, "load_bot_state", None)
        same = getattr(bot, "name", type(bot).__name__) == carried["name"]
        if carried["state"] is not None and load is not None and same:
            load(game, carried["state"])
    return game


def play_on(
    game: Game, *, mid_turn: bool = False, after_turn: Callable[[Game], None] | None = None
) -> GameResult:
    """Play a restored game to its end: the rest of the turn (``mid_turn``), of the round,
    then `Game.play`."""
    if game.over:
        assert game.result is not None
        return game.result
    n = len(game.players)
    if mid_turn:
        # The tail of `Game.take_turn`.
        player, steps = game.active, 0
        while game.step(player):
            steps += 1
            if steps >= MAX_STEPS:
                game.capped = True
                game._finish("turn cap")
                break
        if not game.over:
            game.end_turn(player)
        if after_turn is not None:
            after_turn(game)
    # Every seat takes a turn each round, so the turns taken say where the round is.
    done = game.turn - (game.round - 1) * n
    if not game.over and game.round > 0:
        if not 1 <= done <= n:
            raise ValueError(f"turn {game.turn} is not in round {game.round} of {n} turns")
        for seat in game.order[done:]:
            game.take_turn(game.players[seat])
            if after_turn is not None:
                after_turn(game)
            if game.over:
                break
    return game.play(after_turn=after_turn)


def resume(
    pack: Catalog | dict[str, Any],
    data: dict[str, Any],
    bots: Sequence[Bot],
    after_turn: Callable[[Game], None] | None = None,
) -> tuple[Game, GameResult]:
    """Restore a snapshot and play it to the end."""
    game = restore(pack, data, bots)
    return game, play_on(game, mid_turn=data["at"] == BETWEEN_ACTIONS, after_turn=after_turn)
