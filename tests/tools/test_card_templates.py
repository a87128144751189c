"""A pack's own card templates and art: chosen per kind or per pack, read from inside the pack,
refused when they could reach outside it; and card images at print resolution."""

from __future__ import annotations

import io
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from clankwork.tools import raster
from clankwork.tools.card_template import default_template_bytes, parse_template
from clankwork.tools.check import load_ir
from clankwork.tools.cli import main
from clankwork.tools.pieces import Pieces
from clankwork.tools.raster import svg_to_png

pytestmark = pytest.mark.skipif(not raster.available(), reason="cairo (libcairo2) is missing")


def tiny_png(width: int = 2, height: int = 3) -> bytes:
    """A red PNG."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (255, 0, 0)).save(out, "PNG")
    return out.getvalue()


SVG = "{http://www.w3.org/2000/svg}"
MONSTER = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 630 880">'
    '<rect id="mine" width="630" height="880" fill="#00ff00"/>'
    '<text data-slot="name" x="315" y="100" data-width="500" text-anchor="middle"/>'
    '<rect data-slot="rules" x="40" y="300" width="550" height="400" font-size="30"/>'
    "</svg>"
)


@pytest.fixture
def pack(tmp_path: Path, tutorial_dir: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(tutorial_dir, dest)
    return dest


def face(pack: Path, name: str) -> ET.Element:
    pieces = Pieces(load_ir(pack), pack)
    card = next(c for c in pieces.ir["cards"] if c["name"] == name)
    return ET.fromstring(pieces.face(card))


def test_a_template_is_chosen_per_kind_then_per_pack(pack: Path) -> None:
    (pack / "templates").mkdir()
    (pack / "templates" / "monster.svg").write_text(MONSTER, encoding="utf-8")
    goblin = face(pack, "Goblin")
    assert goblin.find(f"{SVG}rect").get("id") == "mine"
    rules = " ".join("".join(t.itertext()) for t in goblin.iter(f"{SVG}text"))
    assert "Goblin" in rules and "Defeat:" in rules
    assert face(pack, "Burgle").find(f"{SVG}rect").get("id") is None  # Clankwork's own
    (pack / "templates" / "card.svg").write_text(MONSTER.replace("mine", "all"), "utf-8")
    assert face(pack, "Burgle").find(f"{SVG}rect").get("id") == "all"
    assert face(pack, "Goblin").find(f"{SVG}rect").get("id") == "mine"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (MONSTER.replace("</svg>", "<script>alert(1)</script></svg>"), "<script>"),
        (MONSTER.replace('id="mine"', 'onclick="x()"'), "event attribute"),
        (MONSTER.replace("</svg>", '<image href="file:///etc/passwd"/></svg>'), "refers to"),
    ],
)
def test_a_template_that_reaches_outside_is_refused(pack: Path, text: str, why: str) -> None:
    (pack / "templates").mkdir()
    (pack / "templates" / "monster.svg").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["render", "cards", str(pack), "-o", str(pack / "out")])
    assert result.exit_code == 1 and why in result.output
    assert "templates/monster.svg" in result.output and "Traceback" not in result.output


def test_a_template_linked_out_of_the_pack_is_refused(pack: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.svg").write_text(MONSTER, encoding="utf-8")
    (pack / "templates").mkdir()
    (pack / "templates" / "card.svg").symlink_to(tmp_path / "elsewhere.svg")
    result = CliRunner().invoke(main, ["render", "cards", str(pack), "-o", str(pack / "out")])
    assert result.exit_code == 1 and "outside the pack folder" in result.output


def test_art_is_drawn_in_its_slot(pack: Path) -> None:
    (pack / "art").mkdir()
    (pack / "art" / "goblin.png").write_bytes(tiny_png(30, 20))
    path = pack / "adventure.clank"
    path.write_text(
        path.read_text().replace(
            "monster Goblin { copies 2;", 'monster Goblin { art "art/goblin.png"; copies 2;'
        ),
        encoding="utf-8",
    )
    root = face(pack, "Goblin")
    (image,) = list(root.iter(f"{SVG}image"))
    assert image.get("href").startswith("data:image/png;base64,")
    y, h = float(image.get("y")), float(image.get("height"))
    rules_box = next(el for el in root.iter(f"{SVG}rect") if el.get("data-slot") == "rules")
    assert float(rules_box.get("y")) >= y + h  # the rules box moved below the art
    png = Image.open(io.BytesIO(svg_to_png(ET.tostring(root, "unicode"), 50))).convert("RGB")
    x = float(image.get("x")) + float(image.get("width")) / 2
    centre = (round(x / 630 * png.width), round((y + h / 2) / 880 * png.height))
    assert png.getpixel(centre) == (255, 0, 0)  # the art's red
    assert not list(face(pack, "Ogre").iter(f"{SVG}image"))


def test_art_gone_since_check_is_a_warning_not_a_crash(pack: Path, tmp_path: Path) -> None:
    (pack / "art").mkdir()
    (pack / "art" / "goblin.png").write_bytes(tiny_png())
    path = pack / "adventure.clank"
    path.write_text(
        path.read_text().replace("monster Goblin {", 'monster Goblin { art "art/goblin.png";'),
        encoding="utf-8",
    )
    ir = load_ir(pack)
    (pack / "art" / "goblin.png").unlink()
    pieces = Pieces(ir, pack)
    goblin = next(c for c in ir["cards"] if c["name"] == "Goblin")
    assert "<image" not in pieces.face(goblin)
    assert pieces.warnings and "Goblin" in pieces.warnings[0]


def test_the_template_command_writes_a_template_that_parses(tmp_path: Path) -> None:
    out = tmp_path / "card.svg"
    result = CliRunner().invoke(main, ["render", "template", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == default_template_bytes()
    slots = {el.get("data-slot") for el in parse_template(out.read_bytes(), "card.svg").root.iter()}
    assert {"name", "rules", "art", "tags", "cost", "fight", "points", "banner"} <= slots


def test_cards_and_deck_sheets_as_png_at_a_dpi(tmp_path: Path, tutorial_dir: Path) -> None:
    out = tmp_path / "png"
    result = CliRunner().invoke(
        main,
        [
            "render",
            "cards",
            str(tutorial_dir),
            "-o",
            str(out),
            "--format",
            "png",
            "--dpi",
            "100",
            "--sheet",
        ],
    )
    assert result.exit_code == 0, result.output
    with Image.open(out / "goblin.png") as img:
        assert img.size == (round(63 / 25.4 * 100), round(88 / 25.4 * 100))
    with Image.open(out / "deck-adventure.png") as img:
        # 17 adventure designs: 10 across, 2 rows.
        assert img.size == (round(10 * 63 / 25.4 * 100), round(2 * 88 / 25.4 * 100))
    assert (out / "back-adventure.png").is_file() and "wrote " in result.output
