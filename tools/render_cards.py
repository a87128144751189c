"""Card faces as SVG, written as text (no Graphviz), and a printable HTML sheet of them.

A card is drawn at poker size (63 x 88 mm) in a 630 x 880 user-unit box (0.1 mm each). Its
rules text is generated from the effect tree through the op registry's renderers, so what is
printed is what the engine does. Text is wrapped with a conservative width estimate (DejaVu
Sans / Verdana advance widths plus a margin), and shrunk when it would not fit its box.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as _sax_escape

from clankwork.interpreter.effects.registry import antagonist

from .card_template import SVG_NS, Template, default_template, number, slots
from .card_text import card_kind, card_rules
from .outputs import prepare_dir, safe_filename, write_text
from .symbols import (
    ADVANCE_EM,
    FAMILY,
    SYMBOL_RUN,
    SYMBOLS,
    font_face_css,
    used_symbols,
    with_symbols,
)

CARD_W, CARD_H = 630, 880
SHEET_NAME = "cards.html"
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"

# Advance widths (em) of DejaVu Sans, which is as wide as Verdana and wider than Arial or
# Helvetica; a viewer that substitutes another sans face only makes the text narrower.
_WIDTHS = {
    **dict.fromkeys("ijl'|.,:;!", 0.34),
    **dict.fromkeys("ftr()[]-", 0.42),
    " ": 0.32,
    "\u00a0": 0.32,
    **dict.fromkeys("abcdeghknopqsuvxyz", 0.64),
    **dict.fromkeys("mw", 0.98),
    **dict.fromkeys("0123456789", 0.64),
    **dict.fromkeys("IJ", 0.30),
    **dict.fromkeys("ABCDEFGHKLNOPQRSTUVXYZ", 0.78),
    **dict.fromkeys("MW", 0.99),
    **dict.fromkeys("+=<>~", 0.84),
    **dict.fromkeys(SYMBOLS.values(), ADVANCE_EM),
}
_WIDE = 1.0  # anything not in the table (symbols, accented capitals): a full em
_BOLD = 1.12
_MARGIN = 1.06

# Banner colours: blue acquire, red monster, yellow reserve (as the rulebook describes the
# printed banners), and distinct ones for events and starting cards.
BANNERS = {
    "acquire": ("#2a5ea8", "#ffffff"),
    "monster": ("#b3261e", "#ffffff"),
    "reserve": ("#e0b526", "#1d1d1d"),
    "event": ("#6b3fa0", "#ffffff"),
    "starting": ("#6d6256", "#ffffff"),
}
_TAG_COLOURS = {
    "companion": ("#2f7d6d", "Companion"),
    "dragon": ("#b3261e", f"{SYMBOLS['dragon']} Dragon attack"),
    "danger": ("#d9480f", f"{SYMBOLS['danger']} Danger"),
}

# The rules box: where text may go, and the sizes tried from largest to smallest.
_TEXT_X0, _TEXT_X1 = 40, 590
_TEXT_PAD = 20
_TEXT_BOTTOM = 730
_TEXT_SIZES = (32, 29, 26, 23, 20)


# Characters XML 1.0 cannot hold at all (C0 controls, lone surrogates, U+FFFE/U+FFFF): an
# IR file may carry them, and one would make the whole SVG unreadable (or unwritable).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: object) -> str:
    """Pack text as XML character data or a double-quoted attribute value: ``& < > "``
    escaped and characters XML cannot hold replaced by U+FFFD, so a name is only ever text."""
    return _sax_escape(_NOT_XML.sub("\ufffd", str(text)), {'"': "&quot;"})


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A conservative estimate of the rendered width of ``text`` at font ``size``."""
    em = sum(_WIDTHS.get(ch, _WIDE) for ch in text)
    return em * size * (_BOLD if bold else 1.0) * _MARGIN


_NUMBER = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Run:
    """A piece of text in one weight."""

    text: str
    bold: bool = False


