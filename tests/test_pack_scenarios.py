"""Every scenario of every bundled pack, collected as one pytest item each.

A scenario that fails, the engine failing inside one included, is a failed item whose
message names the scenario's line (`pytest -v` adds an engine failure's traceback); a pack
whose scenarios do not compile is one failed item with the diagnostics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.diagnostics import has_errors
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.effects import EFFECTS
from clankwork.interpreter.scenario import Outcome
from clankwork.tools.scenario_cmd import run_one

ROOT = Path(__file__).resolve().parent.parent
# The bundled packs, and the fixture packs that carry scenarios (the records' own rules).
PACKS = sorted(
    p
    for base in (ROOT / "content", ROOT / "tests" / "fixtures")
    for p in base.iterdir()
    if (p / "scenarios").is_dir()
)


def _collect() -> list:
    params = []
    for pack in PACKS:
        result = compile_pack(pack)
        diags = list(result.diagnostics)
        scenarios: list[dict[str, Any]] = []
        if result.ok:
            scenarios, sdiags, _ = compile_scenarios(pack, result.ir)
            diags += sdiags
        if has_errors(diags) or not result.ok:
            params.append(pytest.param(None, diags, id=f"{pack.name}: (does not compile)"))
        for sc in scenarios:
            params.append(pytest.param(result.ir, sc, id=f"{pack.name}: {sc['name']}"))
    return params


_CATALOGS: dict[Any, Any] = {}


def failure_text(outcome: Outcome, traces: bool) -> str:
    """The failures of a scenario, one `file:line:col: message` line each, and with
    ``traces`` the traceback of an engine failure."""
    lines = []
    for f in outcome.failures:
        lines.append(
            f"{f.at['file']}:{f.at['line']}:{f.at['col']}: {f.message}" if f.at else f.message
        )
        if traces and f.trace:
            lines.append(f.trace)
    return "\n".join(lines)


def check_scenario(ir: dict, scenario: dict, traces: bool) -> None:
    """Run one scenario; `pytest.fail` with its failures at their lines when it fails."""
    catalogs = _CATALOGS.setdefault(ir["pack"]["name"], {})
    outcome = run_one(ir, scenario, catalogs)
    if not outcome.ok:
        pytest.fail(failure_text(outcome, traces), pytrace=False)


@pytest.mark.parametrize(("ir", "scenario"), _collect())
def test_scenario(ir: dict | None, scenario: Any, request: pytest.FixtureRequest) -> None:
    if ir is None:
        pytest.fail("\n".join(f"{d.code} {d.span}: {d.message}" for d in scenario), pytrace=False)
    check_scenario(ir, scenario, request.config.get_verbosity() > 0)


def _boom(*_args: object) -> None:
    raise ZeroDivisionError("the handler broke")


def test_an_engine_failure_is_a_failed_item_at_its_line(
    tmp_path: Path, tutorial_ir: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception inside the engine fails the item (not an error of the run), with the
    scenario's line; the traceback is added under `pytest -v`."""
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "Lucky Coin" {\n  player 1 { hand "Lucky Coin" }\n  play "Lucky Coin"\n}\n',
        encoding="utf-8",
    )
    (sc,), diags, _ = compile_scenarios(tmp_path, tutorial_ir)
    assert not diags
    monkeypatch.setitem(EFFECTS.handlers, "draw", _boom)
    for traces in (False, True):
        with pytest.raises(pytest.fail.Exception) as failed:
            check_scenario(tutorial_ir, sc, traces)
        text = str(failed.value)
        assert text.startswith(
            f"{tmp_path}/scenarios/s.clank:3:3: the engine failed while carrying out "
            "`play Lucky Coin`: ZeroDivisionError: the handler broke"
        )
        assert ("Traceback (most recent call last)" in text) == traces
