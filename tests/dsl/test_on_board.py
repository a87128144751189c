"""Rules, setup, components and words per board: `on board NAME { ... }` (dsl/board_blocks.py,
interpreter/on_board.py), with the fixture pack tests/fixtures/boards_rules."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pygls.workspace import PositionCodec

from clankwork.dsl.compiler import compile_pack, compile_text, parser
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.catalog import prepare
from clankwork.tools import lsp_index
from clankwork.tools.cli import main
from clankwork.tools.lsp_features import _symbol
from clankwork.tools.lsp_index import Symbol
from clankwork.tools.scenario_cmd import run_one

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "tests" / "fixtures" / "boards_rules"


@pytest.fixture(scope="module")
def ir() -> dict[str, Any]:
    result = compile_pack(PACK)
    assert result.ok, result.diagnostics
    return result.ir


def test_the_fixture_scenarios_pass(ir: dict[str, Any]) -> None:
    scenarios, diags, _ = compile_scenarios(PACK, ir)
    assert not diags
    assert len(scenarios) >= 12
    failed = {}
    for sc in scenarios:
        outcome = run_one(ir, sc, {})
        if not outcome.ok:
            failed[sc["name"]] = [f.message for f in outcome.failures]
    assert failed == {}


def test_each_board_plays_its_own_rules_and_words(ir: dict[str, Any]) -> None:
    mine, river = prepare(ir, "mine"), prepare(ir, "river")
    assert (mine.dragon_name, mine.dragon_word) == ("Old Grumbletusk", "wyrm")
    assert (river.dragon_name, river.dragon_word) == ("the dragon", "dragon")
    assert mine.rules["hand_size"] == 6 and river.rules["hand_size"] == 5
    assert "Mine Cart" in {t.name for t in mine.tokens}
    assert "Mine Cart" not in {t.name for t in river.tokens}
    assert "Lantern" not in {c.name for c in river.cards}
    assert next(c.copies for c in mine.cards if c.name == "Lantern") == 2
    # The pack's own IR is left as it was: six Lanterns outside the blocks.
    assert next(c["copies"] for c in ir["cards"] if c["name"] == "Lantern") == 6


def test_simulate_board_plays_that_board_and_names_its_antagonist() -> None:
    runner = CliRunner()
    args = ["simulate", str(PACK), "--games", "2", "--players", "2", "--board"]
    mine = runner.invoke(main, [*args, "mine"])
    river = runner.invoke(main, [*args, "river"])
    assert mine.exit_code == 0 and river.exit_code == 0, mine.output + river.output
    assert "wyrm attacks" in mine.output and "wyrm attacks" not in river.output
    assert "dragon attacks" in river.output


_BASE = """
pack p { version "0.1.0" }
card Burgle { starting 10; play: +1 skill }
resource tide { per turn }
board mine { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
board river { space HQ { hq }; space B { artifact 5 }; path HQ -- B }
"""


def test_an_unknown_board_is_named_with_a_did_you_mean() -> None:
    result = compile_text(_BASE + "on board minee { rules { hand size 6 } }\n")
    found = [d for d in result.diagnostics if d.code == "CW107"]
    assert len(found) == 1, result.diagnostics
    assert "no board named 'minee'" in found[0].message
    assert found[0].hint is not None and '"mine"' in found[0].hint
    assert (found[0].span.line, found[0].span.col) == (7, 10)


def test_what_cannot_differ_per_board_is_refused() -> None:
    result = compile_text(_BASE + "on board mine { board x { space Y } }\n")
    assert [d.code for d in result.diagnostics if d.severity == "error"] == ["CW101"]
    bad = compile_text(_BASE + "on board mine { remove card Burgel }\n")
    found = [d for d in bad.diagnostics if d.code == "CW122"]
    assert found and "Burgle" in (found[0].hint or "")


def test_whole_game_checks_run_once_per_board_and_say_which() -> None:
    """A resource gained only on the river is never gained in a game on the mine."""
    text = _BASE + "on board river { rules { at the start of your turn: +1 tide } }\n"
    result = compile_text(text)
    found = [d for d in result.diagnostics if d.code == "CW129"]
    assert [d.message for d in found] == [
        "on board 'mine': nothing gives the resource `tide`: no effect gains it"
    ]
    # Gained outside the blocks: on every board, no finding.
    both = compile_text(_BASE + "rules { at the start of your turn: +1 tide }\n")
    assert not [d for d in both.diagnostics if d.code == "CW129"]
    # Gained nowhere: one finding, as before there were blocks.
    none = compile_text(_BASE + "on board river { rules { hand size 6 } }\n")
    assert [d.message for d in none.diagnostics if d.code == "CW129"] == [
        "nothing gives the resource `tide`: no effect gains it"
    ]


def test_an_extension_adds_blocks_for_its_base_boards(tmp_path: Path) -> None:
    shutil.copytree(PACK, tmp_path / "base")
    (tmp_path / "ext").mkdir()
    (tmp_path / "ext" / "pack.clank").write_text(
        'pack more { version "0.1.0"; extends "../base" }\n'
        "on board river { rules { hand size 7 } }\n"
        "change card Pick { copies 3 }\n",
        encoding="utf-8",
    )
    result = compile_pack(tmp_path / "ext")
    assert result.ok, result.diagnostics
    mine, river = prepare(result.ir, "mine"), prepare(result.ir, "river")
    assert river.rules["hand_size"] == 7
    assert mine.rules["hand_size"] == 6  # the base's block still holds
    assert [c.copies for c in mine.cards if c.name == "Pick"] == [3]


def test_the_narration_and_the_cards_name_each_boards_antagonist(tmp_path: Path) -> None:
    runner = CliRunner()
    for board, name, pill in (
        ("mine", "Old Grumbletusk attacks", "Wyrm attack"),
        ("river", "the dragon attacks", "Dragon attack"),
    ):
        logs = tmp_path / board
        args = ["simulate", str(PACK), "--games", "1", "--players", "2", "--board", board]
        done = runner.invoke(main, [*args, "--log-dir", str(logs)])
        assert done.exit_code == 0, done.output
        told = runner.invoke(main, ["replay", str(logs / "game-000000.jsonl"), "--pack", str(PACK)])
        assert told.exit_code == 0, told.output
        assert name in told.output
        cards = tmp_path / f"cards-{board}"
        drawn = runner.invoke(
            main, ["render", "cards", str(PACK), "--board", board, "-o", str(cards)]
        )
        assert drawn.exit_code == 0, drawn.output
        assert pill in (cards / "rumble.svg").read_text(encoding="utf-8")
    wrong = runner.invoke(main, ["render", "cards", str(PACK), "--board", "minee"])
    assert wrong.exit_code == 2 and 'did you mean "mine"?' in wrong.output


def test_a_mug_awarded_on_one_board_only_is_named_for_the_other() -> None:
    text = (
        _BASE
        + "token Mug { mug 4; points 20 }\n"
        + "on board river { rules { when you escape: take Mug } }\n"
        + "rules { at the start of your turn: +1 tide }\n"
    )
    found = [d.message for d in compile_text(text).diagnostics if d.code == "CW130"]
    assert len(found) == 1 and found[0].startswith("on board 'mine': no rule awards the mug")


def test_the_editor_knows_a_boards_own_designs_and_outlines_its_blocks(
    ir: dict[str, Any],
) -> None:
    text = (PACK / "pack.clank").read_text(encoding="utf-8")
    stmts, _ = parser().parse(text, str(PACK / "pack.clank"))
    index = lsp_index.build(ir, {str(PACK / "pack.clank"): stmts})
    assert Symbol("token", "Mine Cart") in index.declared
    outline = [_symbol(st, text, PositionCodec(), top=True) for st in stmts]
    blocks = [s for s in outline if s is not None and s.detail == "on"]
    assert [b.name for b in blocks] == ["on board mine", "on board river"]
    assert "Mine Cart" in [c.name for c in blocks[0].children or ()]


def test_play_takes_a_board(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["play", str(PACK), "--seed", "5", "--log", str(tmp_path / "p.jsonl"), "--board"]
    done = runner.invoke(main, [*args, "mine"], input="quit\n")
    assert "boards_rules 0.1.0 on mine, seed 5" in done.output, done.output
    wrong = runner.invoke(main, [*args, "minee"], input="quit\n")
    assert wrong.exit_code == 2 and "no board named 'minee'" in wrong.output


def test_a_scenario_naming_what_its_board_lacks_is_told_which_board_has_it(
    tmp_path: Path,
) -> None:
    shutil.copytree(PACK, tmp_path / "p")
    (tmp_path / "p" / "scenarios" / "x.clank").write_text(
        'scenario "x" {\n  board river\n  player 1 { tokens "Mine Cart" }\n'
        "  expect reserve Lantern 1\n  expect cannot acquire Lantern\n}\n",
        encoding="utf-8",
    )
    result = compile_pack(tmp_path / "p")
    _, diags, _ = compile_scenarios(tmp_path / "p", result.ir)
    found = [(d.code, d.span.line, d.message, d.hint) for d in diags]
    assert found == [
        (
            "CW142",
            3,
            "token 'Mine Cart' is not in play on board 'river'",
            "it is on board 'mine': write `board mine` in the scenario",
        ),
        (
            "CW142",
            4,
            "card 'Lantern' is not in play on board 'river'",
            "it is on board 'mine': write `board mine` in the scenario",
        ),
    ]


def test_a_counter_of_one_board_is_cw142_in_a_scenario_on_another(tmp_path: Path) -> None:
    """A counter only the mine keeps (`counter doom` in its rules block) compiled in a river
    scenario: `counter doom 2` was dropped at setup. Expecting it at 0 says the board does not
    keep it (a counter not in play reads 0); at 1 it could never pass."""
    shutil.copytree(PACK, tmp_path / "p")
    with (tmp_path / "p" / "pack.clank").open("a", encoding="utf-8") as f:
        f.write("\non board mine { rules { counter doom max 5 } }\n")
    (tmp_path / "p" / "scenarios" / "x.clank").write_text(
        'scenario "x" {\n  board river\n  counter doom 2\n  expect counter doom 0\n'
        "  expect counter doom 1\n}\n"
        'scenario "y" {\n  board mine\n  counter doom 2\n  expect counter doom 2\n}\n',
        encoding="utf-8",
    )
    result = compile_pack(tmp_path / "p")
    assert result.ok, result.diagnostics
    _, diags, _ = compile_scenarios(tmp_path / "p", result.ir)
    hint = "it is on board 'mine': write `board mine` in the scenario"
    message = "counter 'doom' is not in play on board 'river'"
    found = [(d.code, d.span.line, d.message, d.hint) for d in diags]
    assert found == [("CW142", 3, message, hint), ("CW142", 5, message, hint)]


def test_a_scenario_is_checked_against_its_boards_rules(tmp_path: Path) -> None:
    """Rage space 9 is on the river's track, not on the mine's (the rules' seven)."""
    shutil.copytree(PACK, tmp_path / "p")
    (tmp_path / "p" / "scenarios" / "x.clank").write_text(
        'scenario "x" {\n  board mine\n  rage 9\n}\n', encoding="utf-8"
    )
    result = compile_pack(tmp_path / "p")
    _, diags, _ = compile_scenarios(tmp_path / "p", result.ir)
    assert [(d.code, d.span.line) for d in diags] == [("CW141", 3)]


def test_a_scenario_fights_a_monster_only_a_board_has(tmp_path: Path) -> None:
    """A reserve monster of an `on board` block is a monster to `fight` on that board (not "a
    card, so it cannot be fought"), and the scenario plays."""
    shutil.copytree(PACK, tmp_path / "p")
    with (tmp_path / "p" / "pack.clank").open("a", encoding="utf-8") as f:
        f.write('\non board mine { reserve "Pit Warden" { fight 1; defeat: +2 gold } }\n')
    (tmp_path / "p" / "scenarios" / "x.clank").write_text(
        'scenario "x" {\n  board mine\n  player 1 { gold 0; hand Spear }\n  play Spear\n'
        '  fight "Pit Warden"\n  expect player 1 gold 2\n}\n',
        encoding="utf-8",
    )
    result = compile_pack(tmp_path / "p")
    assert result.ok, result.diagnostics
    scenarios, diags, _ = compile_scenarios(tmp_path / "p", result.ir)
    assert not diags, [d.message for d in diags]
    (sc,) = [s for s in scenarios if s["name"] == "x"]
    outcome = run_one(result.ir, sc, {})
    assert outcome.ok, [f.message for f in outcome.failures]


def test_default_board_names_the_board_a_game_plays_when_none_is_named(tmp_path: Path) -> None:
    """An extension lists its base's boards first, so its own board was never the default;
    `default board NAME` puts NAME first, and an unknown name is CW107 with did-you-mean."""
    pack = tmp_path / "ext"
    pack.mkdir()
    own = "board cave { space HQ { hq }; space Deep { artifact 10 }; path HQ -- Deep }\n"
    (pack / "pack.clank").write_text(
        'pack ext { version "0.1.0"; extends clank }\n' + own, encoding="utf-8"
    )
    assert compile_pack(pack).ir["boards"][0]["name"] == "front"
    (pack / "pack.clank").write_text(
        'pack ext { version "0.1.0"; extends clank; default board cave }\n' + own,
        encoding="utf-8",
    )
    result = compile_pack(pack)
    assert [b["name"] for b in result.ir["boards"]][:2] == ["cave", "front"]
    assert prepare(result.ir, 0).board.spaces[0].name == "HQ"
    (pack / "pack.clank").write_text(
        'pack ext { version "0.1.0"; extends clank; default board caev }\n' + own,
        encoding="utf-8",
    )
    (bad,) = [d for d in compile_pack(pack).diagnostics if d.severity == "error"]
    assert bad.code == "CW107" and bad.hint == 'did you mean "cave"?'
