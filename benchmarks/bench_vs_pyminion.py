"""`clankwork simulate` against pyminion 0.4.0 (a Python Dominion engine): player-turns per
CPU-second, side by side in one process.

Run: .venv/bin/pip install pyminion==0.4.0   # not a dependency of Clankwork
     .venv/bin/python benchmarks/bench_vs_pyminion.py [--games 60] [--repeat 3] [--pack acqinc]

What is compared, each side the whole game (rules, legal choices, the bots' decisions):

- Clankwork: `tools.simulate.simulate` as `clankwork simulate` runs it with ``--jobs 1``
  (its `GameStats` counters, games past the first 1,000 with no log: here every game keeps
  its record, as a short run's do), ``--players 4`` heuristic bots on ``--pack``;
- pyminion: `pyminion.game.Game.play` with four of its example bots (Big Money Ultimate,
  Big Money Smithy, Bandit Bot, Chapel Bot) on the base set, a kingdom of Smithy, Bandit,
  Chapel (what those bots buy) and seven more at random, logging off (``log_stdout=False``;
  its logger stays at WARNING). pyminion draws from the global `random`, seeded per game.

A player-turn is one player's turn (Clankwork: `GameResult.turns`, which counts each
player's turns; pyminion: `Player.turns` summed over the players). The time is the
process's CPU time (``time.process_time``), the best of ``--repeat`` alternating runs, after
one warm-up run of each. The header says which Clankwork core ran (compiled or Python).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.core import describe
from clankwork.tools.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def clankwork_run(ir: dict, games: int, seed: int) -> int:
    """Play a simulate run of ``games`` games; the player-turns played."""
    run = simulate(ir, games, 4, seed, "heuristic", jobs=1)
    return run.totals.turns


def pyminion_run(games: int, seed: int) -> int:
    """Play ``games`` pyminion games of four example bots; the player-turns played."""
    from pyminion.bots.examples.bandit_bot import BanditBot
    from pyminion.bots.examples.big_money_smithy import BigMoneySmithy
    from pyminion.bots.examples.big_money_ultimate import BigMoneyUltimate
    from pyminion.bots.examples.chapel_bot import ChapelBot
    from pyminion.expansions.base import bandit, base_set, chapel, smithy
    from pyminion.game import Game

    turns = 0
    for k in range(games):
        random.seed(seed * 100_003 + k)
        players = [BigMoneyUltimate(), BigMoneySmithy(), BanditBot(), ChapelBot()]
        game = Game(
            players=players,
            expansions=[base_set],
            kingdom_cards=[smithy, bandit, chapel],  # what the bots buy; 7 more at random
            log_stdout=False,
        )
        game.play()
        turns += sum(p.turns for p in game.players)
    return turns


def _timed(fn, *args) -> tuple[int, float]:
    t0 = time.process_time()
    turns = fn(*args)
    return turns, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="games a side plays per run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pack", default="acqinc", help="a bundled pack under content/")
    args = ap.parse_args()
    try:
        import pyminion  # noqa: F401
    except ImportError:
        sys.exit("pyminion is not installed: .venv/bin/pip install pyminion==0.4.0")
    from importlib.metadata import version

    result = compile_pack(ROOT / "content" / args.pack)
    if not result.ok:
        sys.exit(f"{args.pack}: the pack does not compile")
    ir = result.ir
    clankwork_run(ir, 3, 99)
    pyminion_run(3, 99)
    best = {"clankwork": 0.0, "pyminion": 0.0}
    turns = {}
    for r in range(args.repeat):
        for name in ("clankwork", "pyminion"):
            if name == "clankwork":
                n, cpu = _timed(clankwork_run, ir, args.games, 1 + r)
            else:
                n, cpu = _timed(pyminion_run, args.games, 1 + r)
            turns[name] = n
            best[name] = max(best[name], n / cpu)
    print(
        f"{args.games} games a run, best of {args.repeat}; Python {sys.version.split()[0]}; "
        f"pyminion {version('pyminion')}"
    )
    print(f"clankwork core: {describe()}")
    print(f"{'player-turns per CPU-second':<44}{'rate':>10}{'turns/game':>12}")
    print(
        f"{'clankwork simulate, ' + args.pack + ', 4 heuristic':<44}"
        f"{best['clankwork']:>10.0f}{turns['clankwork'] / args.games:>12.1f}"
    )
    print(
        f"{'pyminion 0.4.0, base set, 4 example bots':<44}"
        f"{best['pyminion']:>10.0f}{turns['pyminion'] / args.games:>12.1f}"
    )
    print(f"clankwork / pyminion: {best['clankwork'] / best['pyminion']:.2f}")


if __name__ == "__main__":
    main()
