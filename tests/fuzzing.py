"""Mutation fuzzing of packs: hostile edits of the bundled packs, run through every tool a
content repository runs on a pull request.

Each mutant is a bundled pack with one to three edits (a line dropped or doubled, a number
made huge, a name made hostile, brackets nested a thousand deep, a control character...).
It goes through `check` (the compile and every output format), `build`, and, when it compiles
cleanly, a short game with the invariant checks after every turn. Anything that escapes as
an exception is a crash; a mutant that runs past its time budget is a hang. The suite runs a
few hundred mutants (tests/test_fuzz.py); `benchmarks/fuzz_packs.py` runs tens of thousands.
"""

from __future__ import annotations

import random
import re
import shutil
import signal
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKS = ("tutorial", "acqinc")

HOSTILE_NAMES = (
    '<x> href="javascript:alert(1)" label=<y>',
    "../../../etc/passwd",
    "a\x1b[31mred\x1b[0m",
    "tab\there",
    "bell\x07",
    "line\u2028sep",
    "rtl\u202eevil",
    "",
    " ",
    "<b>bold</b>",
    "a,b::c",
    "%0A%25",
    "]]></svg><script>alert(1)</script>",
    "x" * 300,
    "HQ",
    "hq",
    "Whispering  Wood",
)
HOSTILE_NUMBERS = (
    "0",
    "-1",
    "1",
    "7",
    "100",
    "1001",
    "65535",
    "2147483648",
    "9223372036854775808",
    "1000000000000000000000000000000",
    "9" * 5000,
    "-0",
    "+5",
    "-999999999",
)
HOSTILE_CHARS = (
    "{",
    "}",
    "(",
    ")",
    '"',
    ";",
    ":",
    ",",
    "|",
    "->",
    "--",
    "#",
    "\n",
    "\t",
    "\x00",
    "\x1b",
    "\f",
    "\v",
    "\r",
    "\u2028",
    "\u0085",
    "\ufeff",
    "é",
    "\\",
    "0",
    "-",
    "+",
)
NUMBER = re.compile(r"(?<![A-Za-z_])[+-]?\d+")
STRING = re.compile(r'"([^"\\\n]|\\.)*"')
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


@dataclass
class Mutant:
    """A pack with edits: the base pack, the files that changed and what was done."""

    pack: str
    seed: int
    files: dict[str, str]
    edits: list[str] = field(default_factory=list)


def pack_files(pack: str) -> dict[str, str]:
    """Every .clank file of a bundled pack, scenarios included, by relative path."""
    base = ROOT / "content" / pack
    return {
        p.relative_to(base).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(base.rglob("*.clank"))
    }


