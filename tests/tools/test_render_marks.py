"""`clankwork render board` draws what a pack adds to a board so a designer can read it: each
declared way in its own colour and dash, explained from its record; the sections a `within`
way joins as coloured marks on their spaces and a pale band through them; the pack's other
words for spaces as coloured tags; entry tolls, with their condition, in their own ink; the
tokens a space holds. The Forgotten Vault's two boards have all of these."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.tools.render import render
from clankwork.tools.render_board import (
    MARK,
    TOKEN_MARK,
    TOLL_INK,
    TOLL_MARK,
    Marks,
    board_graph,
    render_graph,
    space_label,
    space_lines,
    way_text,
)

ROOT = Path(__file__).resolve().parents[2]
needs_graphviz = pytest.mark.skipif(
    shutil.which("dot") is None or shutil.which("neato") is None,
    reason="Graphviz's dot and neato are not installed",
)


@pytest.fixture(scope="module")
def vault() -> dict[str, Any]:
    result = compile_pack(ROOT / "content" / "vault")
    assert result.ok, result.diagnostics
    return result.ir


def _board(ir: dict[str, Any], name: str) -> dict[str, Any]:
    return next(b for b in ir["boards"] if b["name"] == name)


def test_a_way_is_drawn_in_its_colour_and_explained_from_its_record(vault: dict) -> None:
    board = _board(vault, "ropes")
    marks = Marks.of(board, vault["ways"])
    assert set(marks.ways) == {"rope"}  # the swing has no section on this side
    colour, dash = marks.ways["rope"]
    src = board_graph(board, ways=vault["ways"]).source
    ropes = [line for line in src.splitlines() if "rope</FONT>" in line]
    assert len(ropes) == 6
    assert all(f'color="{colour}"' in line and f"style={dash}" in line for line in ropes)
    rope = next(w for w in vault["ways"] if w["name"] == "rope")
    text = way_text(rope)
    assert "with special moves, not boots" in text
    assert "open after your boots are exhausted" in text and "a teleport may cross it" in text
    assert f"rope: {text}" in src
    swing = next(w for w in vault["ways"] if w["name"] == "swing")
    assert way_text(swing).endswith("no teleport")


def test_sections_are_marked_on_their_spaces_and_banded(vault: dict) -> None:
    board = _board(vault, "clock")
    marks = Marks.of(board, vault["ways"])
    assert list(marks.sections) == [f"pendulum {k}" for k in (1, 2, 3, 4)]
    src = board_graph(board, ways=vault["ways"]).source
    for section, (colour, _way) in marks.sections.items():
        members = [s for s in board["spaces"] if section in s["features"]]
        band = [line for line in src.splitlines() if f'color="{colour}55"' in line]
        assert len(band) == len(members) - 1  # a tree through them
        assert f"{MARK} {section}</B>" in src
        assert f"a section of {len(members)} spaces (the pale band): a swing joins" in src
    # A room touching two sections shows both (the rulebook: "even if only part of it").
    room17 = next(s for s in board["spaces"] if s["name"] == "Room 17")
    assert {"pendulum 2", "pendulum 3"} <= set(room17["features"])
    label = space_label(room17, marks=marks)
    assert f"{MARK} pendulum 2</B>" in label and f"{MARK} pendulum 3</B>" in label


def test_tolls_tokens_and_conditions_are_readable(vault: dict) -> None:
    board = _board(vault, "ropes")
    marks = Marks.of(board, vault["ways"])
    by_name = {s["name"]: s for s in board["spaces"]}
    perch = space_lines(by_name["Room 7"], marks)
    text = " ".join(t for t, _c, _b in perch)
    assert f"{TOLL_MARK} to enter if there is a gargoyle on this space:" in text
    assert all(c == TOLL_INK for t, c, _b in perch if "Swords to defeat the gargoyle on" in t[:40])
    study = " ".join(t for t, _c, _b in space_lines(by_name["Room 4"], marks))
    assert "when you enter if you do not have a Skill Study Token:" in study
    assert f"{TOKEN_MARK} holds 4 skill study token" in study
    # The features the renderer knows no meaning of are tags, explained in the legend.
    assert {"gargoyle perch", "wild study room"} <= set(marks.tags)
    src = board_graph(board, ways=vault["ways"]).source
    assert "the pack&#x27;s word for 5 spaces" in src or "the pack's word for 5 spaces" in src
    assert "an entry toll: whoever enters must do it; who cannot, may not enter" in src


def test_without_the_ways_features_are_text_and_ways_are_named(vault: dict) -> None:
    board = _board(vault, "ropes")
    src = board_graph(board).source
    assert MARK not in src and "a feature of the space (see the pack)" in src
    assert "a rope: moved along as the pack" in src


@needs_graphviz
@pytest.mark.parametrize("name", ["ropes", "clock"])
def test_the_vault_boards_render_as_png(vault: dict, name: str, tmp_path: Path) -> None:
    png = render_graph(board_graph(_board(vault, name), ways=vault["ways"]), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 100_000
    out = tmp_path / f"{name}.svg"
    result = CliRunner().invoke(
        render, ["board", str(ROOT / "content" / "vault"), "--board", name, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "an entry toll" in svg and "tokens lying here" in svg


@needs_graphviz
def test_every_assembly_of_a_modular_board_is_drawn_with_its_ways() -> None:
    """Graphviz once refused 8 of Space's 48 ships ("trouble in init_rank", "lost edge"):
    the label on a way's dashed line across module outlines; it is an xlabel now."""
    from clankwork.interpreter import assembly as asm

    ir = compile_pack(ROOT / "content" / "space").ir
    board = ir["boards"][0]
    ships = list(asm.assemblies(board, 100))
    assert len(ships) == 48
    for ship in ships:
        svg = render_graph(board_graph(asm.assemble(board, ship), ways=ir["ways"]), "svg")
        assert b"hyperlift" in svg, asm.label(board, ship)
