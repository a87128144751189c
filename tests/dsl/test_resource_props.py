"""A resource property is one record (interpreter/resource_props.py): registering one makes it
compile, appear in the schema, and read back from the IR, with no other file touched."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from jsonschema import Draft202012Validator

from clankwork.dsl.compiler import compile_text
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.interpreter.pools import declared
from clankwork.interpreter.resource_props import (
    RESOURCE_PROPERTIES,
    ResourceProperty,
    register,
    unregister,
)
from clankwork.interpreter.schema import pack_schema

PACK = """
pack "Props" { version "1" }
resource favour { kept; limit 5; word favours }
resource luck
"""


def _limit(words: list[str]) -> int:
    if len(words) != 1 or not words[0].isdigit():
        raise ValueError("`limit` takes a number: `limit 5`")
    return int(words[0])


@pytest.fixture
def limit() -> Iterator[ResourceProperty]:
    prop = register(
        ResourceProperty(
            key="limit",
            doc="The most of the resource a player may hold (`limit N`).",
            schema={"type": "integer", "minimum": 0},
            heads=("limit",),
            value=_limit,
            shown=("limit",),
            usage="`limit N`",
        )
    )
    yield prop
    unregister("limit")


def _problems(text: str) -> list[Diagnostic]:
    # CW129 warns that nothing gives the resources: beside the point here.
    return [d for d in compile_text(text).diagnostics if d.code != "CW129"]


def test_a_registered_property_compiles_validates_and_reads_back(limit: ResourceProperty) -> None:
    result = compile_text(PACK)
    assert _problems(PACK) == []
    favour, luck = result.ir["resources"]
    assert favour == {
        "name": "favour",
        "keep": "game",
        "words": ["favours"],
        "limit": 5,
        "at": favour["at"],
    }
    assert "limit" not in luck  # no default: the key is written only when the line is
    schema = pack_schema()
    resource = schema["properties"]["resources"]["items"]
    assert resource["properties"]["limit"] == {"type": "integer", "minimum": 0}
    assert "limit" not in resource["required"]
    assert list(Draft202012Validator(schema).iter_errors(result.ir)) == []
    read = declared(result.ir)
    assert read["favour"].props["limit"] == 5 and read["luck"].props["limit"] is None
    assert read["favour"].per_turn is False and read["favour"].words == ("favours",)


def test_a_registered_property_reports_a_bad_value(limit: ResourceProperty) -> None:
    problems = _problems(PACK.replace("limit 5", "limit lots"))
    assert [(d.code, d.message, d.span.line, d.span.col) for d in problems] == [
        ("CW125", "`limit` takes a number: `limit 5`", 3, 31)
    ]


def test_an_unknown_property_offers_the_registered_ones(limit: ResourceProperty) -> None:
    (d,) = _problems(PACK.replace("limit 5", "limmit 5"))
    assert (d.code, d.message, d.hint) == (
        "CW102",
        "unknown resource property `limmit 5`",
        'did you mean "limit"?',
    )
    (d,) = _problems(PACK.replace("limit 5", "glow"))
    assert d.hint.startswith("a resource takes `per turn` (the default), `kept`, `word WORD`")
    assert d.hint.endswith(" and `limit N`")


def test_without_the_record_the_property_is_unknown_and_absent() -> None:
    assert "limit" not in RESOURCE_PROPERTIES
    (d,) = _problems(PACK)
    assert d.code == "CW102"
    resource = pack_schema()["properties"]["resources"]["items"]
    assert "limit" not in resource["properties"]


def test_a_property_key_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register(ResourceProperty(key="keep", doc="", schema={}))
