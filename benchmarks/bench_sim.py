"""How fast four heuristic bots play: games and player-turns a second, and peak memory.

Run: .venv/bin/python benchmarks/bench_sim.py [--games N] [--repeat R] [--jobs J] [--bots B]

Measured on the Acquisitions Incorporated pack (44 spaces, 100 adventure cards) and, in the
same run as the baseline, on the tutorial pack (16 spaces, 24 cards); the ratios compare them.
Each figure is the best of ``--repeat`` runs (other work on the machine only slows a run
down; the median of the one-process runs is printed too, to show how much). Rows:

- ``Game.play``: the engine and the bots alone, one process;
- ``simulate()``: what `clankwork simulate` runs (with the per-game statistics of the report),
  one process, then ``--jobs`` worker processes (wall clock, pool start included).

Player-turns count every seat's turn, on the clock or off it (`GameResult.turns`). Peak
memory is the process's peak resident set (getrusage) and the peak of Python allocations
(tracemalloc) while one process plays ``--memory-games`` games; tracemalloc slows the games
down, so that run is separate and untimed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.tools.simulate import bot_seed, game_seeds, simulate

ROOT = Path(__file__).resolve().parent.parent
PACKS = {"acqinc": ROOT / "content" / "acqinc", "tutorial": ROOT / "content" / "tutorial"}
PLAYERS = 4
SEED = 1


def _bare(cat: Catalog, games: int, bots: str) -> int:
    turns = 0
    for s in game_seeds(SEED, games):
        seats = [make_bot(bots, bot_seed(s, k)) for k in range(PLAYERS)]
        turns += Game(cat, seats, s).play().turns
    return turns


def _sim(ir: dict[str, Any], cat: Catalog, games: int, bots: str, jobs: int) -> int:
    run = simulate(ir, games, PLAYERS, SEED, bots, jobs=jobs, catalog=cat)
    return run.totals.turns


def _memory(cat: Catalog, games: int, bots: str) -> float:
    """Peak traced Python allocations (MiB) while ``games`` games are played."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    _bare(cat, games, bots)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def _rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (2**20 if sys.platform == "darwin" else 2**10)


def _load(name: str) -> tuple[dict[str, Any], Catalog]:
    result = compile_pack(PACKS[name])
    if not result.ok:
        raise SystemExit(f"{name}: the pack does not compile")
    return result.ir, prepare(result.ir)


def _timed(fn: Callable[[], int]) -> tuple[float, int]:
    t0 = time.perf_counter()
    turns = fn()
    return time.perf_counter() - t0, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per timed run")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs; the best counts")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the parallel row")
    ap.add_argument("--bots", default="heuristic", help="the bot every seat plays")
    ap.add_argument("--memory-games", type=int, default=50, help="games of the traced run")
    args = ap.parse_args()

    loaded = {name: _load(name) for name in ("tutorial", "acqinc")}
    for _ir, cat in loaded.values():
        _bare(cat, 5, args.bots)  # warm up: route tables, option caches, code paths
    runs: dict[str, Callable[[dict[str, Any], Catalog], int]] = {
        "bare": lambda ir, cat: _bare(cat, args.games, args.bots),
        "sim": lambda ir, cat: _sim(ir, cat, args.games, args.bots, 1),
        "jobs": lambda ir, cat: _sim(ir, cat, args.games, args.bots, args.jobs),
    }
    # Repeats go round every pack and row in turn, so a busy moment hits them alike.
    best: dict[tuple[str, str], tuple[float, int]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for row, run in runs.items():
            for name, (ir, cat) in loaded.items():
                t, turns = _timed(lambda run=run, ir=ir, cat=cat: run(ir, cat))
                times.setdefault((name, row), []).append(t)
                if (name, row) not in best or t < best[name, row][0]:
                    best[name, row] = (t, turns)
    figures: dict[str, dict[str, float]] = {}
    for name, (_, cat) in loaded.items():
        f = figures[name] = {}
        for row in runs:
            t, turns = best[name, row]
            f[f"{row}_gps"], f[f"{row}_tps"] = args.games / t, turns / t
        f["turns_per_game"] = best[name, "bare"][1] / args.games
        f["bare_median_gps"] = args.games / statistics.median(times[name, "bare"])
        f["traced_mib"] = _memory(cat, args.memory_games, args.bots)
    rss = _rss_mib()
    base, acq = figures["tutorial"], figures["acqinc"]

    print(
        f"{PLAYERS}-player {args.bots} games, {args.games} a run, best of {args.repeat}; "
        f"Python {sys.version.split()[0]}"
    )
    head = f"{'':<30}{'tutorial':>12}{'acqinc':>12}{'acqinc/tut':>12}"
    print(head)
    print("-" * len(head))
    rows = [
        ("player-turns per game", "turns_per_game", "{:.1f}"),
        ("Game.play: games/s", "bare_gps", "{:.1f}"),
        ("Game.play: games/s (median)", "bare_median_gps", "{:.1f}"),
        ("Game.play: player-turns/s", "bare_tps", "{:.0f}"),
        ("simulate(): games/s", "sim_gps", "{:.1f}"),
        ("simulate(): player-turns/s", "sim_tps", "{:.0f}"),
        (f"simulate(jobs={args.jobs}): games/s", "jobs_gps", "{:.1f}"),
        (f"simulate(jobs={args.jobs}): turns/s", "jobs_tps", "{:.0f}"),
        (f"peak traced MiB ({args.memory_games} games)", "traced_mib", "{:.2f}"),
    ]
    for label, key, fmt in rows:
        a, b = base[key], acq[key]
        print(f"{label:<30}{fmt.format(a):>12}{fmt.format(b):>12}{b / a:>12.2f}")
    print(f"{'peak RSS of this process (MiB)':<30}{rss:>36.1f}")
    print(
        f"speed-up with {args.jobs} processes (acqinc, simulate): "
        f"{acq['jobs_gps'] / acq['sim_gps']:.2f}x"
    )
    target = 100
    verdict = "meets" if acq["bare_gps"] >= target else "misses"
    print(f"one core, acqinc, Game.play: {acq['bare_gps']:.0f} games/s ({verdict} {target}/s)")


if __name__ == "__main__":
    main()
