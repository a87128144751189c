"""Every top-level key of the IR has one registered schema fragment, and each one is written."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.stickers import with_contracts, with_waypoints
from clankwork.interpreter.schema import pack_schema
from clankwork.interpreter.schema_sections import DEFS, IR_SECTIONS

ROOT = Path(__file__).resolve().parents[2]


@cache
def written_keys() -> dict[str, set[str]]:
    """The top-level keys of the IR of every bundled pack and test fixture (all that compile
    to IR), and of a campaign game's IR, by who writes them."""
    compiled: set[str] = set()
    folders = sorted({p.parent for p in (ROOT / "content").rglob("pack.clank")})
    folders += sorted({p.parent for p in (ROOT / "tests" / "fixtures").rglob("pack.clank")})
    for folder in folders:
        result = compile_pack(folder)
        if result.ir is not None:
            compiled |= set(result.ir)
    acqinc = compile_pack(ROOT / "content" / "acqinc").ir
    assert acqinc is not None
    contract = acqinc["contracts"][0]["name"]
    game = with_contracts(with_waypoints(acqinc), [contract])
    return {"compiler": compiled, "campaign": set(game) - set(acqinc)}


def test_every_key_the_compiler_writes_has_a_fragment() -> None:
    written = set().union(*written_keys().values())
    assert written - set(IR_SECTIONS) == set(), "register a @section in schema_sections.py"


def test_every_fragment_is_written_by_what_it_says() -> None:
    for by, keys in written_keys().items():
        registered = {k for k, s in IR_SECTIONS.items() if s.written_by == by}
        assert registered - keys == set(), f"sections the {by} never writes"
    assert {s.written_by for s in IR_SECTIONS.values()} == set(written_keys())


def test_the_schema_is_the_sections_in_order() -> None:
    schema = pack_schema()
    assert list(schema["properties"]) == list(IR_SECTIONS)
    assert schema["required"] == [k for k, s in IR_SECTIONS.items() if s.required]
    assert list(schema["$defs"]) == list(DEFS)


def test_every_section_says_what_it_holds() -> None:
    assert [k for k, s in {**IR_SECTIONS, **DEFS}.items() if not s.doc] == []
