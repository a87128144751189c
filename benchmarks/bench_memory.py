"""Memory of a long run: a process's resident size after 10, 100 and 1,000 games, per pack.

    .venv/bin/python benchmarks/bench_memory.py
    .venv/bin/python benchmarks/bench_memory.py --games 10,100,1000,5000 --pack space

Each bundled pack is played in a process of its own, as a `clankwork simulate` worker plays
it (chunks of games folded into the run's totals, four heuristic bots by default), and the
resident set size is read after each mark (/proc/self/statm; where there is none, the peak,
ru_maxrss). The baseline, measured in the same process, is its size once the pack is
compiled and prepared, before any game: a run whose memory is flat stays a few MiB above it
whatever the number of games.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.extends import bundled_packs
from clankwork.interpreter.stats import RunTotals
from clankwork.tools.simulate import CHUNK, Runner, RunSpec, chunk_plan


def rss_mib() -> float:
    """This process's resident set size in MiB (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def measure(pack: str, marks: list[int], players: int, bots: str, seed: int) -> dict:
    """Play one pack to each mark in this process; the sizes seen."""
    ir = compile_pack(bundled_packs()[pack]).ir
    runner = Runner(RunSpec(ir, players, (bots,) * players))
    gc.collect()
    out = {"pack": pack, "baseline": rss_mib(), "marks": {}}
    totals = RunTotals()
    played = 0
    # The run's own chunks, cut again at each mark.
    for _, start, seeds in chunk_plan(seed, max(marks)):
        while seeds:
            upto = min((m for m in marks if m > played), default=played + len(seeds))
            part, seeds = seeds[: upto - start], seeds[upto - start :]
            totals.merge(runner.run_chunk(start, part))
            played = start = start + len(part)
            if played in marks:
                gc.collect()
                out["marks"][played] = rss_mib()
    return out


def main() -> None:
    """Measure every pack (or those named), each in a process of its own, and print them."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="10,100,1000", help="the marks, comma-separated")
    ap.add_argument("--pack", action="append", help="only this bundled pack (repeatable)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--one", help=argparse.SUPPRESS)  # the child: measure this pack
    args = ap.parse_args()
    marks = sorted({int(x) for x in args.games.split(",")})
    if args.one:
        print(json.dumps(measure(args.one, marks, args.players, args.bots, args.seed)))
        return
    packs = args.pack or list(bundled_packs())
    head = f"{'pack':<10} {'baseline':>9}" + "".join(f" {f'{m} games':>12}" for m in marks)
    print(f"RSS in MiB, {args.players} {args.bots} bots, chunks of {CHUNK} games")
    print(head + f" {'growth':>8}")
    for pack in packs:
        child = [sys.executable, __file__, "--one", pack, *sys.argv[1:]]
        done = subprocess.run(child, capture_output=True, text=True, check=True)
        got = json.loads(done.stdout)
        sizes = [got["marks"][str(m)] for m in marks]
        row = f"{pack:<10} {got['baseline']:>9.0f}" + "".join(f" {s:>12.0f}" for s in sizes)
        print(row + f" {sizes[-1] - sizes[0]:>+8.0f}", flush=True)


if __name__ == "__main__":
    main()
