"""Random simulation of everything: every bundled pack and an extension of each, every bot,
every player count, with the invariants checked after every turn (the suite plays a few
games of each: tests/test_random_simulation.py).

    .venv/bin/python benchmarks/random_sim.py --games 100000 --jobs 2

The games are spread evenly over the configurations (pack × bot × players; tests/all_packs.py
finds them). Game ``i`` of a configuration is game ``i`` of `clankwork simulate --seed SEED`,
so each failure is printed with the one command that plays it again. Prints, for each
configuration, the games that ended by the rules, reached the round cap and failed; then
every distinct failure (by error and where the engine raised it) with its first seed and
command; and the games per second next to the time of a plain game (acqinc, four heuristic
bots, no checks) measured in the same run. Exits 1 when a game failed, or reached the round
cap in a configuration not listed in ``all_packs.MAY_REACH_CAP``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import all_packs  # noqa: E402  (tests/all_packs.py, shared with the suite)

from clankwork.tools.simulate import CHUNK, Runner, RunSpec, game_seeds  # noqa: E402

_CONFIGS: list[all_packs.Config] = []
_PLAYERS: dict[int, all_packs.Player] = {}


def _init(configs: list[all_packs.Config]) -> None:
    global _CONFIGS
    _CONFIGS = configs


def _unit(job: tuple[int, int, int, int]) -> tuple[int, list[all_packs.Outcome]]:
    """Play games ``start`` to ``start + count - 1`` of run ``seed`` of configuration ``k``."""
    k, seed, start, count = job
    player = _PLAYERS.get(k)
    if player is None:
        player = _PLAYERS[k] = all_packs.Player(_CONFIGS[k])
    return k, list(player.play_run(seed, start + count, start))


def plan(configs: int, games: int, seed: int) -> list[tuple[int, int, int, int]]:
    """The units of work: each configuration's share of ``games`` in chunks, the first chunk
    of every configuration before any second one (a stopped run has covered them all)."""
    share = [games // configs + (1 if k < games % configs else 0) for k in range(configs)]
    units = []
    for start in range(0, max(share, default=0), CHUNK):
        for k in range(configs):
            if start < share[k]:
                units.append((k, seed, start, min(CHUNK, share[k] - start)))
    return units


def plain_game_ms(games: int = 40) -> float:
    """Milliseconds a plain game takes here: acqinc, four heuristic bots, no checks."""
    ir = all_packs.compiled(all_packs.bundled()["acqinc"])
    runner = Runner(RunSpec(ir, 4, ("heuristic",) * 4))
    seeds = game_seeds(1, games)
    t = time.perf_counter()
    for i, s in enumerate(seeds):
        runner.play(i, s, record=False)
    return (time.perf_counter() - t) / games * 1000


def main() -> None:
    """Play the games and print the counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games in all")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1, help="the run seed of every configuration")
    ap.add_argument("--pack", action="append", help="only this bundled pack (repeatable)")
    ap.add_argument("--no-extensions", action="store_true")
    ap.add_argument("--ext-dir", type=Path, help="where the extensions are written (kept)")
    args = ap.parse_args()

    where = args.ext_dir or Path(tempfile.mkdtemp(prefix="clankwork-ext-"))
    packs = all_packs.packs(where, extensions=not args.no_extensions)
    if args.pack:
        packs = [p for p in packs if p.base in args.pack]
    configs = list(all_packs.configs(packs))
    base_ms = plain_game_ms()

    counts: dict[int, Counter[str]] = defaultdict(Counter)
    rounds: Counter[int] = Counter()
    failures: dict[tuple[str, str], list[tuple[int, all_packs.Outcome]]] = defaultdict(list)
    capped: dict[int, list[int]] = defaultdict(list)
    units = plan(len(configs), args.games, args.seed)
    t = time.perf_counter()
    done = 0
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(configs,)) as pool:
        for k, outcomes in pool.map(_unit, units):
            for o in outcomes:
                counts[k][o.kind] += 1
                rounds[k] += o.rounds
                if o.kind == "failed":
                    failures[(o.error.split(":")[0], o.where)].append((k, o))
                elif o.kind == "capped":
                    capped[k].append(o.game)
            done += len(outcomes)
            if done // 10_000 != (done - len(outcomes)) // 10_000:
                print(f"  {done} games, {time.perf_counter() - t:.0f} s", file=sys.stderr)
    wall = time.perf_counter() - t

    print(f"{done} games, seed {args.seed}, jobs {args.jobs}; extensions in {where}")
    head = f"{'configuration':<28} {'games':>6} {'by rules':>8} {'capped':>6} {'failed':>6}"
    print(f"{head} {'rounds':>6}")
    unexpected = []
    for k, c in enumerate(configs):
        n = sum(counts[k].values())
        ended = n - counts[k]["failed"]
        mean = rounds[k] / ended if ended else 0
        mark = " (may cap)" if c.may_cap and counts[k]["capped"] else ""
        print(
            f"{c.id:<28} {n:>6} {counts[k]['rules']:>8} {counts[k]['capped']:>6} "
            f"{counts[k]['failed']:>6} {mean:>6.1f}{mark}"
        )
        if counts[k]["capped"] and not c.may_cap:
            unexpected.append((c, capped[k][:3]))
    total = Counter()
    for c in counts.values():
        total.update(c)
    print(f"{'all':<28} {done:>6} {total['rules']:>8} {total['capped']:>6} {total['failed']:>6}")
    for (pack, bot), why in all_packs.MAY_REACH_CAP.items():
        print(f"may reach the round cap: {pack} with {bot}: {why}")
    print(f"distinct failures: {len(failures)}")
    for (error, at), found in sorted(failures.items(), key=lambda kv: -len(kv[1])):
        k, first = found[0]
        where_ = sorted({configs[j].id for j, _ in found})
        print(f"  {error} at {at}: {len(found)} games ({', '.join(where_[:6])})")
        print(f"    first: {configs[k].id} game {first.game} (seed {first.seed}), {first.error}")
        print(f"    replay: {all_packs.replay_command(configs[k], args.seed, first.game)}")
    for c, games in unexpected:
        print(f"  round cap reached by {c.id}, not listed as expected: games {games}")
        print(f"    replay: {all_packs.replay_command(c, args.seed, games[0])}")
    rate = done / wall
    print(
        f"{rate:.1f} games/s over {wall:.0f} s on {args.jobs} processes; a plain game "
        f"(acqinc, 4 heuristic bots, no checks) takes {base_ms:.1f} ms here, so a checked game "
        f"of the mix costs {args.jobs / rate * 1000 / base_ms:.1f}x that"
    )
    sys.exit(1 if failures or unexpected else 0)


if __name__ == "__main__":
    main()
