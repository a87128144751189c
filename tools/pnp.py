"""`clankwork render pnp`: a print-and-play PDF of a pack, ready for a table of people.

What is printed, in order: a cover (what is in it and how to print it), every card at its
real size (63 x 88 mm) with a bleed and crop marks, each page of fronts followed by its page
of backs placed for double-sided printing, the token sheets (fronts then backs, with their
cut lines), and the board at a chosen size across several pages that overlap, with marks to
line them up. Every page says the pack's name, its version and "page N of M".

Pages are drawn as SVG (millimetres as user units) and turned into PDF by `raster`; pypdf
joins them. Backs line up when the PDF is printed double-sided flipping on the long edge:
on a portrait page the backs' columns are mirrored, on a landscape page its rows (the back
of a card is wherever the card is once the sheet is turned over its long edge).
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader, PdfWriter

from .card_template import SVG_NS
from .pieces import DECK_NAMES, TOKEN_KINDS, Pieces, deck_groups, pack_title, token_shape, token_svg
from .raster import svg_to_pdf
from .render_cards import FONT_FAMILY, escape

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes (portrait, mm)."""
CARD_MM = (63.0, 88.0)
SIDE_MARGIN = 5.0
"""The least room left and right of the cards: the crop marks and their gap."""
END_MARGIN = 9.0
"""The least room above and below the cards: the crop marks, and the footer below them."""
MARK_GAP, MARK_LEN = 1.0, 3.0
"""Crop marks start this far outside the bleed and are this long (mm)."""
FOOTER_Y = 4.0
"""The footer's baseline, above the page's bottom edge (mm)."""
BOARD_OVERLAP = 12.0
"""How much neighbouring board pages share (mm), to glue one over the other."""
BOARD_MARGIN = 8.0
TOKEN_GAP = 4.0


@dataclass(frozen=True)
class Grid:
    """Where cards go on a page: ``cols`` x ``rows`` cells of a card plus its bleed, the
    block centred on the page."""

    width: float
    height: float
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    bleed: float

    @property
    def landscape(self) -> bool:
        """True when the page is wider than tall."""
        return self.width > self.height

    @property
    def per_page(self) -> int:
        """Cards on one page."""
        return self.cols * self.rows

    def cell(self, i: int, back: bool = False) -> tuple[float, float]:
        """The top-left corner (mm) of the cell of the ``i``-th card of a page; with ``back``,
        where its back goes on the reverse (mirrored about the flip axis)."""
        col, row = i % self.cols, i // self.cols
        if back and self.landscape:
            row = self.rows - 1 - row
        elif back:
            col = self.cols - 1 - col
        x0 = (self.width - self.cols * self.cell_w) / 2
        y0 = (self.height - self.rows * self.cell_h) / 2
        return x0 + col * self.cell_w, y0 + row * self.cell_h


def card_grid(paper: str, bleed: float) -> Grid:
    """The page layout holding the most cards on ``paper``, portrait or landscape (portrait
    when they tie), with room for crop marks and the footer."""
    pw, ph = PAPERS[paper]
    cw, ch = CARD_MM[0] + 2 * bleed, CARD_MM[1] + 2 * bleed
    best: Grid | None = None
    for w, h in ((pw, ph), (ph, pw)):
        cols = math.floor((w - 2 * SIDE_MARGIN) / cw + 1e-9)
        rows = math.floor((h - 2 * END_MARGIN) / ch + 1e-9)
        grid = Grid(w, h, cols, rows, cw, ch, bleed)
        if cols * rows > (best.per_page if best else 0):
            best = grid
    if best is None:
        raise ValueError(f"a card with a {bleed:g} mm bleed does not fit on {paper} paper")
    return best


@dataclass
class Page:
    """One page being made: its size, the SVG inside it, and the section it is in."""

    width: float
    height: float
    section: str
    body: list[str] = field(default_factory=list)


