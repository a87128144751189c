"""Long mutation-fuzzing run of the bundled packs (the suite runs a short one).

    .venv/bin/python benchmarks/fuzz_packs.py --mutants 20000 --jobs 2

Each mutant goes through check (every output format), build and, when it compiles cleanly,
one game with the invariant checks after every turn (see tests/fuzzing.py). Each worker is
limited to --memory MiB of address space, so a mutant that would exhaust the machine shows as
a crash (MemoryError) instead. Prints the counts, every distinct crash with the seed that
reproduces it (`--seed-one N` reruns one), and mutants per second next to the time of a
check of the unmutated packs measured in the same run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # noqa: E402  (tests/fuzzing.py, shared with the suite)

_MUTATOR: fuzzing.Mutator | None = None
_FOLDER: Path | None = None


def _init(memory_mib: int) -> None:
    global _MUTATOR, _FOLDER
    limit = memory_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _MUTATOR = fuzzing.Mutator()
    _FOLDER = Path(tempfile.mkdtemp(prefix="clankwork-fuzz-")) / "pack"


def _one(seed: int) -> tuple[int, str, str, bool, list[str], str]:
    assert _MUTATOR is not None and _FOLDER is not None
    m = _MUTATOR.mutant(seed)
    try:
        out = fuzzing.run_mutant(m, _FOLDER, budget=_BUDGET)
    except MemoryError as e:  # outside the mutant's own try (e.g. while writing it)
        out = fuzzing.Outcome("crash", fuzzing.signature(e), "MemoryError")
    return seed, out.kind, out.signature, out.played, m.edits, out.detail


_BUDGET = 20.0


def main() -> None:
    """Run the fuzzing campaign and print its counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=2000)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory", type=int, default=2048, help="MiB of address space per worker")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds per mutant")
    ap.add_argument("--seed-one", type=int, help="run one mutant and print its traceback")
    args = ap.parse_args()
    global _BUDGET
    _BUDGET = args.budget

    if args.seed_one is not None:
        _init(args.memory)
        seed, kind, sig, played, edits, detail = _one(args.seed_one)
        print(f"seed {seed}: {kind} {sig}\n  " + "\n  ".join(edits))
        print(detail)
        return

    from clankwork.tools.check import compile_and_check

    t = time.perf_counter()
    for pack in fuzzing.PACKS:
        compile_and_check(fuzzing.ROOT / "content" / pack)
    base = (time.perf_counter() - t) / len(fuzzing.PACKS)

    kinds: Counter[str] = Counter()
    crashes: dict[str, tuple[int, list[str], str]] = {}
    played = 0
    t = time.perf_counter()
    seeds = range(args.start, args.start + args.mutants)
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(args.memory,)) as pool:
        for seed, kind, sig, did_play, edits, detail in pool.map(_one, seeds, chunksize=20):
            kinds[kind] += 1
            played += did_play
            if kind in ("crash", "hang") and sig not in crashes:
                crashes[sig] = (seed, edits, detail)
    wall = time.perf_counter() - t

    n = args.mutants
    print(f"mutants {n} (seeds {args.start}..{args.start + n - 1}), jobs {args.jobs}")
    for kind in ("clean", "errors", "crash", "hang"):
        print(f"  {kind:<7} {kinds[kind]}")
    print(f"  played  {played} games with invariant checks")
    print(f"distinct crashes and hangs: {len(crashes)}")
    for sig, (seed, edits, detail) in sorted(crashes.items()):
        print(f"  {sig}  (seed {seed}: {'; '.join(edits)[:160]})")
        last = detail.strip().splitlines()[-1:] if detail else []
        for line in last:
            print(f"      {line[:200]}")
    rate = n / wall
    print(
        f"{rate:.1f} mutants/s over {wall:.1f} s; a check of an unmutated pack takes "
        f"{base * 1000:.0f} ms, so a mutant costs {1 / rate / base * args.jobs:.2f}x "
        "a plain check per worker"
    )
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
