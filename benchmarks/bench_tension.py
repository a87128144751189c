"""What the per-round trace of provisional scores costs a simulated game (interpreter/tension.py).

Run: .venv/bin/python benchmarks/bench_tension.py [--pack tutorial] [--games 40] [--repeat 3]
     [--bots greedy] [--players 4]

Two rows measured in the same run, on the same seeds: games played as `clankwork simulate`
plays them (a `GameStats` attached, the trace noting each round) and the same games with the
trace's hook made a no-op (the baseline). Each figure is CPU time (``time.process_time``),
the best of ``--repeat`` alternating passes (baseline, traced, baseline, traced...) so a busy
moment hits both alike; the spread (worst/best) shows the noise.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game, many_games
from clankwork.interpreter.stats import GameStats
from clankwork.tools.check import load_ir
from clankwork.tools.simulate import bot_seed, game_seeds


class _Untraced:
    """A trace that notes nothing (the baseline)."""

    def on_turn_end(self, game: object, player: object) -> None:
        return None


def play(catalog: object, seeds: list[int], bots: list[str], traced: bool) -> float:
    """CPU seconds to play the games."""
    start = time.process_time()
    with many_games():
        for seed in seeds:
            stats = GameStats.for_game(catalog, len(bots))  # type: ignore[arg-type]
            if not traced:
                stats.trace = _Untraced()  # type: ignore[assignment]
            players = [make_bot(b, bot_seed(seed, k)) for k, b in enumerate(bots)]
            Game(catalog, players, seed, stats=stats, keep_log=False).play()  # type: ignore[arg-type]
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default="tutorial")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    path = Path(args.pack)
    ir = load_ir(path if path.exists() else None, args.pack)
    catalog = prepare(ir)
    seeds = game_seeds(1, args.games)
    bots = [args.bots] * args.players
    play(catalog, seeds[:3], bots, True)  # warm-up: route tables, caches
    times: dict[str, list[float]] = {"untraced (baseline)": [], "traced": []}
    for _ in range(args.repeat):
        times["untraced (baseline)"].append(play(catalog, seeds, bots, False))
        times["traced"].append(play(catalog, seeds, bots, True))
    print(f"{args.pack}, {args.games} games, {args.players} x {args.bots}, best of {args.repeat}")
    best = {k: min(v) for k, v in times.items()}
    for name, values in times.items():
        print(
            f"  {name:20} {args.games / best[name]:8.1f} games/CPU-s  "
            f"(spread {max(values) / min(values):.2f})"
        )
    cost = best["traced"] / best["untraced (baseline)"] - 1
    print(f"  the trace costs {cost:+.1%} of a game's time")


if __name__ == "__main__":
    main()