def wrap_runs(runs: list[Run], width: float, size: float) -> list[list[Run]]:
    """Greedy word wrap of styled runs into lines no wider than ``width``.

    A number stays with the word after it ("+1 Clank!"); a word longer than a whole line is
    broken by characters, so nothing ever overflows.
    """
    words: list[Run] = []
    for run in runs:
        pending = ""
        for w in run.text.split():
            if pending:
                w, pending = pending + "\u00a0" + w, ""
            if _NUMBER.match(w) or SYMBOL_RUN.fullmatch(w[-1]):
                # A number stays with its word, and so does a symbol ("+1 💥 Clank!").
                pending = w
            else:
                words.append(Run(w, run.bold))
        if pending:
            words.append(Run(pending, run.bold))
    lines: list[list[Run]] = []
    line: list[Run] = []
    used = 0.0
    for word in words:
        for piece in _break_word(word, width, size):
            w = text_width(piece.text, size, piece.bold)
            gap = text_width(" ", size, piece.bold) if line else 0.0
            if line and used + gap + w > width:
                lines.append(line)
                line, used, gap = [], 0.0, 0.0
            line.append(piece)
            used += gap + w
    if line:
        lines.append(line)
    return lines


def _break_word(word: Run, width: float, size: float) -> list[Run]:
    if text_width(word.text, size, word.bold) <= width:
        return [word]
    pieces, cur = [], ""
    for ch in word.text:
        if cur and text_width(cur + ch, size, word.bold) > width:
            pieces.append(Run(cur, word.bold))
            cur = ""
        cur += ch
    if cur:
        pieces.append(Run(cur, word.bold))
    return pieces


def _subtitle(card: dict[str, Any]) -> str:
    deck = {"starting": "Starting card", "reserve": "Reserve", "adventure": "Adventure"}
    kind = {"acquire": "", "monster": " \u00b7 Monster", "event": " \u00b7 Event"}
    return deck.get(card["deck"], card["deck"]) + kind.get(card["type"], "")


def _tags(card: dict[str, Any], dragon: str = "dragon") -> list[tuple[str, str]]:
    """(colour, label) of each pill: keywords a player must notice at a glance; the attack
    symbol's says the pack's word for the dragon ("Boss attack")."""
    pills = []
    for tag in card.get("tags", []):
        colour, label = _TAG_COLOURS.get(tag, ("#4a5a70", tag.capitalize()))
        pills.append((colour, label))
    if card.get("dragon"):
        colour, label = _TAG_COLOURS["dragon"]
        if dragon != "dragon":
            label = f"{SYMBOLS['dragon']} {dragon[:1].upper()}{dragon[1:]} attack"
        pills.append((colour, label))
    if card.get("danger"):
        pills.append(_TAG_COLOURS["danger"])
    if card.get("only_in"):
        pills.append(("#5c5c5c", f"Only in {card['only_in']}"))
    if card.get("not_in"):
        pills.append(("#5c5c5c", f"Not in {card['not_in']}"))
    return pills


def _node(parent: ET.Element, tag: str, text: str = "", **attrs: Any) -> ET.Element:
    """A child element of ``parent``; attribute names with ``_`` become ``-``, and the text
    goes in with its symbols drawn from the symbol font (`_put_text`)."""
    el = ET.SubElement(parent, f"{{{SVG_NS}}}{tag}")
    for k, v in attrs.items():
        el.set(k.rstrip("_").replace("_", "-"), _xml_text(v))
    if text:
        _put_text(el, text)
    return el


def _xml_text(value: object) -> str:
    """Pack text made safe for XML: characters XML cannot hold become U+FFFD. (The serialiser
    escapes ``& < > "``, so a name is only ever text.)"""
    return _NOT_XML.sub("\ufffd", str(value))


def _put_text(el: ET.Element, text: str, attrs: dict[str, str] | None = None) -> None:
    """Append ``text`` to ``el`` (in a tspan with ``attrs`` when given), each run of symbol
    characters in a tspan of the symbol font so that every renderer draws it from there."""
    target = el
    if attrs:
        target = ET.SubElement(el, f"{{{SVG_NS}}}tspan", attrs)
    pos = 0
    text = _xml_text(text)
    last: ET.Element | None = None
    for m in SYMBOL_RUN.finditer(text):
        _append(target, last, text[pos : m.start()])
        last = ET.SubElement(target, f"{{{SVG_NS}}}tspan", {"font-family": FAMILY})
        last.text = m[0]
        pos = m.end()
    _append(target, last, text[pos:])


