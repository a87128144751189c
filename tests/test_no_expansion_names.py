"""Mechanics are content: the engine, the language and the tools name no published
expansion's components (issue 25: `grep -riwE 'mummy|curse|catacombs?|ape lords?' interpreter/
dsl/ tools/` finds nothing). A feature one expansion needs is a general record; the expansion
itself lives in content/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = re.compile(r"\b(mummy|curse|catacombs?|ape lords?)\b", re.IGNORECASE)


def test_no_code_names_an_expansion() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for folder in ("interpreter", "dsl", "tools")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file() and path.suffix in (".py", ".lark", ".pxd", ".md", ".json")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NAMES.search(line)
    ]
    assert not found, "\n".join(found)
