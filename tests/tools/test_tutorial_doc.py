"""docs/tutorial.md: its code blocks, put together, make a pack that checks clean."""

from __future__ import annotations

import re
from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.tools.check import compile_and_check

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"


def _blocks() -> list[str]:
    return re.findall(r"```clank\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S)


def test_tutorial_pack_checks_clean(tmp_path: Path) -> None:
    blocks = _blocks()
    assert len(blocks) >= 6
    pack = tmp_path / "mypack"
    (pack / "scenarios").mkdir(parents=True)
    scenario = [b for b in blocks if b.startswith("scenario")]
    rest = [b for b in blocks if not b.startswith("scenario")]
    (pack / "pack.clank").write_text("\n".join(rest), encoding="utf-8")
    (pack / "scenarios" / "cleric.clank").write_text("\n".join(scenario), encoding="utf-8")
    result = compile_and_check(pack)
    assert [d for d in result.diagnostics if d.severity != "info"] == []
    scenarios, diags, _ = compile_scenarios(pack, compile_pack(pack).ir)
    assert diags == [] and len(scenarios) == 1
