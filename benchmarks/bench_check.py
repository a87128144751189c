"""How long `clankwork check` takes on a pack, against the raw Lark parse of the same text.

Run: .venv/bin/python benchmarks/bench_check.py [PACK] [--repeat N]

The baseline is measured in the same run: Lark's LALR parse of every file of the pack (no
postlexer, no tree conversion), so the ratio says what compiling, resolving, the board graph
checks and the schema validation cost on top of parsing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from lark import Lark

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.parser import Parser, grammar_text
from clankwork.tools.check import bundled_pack, compile_and_check


def _best(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default=None)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    pack = Path(args.pack) if args.pack else bundled_pack()
    result = compile_pack(pack)
    pack_texts = list(result.sources.values())
    # Every file the check reads (the pack and its scenarios), for the full check's baseline.
    texts = list(compile_and_check(pack).sources.values())
    chars = sum(len(t) for t in texts)
    cards = sum(c["copies"] for c in result.ir["cards"]) if result.ir else 0
    designs = len(result.ir["cards"]) if result.ir else 0

    raw = Lark(grammar_text(), parser="lalr")  # the baseline: a bare LALR parse
    Parser()  # build our parser's tables outside the timed region, as the CLI does once

    def raw_parse(which: list[str]) -> None:
        for t in which:
            raw.parse(t if t.endswith("\n") else t + "\n")

    # Without the postlexer newlines inside brackets would be syntax errors; the bundled
    # packs keep every bracket on one line, so the raw parse sees the same text.
    raw_parse(texts)
    pack_min, pack_med = _best(lambda: raw_parse(pack_texts), args.repeat)
    base_min, base_med = _best(lambda: raw_parse(texts), args.repeat)
    comp_min, comp_med = _best(lambda: compile_pack(pack), args.repeat)
    check_min, check_med = _best(lambda: compile_and_check(pack), args.repeat)

    print(f"pack: {pack} ({len(texts)} files, {chars} characters, {designs} card designs)")
    print(f"{'stage':<40}{'best ms':>10}{'median ms':>11}{'x raw parse':>13}")
    for name, best, med, base in (
        ("raw parse, pack files (baseline)", pack_min, pack_med, pack_min),
        ("compile pack (parse+compile+resolve)", comp_min, comp_med, pack_min),
        ("raw parse, pack + scenarios", base_min, base_med, base_min),
        ("full check (+ scenarios, board, schema)", check_min, check_med, base_min),
    ):
        print(f"{name:<40}{best * 1e3:>10.2f}{med * 1e3:>11.2f}{best / base:>13.2f}")
    print(f"card designs compiled per second (full check): {designs / check_min:,.0f}")
    print(f"cards (with copies) per second (full check): {cards / check_min:,.0f}")


if __name__ == "__main__":
    main()
