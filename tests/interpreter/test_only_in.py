"""`only in FEATURE` limits acquiring as it limits fighting (the language reference says both)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from clankwork.tools.cli import main

SCENARIOS = """
scenario "Only in forest: a card cannot be acquired outside a forest" {
  row "Forest Charm"
  player 1 { at Gatehouse; hand Explore Explore }
  play Explore
  play Explore
  expect cannot acquire "Forest Charm"
}

scenario "Only in forest: the card can be acquired in a forest" {
  row "Forest Charm"
  player 1 { at "Whispering Wood"; hand Explore Explore }
  play Explore
  play Explore
  expect can acquire "Forest Charm"
  acquire "Forest Charm"
  expect player 1 discard has "Forest Charm"
}

scenario "Only in forest: a reserve card too" {
  player 1 { at Gatehouse; hand Explore Explore }
  play Explore
  play Explore
  expect cannot acquire "Woodland Map"
}
"""


def test_only_in_is_enforced_for_acquiring(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack)
    with (pack / "adventure.clank").open("a", encoding="utf-8") as f:
        f.write('card "Forest Charm" { cost 2; only in forest; play: +1 boots }\n')
    with (pack / "reserve.clank").open("a", encoding="utf-8") as f:
        f.write('reserve "Woodland Map" { copies 3; cost 2; only in forest; play: +1 boots }\n')
    (pack / "scenarios" / "only_in.clank").write_text(SCENARIOS, encoding="utf-8")
    result = CliRunner().invoke(main, ["test", str(pack), "-k", "Only in forest"])
    assert result.exit_code == 0, result.output
    assert "3 scenarios: 3 passed" in result.output
