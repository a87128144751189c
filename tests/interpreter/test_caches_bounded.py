"""What a long run keeps from game to game stays bounded, and changes no game.

Space assembles a new ship each game, and a process that played it kept every ship's board
and the heuristic bot's route tables for each: its memory grew with the games played (80 MiB
after 10 games, 281 MiB after 640). The boards a catalog keeps, the boards the bots keep
tables for and the effect lists they remember readings of are now bounded, and a route table
dropped is freed at once. The figures are in benchmarks/bench_memory.py; here, the mechanism.
"""

from __future__ import annotations

import gc
import weakref
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter import bot_routes, bot_values, catalog
from clankwork.interpreter.assembly import assemblies
from clankwork.interpreter.bot_routes import _board_info, _Routes
from clankwork.interpreter.bot_values import _reading_of
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import to_jsonl
from clankwork.tools.simulate import bot_seed, game_seeds

ROOT = Path(__file__).resolve().parents[2]


@cache
def _ir(pack: str) -> dict[str, Any]:
    result = compile_pack(ROOT / "content" / pack)
    assert result.ok, result.diagnostics
    return result.ir


def _space() -> Catalog:
    return prepare(_ir("space"))  # a catalog of its own: the tests count its boards


def _game(cat: Catalog, seed: int, players: int = 2) -> Game:
    return Game(cat, [make_bot("heuristic", bot_seed(seed, k)) for k in range(players)], seed)


def test_a_catalog_keeps_the_boards_of_the_last_assemblies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "ASSEMBLIES_KEPT", 3)
    cat = _space()
    ships = list(assemblies(cat.modular, 10))
    boards = [cat.board_for(a) for a in ships]
    assert len(cat.assembled) == 3
    assert cat.board_for(ships[-1]) is boards[-1]  # kept: the same board
    again = cat.board_for(ships[0])  # dropped: built again, the same spaces
    assert again is not boards[0]
    assert [s.name for s in again.spaces] == [s.name for s in boards[0].spaces]
    assert len(cat.assembled) == 3


def test_the_bots_keep_the_tables_of_the_last_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_routes, "BOARDS_KEPT", 2)
    monkeypatch.setattr(bot_routes, "_INFO", OrderedDict())
    cat = _space()
    games = [_game(cat, s) for s in range(1, 9)]
    assert len({id(g.board) for g in games}) > 2  # the seeds draw different ships
    infos = [_board_info(g) for g in games]
    assert len(bot_routes._INFO) == 2
    assert _board_info(games[-1]) is infos[-1]
    assert [board for board, _ in bot_routes._INFO] == [games[-2].board, games[-1].board]


def test_a_ship_played_again_finds_the_bots_tables_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots keep the tables of as many boards as the catalog keeps ships: a ship that
    comes back in a long run (Space has 48) is the same board, and its route tables are not
    worked out again (they were, past the last 8 boards: most of Space's games)."""
    monkeypatch.setattr(bot_routes, "_INFO", OrderedDict())
    cat = _space()
    games = [_game(cat, s) for s in range(1, 40)]
    first = games[0].board
    others = {id(g.board) for g in games[1:] if g.board is not first}
    assert len(others) > 8  # more ships met since than the bots used to keep
    info = _board_info(games[0])
    for g in games[1:]:
        _board_info(g)
    assert _board_info(games[0]) is info
    assert bot_routes.BOARDS_KEPT >= catalog.ASSEMBLIES_KEPT


def test_a_dropped_route_table_is_freed_at_once() -> None:
    board = _space().board
    routes = _Routes(board, frozenset({"command code"}), 1.0)
    assert routes.cost[board.hq][board.hq] == 0.0  # a row found, with its siblings
    assert routes.walk[board.hq] and routes.step[board.hq] and routes.icons[board.hq]
    dropped = weakref.ref(routes)
    gc.disable()  # no cycle collector: reference counting alone must free it
    try:
        del routes
        assert dropped() is None
    finally:
        gc.enable()


def test_readings_of_new_lists_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_values, "READINGS_KEPT", 5)
    monkeypatch.setattr(bot_values, "_READINGS", {})
    first = _reading_of([{"op": "gain", "resource": "skill", "amount": 2}])
    for k in range(20):
        _reading_of([{"op": "gain", "resource": "boots", "amount": k + 1}])
        assert len(bot_values._READINGS) <= 5
    again = _reading_of([{"op": "gain", "resource": "skill", "amount": 2}])
    assert (again.profile, again.terms) == (first.profile, first.terms)


def test_caches_kept_or_dropped_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    def logs() -> list[str]:
        cat = _space()
        out = []
        for seed in game_seeds(2, 4):
            game = _game(cat, seed, 3)
            game.play()
            out.append(to_jsonl(game.log))
        return out

    kept = logs()
    # Everything dropped as soon as it can be: every board, table and reading made again.
    monkeypatch.setattr(catalog, "ASSEMBLIES_KEPT", 1)
    monkeypatch.setattr(bot_routes, "BOARDS_KEPT", 1)
    monkeypatch.setattr(bot_values, "READINGS_KEPT", 1)
    monkeypatch.setattr(bot_routes, "_INFO", OrderedDict())
    monkeypatch.setattr(bot_values, "_READINGS", {})
    assert logs() == kept