@dataclass
class Document:
    """The pages of a print-and-play PDF, drawn as SVG and joined into one PDF at the end."""

    title: str
    version: str
    pages: list[Page] = field(default_factory=list)

    def page(self, width: float, height: float, section: str) -> Page:
        """A new page at the end."""
        self.pages.append(Page(width, height, section))
        return self.pages[-1]

    def svg(self, n: int) -> str:
        """Page ``n`` (from 0) as an SVG, its footer included."""
        p = self.pages[n]
        footer = (
            f"{self.title} {self.version} \u00b7 {p.section} \u00b7 page {n + 1} of "
            f"{len(self.pages)}"
        )
        return (
            f'<svg xmlns="{SVG_NS}" width="{p.width:g}mm" height="{p.height:g}mm" '
            f'viewBox="0 0 {p.width:g} {p.height:g}" font-family="{FONT_FAMILY}">'
            f'<rect width="{p.width:g}" height="{p.height:g}" fill="#ffffff"/>'
            + "".join(p.body)
            + f'<text x="{p.width / 2:g}" y="{p.height - FOOTER_Y:g}" font-size="2.4" '
            f'text-anchor="middle" fill="#555555">{escape(footer)}</text></svg>'
        )

    def pdf(self) -> bytes:
        """The whole document as one PDF."""
        writer = PdfWriter()
        for n in range(len(self.pages)):
            writer.append(PdfReader(io.BytesIO(svg_to_pdf(self.svg(n)))))
        writer.add_metadata({"/Title": f"{self.title} {self.version}: print and play"})
        writer.compress_identical_objects()
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()


def nested(svg: str, x: float, y: float, w: float, h: float) -> str:
    """An SVG drawing placed in the box (``x``, ``y``, ``w``, ``h``) of a page (mm)."""
    root = ET.fromstring(svg)
    root.set("x", f"{x:.3f}")
    root.set("y", f"{y:.3f}")
    root.set("width", f"{w:.3f}")
    root.set("height", f"{h:.3f}")
    return ET.tostring(root, "unicode")


def crop_marks(boxes: Iterable[tuple[float, float, float, float]], bleed: float) -> str:
    """Crop marks outside the block of cards, in line with every card's cut lines; each box
    is a card's trimmed rectangle (x, y, w, h)."""
    boxes = list(boxes)
    left = min(x for x, _, _, _ in boxes) - bleed - MARK_GAP
    right = max(x + w for x, _, w, _ in boxes) + bleed + MARK_GAP
    top = min(y for _, y, _, _ in boxes) - bleed - MARK_GAP
    bottom = max(y + h for _, y, _, h in boxes) + bleed + MARK_GAP
    xs = sorted({round(v, 3) for x, _, w, _ in boxes for v in (x, x + w)})
    ys = sorted({round(v, 3) for _, y, _, h in boxes for v in (y, y + h)})
    lines = [
        f"M{x:g} {top - MARK_LEN:g}V{top:g}M{x:g} {bottom:g}V{bottom + MARK_LEN:g}" for x in xs
    ]
    lines += [
        f"M{left - MARK_LEN:g} {y:g}H{left:g}M{right:g} {y:g}H{right + MARK_LEN:g}" for y in ys
    ]
    return (
        f'<path class="crop" d="{"".join(lines)}" stroke="#000000" stroke-width="0.2" fill="none"/>'
    )


def _bled(svg: str, x: float, y: float, bleed: float) -> str:
    """A card drawing in its cell: the card's edge colour fills the bleed, the card inside."""
    colour = ET.fromstring(svg).get("data-bleed", "#222222")
    w, h = CARD_MM
    out = []
    if bleed:
        out.append(
            f'<rect x="{x:.3f}" y="{y:.3f}" width="{w + 2 * bleed:g}" '
            f'height="{h + 2 * bleed:g}" fill="{escape(colour)}"/>'
        )
    out.append(nested(svg, x + bleed, y + bleed, w, h))
    return "".join(out)


