"""The parser's spans are the ones Lark's propagate_positions gives, without its cost.

The parser computes the spans of statements, blocks and effects from their tokens and the
brackets the post-lexer saw (propagating positions to every node doubled the parse time);
this compares them with a Lark parser that does propagate them, on every bundled file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark, Tree

from clankwork.dsl.diagnostics import Span
from clankwork.dsl.parser import Effect, Parser, Stmt, _ParenNewlines, grammar_text

ROOT = Path(__file__).resolve().parents[2]

EDGES = """\
pack p { version "1" }
card A { cost 1; play: +1 skill, may pay 2 gold -> (+2 skill, choose one (+1 boots | heal 1)) }
card B {
  play: choose one (
    +1 gold |
    each opponent (+1 clank)
  ), may discard 1 card -> draw 2
  play: may -> +1 skill
}
board b { space x { hq }; space y { }; path x -- y { } }
card C { }
rules { hand size 5 }
card D { play: if you are in a town (+2 gold) }  # a comment ( { after
"""


def _reference() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        propagate_positions=True,
        postlex=_ParenNewlines(),
        maybe_placeholders=True,
    )


def _meta(t: Tree, filename: str) -> Span:
    m = t.meta
    return Span(filename, m.line, m.column, m.end_line, m.end_column)


def _ref_stmt(t: Tree, f: str) -> list[Span]:
    head_t, effects_t, block_t = t.children
    out = [_meta(t, f)]
    if effects_t is not None:
        out += _ref_effects(effects_t, f)
    if block_t is not None:
        out.append(_meta(block_t, f))
        for c in block_t.children:
            if isinstance(c, Tree):
                out += _ref_stmt(c, f)
    return out


def _ref_effects(t: Tree, f: str) -> list[Span]:
    return [s for c in t.children if isinstance(c, Tree) for s in _ref_effect(c, f)]


def _ref_effect(t: Tree, f: str) -> list[Span]:
    out = [_meta(t, f)]
    kids = [c for c in t.children if isinstance(c, Tree)]
    if t.data == "then":
        cons = kids[-1]
        out += _ref_effects(cons.children[0], f) if cons.data == "consequence" else []
        out += _ref_effect(cons, f) if cons.data != "consequence" else []
    elif t.data == "group":
        for alt in kids[-1].children:
            if isinstance(alt, Tree):
                out += _ref_effects(alt, f)
    return out


def _ours_stmt(st: Stmt) -> list[Span]:
    out = [st.span]
    out += [s for e in st.effects or [] for s in _ours_effect(e)]
    if st.block is not None:
        assert st.block_span is not None
        out.append(st.block_span)
        out += [s for c in st.block for s in _ours_stmt(c)]
    return out


def _ours_effect(e: Effect) -> list[Span]:
    out = [e.span]
    out += [s for c in e.consequence for s in _ours_effect(c)]
    out += [s for alt in e.alternatives for c in alt for s in _ours_effect(c)]
    return out


def _files() -> list[Path]:
    return sorted((ROOT / "content").rglob("*.clank"))


@pytest.fixture(scope="module")
def parsers() -> tuple[Parser, Lark]:
    return Parser(), _reference()


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_spans_match_lark_propagate_positions(path: Path, parsers: tuple[Parser, Lark]) -> None:
    _check(path.read_text(encoding="utf-8"), *parsers)


def test_spans_match_on_brackets_across_lines_and_empty_blocks(
    parsers: tuple[Parser, Lark],
) -> None:
    _check(EDGES, *parsers)


def _check(text: str, ours: Parser, reference: Lark) -> None:
    stmts, diags = ours.parse(text, "f.clank")
    assert diags == []
    tree = reference.parse(text if text.endswith("\n") else text + "\n")
    expected = [s for t in tree.children if isinstance(t, Tree) for s in _ref_stmt(t, "f.clank")]
    got = [s for st in stmts for s in _ours_stmt(st)]
    assert len(got) == len(expected) > 0
    assert got == expected
