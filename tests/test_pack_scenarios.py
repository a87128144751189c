"""Every scenario of every bundled pack, collected as one pytest item each."""

from __future__ import annotations

from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.stickers import campaign_key, campaign_setup
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.scenario import run_scenario

CONTENT = Path(__file__).resolve().parent.parent / "content"
PACKS = sorted(p for p in CONTENT.iterdir() if (p / "scenarios").is_dir())


def _collect() -> list:
    params = []
    for pack in PACKS:
        result = compile_pack(pack)
        assert result.ok, (pack, result.diagnostics)
        scenarios, diags, _ = compile_scenarios(pack, result.ir)
        assert not diags, diags
        for sc in scenarios:
            params.append(pytest.param(result.ir, sc, id=f"{pack.name}: {sc['name']}"))
    return params


_CATALOGS: dict[tuple[object, ...], object] = {}


@pytest.mark.parametrize(("ir", "scenario"), _collect())
def test_scenario(ir: dict, scenario: dict) -> None:
    key = (ir["pack"]["name"], scenario.get("board", 0), *campaign_key(scenario))
    if key not in _CATALOGS:
        _CATALOGS[key] = prepare(campaign_setup(ir, scenario), scenario.get("board", 0))
    outcome = run_scenario(_CATALOGS[key], scenario)
    if not outcome.ok:
        lines = [
            f"{f.at['file']}:{f.at['line']}:{f.at['col']}: {f.message}" if f.at else f.message
            for f in outcome.failures
        ]
        pytest.fail("\n".join(lines), pytrace=False)
