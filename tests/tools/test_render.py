"""`clankwork render board|cards`: what a player must see is drawn, and goldens stay put.

Golden files live in tests/tools/golden/. After a reviewed change to the drawings, regenerate
them with:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/tools/test_render.py

The board golden is the DOT source (not Graphviz's SVG, which changes with its version); the
card goldens are the SVG text itself, which Clankwork writes.
"""

from __future__ import annotations

import copy
import importlib.resources
import math
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import golden_files
import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.tools.render import render
from clankwork.tools.render_board import (
    HEAT,
    HEAT_NONE,
    Heatmap,
    board_graph,
    heat_bin,
    heat_ranges,
    load_heatmap,
    path_parts,
    render_graph,
    space_lines,
)
from clankwork.tools.render_cards import (
    BANNERS,
    CARD_H,
    CARD_W,
    Run,
    card_filename,
    card_rules,
    card_svg,
    sheet_html,
    text_width,
    wrap_runs,
    write_cards,
)
from clankwork.tools.symbols import SYMBOLS

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"
GOLDEN_CARDS = ("Freelance Cleric", "The Duke", "Ogre")
needs_graphviz = pytest.mark.skipif(
    shutil.which("dot") is None or shutil.which("neato") is None,
    reason="Graphviz's dot/neato binaries are not installed (apt-get install graphviz)",
)

# A board with what the tutorial lacks: groups, no positions, requirements, a waypoint,
# a crystal cave, a free-form feature, parallel paths; and cards of every banner kind.
FIXTURE_MANIFEST = """
pack fixture { version "0.0.1" }
include "board.clank"
event "Overlord Shows Up" { arrive: each player (+1 clank) }
monster Grue { fight 5; only in crystal cave; defeat: +2 gold }
reserve Lantern { copies 3; cost 2; companion; play: +1 skill }
card Pickpocket { starting 10; play: +1 gold }
token Relic { artifact; points 5 }
token "Mystic Fruit" { fruit 1 }
card "Wordy Scroll" {
  cost 2; points 1 per 5 gold; dragon attack; danger
  play: +1 skill, +1 boots, +1 swords, +1 gold, draw 1, heal 1, choose one (+1 gold | heal 1 |
    draw 1), each opponent (+1 clank), may discard 1 card -> draw 2
  play if another companion in play: +1 skill, +1 boots, +1 swords, +1 gold, draw 1
  acquire: +2 gold, +2 skill, +2 swords, draw 2, heal 2, choose one (+1 gold | heal 1 | draw 1)
  play if you have an artifact: teleport
}
"""
FIXTURE_BOARD = """
board caverns {
  space Entrance { hq }
  module "Engine Room" {
    space Boiler { crystal cave; waypoint 17; reward fruit }
    space Pump { feature hyperlift; coach 0; reward heal 1 }
  }
  group Tunnels {
    space Shaft { security checkpoint; reward draw 1 }
  }
  path Entrance -- Boiler { requires rope }
  path Boiler -- Pump { lock }
  path Pump -> Shaft { mountain; boots 3 }
  path Entrance -- Shaft
  path Entrance -- Shaft { monsters 2 }
  dead end Shaft
}
"""


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with golden file ``name``; rewrite it when UPDATE_GOLDEN=1."""
    path = GOLDEN / name
    if golden_files.updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: UPDATE_GOLDEN=1 pytest {__file__}"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (
        f"{name} differs from its golden file; if the change is intended, review it and run "
        "UPDATE_GOLDEN=1 .venv/bin/pytest tests/tools/test_render.py"
    )


@pytest.fixture(scope="module")
def tutorial() -> dict[str, Any]:
    """The bundled tutorial pack's IR."""
    with importlib.resources.as_file(
        importlib.resources.files("clankwork.content") / "tutorial"
    ) as pack:
        result = compile_pack(pack)
    assert result.ok, result.diagnostics
    return result.ir


