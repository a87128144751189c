"""The committed pack schema is generated from the registry, closed, and validates real IR."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clankwork.interpreter.schema import (
    fast_validator,
    pack_schema,
    reference_errors,
    resource_errors,
    schema_text,
    validate_ir,
)

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "pack.schema.json"


def test_committed_schema_is_current() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "schemas/pack.schema.json is stale: run `clankwork schema --write`"
    )


def test_schema_is_valid_draft_2020_12() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_tutorial_ir_validates(tutorial_ir: dict) -> None:
    assert validate_ir(tutorial_ir) == []


def test_unknown_keys_are_errors(tutorial_ir: dict) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"][0]["triggers"][0]["effects"][0]["amout"] = 3
    ir["cards"][1]["cots"] = 3
    errors = validate_ir(ir)
    assert any("amout" in msg for _, msg in errors)
    assert any("cots" in msg for _, msg in errors)


def test_op_errors_are_precise(tutorial_ir: dict) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"][0]["triggers"][0]["effects"][0]["resource"] = "mana"
    (where, msg), *_ = validate_ir(ir)
    assert where.endswith("effects/0/resource")
    assert "mana" in msg


# -- the fast validator (jsonschema-rs) must agree with jsonschema, which stays the reference


@pytest.fixture(scope="module")
def acqinc_ir() -> dict:
    from clankwork.dsl.compiler import compile_pack

    result = compile_pack(Path(__file__).resolve().parents[2] / "content" / "acqinc")
    assert result.ok, result.diagnostics
    return result.ir


@pytest.mark.parametrize("pack", ["tutorial", "acqinc", "clank"])
def test_every_bundled_pack_matches_the_schema_by_jsonschema_itself(pack: str) -> None:
    # The reference validator, not the fast one: a compiler bug that breaks the schema fails
    # here in CI even if the fast validator had the same blind spot.
    from clankwork.dsl.compiler import compile_pack

    result = compile_pack(Path(__file__).resolve().parents[2] / "content" / pack)
    assert result.ok, result.diagnostics
    assert reference_errors(result.ir) == []
    assert fast_validator().is_valid(result.ir) is True


def _mutants(node: Any) -> Iterator[Any]:
    """Copies of ``node`` with one thing wrong (or right but unusual) somewhere inside."""
    if isinstance(node, dict):
        for key in node:
            yield {k: v for k, v in node.items() if k != key}  # a key missing
            for bad in _mutants(node[key]):
                yield {**node, key: bad}
        yield {**node, "zzz": 1}  # an unknown key
        yield [node]
    elif isinstance(node, list):
        yield {}
        yield [*node, None]
        yield node[:-1]
        for i, item in enumerate(node[:2]):
            for bad in _mutants(item):
                yield [*node[:i], bad, *node[i + 1 :]]
    elif isinstance(node, bool):
        yield 1
        yield "true"
    elif isinstance(node, int):
        yield from (-1, 0, node + 1, True, float(node), node + 0.5, str(node), 10**12, None)
    elif isinstance(node, str):
        yield from ("", node.upper(), node + "x", 1, None, [node])
    else:
        yield 1


def _pieces(ir: dict) -> Iterator[tuple[str, Any]]:
    """Each card, token, board and the rules with the schema it must match on its own
    (whole-IR mutants through jsonschema would take minutes)."""
    yield "rules", ir["rules"]
    yield "pack", ir["pack"]
    for key in ("cards", "tokens", "boards", "stickers"):
        for item in ir[key]:
            if key == "boards":  # three spaces and paths show every shape a board has
                item = {**item, "spaces": item["spaces"][:3], "paths": item["paths"][:3]}
            yield key, item


def _fast(schema: dict) -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schema)


def _sub_schema(section: str) -> dict:
    root = pack_schema()
    sub = root["properties"][section]
    if section not in ("rules", "pack"):
        sub = sub["items"]
    return {"$defs": root["$defs"], **sub}


def test_the_fast_validator_agrees_with_jsonschema_on_mutants_of_the_bundled_packs(
    tutorial_ir: dict, acqinc_ir: dict
) -> None:
    from jsonschema import Draft202012Validator

    validators = {}
    checked = disagreements = 0
    bad: list[str] = []
    # Every card shape of the tutorial and a spread of acqinc's; every seventh mutant of each
    # (they come in runs of one kind of damage), to keep this to a couple of seconds.
    pieces = list(_pieces(tutorial_ir)) + list(_pieces(acqinc_ir))[::15]
    for section, piece in pieces:
        if section not in validators:
            schema = _sub_schema(section)
            validators[section] = (Draft202012Validator(schema), _fast(schema))
        reference, fast = validators[section]
        assert fast.is_valid(piece) and reference.is_valid(piece)
        for mutant in itertools.islice(_mutants(piece), 0, None, 7):
            checked += 1
            if fast.is_valid(mutant) != reference.is_valid(mutant):
                disagreements += 1
                bad.append(f"{section}: {json.dumps(mutant)[:300]}")
    assert checked > 1500
    assert disagreements == 0, "\n".join(bad[:5])


def test_validate_ir_reports_a_defect_deep_in_a_big_document(acqinc_ir: dict) -> None:
    # No sampling: one bad number in the last of 500 cards is found, with jsonschema's
    # precise message (the fast validator says "invalid", jsonschema says where and why).
    ir = copy.deepcopy(acqinc_ir)
    ir["cards"] = [copy.deepcopy(ir["cards"][i % len(ir["cards"])]) for i in range(500)]
    for i, card in enumerate(ir["cards"]):
        card["name"] = f"card {i}"
    assert validate_ir(ir) == []
    ir["cards"][-1]["copies"] = 0
    assert validate_ir(ir) == [("cards/499/copies", "0 is less than the minimum of 1")]


def test_resource_errors_name_the_whole_path(tutorial_ir: dict) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"][0]["triggers"][0]["effects"][0]["resource"] = "mana"
    ir["ways"] = [{"name": "river", "paid_in": "pearls"}]
    ir["boards"][0]["paths"][2]["way"] = "canal"
    assert resource_errors(ir) == [
        ("cards/0/triggers/0/effects/0/resource", "'mana' is not a resource of the pack"),
        ("boards/0/paths/2/way", "'canal' is not a way of the pack"),
        ("ways/0/paid_in", "'pearls' is not a resource of the pack"),
    ]
