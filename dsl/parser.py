"""Parse .clank text into a small syntax tree, collecting syntax errors instead of raising."""

from __future__ import annotations

import hashlib
import os
import sys
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, Span, source_lines
from .limits import MAX_DIGITS, MAX_NESTING, MAX_NUMBER

# What a designer calls each terminal, for "expected ..." messages.
TERMINAL_WORDS = {
    "NAME": "a word",
    "STRING": "a quoted name",
    "INT": "a number",
    "SIGNED": "a signed number such as +1",
    "PERCENT": "a percentage such as 25%",
    "LBRACE": '"{"',
    "RBRACE": '"}"',
    "LPAR": '"("',
    "RPAR": '")"',
    "COLON": '":"',
    "SEMICOLON": '";"',
    "COMMA": '","',
    "VBAR": '"|"',
    "ARROW": '"->"',
    "LINK": '"--"',
    "_NL": "a new line",
    "$END": "the end of the file",
}


@dataclass(frozen=True)
class Atom:
    """One word, number, signed number, string, arrow or link, with its span."""

    kind: str  # word | number | signed | string | arrow | link | percent
    value: str | int
    span: Span

    @property
    def text(self) -> str:
        """The atom as the designer wrote it (strings without quotes)."""
        if self.kind == "signed":
            return f"{self.value:+d}"  # type: ignore[str-format]
        return str(self.value)

    def source(self) -> str:
        """The atom as it reads in source (strings quoted)."""
        return f'"{self.value}"' if self.kind == "string" else self.text


def atoms_span(atoms: list[Atom]) -> Span:
    """The span from the first atom's start to the last one's end (``atoms`` not empty)."""
    a, b = atoms[0].span, atoms[-1].span
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


@dataclass
class Effect:
    """An effect as written: a phrase, plus a consequence after "->" or bracketed alternatives."""

    form: str  # simple | then | group
    phrase: list[Atom]
    span: Span
    consequence: list[Effect] = field(default_factory=list)
    alternatives: list[list[Effect]] = field(default_factory=list)


@dataclass
class Stmt:
    """`words... [: effects] [{ block }]`, the one statement shape of the language."""

    head: list[Atom]
    span: Span
    effects: list[Effect] | None = None
    block: list[Stmt] | None = None
    block_span: Span | None = None

    @property
    def words(self) -> list[str]:
        """Lower-cased text of the head atoms."""
        return [a.text.lower() if a.kind == "word" else a.text for a in self.head]

    def head_text(self) -> str:
        """The head as written."""
        return " ".join(a.source() for a in self.head)


class _ParenNewlines:
    """Post-lexer: newlines inside parentheses do not end a statement; track open braces.

    It also bounds what the rest of the parser will meet: the stream stops at the first
    block or bracket nested past MAX_NESTING (the tree would be too deep to walk, and Lark
    takes seconds on thousands of levels), and number literals longer than MAX_DIGITS are
    noted before anything converts them (int() refuses 4,300 digits with a ValueError).
    """

    always_accept = ("_NL",)

    def __init__(self) -> None:
        self.open_braces: list[Token] = []
        self.reset()

    def reset(self) -> None:
        """Forget the last file. (Not done in `process`: after a syntax error Lark resumes
        with a new stream, and the nesting count must carry over.)"""
        self.nesting = 0  # braces and brackets together
        self.too_deep: Token | None = None
        self.long_numbers: list[Token] = []
        self.brackets = _Brackets()

    def process(self, stream):
        depth = 0
        self.open_braces = []
        if self.too_deep is not None:
            return
        brackets = self.brackets
        head: str | None = None  # the statement's first word
        colons = 0  # colons of the statement, outside brackets
        last = "_NL"
        for tok in stream:
            if tok.type == "COLON" and not depth:
                colons += 1
                # An award line reads like a score sheet: `most veins: 7 points, second
                # most: 4` is `most veins: 7 points, second most 4` (dsl/awards.py).
                if colons > 1 and head in AWARD_HEADS:
                    continue
            elif tok.type == "NAME" and last in _STATEMENT_ENDS:
                head = tok.lower()
            elif tok.type != "NAME" and last in _STATEMENT_ENDS and tok.type not in _STATEMENT_ENDS:
                head = None
            if tok.type in _STATEMENT_ENDS and not depth and last not in ("COMMA", "ARROW"):
                colons = 0
            last = tok.type if tok.type != "_NL" or last not in ("COMMA", "ARROW") else last
            if tok.type in _OPENERS:
                brackets.open(tok)
                self.nesting += 1
                if self.nesting > MAX_NESTING:
                    self.too_deep = tok
                    return
            elif tok.type in _CLOSERS:
                brackets.close(tok)
                self.nesting = max(0, self.nesting - 1)
            elif tok.type in ("INT", "SIGNED") and len(tok.lstrip("+-")) > MAX_DIGITS:
                self.long_numbers.append(tok)
            if tok.type == "LPAR":
                depth += 1
            elif tok.type == "RPAR":
                depth = max(0, depth - 1)
            elif tok.type == "LBRACE":
                self.open_braces.append(tok)
            elif tok.type == "RBRACE" and self.open_braces:
                self.open_braces.pop()
            if tok.type == "_NL" and depth:
                continue
            yield tok

    def limit_diagnostics(self, filename: str) -> list[Diagnostic]:
        """CW007 for nesting past the limit and CW113 for overlong numbers, from the last run."""
        out = []
        if self.too_deep is not None:
            tok = self.too_deep
            out.append(
                Diagnostic(
                    "CW007",
                    f"blocks and brackets are nested more than {MAX_NESTING} deep here",
                    Span(filename, tok.line, tok.column, tok.line, tok.column + 1),
                    hint=f"the limit is MAX_NESTING = {MAX_NESTING}; split the declaration "
                    "or flatten its effects",
                )
            )
        for tok in self.long_numbers:
            digits = len(tok.lstrip("+-"))
            out.append(
                Diagnostic(
                    "CW113",
                    f"a number of {digits} digits; the most is {MAX_DIGITS}",
                    _span(tok, filename),
                    hint=f"numbers in a pack are at most {MAX_NUMBER:,}; "
                    "see Limits in docs/language.md for each number's range",
                )
            )
        return out


