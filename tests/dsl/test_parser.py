"""The parser: statement shapes, positions, and syntax errors as diagnostics."""

from __future__ import annotations

import pytest

from clankwork.dsl.parser import Parser


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser()


def test_statement_shapes(parser: Parser) -> None:
    stmts, diags = parser.parse(
        'card "Freelance Cleric" {\n  cost 4; companion\n  play: +2 skill\n}\n', "a.clank"
    )
    assert diags == []
    (card,) = stmts
    assert card.words == ["card", "Freelance Cleric"]
    assert [s.head_text() for s in card.block] == ["cost 4", "companion", "play"]
    play = card.block[2]
    assert play.effects[0].phrase[0].value == 2
    assert play.effects[0].phrase[1].span.line == 3
    assert play.effects[0].phrase[1].span.col == 12


def test_keywords_are_not_reserved(parser: Parser) -> None:
    src = 'card May { cost 1; play: +1 skill }\ncard "Boots of Swiftness" { cost 5 }\n'
    src += "card Play { cost 2 }\ncard card { cost 2 }\n"
    stmts, diags = parser.parse(src, "a.clank")
    assert diags == []
    assert [s.head[1].text for s in stmts] == ["May", "Boots of Swiftness", "Play", "card"]


def test_effect_forms(parser: Parser) -> None:
    src = "card X { play: may discard 1 card -> draw 2, choose one (+1 gold | heal 1,\n"
    src += "  +1 boots), each opponent (+1 clank) }\n"
    (card,), diags = parser.parse(src, "a.clank")
    assert diags == []
    forms = [e.form for e in card.block[0].effects]
    assert forms == ["then", "group", "group"]
    choose = card.block[0].effects[1]
    assert len(choose.alternatives) == 2
    assert len(choose.alternatives[1]) == 2  # heal 1, +1 boots


def test_newline_after_comma_continues_the_list(parser: Parser) -> None:
    (card,), diags = parser.parse("card X {\n  play: +1 skill,\n        +1 boots\n}\n", "a")
    assert diags == []
    assert len(card.block[0].effects) == 2


def test_comments_and_semicolons(parser: Parser) -> None:
    src = "# a comment\ncard X { cost 1; play: +1 skill } # trailing\n\n\ncard Y { cost 2 }"
    stmts, diags = parser.parse(src, "a")
    assert diags == [] and len(stmts) == 2


def test_one_error_per_line_and_many_lines(parser: Parser) -> None:
    src = "card A { cost @ 3 @ }\ncard B { cost 2 }\ncard C { play: +1 skill, }\n"
    _, diags = parser.parse(src, "x.clank")
    assert [(d.code, d.span.line) for d in diags] == [("CW002", 1), ("CW001", 3)]
    assert diags[1].hint.startswith("expected ")
    assert "a word" in diags[1].hint


def test_unclosed_block_points_at_its_brace(parser: Parser) -> None:
    _, diags = parser.parse("card A { cost 1 }\nboard b {\n  space A { hq }\n", "x.clank")
    (d,) = diags
    assert d.code == "CW003"
    assert (d.span.line, d.span.col) == (2, 9)


def test_unterminated_string(parser: Parser) -> None:
    _, diags = parser.parse('card "Oops { cost 1 }\n', "x.clank")
    assert diags[0].code == "CW003"
    assert diags[0].span.col == 6
