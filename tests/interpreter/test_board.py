"""The board graph and its hot-loop tables."""

from __future__ import annotations

import pytest

from clankwork.interpreter.board import UNREACHABLE, Board


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
