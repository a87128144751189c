"""Every registry record is complete: phrases well formed, docs, examples, a renderer."""

from __future__ import annotations

import re

import pytest

from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS
from clankwork.interpreter.effects.registry import SLOT_KINDS

RECORDS = [*EFFECTS, *CONDITIONS, *COUNTS]
ITEM = re.compile(r"^(\{\w+:\w+\}|\{\w+=[^}]+\}|\[[\w!'|]+\]|[\w!'|+-]+)$")


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r.family}:{r.name}")
def test_record_is_complete(record) -> None:
    assert record.doc, "every op documents itself (the handler's docstring)"
    assert record.examples, "every op has an example (compiled by tests/tools/test_docs.py)"
    assert callable(record.render) and callable(record.handler)
    if record.payable:
        assert record.can_pay is not None


@pytest.mark.parametrize("record", [r for r in RECORDS if not r.structural], ids=lambda r: r.name)
def test_phrases_are_well_formed(record) -> None:
    for phrase in record.phrases:
        for item in phrase.split():
            assert ITEM.match(item), f"{record.name}: bad pattern item {item!r} in {phrase!r}"
            if item.startswith("{") and ":" in item:
                kind = item[1:-1].split(":")[1]
                assert kind in SLOT_KINDS, f"{record.name}: unknown slot kind {kind!r}"
                assert item[1:-1].split(":")[0] in record.params
