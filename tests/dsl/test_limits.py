"""Bounded numbers and depth: every number has a range, deep nesting and huge literals are
diagnostics (issue 13, "Bounded numbers and depth")."""

from __future__ import annotations

import pytest

from clankwork.dsl import limits
from clankwork.dsl.compiler import compile_text, parser
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS
from clankwork.interpreter.rules import RULE_PARAMS, rules_schema


def diags(src: str) -> list[Diagnostic]:
    return compile_text(src + "\n", "t.clank").diagnostics


def only(src: str) -> Diagnostic:
    found = diags(src)
    assert len(found) == 1, found
    return found[0]


def test_huge_copies_is_a_diagnostic_not_a_traceback() -> None:
    d = only("card A { copies 1000000000000000000000000000000; cost 1 }")
    assert d.code == "CW113"
    assert "31 digits" in d.message and str(limits.MAX_DIGITS) in d.message
    assert (d.span.line, d.span.col, d.span.end_col) == (1, 17, 48)


def test_a_literal_past_python_int_digit_limit_parses_to_a_diagnostic() -> None:
    # int() raises ValueError past 4,300 digits; the parser must refuse it before converting.
    stmts, found = parser().parse("card A { copies " + "9" * 5000 + "; cost 1 }\n", "t.clank")
    assert stmts == []
    assert [d.code for d in found] == ["CW113"]
    _, found = parser().parse("card A { play: +" + "1" * 5000 + " gold }\n", "t.clank")
    assert [d.code for d in found] == ["CW113"]


def test_out_of_range_is_cw113_with_the_range_in_the_hint() -> None:
    d = only("card A { copies 5000; cost 1 }")
    assert (d.code, d.message) == ("CW113", "copies cannot be 5000; the most is 1000")
    assert d.span.col == 17 and "1 to 1000" in (d.hint or "")


def test_below_the_minimum_stays_cw108() -> None:
    d = only("card A { copies 0; cost 1 }")
    assert d.code == "CW108" and "1 to 1000" in (d.hint or "")


@pytest.mark.parametrize(
    "src",
    [
        "card A { cost 101 }",
        "monster A { fight 101 }",
        "card A { cost 1; points 1001 }",
        "card A { cost 1; points 1001 per 5 gold }",
        "card A { starting 101 }",
        "token T { minor secret 1001 }",
        "token T { gold 101 }",
        "board b { space X { hq; coach 101 } }",
        "board b { space X { hq; waypoint 1001 } }",
        "board b { space X { hq; artifact 1001 } }",
        "board b { space X { hq; reward gold 101 } }",
        "board b { space X { hq; at 100001 0 } }",
        "board b { space X { hq }; space Y; path X -- Y { boots 101 } }",
        "board b { space X { hq }; space Y; path X -- Y { monsters 101 } }",
        "card A { cost 1; play: draw 101 }",
        "card A { cost 1; play: heal 101 }",
        "card A { cost 1; play: +101 gold }",
        "card A { cost 1; play: rage +31 }",
        "card A { cost 1; play: pay 101 gold -> draw 1 }",
        "card A { cost 1; play: may discard 101 cards -> draw 1 }",
        "card A { cost 1; play: +1 gold per 1001 gold }",
        "card A { cost 1; play if 101 or more companion in play: draw 1 }",
        "card A { cost 1; play: if 101 or more companion in play (draw 1) }",
        "rules { hand size 31 }",
        "rules { round cap 501 }",
        "rules { rage track 2 2 51 }",
        "rules { rage start 31 with 2 players }",
        "rules { rage start 2 with 9 players }",
        "rules { rage track " + "1 " * 31 + "}",
        "rules { starting clank 1 1 1 1 1 1 1 1 1 }",
    ],
)
def test_every_number_has_a_ceiling(src: str) -> None:
    assert "CW113" in [d.code for d in diags(src)]


@pytest.mark.parametrize(
    "src",
    [
        "rules { rage start 2 with 0 players }",
        "rules { round cap 0 }",
        "card A { cost 1; play: draw 0 }",
        "board b { space X { hq; waypoint 0 } }",
        "board b { space X { hq; at 0 -100001 } }",
        "card A { cost 1; play: -101 swords }",
    ],
)
def test_below_range_is_cw108(src: str) -> None:
    assert "CW108" in [d.code for d in diags(src)]


def test_numbers_at_the_edges_of_their_ranges_compile() -> None:
    src = (
        "card A { copies 1000; cost 100; points -100; play: draw 100, +100 gold, rage -30 }\n"
        "card B { cost 0; points 1000 per 1000 gold }\n"
        "rules { round cap 500; rage start 30 with 8 players; rage track " + "50 " * 30 + "}\n"
        "board b { space X { hq; at -100000 100000; coach 100 } }"
    )
    assert [d for d in diags(src) if d.severity == "error"] == []


