"""Sizes the engine and the language keep (issue 25): no class over 400 lines and no function
over 60 in interpreter/ and dsl/, so that no procedure grows back into a class that holds the
whole game. A function that must be longer (a generated table) is named in `ALLOWED` with
its reason; there is none today."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("interpreter", "dsl")
MAX_CLASS = 400
MAX_FUNCTION = 60
# "path:name" -> why it may be longer.
ALLOWED: dict[str, str] = {}


def _too_long(limit_class: int, limit_function: int) -> list[str]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    limit, what = limit_class, "class"
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    limit, what = limit_function, "function"
                else:
                    continue
                lines = node.end_lineno - node.lineno + 1
                where = f"{path.relative_to(ROOT)}:{node.name}"
                if lines > limit and where not in ALLOWED:
                    out.append(f"{what} {where} (line {node.lineno}): {lines} lines, over {limit}")
    return out


def test_no_class_or_function_is_too_long() -> None:
    too_long = _too_long(MAX_CLASS, MAX_FUNCTION)
    assert not too_long, (
        "split these into smaller functions or records (docs/engine.md, docs/extending.md):\n"
        + "\n".join(too_long)
    )


@pytest.mark.parametrize("limits", [(10, 60), (400, 5)])
def test_the_check_finds_a_long_one(limits: tuple[int, int]) -> None:
    # With a small enough limit the walk finds classes (or functions): it reads the packages.
    assert _too_long(*limits)
