"""Diagnostics: errors, warnings and notes with a source span, and their output formats."""

from __future__ import annotations

import difflib
import json
import unicodedata
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

SEVERITIES = ("error", "warning", "info")

# Stable codes. docs/diagnostics.md is generated from this table (test_docs checks it).
CODES: dict[str, tuple[str, str]] = {
    "CW001": ("error", "Syntax error: the parser met a token it did not expect."),
    "CW002": ("error", "A character that is not part of the language (a stray symbol)."),
    "CW003": ("error", "The file ended inside a block, a bracket or a string."),
    "CW004": ("error", "A file cannot be read: a missing include or pack manifest."),
    "CW005": (
        "error",
        "A file the pack names is refused: a link out of the pack folder, a device, a FIFO or "
        "a directory where a file belongs. It is never read.",
    ),
    "CW006": (
        "error",
        "A size limit is exceeded: one file, the whole pack, or the number of files "
        "(the limit is in the message).",
    ),
    "CW007": (
        "error",
        "Too deep: blocks, brackets or includes nested past the limit (the limit is in the "
        "message).",
    ),
    "CW101": ("error", "Unknown declaration kind (the first word of a top-level statement)."),
    "CW102": ("error", "Unknown property inside a declaration."),
    "CW103": ("error", "Unknown effect: no registered op reads like this phrase."),
    "CW104": ("error", "Unknown condition or count after `if` or `per`."),
    "CW105": ("error", "A value has the wrong form (a word where a number belongs...)."),
    "CW106": ("error", "Duplicate name: two declarations of the same kind share a name."),
    "CW107": ("error", "Undefined reference to a card, token or space."),
    "CW108": ("error", "Impossible value (a negative cost, zero copies...)."),
    "CW109": ("error", "A required property is missing (a monster without `fight`...)."),
    "CW110": ("error", "The starting deck does not have the size the rules ask for."),
    "CW111": ("warning", "A property is given twice; the last one wins."),
    "CW112": ("error", "Misplaced construct (a price `->` after something that cannot be paid)."),
    "CW113": ("error", "A number outside its documented range (the limits in docs/language.md)."),
    "CW114": ("error", "A name holds a control character (a tab, a new line, an escape...)."),
    "CW115": (
        "warning",
        "An artifact space's value has no artifact token: the game places a nameless artifact "
        "worth that much.",
    ),
    "CW120": (
        "error",
        "`extends` names no base pack: no bundled pack of that name, or no pack folder at "
        "that path.",
    ),
    "CW121": ("error", "Packs extend each other in a cycle (a extends b extends a)."),
    "CW122": (
        "error",
        "`replace`, `remove` or `change` names something the base pack does not have.",
    ),
    "CW123": (
        "error",
        "An extension declares a name its base already has (use `replace` or `change`).",
    ),
    "CW124": (
        "error",
        "An extension statement with no base: `replace`, `remove` or `change` in a pack that "
        "extends none, or `extends` outside a pack folder's pack.clank.",
    ),
    "CW125": (
        "error",
        "A resource declaration clashes with a base resource or another declaration, or a "
        "word of it does.",
    ),
    "CW126": ("error", "An unknown resource (a way paid in a resource nobody declared)."),
    "CW127": ("error", "An unknown way (a path naming an undeclared way), or one declared twice."),
    "CW128": (
        "error",
        "A malformed `action` line (no effects, an unknown limit, a name that is no words).",
    ),
    "CW129": (
        "warning",
        "A declared resource that no effect of the pack gives, or a way's requirement that no "
        "token grants.",
    ),
    "CW130": (
        "warning",
        "A token of kind `mug` that no rule awards: a mug no longer awards itself on escape "
        "(write `when you escape: take NAME` in the pack's `rules` block).",
    ),
    "CW131": (
        "error",
        "A negative gain of a resource other than Clank! (`-20 boots`): it would take what the "
        "pool may not hold; write a price (`pay 2 boots -> ...`) or a status (`you can't use "
        "boots for the rest of this turn`).",
    ),
    "CW132": (
        "error",
        "A price alone on a line (`pay 2 gold`, `pay 2 clank cubes` with nothing after `->`): "
        "nothing asks whether it can be paid; write `PRICE -> EFFECTS` or a `choose` option.",
    ),
    "CW135": (
        "error",
        "A module used twice: at two fixed positions, fixed and also offered at a free one, "
        "twice in one position's choice, or more positions than modules to fill them.",
    ),
    "CW136": (
        "error",
        "A connection point with no match: a join at a point a module lacks, a module's point "
        "no join uses at its position, or a side with no space at a declared point.",
    ),
    "CW137": (
        "error",
        "A position or a join naming no module, side or position of the board.",
    ),
    "CW138": (
        "error",
        "A room that cannot be reached from HQ in some assembly of a modular board (the "
        "message names the assembly).",
    ),
    "CW139": (
        "warning",
        "A one-way trap in some assembly of a modular board: a room reachable from HQ from "
        "which HQ cannot be reached (the message names the assembly).",
    ),
    "CW140": (
        "error",
        "A scenario names a seat it does not have: a seat past its `players` (`player 3 { ... }`, "
        "`bag player 3 1`, `draws 3`, `expect player 3 ...`, `expect winner 3`), or the "
        "personal goal of such a seat.",
    ),
    "CW141": (
        "error",
        "A scenario's number is past what its game allows: a player count the pack's rules do "
        "not, a rage space past the track, more cubes than a player or the dragon has, damage "
        "that knocks a player out, a counter past its maximum, a goal's boxes, a reserve pile "
        "past its copies, more `destroy`s than copies.",
    ),
    "CW142": (
        "error",
        "A scenario names something its game does not have there: a space off its board (or off "
        "its `modules` assembly, or added by a sticker it does not apply), a token that is no "
        "cube in `draws`, no artifact in `artifact`, no market item in `buy`, a card that is no "
        "monster to fight, a goal of another player, a card every copy of which is destroyed.",
    ),
    "CW143": (
        "error",
        "A scenario's `modules` line names no assembly of its board, or its board has no modules.",
    ),
    "CW144": (
        "error",
        "A card's art is not an image Clankwork can draw: not a PNG, JPEG or SVG, or an SVG "
        "that refers to another file or site, or holds a script.",
    ),
    "CW150": (
        "error",
        "A results file (`campaign record --from`) is not TOML, or has a key or a block that "
        "does not belong in it.",
    ),
    "CW151": (
        "error",
        "A results file names what the pack or the campaign does not have: a player, a card, "
        "a sticker (or one already on), a passage, a contract, a goal, a track, a choice.",
    ),
    "CW152": (
        "error",
        "A results file's value is out of range or contradicts itself (a negative score, a "
        "player who died with points, a [[player]] block too many).",
    ),
    "CW201": ("error", "The board has no HQ space (or more than one)."),
    "CW202": ("error", "A space cannot be reached from HQ."),
    "CW203": ("error", "An artifact space from which HQ cannot be reached (a one-way trap)."),
    "CW204": ("info", "A path leads nowhere (allowed by the rules; nobody can use it)."),
    "CW205": ("warning", "A pack declares no board, cards or starting deck to play with."),
    "CW206": (
        "error",
        "A board sticker breaks the board once applied (a space cut off from HQ, an artifact "
        "with no way back).",
    ),
    "CW301": (
        "error",
        "The compiled IR does not match its JSON Schema (a bug, or a hand-edited IR).",
    ),
    "CW401": ("error", "A scenario's expectation does not hold (expected and actual values)."),
    "CW402": ("error", "A scenario's script does not fit the game (an unscripted decision...)."),
    "CW403": (
        "error",
        "The engine raised an exception while running a scenario, at the statement it was "
        "carrying out: a bug in Clankwork, or a rule it cannot carry out (`clankwork test "
        "--verbose` prints the traceback).",
    ),
    "CW404": (
        "error",
        "A balance block's expectation does not hold in its games (the figure, its interval "
        "and the bounds), or its games could not be played (`clankwork test --balance`).",
    ),
}


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file; lines and columns count from 1, ``end_col`` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def to_ir(self) -> dict[str, Any]:
        """The span as the IR's ``at`` object."""
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
        }

    @classmethod
    def from_ir(cls, at: Mapping[str, Any]) -> Span:
        """Read an IR ``at`` object back."""
        return cls(at["file"], at["line"], at["col"], at["end_line"], at["end_col"])


