"""What `compile_and_check` keeps between two runs on one pack, for the language server.

An edit changes one file. Of checking the pack again (`clankwork check`'s stages: compile,
board checks, scenarios, the IR schema) this keeps what the edit cannot have changed:

- every file's statements (`dsl.incremental`): an edited file re-parses only the
  statements whose text changed;
- each scenario file's whole parse (`LastParse`), which its balance blocks are read from;
- the compiled pack and its board checks, while no file it read has changed: an edit of a
  scenario file compiles that file's scenarios and nothing else;
- the same, moved, when an edit changed where statements stand but none of them (a comment
  or a blank line added or removed above them): every position in the IR and the
  diagnostics is moved as the statements moved, and the IR schema's verdict is kept;
- each scenario file's scenarios, by its text, for the compiled pack they were checked
  against;
- the IR schema's verdict on the compiled pack.

A compile that read a file it could not (missing, refused, too large: CW004-CW007), or a
pack whose cards have art (files the compile reads but does not parse), is not kept: the
next run compiles again.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from clankwork.dsl.compiler import CompileResult, parser
from clankwork.dsl.diagnostics import Diagnostic, Span
from clankwork.dsl.incremental import IncrementalParser
from clankwork.dsl.parser import Stmt
from clankwork.dsl.scenarios import ScenarioFile

_READER_CODES = ("CW004", "CW005", "CW006", "CW007")


@dataclass
class PackPart:
    """One compile of the pack and what depends on its IR alone."""

    result: CompileResult  # as compile_pack gave it: never changed afterwards
    board: list[Diagnostic]
    root: str  # the pack's real folder
    scenarios: dict[tuple[str, str], ScenarioFile] = field(default_factory=dict)
    schema: list[tuple[str, str]] | None = None  # validate_ir's answer, once asked


class LastParse:
    """`Parser.parse` of whole files, keeping each file's last text and what it gave.

    A run of `compile_and_check` reads each scenario file twice (its scenarios, then its
    balance blocks), and an edit elsewhere leaves them as they were: parsing them again was
    most of the time of checking a pack from the command line or after an edit of a big
    file. Callers read the statements and never change them."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[str, tuple[list[Stmt], list[Diagnostic]]]] = {}

    def parse(self, text: str, filename: str) -> tuple[list[Stmt], list[Diagnostic]]:
        """What `Parser.parse` gives for ``text``, parsed again only when it changed."""
        kept = self.last.get(filename)
        if kept is None or kept[0] != text:
            kept = (text, parser().parse(text, filename))
            self.last[filename] = kept
        return kept[1]


class CheckCache:
    """Kept between runs of `compile_and_check` on one pack; counts what it saved."""

    def __init__(self) -> None:
        self.parser = IncrementalParser(parser())
        self.whole = LastParse()  # the scenario files' balance blocks
        self.part: PackPart | None = None
        self.compiles = 0  # runs that compiled the pack
        self.reuses = 0  # runs that found it unchanged
        self.moves = 0  # runs that found only statements moved (`moved`)

    def parse(self, text: str, filename: str) -> Any:
        """`Parser.parse`, re-parsing only the statements that changed."""
        return self.parser.parse(text, filename)

    def unchanged(self, pack: Path, overrides: Mapping[str, str] | None) -> PackPart | None:
        """The kept compile of ``pack`` when every file it read holds the same text now
        (the editor's buffer when ``overrides`` has it, else the file on disk), else None."""
        part = self.part
        if part is None or part.root != os.path.realpath(pack):
            return None
        for shown, text in part.result.sources.items():
            if _current_text(part.root, shown, overrides or {}) != text:
                return None
        return part

    def moved(self, pack: Path, overrides: Mapping[str, str] | None) -> PackPart | None:
        """The kept compile of ``pack`` with its positions moved, when the files that changed
        hold the same lines of code as before, in the same order, and differ only in their
        comments and blank lines (a comment or a blank line added or removed, a comment
        written after a line's code);
        else None. Comments and runs of blank lines mean nothing to the grammar, so the
        statements are the same and what a compile gives is the kept IR and diagnostics with
        each position moved as its line moved (a test compares them with a compile of the
        new text, on every bundled file)."""
        part = self.part
        if part is None or part.root != os.path.realpath(pack):
            return None
        shifts: dict[str, dict[int, int]] = {}
        texts = dict(part.result.sources)
        for shown, text in part.result.sources.items():
            now = _current_text(part.root, shown, overrides or {})
            if now == text:
                continue
            if now is None or not shown.endswith(".clank"):
                return None
            shift = _lines_moved(text, now)
            if shift is None:
                return None
            shifts[shown] = shift
            texts[shown] = now
        if not shifts:
            return part
        result = part.result
        moved_part = PackPart(
            CompileResult(
                _move_ir(result.ir, shifts),
                [_move_diag(d, shifts) for d in result.diagnostics],
                texts,
            ),
            [_move_diag(d, shifts) for d in part.board],
            part.root,
            scenarios={
                key: ScenarioFile(
                    _move_ir(done.scenarios, shifts),
                    [_move_diag(d, shifts) for d in done.syntax],
                    [_move_diag(d, shifts) for d in done.checks],
                )
                for key, done in part.scenarios.items()
            },
            schema=part.schema,
        )
        self.part = moved_part
        self.moves += 1
        return moved_part

    def keep(self, pack: Path, result: CompileResult, board: list[Diagnostic]) -> PackPart:
        """Keep this compile of ``pack`` when the next run may use it (see the module)."""
        part = PackPart(result, board, os.path.realpath(pack))
        ir = result.ir
        reread = any(d.code in _READER_CODES for d in result.diagnostics) or (
            ir is not None and any("art" in c for c in ir["cards"])
        )
        self.part = None if reread else part
        return part