class Mutator:
    """Makes mutants of the bundled packs from a seed; the same seed, the same mutant."""

    def __init__(self, packs: tuple[str, ...] = PACKS) -> None:
        self.bases = {p: pack_files(p) for p in packs}
        self.words = {
            p: sorted({w for text in files.values() for w in WORD.findall(text)})
            for p, files in self.bases.items()
        }

    def mutant(self, seed: int) -> Mutant:
        """The mutant for ``seed``: one to three edits of one or two files of one pack."""
        rng = random.Random(seed)
        pack = rng.choice(sorted(self.bases))
        files = dict(self.bases[pack])
        m = Mutant(pack, seed, {})
        for _ in range(rng.choice((1, 1, 2, 3))):
            name = rng.choice(sorted(files))
            text, what = self._edit(rng, pack, files[name])
            files[name] = text
            m.files[name] = text
            m.edits.append(f"{name}: {what}")
        return m

    def _edit(self, rng: random.Random, pack: str, text: str) -> tuple[str, str]:
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        op = rng.choice(
            (
                "drop line",
                "double line",
                "swap lines",
                "cut",
                "insert char",
                "number",
                "number",
                "name",
                "name",
                "word",
                "word",
                "nest",
                "case",
            )
        )
        if op == "drop line":
            del lines[k]
        elif op == "double line":
            lines.insert(k, lines[k])
        elif op == "swap lines":
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "cut":
            line = lines[k]
            a = rng.randrange(len(line) + 1)
            b = min(len(line), a + rng.randrange(1, 12))
            lines[k] = line[:a] + line[b:]
        elif op == "insert char":
            line = lines[k]
            a = rng.randrange(len(line) + 1)
            lines[k] = line[:a] + rng.choice(HOSTILE_CHARS) + line[a:]
        elif op == "number":
            return self._replace(rng, NUMBER, text, lambda: rng.choice(HOSTILE_NUMBERS), op)
        elif op == "name":
            return self._replace(
                rng, STRING, text, lambda: '"' + rng.choice(HOSTILE_NAMES) + '"', op
            )
        elif op == "word":
            words = self.words[pack]
            return self._replace(rng, WORD, text, lambda: rng.choice(words), op)
        elif op == "nest":
            depth = rng.choice((70, 1000, 5000))
            opener, closer = rng.choice(
                (("{ x ", "}"), ("(", ")"), ("if you have an artifact (", ")"))
            )
            lines.insert(
                k, f"card Deep {{ cost 1; play: {opener * depth}+1 skill{closer * depth} }}"
            )
        elif op == "case":
            return self._replace(rng, STRING, text, None, op)
        return "\n".join(lines), f"{op} at line {k + 1}"

    @staticmethod
    def _replace(rng: random.Random, pattern: re.Pattern[str], text: str, new: Any, op: str):
        hits = list(pattern.finditer(text))
        if not hits:
            return text, f"{op}: nothing to replace"
        m = rng.choice(hits)
        value = m.group(0).swapcase() if new is None else new()  # None: flip a name's case
        line = text.count("\n", 0, m.start()) + 1
        shown = value if len(value) < 40 else value[:37] + "..."
        return text[: m.start()] + value + text[m.end() :], f"{op} -> {shown!r} at line {line}"


class Hang(Exception):
    """A mutant ran past its time budget."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise Hang inside the block after ``seconds`` (main thread, POSIX only)."""

    def on_alarm(_sig: int, _frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    """What one mutant did: `clean`, `errors` (diagnostics), `crash` or `hang`."""

    kind: str
    signature: str = ""
    detail: str = ""
    played: bool = False


def signature(exc: BaseException) -> str:
    """A crash's identity: its type and the innermost frame of Clankwork's own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/clankwork/" in f.filename or str(ROOT) in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    loc = f"{Path(where.filename).name}:{where.lineno} in {where.name}" if where else "?"
    return f"{type(exc).__name__} at {loc}"


def write_pack(m: Mutant, folder: Path) -> Path:
    """Write the mutant's pack into ``folder`` (a fresh copy of its base, then the edits)."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(ROOT / "content" / m.pack, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in m.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_mutant(m: Mutant, folder: Path, budget: float = 20.0, play: bool = True) -> Outcome:
    """Run one mutant through check (every format), build and, if clean, a short game."""
    from clankwork.dsl.diagnostics import (
        format_github,
        format_human,
        format_json,
        format_sarif,
        has_errors,
    )
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.interpreter.invariants import check_invariants
    from clankwork.tools.check import compile_and_check

    path = write_pack(m, folder)
    try:
        with time_budget(budget):
            result = compile_and_check(path)
            for fmt in (format_json, format_github):
                fmt(result.diagnostics)
            format_sarif(result.diagnostics, "0")
            format_human(result.diagnostics, result.sources, color=True)
            if result.ir is None or has_errors(result.diagnostics):
                return Outcome("errors")
            if not play:
                return Outcome("clean")
            cat = prepare(result.ir)
            problems: list[str] = []

            def after_turn(game: Game) -> None:
                problems.extend(check_invariants(game))

            players = max(cat.rules["min_players"], min(2, cat.rules["max_players"]))
            bots = [make_bot("greedy", m.seed * 10 + k) for k in range(players)]
            Game(cat, bots, m.seed).play(after_turn=after_turn)
            if problems:
                return Outcome("crash", "invariant: " + problems[0][:60], problems[0], True)
            return Outcome("clean", played=True)
    except Hang as e:
        return Outcome("hang", "hang", str(e))
    except RecursionError as e:
        return Outcome("crash", signature(e), traceback.format_exc(limit=-8))
    except Exception as e:  # noqa: BLE001 - the point is to catch everything
        return Outcome("crash", signature(e), traceback.format_exc(limit=-8))
