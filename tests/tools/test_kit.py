"""`clankwork kit`: check and test first, then the PDF, the PNGs, the TTS save and a README."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from clankwork.tools import raster
from clankwork.tools.cli import main

pytestmark = pytest.mark.skipif(not raster.available(), reason="cairo (libcairo2) is missing")


@pytest.fixture
def pack(tmp_path: Path, tutorial_dir: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(tutorial_dir, dest)
    return dest


def test_a_kit_of_a_clean_pack(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["kit", str(pack), "-o", str(out), "--dpi", "60"])
    assert result.exit_code == 0, result.output
    assert "check: no errors; test: 5 scenarios passed" in result.output
    assert len(PdfReader(str(out / "tutorial.pdf")).pages) > 20
    assert (out / "cards" / "goblin.png").is_file() and (
        out / "cards" / "deck-reserve.png"
    ).is_file()
    save = json.loads((out / "tts" / "tutorial.json").read_text(encoding="utf-8"))
    assert any(o["Nickname"] == "Adventure deck" for o in save["ObjectStates"])
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "### Adventure deck: 24 cards" in readme and "- Goblin \u00d7 2" in readme
    assert "### Starting deck: 40 cards (4 decks of 10)" in readme
    assert "- Treasure \u00d7 3 (minor secret)" in readme and "24 black cubes" in readme
    for line in readme.splitlines():
        if line.startswith("- `"):
            assert (out / line[3:-1]).is_file(), line


def test_no_kit_from_a_pack_with_errors(pack: Path, tmp_path: Path) -> None:
    (pack / "adventure.clank").write_text('card Broken { cost 1; art "art/none.png" }\n')
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["kit", str(pack), "-o", str(out)])
    assert result.exit_code == 1
    assert "CW004" in result.output and "no kit made" in result.output
    assert not any(out.iterdir())


def test_no_kit_when_a_scenario_fails(pack: Path, tmp_path: Path) -> None:
    path = pack / "scenarios" / "rulebook_examples.clank"
    path.write_text(
        path.read_text().replace("expect player 1 boots 3", "expect player 1 boots 4", 1)
    )
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["kit", str(pack), "-o", str(out)])
    assert result.exit_code == 1 and "no kit made" in result.output
    assert not any(out.iterdir())
