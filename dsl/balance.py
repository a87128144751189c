"""Compile `balance` blocks (in a pack's `scenarios/*.clank`, beside its scenarios).

A balance block plays a fixed number of bot games on a fixed seed and states what the
figures of their report must be, so that a content repository can say in CI "seat 1 wins 20
to 30 %" or "this card's edge stays within 5 points":

    balance "The tutorial stays fair" {
      games 200; seed 1; players 4; bots greedy
      expect seat 1 win rate between 20% and 45%
      expect card "Lucky Coin" edge within 40
      expect rounds mean below 14
    }

`clankwork test --balance` plays them (tools/balance.py); the figures depend on the seed, the
games, the players and the bots only, never on ``--jobs``. This module only checks and
lowers the block to its IR (`compile_balances`); scenario files are read here on their own,
and `compile_scenarios` leaves these blocks to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .compiler import ParseFn, parser
from .diagnostics import Diagnostic, Span, did_you_mean
from .limits import RANGES, range_problem
from .parser import Atom, Stmt
from .resolve import named_twice, near_miss
from .sources import PackReader

KEYWORD = "balance"
SETTINGS = ("games", "seed", "players", "bots", "board")
# A block's games when it does not say: a few hundred tutorial games take seconds.
DEFAULT_GAMES = 200
MOST_GAMES = 100_000

# Figures an expectation may name: the words after `expect` (a seat's number and a card's
# name taken out), and whether the figure is a rate (written with %), a mean, or an edge
# (points, with or without %).
FIGURES: dict[tuple[str, ...], tuple[str, str]] = {
    ("seat", "win", "rate"): ("win_rate", "rate"),
    ("seat", "share"): ("share", "rate"),
    ("card", "edge"): ("edge", "points"),
    ("card", "acquired"): ("acquired", "mean"),
    ("rounds",): ("rounds", "mean"),
    ("rounds", "mean"): ("rounds", "mean"),
    ("escapes",): ("escapes", "rate"),
    ("escapes", "rate"): ("escapes", "rate"),
    ("knockouts",): ("knockouts", "rate"),
    ("knockouts", "rate"): ("knockouts", "rate"),
    ("deaths",): ("deaths", "rate"),
    ("deaths", "rate"): ("deaths", "rate"),
    ("no", "winner"): ("no_winner", "rate"),
    ("no", "winner", "rate"): ("no_winner", "rate"),
    ("lead", "changes"): ("lead_changes", "mean"),
    ("comebacks",): ("comebacks", "rate"),
    ("comebacks", "rate"): ("comebacks", "rate"),
    ("margin",): ("margin", "mean"),
}
COMPARISONS = ("between", "below", "above", "within", "at")
EXAMPLES = (
    "expect seat 1 win rate between 20% and 30%",
    'expect card "Lucky Coin" edge within 5',
    "expect rounds mean below 16",
)


def _value(atom: Atom) -> tuple[float, bool] | None:
    """A number (as written) and whether it was a percentage; None for a word."""
    if atom.kind == "percent":
        return float(str(atom.value)[:-1]), True
    if atom.kind in ("number", "signed"):
        return float(atom.value), False
    return None


class _BalanceCompiler:
    def __init__(self, pack: dict[str, Any]) -> None:
        self.diags: list[Diagnostic] = []
        self.cards = {
            c["name"]: c["name"]
            for c in pack["cards"]
            if c.get("type", "acquire") == "acquire" and c.get("deck") in ("adventure", "reserve")
        }
        self.boards = [b["name"] for b in pack["boards"]]

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def block(self, st: Stmt) -> dict[str, Any] | None:
        if len(st.head) != 2 or st.head[1].kind not in ("string", "word") or st.block is None:
            self.error(
                "CW105", "a balance block needs one name and a block", st.span,
                hint='balance "what it checks" { games 200; expect rounds mean below 16 }',
            )  # fmt: skip
            return None
        out: dict[str, Any] = {
            "name": st.head[1].text,
            "games": DEFAULT_GAMES,
            "seed": 1,
            "players": 4,
            "bots": ["heuristic"],
            "expect": [],
            "at": st.span.to_ir(),
        }
        for s in st.block:
            word = s.words[0]
            if word == "expect":
                expectation = self.expect(s)
                if expectation is not None:
                    out["expect"].append(expectation)
            elif word in SETTINGS:
                self.setting(out, s)
            else:
                self.error(
                    "CW101", f"a balance block has no statement {s.head[0].text!r}",
                    s.head[0].span,
                    hint=did_you_mean(word, [*SETTINGS, "expect"])
                    or f"its statements: {', '.join(SETTINGS)}, expect",
                )  # fmt: skip
        if not out["expect"]:
            self.error(
                "CW105", f"balance {out['name']!r} expects nothing", st.span,
                hint=f"add an expectation such as `{EXAMPLES[0]}`",
            )  # fmt: skip
        return out

    def setting(self, out: dict[str, Any], s: Stmt) -> None:
        word, args = s.words[0], s.head[1:]
        if word == "bots":
            names = [a.text for a in args if a.kind == "word"]
            if not names or len(names) != len(args):
                self.error("CW105", "bots takes bot names", s.span, hint="bots greedy")
                return
            out["bots"] = names
            return
        if word == "board":
            if len(args) != 1 or args[0].text not in self.boards:
                hint = near_miss(args[0].text, self.boards) if len(args) == 1 else None
                self.error("CW107", "board names one of the pack's boards", s.span,
                           hint=hint or f"the pack's boards: {', '.join(self.boards)}")  # fmt: skip
                return
            out["board"] = args[0].text
            return
        if len(args) != 1 or args[0].kind != "number":
            self.error("CW105", f"{word} takes one number", s.span, hint=f"write `{word} 200`")
            return
        value = int(args[0].value)
        limit = {"games": "balance games", "seed": "seed", "players": "players"}[word]
        problem = range_problem(value, args[0].span, word, RANGES[limit])
        if problem is not None:
            self.diags.append(problem)
            return
        out[word] = value

    def expect(self, s: Stmt) -> dict[str, Any] | None:
        atoms = s.head[1:]
        words = [a.text.lower() if a.kind == "word" else None for a in atoms]
        at = next((k for k, w in enumerate(words) if w in COMPARISONS), None)
        if at is None or at == 0:
            self.error(
                "CW105", "an expectation names a figure, then between, below, above or within",
                s.span, hint="; ".join(f"`{e}`" for e in EXAMPLES),
            )  # fmt: skip
            return None
        subject, comparison = atoms[:at], atoms[at:]
        figure = self.figure(s, subject)
        if figure is None:
            return None
        bounds = self.comparison(s, comparison, figure["unit"])
        if bounds is None:
            return None
        return {
            **figure,
            **bounds,
            "said": " ".join(a.source() for a in subject),
            "bounds": " ".join(a.source() for a in comparison),
            "at": s.span.to_ir(),
        }

    def figure(self, s: Stmt, atoms: list[Atom]) -> dict[str, Any] | None:
        words = [a.text.lower() for a in atoms]
        subject: str | int = ""
        key: tuple[str, ...] = tuple(words)
        if words and words[0] == "seat":
            if len(atoms) < 2 or atoms[1].kind != "number":
                self.error("CW105", "seat takes its number", s.span, hint=EXAMPLES[0])
                return None
            problem = range_problem(int(atoms[1].value), atoms[1].span, "seat", RANGES["seat"])
            if problem is not None:
                self.diags.append(problem)
                return None
            subject = int(atoms[1].value)
            key = ("seat", *words[2:])
        elif words and words[0] == "card":
            if len(atoms) < 2 or atoms[1].kind not in ("string", "word"):
                self.error("CW105", "card takes the card's name", s.span, hint=EXAMPLES[1])
                return None
            name = atoms[1].text
            if name not in self.cards:
                self.error(
                    "CW107", f"no card named {name!r} to acquire in the pack", atoms[1].span,
                    hint=near_miss(name, self.cards.values()) or "name a card of the pack",
                )  # fmt: skip
                return None
            subject = name
            key = ("card", *words[2:])
        found = FIGURES.get(key)
        if found is None:
            shown = sorted({" ".join(k).replace("seat", "seat N").replace("card", 'card "X"')
                            for k in FIGURES})  # fmt: skip
            self.error(
                "CW105", f"no figure {' '.join(a.source() for a in atoms)!r} to expect",
                Span(s.span.file, atoms[0].span.line, atoms[0].span.col,
                     atoms[-1].span.end_line, atoms[-1].span.end_col),
                hint="the figures: " + ", ".join(shown),
            )  # fmt: skip
            return None
        kind, unit = found
        if kind == "share" and subject != 1:
            self.error("CW105", "share is measured for seat 1", s.span, hint="expect seat 1 share")
            return None
        return {"figure": kind, "subject": subject, "unit": unit}

    def comparison(self, s: Stmt, atoms: list[Atom], unit: str) -> dict[str, Any] | None:
        words = [a.text.lower() if a.kind == "word" else None for a in atoms]
        values = [_value(a) for a in atoms]
        shapes = {
            ("between", None, "and", None): ("between", 1, 3),
            ("below", None): ("below", 1, None),
            ("above", None): ("above", 1, None),
            ("within", None): ("within", 1, None),
            ("at", "most", None): ("below", 2, None),
            ("at", "least", None): ("above", 2, None),
        }
        shape = shapes.get(tuple(words))
        if shape is None or any(values[k] is None for k in shape[1:] if k is not None):
            self.error(
                "CW105", "expected `between A and B`, `below A`, `above A`, `within A`, "
                "`at most A` or `at least A`", s.span, hint="; ".join(f"`{e}`" for e in EXAMPLES),
            )  # fmt: skip
            return None
        op, first, second = shape
        numbers = []
        for k in (first, second):
            if k is None:
                continue
            number, percent = values[k]  # type: ignore[misc]
            if unit == "rate" and not percent:
                self.error("CW105", "a rate is written as a percentage", atoms[k].span,
                           hint=f"write {atoms[k].text}%")  # fmt: skip
                return None
            if unit == "mean" and percent:
                self.error("CW105", "a mean is a plain number, not a percentage", atoms[k].span,
                           hint=f"write {atoms[k].text.rstrip('%')}")  # fmt: skip
                return None
            numbers.append(number / 100 if unit in ("rate", "points") else number)
        if op == "within":
            low, high = -numbers[0], numbers[0]
        elif op == "between":
            low, high = sorted(numbers)
        elif op == "below":
            low, high = None, numbers[0]
        else:
            low, high = numbers[0], None
        return {"op": op, "low": low, "high": high}


def compile_balances(
    pack_dir: str | Path,
    pack_ir: dict[str, Any],
    display_root: str | Path | None = None,
    overrides: Mapping[str, str] | None = None,
    parse: ParseFn | None = None,
) -> tuple[list[dict[str, Any]], list[Diagnostic], dict[str, str]]:
    """The `balance` blocks of a pack's `scenarios/*.clank` files, their diagnostics and the
    files read (read like `compile_scenarios` reads them: regular files in the pack only).
    ``parse`` parses a whole file (`Parser.parse` or one that keeps what it parsed)."""
    shown = Path(display_root) if display_root is not None else Path(pack_dir)
    out: list[dict[str, Any]] = []
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    if not Path(pack_dir).is_dir():
        return out, diags, sources
    comp = _BalanceCompiler(pack_ir)
    with PackReader(pack_dir, shown, overrides=overrides) as reader:
        if not reader.exists("scenarios"):
            return out, diags, sources
        for named, text in reader.clank_texts("scenarios"):
            name = (shown / named).as_posix()
            # The scenarios' compiler reports the syntax errors.
            stmts, _syntax = (parse or parser().parse)(text, name)
            blocks = [st for st in stmts if st.words and st.words[0] == KEYWORD]
            if blocks:
                sources[name] = text
            for st in blocks:
                block = comp.block(st)
                if block is not None:
                    out.append(block)
    diags.extend(comp.diags)
    diags.extend(named_twice(out, "balance blocks", "make their names unique"))
    return out, diags, sources
