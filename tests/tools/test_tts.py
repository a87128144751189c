"""`clankwork export tts`: a Tabletop Simulator save with one deck per card group at the right
counts, its images, and the structure of `schemas/tts-save.schema.json` (read back)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image

from clankwork.tools import raster
from clankwork.tools.cli import main
from clankwork.tools.pieces import Pieces
from clankwork.tools.tts import export, validate

pytestmark = pytest.mark.skipif(not raster.available(), reason="cairo (libcairo2) is missing")

SCHEMA = Path(__file__).parents[2] / "schemas" / "tts-save.schema.json"


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory, tutorial_dir: Path) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("tts")
    result = CliRunner().invoke(
        main, ["export", "tts", str(tutorial_dir), "-o", str(out), "--dpi", "60"]
    )
    assert result.exit_code == 0, result.output
    assert "Adventure deck: 24 cards" in result.output
    return out, json.loads((out / "tutorial.json").read_text(encoding="utf-8"))


def walk(objects: list[dict[str, Any]]):
    for obj in objects:
        yield obj
        yield from walk(obj.get("ContainedObjects", []))


def test_the_save_matches_the_schema_read_from_disk(save: tuple[Path, dict]) -> None:
    jsonschema.validate(save[1], json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_one_deck_per_card_group_with_the_pack_s_counts(
    save: tuple[Path, dict], tutorial_ir: dict[str, Any]
) -> None:
    objects = {o["Nickname"]: o for o in save[1]["ObjectStates"]}
    copies = {c["name"]: c["copies"] for c in tutorial_ir["cards"]}
    adventure = objects["Adventure deck"]
    assert adventure["Name"] == "DeckCustom" and len(adventure["DeckIDs"]) == 24
    names = [c["Nickname"] for c in adventure["ContainedObjects"]]
    assert {n: names.count(n) for n in names} == {
        c["name"]: c["copies"] for c in tutorial_ir["cards"] if c["deck"] == "adventure"
    }
    for colour in ("Red", "Blue", "Green", "Yellow"):
        deck = objects[f"Starting deck ({colour})"]
        assert len(deck["DeckIDs"]) == 10
    for pile in ("Mercenary", "Explore", "Mysterious Tome"):
        assert objects[pile]["Name"] == "DeckCustom"
        assert len(objects[pile]["DeckIDs"]) == copies[pile]
    assert objects["Cultist"]["Name"] == "Card"  # a pile of one is a card


def test_every_card_points_at_its_place_on_a_sheet_that_exists(save: tuple[Path, dict]) -> None:
    out, data = save
    for obj in walk(data["ObjectStates"]):
        if obj["Name"] != "Card":
            continue
        custom = obj["CustomDeck"][str(obj["CardID"] // 100)]
        assert obj["CardID"] % 100 < custom["NumWidth"] * custom["NumHeight"]
        face = Path(custom["FaceURL"].removeprefix("file://"))
        assert face.parent == out.resolve() and face.is_file()
        with Image.open(face) as img:
            # 63 x 88 mm cards at 60 dpi, NumWidth across and NumHeight down.
            assert img.size[0] == pytest.approx(custom["NumWidth"] * 63 / 25.4 * 60, abs=2)
            assert img.size[1] == pytest.approx(custom["NumHeight"] * 88 / 25.4 * 60, abs=2)
        assert Path(custom["BackURL"].removeprefix("file://")).is_file()


def test_the_table_has_the_board_tokens_dragon_bag_and_cubes(
    save: tuple[Path, dict], tutorial_ir: dict[str, Any]
) -> None:
    objects = {o["Nickname"]: o for o in save[1]["ObjectStates"]}
    assert len(objects["Dragon bag"]["ContainedObjects"]) == 24
    assert {o["Name"] for o in objects["Dragon bag"]["ContainedObjects"]} == {"BlockSquare"}
    assert len(objects["Red cubes"]["ContainedObjects"]) == 30
    minor = [t for t in tutorial_ir["tokens"] if t["kind"] == "minor"]
    tiles = objects["Minor secrets"]["ContainedObjects"]
    assert len(tiles) == sum(t["count"] for t in minor)
    assert all(t["CustomImage"]["CustomTile"]["Type"] == 2 for t in tiles)  # round
    if "Board: overworld" in objects:  # drawn when Graphviz is installed
        assert objects["Board: overworld"]["Name"] == "Custom_Board"


def test_base_url_and_sealed_cards(tmp_path: Path, tutorial_ir: dict[str, Any]) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"][-1]["deck"], ir["cards"][-1]["cardporium"] = "cardporium", 1
    done = export(Pieces(ir), tmp_path, dpi=40, base_url="https://example.org/kit/")
    data = json.loads(done.save.read_text(encoding="utf-8"))
    urls = [
        c["FaceURL"] for o in walk(data["ObjectStates"]) for c in o.get("CustomDeck", {}).values()
    ]
    assert urls and all(u.startswith("https://example.org/kit/deck-") for u in urls)
    assert "Cardporium" not in done.decks
    sealed = export(Pieces(ir), tmp_path / "all", dpi=40, include_sealed=True)
    assert sealed.decks["Cardporium"] == ir["cards"][-1]["copies"]


def test_a_card_off_its_sheet_is_refused(save: tuple[Path, dict]) -> None:
    broken = copy.deepcopy(save[1])
    card = next(o for o in walk(broken["ObjectStates"]) if o["Name"] == "Card")
    card["CardID"] += 90
    with pytest.raises(jsonschema.ValidationError):
        validate(broken)
    broken["ObjectStates"][0]["Name"] = "Deck_Of_Nonsense"
    with pytest.raises(jsonschema.ValidationError):
        validate(broken)
