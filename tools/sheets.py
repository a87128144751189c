"""Card images at print resolution: one PNG per card, and deck sheets of up to 10 x 7 cards,
the layout online tables (Tabletop Simulator, Screentop) import a deck from."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .card_template import SVG_NS
from .outputs import prepare_dir, safe_filename, write_bytes
from .pieces import Pieces, deck_groups
from .pnp import nested
from .raster import svg_to_png

SHEET_COLS, SHEET_ROWS = 10, 7
PER_SHEET = SHEET_COLS * SHEET_ROWS - 1
"""Designs on one sheet: Tabletop Simulator keeps a sheet's last place for the hidden card."""
CARD_MM = (63.0, 88.0)


@dataclass(frozen=True)
class Sheet:
    """One sheet of a deck: its designs in sheet order, its size in cards and its images."""

    deck: str
    cards: list[dict[str, Any]]
    cols: int
    rows: int
    face: Path
    back: Path


def sheet_svg(faces: list[str], cols: int, rows: int) -> str:
    """Card drawings side by side, ``cols`` across and ``rows`` down, no gaps."""
    w, h = CARD_MM
    body = "".join(
        nested(svg, (i % cols) * w, (i // cols) * h, w, h) for i, svg in enumerate(faces)
    )
    return (
        f'<svg xmlns="{SVG_NS}" width="{cols * w:g}mm" height="{rows * h:g}mm" '
        f'viewBox="0 0 {cols * w:g} {rows * h:g}">{body}</svg>'
    )


def sheet_shape(n: int) -> tuple[int, int]:
    """The columns and rows of a sheet of ``n`` designs: 10 across (fewer for a small
    deck), as many rows as needed, at most 7."""
    cols = min(SHEET_COLS, max(n, 2))  # TTS needs at least two places on a sheet
    return cols, max(1, math.ceil(n / cols))


def write_sheets(
    pieces: Pieces,
    out_dir: Path,
    dpi: float,
    include_sealed: bool = False,
    taken: set[str] | None = None,
) -> list[Sheet]:
    """One PNG of fronts per deck (``deck-adventure.png``; ``-2``... past 69 designs) and
    one of its back (``back-adventure.png``), at ``dpi``; names distinct from ``taken``."""
    prepare_dir(out_dir)
    taken = set() if taken is None else taken
    sheets = []
    for deck, cards in deck_groups(pieces.ir, include_sealed).items():
        back = out_dir / safe_filename(f"back {deck}", ".png", taken)
        write_bytes(back, svg_to_png(pieces.back(deck), dpi))
        for k in range(0, len(cards), PER_SHEET):
            chunk = cards[k : k + PER_SHEET]
            cols, rows = sheet_shape(len(chunk))
            n = k // PER_SHEET + 1
            face = out_dir / safe_filename(
                f"deck {deck} {n}" if n > 1 else f"deck {deck}", ".png", taken
            )
            svg = sheet_svg([pieces.face(c) for c in chunk], cols, rows)
            write_bytes(face, svg_to_png(svg, dpi))
            sheets.append(Sheet(deck, chunk, cols, rows, face, back))
    return sheets


def write_card_pngs(
    pieces: Pieces, out_dir: Path, dpi: float, taken: set[str] | None = None
) -> list[Path]:
    """One PNG per card design (names as `render_cards.card_filename` gives them), distinct
    from the names in ``taken`` (which gets them)."""
    prepare_dir(out_dir)
    taken = set() if taken is None else taken
    written = []
    for card in pieces.ir.get("cards", []):
        path = out_dir / safe_filename(card["name"], ".png", taken, fallback="card")
        write_bytes(path, svg_to_png(pieces.face(card), dpi))
        written.append(path)
    return written
