"""What the search bot costs at each budget: CPU a game and a searched decision, playouts.

Run: .venv/bin/python benchmarks/bot_search_cost.py [--pack acqinc] [--players 2]
     [--budgets 4,8,16] [--games N] [--seed S]

For each budget N, ``--games`` games with `search:N` in seat 1 (then seat 2: the seat turns)
and heuristic bots in the others, on the same seeds; printed: the CPU seconds a game, the
decisions it searched a game (an action decision with two options or more besides playing a
card), the playouts a searched decision and the milliseconds one took, and the peak resident
memory of the process (getrusage: what one `--jobs` worker needs). The baseline in the same
run is the same games with a heuristic bot in seat 1.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bot_search import SearchBot
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.tools.simulate import bot_seed, game_seeds

ROOT = Path(__file__).resolve().parent.parent


class _Counting(SearchBot):
    """A search bot that counts the decisions it searches."""

    def __init__(self, seed: int, budget: int) -> None:
        super().__init__(seed, budget)
        self.searched = 0

    def _search(self, *args: object) -> int:
        self.searched += 1
        return super()._search(*args)  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default="acqinc")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--budgets", default="4,8,16")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    result = compile_pack(ROOT / "content" / args.pack)
    if not result.ok:
        sys.exit(f"{args.pack}: the pack does not compile")
    cat = prepare(result.ir)
    seeds = game_seeds(args.seed, args.games)
    players = args.players

    t0 = time.process_time()
    for s in seeds:
        Game(cat, [make_bot("heuristic", bot_seed(s, j)) for j in range(players)], s).play()
    base = (time.process_time() - t0) / len(seeds)
    print(f"{args.pack}, {players} players, {len(seeds)} games a row")
    print(f"heuristic   {base:8.3f} s a game")
    for budget in map(int, args.budgets.split(",")):
        searched = playouts = 0
        t0 = time.process_time()
        for k, s in enumerate(seeds):
            seat = k % players
            bots = [make_bot("heuristic", bot_seed(s, j)) for j in range(players)]
            bots[seat] = me = _Counting(bot_seed(s, seat), budget)
            Game(cat, bots, s, keep_log=False).play()
            searched += me.searched
            playouts += me.playouts
        cpu = time.process_time() - t0
        n = len(seeds)
        print(
            f"search:{budget:<3} {cpu / n:8.3f} s a game, {searched / n:5.1f} searched decisions "
            f"a game, {playouts / max(1, searched):5.1f} playouts and "
            f"{1000 * cpu / max(1, searched):6.1f} ms a searched decision"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
