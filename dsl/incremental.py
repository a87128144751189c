"""Parse a file again after an edit without parsing all of it: for the language server.

A file is a run of top-level statements, and a top-level statement ends at a new line that is
outside every bracket and brace and does not follow a `,` or `->` (the grammar's only
continuations). `chunks` finds those ends with a scan that reads strings and comments as the
lexer does, and `IncrementalParser` parses each run of lines alone, keeping what it got by
the run's text: after an edit only the statements whose text changed are parsed again, and
those that only moved up or down have their spans moved. A 2,000-card file took 0.85 s to
parse whole; an edit of one card re-parses that card.

The statements are those of a parse of the whole file (a test checks it on every bundled
file and on generated programs). So are the diagnostics of a file that parses; in a file
with syntax errors each broken statement reports its own errors, where a parse of the whole
file may report a few more that follow from the first (its error recovery carries on past
the statement). A file whose chunk fails at its end ("the file ends ...") is parsed whole,
so that message means what it says.
"""

from __future__ import annotations

import gc
import re
from dataclasses import replace

from .diagnostics import Diagnostic, Span
from .parser import Atom, Effect, Parser, Stmt

Parsed = tuple[list[Stmt], list[Diagnostic]]
_SPECIAL = re.compile(r'["#{}()]')


def chunks(text: str) -> list[tuple[int, str]]:
    """The top-level statements of ``text`` as (index of the first line, text of the whole
    lines), blank and comment lines going with the statement after them."""
    lines = text.split("\n")
    out: list[tuple[int, str]] = []
    start = 0
    depth = 0
    cont = False  # the last token so far is `,` or `->`: the statement goes on
    for i, line in enumerate(lines):
        if i > start and depth == 0 and not cont and _has_code(lines[i - 1]):
            out.append((start, "\n".join(lines[start:i]) + "\n"))
            start = i
        depth, cont = _scan(line, depth, cont)
    tail = "\n".join(lines[start:])
    if tail:
        out.append((start, tail))
    return out


