"""How often each bot uses the one new thing of each probe pack, and whether it is worth it.

Run: .venv/bin/python benchmarks/probe_use.py [--games N] [--players 2] [--bots LIST]
     [--probes a,b] [--paired M] [--seed S]

The probe packs (benchmarks/probes/*/pack.clank) each extend a bundled pack with ONE new
thing of a different kind, named in benchmarks/probes/probes.json as an offer of the report
(kind, name). For each probe and bot, ``--games`` games with that bot in every seat; printed:
how many player-turns a game the thing was offered (a legal option), how many times a game it
was chosen, and the share of the player-games offered it that chose it at least once, with
its 95% interval.

With ``--paired M`` (default 200), the proof that the thing is worth it: M seeds played twice,
seat 1 a heuristic bot that always takes the thing when it is offered (once a turn), then one
that never does, the other seats heuristic bots; printed: seat 1's win rate and mean score
each way and the difference (paired by seed) with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bot_routes import _groups
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import offer_keys
from clankwork.tools.simulate import bot_seed, game_seeds, simulate

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "benchmarks" / "probes"
Z95 = 1.959963984540054


def probes() -> dict[str, tuple[str, str]]:
    """Each probe's folder name and the offer (kind, name) it adds."""
    listed = json.loads((PROBES / "probes.json").read_text(encoding="utf-8"))
    return {name: (kind, thing) for name, (kind, thing) in listed.items()}


def offer_row(rep: dict[str, Any], key: tuple[str, str]) -> dict[str, Any]:
    """The report's offers row of ``key``."""
    for o in rep["offers"]:
        if (o["kind"], o["name"]) == key:
            return o
    raise KeyError(f"the report has no offer {key}")


class Forced:
    """A heuristic bot that always takes one thing when it is offered (``take``), at most once
    a turn, or never takes it: what the paired runs compare."""

    def __init__(self, seed: int, key: tuple[str, str], take: bool) -> None:
        self.base = make_bot("heuristic", seed)
        self.key, self.take = key, take
        self.turn = -1
        self.play_first = self.base.play_first

    def choose(self, view: Any, decision: Any) -> int:
        if decision.kind == "action":
            p = view.players[decision.player]
            return self.choose_action(view, p, decision.options, _groups(decision.options))
        return self.base.choose(view, decision)

    def choose_action(self, view: Any, p: Any, opts: Any, groups: Any) -> int:
        hits = [i for i, o in enumerate(opts) if self.key in offer_keys(view, o.value)]
        if not hits:
            return self.base.choose_action(view, p, opts, groups)
        if self.take:
            if self.turn != view.turn:
                self.turn = view.turn
                return hits[0]
            return self.base.choose_action(view, p, opts, groups)
        kept = [i for i in range(len(opts)) if i not in hits]
        sub = [opts[i] for i in kept]
        return kept[self.base.choose_action(view, p, sub, _groups(sub))]


def paired(cat: Any, key: tuple[str, str], seeds: list[int], players: int) -> str:
    """Seat 1 always taking the thing against seat 1 never taking it, on the same seeds."""
    wins = {True: 0.0, False: 0.0}
    scores: dict[bool, list[int]] = {True: [], False: []}
    for s in seeds:
        for take in (True, False):
            bots = [Forced(bot_seed(s, 0), key, take)]
            bots += [make_bot("heuristic", bot_seed(s, k)) for k in range(1, players)]
            r = Game(cat, bots, s, keep_log=False).play()
            if 0 in r.winners:
                wins[take] += 1 / len(r.winners)
            scores[take].append(r.scores[0])
    n = len(seeds)
    d = [a - b for a, b in zip(scores[True], scores[False], strict=True)]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, n - 1))
    half = Z95 * sd / math.sqrt(n)
    return (
        f"always {wins[True] / n:.1%} (score {sum(scores[True]) / n:.1f}) vs never "
        f"{wins[False] / n:.1%} (score {sum(scores[False]) / n:.1f}): score "
        f"{mean:+.1f} [{mean - half:+.1f} to {mean + half:+.1f}]"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games a probe and bot")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="random,greedy,heuristic", help="bots, comma-separated")
    ap.add_argument("--probes", default=None, help="probe folders (default: every one)")
    ap.add_argument("--paired", type=int, default=200, help="seeds of the paired proof (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    chosen = probes()
    if args.probes:
        chosen = {k: chosen[k] for k in args.probes.split(",")}
    for name, key in chosen.items():
        result = compile_pack(PROBES / name)
        if not result.ok:
            sys.exit(f"{name}: the probe does not compile")
        cat = prepare(result.ir)
        print(f"{name}: {key[0]} {key[1]!r}")
        for bot in args.bots.split(","):
            t0 = time.process_time()
            sim = simulate(result.ir, args.games, args.players, args.seed, bot, catalog=cat)
            o = offer_row(sim.report(), key)
            ci = o["use_rate_ci"]
            cost = (time.process_time() - t0) / args.games
            print(
                f"  {bot:<12} offered {o['offered_per_game']:5.2f} a game, chosen "
                f"{o['chosen_per_game']:5.2f} a game; took it in {o['use_rate']:6.1%} "
                f"[{ci['low']:.1%}–{ci['high']:.1%}] of the {o['offered_players']} "
                f"player-games offered it  ({cost * 1000:.0f} ms a game)"
            )
        if args.paired:
            seeds = game_seeds(args.seed + 1, args.paired)
            print(f"  worth it? seat 1 of {args.players}, {args.paired} seeds: ", end="")
            print(paired(cat, key, seeds, args.players))


if __name__ == "__main__":
    main()
