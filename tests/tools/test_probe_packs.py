"""The probe packs (benchmarks/probes): each extends a bundled pack with one new thing a
competent player uses, and the default bot of `simulate` uses it in at least half of the
player-games where it is offered (`benchmarks/probe_use.py` measures it at length)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.tools.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
PROBES = ROOT / "benchmarks" / "probes"
LISTED = json.loads((PROBES / "probes.json").read_text(encoding="utf-8"))
GAMES = 40


def test_every_probe_folder_is_listed_and_of_its_own_kind() -> None:
    folders = sorted(p.name for p in PROBES.iterdir() if (p / "pack.clank").is_file())
    assert folders == sorted(LISTED)
    assert len(folders) >= 8


@pytest.mark.parametrize("name", sorted(LISTED))
def test_the_default_bot_uses_each_probes_new_thing(name: str) -> None:
    kind, thing = LISTED[name]
    result = compile_pack(PROBES / name)
    assert result.ok, result.diagnostics
    rep = simulate(result.ir, GAMES, 2, 1).report()  # the default bots, as simulate plays
    row = next(o for o in rep["offers"] if (o["kind"], o["name"]) == (kind, thing))
    assert row["offered_players"] >= 5, f"{thing} was hardly ever offered: {row}"
    assert row["use_rate"] >= 0.5, f"{thing} offered, then passed over: {row}"
