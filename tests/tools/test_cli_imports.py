"""Commands load only what they use: the language server, Dask, Playwright, plotting and the
PDF and raster libraries stay out of the commands that do not need them (start-up time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "pygls",
    "lsprotocol",
    "dask",
    "distributed",
    "matplotlib",
    "playwright",
    "cairosvg",
    "cairocffi",
    "pypdf",
    "fontTools",
    "PIL",
    "numpy",
    "jsonschema",
)
# Runs a command in a fresh interpreter and prints the top-level modules it imported.
PROBE = """
import json, sys
from clankwork.tools.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})))
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["check", "tutorial"],
        ["test", "tutorial", "-k", "Consultant"],
        ["fmt", "--check", "tutorial"],
        ["packs"],
    ],
)
def test_a_command_imports_nothing_heavy_it_does_not_use(args: list[str], tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=tmp_path, capture_output=True, text=True
    )
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert "clankwork" in loaded
    assert sorted(set(HEAVY) & set(loaded)) == [], out.stderr