def test_every_number_slot_of_the_registry_has_a_range_on_its_schema() -> None:
    for registry in (EFFECTS, CONDITIONS, COUNTS):
        for record in registry:
            for name, schema in record.params.items():
                if schema.get("type") == "integer":
                    assert "minimum" in schema and "maximum" in schema, (record.name, name)


def test_rules_schema_says_the_compiler_ranges() -> None:
    props = rules_schema()["properties"]
    for p in RULE_PARAMS:
        got = props[p.key]
        value = got.get("items") or got.get("additionalProperties") or got
        assert (value["minimum"], value["maximum"]) == (p.low, p.high), p.key
        if p.shape == "ints":
            assert got["maxItems"] == p.max_len


def _nested_blocks(n: int) -> str:
    return "card A " + "{ x " * n + "}" * n


@pytest.mark.parametrize("n", [1000, 10_000])
@pytest.mark.parametrize(
    "make",
    [
        _nested_blocks,
        lambda n: "board b { " + "module m { " * n + "}" * n + " }",
        lambda n: "card A { cost 1; play: " + "draw 1 -> (" * n + "draw 1" + ")" * n + " }",
        lambda n: "card A { cost 1; play: " + "if X (" * n + "draw 1" + ")" * n + " }",
        lambda n: "card A { cost 1; play: choose one (" + "a (" * n + "x" + ")" * n + " | b) }",
    ],
    ids=["blocks", "modules", "arrows", "ifs", "groups"],
)
def test_deep_nesting_is_cw007_not_recursion_error(make, n: int) -> None:
    found = diags(make(n))
    assert [d.code for d in found] == ["CW007"], found
    assert "MAX_NESTING" in (found[0].hint or "") and str(limits.MAX_NESTING) in found[0].message


@pytest.mark.parametrize("n", [1000, 10_000])
def test_bare_nested_brackets_are_a_syntax_error(n: int) -> None:
    # `choose one ((x))` is not the grammar (an option starts with a phrase): the parser
    # says so once, whatever the depth.
    found = diags("card A { cost 1; play: choose one " + "(" * n + "x" + ")" * n + " }")
    assert [d.code for d in found] == ["CW001"]


def test_nesting_at_the_limit_parses() -> None:
    n = limits.MAX_NESTING
    stmts, found = parser().parse(_nested_blocks(n) + "\n", "t.clank")
    assert found == [] and stmts
    _, found = parser().parse(_nested_blocks(n + 1) + "\n", "t.clank")
    assert [d.code for d in found] == ["CW007"]


def test_effect_chains_at_the_limit_compile() -> None:
    depth = limits.MAX_NESTING - 1  # the card's block is one level
    src = "card A { cost 1; play: " + "pay 1 gold -> (" * depth + "draw 1" + ")" * depth + " }"
    assert [d for d in diags(src) if d.severity == "error"] == []


def test_docs_list_every_range() -> None:
    from clankwork.tools.docs import limits_reference

    text = limits_reference()
    for key, r in limits.RANGES.items():
        assert f"| `{key}` | {r.text()} |" in text
    assert f"| {limits.MAX_NESTING} |" in text


def _scenario(tmp_path, tutorial_ir: dict, body: str) -> list[Diagnostic]:
    from clankwork.dsl.scenarios import compile_scenarios

    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "s" {\n' + body + "\n}\n", encoding="utf-8"
    )
    return compile_scenarios(tmp_path, tutorial_ir)[1]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("players 9", "CW113"),
        ("players 0", "CW108"),
        ("seed 99999999999999999999", "CW113"),
        ("rage 31", "CW113"),
        ("first player 9", "CW113"),
        ("first player 0", "CW108"),
        ("player 9 { gold 1 }", "CW113"),
        ("player 1 { gold 1001 }", "CW113"),
        ("player 1 { clank 5000 }", "CW113"),
        ("player 1 { damage -1 }", "CW108"),
        ("bag black 1001", "CW113"),
        ("bag player 9 1", "CW113"),
        ("draws black 9", "CW113"),
        ("reserve Explore 1001", "CW113"),
        ('move "Mossy Path" spending 101 swords', "CW113"),
        ("answer 101", "CW113"),
        ("expect rage 10001", "CW113"),
        ("expect player 9 gold 1", "CW113"),
        ("expect player 1 owns 10001 Burgle", "CW113"),
        ("expect reserve Explore 10001", "CW113"),
        ("expect bag player 9 1", "CW113"),
        ("expect player 1 gold " + "9" * 5000, "CW113"),
    ],
)
def test_every_scenario_number_has_a_range(
    tmp_path, tutorial_ir: dict, body: str, code: str
) -> None:
    assert code in [d.code for d in _scenario(tmp_path, tutorial_ir, body)]


def test_deeply_nested_scenario_is_cw007(tmp_path, tutorial_ir: dict) -> None:
    found = _scenario(tmp_path, tutorial_ir, "player 1 " + "{ x " * 1000 + "}" * 1000)
    assert [d.code for d in found] == ["CW007"]