@pytest.fixture(scope="module")
def overworld(tutorial: dict[str, Any]) -> dict[str, Any]:
    """The tutorial's only board."""
    return tutorial["boards"][0]


@pytest.fixture
def fixture_pack(tmp_path: Path) -> Path:
    """A pack folder with the grouped, unpositioned board and the odd cards above."""
    pack = tmp_path / "fixture"
    pack.mkdir()
    (pack / "pack.clank").write_text(FIXTURE_MANIFEST, encoding="utf-8")
    (pack / "board.clank").write_text(FIXTURE_BOARD, encoding="utf-8")
    return pack


@pytest.fixture
def fixture_ir(fixture_pack: Path) -> dict[str, Any]:
    """The fixture pack's IR."""
    result = compile_pack(fixture_pack)
    assert result.ok, result.diagnostics
    return result.ir


def svg_texts(svg: bytes | str) -> list[str]:
    """Every text element's content (tspans joined), parsed as XML."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def plain_nodes(graph: Any) -> dict[str, tuple[float, float, float, float]]:
    """Node id -> (x, y, width, height) in inches, from Graphviz's `plain` output."""
    out = {}
    for line in render_graph(graph, "plain").decode().splitlines():
        parts = line.split()
        if parts and parts[0] == "node":
            out[parts[1]] = tuple(float(v) for v in parts[2:6])
    return out


# --- board ---------------------------------------------------------------------------------


def test_board_dot_matches_golden(overworld: dict[str, Any]) -> None:
    check_golden("tutorial-overworld.dot", board_graph(overworld).source)


def test_space_details_show_rewards_coach_artifact(overworld: dict[str, Any]) -> None:
    by_name = {s["name"]: s for s in overworld["spaces"]}

    def texts(name: str) -> list[str]:
        return [t for t, _c, _b in space_lines(by_name[name])]

    assert texts("Whispering Wood") == ["forest \u00b7 magic circle", "+2 gold"]
    assert texts("Bramblecrest") == ["town", "coach: 3 gold"]
    assert texts("Dragon's Maw") == ["danger zone", "major secret", "\u25c6 artifact 20"]
    assert texts("HQ") == []  # "HQ" is its name already


def test_path_parts_name_every_requirement() -> None:
    base = {"from": "A", "to": "B", "oneway": False, "boots": 1, "monsters": 0}
    water = {**base, "requires": ["canoe"], "features": ["water"]}
    assert path_parts(water) == [("\u2248 canoe", "#1f6fd1")]
    rope = {**base, "boots": 2, "monsters": 2, "requires": ["rope"], "features": []}
    assert [t for t, _c in path_parts(rope)] == ["2 boots", "\u2620\u2620", "needs rope"]
    dead = {**base, "to": None, "requires": [], "features": []}
    assert [t for t, _c in path_parts(dead)] == ["dead end"]


def test_path_parts_show_what_happens_on_a_path_and_what_lies_there() -> None:
    # `path A -- B { when you take this path: take Curse }` and `{ holds Moss }` were left off
    # the drawing: a player could not see them on the board.
    base = {"from": "A", "to": "B", "oneway": False, "boots": 1, "monsters": 0}
    effects = [{"op": "token", "token": "Curse"}]
    taken = {"on": "move_along_path", "effects": effects}
    path = {**base, "requires": [], "features": [], "triggers": [taken]}
    path["holds"] = [{"what": "moss", "n": 1}]
    assert [t for t, _c in path_parts(path)] == [
        "when taken: take Curse",
        "\u25cf holds 1 moss",
    ]


def test_pinned_positions_flip_y_and_keep_the_layout(overworld: dict[str, Any]) -> None:
    graph = board_graph(overworld, scale=1.0)
    assert graph.engine == "neato"
    pos = {
        m.group(1): (float(m.group(2)), float(m.group(3)))
        for m in re.finditer(r'\b(s\d+) \[[^\]]*?pos="([-\d.]+),([-\d.]+)!"', graph.source)
    }
    ids = {s["name"]: f"s{i}" for i, s in enumerate(overworld["spaces"])}
    assert len(pos) == len(ids)
    lowest = max(space["pos"][1] for space in overworld["spaces"])
    for space in overworld["spaces"]:
        x, y = pos[ids[space["name"]]]
        assert x == space["pos"][0]
        assert y == lowest - space["pos"][1]


