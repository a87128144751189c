"""The canonical layout of .clank text (`clankwork fmt`), which never changes what a file means.

The layout, in full:
- Two spaces of indentation per block. One statement per line; a block stays on one line,
  `head { a; b }`, only when it was written that way (its first statement on the line of
  its "{", as Prettier treats object literals), it fits in 100 columns and nothing inside
  it carries a comment or a blank line. An empty block is `{}`.
- `head: effects`, `a, b`, `a -> b`, `phrase (x | y)`, `a -> (b, c)`; one space between
  atoms. A consequence is bracketed only where the grammar needs it (several effects, or a
  consequence with its own "->").
- A statement longer than 100 columns with several effects breaks after its commas, each
  further effect on its own line four spaces deeper.
- Quoting: every atom is written exactly as in the source. The compiler reads a quoted
  name and a bare word differently (`"May"` is a name, `May` is the word "may"; `"2"` is not
  the number 2), so the formatter never adds or removes quotes: that would change meaning.
- Comments stay where they were: a comment on its own line stays on its own line before
  the statement that follows it (or before the "}" or the end of the file), re-indented; a
  comment after code stays after the statement or the "{" whose line it ended. A comment
  inside a statement that is split over lines (within brackets or a wrapped effect list)
  moves to its own line before that statement.
- Blank lines between statements are kept, runs of them collapsed to one; none at the start
  or end of a block or file. Line ends are "\\n", a byte-order mark is dropped, the file
  ends with one newline.

`format_source` re-parses its own output and compares the statement trees (spans aside):
a difference is a bug in this module and raises `FormatterBug` rather than return text
that means something else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from .diagnostics import Diagnostic
from .parser import Atom, Effect, Parser, Stmt

WIDTH = 100
INDENT = "  "
WRAP_INDENT = "    "


class FormatterBug(RuntimeError):
    """The formatted text would not parse to the same statements: a bug here, not in input."""


@dataclass
class _Comment:
    line: int
    text: str
    own_line: bool
    used: bool = False


@dataclass
class _Notes:
    """The comments and blank lines that belong to one statement."""

    before: list[str | None] = field(default_factory=list)  # comment text, None = blank line
    after: list[str] = field(default_factory=list)  # trailing comments of its last line
    opener: list[str] = field(default_factory=list)  # trailing comments of its "{" line
    inside_end: list[str | None] = field(default_factory=list)  # before its "}"


_PARSER: Parser | None = None


def _parser() -> Parser:
    global _PARSER
    if _PARSER is None:
        _PARSER = Parser()
    return _PARSER


def parse_for_format(text: str, filename: str) -> tuple[list[Stmt], list[Diagnostic]]:
    """Parse ``text`` as the formatter sees it (the diagnostics are `check`'s syntax errors)."""
    return _parser().parse(_normalise(text), filename)


def format_source(text: str, filename: str) -> str | None:
    """``text`` in the canonical layout, or None when it does not parse."""
    text = _normalise(text)
    stmts, diags = _parser().parse(text, filename)
    if diags:
        return None
    out = _Formatter(text, stmts).run()
    again, diags2 = _parser().parse(out, filename)
    if diags2 or strip_spans(again) != strip_spans(stmts):
        raise FormatterBug(f"formatting {filename} would change its meaning")
    return out


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n")


def strip_spans(node: Any) -> Any:
    """Statements, effects and atoms as plain data without their source spans."""
    if isinstance(node, list):
        return [strip_spans(n) for n in node]
    if is_dataclass(node):
        return {
            f.name: strip_spans(getattr(node, f.name))
            for f in fields(node)
            if not f.name.endswith("span")
        }
    return node


def comments_of(text: str) -> list[tuple[int, str, bool]]:
    """Every comment of parseable ``text``: (line, text, alone on its line)."""
    # Exact for text that parses: outside a string, "#" can only start a comment.
    out = []
    for n, line in enumerate(text.split("\n"), start=1):
        i = 0
        in_string = False
        while i < len(line):
            ch = line[i]
            if in_string:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "#":
                # A ";" alone before it is no statement: the comment is on a line of its own.
                out.append((n, line[i:].rstrip(), not line[:i].strip(" \t\f\r;")))
                break
            i += 1
    return out


def _end_line(st: Stmt) -> int:
    return st.span.end_line


class _Formatter:
    def __init__(self, text: str, stmts: list[Stmt]) -> None:
        self.lines = text.split("\n")
        self.stmts = stmts
        self.comments = [_Comment(n, t, own) for n, t, own in comments_of(text)]
        self.by_line: dict[int, list[_Comment]] = {}
        for c in self.comments:
            self.by_line.setdefault(c.line, []).append(c)
        self.notes: dict[int, _Notes] = {}
        self.file_end: list[str | None] = []
        self._covering: dict[int, tuple[int, Stmt]] | None = None

    def note(self, st: Stmt) -> _Notes:
        return self.notes.setdefault(id(st), _Notes())

    # -- attaching comments and blank lines ---------------------------------------------

    def _region(self, first: int, last: int) -> list[str | None]:
        """Own-line comments and blank lines of lines first..last, blank runs collapsed."""
        out: list[str | None] = []
        for n in range(first, last + 1):
            cs = self.by_line.get(n, [])
            own = [c for c in cs if c.own_line and not c.used]
            if own:
                for c in own:
                    c.used = True
                    out.append(c.text)
            elif n - 1 < len(self.lines) and not self.lines[n - 1].strip():
                if out and out[-1] is None:
                    continue
                out.append(None)
        return out

    def attach_body(self, body: list[Stmt], start: int, end: int) -> list[str | None]:
        """Give each statement of ``body`` the lines before it; return those before ``end``.

        ``start`` is the line before the body's first line (the "{" line, or 0)."""
        prev = start
        for st in body:
            region = self._region(prev + 1, st.span.line - 1)
            if prev == start or not body:
                region = _trim_blanks(region, leading=True)
            self.note(st).before = region
            if st.block is not None and st.block_span is not None:
                self.note(st).inside_end = _trim_blanks(
                    self.attach_body(st.block, st.block_span.line, st.block_span.end_line),
                    leading=not st.block,  # no blank line right after "{"
                    trailing=True,
                )
            prev = _end_line(st)
        return self._region(prev + 1, end - 1)

    def attach_rest(self) -> None:
        """Comments after code (or inside a split statement) go to a statement."""
        flat: list[tuple[Stmt, int]] = []  # statement, depth

        def walk(body: list[Stmt], depth: int) -> None:
            for st in body:
                flat.append((st, depth))
                if st.block:
                    walk(st.block, depth + 1)

        walk(self.stmts, 0)
        # Indexed by line: a big file with a comment on every line stays linear.
        ending: dict[int, tuple[int, int]] = {}  # line -> (depth, -index), outermost last
        opening: dict[int, tuple[int, int]] = {}  # line -> (depth, index), innermost
        for i, (st, d) in enumerate(flat):
            end = _end_line(st)
            if end not in ending or (-d, i) > ending[end]:
                ending[end] = (-d, i)
            if st.block_span is not None:
                line = st.block_span.line
                if line not in opening or (d, i) > opening[line]:
                    opening[line] = (d, i)
        for c in self.comments:
            if c.used:
                continue
            c.used = True
            if c.line in ending:
                self.note(flat[ending[c.line][1]][0]).after.append(c.text)
            elif c.line in opening:
                self.note(flat[opening[c.line][1]][0]).opener.append(c.text)
            else:
                self.note(self._innermost(flat, c.line)).before.append(c.text)

    def _innermost(self, flat: list[tuple[Stmt, int]], line: int) -> Stmt:
        """The deepest statement whose lines include ``line`` (a comment inside it)."""
        if self._covering is None:
            # Built once, and only for files with such comments: each statement marks its
            # lines, deeper ones later (blocks nest at most MAX_NESTING deep).
            self._covering = {}
            for st, d in flat:
                for n in range(st.span.line, st.span.end_line + 1):
                    if n not in self._covering or d >= self._covering[n][0]:
                        self._covering[n] = (d, st)
        return self._covering[line][1]

    # -- rendering ------------------------------------------------------------------------

    def run(self) -> str:
        last = len(self.lines) + 1
        self.file_end = _trim_blanks(self.attach_body(self.stmts, 0, last), trailing=True)
        self.attach_rest()
        out: list[str] = []
        self.emit_body(self.stmts, 0, out)
        for item in self.file_end:
            out.append("" if item is None else item)
        while out and out[0] == "":
            out.pop(0)
        return "\n".join(out) + "\n" if out else ""

    def atom(self, a: Atom) -> str:
        s = a.span
        if s.line == s.end_line:
            return self.lines[s.line - 1][s.col - 1 : s.end_col - 1]
        return a.source()  # pragma: no cover - atoms are single tokens on one line

    def phrase(self, atoms: list[Atom]) -> str:
        out = []
        for i, a in enumerate(atoms):
            if i:
                # A score sheet's colon inside an award line (`second most: 4`), which the
                # parser reads past (dsl/parser.py), is kept as written.
                out.append(": " if self._colon_before(atoms[i - 1], a) else " ")
            out.append(self.atom(a))
        return "".join(out)

    def _colon_before(self, before: Atom, a: Atom) -> bool:
        b, s = before.span, a.span
        if b.end_line != s.line:
            return False
        return self.lines[s.line - 1][b.end_col - 1 : s.col - 1].strip() == ":"

    def effect(self, e: Effect) -> str:
        text = self.phrase(e.phrase)
        if e.form == "then":
            cons = e.consequence
            if len(cons) == 1 and cons[0].form != "then":
                return f"{text} -> {self.effect(cons[0])}"
            return f"{text} -> ({self.effects(cons)})"
        if e.form == "group":
            alts = " | ".join(self.effects(a) for a in e.alternatives)
            return f"{text} ({alts})"
        return text

    def effects(self, effs: list[Effect]) -> str:
        return ", ".join(self.effect(e) for e in effs)

    def line_of(self, st: Stmt) -> str:
        """The statement without its block."""
        text = self.phrase(st.head)
        if st.effects is not None:
            text += ": " + self.effects(st.effects)
        return text

    def has_notes(self, st: Stmt, top: bool = True) -> bool:
        n = self.notes.get(id(st))
        if n and (n.opener or n.inside_end or (not top and (n.before or n.after))):
            return True
        return any(self.has_notes(s, top=False) for s in st.block or [])

    def one_line(self, st: Stmt) -> str | None:
        """The statement on one line, when its layout allows it."""
        text = self.line_of(st)
        if st.block is None:
            return text
        if not st.block:
            return None if self.has_notes(st) else text + " {}"
        assert st.block_span is not None
        if st.block[0].span.line != st.block_span.line or self.has_notes(st):
            return None
        inner = []
        for s in st.block:
            one = self.one_line(s)
            if one is None:
                return None
            inner.append(one)
        return text + " { " + "; ".join(inner) + " }"

    def emit_body(self, body: list[Stmt], depth: int, out: list[str]) -> None:
        """Each statement on its own line, except that statements without a block which
        share a source line stay together, `a; b`, as far as 100 columns allow."""
        pad = INDENT * depth
        i = 0
        while i < len(body):
            st = body[i]
            n = self.notes.get(id(st), _Notes())
            one = self.one_line(st) if st.block is None and not n.after else None
            if one is None or len(pad) + len(one) > WIDTH:
                self.emit(st, depth, out)
                i += 1
                continue
            for item in n.before:
                out.append("" if item is None else pad + item)
            line = pad + one
            i += 1
            while i < len(body):
                nxt = body[i]
                m = self.notes.get(id(nxt), _Notes())
                if nxt.block is not None or m.before or nxt.span.line != body[i - 1].span.end_line:
                    break
                more = self.one_line(nxt)
                if more is None or len(line) + 2 + len(more) > WIDTH:
                    break
                i += 1
                if m.after:
                    line += "; " + more + "".join("  " + c for c in m.after)
                    break
                line += "; " + more
            out.append(line)

    def emit(self, st: Stmt, depth: int, out: list[str]) -> None:
        pad = INDENT * depth
        n = self.notes.get(id(st), _Notes())
        for item in n.before:
            out.append("" if item is None else pad + item)
        after = "".join("  " + c for c in n.after)
        one = self.one_line(st)
        if one is not None and len(pad) + len(one) <= WIDTH:
            out.append(pad + one + after)
            return
        head = self.wrapped(st, pad)
        if st.block is None:
            head[-1] += after
            out.extend(head)
            return
        head[-1] += " {" + "".join("  " + c for c in n.opener)
        out.extend(head)
        self.emit_body(st.block, depth + 1, out)
        for item in n.inside_end:
            out.append("" if item is None else pad + INDENT + item)
        out.append(pad + "}" + after)

    def wrapped(self, st: Stmt, pad: str) -> list[str]:
        """The statement without its block, broken after its commas when too long."""
        text = pad + self.line_of(st)
        if len(text) + (2 if st.block is not None else 0) <= WIDTH or not st.effects:
            return [text]
        if len(st.effects) < 2:
            return [text]
        first = pad + self.phrase(st.head) + ": " + self.effect(st.effects[0]) + ","
        rest = [pad + WRAP_INDENT + self.effect(e) + "," for e in st.effects[1:]]
        rest[-1] = rest[-1][:-1]
        return [first, *rest]


def _trim_blanks(
    items: list[str | None], leading: bool = False, trailing: bool = False
) -> list[str | None]:
    if leading:
        while items and items[0] is None:
            items = items[1:]
    if trailing:
        while items and items[-1] is None:
            items = items[:-1]
    return items
