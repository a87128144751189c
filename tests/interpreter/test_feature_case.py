"""A space's `feature` words match however they are cased, wherever they are written: in the
space's declaration, in a condition (`if you are in a roadside inn`), in `only in`. The
language keeps features in lower case (the compiler lowers the declaration; the engine lowers
what it compares, so IR from any source matches too)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.actions import allowed_here, legal_actions
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.tools.cli import main

CARDS = """
card "Inn Keeper" { cost 2; play: if you are in a roadside inn (+2 gold) }
card "Tavern Song" { cost 2; play: if you are in a ROADSIDE Inn (+1 swords) }
card "Inn Pass" { cost 2; only in roadside INN; play: +1 boots }
"""

SCENARIOS = """
scenario "Feature case: a lower-case condition matches a capitalised feature" {
  player 1 { at Gatehouse; hand "Inn Keeper" }
  play "Inn Keeper"
  expect player 1 gold 2
}

scenario "Feature case: an upper-case condition matches it too" {
  player 1 { at Gatehouse; hand "Tavern Song" }
  play "Tavern Song"
  expect player 1 swords 1
}

scenario "Feature case: elsewhere the condition does not hold" {
  player 1 { at "Mossy Path"; hand "Inn Keeper" "Tavern Song" }
  play "Inn Keeper"
  play "Tavern Song"
  expect player 1 gold 0
  expect player 1 swords 0
}

scenario "Feature case: only in, cased otherwise, finds the feature" {
  row "Inn Pass"
  player 1 { at Gatehouse; hand Explore Explore }
  play Explore
  play Explore
  expect can acquire "Inn Pass"
}

scenario "Feature case: only in still keeps the card elsewhere" {
  row "Inn Pass"
  player 1 { at "Mossy Path"; hand Explore Explore }
  play Explore
  play Explore
  expect cannot acquire "Inn Pass"
}
"""


def _pack(tmp_path: Path, tutorial_dir: Path) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack)
    board = pack / "board.clank"
    text = board.read_text(encoding="utf-8")
    old = "space Gatehouse { at 300 100; reward minor secret }"
    assert old in text
    board.write_text(
        text.replace(
            old, "space Gatehouse { at 300 100; reward minor secret; feature Roadside Inn }"
        ),
        encoding="utf-8",
    )
    with (pack / "adventure.clank").open("a", encoding="utf-8") as f:
        f.write(CARDS)
    (pack / "scenarios" / "feature_case.clank").write_text(SCENARIOS, encoding="utf-8")
    return pack


def test_feature_words_match_however_they_are_cased(tmp_path: Path, tutorial_dir: Path) -> None:
    pack = _pack(tmp_path, tutorial_dir)
    result = CliRunner().invoke(main, ["test", str(pack), "-k", "Feature case"])
    assert result.exit_code == 0, result.output
    assert "5 scenarios: 5 passed" in result.output


def test_the_declared_feature_is_kept_in_lower_case(tmp_path: Path, tutorial_dir: Path) -> None:
    result = compile_pack(_pack(tmp_path, tutorial_dir))
    assert result.ok, result.diagnostics
    gate = next(s for s in result.ir["boards"][0]["spaces"] if s["name"] == "Gatehouse")
    assert gate["features"] == ["roadside inn"]


def test_ir_from_elsewhere_with_capitalised_features_matches_too(
    tmp_path: Path, tutorial_dir: Path
) -> None:
    # The engine runs IR from any source (a campaign's patches, a fixture, a .json someone
    # wrote): it lowers the features and `only in` words it reads, as the compiler does.
    result = compile_pack(_pack(tmp_path, tutorial_dir))
    assert result.ok, result.diagnostics
    ir = copy.deepcopy(result.ir)
    gate = next(s for s in ir["boards"][0]["spaces"] if s["name"] == "Gatehouse")
    gate["features"] = ["Roadside Inn"]
    next(c for c in ir["cards"] if c["name"] == "Inn Pass")["only_in"] = "Roadside INN"
    game = Game(prepare(ir), [make_bot("random", 1), make_bot("random", 2)], seed=1)
    player = game.players[0]
    inn_pass = next(c for c in game.catalog.cards if c.name == "Inn Pass")
    game.row = [inn_pass]
    player.skill = 10
    for where, inside in (("Gatehouse", True), ("Mossy Path", False)):
        player.pos = game.board.index[where]
        assert game.space_has(player, "roadside inn") is inside, where
        assert game.space_has(player, "ROADSIDE Inn") is inside, where
        assert allowed_here(inn_pass, game.board.spaces[player.pos]) is inside, where
        acquire = [o.label for o in legal_actions(game, player) if "Inn Pass" in o.label]
        assert bool(acquire) is inside, (where, acquire)
