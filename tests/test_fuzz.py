"""Mutation fuzzing in the suite: hostile edits of the bundled packs never crash or hang a tool.

A short, fixed run (the same seeds every time, so a failure reproduces); the long run is
`benchmarks/fuzz_packs.py`. A failure prints the seed: rerun it with
`.venv/bin/python benchmarks/fuzz_packs.py --seed-one SEED`, then add the crash to
tests/test_fuzz_regressions.py.
"""

from __future__ import annotations

from pathlib import Path

import fuzzing
import pytest

MUTANTS = 80


@pytest.fixture(scope="module")
def mutator() -> fuzzing.Mutator:
    return fuzzing.Mutator()


def test_mutants_never_crash_or_hang(mutator: fuzzing.Mutator, tmp_path: Path) -> None:
    bad = []
    kinds: dict[str, int] = {}
    for seed in range(MUTANTS):
        m = mutator.mutant(seed)
        out = fuzzing.run_mutant(m, tmp_path / "pack", budget=20.0)
        kinds[out.kind] = kinds.get(out.kind, 0) + 1
        if out.kind in ("crash", "hang"):
            bad.append(f"seed {seed} ({'; '.join(m.edits)}): {out.signature}\n{out.detail}")
    assert not bad, "\n\n".join(bad)
    # The mutations must exercise both paths: broken packs and packs that still play.
    assert kinds.get("errors", 0) > MUTANTS // 5 and kinds.get("clean", 0) > MUTANTS // 5, kinds


def test_mutants_are_reproducible(mutator: fuzzing.Mutator) -> None:
    a, b = mutator.mutant(41), fuzzing.Mutator().mutant(41)
    assert a.files == b.files and a.edits == b.edits
    assert a.files != mutator.mutant(42).files