def add_cards(
    doc: Document, pieces: Pieces, grid: Grid, include_sealed: bool, players: int
) -> dict[str, int]:
    """Pages of card fronts, each followed by its page of backs; the number printed of each
    deck. Starting cards are printed once for each of ``players`` players."""
    printed: dict[str, int] = {}
    for deck, cards in deck_groups(pieces.ir, include_sealed).items():
        copies = []
        for card in cards:
            n = card.get("copies", 1) * (players if deck == "starting" else 1)
            copies += [card] * n
        printed[deck] = len(copies)
        back = pieces.back(deck)
        section = DECK_NAMES[deck]
        for start in range(0, len(copies), grid.per_page):
            chunk = copies[start : start + grid.per_page]
            for side in ("front", "back"):
                page = doc.page(grid.width, grid.height, f"{section} ({side}s)")
                trims = []
                for i, card in enumerate(chunk):
                    x, y = grid.cell(i, back=side == "back")
                    svg = pieces.face(card) if side == "front" else back
                    page.body.append(_bled(svg, x, y, grid.bleed))
                    trims.append((x + grid.bleed, y + grid.bleed, *CARD_MM))
                page.body.append(crop_marks(trims, grid.bleed))
    return printed


def token_pages(doc: Document, ir: dict[str, Any], paper: str) -> dict[str, int]:
    """Pages of token fronts, each followed by its backs (portrait, mirrored left to right),
    each token as many times as the box holds, with its cut line; the count of each."""
    width, height = PAPERS[paper]
    copies = []
    for token in ir.get("tokens", []):
        copies += [token] * token.get("count", 1)
    copies.sort(key=lambda t: -token_shape(t)[1])  # big pieces first: fuller rows
    placed: list[list[tuple[dict[str, Any], float, float]]] = [[]]
    x = y = BOARD_MARGIN
    row_h = 0.0
    for token in copies:
        size = token_shape(token)[1]
        if x + size > width - BOARD_MARGIN:
            x, y, row_h = BOARD_MARGIN, y + row_h + TOKEN_GAP, 0.0
        if y + size > height - END_MARGIN - BOARD_MARGIN:
            placed.append([])
            x = y = BOARD_MARGIN
            row_h = 0.0
        placed[-1].append((token, x, y))
        x += size + TOKEN_GAP
        row_h = max(row_h, size)
    for chunk in placed:
        if not chunk:
            continue
        for side in ("front", "back"):
            page = doc.page(width, height, f"Tokens ({side}s)")
            for token, tx, ty in chunk:
                shape, size = token_shape(token)
                if side == "back":
                    tx = width - tx - size
                page.body.append(nested(token_svg(token, back=side == "back"), tx, ty, size, size))
                page.body.append(_cut_line(shape, tx, ty, size))
    return {t["name"]: t.get("count", 1) for t in ir.get("tokens", [])}


def _cut_line(shape: str, x: float, y: float, size: float) -> str:
    style = 'fill="none" stroke="#000000" stroke-width="0.2" stroke-dasharray="1 0.6" class="cut"'
    if shape == "round":
        return f'<circle cx="{x + size / 2:.3f}" cy="{y + size / 2:.3f}" r="{size / 2:g}" {style}/>'
    return f'<rect x="{x:.3f}" y="{y:.3f}" width="{size:g}" height="{size:g}" {style}/>'


def scaled_board(svg: str, size_mm: float) -> tuple[ET.Element, float, float]:
    """Graphviz's drawing of a board, its width and its height (mm) once its longer side is
    ``size_mm``. Its text is set in DejaVu Sans: Graphviz names Helvetica, which fontconfig
    maps to a face without the board's symbols (☠ ◆ ≈ ⚠)."""
    root = ET.fromstring(svg)
    vb = [float(v) for v in (root.get("viewBox") or "0 0 100 100").replace(",", " ").split()]
    scale = size_mm / max(vb[2], vb[3])
    for el in root.iter():
        if el.get("font-family"):
            el.set("font-family", "DejaVu Sans")
    return root, vb[2] * scale, vb[3] * scale


