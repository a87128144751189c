"""docs/scenarios.md: every scenario it shows compiles and passes on the acqinc pack."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scenarios.md"


def test_documented_scenarios_pass(tmp_path: Path) -> None:
    blocks = re.findall(r"```clank\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4
    pack = tmp_path / "acqinc"
    shutil.copytree(ROOT / "content" / "acqinc", pack, ignore=shutil.ignore_patterns("scenarios"))
    (pack / "scenarios").mkdir()
    (pack / "scenarios" / "doc.clank").write_text("\n".join(blocks), encoding="utf-8")
    ir = compile_pack(pack).ir
    scenarios, diags, _ = compile_scenarios(pack, ir)
    assert diags == [] and len(scenarios) == len(blocks)
    for sc in scenarios:
        outcome = run_scenario(ir, sc)
        assert outcome.ok, (sc["name"], [f.message for f in outcome.failures])
