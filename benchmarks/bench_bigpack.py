"""`clankwork check` on a generated pack of N cards: wall time and peak RSS, against a baseline.

Run: .venv/bin/python benchmarks/bench_bigpack.py [--cards 100000] [--keep DIR] [--repeat 1]

The pack is the bundled acqinc pack (its board, tokens, rules, starting deck, reserve and
scenarios) plus N generated card declarations of varied shapes (costs, points, points per,
several effects, conditions, choose groups, prices, monsters, events, devices, tags) and one
generated token per 50 cards, split over files of 10,000 cards each (`--per-file`).

Each measurement runs in its own child process, so its peak memory is its own: peak RSS is
the child's `ru_maxrss` from os.wait4 (the kernel's high-water mark of resident memory, in
KiB on Linux), not a tracemalloc figure. The baseline, measured in the same run on the same
files, is a bare Lark LALR parse of every file of the pack (no postlexer, no tree conversion,
one file at a time, each tree dropped after parsing, Python's cycle collector left on as
it is by default), so "x raw parse" says what compiling, resolving, the scenarios, the board
checks and the IR validation cost on top of parsing. The machine's other work stretches wall
time; the CPU column is the steadier figure.

The figures in the issue (134 s, 2.3 GB before) are for `--cards 100000`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PER_FILE = 10_000

ADJECTIVES = (
    "Quarterly", "Gilded", "Haunted", "Sworn", "Misfiled", "Ancient", "Brass", "Velvet",
    "Crimson", "Hollow", "Lucky", "Urgent", "Silent", "Feral", "Arcane", "Notarised",
)  # fmt: skip
NOUNS = (
    "Ledger", "Stapler", "Intern", "Dragon", "Memo", "Cloak", "Compass", "Goblet", "Lantern",
    "Auditor", "Charter", "Invoice", "Golem", "Satchel", "Quill", "Wyvern",
)  # fmt: skip
RESOURCES = ("skill", "swords", "boots", "gold")
TAGS = ("paperwork", "arcana", "logistics")


def _name(i: int) -> str:
    return f'"{ADJECTIVES[i % 16]} {NOUNS[(i // 16) % 16]} {i}"'


def _gain(i: int) -> str:
    return f"+{1 + i % 3} {RESOURCES[i % 4]}"


def _card(i: int) -> str:
    """One card declaration; ``i`` picks among a dozen shapes seen in the bundled packs."""
    n = _name(i)
    cost = 1 + i % 8
    shape = i % 12
    if shape == 0:
        return f"card {n} {{ cost {cost}; play: {_gain(i)}, {_gain(i + 1)}, draw 1 }}"
    if shape == 1:
        return (
            f"card {n} {{ copies 2; cost {cost}; tag {TAGS[i % 3]}; "
            f"play: choose one ({_gain(i)} | -2 clank | {_gain(i + 2)}) }}"
        )
    if shape == 2:
        return (
            f"card {n} {{ cost {cost}; points {i % 4}; "
            f"play: +1 skill, may pay 2 gold -> ({_gain(i)}, +1 boots) }}"
        )
    if shape == 3:
        return f"card {n} {{ cost {cost}; device; use: choose one (+1 gold | heal 1) }}"
    if shape == 4:
        return (
            f"card {n} {{\n  copies 2; cost {cost}; tag {TAGS[i % 3]}\n  play: {_gain(i)}\n"
            f"  play if another {TAGS[i % 3]} in play: {_gain(i + 1)}\n}}"
        )
    if shape == 5:
        return (
            f"card {n} {{ cost {cost}; companion; "
            f"play: {_gain(i)}, if you are in a town (+2 gold) }}"
        )
    if shape == 6:
        return (
            f"card {n} {{ cost {cost}; points {1 + i % 3}; gem; dragon attack; "
            f"acquire: +2 clank; play: draw 1 }}"
        )
    if shape == 7:
        return (
            f"card {n} {{\n  cost {cost}; companion; points 1 per 5 gold\n"
            f"  play: {_gain(i)}, each opponent (+1 clank)\n"
            f"  play if you have mystic fruit: heal 1\n}}"
        )
    if shape == 8:
        forest = "only in forest; " if i % 3 == 0 else ""
        return (
            f"monster {n} {{ copies 2; fight {1 + i % 4}; {forest}dragon attack; "
            f"defeat: +{2 + i % 3} gold, take a minor secret }}"
        )
    if shape == 9:
        return (
            f"monster {n} {{ fight {2 + i % 3}; arrive: each player (+1 clank); "
            f"defeat: choose one (+3 gold | heal 2) }}"
        )
    if shape == 10:
        return f"event {n} {{ arrive: each player (choose one (+2 clank | take 1 damage)) }}"
    return (
        f"card {n} {{ cost {cost}; play: +1 skill, may take 1 damage -> draw 2, "
        f"may discard 1 card -> ({_gain(i)}) }}"
    )


def _token(i: int) -> str:
    name = f'"Token of the {ADJECTIVES[i % 16]} {NOUNS[(i // 16) % 16]} {i}"'
    if i % 2:
        return f"token {name} {{ minor secret 2; use: {_gain(i)} }}"
    return f"token {name} {{ minor secret 1; points {1 + i % 5} }}"


def write_pack(folder: Path, cards: int, per_file: int = PER_FILE) -> Path:
    """Write the acqinc pack plus ``cards`` generated cards into ``folder``, ``per_file``
    cards to a file; return the folder."""
    from clankwork.tools.check import bundled_pack

    shutil.copytree(bundled_pack("acqinc"), folder, dirs_exist_ok=True)
    includes = []
    for start in range(0, cards, per_file):
        part = f"generated_{start // per_file:03d}.clank"
        stop = min(cards, start + per_file)
        lines = [_card(i) for i in range(start, stop)]
        lines += [_token(i) for i in range(start, stop, 50)]
        (folder / part).write_text("\n".join(lines) + "\n", encoding="utf-8")
        includes.append(f'include "{part}"')
    manifest = folder / "pack.clank"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "\n" + "\n".join(includes) + "\n",
        encoding="utf-8",
    )
    return folder


def _child(code: str, *args: str) -> tuple[float, float, int, str]:
    """Run ``code`` in a fresh interpreter: (wall seconds, CPU seconds, peak RSS in KiB,
    stdout). CPU time is shown too because other work on the machine stretches wall time."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert proc.stdout is not None
    out = proc.stdout.read().decode("utf-8", "replace")
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"child failed ({proc.returncode}):\n{out}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out