def _anchor_start(el: ET.Element, text: str, size: float, bold: bool) -> None:
    """Centred or right-aligned text holding a symbol, re-anchored at its start: cairo
    measures such text in one font only and would draw the symbol over its neighbours.
    The start comes from the width estimate, less its safety margin."""
    anchor = el.get("text-anchor", "start")
    if anchor == "start" or not SYMBOL_RUN.search(text):
        return
    width = text_width(text, size, bold) / _MARGIN
    x = number(el, "x", 0) - (width / 2 if anchor == "middle" else width)
    el.set("x", f"{round(x, 1):g}")
    el.set("text-anchor", "start")


def _append(el: ET.Element, last: ET.Element | None, text: str) -> None:
    """Add ``text`` at the end of ``el``'s content (after ``last``, its last child)."""
    if not text:
        return
    if last is None and len(el):
        last = el[-1]
    if last is None:
        el.text = (el.text or "") + text
    else:
        last.tail = (last.tail or "") + text


def _symbols_in_template(root: ET.Element) -> None:
    """Put the symbols a template writes itself ("⚔ swords") in the symbol font."""
    for el in list(root.iter(f"{{{SVG_NS}}}text")) + list(root.iter(f"{{{SVG_NS}}}tspan")):
        if el.get("font-family") == FAMILY or el.get("data-slot"):
            continue
        for child in [None, *list(el)]:
            text = el.text if child is None else child.tail
            if not text or not SYMBOL_RUN.search(text):
                continue
            if child is None:
                el.text = None
                at = 0
            else:
                child.tail = None
                at = list(el).index(child) + 1
            holder = ET.Element("holder")
            _put_text(holder, text)
            if child is None:
                el.text = holder.text
            else:
                child.tail = holder.text
            for i, part in enumerate(list(holder)):
                el.insert(at + i, part)


def _line(parent: ET.Element, x: float, y: float, line: list[Run], size: float) -> None:
    """One wrapped line of the rules text, a tspan per change of weight."""
    el = _node(parent, "text", x=f"{x:g}", y=f"{y:g}", font_size=f"{size:g}", fill="#1d1d1d")
    el.set("class", "rules")
    groups: list[Run] = []
    for run in line:
        if groups and groups[-1].bold == run.bold:
            groups[-1] = Run(groups[-1].text + " " + run.text, run.bold)
        elif groups:
            # A no-break space: renderers may drop a plain one at the edge of a tspan.
            groups.append(Run("\u00a0" + run.text, run.bold))
        else:
            groups.append(run)
    for g in groups:
        _put_text(el, g.text, {"font-weight": "bold"} if g.bold else None)


def _name_lines(name: str, width: float) -> tuple[list[str], float]:
    """The card name in one or two lines and a font size that fits ``width``."""
    for size in (46, 42, 38):
        if text_width(name, size, bold=True) <= width:
            return [name], size
    for size in (40, 36, 32, 28, 24):
        lines = wrap_runs([Run(name, True)], width, size)
        if len(lines) <= 2:
            return [" ".join(r.text for r in line) for line in lines], size
    lines = wrap_runs([Run(name, True)], width, 24)
    return [" ".join(r.text for r in line) for line in lines[:2]], 24


@dataclass(frozen=True)
class _Box:
    """Where the rules text may go: the box's edges, less its padding."""

    x0: float
    x1: float
    top: float
    bottom: float
    sizes: tuple[float, ...]