def _current_text(root: str, shown: str, overrides: Mapping[str, str]) -> str | None:
    """A file's text now: the editor's buffer when ``overrides`` has it, else the disk's."""
    path = os.path.join(os.getcwd(), shown)  # as PackReader showed it
    rel = os.path.relpath(os.path.realpath(path), root)
    if not rel.startswith(os.pardir) and Path(rel).as_posix() in overrides:
        return overrides[Path(rel).as_posix()]
    return _disk_text(path)


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number from 1, its code) of each line that holds more than blanks and a
    comment; a line's code ends where its comment begins, trailing blanks left out."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        code = _code(line)
        if code.strip():
            out.append((n, code))
    return out


def _code(line: str) -> str:
    """``line`` without its comment and the blanks before it: a `#` outside a string starts
    a comment, as the lexer reads it (an unclosed quote is one character it skips)."""
    if "#" not in line:
        return line.rstrip()
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            if j < n:
                i = j + 1
                continue
        elif c == "#":
            return line[:i].rstrip()
        i += 1
    return line.rstrip()


def _lines_moved(before: str, after: str) -> dict[int, int] | None:
    """Where each line of code of ``before`` stands in ``after`` (line numbers from 1), when
    the two hold the same lines of code in the same order; else None."""
    old, new = _code_lines(before), _code_lines(after)
    if len(old) != len(new) or any(a[1] != b[1] for a, b in zip(old, new, strict=True)):
        return None
    return {a[0]: b[0] for a, b in zip(old, new, strict=True) if a[0] != b[0]}


def _move_span(s: Span, shifts: dict[str, dict[int, int]]) -> Span:
    shift = shifts.get(s.file)
    if not shift:
        return s
    return replace(s, line=shift.get(s.line, s.line), end_line=shift.get(s.end_line, s.end_line))


def _move_diag(d: Diagnostic, shifts: dict[str, dict[int, int]]) -> Diagnostic:
    return replace(
        d,
        span=_move_span(d.span, shifts) if d.span else None,
        notes=tuple((note, _move_span(s, shifts)) for note, s in d.notes),
    )


def _move_ir(node: Any, shifts: dict[str, dict[int, int]]) -> Any:
    """A copy of the IR ``node`` with each position in a moved file moved."""
    if isinstance(node, dict):
        out = {
            k: _move_ir(v, shifts) if isinstance(v, (dict, list)) else v for k, v in node.items()
        }
        if "end_line" in node:
            shift = shifts.get(node.get("file"))  # type: ignore[arg-type]
            if shift:
                out["line"] = shift.get(node["line"], node["line"])
                out["end_line"] = shift.get(node["end_line"], node["end_line"])
        return out
    if isinstance(node, list):
        return [_move_ir(v, shifts) if isinstance(v, (dict, list)) else v for v in node]
    return node


def _disk_text(path: str) -> str | None:
    """The text of the regular file at ``path`` (not a link), or None."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        with open(path, "rb") as f:
            return f.read().decode("utf-8")  # as PackReader reads it: line ends kept
    except (OSError, UnicodeDecodeError):
        return None