@dataclass(frozen=True)
class Diagnostic:
    """One finding. ``hint`` says how to fix it; ``notes`` point at related places."""

    code: str
    message: str
    span: Span | None
    hint: str | None = None
    severity: str = ""
    notes: tuple[tuple[str, Span], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.severity:
            object.__setattr__(self, "severity", CODES[self.code][0])

    def sort_key(self) -> tuple[Any, ...]:
        """Order: by file and position, then code."""
        s = self.span
        return (s.file if s else "", s.line if s else 0, s.col if s else 0, self.code)

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object (the `--format json` element)."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }
        if self.span:
            out["span"] = self.span.to_ir()
        if self.hint:
            out["hint"] = self.hint
        if self.notes:
            out["notes"] = [{"message": m, "span": s.to_ir()} for m, s in self.notes]
        return out


def did_you_mean(word: str, choices: Iterable[str], n: int = 1) -> str | None:
    """A `did you mean "x"?` hint for the closest choice, or None when nothing is close."""
    by_lower = {c.lower(): c for c in sorted(set(choices))}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f'"{by_lower[c]}"' for c in close) + "?"


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error."""
    return any(d.severity == "error" for d in diags)


def summary_line(diags: list[Diagnostic]) -> str:
    """`2 errors, 1 warning` style summary."""
    parts = []
    for sev in SEVERITIES:
        n = sum(1 for d in diags if d.severity == sev)
        if n:
            word = {"error": "error", "warning": "warning", "info": "note"}[sev]
            parts.append(f"{n} {word}{'s' if n != 1 else ''}")
    return ", ".join(parts) if parts else "no problems"


def format_human(diags: list[Diagnostic], sources: Mapping[str, str], color: bool = False) -> str:
    """Compiler-style text: `file:line:col`, the source line and a caret under the span.

    Everything that comes from a pack (source lines, names in messages, file names) is shown
    with control characters and bidi overrides escaped, so a pack cannot drive the terminal."""
    out: list[str] = []
    paint = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;36m"}
    bold, reset = ("\x1b[1m", "\x1b[0m") if color else ("", "")
    for d in diags:
        label = {"info": "note"}.get(d.severity, d.severity)
        head = f"{paint[d.severity] if color else ''}{label}[{d.code}]{reset}"
        out.append(f"{head}{bold}: {printable(d.message)}{reset}")
        if d.span:
            out.extend(_snippet(d.span, sources))
        for msg, span in d.notes:
            out.append(f"  note: {printable(msg)}")
            out.extend(_snippet(span, sources))
        if d.hint:
            out.append(f"  = help: {printable(d.hint)}")
        out.append("")
    return "\n".join(out)


# Characters a terminal acts on instead of showing: C0 controls but the tab, DEL, C1 controls,
# bidi embeddings, overrides and isolates (the "Trojan Source" characters), bidi marks, the
# Unicode line and paragraph separators, and the invisible byte-order mark.
_UNSAFE = frozenset(
    [*(chr(c) for c in range(0x20) if c != 0x09), *(chr(c) for c in range(0x7F, 0xA0))]
    + [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
    + ["\u200e", "\u200f", "\u061c", "\u2028", "\u2029", "\ufeff"]
)


def _shown(ch: str) -> str:
    """How one character is printed: itself, or an escape such as \\x1b or \\u202e."""
    if ch not in _UNSAFE:
        return ch
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def _width(ch: str) -> int:
    """Columns ``ch`` takes on a terminal as printed: its escape's length when escaped, two
    for a wide (East Asian) character, none for a combining mark, one otherwise."""
    if ch in _UNSAFE:
        return len(_shown(ch))
    if ch.isascii():
        return 1
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on escaped (tabs stay tabs)."""
    if not any(ch in _UNSAFE for ch in text):
        return text
    return "".join(_shown(ch) for ch in text)