def _layout_rules(
    paragraphs: list[tuple[str, str]], box: _Box
) -> tuple[list[tuple[float, list[Run]]], float]:
    """Lines (baseline y, runs) of the rules text and the font size used.

    Tries each size in turn and keeps the first where every line fits above the box bottom;
    at the smallest size the text is cut with an ellipsis rather than run off the card.
    """
    width = box.x1 - box.x0 - 2 * _TEXT_PAD
    for size in box.sizes:
        placed = _place(paragraphs, box.top, width, size)
        if not placed or placed[-1][0] + size * 0.3 <= box.bottom - _TEXT_PAD:
            return placed, size
    size = box.sizes[-1]
    placed = _place(paragraphs, box.top, width, size)
    kept = [p for p in placed if p[0] + size * 0.3 <= box.bottom - _TEXT_PAD]
    if kept:
        y, runs = kept[-1]
        kept[-1] = (y, _ellipsize(runs, width, size))
    return kept, size


def _ellipsize(runs: list[Run], width: float, size: float) -> list[Run]:
    runs = list(runs)
    while runs and text_width(" ".join(r.text for r in runs) + " \u2026", size) > width:
        runs.pop()
    return [*runs, Run("\u2026")]


def _place(
    paragraphs: list[tuple[str, str]], top: float, width: float, size: float
) -> list[tuple[float, list[Run]]]:
    line_h = size * 1.25
    y = top + _TEXT_PAD + size
    out = []
    for i, (head, body) in enumerate(paragraphs):
        if i:
            y += size * 0.45
        runs = [Run(head, True), Run(body)]
        for line in wrap_runs(runs, width, size):
            out.append((y, line))
            y += line_h
    return out


@dataclass
class _Face:
    """What one card shows, worked out once, for the slots to draw."""

    card: dict[str, Any]
    kind: str
    paragraphs: list[tuple[str, str]]
    pills: list[tuple[str, str]]
    art: str | None  # a data: URL


