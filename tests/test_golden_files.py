"""UPDATE_GOLDEN=1, and only 1, rewrites the golden files; any other value stops the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import golden_files
import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_TESTS = [
    "tests/dsl/test_golden_diagnostics.py",
    "tests/interpreter/test_playthrough.py",
    "tests/interpreter/test_snapshot.py",
    "tests/tools/test_render.py",
]


def test_only_1_rewrites(monkeypatch) -> None:
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    assert golden_files.updating() is False
    monkeypatch.setenv("UPDATE_GOLDEN", "")
    assert golden_files.updating() is False
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    assert golden_files.updating() is True
    for value in ("0", "true", "yes", " 1", "2"):
        monkeypatch.setenv("UPDATE_GOLDEN", value)
        with pytest.raises(ValueError, match="only UPDATE_GOLDEN=1 rewrites the golden files"):
            golden_files.updating()


@pytest.mark.parametrize("value", ["0", "true"])
def test_another_value_stops_the_run_before_any_golden_test(value: str) -> None:
    # Collected only: nothing runs, so nothing could be rewritten whatever the outcome.
    env = {**os.environ, "UPDATE_GOLDEN": value}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + GOLDEN_TESTS,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert f"UPDATE_GOLDEN='{value}': only UPDATE_GOLDEN=1 rewrites" in done.stderr


def test_every_golden_test_asks_golden_files() -> None:
    # A golden test that read the variable itself could take any value for yes again.
    for test in ROOT.glob("tests/**/test_*.py"):
        text = test.read_text(encoding="utf-8")
        if "UPDATE_GOLDEN" in text and test.name != "test_golden_files.py":
            assert 'environ.get("UPDATE_GOLDEN")' not in text, test
            assert str(test.relative_to(ROOT)) in GOLDEN_TESTS, test
    for name in GOLDEN_TESTS:
        assert "golden_files.updating()" in (ROOT / name).read_text(encoding="utf-8"), name
