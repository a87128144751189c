"""A modular board assembled per game: the same seed gives the same ship, `--modules` and a
scenario choose one, a plain board draws nothing, snapshots and logs keep the ship, and the
renderer outlines each placed module."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter import restore as resuming
from clankwork.interpreter import snapshot as snap
from clankwork.interpreter.assembly import assemble, label, parse_assembly
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import replay
from clankwork.tools.cli import main
from clankwork.tools.render_board import board_graph

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "modules"


@cache
def _ir(path: Path = FIXTURE) -> dict[str, Any]:
    result = compile_pack(path)
    assert result.ok, result.diagnostics
    return result.ir


@cache
def _catalog() -> Catalog:
    return prepare(_ir())


def _bots(n: int = 2) -> list[Any]:
    return [make_bot("heuristic", 5 + k) for k in range(n)]


def _ship(game: Game) -> list[str]:
    return sorted(s.name for s in game.board.spaces)


def test_the_same_seed_gives_the_same_ship() -> None:
    cat = _catalog()
    for seed in range(6):
        a, b = Game(cat, _bots(), seed), Game(cat, _bots(), seed)
        assert a.assembly == b.assembly and a.assembly
        assert _ship(a) == _ship(b)
        assert a.log[0]["modules"] == b.log[0]["modules"]
    # Seeds draw different ships (the fixture allows 48).
    assert len({json.dumps(Game(cat, _bots(), s).assembly) for s in range(12)}) > 3


def test_the_ship_is_the_assembly_the_log_header_names() -> None:
    game = Game(_catalog(), _bots(), 3)
    header = game.log[0]["modules"]
    placed = {s.name for s in game.board.spaces}
    sides = {(m["name"], s["name"]): s for m in _ir()["boards"][0]["modules"] for s in m["sides"]}
    for pos, module, side in game.assembly:
        assert pos in ("dock", "hall", "vault") or f"{pos}=" in header
        assert set(sides[(module, side)]["points"].values()) <= placed


def test_modules_choose_the_ship() -> None:
    game = Game(_catalog(), _bots(), 1, modules="left=Drill, right=Archive")
    assert ["left", "Barracks", "Drill"] in game.assembly
    assert ["right", "Library", "Archive"] in game.assembly
    assert "Drill Tower" in _ship(game) and "Orchard Gate" not in _ship(game)
    assert game.log[0]["modules"] == "left=Drill, right=Archive"
    # Unnamed free positions take their first choice still free; positions in order.
    board = _ir()["boards"][0]
    got, problem = parse_assembly(board, "Foundry")
    assert problem is None and got is not None
    assert label(board, got) == "left=Foundry, right=Orchard"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("left=Nothing", "cannot take 'Nothing'"),
        ("aft=Drill", "'aft' is not a position"),
        ("left=Drill, right=Bunks", "only one position"),
        ("Drill, Bunks, Orchard", "already chosen"),
    ],
)
def test_a_choice_that_fits_no_position_is_refused(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Game(_catalog(), _bots(), 1, modules=text)


def test_a_plain_board_draws_nothing_and_names_no_modules() -> None:
    ir = _ir(ROOT / "content" / "tutorial")
    game = Game(prepare(ir), _bots(), 11)
    assert game.assembly == [] and "modules" not in game.log[0]
    with pytest.raises(ValueError, match="no modules"):
        Game(prepare(ir), _bots(), 11, modules="1=Hydroponics")


def test_a_game_on_every_kind_of_ship_ends() -> None:
    cat = _catalog()
    for text in ("left=Orchard, right=Drill", "left=Archive, right=Foundry"):
        result = Game(cat, _bots(), 2, modules=text).play()
        assert result is not None and len(result.scores) == 2


def test_a_snapshot_restores_onto_the_same_ship() -> None:
    cat = _catalog()
    taken: list[dict[str, Any]] = []

    def after(game: Game) -> None:
        if game.turn == 5:
            taken.append(json.loads(json.dumps(snap.snapshot(game))))

    ref = Game(cat, _bots(), 9, modules="left=Bunks, right=Smithy")
    result = ref.play(after_turn=after)
    (data,) = taken
    assert ["left", "Barracks", "Bunks"] in data["state"]["assembly"]
    game, again = resuming.resume(cat, data, _bots())
    assert game.assembly == ref.assembly
    assert _ship(game) == _ship(ref)
    assert again.scores == result.scores and game.log == ref.log
    # A snapshot of a randomly drawn ship, restored on a fresh catalog, keeps it too.
    drawn = Game(cat, _bots(), 21)
    restored = resuming.restore(
        prepare(_ir()), json.loads(json.dumps(snap.snapshot(drawn))), _bots()
    )
    assert restored.assembly == drawn.assembly and _ship(restored) == _ship(drawn)
    assert snap.fingerprint(restored) == snap.fingerprint(drawn)


def test_a_snapshot_without_its_assembly_is_refused() -> None:
    data = json.loads(json.dumps(snap.snapshot(Game(_catalog(), _bots(), 4))))
    data["state"]["assembly"] = []
    with pytest.raises(ValueError, match="no assembly"):
        resuming.restore(_catalog(), data, _bots())


def test_a_log_replays_on_its_ship() -> None:
    game = Game(_catalog(), _bots(), 6, modules="left=Greenhouse, right=Stacks")
    game.play()
    again = replay(_catalog(), game.log)
    assert again.assembly == game.assembly and again.log == game.log


def test_render_outlines_each_placed_module() -> None:
    board = _ir()["boards"][0]
    chosen, _ = parse_assembly(board, "left=Drill, right=Orchard")
    assert chosen is not None
    source = board_graph(assemble(board, chosen)).source
    assert source.count("subgraph cluster_") == 5
    for name, pos in (
        ("Dock", "dock"),
        ("Hall", "hall"),
        ("Vault", "vault"),
        ("Drill", "left"),
        ("Orchard", "right"),
    ):
        assert f"<B>{name}</B> <I>(module at {pos})</I>" in source
    assert "Smithy" not in source


def test_render_board_cli_draws_the_chosen_assembly(tmp_path: Path) -> None:
    out = tmp_path / "ship.dot"
    runner = CliRunner()
    got = runner.invoke(
        main, ["render", "board", str(FIXTURE), "-o", str(out), "--modules", "right=Foundry"]
    )
    assert got.exit_code == 0, got.output
    text = out.read_text()
    assert "Foundry" in text and "module at right" in text and "Orchard" in text
    bad = runner.invoke(main, ["render", "board", str(FIXTURE), "-o", str(out), "--modules", "x=y"])
    assert bad.exit_code == 2 and "not a position" in bad.output


def test_render_board_draws_the_space_ship_with_its_outlines_and_lifts(tmp_path: Path) -> None:
    out = tmp_path / "ship.dot"
    got = CliRunner().invoke(
        main,
        [
            "render",
            "board",
            str(ROOT / "content" / "space"),
            "-o",
            str(out),
            "--modules",
            "1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab",
        ],
    )
    assert got.exit_code == 0, got.output
    text = out.read_text()
    assert text.count("subgraph cluster_") == 6
    for name, pos in (("Cargo Bay", "cargo"), ("Command", "command"), ("Med Lab", "3")):
        assert f"<B>{name}</B> <I>(module at {pos})</I>" in text
    # The ways that join a feature's spaces are dashed lines through them, named once.
    assert text.count("label=hyperlift") == 1 and text.count("label=telepad") == 1
    assert text.count("style=dashed") == 3 + 3  # 4 lift spaces, 4 telepads on this ship


def test_simulate_plays_the_space_pack_with_chosen_modules() -> None:
    got = CliRunner().invoke(
        main,
        [
            "simulate",
            str(ROOT / "content" / "space"),
            "--games",
            "2",
            "--players",
            "2",
            "--modules",
            "1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab",
        ],
    )
    assert got.exit_code == 0, got.output
    assert "capped games                 0" in got.output


def test_a_scenario_naming_a_room_not_on_its_ship_fails_with_a_message(tmp_path) -> None:
    import shutil

    from click.testing import CliRunner

    from clankwork.tools.cli import main

    pack = tmp_path / "space"
    shutil.copytree(Path(__file__).resolve().parents[2] / "content" / "space", pack)
    (pack / "scenarios" / "elsewhere.clank").write_text(
        'scenario "another side" {\n  modules "1=Crew Quarters"\n  player 1 { at "Seed Bank" }\n}\n'
    )
    result = CliRunner().invoke(main, ["test", str(pack)])
    assert result.exit_code == 1, result.output
    # Found when the scenario compiles, at the line naming the room (`clankwork check` too).
    assert "error[CW142]: space 'Seed Bank' is on a module side" in result.output
    assert "elsewhere.clank:3:" in result.output
