"""The committed pack schema is generated from the registry, closed, and validates real IR."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from clankwork.interpreter.schema import schema_text, validate_ir

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
