"""Copies of a game a second: `Game.clone` against deepcopy and snapshot + restore.

Run: .venv/bin/python benchmarks/bench_copy.py [--packs acqinc,space] [--players 4]
     [--rounds 4] [--copies 2000] [--repeat 5]

A search bot copies the game at every decision it searches (thousands of copies a game), so
the copy must cost about a tenth of a millisecond. Each pack's game is played ``--rounds``
rounds by heuristic bots (a mid-game state: decks cycled, tokens taken, cubes in the bag),
then copied three ways in the same process, alternating, best of ``--repeat``: `Game.clone`
(the copy search uses), `copy.deepcopy` (the baseline any Python object has), and
`snapshot` + `restore` (the JSON round trip saved games use). Each copy's fingerprint is
checked against the original's, so a fast copy that loses state cannot be timed.
"""

from __future__ import annotations

import argparse
import copy
import time
from collections.abc import Callable
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.core import describe
from clankwork.interpreter.game import Game
from clankwork.interpreter.restore import restore
from clankwork.interpreter.snapshot import fingerprint, snapshot

ROOT = Path(__file__).resolve().parent.parent


def mid_game(pack: str, players: int, rounds: int) -> Game:
    """A game of ``pack`` after ``rounds`` rounds of heuristic bots."""
    result = compile_pack(ROOT / "content" / pack)
    if not result.ok:
        raise SystemExit(f"{pack} does not compile")
    game = Game(prepare(result.ir), [make_bot("heuristic", k) for k in range(players)], 7)
    for _ in range(rounds):
        game.round += 1
        for seat in game.order:
            game.take_turn(game.players[seat])
    return game


def best_rate(make: Callable[[], object], n: int, repeat: int) -> float:
    """Copies a second, best of ``repeat`` runs of ``n`` copies (CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(n):
            make()
        best = min(best, time.process_time() - start)
    return n / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--packs", default="acqinc,vault,space")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--copies", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"core: {describe()}")
    print(
        f"{'copies per CPU-second':<24}{'clone':>10}{'deepcopy':>10}{'snap+rest':>11}"
        f"{'clone/deep':>12}{'clone µs':>10}"
    )
    for pack in args.packs.split(","):
        game = mid_game(pack, args.players, args.rounds)
        want = fingerprint(game)
        bots = game.bots
        for made in (
            game.clone(),
            copy.deepcopy(game),
            restore(game.catalog, snapshot(game), bots),
        ):
            if fingerprint(made) != want:
                raise SystemExit(f"{pack}: a copy's state differs from the original's")
        slow = max(1, args.copies // 200)
        clone = best_rate(game.clone, args.copies, args.repeat)
        deep = best_rate(lambda g=game: copy.deepcopy(g), slow, args.repeat)
        snap = best_rate(
            lambda g=game, b=bots: restore(g.catalog, snapshot(g), b), slow, args.repeat
        )
        print(
            f"{pack:<24}{clone:>10.0f}{deep:>10.0f}{snap:>11.0f}"
            f"{clone / deep:>12.0f}{1e6 / clone:>10.1f}"
        )


if __name__ == "__main__":
    main()