@needs_graphviz
def test_rendered_layout_has_no_overlapping_spaces(overworld: dict[str, Any]) -> None:
    nodes = plain_nodes(board_graph(overworld))
    boxes = {k: v for k, v in nodes.items() if k.startswith("s")}
    assert len(boxes) == len(overworld["spaces"])
    names = sorted(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            ax, ay, aw, ah = boxes[a]
            bx, by, bw, bh = boxes[b]
            apart = abs(ax - bx) >= (aw + bw) / 2 or abs(ay - by) >= (ah + bh) / 2
            assert apart, f"{a} and {b} overlap"
    # The legend sits beside the board, clear of every space.
    lx, ly, lw, lh = nodes["legend"]
    for x, _y, w, _h in boxes.values():
        assert lx - lw / 2 > x + w / 2
    ids = {s["name"]: f"s{i}" for i, s in enumerate(overworld["spaces"])}
    hq, maw = boxes[ids["HQ"]], boxes[ids["Dragon's Maw"]]
    assert hq[1] > maw[1], "HQ (top of the printed board) is drawn above Dragon's Maw"


@needs_graphviz
def test_board_svg_shows_what_a_player_needs(overworld: dict[str, Any]) -> None:
    svg = render_graph(board_graph(overworld), "svg")
    texts = svg_texts(svg)
    joined = "\n".join(texts)
    for space in overworld["spaces"]:
        assert space["name"] in texts, space["name"]
    for needed in (
        "dead end",
        "\u2248 canoe",
        "\u2620",
        "\u2620\u2620",
        "coach: 3 gold",
        "coach: 5 gold",
        "\u25c6 artifact 20",
        "2 boots",
        "3 boots",
        "minor secret",
        "+2 gold",
        "one-way: only along the arrow",
        "water: only with a canoe",
    ):
        assert needed in joined, needed
    root = ET.fromstring(svg)
    edges = {
        e.find(f"{SVG}title").text: e for e in root.iter(f"{SVG}g") if e.get("class") == "edge"
    }
    ids = {s["name"]: f"s{i}" for i, s in enumerate(overworld["spaces"])}
    # Old Bridge -> Lookout is one-way and unlabelled: an arrowhead and nothing else.
    one_way = edges[f"{ids['Old Bridge']}->{ids['Lookout']}"]
    assert one_way.find(f".//{SVG}polygon") is not None
    # HQ -- Gatehouse is two-way: no arrowhead.
    assert edges[f"{ids['HQ']}->{ids['Gatehouse']}"].find(f".//{SVG}polygon") is None
    # The dead end is a stub to a point node.
    assert any(t.startswith(f"{ids['Mirror Lake']}->dead") for t in edges)


@needs_graphviz
def test_board_png(overworld: dict[str, Any]) -> None:
    png = render_graph(board_graph(overworld), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_groups_without_positions_are_clusters(fixture_ir: dict[str, Any]) -> None:
    graph = board_graph(fixture_ir["boards"][0])
    assert graph.engine == "dot"
    src = graph.source
    assert "subgraph cluster_0" in src and "Engine Room" in src
    assert "subgraph cluster_1" in src and "Tunnels" in src
    assert "pos=" not in src
    assert "rank=min" in src  # HQ on top


def test_groups_with_positions_are_labelled_spaces(fixture_ir: dict[str, Any]) -> None:
    board = copy.deepcopy(fixture_ir["boards"][0])
    for i, space in enumerate(board["spaces"]):
        space["pos"] = [200 * (i % 2), 150 * i]
    src = board_graph(board).source
    assert "cluster" not in src
    # Each grouped space carries a header strip with its group's name; the legend lists them.
    assert src.count(">Engine Room</FONT>") == 3  # Boiler, Pump and the legend
    assert ">Tunnels</FONT>" in src and ">module</TD>" in src


@needs_graphviz
def test_fixture_board_svg(fixture_ir: dict[str, Any]) -> None:
    board = fixture_ir["boards"][0]
    svg = render_graph(board_graph(board), "svg")
    texts = svg_texts(svg)
    joined = "\n".join(texts)
    for space in board["spaces"]:
        assert space["name"] in texts
    for needed in ("needs rope", "locked: key", "mountain", "3 boots", "17", "mystic fruit"):
        assert needed in joined, needed
    root = ET.fromstring(svg)
    clusters = [g for g in root.iter(f"{SVG}g") if g.get("class") == "cluster"]
    assert len(clusters) == 2


# --- heatmap -------------------------------------------------------------------------------


def test_heatmap_fixture_loads(overworld: dict[str, Any]) -> None:
    heat = load_heatmap(GOLDEN / "heatmap-overworld.json")
    assert heat.board == "overworld" and heat.games == 100
    assert heat.unknown_names(overworld) == []
    two_way = next(p for p in overworld["paths"] if p["from"] == "HQ")
    assert heat.path_count(two_way) == 100 + 88


def test_heatmap_colours_spaces_and_paths(overworld: dict[str, Any]) -> None:
    heat = load_heatmap(GOLDEN / "heatmap-overworld.json")
    src = board_graph(overworld, heat).source
    ids = {s["name"]: f"s{i}" for i, s in enumerate(overworld["spaces"])}
    gatehouse = re.search(rf"\b{ids['Gatehouse']} \[[^\]]*\]", src, re.S).group(0)
    assert f'fillcolor="{HEAT[-1]}"' in gatehouse  # the most visited space
    lookout = re.search(rf"\b{ids['Lookout']} \[[^\]]*\]", src, re.S).group(0)
    assert f'fillcolor="{HEAT_NONE}"' in lookout  # never visited
    assert "space visits in 100 games" in src and "path uses in 100 games" in src
    assert "used 188 times" in src


def test_heat_scale() -> None:
    assert heat_bin(0, 10) == -1
    assert heat_bin(10, 10) == len(HEAT) - 1
    assert heat_bin(1, 600) == 0
    assert heat_ranges(412)[0] == (1, 68) and heat_ranges(412)[-1][1] == 412
    assert heat_ranges(2) == [(1, 1), (2, 2)]


@pytest.mark.parametrize(
    "doc",
    [
        '{"spaces": {}}',
        '{"heatmap": {"board": "x", "spaces": {"A": -1}}}',
        "not json",
        "[" * 100_000 + "]" * 100_000,
        '{"heatmap": {"board": "x", "games": "<b>many</b>"}}',
        '{"heatmap": {"board": "x", "games": ' + "9" * 5000 + "}}",
    ],
)
def test_bad_heatmap_is_refused(tmp_path: Path, doc: str) -> None:
    path = tmp_path / "h.json"
    path.write_text(doc, encoding="utf-8")
    with pytest.raises(ValueError):
        load_heatmap(path)


def test_heatmap_unknown_names(overworld: dict[str, Any]) -> None:
    heat = Heatmap("overworld", {"Atlantis": 3}, {"HQ->Lookout": 1, "Gatehouse->HQ": 2})
    assert heat.unknown_names(overworld) == ["Atlantis", "HQ->Lookout"]


# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GOLDEN_CARDS)
def test_card_svg_matches_golden(tutorial: dict[str, Any], name: str) -> None:
    card = next(c for c in tutorial["cards"] if c["name"] == name)
    check_golden(card_filename(name, set()), card_svg(card))


def test_card_rules_text() -> None:
    card = {
        "name": "Cleric",
        "triggers": [
            {"on": "play", "effects": [{"op": "gain", "amount": 2, "resource": "skill"}]},
            {
                "on": "play",
                "if": {"cond": "in_play", "tag": "companion", "min": 1, "other": True},
                "effects": [{"op": "gain", "amount": 1, "resource": "skill"}],
            },
            {"on": "defeat", "effects": [{"op": "gain", "amount": 3, "resource": "gold"}]},
        ],
        "points_per": {"points": 1, "per": {"count": "gold", "every": 5}},
    }
    assert card_rules(card) == [
        ("Play:", "+2 Skill"),
        ("Play, if another companion is in your play area:", "+1 Skill"),
        ("Defeat:", "+3 Gold"),
        ("*", "1 point per 5 Gold you have"),
    ]


def _check_card(card: dict[str, Any], svg: str) -> None:
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title").text == card["name"]
    name_lines = [
        "".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "name"
    ]
    assert " ".join(name_lines).replace("\u00a0", " ") == card["name"]
    banner = BANNERS[root.get("class").split("-", 1)[1]][0]
    assert f'fill="{banner}"' in svg
    rules = [t for t in root.iter(f"{SVG}text") if t.get("class") == "rules"]
    text = " ".join("".join(t.itertext()) for t in rules).replace("\u00a0", " ")
    for head, body in card_rules(card):
        assert head in text
        assert body.split()[0] in text
    for t in rules:
        size = float(t.get("font-size"))
        bold = "".join(
            "".join(s.itertext()) for s in t.iter(f"{SVG}tspan") if s.get("font-weight") == "bold"
        )
        plain = "".join(t.itertext())[len(bold) :]
        width = text_width(bold, size, bold=True) + text_width(plain, size)
        assert float(t.get("x")) + width <= 590 - 20 + 1, f"{card['name']}: line too long"
        assert 0 < float(t.get("y")) <= 730 - 20, f"{card['name']}: line below the box"
    for t in root.iter(f"{SVG}text"):
        assert 0 < float(t.get("x")) < CARD_W and 0 < float(t.get("y")) < CARD_H


def test_every_tutorial_card_renders(tutorial: dict[str, Any], tmp_path: Path) -> None:
    written = write_cards(tutorial, tmp_path)
    assert len(written) == len(tutorial["cards"])
    for card, path in zip(tutorial["cards"], written, strict=True):
        _check_card(card, path.read_text(encoding="utf-8"))


def test_fixture_cards_render(fixture_ir: dict[str, Any]) -> None:
    kinds = set()
    for card in fixture_ir["cards"]:
        svg = card_svg(card)
        _check_card(card, svg)
        kinds.add(ET.fromstring(svg).get("class"))
    assert kinds == {
        f"card card-{k}" for k in ("event", "monster", "reserve", "starting", "acquire")
    }
    grue = card_svg(next(c for c in fixture_ir["cards"] if c["name"] == "Grue"))
    assert "Only in crystal cave" in svg_texts(grue)
    wordy = card_svg(next(c for c in fixture_ir["cards"] if c["name"] == "Wordy Scroll"))
    texts = svg_texts(wordy)
    assert f"{SYMBOLS['dragon']} Dragon attack" in texts and f"{SYMBOLS['danger']} Danger" in texts
    assert "1*" not in texts and "*" in texts  # points per gold, no fixed points


def test_card_keywords(tutorial: dict[str, Any]) -> None:
    by_name = {c["name"]: c for c in tutorial["cards"]}
    cleric = svg_texts(card_svg(by_name["Freelance Cleric"]))
    assert "Companion" in cleric and "4" in cleric and "\u00d72" in cleric
    dryad = svg_texts(card_svg(by_name["Dryad"]))
    assert "Only in forest" in dryad and "2" in dryad


def test_wrapping_keeps_numbers_with_their_word() -> None:
    lines = wrap_runs([Run("each player: +1 Clank!")], text_width("each player: +1", 30), 30)
    assert [[r.text for r in line] for line in lines] == [["each", "player:"], ["+1\u00a0Clank!"]]
    long = wrap_runs([Run("x" * 100)], 200, 30)
    assert len(long) > 1
    assert all(text_width(r.text, 30) <= 200 for line in long for r in line)


def test_card_filenames_are_unique() -> None:
    taken: set[str] = set()
    assert card_filename("Dragon's Maw!", taken) == "dragon-s-maw.svg"
    assert card_filename("Dragon's Maw?", taken) == "dragon-s-maw-2.svg"


def test_sheet_is_nine_to_a_page(tutorial: dict[str, Any]) -> None:
    cards = tutorial["cards"]
    svgs = [card_svg(c) for c in cards]
    for copies, total in ((False, len(cards)), (True, sum(c["copies"] for c in cards))):
        root = ET.fromstring(sheet_html(cards, svgs, "t", copies))
        pages = [d for d in root.iter(f"{XHTML}div") if d.get("class") == "page"]
        cells = [d for d in root.iter(f"{XHTML}div") if d.get("class") == "cell"]
        assert len(pages) == math.ceil(total / 9)
        assert len(cells) == total
        assert all(len(list(p)) <= 9 for p in pages)
        assert len(list(root.iter(f"{SVG}svg"))) == total
    style = "".join(root.find(f"{XHTML}head").find(f"{XHTML}style").itertext())
    assert "63mm" in style and "88mm" in style and "page-break-after: always" in style
    assert {c.get("data-copies") for c in cells} >= {"6", "15"}


# --- command line --------------------------------------------------------------------------


def test_cli_board_dot_from_default_pack(tmp_path: Path) -> None:
    out = tmp_path / "board.dot"
    result = CliRunner().invoke(render, ["board", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("digraph overworld {")


@needs_graphviz
def test_cli_board_svg_with_heatmap(tmp_path: Path) -> None:
    out = tmp_path / "heat.svg"
    pack = str(importlib.resources.files("clankwork.content") / "tutorial")
    args = ["board", pack, "-o", str(out), "--heatmap", str(GOLDEN / "heatmap-overworld.json")]
    result = CliRunner().invoke(render, args)
    assert result.exit_code == 0, result.output
    assert "Gatehouse" in svg_texts(out.read_bytes())


def test_cli_board_errors(tmp_path: Path, fixture_pack: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(render, ["board", "--board", "overwold", "-o", str(tmp_path / "x")])
    assert result.exit_code == 1 and 'did you mean "overworld"' in result.output
    heat = ["--heatmap", str(GOLDEN / "heatmap-overworld.json")]
    result = runner.invoke(render, ["board", str(fixture_pack), *heat, "--format", "dot"])
    assert result.exit_code == 1 and "heatmap is of board 'overworld'" in result.output


def test_cli_reports_compile_errors(tmp_path: Path) -> None:
    pack = tmp_path / "broken"
    pack.mkdir()
    (pack / "pack.clank").write_text(
        'pack broken { version "1" }\ncard X { cots 3 }\n', encoding="utf-8"
    )
    result = CliRunner().invoke(render, ["cards", str(pack), "-o", str(tmp_path / "c")])
    assert result.exit_code == 1
    assert "error[CW" in result.stderr and "cots" in result.stderr
    assert not (tmp_path / "c").exists()


def test_cli_cards_and_sheet(tmp_path: Path, fixture_pack: Path) -> None:
    out = tmp_path / "cards"
    result = CliRunner().invoke(render, ["cards", str(fixture_pack), "-o", str(out), "--sheet"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "cards.html",
        "grue.svg",
        "lantern.svg",
        "overlord-shows-up.svg",
        "pickpocket.svg",
        "wordy-scroll.svg",
    ]


# --- names are data ------------------------------------------------------------------------

EVIL_SPACE = '<x> href="javascript:alert(1)" label=<y>'
EVIL_CARD = '<script>alert(1)</script>" onload="alert(2)&amp;<svg onload=alert(3)>'


def _renamed(board: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    board = copy.deepcopy(board)
    for space in board["spaces"]:
        if space["name"] == old:
            space["name"] = new
    for path in board["paths"]:
        for end in ("from", "to"):
            if path[end] == old:
                path[end] = new
    return board


def _all_attributes(root: ET.Element) -> list[tuple[str, str]]:
    return [(k, v) for el in root.iter() for k, v in el.attrib.items()]


def _dot_statements(src: str) -> tuple[list[str], list[str]]:
    """Node ids and edges of DOT source as the graphviz package writes it (one a line)."""
    nodes, edges = [], []
    for line in src.splitlines():
        m = re.match(r"\t+(\w+)(?: -> (\w+))?(?: \[|$)", line)
        if m and m.group(1) not in ("graph", "node", "edge", "subgraph"):
            (edges if m.group(2) else nodes).append(line)
    return nodes, edges


@pytest.mark.parametrize("pinned", [True, False])
def test_a_space_name_cannot_add_a_node_an_edge_or_an_attribute(
    overworld: dict[str, Any], pinned: bool
) -> None:
    board = _renamed(overworld, "Gatehouse", EVIL_SPACE)
    board["name"] = EVIL_SPACE + "\\"  # a final backslash must not swallow a closing quote
    if not pinned:
        for space in board["spaces"]:
            space.pop("pos", None)
            space["group"] = EVIL_SPACE
    src = board_graph(board).source
    plain_src = board_graph(overworld if pinned else _unpinned(overworld)).source
    nodes, edges = _dot_statements(src)
    want_nodes, want_edges = _dot_statements(plain_src)
    assert len(nodes) == len(want_nodes) and len(edges) == len(want_edges)
    assert src.startswith("digraph board {")
    # The name is inside one node's quoted tooltip and its escaped label; no attribute more.
    tooltip = 'tooltip="<x> href=\\"javascript:alert(1)\\" label=<y>"'
    assert sum(1 for n in nodes if tooltip in n) == 1
    for line in src.splitlines():
        assert 'href="' not in line.replace('\\"', ""), line
    assert "&lt;x&gt; href=&quot;javascript:alert(1)&quot; label=&lt;y&gt;" in src


@needs_graphviz
@pytest.mark.parametrize("pinned", [True, False])
def test_a_space_name_renders_as_one_node_and_no_link(
    overworld: dict[str, Any], pinned: bool
) -> None:
    board = _renamed(overworld if pinned else _unpinned(overworld), "Gatehouse", EVIL_SPACE)
    board["name"] = EVIL_SPACE + "\\"
    svg = render_graph(board_graph(board), "svg")
    root = ET.fromstring(svg)
    for key, _value in _all_attributes(root):
        assert not key.endswith("href") and key != "href", key
    nodes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "node"]
    named = [
        g for g in nodes if EVIL_SPACE in ["".join(t.itertext()) for t in g.iter(f"{SVG}text")]
    ]
    assert len(named) == 1
    assert len(nodes) == len(overworld["spaces"]) + 1 + sum(
        1 for p in overworld["paths"] if p["to"] is None
    )
    # Graphviz's own parse of the DOT agrees: one node with that tooltip, nothing injected.
    import json
    import subprocess

    parsed = json.loads(
        subprocess.run(
            ["dot", "-Tjson0"],
            input=board_graph(board).source.encode(),
            capture_output=True,
            check=True,
        ).stdout
    )
    objects = parsed.get("objects", [])
    assert sum(1 for o in objects if o.get("tooltip") == EVIL_SPACE) == 1
    assert not any("href" in o or "URL" in o for o in objects + parsed.get("edges", []))


def _unpinned(board: dict[str, Any]) -> dict[str, Any]:
    board = copy.deepcopy(board)
    for space in board["spaces"]:
        space.pop("pos", None)
    return board


def test_control_characters_and_lone_surrogates_stay_text(overworld: dict[str, Any]) -> None:
    weird = "A\x00B\x1b[31m\ud800C\ufffe"
    board = _renamed(overworld, "Gatehouse", weird)
    src = board_graph(board).source
    src.encode("utf-8")  # writable
    assert "\x00" not in src and "\x1b" not in src
    card = {
        "name": weird,
        "deck": "adventure",
        "type": "acquire",
        "copies": 1,
        "cost": 1,
        "points": 0,
        "tags": [weird],
        "dragon": False,
        "danger": False,
        "triggers": [],
    }
    svg = card_svg(card)
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.find(f"{SVG}title").text == "A\ufffdB\ufffd[31m\ufffdC\ufffd"


def test_a_card_name_is_text_in_its_svg_and_the_sheet(fixture_ir: dict[str, Any]) -> None:
    card = copy.deepcopy(next(c for c in fixture_ir["cards"] if c["name"] == "Grue"))
    card["name"] = EVIL_CARD
    card["tags"] = [EVIL_CARD]
    card["only_in"] = EVIL_CARD
    svg = card_svg(card)
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title").text == EVIL_CARD
    names = [t for t in root.iter(f"{SVG}text") if t.get("class") == "name"]
    shown = " ".join("".join(t.itertext()) for t in names).replace("\u00a0", " ")
    assert EVIL_CARD.startswith(shown) and len(shown) > 20  # two lines at most
    sheet = ET.fromstring(sheet_html([card], [svg], EVIL_CARD, copies=False))
    for tree in (root, sheet):
        tags = {el.tag.split("}")[-1] for el in tree.iter()}
        assert "script" not in tags
        assert sum(1 for el in tree.iter() if el.tag.endswith("}svg")) == 1
        for key, _value in _all_attributes(tree):
            assert not key.startswith("on") and "href" not in key, key
    cell = next(d for d in sheet.iter(f"{XHTML}div") if d.get("class") == "cell")
    assert cell.get("data-card") == EVIL_CARD
    assert sheet.find(f"{XHTML}head").find(f"{XHTML}title").text == EVIL_CARD


def test_cli_cards_with_hostile_names(tmp_path: Path, fixture_pack: Path) -> None:
    manifest = fixture_pack / "pack.clank"
    manifest.write_text(
        manifest.read_text()
        + 'card "../../../escape" { cost 1; play: +1 skill }\n'
        + 'card "<svg onload=alert(1)>" { cost 1; play: +1 skill }\n'
        + 'card "Grue" { cost 1; play: +1 skill }\n'.replace("Grue", "GRUE!")
    )
    out = tmp_path / "out" / "cards"
    result = CliRunner().invoke(render, ["cards", str(fixture_pack), "-o", str(out), "--sheet"])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.iterdir())
    assert "escape.svg" in files and "svg-onload-alert-1.svg" in files
    assert "grue.svg" in files and "grue-2.svg" in files
    assert sorted(p.name for p in (tmp_path / "out").rglob("*") if p.is_file()) == files
    for path in out.iterdir():
        root = ET.fromstring(path.read_bytes())
        assert "script" not in {el.tag.split("}")[-1] for el in root.iter()}
        for key, _value in _all_attributes(root):
            assert not key.startswith("on"), (path.name, key)


def test_the_sheet_leaves_sealed_cardporium_cards_out(
    tutorial: dict[str, Any], tmp_path: Path
) -> None:
    ir = copy.deepcopy(tutorial)
    sealed = ir["cards"][-1]
    sealed["deck"], sealed["cardporium"] = "cardporium", 1
    for include, expected in ((False, False), (True, True)):
        out = tmp_path / str(include)
        write_cards(ir, out, sheet=True, include_sealed=include)
        root = ET.fromstring((out / "cards.html").read_bytes())
        cells = {d.get("data-card") for d in root.iter(f"{XHTML}div") if d.get("class") == "cell"}
        assert (sealed["name"] in cells) is expected
        assert (out / card_filename(sealed["name"], set())).is_file()  # its own file still
