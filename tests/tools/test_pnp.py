"""`clankwork render pnp`: a PDF with every card at size, backs placed for duplex, crop marks,
token sheets, the board across pages, and a footer on every page (on the tutorial pack)."""

from __future__ import annotations

import copy
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from clankwork.tools import raster
from clankwork.tools.pieces import Pieces, deck_groups
from clankwork.tools.pnp import (
    BOARD_OVERLAP,
    CARD_MM,
    MARK_GAP,
    Document,
    Grid,
    PnpOptions,
    add_cards,
    board_pages,
    build,
    card_grid,
)
from clankwork.tools.render import render
from clankwork.tools.render_board import board_graph, render_graph

pytestmark = pytest.mark.skipif(not raster.available(), reason="cairo (libcairo2) is missing")

SVG = "{http://www.w3.org/2000/svg}"
MM_PER_PT = 25.4 / 72
needs_graphviz = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is missing")


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory, tutorial_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("pnp") / "proto.pdf"
    result = CliRunner().invoke(render, ["pnp", str(tutorial_dir), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert re.search(r"wrote .*proto\.pdf \(\d+ pages, a4\)", result.output)
    return out


def cards(doc: Document, n: int) -> list[tuple[float, float, str]]:
    """(x, y, title) of every card drawn on page ``n`` (mm)."""
    root = ET.fromstring(doc.svg(n))
    return [
        (float(el.get("x")), float(el.get("y")), el.find(f"{SVG}title").text)
        for el in root
        if el.tag == f"{SVG}svg"
    ]


@pytest.mark.parametrize(
    ("paper", "bleed", "shape", "landscape"),
    [("a4", 3, (4, 2), True), ("letter", 3, (3, 2), True), ("a4", 0, (3, 3), False)],
)
def test_the_grid_fits_the_most_cards_with_room_for_marks(
    paper: str, bleed: float, shape: tuple[int, int], landscape: bool
) -> None:
    grid = card_grid(paper, bleed)
    assert (grid.cols, grid.rows) == shape and grid.landscape == landscape
    x0, y0 = grid.cell(0)
    assert x0 >= 5 and y0 >= 9  # crop marks, and the footer below them
    assert grid.cell_w == CARD_MM[0] + 2 * bleed


def test_backs_are_mirrored_about_the_long_edge() -> None:
    land = Grid(297, 210, 4, 2, 69, 94, 3)
    assert land.cell(0, back=True) == land.cell(4)  # rows swap on a landscape page
    assert land.cell(1, back=True) == land.cell(5)
    port = Grid(210, 297, 3, 3, 63, 88, 0)
    assert port.cell(0, back=True) == port.cell(2)  # columns swap on a portrait page
    assert port.cell(4, back=True) == port.cell(4)


def test_each_back_lands_behind_its_front(tutorial_ir: dict[str, Any]) -> None:
    doc = Document("t", "1")
    grid = card_grid("a4", 3)
    printed = add_cards(doc, Pieces(tutorial_ir), grid, False, 4)
    assert printed == {"starting": 40, "adventure": 24, "reserve": 43}
    assert len(doc.pages) == 2 * sum(-(-n // grid.per_page) for n in printed.values())
    for n in range(0, len(doc.pages), 2):
        front, back = cards(doc, n), cards(doc, n + 1)
        assert len(front) == len(back) and doc.pages[n + 1].section.endswith("(backs)")
        for (x, y, _name), (bx, by, title) in zip(front, back, strict=True):
            # Turned over the long (top) edge of a landscape sheet, y flips, x stays.
            assert bx == pytest.approx(x) and by == pytest.approx(grid.height - y - CARD_MM[1])
            assert title in ("Starting deck", "Adventure deck", "Reserve")


def test_crop_marks_run_along_every_cut_line(tutorial_ir: dict[str, Any]) -> None:
    doc = Document("t", "1")
    add_cards(doc, Pieces(tutorial_ir), card_grid("a4", 3), False, 4)
    root = ET.fromstring(doc.svg(0))
    (marks,) = [el for el in root.iter(f"{SVG}path") if el.get("class") == "crop"]
    xs = {round(float(v), 3) for v in re.findall(r"M([\d.]+) [\d.]+V", marks.get("d"))}
    for x, _y, _ in cards(doc, 0):
        assert round(x, 3) in xs and round(x + CARD_MM[0], 3) in xs
    lowest = max(y for _, y, _ in cards(doc, 0)) + CARD_MM[1]
    tops = [float(v) for v in re.findall(r"V([\d.]+)", marks.get("d"))]
    assert max(tops) == pytest.approx(lowest + 3 + MARK_GAP + 3)  # outside the bleed


def test_sealed_cards_stay_out_unless_asked(tutorial_ir: dict[str, Any]) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"][-1]["deck"], ir["cards"][-1]["cardporium"] = "cardporium", 1
    assert "cardporium" not in deck_groups(ir)
    assert [c["name"] for c in deck_groups(ir, include_sealed=True)["cardporium"]] == [
        ir["cards"][-1]["name"]
    ]
    doc = Document("t", "1")
    printed = add_cards(doc, Pieces(ir), card_grid("a4", 3), True, 2)
    assert printed["cardporium"] == ir["cards"][-1]["copies"]
    assert any("Cardporium" in p.section for p in doc.pages)


@needs_graphviz
def test_the_board_tiles_overlap_and_carry_marks_on_both_sides(
    tutorial_ir: dict[str, Any],
) -> None:
    board = tutorial_ir["boards"][0]
    svg = render_graph(board_graph(board), "svg").decode()
    doc = Document("t", "1")
    across, down = board_pages(doc, svg, board["name"], "a4", 400)
    assert (across, down) == (3, 1)
    tiles = doc.pages[::2]
    assert len(doc.pages) == 2 * across * down and all(
        "blank" in p.section for p in doc.pages[1::2]
    )
    shifts = []
    for n in range(0, len(doc.pages), 2):
        root = ET.fromstring(doc.svg(n))
        g = next(el for el in root.iter(f"{SVG}g") if el.get("transform"))
        shifts.append(float(re.match(r"translate\(([-\d.]+)", g.get("transform"))[1]))
        assert len(list(root.iter(f"{SVG}circle"))) >= 2  # registration marks
    window = 210 - 2 * 8
    steps = [a - b for a, b in zip(shifts, shifts[1:], strict=False)]
    assert steps == pytest.approx([window - BOARD_OVERLAP] * (len(tiles) - 1))


def test_the_pdf_has_a_footer_and_the_right_page_sizes(pdf: Path) -> None:
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    total = len(reader.pages)
    assert total > 20
    for n, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        assert "Clankwork tutorial 0.1.0" in text and f"page {n} of {total}" in text
        w, h = (float(v) * MM_PER_PT for v in page.mediabox[2:])
        assert sorted((round(w), round(h))) == [210, 297]
    assert "Starting deck: 40 cards" in reader.pages[0].extract_text()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is missing")
def test_pdfinfo_and_pdftoppm_read_it(pdf: Path, tmp_path: Path) -> None:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)[1])
    assert pages == len(PdfReader(str(pdf)).pages)
    subprocess.run(
        ["pdftoppm", "-r", "20", "-png", "-f", "3", "-l", "3", str(pdf), str(tmp_path / "p")],
        check=True,
    )
    (png,) = tmp_path.glob("p-*.png")
    assert png.stat().st_size > 1000


def test_every_part_is_in_the_document(tutorial_ir: dict[str, Any]) -> None:
    doc = build(Pieces(tutorial_ir), PnpOptions(paper="letter"), [])
    sections = [p.section for p in doc.pages]
    assert sections[:2] == ["Contents", "Contents (back: blank)"]
    assert "Tokens (fronts)" in sections and "Tokens (backs)" in sections
    assert len(sections) % 2 == 0  # every front has a back
