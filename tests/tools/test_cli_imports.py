"""Commands load only what they use: the language server, Dask, Playwright, plotting and the
PDF and raster libraries stay out of the commands that do not need them (start-up time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clankwork.tools.packs import bundled_names

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
# Runs a command in a fresh interpreter and prints the top-level modules it imported. A module
# of the compiled core that runs from its source (CLANKWORK_CORE=python, a stale build) is
# registered in sys.modules to load lazily (interpreter/core.py): imported only once used.
PROBE = """
import json, sys
from clankwork.tools.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
loaded = [m for m, mod in list(sys.modules.items()) if type(mod).__name__ != "_LazyModule"]
print(json.dumps(sorted({m.split(".")[0] for m in loaded})))
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


@pytest.mark.parametrize("pack", bundled_names())
def test_check_imports_neither_networkx_nor_the_game(pack: str, tmp_path: Path) -> None:
    # Importing networkx took longer than checking a pack: the board checks walk the paths
    # themselves, and the engine imports it only once a game sets up a board. The scenarios'
    # compiler reads the declared state (interpreter/state.py), not the game's modules.
    probe = PROBE.replace('{m.split(".")[0] for m in loaded}', "loaded")
    out = subprocess.run(
        [sys.executable, "-c", probe, "check", pack], cwd=tmp_path, capture_output=True, text=True
    )
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert "clankwork.tools.check" in loaded, out.stderr
    assert "networkx" not in loaded
    assert not {"clankwork.interpreter.game", "clankwork.interpreter.scenario"} & set(loaded)