def card_svg(
    card: dict[str, Any],
    dragon: str = "dragon",
    template: Template | None = None,
    art: str | None = None,
) -> str:
    """The SVG text of one card face (poker size, 63 x 88 mm), drawn from ``template``
    (Clankwork's own by default); ``dragon`` is the pack's word for the antagonist
    (`dragon { word boss }`), on the attack symbol's pill; ``art`` is the card's picture as a
    ``data:`` URL (`art_data_url`), drawn in the template's art slot."""
    kind = card_kind(card)
    with antagonist(dragon):
        paragraphs = card_rules(card)
    face = _Face(card, kind, paragraphs, _tags(card, dragon), art)
    root = (template or default_template()).tree()
    root.set("class", f"card card-{kind}")
    for old in [el for el in root if el.tag in (f"{{{SVG_NS}}}title", f"{{{SVG_NS}}}desc")]:
        root.remove(old)
    title = ET.Element(f"{{{SVG_NS}}}title")
    title.text = _xml_text(card["name"])
    desc = ET.Element(f"{{{SVG_NS}}}desc")
    desc.text = _xml_text(" ".join(f"{h} {b}" for h, b in paragraphs))
    root.insert(0, title)
    root.insert(1, desc)
    _symbols_in_template(root)
    flow = -1e9  # the bottom of the last slot drawn in the flow (pills, art, rules)
    for parent, el in slots(root):
        flow = _fill(face, parent, el, flow)
    _symbol_font(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _fill(face: _Face, parent: ET.Element, el: ET.Element, flow: float) -> float:
    """Fill one slot of the template for ``face``; returns the new flow bottom."""
    slot = el.get("data-slot")
    banner, ink = BANNERS[face.kind]
    card = face.card
    if slot == "banner":
        el.set("fill", banner)
    elif slot == "name":
        _name(parent, el, card["name"], ink)
    elif slot == "subtitle":
        _put_text(el, _subtitle(card))
        el.set("class", "subtitle")
    elif slot == "copies":
        _put_text(el, f"\u00d7{card.get('copies', 1)}")
        el.set("class", "copies")
    elif slot == "tags":
        x, y = number(el, "data-x", 40), number(el, "data-y", 190)
        if face.pills:
            flow = _pills(el, face.pills, x, y, number(el, "data-width", 550))
        else:
            flow = max(flow, y - _GAP)
    elif slot == "art":
        if face.art is None:
            parent.remove(el)
        else:
            y = max(number(el, "y", 0), flow + _GAP)
            el.set("y", f"{y:g}")
            el.set("href", face.art)
            flow = y + number(el, "height", 0)
    elif slot == "rules":
        flow = _rules(parent, el, face.paragraphs, flow)
    elif slot in ("points", "cost", "fight"):
        value = _badge(card, slot)
        if value is None:
            parent.remove(el)
        else:
            for sub in el.iter():
                if sub.get("data-slot") == f"{slot}-value":
                    _put_text(sub, value)
                    sub.set("class", slot)
    return flow


_GAP = 16  # between the pills, the art and the rules box


def _badge(card: dict[str, Any], slot: str) -> str | None:
    """The number a corner badge shows, or None when the card has none."""
    if slot == "points":
        points = card.get("points", 0)
        if not points and not card.get("points_per"):
            return None
        return (str(points) if points else "") + ("*" if card.get("points_per") else "")
    if slot == "fight":
        return str(card["fight"]) if "fight" in card else None
    return str(card["cost"]) if "cost" in card and "fight" not in card else None


def _name(parent: ET.Element, el: ET.Element, name: str, ink: str) -> None:
    """Replace the name slot with one or two lines of the name, fitted to its width."""
    lines, size = _name_lines(name, number(el, "data-width", CARD_W - 100))
    cy = number(el, "y", 73)
    ys = [cy + size * 0.36] if len(lines) == 1 else [cy - size * 0.2, cy + size * 0.95]
    at = list(parent).index(el)
    parent.remove(el)
    for i, (y, text) in enumerate(zip(ys, lines, strict=True)):
        line = copy.deepcopy(el)
        line.set("y", f"{round(y, 1):g}")
        line.set("font-size", f"{size:g}")
        line.set("fill", ink)
        line.set("class", "name")
        _put_text(line, text)
        _anchor_start(line, text, size, True)
        parent.insert(at + i, line)


def _rules(
    parent: ET.Element, el: ET.Element, paragraphs: list[tuple[str, str]], flow: float
) -> float:
    """Fit the rules box below what the flow drew, and write the rules text in it."""
    x, y = number(el, "x", _TEXT_X0), number(el, "y", 206)
    width = number(el, "width", _TEXT_X1 - _TEXT_X0)
    bottom = y + number(el, "height", _TEXT_BOTTOM - y)
    top = max(y, flow + _GAP)
    el.set("y", f"{top:g}")
    el.set("height", f"{max(bottom - top, 0):g}")
    largest = number(el, "font-size", _TEXT_SIZES[0])
    sizes = tuple(s for s in _TEXT_SIZES if s < largest) or _TEXT_SIZES[-1:]
    box = _Box(x, x + width, top, bottom, (largest, *sizes))
    shown = [(with_symbols(h), with_symbols(b)) for h, b in paragraphs]
    placed, size = _layout_rules(shown, box)
    lines = ET.Element("lines")
    for ty, runs in placed:
        _line(lines, x + _TEXT_PAD, round(ty, 1), runs, size)
    at = list(parent).index(el)
    for i, line in enumerate(lines):
        parent.insert(at + 1 + i, line)
    return bottom


def _pills(
    group: ET.Element, pills: list[tuple[str, str]], x0: float, y: float, width: float
) -> float:
    """Draw keyword pills in rows from (``x0``, ``y``); return the y below the last row."""
    size, h, x = 24, 40, x0
    for colour, label in pills:
        w = text_width(label, size, bold=True) + 28
        if x + w > x0 + width and x > x0:
            x, y = x0, y + h + 10
        _node(group, "rect", x=f"{x:g}", y=f"{y:g}", width=f"{w:.0f}", height=str(h))
        group[-1].set("rx", str(h // 2))
        group[-1].set("fill", colour)
        pill = _node(
            group,
            "text",
            label,
            x=f"{round(x + w / 2, 1):g}",
            y=f"{y + 28:g}",
            font_size=str(size),
            text_anchor="middle",
            font_weight="bold",
            fill="#ffffff",
        )
        pill.set("class", "tag")
        _anchor_start(pill, label, size, True)
        x += w + 10
    return y + h


def _symbol_font(root: ET.Element) -> None:
    """Embed the symbol glyphs the drawing uses (`symbols.font_face_css`), if any."""
    css = font_face_css(used_symbols("".join(root.itertext())))
    if css:
        style = ET.Element(f"{{{SVG_NS}}}style")
        style.text = css
        root.insert(2, style)


def card_filename(name: str, taken: set[str]) -> str:
    """A file name for a card: lower-case words joined by hyphens, unique within ``taken``
    (see `outputs.safe_filename`: a card's name never chooses where its file goes)."""
    return safe_filename(name, ".svg", taken, fallback="card")


def sheet_html(cards: list[dict[str, Any]], svgs: list[str], title: str, copies: bool) -> str:
    """A printable XHTML page: cards at poker size, nine to a page (3 x 3).

    With ``copies`` each design is repeated as many times as the pack has copies of it;
    otherwise each design appears once; the count (the card's ``×N``) is printed on every face
    and in each cell's ``data-copies``.
    """
    faces: list[tuple[dict[str, Any], str]] = []
    for card, svg in zip(cards, svgs, strict=True):
        body = svg.split("\n", 1)[1]  # drop the XML declaration: inline SVG has none
        faces.extend([(card, body)] * (card.get("copies", 1) if copies else 1))
    pages = [faces[i : i + 9] for i in range(0, len(faces), 9)]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!DOCTYPE html>",
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">',
        "<head>",
        '<meta charset="utf-8"/>',
        f"<title>{escape(title)}</title>",
        "<style>",
        "@page { size: A4 portrait; margin: 10mm; }",
        "body { margin: 0; font-family: " + FONT_FAMILY + "; }",
        ".page { display: grid; grid-template-columns: repeat(3, 63mm);",
        "  grid-auto-rows: 88mm; gap: 2mm; justify-content: center;",
        "  break-after: page; page-break-after: always; }",
        ".page:last-child { break-after: auto; page-break-after: auto; }",
        ".cell { position: relative; width: 63mm; height: 88mm; }",
        ".cell svg { width: 63mm; height: 88mm; display: block; }",
        "@media screen { .page { margin-bottom: 8mm; } }",
        "</style>",
        "</head>",
        "<body>",
    ]
    for page in pages:
        out.append('<div class="page">')
        for card, body in page:
            n = card.get("copies", 1)
            out.append(
                f'<div class="cell" data-card="{escape(card["name"])}" data-copies="{escape(n)}">'
            )
            out.append(body.rstrip("\n"))
            out.append("</div>")
        out.append("</div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def write_cards(
    ir: dict[str, Any],
    out_dir: Path,
    sheet: bool = False,
    copies: bool = False,
    face: Callable[[dict[str, Any]], str] | None = None,
    include_sealed: bool = False,
) -> list[Path]:
    """Write one SVG per card design into ``out_dir`` (and ``cards.html`` with ``sheet``).

    ``face`` draws a card (`pieces.Pieces.face`: the pack's templates and art; Clankwork's
    template by default). The sheet leaves out the Cardporium's sealed legacy cards unless
    ``include_sealed``. The folder is created if needed; each file is written atomically
    without following a link at its path (`outputs.write_text`); a problem is an
    `outputs.OutputError`.
    """
    prepare_dir(out_dir)
    taken: set[str] = {SHEET_NAME}
    written, svgs, shown = [], [], []
    word = ir.get("dragon", {}).get("word", "dragon")
    for card in ir.get("cards", []):
        svg = face(card) if face is not None else card_svg(card, word)
        path = out_dir / card_filename(card["name"], taken)
        write_text(path, svg)
        written.append(path)
        if include_sealed or card["deck"] != "cardporium":
            svgs.append(svg)
            shown.append(card)
    if sheet:
        title = ir.get("pack", {}).get("title") or ir.get("pack", {}).get("name", "cards")
        page = out_dir / SHEET_NAME
        write_text(page, sheet_html(shown, svgs, title, copies))
        written.append(page)
    return written
