"""Names: control characters are refused (CW114), and names are matched exactly (issue 13,
"Names are data" and "Names and case")."""

from __future__ import annotations

from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_text
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.dsl.limits import bad_name_char

BAD = ["\t", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f"]


def diags(src: str) -> list[Diagnostic]:
    return compile_text(src + "\n", "t.clank").diagnostics


def errors(src: str) -> list[Diagnostic]:
    return [d for d in diags(src) if d.severity == "error"]


@pytest.mark.parametrize("ch", BAD)
def test_bad_name_char_finds_every_refused_character(ch: str) -> None:
    assert bad_name_char(f"Bad{ch}Name") == ch


def test_ordinary_names_are_clean() -> None:
    for name in ("Boots of Swiftness", "Stonecutter's Pass", "Ærø", "東京", "Café ☕", "a-b"):
        assert bad_name_char(name) is None


@pytest.mark.parametrize("ch", BAD)
@pytest.mark.parametrize(
    "template",
    [
        'card "A{x}" {{ cost 1 }}',
        'monster "A{x}" {{ fight 1 }}',
        'event "A{x}" {{ arrive: rage +1 }}',
        'reserve "A{x}" {{ cost 1 }}',
        'token "A{x}" {{ artifact }}',
        'board "b{x}" {{ space X {{ hq }} }}',
        'board b {{ space "X{x}" {{ hq }} }}',
        'board b {{ space X {{ hq }}; module "m{x}" {{ space Y }} }}',
        'board b {{ space X {{ hq; feature "f{x}" }} }}',
        'pack "p{x}" {{ version "1" }}',
        'card A {{ cost 1; tag "t{x}" }}',
        'card A {{ cost 1; faction "t{x}" }}',
        'token T {{ market 1; type "t{x}" }}',
    ],
)
def test_control_characters_in_names_are_cw114(template: str, ch: str) -> None:
    src = template.format(x=ch)
    found = [d for d in diags(src) if d.code == "CW114"]
    assert len(found) == 1, diags(src)
    d = found[0]
    quote = src.index('"')
    assert (d.span.line, d.span.col) == (1, quote + 1)
    assert f"U+{ord(ch):04X}" in d.message and d.hint
    # The message itself never carries the character (it goes to terminals and HTML).
    assert bad_name_char(d.message) is None


def test_scenario_name_with_a_control_character_is_cw114(tmp_path: Path, tutorial_ir: dict) -> None:
    from clankwork.dsl.scenarios import compile_scenarios

    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "a\x1b[31mred" { players 2 }\n', encoding="utf-8"
    )
    _, found, _ = compile_scenarios(tmp_path, tutorial_ir)
    assert [d.code for d in found] == ["CW114"]
    assert "\x1b" not in found[0].message


BOARD = 'board b {{ space HQ {{ hq }}; space "Whispering Wood"; space Cave; {paths} }}'


@pytest.mark.parametrize(
    ("path", "want"),
    [
        ("path hq -- Cave", '"HQ"'),
        ('path HQ -- "whispering wood"', '"Whispering Wood"'),
        ('path HQ -- "Whispering  Wood"', '"Whispering Wood"'),
        ('path HQ -> " Whispering Wood"', '"Whispering Wood"'),
        ("dead end CAVE", '"Cave"'),
    ],
)
def test_a_path_to_a_near_miss_is_cw107_with_did_you_mean(path: str, want: str) -> None:
    (d,) = errors(BOARD.format(paths=path))
    assert d.code == "CW107"
    assert want in (d.hint or "") and "exactly" in (d.hint or "")


def test_a_trash_of_a_near_miss_card_is_cw107() -> None:
    (d,) = errors("card Burgle { starting 10 }\ncard A { cost 1; play: trash 1 burgle }")
    assert d.code == "CW107" and '"Burgle"' in (d.hint or "")
    assert errors("card Burgle { starting 10 }\ncard A { cost 1; play: trash 1 Burgle }") == []


def test_tags_are_words_and_match_without_case() -> None:
    # `tag Wizard` declares the word "wizard"; any spelling of the word refers to it.
    src = "card A { cost 1; tag Wizard; play: trash 1 WIZARD, +1 gold per wizard in play }"
    assert errors(src) == []


def test_a_count_of_a_near_miss_card_is_cw107() -> None:
    (d,) = errors(
        'card "Mysterious Tome" { cost 1 }\ncard A { cost 1; points 1 per "mysterious tome" }'
    )
    assert d.code == "CW107" and '"Mysterious Tome"' in (d.hint or "")


def test_a_token_near_miss_is_cw107() -> None:
    src = 'token "Gold Egg" { minor secret 1 }\ncard A { cost 1; play: take "gold egg" }'
    found = errors(src)
    assert [d.code for d in found] == ["CW107"] and '"Gold Egg"' in (found[0].hint or "")


@pytest.mark.parametrize(
    "src",
    [
        "card Burgle { cost 1 }\ncard burgle { cost 1 }",
        'card "Big Sword" { cost 1 }\ncard "Big  Sword" { cost 1 }',
        "token Mug { mug 1 }\ntoken MUG { mug 1 }",
        "board b { space HQ { hq }; space hq }",
        "board B { space HQ { hq } }\nboard b { space HQ { hq } }",
    ],
)
def test_declarations_differing_only_in_case_or_spacing_are_duplicates(src: str) -> None:
    # Decided: an error (CW106), not a warning. Names are matched exactly, so both would be
    # legal references, and a reader, a renderer or the game (which matches card names
    # without case, e.g. `trash a burgle`) could not tell which one is meant.
    (d,) = [d for d in errors(src) if d.code == "CW106"]
    assert "only in case or spacing" in d.message
    assert d.span.line == (2 if "\n" in src else 1) and d.notes


def test_board_refuses_a_path_to_no_space_instead_of_a_key_error() -> None:
    from clankwork.interpreter.board import Board

    result = compile_text(BOARD.format(paths="path hq -- Cave") + "\n", "t.clank")
    assert not result.ok  # check refuses it; a hand-made IR gets a clear error, not KeyError
    with pytest.raises(ValueError, match="names no space"):
        Board(result.ir["boards"][0])


def _scenario(tmp_path: Path, tutorial_ir: dict, body: str) -> list[Diagnostic]:
    from clankwork.dsl.scenarios import compile_scenarios

    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(body + "\n", encoding="utf-8")
    return compile_scenarios(tmp_path, tutorial_ir)[1]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("play burgle", '"Burgle"'),
        ('player 1 { at "mossy path" }', '"Mossy Path"'),
        ('move "Mossy  Path"', '"Mossy Path"'),
        ("row dryad", '"Dryad"'),
        ("buy mug", '"Mug"'),
        ("expect player 1 hand has BURGLE", '"Burgle"'),
    ],
)
def test_scenario_names_are_matched_exactly(
    tmp_path: Path, tutorial_ir: dict, line: str, want: str
) -> None:
    found = _scenario(tmp_path, tutorial_ir, 'scenario "s" {\n' + line + "\n}")
    assert [d.code for d in found] == ["CW107"], found
    assert want in (found[0].hint or "")


def test_scenarios_differing_only_in_case_are_duplicates(tmp_path: Path, tutorial_ir: dict) -> None:
    found = _scenario(
        tmp_path, tutorial_ir, 'scenario "A b" { players 2 }\nscenario "a  B" { players 2 }'
    )
    assert [d.code for d in found] == ["CW106"]
