"""The board graph and its hot-loop tables."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter import board as board_module
from clankwork.interpreter.board import UNREACHABLE, Board
from clankwork.interpreter.catalog import prepare

ROOT = Path(__file__).resolve().parents[2]


def _path(a, b, **kw):
    return {
        "from": a,
        "to": b,
        "oneway": kw.get("oneway", False),
        "boots": kw.get("boots", 1),
        "monsters": kw.get("monsters", 0),
        "requires": kw.get("requires", []),
        "features": [],
    }


def _space(name, *features, **kw):
    return {
        "name": name,
        "features": list(features),
        "exhausts": False,
        "triggers": [],
        "holds": [],
        **kw,
    }


@pytest.fixture()
def small() -> Board:
    return Board(
        {
            "name": "small",
            "spaces": [
                _space("HQ", "hq"),
                _space("A"),
                _space("B"),
                _space("C", artifact=5),
                _space("Lake"),
            ],
            "paths": [
                _path("HQ", "A"),
                _path("A", "B", boots=2, monsters=1),
                _path("A", "B"),  # a parallel, cheaper path
                _path("B", "C", oneway=True),
                _path("C", "A", oneway=True, boots=3),
                _path("A", "Lake", requires=["canoe"]),
                _path("Lake", None, oneway=True, boots=2),  # a dead end
            ],
            "groups": [],
        }
    )


def test_two_way_paths_are_two_edges_one_way_paths_one(small: Board) -> None:
    g = small.graph
    assert g.number_of_edges("HQ", "A") == 1 and g.number_of_edges("A", "HQ") == 1
    assert g.number_of_edges("A", "B") == 2 and g.number_of_edges("B", "A") == 2
    assert g.number_of_edges("B", "C") == 1 and g.number_of_edges("C", "B") == 0
    # 2 + 4 + 1 + 1 + 2 edges; the dead end is data, not an edge
    assert g.number_of_edges() == 10
    assert [p["from"] for p in small.dead_ends] == ["Lake"]
    assert g.edges["A", "B", 1]["monsters"] == 1
    assert g.edges["A", "Lake", 5]["requires"] == ("canoe",)


def test_move_tables(small: Board) -> None:
    a = small.index["A"]
    moves = {(small.spaces[m.to].name, m.boots, m.monsters, m.requires) for m in small.moves[a]}
    assert moves == {
        ("HQ", 1, 0, ()),
        ("B", 2, 1, ()),
        ("B", 1, 0, ()),
        ("Lake", 1, 0, ("canoe",)),
    }
    c = small.index["C"]
    assert [small.spaces[m.to].name for m in small.moves[c]] == ["A"]
    # Teleports ignore arrows: C is adjacent to B although the path runs B -> C only.
    assert small.index["B"] in small.adjacent[c]
    assert small.index["C"] in small.adjacent[small.index["B"]]


def test_distances_respect_arrows_costs_and_requirements(small: Board) -> None:
    i = small.index
    assert small.dist[i["HQ"]][i["B"]] == 2  # the cheap parallel path
    assert small.dist[i["HQ"]][i["C"]] == 3
    assert small.dist[i["C"]][i["HQ"]] == 4  # back along the one-way, 3 boots
    assert small.dist[i["HQ"]][i["Lake"]] == UNREACHABLE  # needs a canoe
    assert small.dist_any[i["HQ"]][i["Lake"]] == 2
    assert small.dist_to_hq[i["C"]] == 4
    assert small.hq == i["HQ"]
    assert small.artifact_spaces == (i["C"],)


def test_board_needs_one_hq() -> None:
    with pytest.raises(ValueError, match="HQ"):
        Board({"name": "x", "spaces": [_space("A")], "paths": [], "groups": []})


def test_tutorial_board(tutorial_ir: dict) -> None:
    b = Board(tutorial_ir["boards"][0])
    assert len(b.spaces) == 16
    i = b.index
    assert b.dist[i["HQ"]][i["Dragon's Maw"]] == 6
    # Back through Deep Hollow (the two-way monster path, not the 2-boot one-way), Crossroads,
    # Bramblecrest, Mossy Path and Gatehouse.
    assert b.dist_to_hq[i["Dragon's Maw"]] == 6
    assert b.dist[i["Ankh Vault"]][i["Dragon's Maw"]] == 1
    assert b.dist[i["Dragon's Maw"]][i["Ankh Vault"]] == 3  # against the arrow: the long way
    assert b.dist[i["Lookout"]][i["Old Bridge"]] == 3  # only via Fisher's Rest (2 + 1)
    assert b.dist[i["Fisher's Rest"]][i["Mirror Lake"]] == 2  # round the water, via Lakeshore
    assert b.dist_any[i["Fisher's Rest"]][i["Mirror Lake"]] == 1
    assert sorted(b.spaces[s].name for s in b.coach_spaces) == ["Bramblecrest", "Lakeshore"]
    assert len(b.dead_ends) == 1


def test_prepare_names_the_boards_when_asked_for_one_it_lacks(tutorial_ir: dict) -> None:
    from clankwork.interpreter.catalog import prepare

    name = tutorial_ir["boards"][0]["name"]
    assert prepare(tutorial_ir, board=0).board.name == name
    for board in (1, -1, True):
        with pytest.raises(ValueError, match=rf"no board {board!r} \(its boards: 0 {name}\)"):
            prepare(tutorial_ir, board=board)


def _all_pairs(board: Board, allow_requirements: bool) -> list[list[int]]:
    """The distance table as it was once worked out, all pairs at setup with networkx."""
    g = nx.DiGraph()
    g.add_nodes_from(range(len(board.spaces)))
    for i, moves in enumerate(board.moves):
        for m in moves:
            if (m.requires and not allow_requirements) or m.way.paid_in != "boots":
                continue
            if not g.has_edge(i, m.to) or g[i][m.to]["w"] > m.boots:
                g.add_edge(i, m.to, w=m.boots)
    table = [[UNREACHABLE] * len(board.spaces) for _ in board.spaces]
    for src, lengths in nx.all_pairs_dijkstra_path_length(g, weight="w"):
        for dst, d in lengths.items():
            table[src][dst] = d
    return table


@pytest.mark.parametrize(
    "pack", ["content/tutorial", "content/acqinc", "content/clank", "tests/fixtures/ways"]
)
def test_distances_are_worked_out_a_row_at_a_time_as_read(pack: str, monkeypatch) -> None:
    """Setup works out no distance (a board of thousands of spaces would take minutes for all
    pairs); each row read is the all-pairs figure, and past ROW_CELLS cells the oldest rows
    are dropped and worked out again, the same, when read again."""
    result = compile_pack(ROOT / pack)
    assert result.ok, result.diagnostics
    monkeypatch.setattr(board_module, "ROW_CELLS", 5 * len(result.ir["boards"][0]["spaces"]))
    board = prepare(result.ir).board
    assert len(board.dist) == 0 and len(board.dist_any) == 0
    n = len(board.spaces)
    for table, allow in ((board.dist, False), (board.dist_any, True)):
        expected = _all_pairs(board, allow)
        for _ in range(2):
            assert [table[a] for a in range(n)] == expected
            assert len(table) == 5
    assert board.dist_to_hq == [row[board.hq] for row in _all_pairs(board, False)]
    with pytest.raises(IndexError, match="no space"):
        board.dist[n]
