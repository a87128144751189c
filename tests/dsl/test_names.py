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
