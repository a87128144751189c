"""Parse .clank text into a small syntax tree, collecting syntax errors instead of raising."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, Span

# What a designer calls each terminal, for "expected ..." messages.
TERMINAL_WORDS = {
    "NAME": "a word",
    "STRING": "a quoted name",
    "INT": "a number",
    "SIGNED": "a signed number such as +1",
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

    kind: str  # word | number | signed | string | arrow | link
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
    """Post-lexer: newlines inside parentheses do not end a statement; track open braces."""

    always_accept = ("_NL",)

    def __init__(self) -> None:
        self.open_braces: list[Token] = []

    def process(self, stream):
        depth = 0
        self.open_braces = []
        for tok in stream:
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


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar file shipped with the package."""
    return resources.files("clankwork.dsl").joinpath("clank.lark").read_text(encoding="utf-8")


class Parser:
    """A reusable LALR parser for the language (building the tables costs a few milliseconds)."""

    def __init__(self) -> None:
        self._postlex = _ParenNewlines()
        self._lark = Lark(
            grammar_text(),
            parser="lalr",
            propagate_positions=True,
            postlex=self._postlex,
            maybe_placeholders=True,
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

        def on_error(e: UnexpectedInput) -> bool:
            if isinstance(e, UnexpectedToken) and e.token.type == "$END":
                return False
            line = getattr(e, "line", 0)
            if line not in bad_lines:
                bad_lines.add(line)
                diags.append(self._diagnostic(e, text, filename))
            return True

        try:
            tree = self._lark.parse(text, on_error=on_error)
        except (UnexpectedEOF, UnexpectedToken) as e:
            # After another error, an unclosed block is usually that error's echo
            # (recovery dropped a "}"), so report it only when it stands alone.
            if not diags:
                diags.append(self._eof_diagnostic(e, text, filename))
            return [], diags
        except UnexpectedInput as e:  # pragma: no cover - on_error handles the others
            diags.append(self._diagnostic(e, text, filename))
            return [], diags
        if diags:
            return [], diags
        return [_stmt(t, filename) for t in tree.children if isinstance(t, Tree)], diags

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
        lines = text.splitlines() or [""]
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


def _span(node: Tree | Token, filename: str) -> Span:
    if isinstance(node, Token):
        end_col = node.end_column if node.end_column is not None else node.column + len(node)
        return Span(filename, node.line, node.column, node.end_line or node.line, end_col)
    m = node.meta
    return Span(filename, m.line, m.column, m.end_line, m.end_column)


def _atom(t: Tree, filename: str) -> Atom:
    tok = t.children[0]
    kind = str(t.data)  # a plain str: Tree.data is a lark Token, whose == runs in Python
    value: str | int
    if kind == "number" or kind == "signed":
        value = int(tok)
    elif kind == "string":
        value = str(tok)[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    else:
        value = str(tok)
    return Atom(kind, value, _span(tok, filename))


def _stmt(t: Tree, filename: str) -> Stmt:
    head_t, effects_t, block_t = t.children
    head = [_atom(a, filename) for a in head_t.children]
    stmt = Stmt(head, _span(t, filename))
    if effects_t is not None:
        stmt.effects = _effects(effects_t, filename)
    if block_t is not None:
        stmt.block = [_stmt(c, filename) for c in block_t.children if isinstance(c, Tree)]
        stmt.block_span = _span(block_t, filename)
    return stmt


def _effects(t: Tree, filename: str) -> list[Effect]:
    return [_effect(c, filename) for c in t.children if isinstance(c, Tree)]


def _effect(t: Tree, filename: str) -> Effect:
    kids = [c for c in t.children if isinstance(c, Tree)]
    phrase_t = kids[0] if kids and kids[0].data == "phrase" else None
    phrase = [_atom(a, filename) for a in phrase_t.children] if phrase_t is not None else []
    eff = Effect(str(t.data), phrase, _span(t, filename))
    if t.data == "then":
        cons = kids[-1]
        if cons.data == "consequence":  # "-> ( effects )"
            eff.consequence = _effects(cons.children[0], filename)
        else:
            eff.consequence = [_effect(cons, filename)]
    elif t.data == "group":
        alts = kids[-1]
        eff.alternatives = [_effects(e, filename) for e in alts.children if isinstance(e, Tree)]
    return eff