def board_pages(
    doc: Document, board_svg: str, name: str, paper: str, size_mm: float
) -> tuple[int, int]:
    """The board (Graphviz's SVG) scaled so that its longer side is ``size_mm``, across
    pages that overlap by `BOARD_OVERLAP`; each page followed by a blank back, so the
    whole PDF prints double-sided. Returns the pages across and down."""
    root, bw, bh = scaled_board(board_svg, size_mm)
    width, height = PAPERS[paper]
    win_w = width - 2 * BOARD_MARGIN
    win_h = height - 2 * BOARD_MARGIN - END_MARGIN
    step_w, step_h = win_w - BOARD_OVERLAP, win_h - BOARD_OVERLAP
    across = max(1, math.ceil((bw - BOARD_OVERLAP) / step_w - 1e-9))
    down = max(1, math.ceil((bh - BOARD_OVERLAP) / step_h - 1e-9))
    root.set("x", "0")
    root.set("y", "0")
    root.set("width", f"{bw:.3f}")
    root.set("height", f"{bh:.3f}")
    drawing = ET.tostring(root, "unicode")
    marks = _board_marks(across, down, step_w, step_h, win_w, win_h)
    for r in range(down):
        for c in range(across):
            label = f"{chr(ord('A') + r)}{c + 1}" if r < 26 else f"{r + 1}-{c + 1}"
            page = doc.page(width, height, f"Board {name} ({label})")
            ox, oy = c * step_w, r * step_h
            clip = f"clip-{r}-{c}"
            page.body.append(
                f'<defs><clipPath id="{clip}"><rect x="{BOARD_MARGIN}" y="{BOARD_MARGIN}" '
                f'width="{win_w:g}" height="{win_h:g}"/></clipPath></defs>'
                f'<g clip-path="url(#{clip})"><g transform="translate('
                f'{BOARD_MARGIN - ox:.3f} {BOARD_MARGIN - oy:.3f})">{drawing}{marks}</g></g>'
                f'<rect x="{BOARD_MARGIN}" y="{BOARD_MARGIN}" width="{win_w:g}" '
                f'height="{win_h:g}" fill="none" stroke="#999999" stroke-width="0.2"/>'
                + _tile_labels(label, r, c, across, down, win_w, win_h)
            )
            doc.page(width, height, f"Board {name} ({label}, back: blank)")
    return across, down


def _board_marks(
    across: int, down: int, step_w: float, step_h: float, win_w: float, win_h: float
) -> str:
    """Registration marks in the strips neighbouring pages share, drawn in board coordinates
    so that they land on the same spot of the board on both pages; and the line to cut along
    on the page that goes on top."""
    out = []
    for c in range(1, across):
        x = c * step_w  # the left edge of column c's window; column c-1 reaches x + overlap
        for r in range(down):
            for f in (0.25, 0.75):
                out.append(_target(x + BOARD_OVERLAP / 2, r * step_h + win_h * f))
    for r in range(1, down):
        y = r * step_h
        for c in range(across):
            for f in (0.25, 0.75):
                out.append(_target(c * step_w + win_w * f, y + BOARD_OVERLAP / 2))
    return f'<g class="align">{"".join(out)}</g>'


def _target(x: float, y: float) -> str:
    return (
        f'<circle cx="{x:.3f}" cy="{y:.3f}" r="2.5" fill="none" stroke="#000000" '
        f'stroke-width="0.25"/><path d="M{x - 4:.3f} {y:.3f}h8M{x:.3f} {y - 4:.3f}v8" '
        'stroke="#000000" stroke-width="0.25"/>'
    )


def _tile_labels(label: str, r: int, c: int, across: int, down: int, w: float, h: float) -> str:
    """The page's name in its corner, and along each shared edge which page goes there."""
    m = BOARD_MARGIN
    out = [
        f'<text x="{m + 2:g}" y="{m + 5:g}" font-size="4" font-weight="bold" fill="#b3261e">'
        f"{label}</text>"
    ]
    if c > 0:
        out.append(
            f'<path d="M{m + BOARD_OVERLAP:g} {m:g}v{h:g}" stroke="#b3261e" stroke-width="0.3" '
            'stroke-dasharray="2 1.5"/>'
        )
        out.append(
            f'<text x="{m + 1:g}" y="{m + h - 2:g}" font-size="2.6" fill="#b3261e">cut on the '
            f"dashed line, glue over {chr(ord('A') + r)}{c}</text>"
        )
    if r > 0:
        out.append(
            f'<path d="M{m:g} {m + BOARD_OVERLAP:g}h{w:g}" stroke="#b3261e" stroke-width="0.3" '
            'stroke-dasharray="2 1.5"/>'
        )
    if c < across - 1 or r < down - 1:
        nxt = []
        if c < across - 1:
            nxt.append(f"{chr(ord('A') + r)}{c + 2} to the right")
        if r < down - 1:
            nxt.append(f"{chr(ord('A') + r + 1)}{c + 1} below")
        out.append(
            f'<text x="{m + w - 2:g}" y="{m + h + 4:g}" font-size="2.6" text-anchor="end" '
            f'fill="#555555">{escape(", ".join(nxt))}</text>'
        )
    return "".join(out)


