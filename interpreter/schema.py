"""The JSON Schema (Draft 2020-12) of a compiled pack, assembled from the registered
fragments of schema_sections.py (one per IR section), the op registry's among them.

`schemas/pack.schema.json` is this output; tests/interpreter/test_schema.py fails when the
committed file is stale. Regenerate it with `clankwork schema --write`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .effects.registry import RESOURCES
from .schema_sections import DEFS, IR_SECTIONS, closed

SCHEMA_ID = "https://clankwork.invalid/schemas/pack.schema.json"


def pack_schema() -> dict[str, Any]:
    """The whole pack IR schema, assembled from the registered sections and definitions
    (schema_sections.py), in their order."""
    sections = IR_SECTIONS.values()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Clankwork compiled pack (IR)",
        "description": "Generated from the op registry by clankwork.interpreter.schema.",
        **closed(
            {s.key: s.build() for s in sections},
            [s.key for s in sections if s.required],
        ),
        "$defs": {d.key: d.build() for d in DEFS.values()},
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(pack_schema(), indent=2, sort_keys=False) + "\n"


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(pack_schema())


@lru_cache(maxsize=1)
def fast_validator() -> Any:
    """The pack schema compiled by jsonschema-rs (a Rust validator of the same Draft 2020-12
    schema): it confirms 100,000 cards in well under a second, where jsonschema takes minutes.
    """
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(pack_schema())


def validate_ir(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors of an IR document as (JSON path, message) pairs; empty when valid.

    Every document is checked in full against the whole schema, whether it was just compiled
    or read from a `.json` file someone else wrote. A valid document (the usual case) is
    confirmed by `fast_validator`; only a document it rejects goes through jsonschema, which
    has the final word and the messages the rest of Clankwork quotes."""
    if fast_validator().is_valid(ir):
        return resource_errors(ir)
    return reference_errors(ir) or resource_errors(ir)


def resource_errors(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Effect nodes and ways naming a resource that is neither a base one nor one of the
    pack's `resources`, negative gains of anything but Clank! (CW131), and paths naming an
    undeclared way (a schema cannot tie them together), as (JSON path, message)."""
    known = set(RESOURCES) | {r.get("name") for r in ir.get("resources", ()) if isinstance(r, dict)}
    out: list[tuple[str, str]] = []

    # The JSON path is the keys walked so far, joined only for an error: formatting it at
    # every node was most of the time of checking a big pack's IR.
    at: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            res = node.get("resource") if "op" in node else None
            if isinstance(res, str) and res not in known:
                out.append(("/".join([*at, "resource"]), f"{res!r} is not a resource of the pack"))
            amount = node.get("amount")
            if (
                node.get("op") in ("gain", "bonus_on_gain")
                and isinstance(amount, int)
                and amount < 0
                and res != "clank"
            ):
                out.append(
                    (
                        "/".join([*at, "amount"]),
                        f"a negative gain of {res!r} takes what the pool may not hold: write "
                        "a price (`spend`) or a status (`forbid`) (CW131)",
                    )
                )
            items: Any = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            return
        for k, v in items:
            if isinstance(v, (dict, list)):
                at.append(str(k))
                walk(v)
                at.pop()

    for key in ("cards", "tokens", "boards"):
        at[:] = [key]
        walk(ir.get(key))
    ways = {w.get("name") for w in ir.get("ways", ()) if isinstance(w, dict)}
    for b, board in enumerate(ir.get("boards", ())):
        for k, p in enumerate(board.get("paths", ()) if isinstance(board, dict) else ()):
            if isinstance(p, dict) and "way" in p and p["way"] not in ways:
                out.append((f"boards/{b}/paths/{k}/way", f"{p['way']!r} is not a way of the pack"))
    for i, way in enumerate(ir.get("ways", ())):
        if isinstance(way, dict) and way.get("paid_in") not in known:
            out.append(
                (f"ways/{i}/paid_in", f"{way.get('paid_in')!r} is not a resource of the pack")
            )
    return out


def reference_errors(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors found by jsonschema itself (the reference the fast validator must
    agree with; the test suite checks the bundled packs with it)."""
    out = []
    validator = _validator()
    for err in sorted(validator.iter_errors(ir), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path)
        out.append((path or "(root)", err.message))
    return out
