"""Tokens on paths and paths changed during a game (tests/fixtures/paths_and_triggers)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.interpreter.board import SHAPES_KEPT
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.restore import restore
from clankwork.interpreter.snapshot import encode_any, load_attributes
from clankwork.tools.play import position
from clankwork.tools.render_board import board_graph, board_in_play, render_graph
from clankwork.tools.replay import _path_changes, _paths

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "paths_and_triggers"


@pytest.fixture(scope="module")
def ir() -> dict[str, Any]:
    result = compile_pack(FIXTURE)
    assert result.ok, result.diagnostics
    return result.ir


def _game(ir: dict[str, Any], bot: str = "heuristic") -> Game:
    return Game(ir, [make_bot(bot, 0), make_bot(bot, 1)], 1)


def _path(g: Game, a: str, b: str) -> int:
    path = g.board.path_between(g.board.index[a], g.board.index[b])
    assert path is not None
    return path


def test_a_blocked_path_leaves_the_moves_and_the_distances(ir: dict[str, Any]) -> None:
    g = _game(ir)
    printed = g.board
    cellar, vault = g.board.index["Cellar"], g.board.index["Vault"]
    assert printed.dist[cellar][vault] == 1
    g.set_path(_path(g, "Cellar", "Vault"), True)
    assert g.board is not printed and g.board.base is printed.base
    assert vault not in [m.to for m in g.board.moves[cellar]]
    assert g.board.dist[cellar][vault] == 3  # back through Hall and Tower
    g.set_path(_path(g, "Cellar", "Vault"), False)
    assert g.board is printed


def test_the_heuristic_bot_routes_around_a_blocked_path(ir: dict[str, Any]) -> None:
    g = _game(ir)
    p = g.players[0]
    bot = g.bots[0]
    cellar, vault, hall = (g.board.index[s] for s in ("Cellar", "Vault", "Hall"))
    p.pos = cellar
    bot._begin(g, p)
    assert bot.routes.step[vault][cellar].to == vault
    g.set_path(_path(g, "Cellar", "Vault"), True)
    bot._begin(g, p)  # the same turn: the changed board is read at once
    assert bot.routes.step[vault][cellar].to == hall


def test_the_heuristic_bot_takes_an_added_path(ir: dict[str, Any]) -> None:
    g = _game(ir)
    p = g.players[0]
    bot = g.bots[0]
    hall, vault = g.board.index["Hall"], g.board.index["Vault"]
    p.pos = hall
    bot._begin(g, p)
    assert bot.routes.step[vault][hall].to != vault
    g.add_path(hall, vault, 1)
    bot._begin(g, p)
    assert bot.routes.step[vault][hall].to == vault


def test_path_changes_survive_a_clone_and_a_snapshot(ir: dict[str, Any]) -> None:
    g = _game(ir)
    hall, vault = g.board.index["Hall"], g.board.index["Vault"]
    g.set_path(_path(g, "Hall", "Cellar"), True)
    g.add_path(hall, vault, 2)
    g.place_on_path(_path(g, "Hall", "Tower"), "Web")
    bots = [make_bot("heuristic", 0), make_bot("heuristic", 1)]
    for copy in (g.clone(), restore(g.catalog, g.snapshot(), bots)):
        assert copy.closed_paths == g.closed_paths
        assert copy.added_paths == [[hall, vault, 2]]
        assert [t.name for t in copy.path_tokens[_path(g, "Hall", "Tower")]] == ["Web"]
        assert copy.board is g.board  # the same shape: the same shared board
        assert vault in [m.to for m in copy.board.moves[hall]]


def test_a_web_on_a_random_tunnel_lies_on_an_open_path(ir: dict[str, Any]) -> None:
    g = _game(ir)
    g.set_path(_path(g, "Hall", "Cellar"), True)
    node = compile_text("card X { cost 1; play: place a Web on a random tunnel }", "t.clank")
    (effect,) = node.ir["cards"][0]["triggers"][0]["effects"]
    assert effect["where"] == "random"
    for _ in range(5):
        g.place_on_path(g.pick_path(g.players[0], "random"), "Web")
    assert g.path_tokens
    for path in g.path_tokens:
        assert path not in g.closed_paths and g.board.ends(path) is not None


def test_bots_finish_games_with_path_cards(ir: dict[str, Any]) -> None:
    for bot in ("random", "greedy", "heuristic"):
        g = _game(ir, bot)
        g.play()
        assert g.over


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        ("place a Spike on the tunnel between Hal and Cellar", "space 'Hal'", '"Hall"'),
        ("block the tunnel between HQ and Vault", "no path of a board joins", "path A -- B"),
        ("place a Spik on a tunnel next to you", "places on a path 'Spik'", '"spike"'),
        ("add a tunnel between Hall and Vaul", "space 'Vaul'", '"Vault"'),
    ],
)
def test_a_path_effect_naming_what_the_pack_lacks_is_cw107(
    line: str, message: str, hint: str
) -> None:
    src = (
        "token Spike { token 2 }\n"
        f"card X {{ cost 1; play: {line} }}\n"
        "board b {\n space HQ { hq }\n space Hall\n space Cellar\n space Vault { artifact 10 }\n"
        " path HQ -- Hall\n path Hall -- Cellar\n path Cellar -- Vault\n}\n"
    )
    result = compile_text(src, "t.clank")
    found = [d for d in result.diagnostics if d.code == "CW107"]
    assert found, result.diagnostics
    (d,) = found
    assert message in d.message and hint in (d.hint or "")
    assert d.span is not None and d.span.line == 2


def test_replay_narration_play_and_the_board_svg_show_path_changes(ir: dict[str, Any]) -> None:
    g = _game(ir)
    hall, vault = g.board.index["Hall"], g.board.index["Vault"]
    before = _paths(g)
    g.set_path(_path(g, "Hall", "Cellar"), True)
    g.add_path(hall, vault, 1)
    g.place_on_path(_path(g, "Hall", "Tower"), "Web")
    told = _path_changes(g, before)
    assert told == ["blocks Hall -- Cellar", "adds a tunnel Hall -- Vault", "Web on Hall -- Tower"]
    g.players[0].pos = hall
    shown = position(g, 0, {c["name"]: c for c in ir["cards"]})
    assert (
        "Paths: Hall -- Cellar blocked; Hall -- Vault added; Thorns on Vault -- Crypt; "
        "Web on Hall -- Tower" in shown
    )
    assert "-> Tower (2 boots)  [Web on the path]" in shown
    svg = render_graph(board_graph(board_in_play(g)), "svg").decode()
    assert "blocked" in svg and "Web" in svg and svg.count('class="edge"') == 7


_BOARD = (
    "token Relic { artifact; points 10 }\ntoken Web { token 3 }\n"
    "board b {\n space HQ { hq }\n space Hall\n space Cellar { artifact 10 }\n"
    " path HQ -- Hall\n path Hall -- Cellar\n}\n"
)


@pytest.mark.parametrize(
    ("line", "op", "where"),
    [
        ("place a Web on a tunnel next to you", "place_on_path", "adjacent"),
        ("place a Web token on a tunnel adjacent to your space", "place_on_path", "adjacent"),
        ("put a web on an adjacent tunnel", "place_on_path", "adjacent"),
        ("place a Web on the tunnel you just moved through", "place_on_path", "crossed"),
        ("put Web on a random path", "place_on_path", "random"),
        ("place a Web on the path between Hall and Cellar", "place_on_path", "between"),
        ("block the tunnel you just used", "block_path", "crossed"),
        ("close the tunnel between Hall and Cellar", "block_path", "between"),
        ("open the tunnel between Hall and Cellar", "open_path", "between"),
        ("add a path from HQ to Cellar", "add_path", None),
        ("connect HQ and Cellar with a tunnel", "add_path", None),
    ],
)
def test_natural_wordings_of_path_effects_compile(line: str, op: str, where: str | None) -> None:
    result = compile_text(_BOARD + f"card X {{ cost 1; play: {line} }}\n", "t.clank")
    assert result.ok, result.diagnostics
    (node,) = result.ir["cards"][0]["triggers"][0]["effects"]
    assert node["op"] == op and node.get("where") == where


@pytest.mark.parametrize(
    ("props", "crossed", "extra"),
    [
        ("removed when crossed; extra boots 1", "removed", 1),
        ("discarded when crossed; crossing costs 2 extra boots", "removed", 2),
        ("taken when crossed; when a player crosses this: take 1 damage", "taken", None),
        ("when crossed: +1 clank", None, None),
    ],
)
def test_token_on_path_properties(props: str, crossed: str | None, extra: int | None) -> None:
    result = compile_text(_BOARD + f"token Net {{ token 2; {props} }}\n", "t.clank")
    assert result.ok, result.diagnostics
    (net,) = [t for t in result.ir["tokens"] if t["name"] == "Net"]
    assert net.get("crossed") == crossed and net.get("extra_boots") == extra


def test_a_switch_is_state_that_survives_a_snapshot_and_is_narrated(ir: dict[str, Any]) -> None:
    cat = prepare(ir, "pivots")
    g = Game(cat, [make_bot("heuristic", 0), make_bot("heuristic", 1)], 1)
    pivot, north, south = (g.board.index[s] for s in ("Pivot", "North", "South"))
    assert [m.to for m in g.board.moves[pivot]] == [g.board.index["HQ"], north]
    before = _paths(g)
    g.turn_switch("dial")
    assert _path_changes(g, before) == ["turns switch dial to 2"]
    assert [m.to for m in g.board.moves[pivot]] == [g.board.index["HQ"], south]
    back = restore(cat, g.snapshot(), [make_bot("random", 0), make_bot("random", 1)])
    assert back.switches == {"dial": 2} and back.board is g.board
    g.turn_switch("dial")  # after the last state, the first
    assert g.switches == {"dial": 1}
    svg = render_graph(board_graph(board_in_play(back)), "svg").decode()
    assert "switch dial: 1" in svg and "blocked" in svg


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("turn switch dail", "switch 'dail', which no path of a board has"),
        ("set switch dial to 3", "state 3 of switch 'dial', which has states 1 to 2"),
        ("if switch dail is 1 (+1 gold)", "switch 'dail'"),
    ],
)
def test_a_switch_the_board_lacks_is_cw107(line: str, message: str) -> None:
    src = (
        "token Relic { artifact; points 10 }\n"
        f"card X {{ cost 1; play: {line} }}\n"
        "board b {\n space HQ { hq }\n space A\n space B { artifact 10 }\n"
        " path HQ -- A { switch dial 1 }\n path HQ -- B { switch dial 2 }\n path A -- B\n}\n"
    )
    result = compile_text(src, "t.clank")
    (d,) = [d for d in result.diagnostics if d.code == "CW107"]
    assert message in d.message
    assert d.span is not None and d.span.line == 2


def test_the_boards_of_changed_shapes_kept_are_bounded(ir: dict[str, Any]) -> None:
    g = _game(ir)
    base = g.board.base
    for k in range(SHAPES_KEPT + 10):
        g.add_path(g.board.index["HQ"], g.board.index["Vault"], 1 + k % 3)
    assert len(base._shapes) == SHAPES_KEPT
    assert g.board is base._shapes[next(reversed(base._shapes))]


def test_a_bot_holding_a_move_along_an_added_path_is_restored(ir: dict[str, Any]) -> None:
    # A bot's carried state (a mid-turn snapshot) may name a move along a path the game
    # added; it is read on the game's board as changed, not on the printed one.
    g = _game(ir)
    hall, vault = g.board.index["Hall"], g.board.index["Vault"]
    g.add_path(hall, vault, 1)
    move = next(m for m in g.board.moves[hall] if m.to == vault)
    back = restore(g.catalog, g.snapshot(mid_turn=True), [make_bot("random", 0)] * 2)
    holder = SimpleNamespace()
    load_attributes(holder, back, {"step": encode_any(move)})
    assert holder.step == move