def _has_code(line: str) -> bool:
    """True when the line holds more than blanks and a comment."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _scan(line: str, depth: int, cont: bool) -> tuple[int, bool]:
    """The bracket depth after ``line`` and whether its last token continues the
    statement; strings, comments and escapes are read as the lexer reads them."""
    if _SPECIAL.search(line) is None:  # most lines: no bracket, string or comment
        stripped = line.rstrip()
        return depth, stripped.endswith((",", "->")) if stripped else cont
    i, n = 0, len(line)
    last = ""
    while i < n:
        c = line[i]
        if c == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            if j < n:  # a string; an unclosed quote is one bad character the lexer skips
                i, last = j + 1, '"'
                continue
        elif c == "#":
            break
        elif c in "{(":
            depth += 1
        elif c in "})":
            depth = max(0, depth - 1)
        if not c.isspace():
            last = "->" if c == ">" and i and line[i - 1] == "-" else c
        i += 1
    if last:
        cont = last in (",", "->")
    return depth, cont


# Span and Atom are frozen dataclasses, whose __init__ sets each field through
# object.__setattr__. A moved copy is made by filling a new object's __dict__ instead: the
# same fields, so equal and hashing alike, three times faster (a line added at the top of a
# 2,000-card file moves some 50,000 spans on each keystroke).
_new = object.__new__


def _moved_span(s: Span, by: int) -> Span:
    out = _new(Span)
    d = out.__dict__
    d["file"] = s.file
    d["line"] = s.line + by
    d["col"] = s.col
    d["end_line"] = s.end_line + by
    d["end_col"] = s.end_col
    return out


def _moved_atom(a: Atom, by: int) -> Atom:
    out = _new(Atom)
    d = out.__dict__
    d["kind"] = a.kind
    d["value"] = a.value
    d["span"] = _moved_span(a.span, by)
    return out


def _moved_atoms(atoms: list[Atom], by: int) -> list[Atom]:
    return [_moved_atom(a, by) for a in atoms]


def _moved_effect(e: Effect, by: int) -> Effect:
    return Effect(
        e.form,
        _moved_atoms(e.phrase, by),
        _moved_span(e.span, by),
        [_moved_effect(c, by) for c in e.consequence] if e.consequence else [],
        [[_moved_effect(c, by) for c in alt] for alt in e.alternatives] if e.alternatives else [],
    )


def moved(st: Stmt, by: int) -> Stmt:
    """``st`` with every span ``by`` lines further down."""
    return Stmt(
        _moved_atoms(st.head, by),
        _moved_span(st.span, by),
        None if st.effects is None else [_moved_effect(e, by) for e in st.effects],
        None if st.block is None else [moved(s, by) for s in st.block],
        None if st.block_span is None else _moved_span(st.block_span, by),
    )


def _moved_diag(d: Diagnostic, by: int) -> Diagnostic:
    return replace(
        d,
        span=_moved_span(d.span, by) if d.span else None,
        notes=tuple((note, _moved_span(s, by)) for note, s in d.notes),
    )


class IncrementalParser:
    """`Parser.parse` with each file's statements kept by their text between calls.

    The chunks of the latest parse of each file are kept, and as many of earlier ones: the
    memory is about twice that of the files' syntax trees, not their history."""

    def __init__(self, parser: Parser | None = None) -> None:
        self.parser = parser or Parser()
        # file name -> chunk text -> (first line it was parsed at, its statements, errors)
        self.kept: dict[str, dict[str, tuple[int, list[Stmt], list[Diagnostic]]]] = {}
        self.parsed_chunks = 0  # how many chunks were parsed (not found), for tests
        self.last: dict[str, tuple[str, Parsed]] = {}  # file name -> its last text, result

    def parse(self, text: str, filename: str) -> Parsed:
        """The statements and syntax errors of ``text``, as `Parser.parse` gives them."""
        last = self.last.get(filename)
        if last is not None and last[0] == text:
            return last[1]  # most files of a pack are the same as last time
        was_enabled = gc.isenabled()
        gc.disable()  # every statement kept stays alive: collecting would walk them all
        try:
            got = self._parse(text, filename)
        finally:
            if was_enabled:
                gc.enable()
        self.last[filename] = (text, got)
        return got

    def _parse(self, text: str, filename: str) -> Parsed:
        if text.startswith("\ufeff"):
            text = " " + text[1:]  # as Parser.parse does: the columns stay where they are
        parts = chunks(text)
        before = self.kept.get(filename)
        if before is None:
            # A file seen for the first time is parsed whole (one call is faster than one a
            # statement), and its statements are kept by the chunk they start in.
            whole = self.parser.parse(text, filename)
            self.parsed_chunks += len(parts)
            if not whole[1]:
                self.kept[filename] = _by_chunk(parts, whole[0])
                return whole
            before = {}
        now: dict[str, tuple[int, list[Stmt], list[Diagnostic]]] = {}
        stmts: list[Stmt] = []
        diags: list[Diagnostic] = []
        for n, (first, chunk) in enumerate(parts):
            got = now.get(chunk) or before.get(chunk)
            if got is None:
                self.parsed_chunks += 1
                got = (0, *self.parser.parse(chunk, filename))  # its lines count from 1
                if got[2] and n < len(parts) - 1 and _cut_short(got[2]):
                    # A statement cut short by the chunk's end: what the whole file says.
                    return self.parser.parse(text, filename)
            if got[0] != first:
                by = first - got[0]
                got = (first, [moved(s, by) for s in got[1]], [_moved_diag(d, by) for d in got[2]])
            now.setdefault(chunk, got)
            stmts.extend(got[1])
            diags.extend(got[2])
        # The chunks of this text, and after them those of earlier texts, up to as many
        # again: an unclosed bracket makes the rest of the file one chunk until it is closed,
        # and the statements it swallowed are found again once it is.
        kept = now | {c: got for c, got in before.items() if c not in now}
        self.kept[filename] = dict(list(kept.items())[: 2 * len(now) + 64])
        return ([], diags) if diags else (stmts, [])

    def forget(self, filename: str) -> None:
        """Drop what is kept of one file (it is closed, or gone)."""
        self.kept.pop(filename, None)
        self.last.pop(filename, None)


def _by_chunk(
    parts: list[tuple[int, str]], stmts: list[Stmt]
) -> dict[str, tuple[int, list[Stmt], list[Diagnostic]]]:
    """The statements of a whole file by the chunk each starts in."""
    out: dict[str, tuple[int, list[Stmt], list[Diagnostic]]] = {}
    i = 0
    for n, (first, chunk) in enumerate(parts):
        end = parts[n + 1][0] if n + 1 < len(parts) else None
        mine = []
        while i < len(stmts) and (end is None or stmts[i].span.line - 1 < end):
            mine.append(stmts[i])
            i += 1
        out.setdefault(chunk, (first, mine, []))
    return out


def _cut_short(diags: list[Diagnostic]) -> bool:
    """True when an error is the parser's "the file ends ..."."""
    return any(d.code == "CW003" and d.message.startswith("the file ends") for d in diags)