# Tokens after which a new statement starts (a new line after a comma or an arrow does not).
_STATEMENT_ENDS = frozenset({"_NL", "SEMICOLON", "LBRACE", "RBRACE"})
# The first words of a ranked award's line (`most`, `second most`, `fewest`...).
AWARD_HEADS = frozenset(
    {"most", "fewest", "least", "second", "third", "fourth", "fifth", "sixth", "2nd", "3rd", "4th"}
)
_OPENERS = frozenset({"LPAR", "LBRACE"})
_CLOSERS = frozenset({"RPAR", "RBRACE"})


class _Brackets:
    """Where each "(" and "{" of a file is, and the token that closes it.

    The tree keeps no bracket tokens, and asking Lark to propagate positions to every node
    doubled the parse time; the few spans that end at a bracket (blocks, groups, bracketed
    consequences) find it here instead: it is the first opener after the node's last word."""

    def __init__(self) -> None:
        self.starts: list[int] = []  # start_pos of every opener, in file order
        self.closer: dict[int, Token] = {}  # opener start_pos -> its closing token
        self.openers: dict[int, Token] = {}
        self._stack: list[Token] = []

    def open(self, tok: Token) -> None:
        self.starts.append(tok.start_pos)
        self.openers[tok.start_pos] = tok
        self._stack.append(tok)

    def close(self, tok: Token) -> None:
        if self._stack:
            self.closer[self._stack.pop().start_pos] = tok

    def after(self, pos: int) -> tuple[Token, Token]:
        """The first opener at or after character ``pos``, and its closer."""
        start = self.starts[bisect_left(self.starts, pos)]
        return self.openers[start], self.closer[start]


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar file shipped with the package."""
    return resources.files("clankwork.dsl").joinpath("clank.lark").read_text(encoding="utf-8")


def tables_cache() -> str | None:
    """The file the parser's tables are kept in between runs, or None to build them each time.

    Building the LALR tables takes about 0.3 s, a third of checking a pack from the command
    line; Lark reads them back from this file in under 10 ms. The file is a pickle, so it is
    kept only in a folder of the user's own that nobody else may write to:
    ``$CLANKWORK_CACHE_DIR``, else ``$XDG_CACHE_HOME/clankwork``, else ``~/.cache/clankwork``
    (``CLANKWORK_CACHE_DIR=""`` turns the cache off). Lark checks the grammar, its own version
    and Python's against the file's first line and rebuilds the tables when they differ."""
    folder = os.environ.get("CLANKWORK_CACHE_DIR")
    if folder is None:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(home, "clankwork")
    if not folder or not os.path.isabs(folder):
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
    except OSError:
        return None
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    if not mine or st.st_mode & 0o022:
        return None
    key = f"{grammar_text()}\0{lark.__version__}\0{sys.version_info[:2]}".encode()
    return os.path.join(folder, f"parser-{hashlib.sha256(key).hexdigest()[:16]}.lark")


class Parser:
    """A reusable LALR parser for the language (its tables come from `tables_cache`)."""

    def __init__(self) -> None:
        self._postlex = _ParenNewlines()
        self._lark = Lark(
            grammar_text(),
            parser="lalr",
            postlex=self._postlex,
            maybe_placeholders=True,
            cache=tables_cache() or False,
        )

    @property
    def lark(self) -> Lark:
        """The underlying Lark parser (benchmarks compare against its raw parse)."""
        return self._lark

    def parse(self, text: str, filename: str) -> tuple[list[Stmt], list[Diagnostic]]:
        """Parse one file: its statements and its syntax errors (one per line at most)."""
        diags: list[Diagnostic] = []
        bad_lines: set[int] = set()
        if text and not text.endswith("\n"):
            text += "\n"
        if text.startswith("\ufeff"):
            # A byte-order mark (some editors save UTF-8 with one) is blank space; replaced,
            # not removed, so every column stays where it is in the file.
            text = " " + text[1:]

        def on_error(e: UnexpectedInput) -> bool:
            if isinstance(e, UnexpectedToken) and e.token.type == "$END":
                return False
            line = getattr(e, "line", 0)
            if line not in bad_lines:
                bad_lines.add(line)
                diags.append(self._diagnostic(e, text, filename))
            return True

        self._postlex.reset()
        try:
            tree = self._lark.parse(text, on_error=on_error)
        except (UnexpectedEOF, UnexpectedToken) as e:
            if self._postlex.too_deep is not None:  # the post-lexer stopped the stream
                return [], [*diags, *self._postlex.limit_diagnostics(filename)]
            # After another error, an unclosed block is usually a consequence of that error
            # (recovery dropped a "}"), so report it only when it stands alone.
            if not diags:
                diags.append(self._eof_diagnostic(e, text, filename))
            return [], diags
        except UnexpectedInput as e:  # pragma: no cover - on_error handles the others
            diags.append(self._diagnostic(e, text, filename))
            return [], diags
        diags.extend(self._postlex.limit_diagnostics(filename))
        if diags:
            return [], diags
        conv = _Convert(filename, self._postlex.brackets)
        stmts = []
        children, tree.children = tree.children, []
        for i, t in enumerate(children):
            if isinstance(t, Tree):
                stmts.append(conv.stmt(t))
            children[i] = None  # drop each subtree once converted: a big file's tree and
            # its statements are not both whole at once
        return stmts, diags

    def _diagnostic(self, e: UnexpectedInput, text: str, filename: str) -> Diagnostic:
        if isinstance(e, UnexpectedCharacters):
            ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
            span = Span(filename, e.line, e.column, e.line, e.column + 1)
            if ch == '"':
                return Diagnostic(
                    "CW003",
                    "this string is never closed on its line",
                    span,
                    hint='close it with a " before the end of the line',
                )
            return Diagnostic(
                "CW002",
                f"unexpected character {ch!r}",
                span,
                hint='names with spaces or symbols go in double quotes, e.g. "Boots of Swiftness"',
            )
        assert isinstance(e, UnexpectedToken)
        tok = e.token
        expected = _expected_words(e.accepts or e.expected)
        shown = "end of line" if tok.type == "_NL" else repr(str(tok))
        length = 1 if tok.type == "_NL" else max(1, len(str(tok)))
        span = Span(filename, tok.line, tok.column, tok.line, tok.column + length)
        hint = f"expected {expected}" if expected else None
        if tok.type == "RBRACE" and "a word" in (expected or ""):
            hint = (hint or "") + "; a statement is incomplete before this brace"
        if tok.type == "_NL" and "COMMA" not in (e.accepts or set()):
            hint = f"expected {expected}; the statement stops at the end of the line"
        return Diagnostic("CW001", f"unexpected {shown}", span, hint=hint)

    def _eof_diagnostic(self, e: UnexpectedInput, text: str, filename: str) -> Diagnostic:
        # Lines as Lark counts them ("\n" only; a form feed or U+2028 is not a line break).
        lines = source_lines(text)
        if len(lines) > 1 and text.endswith("\n"):
            lines = lines[:-1]
        last = len(lines)
        span = Span(filename, last, len(lines[-1]) + 1, last, len(lines[-1]) + 2)
        notes = ()
        if self._postlex.open_braces:
            brace = self._postlex.open_braces[-1]
            bspan = Span(filename, brace.line, brace.column, brace.line, brace.column + 1)
            notes = (("this block is never closed", bspan),)
            return Diagnostic(
                "CW003",
                "the file ends inside a block",
                bspan,
                hint='add the missing "}"',
                notes=(),
            )
        return Diagnostic("CW003", "the file ends in the middle of a statement", span, notes=notes)


def _expected_words(names: set[str] | frozenset[str] | None) -> str:
    if not names:
        return ""
    words = sorted({TERMINAL_WORDS.get(n, n.lower()) for n in names})
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _span(node: Token, filename: str) -> Span:
    end_col = node.end_column if node.end_column is not None else node.column + len(node)
    return Span(filename, node.line, node.column, node.end_line or node.line, end_col)


def _first(node: Tree) -> Token:
    """The first token under ``node`` (every node the spans are asked of has one)."""
    while isinstance(node, Tree):
        node = next(c for c in node.children if c is not None)
    return node


def _last(node: Tree) -> Token:
    while isinstance(node, Tree):
        node = next(c for c in reversed(node.children) if c is not None)
    return node


class _Convert:
    """Lark's tree of one file as statements, atoms and effects with their spans.

    A span runs from the node's first token to its last, the closing bracket included
    (what Lark's propagate_positions gave, computed for the few nodes that need it)."""

    def __init__(self, filename: str, brackets: _Brackets) -> None:
        self.filename = filename
        self.brackets = brackets

    def _end(self, node: Tree) -> Token:
        """The last token of an effect node or a statement, brackets included."""
        data = node.data
        if data == "group":  # phrase "(" alternatives ")"
            return self.brackets.after(_last(node.children[0]).end_pos)[1]
        if data == "then":  # phrase arrow consequence
            kids = [c for c in node.children if isinstance(c, Tree)]
            cons = kids[-1]
            if cons.data == "consequence":  # "-> ( effects )"
                return self.brackets.after(_last(kids[-2]).end_pos)[1]
            return self._end(cons)
        return _last(node)

    def _between(self, first: Token, last: Token) -> Span:
        return Span(self.filename, first.line, first.column, last.end_line, last.end_column)

    def atom(self, t: Tree) -> Atom:
        tok = t.children[0]
        kind = str(t.data)  # a plain str: Tree.data is a lark Token, whose == runs in Python
        value: str | int
        if kind == "number" or kind == "signed":
            value = int(tok)
        elif kind == "string":
            value = str(tok)[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        else:
            value = str(tok)
        return Atom(kind, value, _span(tok, self.filename))

    def stmt(self, t: Tree) -> Stmt:
        head_t, effects_t, block_t = t.children
        head = [self.atom(a) for a in head_t.children]
        before_block = effects_t if effects_t is not None else head_t
        if block_t is not None:
            opener, closer = self.brackets.after(_last(before_block).end_pos)
            end = closer
        else:
            end = _last(before_block) if effects_t is None else self._end(effects_t.children[-1])
        stmt = Stmt(head, self._between(_first(head_t), end))
        if effects_t is not None:
            stmt.effects = self.effects(effects_t)
        if block_t is not None:
            stmt.block = [self.stmt(c) for c in block_t.children if isinstance(c, Tree)]
            stmt.block_span = self._between(opener, closer)
        return stmt

    def effects(self, t: Tree) -> list[Effect]:
        return [self.effect(c) for c in t.children if isinstance(c, Tree)]

    def effect(self, t: Tree) -> Effect:
        kids = [c for c in t.children if isinstance(c, Tree)]
        phrase_t = kids[0] if kids and kids[0].data == "phrase" else None
        phrase = [self.atom(a) for a in phrase_t.children] if phrase_t is not None else []
        eff = Effect(str(t.data), phrase, self._between(_first(t), self._end(t)))
        if t.data == "then":
            cons = kids[-1]
            if cons.data == "consequence":  # "-> ( effects )"
                eff.consequence = self.effects(cons.children[0])
            else:
                eff.consequence = [self.effect(cons)]
        elif t.data == "group":
            alts = kids[-1]
            eff.alternatives = [self.effects(e) for e in alts.children if isinstance(e, Tree)]
        return eff
