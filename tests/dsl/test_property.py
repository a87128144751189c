"""Property: any text the grammar generates either compiles or yields diagnostics, and so does
arbitrary text; neither ever raises."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from clankwork.dsl.compiler import compile_text
from clankwork.dsl.parser import grammar_text
from clankwork.interpreter.schema import validate_ir

# Without a postlexer, from_lark generates straight from the grammar's terminals. Words come
# from the language's vocabulary most of the time so that generated text reaches the
# compiler's deeper paths, not just "unknown declaration".
_VOCAB = [
    "card",
    "monster",
    "reserve",
    "event",
    "token",
    "board",
    "rules",
    "pack",
    "space",
    "path",
    "play",
    "acquire",
    "defeat",
    "arrive",
    "use",
    "reveal",
    "cost",
    "copies",
    "fight",
    "points",
    "starting",
    "companion",
    "skill",
    "swords",
    "boots",
    "gold",
    "clank",
    "draw",
    "heal",
    "may",
    "choose",
    "one",
    "each",
    "opponent",
    "player",
    "if",
    "another",
    "in",
    "trash",
    "discard",
    "teleport",
    "rage",
    "hq",
    "forest",
    "reward",
    "minor",
    "secret",
    "per",
    "dead",
    "end",
    "module",
    "with",
    "players",
    "hand",
    "size",
    "take",
    "damage",
    "you",
    "have",
    "an",
    "artifact",
    "Burgle",
    "X",
]
_GRAMMAR = Lark(grammar_text(), parser="lalr", lexer="basic")
_PROGRAMS = from_lark(
    _GRAMMAR,
    explicit={
        "NAME": st.sampled_from(_VOCAB)
        | st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True),
        "INT": st.integers(0, 40).map(str),
        "SIGNED": st.integers(-5, 5).map(lambda n: f"{n:+d}"),
        "STRING": st.sampled_from(['"Whispering Wood"', '"X"', '""', '"cards.clank"']),
        "_NL": st.just("\n"),
    },
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PROGRAMS)
@example("card Burgle { starting 10; play: +1 skill; acquire: +1 clank }\n")
def test_generated_programs_compile_or_diagnose(text: str) -> None:
    result = compile_text(text, "gen.clank")
    if result.ok:
        # A clean compile is IR every tool may trust: it fits the pack schema (about a third
        # of the generated programs get here; the example above always does).
        assert validate_ir(result.ir) == [], text  # type: ignore[arg-type]
    else:
        assert result.diagnostics, "a failed compile must say why"
        for d in result.diagnostics:
            assert d.span is None or d.span.line >= 1


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='card{}();:,|->+"# \n\tabc123', max_size=80))
def test_arbitrary_text_never_raises(text: str) -> None:
    result = compile_text(text, "junk.clank")
    assert result.ok or result.diagnostics
