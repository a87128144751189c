"""`clankwork export tts`: the pack as a Tabletop Simulator save, for a remote playtest.

The save is the JSON Tabletop Simulator writes (its knowledge base's "Save File Format",
"Custom Deck" and "Custom Tile" pages), limited to what this export uses; that subset is
`schemas/tts-save.schema.json`, and every export is checked against it before it is
written. What is on the table:

- each deck as a ``DeckCustom`` cut from its deck sheet (`sheets`): one starting deck per
  player, the adventure deck, one pile per reserve card, and the Cardporium when asked;
  a card's ``CardID`` is its sheet's number times 100 plus its place on the sheet;
- the board (``Custom_Board``) from Graphviz's drawing;
- the tokens as ``Custom_Tile`` pieces (round or square, face and back), in one bag per kind
  of token (the minor secrets' bag is the one to draw from);
- the dragon bag with its black cubes, each player's cubes in a bag, and a pawn each.

Tabletop Simulator loads images from URLs. By default they are ``file:///`` URLs of the
images written beside the save, which works on the machine that wrote them; with
``base_url`` they point where the folder will be uploaded (a web host, the Steam Cloud),
so that everyone at the table sees them.
"""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from .outputs import prepare_dir, safe_filename, write_bytes, write_text
from .pieces import DECK_NAMES, TOKEN_KINDS, Pieces, deck_groups, pack_title, token_svg
from .pnp import scaled_board
from .raster import svg_to_png
from .sheets import Sheet, write_sheets

SCHEMA_FILE = "tts-save.schema.json"
PLAYER_COLOURS = (
    ("Red", (0.856, 0.1, 0.094)),
    ("Blue", (0.118, 0.53, 1.0)),
    ("Green", (0.192, 0.701, 0.168)),
    ("Yellow", (0.905, 0.898, 0.172)),
    ("White", (1.0, 1.0, 1.0)),
    ("Orange", (0.956, 0.392, 0.113)),
)
BLACK = (0.1, 0.1, 0.1)
TILE_TYPES = {"square": 0, "round": 2}
"""Custom Tile shapes (0 box, 1 hex, 2 circle, 3 rounded)."""
MM_PER_UNIT = 25.4
"""A Tabletop Simulator unit is about an inch."""


@dataclass
class Export:
    """What an export wrote: the save file, its images, and the decks with their counts."""

    save: Path
    images: list[Path]
    decks: dict[str, int]