def cover(
    ir: dict[str, Any],
    paper: str,
    printed: dict[str, int],
    tokens: dict[str, int],
    board: tuple[int, int] | None,
    players: int,
) -> list[Page]:
    """The first page (what the PDF holds and how to print it) and its blank back."""
    width, height = PAPERS[paper]
    version = ir.get("pack", {}).get("version", "")
    lines: list[tuple[float, str, bool]] = [
        (7, f"{pack_title(ir)} {version}: print and play", True),
        (4, "Print double-sided, flipping on the long edge, at actual size (100 %, not", False),
        (4, "fit to page). Cut the cards on the crop marks: the backs line up with their", False),
        (4, "fronts. Cut the tokens on their dashed lines.", False),
        (4, "", False),
        (5, "Cards (63 x 88 mm)", True),
    ]
    for deck, n in printed.items():
        extra = f", one deck for each of {players} players" if deck == "starting" else ""
        lines.append((4, f"    {DECK_NAMES[deck]}: {n} cards{extra}", False))
    if tokens:
        lines.append((5, "Tokens", True))
    for kind, (_shape, size, _colour, label) in TOKEN_KINDS.items():
        of_kind = [t for t in ir.get("tokens", []) if t.get("kind", "other") == kind]
        if of_kind:
            total = sum(tokens[t["name"]] for t in of_kind)
            lines.append((4, f"    {label}: {total} ({size:g} mm)", False))
    if board is not None:
        lines.append((5, "Board", True))
        lines.append(
            (4, f"    {board[0] * board[1]} pages, {board[0]} across and {board[1]} down:", False)
        )
        lines.append((4, "    cut each on its dashed line and glue it over its neighbour", False))
    rules = ir.get("rules", {})
    lines.append((5, "Also needed", True))
    lines.append(
        (4, f"    {rules.get('dragon_cubes', 24)} black cubes (the dragon bag), a bag,", False)
    )
    lines.append(
        (
            4,
            f"    {rules.get('player_cubes', 30)} cubes of each player's colour and a pawn each",
            False,
        )
    )
    page = Page(width, height, "Contents")
    y = 22.0
    for size, text, bold in lines:
        weight = ' font-weight="bold"' if bold else ""
        page.body.append(
            f'<text x="15" y="{y:g}" font-size="{size:g}"{weight} xml:space="preserve">'
            f"{escape(text)}</text>"
        )
        y += size * 1.7
    return [page, Page(width, height, "Contents (back: blank)")]


@dataclass
class PnpOptions:
    """What `render pnp` was asked for."""

    paper: str = "a4"
    bleed: float = 3.0
    include_sealed: bool = False
    board_size: float = 400.0


def build(pieces: Pieces, options: PnpOptions, boards: list[tuple[str, str]]) -> Document:
    """The whole print-and-play document of the pack ``pieces`` draws; ``boards`` are
    (name, Graphviz SVG) of the boards to print."""
    ir = pieces.ir
    players = int(ir.get("rules", {}).get("max_players", 4))
    doc = Document(pack_title(ir), str(ir.get("pack", {}).get("version", "")))
    grid = card_grid(options.paper, options.bleed)
    printed = add_cards(doc, pieces, grid, options.include_sealed, players)
    tokens = token_pages(doc, ir, options.paper)
    shape = None
    for name, svg in boards:
        shape = board_pages(doc, svg, name, options.paper, options.board_size)
    doc.pages[:0] = cover(ir, options.paper, printed, tokens, shape, players)
    return doc
