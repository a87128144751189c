"""`dragon { name "..."; word WORD }`: a pack names the antagonist who attacks (Clank! In!
Space!'s "Lord Eradikus attacks!", "Boss Bag", "boss cubes"). The declaration is display
only; every wrong word in it is a diagnostic with its place, and an extension inherits its
base's naming or replaces it."""

from __future__ import annotations

from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.dsl.diagnostics import Diagnostic, format_human
from clankwork.dsl.formatter import format_source
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.schema import validate_ir

ROOT = Path(__file__).resolve().parents[2]
PACK = 'pack t { version "1" }\n'


def _errors(text: str) -> list[Diagnostic]:
    result = compile_text(PACK + text, "t.clank")
    return [d for d in result.diagnostics if d.severity == "error"]


def _one(text: str, code: str) -> Diagnostic:
    errors = _errors(text)
    assert [d.code for d in errors] == [code], errors
    return errors[0]


def test_a_pack_names_its_dragon() -> None:
    result = compile_text(PACK + 'dragon { name "Lord Eradikus"; word boss }\n', "t.clank")
    assert result.ok, result.diagnostics
    assert result.ir is not None
    dragon = result.ir["dragon"]
    assert (dragon["name"], dragon["word"]) == ("Lord Eradikus", "boss")
    assert dragon["at"]["line"] == 2
    assert validate_ir(result.ir) == []


def test_the_word_alone_gives_the_name_and_a_pack_without_it_keeps_the_dragon() -> None:
    result = compile_text(PACK + "dragon { word boss }\n", "t.clank")
    assert result.ir is not None and result.ir["dragon"]["name"] == "the boss"
    plain = compile_text(PACK, "t.clank")
    assert plain.ir is not None and "dragon" not in plain.ir  # the IR it always had


def test_an_unknown_property_is_placed_with_a_did_you_mean() -> None:
    d = _one('dragon { nane "Lord Eradikus" }\n', "CW102")
    assert (d.span.line, d.span.col) == (2, 10)
    assert d.hint is not None and '"name"' in d.hint
    rendered = format_human([d], {"t.clank": PACK + 'dragon { nane "Lord Eradikus" }\n'})
    assert "t.clank:2:10" in rendered and "^^^^" in rendered


def test_a_misspelt_declaration_suggests_dragon() -> None:
    d = _one("dragn { word boss }\n", "CW101")
    assert d.hint is not None and '"dragon"' in d.hint


def test_a_second_declaration_is_an_error() -> None:
    d = _one("dragon { word boss }\ndragon { word wyrm }\n", "CW106")
    assert d.span.line == 3 and d.hint is not None and "t.clank:2" in d.hint


def test_a_property_given_twice_is_an_error() -> None:
    d = _one("dragon { word boss; word wyrm }\n", "CW106")
    assert (d.span.line, d.span.col) == (2, 21)


@pytest.mark.parametrize(
    "text",
    [
        "dragon { name }\n",
        'dragon { name "" }\n',
        "dragon { word two words }\n",
        "dragon { word 3 }\n",
        "dragon Lord { word boss }\n",
        "dragon\n",
    ],
)
def test_a_bad_value_is_an_error(text: str) -> None:
    _one(text, "CW105")


def test_effects_on_it_are_refused() -> None:
    assert "CW112" in [d.code for d in _errors("dragon: +1 clank\n")]


def test_a_control_character_is_refused() -> None:
    d = _one('dragon { name "Lord\tEradikus" }\n', "CW114")
    assert d.span.line == 2


def test_fmt_round_trips_it() -> None:
    messy = PACK + 'dragon{name "Lord Eradikus"\n   word    boss}\n'
    tidy = format_source(messy, "t.clank")
    assert tidy is not None and 'dragon { name "Lord Eradikus"; word boss }' in tidy
    assert format_source(tidy, "t.clank") == tidy
    assert compile_text(tidy, "t.clank").ir["dragon"]["word"] == "boss"  # type: ignore[index]


def test_space_names_lord_eradikus() -> None:
    result = compile_pack(ROOT / "content" / "space")
    assert result.ok and result.ir is not None
    catalog = prepare(result.ir)
    assert (catalog.dragon_name, catalog.dragon_word) == ("Lord Eradikus", "boss")
    plain = prepare(compile_pack(ROOT / "content" / "tutorial").ir)  # type: ignore[arg-type]
    assert (plain.dragon_name, plain.dragon_word) == ("the dragon", "dragon")


def _extension(tmp_path: Path, body: str) -> dict:
    folder = tmp_path / "ext"
    folder.mkdir()
    manifest = 'pack ext {\n  version "0.1.0"\n  extends space\n}\n'
    (folder / "pack.clank").write_text(manifest + body)
    result = compile_pack(folder)
    assert result.ok, [d for d in result.diagnostics if d.severity == "error"]
    assert result.ir is not None
    return result.ir


def test_an_extension_inherits_its_bases_naming(tmp_path: Path) -> None:
    ir = _extension(tmp_path, "")
    assert (ir["dragon"]["name"], ir["dragon"]["word"]) == ("Lord Eradikus", "boss")


def test_an_extension_may_rename_it(tmp_path: Path) -> None:
    ir = _extension(tmp_path, "dragon { word warden }\n")
    assert (ir["dragon"]["name"], ir["dragon"]["word"]) == ("the warden", "warden")
    assert validate_ir(ir) == []