class _Ids:
    """GUIDs (six hex digits, as the game writes them) made from each object's place in the
    save, so the same pack always gives the same file."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return hashlib.sha1(f"clankwork-{self.n}".encode()).hexdigest()[:6]


def _transform(x: float = 0.0, z: float = 0.0, y: float = 1.0, scale: float = 1.0) -> dict:
    return {
        "posX": round(x, 3),
        "posY": round(y, 3),
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 0.0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
    }


def _colour(rgb: tuple[float, float, float]) -> dict[str, float]:
    return {"r": rgb[0], "g": rgb[1], "b": rgb[2]}


def _base(name: str, guid: str, nickname: str, transform: dict, description: str = "") -> dict:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": description,
        "ColorDiffuse": _colour((1.0, 1.0, 1.0)),
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Hands": name in ("Card", "DeckCustom"),
    }


def _deck_object(
    ids: _Ids,
    name: str,
    cards: list[tuple[dict[str, Any], int, dict[str, Any]]],
    transform: dict,
) -> dict:
    """A deck (or a lone card) of ``cards``: (card, CardID, its CustomDeck entry)."""
    decks: dict[str, Any] = {}
    contained = []
    for card, card_id, custom in cards:
        key = str(card_id // 100)
        decks[key] = custom
        obj = _base("Card", ids(), card["name"], _transform())
        obj |= {"CardID": card_id, "CustomDeck": {key: custom}}
        contained.append(obj)
    if len(contained) == 1:
        single = contained[0]
        single["Transform"] = transform
        return single
    deck = _base("DeckCustom", ids(), name, transform)
    deck |= {
        "DeckIDs": [c["CardID"] for c in contained],
        "CustomDeck": decks,
        "ContainedObjects": contained,
    }
    return deck


def _bag(ids: _Ids, name: str, contents: list[dict], transform: dict, rgb=None) -> dict:
    bag = _base("Bag", ids(), name, transform)
    if rgb is not None:
        bag["ColorDiffuse"] = _colour(rgb)
    bag["ContainedObjects"] = contents
    return bag


def _cube(ids: _Ids, name: str, rgb: tuple[float, float, float]) -> dict:
    cube = _base("BlockSquare", ids(), name, _transform(scale=0.35))
    cube["ColorDiffuse"] = _colour(rgb)
    return cube


def build_save(
    pieces: Pieces,
    sheets: list[Sheet],
    url_of: dict[Path, str],
    board: tuple[str, str, float] | None,
    tokens: dict[str, tuple[str, str]],
    include_sealed: bool = False,
) -> tuple[dict[str, Any], dict[str, int]]:
    """The save (a dict) and the number of cards in each deck on the table. ``board`` is
    (name, image URL, longer side in mm); ``tokens`` maps a token's name to the URLs of its
    face and back."""
    ir = pieces.ir
    ids = _Ids()
    objects: list[dict[str, Any]] = []
    players = int(ir.get("rules", {}).get("max_players", 4))
    # Where each design is: its CardID and the CustomDeck entry of its sheet.
    where: dict[int, tuple[int, dict[str, Any]]] = {}
    for n, sheet in enumerate(sheets, start=1):
        custom = {
            "FaceURL": url_of[sheet.face],
            "BackURL": url_of[sheet.back],
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for i, card in enumerate(sheet.cards):
            where[id(card)] = (n * 100 + i, custom)
    counts: dict[str, int] = {}
    x = -12.0
    for deck, cards in deck_groups(ir, include_sealed).items():
        if deck == "reserve":
            for card in cards:
                pile = [(card, *where[id(card)])] * card.get("copies", 1)
                objects.append(_deck_object(ids, card["name"], pile, _transform(x, -9.0)))
                counts[f"Reserve: {card['name']}"] = len(pile)
                x += 3.0
            continue
        copies = [(c, *where[id(c)]) for c in cards for _ in range(c.get("copies", 1))]
        if deck == "starting":
            for p in range(players):
                label = f"{DECK_NAMES[deck]} ({PLAYER_COLOURS[p % len(PLAYER_COLOURS)][0]})"
                objects.append(_deck_object(ids, label, copies, _transform(-12 + 4 * p, 12)))
                counts[label] = len(copies)
        else:
            objects.append(_deck_object(ids, DECK_NAMES[deck], copies, _transform(x, -9.0)))
            counts[DECK_NAMES[deck]] = len(copies)
            x += 3.0
    if board is not None:
        name, url, size_mm = board
        obj = _base("Custom_Board", ids(), f"Board: {name}", _transform(0, 0, 1.0))
        obj["Transform"]["scaleX"] = obj["Transform"]["scaleZ"] = round(size_mm / 250, 3)
        obj["Locked"] = True
        obj["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": "", "WidthScale": 0.0}
        objects.append(obj)
    objects += _token_bags(ids, ir, tokens)
    rules = ir.get("rules", {})
    dragon = [_cube(ids, "Dragon cube", BLACK) for _ in range(int(rules.get("dragon_cubes", 24)))]
    objects.append(_bag(ids, "Dragon bag", dragon, _transform(16, 0), BLACK))
    for p in range(players):
        colour, rgb = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        cubes = [
            _cube(ids, f"{colour} cube", rgb) for _ in range(int(rules.get("player_cubes", 30)))
        ]
        objects.append(_bag(ids, f"{colour} cubes", cubes, _transform(-12 + 4 * p, 16), rgb))
        pawn = _base("PlayerPawn", ids(), f"{colour} pawn", _transform(-10 + 4 * p, 16))
        pawn["ColorDiffuse"] = _colour(rgb)
        objects.append(pawn)
    version = ir.get("pack", {}).get("version", "")
    save = {
        "SaveName": f"{pack_title(ir)} {version}".strip(),
        "GameMode": pack_title(ir),
        "Date": "",
        "VersionNumber": "",
        "Table": "Table_RPG",
        "Sky": "Sky_Museum",
        "Note": f"{pack_title(ir)} {version}: exported by Clankwork",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "TabStates": {},
        "ObjectStates": objects,
    }
    return save, counts


def _token_bags(ids: _Ids, ir: dict[str, Any], tokens: dict[str, tuple[str, str]]) -> list[dict]:
    """One bag of tiles per kind of token, each token as many times as the box holds."""
    bags = []
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for token in ir.get("tokens", []):
        by_kind.setdefault(token.get("kind", "other"), []).append(token)
    for k, (kind, of_kind) in enumerate(sorted(by_kind.items())):
        shape, size, _colour_hex, label = TOKEN_KINDS.get(kind, TOKEN_KINDS["other"])
        tiles = []
        for token in of_kind:
            face, back = tokens[token["name"]]
            for _ in range(token.get("count", 1)):
                tile = _base("Custom_Tile", ids(), token["name"], _transform(scale=size / 50))
                tile["CustomImage"] = {
                    "ImageURL": face,
                    "ImageSecondaryURL": back,
                    "ImageScalar": 1.0,
                    "WidthScale": 0.0,
                    "CustomTile": {
                        "Type": TILE_TYPES[shape],
                        "Thickness": 0.1,
                        "Stackable": True,
                        "Stretch": True,
                    },
                }
                tiles.append(tile)
        bags.append(_bag(ids, label + "s", tiles, _transform(10 + 3 * (k % 4), -12 + 3 * (k // 4))))
    return bags


def schema() -> dict[str, Any]:
    """The JSON Schema of the saves this export writes."""
    text = resources.files("clankwork.schemas").joinpath(SCHEMA_FILE).read_text("utf-8")
    return json.loads(text)


def validate(save: dict[str, Any]) -> None:
    """`jsonschema.ValidationError` unless ``save`` has the structure Tabletop Simulator
    reads (the subset in `schemas/tts-save.schema.json`), and every card's deck is there."""
    jsonschema.validate(save, schema())
    for obj in _walk(save["ObjectStates"]):
        if "CardID" in obj:
            key = str(obj["CardID"] // 100)
            custom = obj["CustomDeck"].get(key)
            if custom is None or obj["CardID"] % 100 >= custom["NumWidth"] * custom["NumHeight"]:
                raise jsonschema.ValidationError(f"card {obj['Nickname']!r}: no such place")


def _walk(objects: list[dict[str, Any]]):
    for obj in objects:
        yield obj
        yield from _walk(obj.get("ContainedObjects", []))


def export(
    pieces: Pieces,
    out_dir: Path,
    dpi: float = 150,
    base_url: str | None = None,
    board: tuple[str, str] | None = None,
    board_size: float = 500.0,
    include_sealed: bool = False,
) -> Export:
    """Write the save (``PACK.json``) and its images into ``out_dir``; ``board`` is (name,
    Graphviz SVG) of the board to put on the table."""
    prepare_dir(out_dir)
    images: list[Path] = []
    sheets = write_sheets(pieces, out_dir, dpi, include_sealed)
    images += sorted({p for s in sheets for p in (s.face, s.back)})
    taken: set[str] = {p.name for p in images}
    token_urls: dict[str, tuple[str, str]] = {}
    token_files: dict[str, tuple[Path, Path]] = {}
    for token in pieces.ir.get("tokens", []):
        face = out_dir / safe_filename(f"token {token['name']}", ".png", taken)
        back = out_dir / safe_filename(f"token {token['name']} back", ".png", taken)
        write_bytes(face, svg_to_png(token_svg(token), dpi))
        write_bytes(back, svg_to_png(token_svg(token, back=True), dpi))
        token_files[token["name"]] = (face, back)
        images += [face, back]
    board_image = None
    if board is not None:
        board_image = out_dir / safe_filename(f"board {board[0]}", ".png", taken)
        write_bytes(board_image, svg_to_png(_board_at(board[1], board_size), dpi))
        images.append(board_image)

    def url(path: Path) -> str:
        if base_url:
            return base_url.rstrip("/") + "/" + path.name
        return path.resolve().as_uri()

    url_of = {p: url(p) for p in images}
    for name, (face, back) in token_files.items():
        token_urls[name] = (url_of[face], url_of[back])
    board_arg = None
    if board is not None and board_image is not None:
        board_arg = (board[0], url_of[board_image], board_size)
    save, counts = build_save(pieces, sheets, url_of, board_arg, token_urls, include_sealed)
    validate(save)
    path = out_dir / safe_filename(pieces.ir.get("pack", {}).get("name", "pack"), ".json")
    write_text(path, json.dumps(save, indent=2, ensure_ascii=False) + "\n")
    return Export(path, images, counts)


def _board_at(svg: str, size_mm: float) -> str:
    """Graphviz's board drawing made ``size_mm`` on its longer side (for its pixel size)."""
    root, width, height = scaled_board(svg, size_mm)
    root.set("width", f"{width:.2f}mm")
    root.set("height", f"{height:.2f}mm")
    return ET.tostring(root, "unicode")