def source_lines(text: str) -> list[str]:
    """The lines of a source text as the parser counts them: split at "\\n" only (a form
    feed or U+2028 is not a line break to Lark), without the "\\r" of a "\\r\\n"."""
    return _source_lines(text)


@lru_cache(maxsize=8)
def _source_lines(text: str) -> list[str]:
    # Cached: a file with many diagnostics is split once, not once per snippet.
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


_SHOWN = 200
"""Characters of one source line a snippet shows at most."""


def _snippet(span: Span, sources: Mapping[str, str]) -> list[str]:
    lines = [f"  --> {printable(span.file)}:{span.line}:{span.col}"]
    text = sources.get(span.file)
    if text is None:
        return lines
    src_lines = source_lines(text)
    # Not the empty "line" after the last new line.
    count = len(src_lines) - (1 if text.endswith("\n") else 0)
    if not 1 <= span.line <= count:
        return lines
    line = src_lines[span.line - 1]
    num = str(span.line)
    pad = " " * len(num)
    start = max(0, span.col - 1)
    end = span.end_col - 1 if span.end_line == span.line else len(line)
    # A very long line (a minified or binary file) is shown as a window around the span,
    # so one diagnostic prints a bounded amount of text.
    lo, hi = 0, len(line)
    if len(line) > _SHOWN:
        lo = max(0, min(start - _SHOWN // 4, len(line) - _SHOWN))
        hi = lo + _SHOWN
    lead, tail = ("..." if lo else ""), ("..." if hi < len(line) else "")
    # Widths as printed: an escaped character takes its escape's width and a wide one two
    # columns, so the caret stays under it; tabs in the prefix stay tabs to line up with
    # what the terminal shows.
    prefix = " " * len(lead)
    prefix += "".join("\t" if ch == "\t" else " " * _width(ch) for ch in line[lo:start])
    prefix += " " * max(0, start - len(line))
    width = sum(_width(ch) for ch in line[start : min(end, hi)])
    width += max(0, end - max(start, len(line)))
    shown = lead + printable(line[lo:hi]) + tail
    lines += [f" {pad} |", f" {num} | {shown}", f" {pad} | {prefix}{'^' * max(1, width)}"]
    return lines


def format_json(diags: list[Diagnostic]) -> str:
    """The `--format json` document."""
    doc = {
        "diagnostics": [d.to_json() for d in diags],
        "summary": {s: sum(1 for d in diags if d.severity == s) for s in SEVERITIES},
    }
    return json.dumps(doc, indent=2)


def format_github(diags: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands (`::error file=...,line=...::message`).

    Escaped per the workflow-command rules, so a file name or message can neither end the
    command nor add a property or a second annotation: data escapes % CR LF, property
    values also : and ,."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for d in diags:
        msg = _gh_data(f"{d.code} {d.message}" + (f" ({d.hint})" if d.hint else ""))
        title = _gh_property(d.code)
        if d.span:
            s = d.span
            loc = f"file={_gh_property(s.file)},line={s.line},col={s.col}"
            loc += f",endLine={s.end_line},endColumn={s.end_col}"
            out.append(f"::{level[d.severity]} {loc},title={title}::{msg}")
        else:
            out.append(f"::{level[d.severity]} title={title}::{msg}")
    return "\n".join(out)


def _gh_data(text: str) -> str:
    """A workflow command's message (the part after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    """A workflow command's property value (`file=`, `title=`)."""
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def file_uri(path: str) -> str:
    """A file path as a URI reference (SARIF `artifactLocation.uri`): percent-encoded, "/"
    kept, so a name with spaces, "#", "?" or ":" stays one relative path."""
    return urllib.parse.quote(path, safe="/")


def format_sarif(diags: list[Diagnostic], version: str) -> str:
    """SARIF 2.1.0 for code-scanning dashboards."""
    level = {"error": "error", "warning": "warning", "info": "note"}
    rules = [
        {
            "id": code,
            "shortDescription": {"text": text},
            "defaultConfiguration": {"level": level[sev]},
        }
        for code, (sev, text) in CODES.items()
    ]
    results = []
    for d in diags:
        r: dict[str, Any] = {
            "ruleId": d.code,
            "level": level[d.severity],
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
        }
        if d.span:
            s = d.span
            r["locations"] = [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": file_uri(s.file)},
                        "region": {
                            "startLine": s.line,
                            "startColumn": s.col,
                            "endLine": s.end_line,
                            "endColumn": s.end_col,
                        },
                    }
                }
            ]
        results.append(r)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "clankwork",
                        "version": version,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2)


def quote_name(name: str) -> str:
    """A name as the language writes it: bare when it is one plain word, else quoted."""
    if (
        name
        and (name[0].isalpha() or name[0] == "_")
        and all(c.isalnum() or c in "_'" for c in name)
    ):
        return name
    return f'"{name}"'
