"""Shared fixtures: where the bundled packs and test fixtures live."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import golden_files
import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def tutorial_dir() -> Path:
    """The bundled tutorial pack."""
    return ROOT / "content" / "tutorial"


@pytest.fixture(scope="session")
def tutorial_ir(tutorial_dir: Path) -> dict:
    """The tutorial pack compiled once per session (tests must not mutate it)."""
    from clankwork.dsl.compiler import compile_pack

    result = compile_pack(tutorial_dir)
    assert result.ok, result.diagnostics
    return result.ir


@pytest.fixture(scope="session")
def broken_dir() -> Path:
    """A pack with a keyword typo, an undefined card and an unreachable space."""
    return FIXTURES / "broken"


def pytest_configure(config: Any) -> None:
    """Refuse an UPDATE_GOLDEN other than 1 before any test runs (golden_files.py)."""
    try:
        golden_files.updating()
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Which core the games ran on: the compiled one, or the Python source (and why: an
    edited module runs as Python until `clankwork build-core`)."""
    from clankwork.interpreter.core import describe

    terminalreporter.write_line(f"clankwork core: {describe()}")
