"""Every registry record is complete: phrases well formed, docs, examples, a renderer."""

from __future__ import annotations

import re

import pytest

from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS
from clankwork.interpreter.effects.registry import SLOT_KINDS, Valuer

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


def _every_registry() -> list:
    """Every Registry instance the interpreter creates (effects, conditions, counts, and any
    other family: triggers, actions...), found by importing every interpreter module."""
    import gc
    import importlib
    import pkgutil

    import clankwork.interpreter as interp
    from clankwork.interpreter.effects.registry import Registry

    for mod in pkgutil.walk_packages(interp.__path__, interp.__name__ + "."):
        importlib.import_module(mod.name)
    return [o for o in gc.get_objects() if isinstance(o, Registry)]


def test_every_record_of_every_registry_has_a_bot_appraisal() -> None:
    registries = _every_registry()
    assert {r.family for r in registries} >= {"effect", "condition", "count", "trigger"}
    missing = [
        f"{reg.family} {rec.name}"
        for reg in registries
        for rec in reg
        if not callable(getattr(rec, "appraise", None))
    ]
    assert not missing, f"records without a bot appraisal (appraise=): {missing}"


def test_every_action_kind_has_its_own_bot_appraisal() -> None:
    """The base ActionKind's appraise raises: a new kind must say what it is worth."""
    from clankwork.interpreter.actions import ACTION_KINDS, ActionKind

    assert len(ACTION_KINDS) >= 12
    missing = [k.name for k in ACTION_KINDS if type(k).appraise is ActionKind.appraise]
    assert not missing, f"action kinds without a bot appraisal: {missing}"
    with pytest.raises(NotImplementedError):
        ActionKind().appraise((), _Probe())


class _Probe(Valuer):
    """A Valuer whose every unit is worth 1: each appraisal must come back a finite number."""

    def unit(self, key: str) -> float:
        return 1.0

    def opponents(self, nodes) -> float:
        return -0.5 * self.effects(nodes)


def test_appraisals_of_the_bundled_packs_are_numbers() -> None:
    """Every node of the bundled packs appraises to a finite number; conditions to 0..1."""
    import math
    from pathlib import Path

    from clankwork.dsl.compiler import compile_pack

    content = Path(__file__).resolve().parents[2] / "content"
    seen: set[str] = set()
    v = _Probe()

    def walk(x) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("op"), str) and x["op"] in EFFECTS:
                a = EFFECTS[x["op"]].appraise(x, v)
                assert math.isfinite(a), x
                seen.add(x["op"])
            if isinstance(x.get("cond"), str) and x["cond"] in CONDITIONS:
                assert 0.0 <= CONDITIONS[x["cond"]].appraise(x, v) <= 1.0, x
            for y in x.values():
                walk(y)
        elif isinstance(x, list):
            for y in x:
                walk(y)

    for pack in ("tutorial", "acqinc"):
        walk(compile_pack(content / pack).ir)
    assert {"gain", "each", "choose", "pay", "if"} <= seen
