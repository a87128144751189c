"""Golden file: the human diagnostics of the broken fixture pack, exactly as printed.

Regenerate with `UPDATE_GOLDEN=1 .venv/bin/pytest tests/dsl/test_golden_diagnostics.py`
and review the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

import golden_files

from clankwork.dsl.diagnostics import format_human
from clankwork.tools.check import compile_and_check

GOLDEN = Path(__file__).parent / "golden" / "broken.txt"


def test_broken_pack_diagnostics_match_golden(broken_dir: Path, monkeypatch) -> None:
    monkeypatch.chdir(broken_dir.parent.parent.parent)  # paths relative to the repo root
    result = compile_and_check(Path("tests/fixtures/broken"))
    text = format_human(result.diagnostics, result.sources)
    if golden_files.updating():
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