# Both children import what they need before the clock starts; each prints its own timing.
BASELINE = """
import sys, time
from pathlib import Path
from lark import Lark
from clankwork.dsl.parser import grammar_text
raw = Lark(grammar_text(), parser="lalr")
files = sorted(Path(sys.argv[1]).rglob("*.clank"))
t0 = time.perf_counter()
for f in files:
    t = f.read_text(encoding="utf-8")
    raw.parse(t if t.endswith("\\n") else t + "\\n")
print(f"timed {time.perf_counter() - t0:.3f}")
"""
CHECK = """
import sys, time
from pathlib import Path
from clankwork.tools.check import compile_and_check
from clankwork.dsl.diagnostics import has_errors
t0 = time.perf_counter()
result = compile_and_check(Path(sys.argv[1]))
print(f"timed {time.perf_counter() - t0:.3f}")
errors = [d for d in result.diagnostics if d.severity == "error"]
print(f"cards {len(result.ir['cards']) if result.ir else 0} errors {len(errors)}")
for d in errors[:5]:
    print(d.code, d.message)
"""


def _timed(out: str) -> float:
    return float(next(ln.split()[1] for ln in out.splitlines() if ln.startswith("timed ")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=100_000, help="generated card declarations")
    ap.add_argument("--per-file", type=int, default=PER_FILE, help="generated cards per file")
    ap.add_argument("--keep", metavar="DIR", help="write the pack here and keep it")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each child (best is shown)")
    args = ap.parse_args()
    tmp = None
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="clankwork-bigpack-")
        folder = Path(tmp.name)
    try:
        write_pack(folder, args.cards, args.per_file)
        files = sorted(folder.rglob("*.clank"))
        size = sum(f.stat().st_size for f in files)
        print(f"pack: {folder} ({len(files)} files, {size / 2**20:.1f} MiB, "
              f"{args.cards:,} generated cards + acqinc)")  # fmt: skip
        rows = []
        for label, code in (("raw Lark parse (baseline)", BASELINE), ("full check", CHECK)):
            runs = [_child(code, str(folder)) for _ in range(args.repeat)]
            wall, cpu, rss, out = min(runs, key=lambda r: _timed(r[3]))
            rows.append((label, _timed(out), wall, cpu, max(r[2] for r in runs), out))
        base = rows[0][1]
        head = ("stage", "timed s", "x raw parse", "process s", "CPU s", "peak RSS MiB")
        print(f"{head[0]:<28}{head[1]:>9}{head[2]:>13}{head[3]:>11}{head[4]:>8}{head[5]:>14}")
        for label, timed, wall, cpu, rss, _out in rows:
            print(
                f"{label:<28}{timed:>9.2f}{timed / base:>13.2f}{wall:>11.2f}{cpu:>8.2f}"
                f"{rss / 1024:>14.0f}"
            )
        for line in rows[1][5].splitlines():
            if not line.startswith("timed "):
                print("  check:", line)
        print(f"cards checked per second: {args.cards / rows[1][1]:,.0f}")
        print("timed: the stage alone; process, CPU and peak RSS: the whole child process")
        print("(interpreter start and imports included), from os.wait4's ru_maxrss")
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
