"""The game's symbols render from the bundled font in SVG, PNG and PDF, never as boxes.

The rasterising test runs in a child process (fontconfig's application fonts belong to a
process): once with the font registered as Clankwork does, and once with it left out, to
show that the check it makes would catch a symbol falling back to a box.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest
from fontTools.ttLib import TTFont

from clankwork.tools import raster
from clankwork.tools.render_cards import card_svg
from clankwork.tools.symbols import (
    ADVANCE_EM,
    FAMILY,
    SYMBOLS,
    font_path,
    symbol_markup,
    with_symbols,
)

SVG = "{http://www.w3.org/2000/svg}"

# Rasterises each symbol, a character no font has (the box, for comparison) and a card,
# with the symbol font registered or not; prints which symbols came out as the box.
CHILD = textwrap.dedent(
    """
    import io, json, sys
    from PIL import Image
    from clankwork.tools import raster
    from clankwork.tools.render_cards import card_svg
    from clankwork.tools.symbols import FAMILY, SYMBOLS

    if sys.argv[1] == "without":
        raster.register_font = lambda: None  # as on a machine without the font

    def pixels(ch):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
            '<rect width="40" height="40" fill="#fff"/>'
            f'<text x="4" y="30" font-size="28" font-family="{FAMILY}">{ch}</text></svg>'
        )
        return Image.open(io.BytesIO(raster.svg_to_png(svg))).convert("L").tobytes()

    box = pixels("\\ue000")
    boxed = [name for name, ch in SYMBOLS.items() if pixels(ch) == box]
    card = {"name": "Bell", "deck": "adventure", "type": "acquire", "cost": 2,
            "copies": 1, "points": 0, "tags": [], "dragon": True, "danger": False,
            "triggers": [{"on": "play", "effects": [
                {"op": "gain", "amount": 2, "resource": "boots"},
                {"op": "gain", "amount": 1, "resource": "clank"}]}]}
    png = raster.svg_to_png(card_svg(card), 100)
    print(json.dumps({"boxed": boxed, "card": png.hex()}))
    """
)


def _rasterise(font: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, font], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_font_has_every_symbol_at_the_width_the_layout_counts() -> None:
    font = TTFont(font_path())
    cmap, upem = font.getBestCmap(), font["head"].unitsPerEm
    for name, ch in SYMBOLS.items():
        assert ord(ch) in cmap, name
        assert font["hmtx"][cmap[ord(ch)]][0] / upem == ADVANCE_EM, name
    assert font["name"].getDebugName(1) == FAMILY


@pytest.mark.skipif(not raster.available(), reason="cairo (libcairo2) is missing")
def test_no_symbol_falls_back_to_a_box_with_the_font_and_some_do_without() -> None:
    with_font, without = _rasterise("with"), _rasterise("without")
    assert with_font["boxed"] == []
    # The same check, with the font missing, sees the boxes: it can fail.
    assert {"boots", "skill", "clank", "dragon", "gold"} <= set(without["boxed"])
    assert with_font["card"] != without["card"]


def test_resource_words_get_their_symbol_and_stay_readable() -> None:
    text = with_symbols("+2 Skill, +1 Boots, 3 Clank!, 5 Gold you have, Skillful")
    assert text.startswith(f"+2 {SYMBOLS['skill']}\u00a0Skill, +1 {SYMBOLS['boots']}\u00a0Boots")
    assert f"3 {SYMBOLS['clank']}\u00a0Clank!" in text and text.endswith("Skillful")
    assert symbol_markup(f"a {SYMBOLS['swords']}") == (
        f'a <tspan font-family="{FAMILY}">{SYMBOLS["swords"]}</tspan>'
    )


def test_a_card_svg_embeds_the_glyphs_it_uses(tutorial_ir: dict) -> None:
    ogre = next(c for c in tutorial_ir["cards"] if c["name"] == "Ogre")
    root = ET.fromstring(card_svg(ogre))
    style = "".join(root.find(f"{SVG}style").itertext())
    assert f'font-family: "{FAMILY}"' in style and "data:font/ttf;base64," in style
    in_font = {
        "".join(t.itertext()) for t in root.iter(f"{SVG}tspan") if t.get("font-family") == FAMILY
    }
    assert {SYMBOLS["dragon"], SYMBOLS["danger"], SYMBOLS["gold"], SYMBOLS["swords"]} <= in_font
