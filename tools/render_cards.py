"""Card faces as SVG, written as text (no Graphviz), and a printable HTML sheet of them.

A card is drawn at poker size (63 x 88 mm) in a 630 x 880 user-unit box (0.1 mm each). Its
rules text is generated from the effect tree through the op registry's renderers, so what is
printed is what the engine does. Text is wrapped with a conservative width estimate (DejaVu
Sans / Verdana advance widths plus a margin), and shrunk when it would not fit its box.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as _sax_escape

from clankwork.interpreter.effects.registry import (
    TRIGGERS,
    antagonist,
    render_condition,
    render_count,
    render_effects,
)
from clankwork.interpreter.effects.triggers import LIMITS, heading

from .outputs import prepare_dir, safe_filename, write_text

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
TRIGGER_WORDS = {
    "play": "Play",
    "acquire": "Acquire",
    "arrive": "Arrive",
    "defeat": "Defeat",
    "use": "Use",
    "reveal": "Reveal",
    "enter": "Enter",
}
_TAG_COLOURS = {
    "companion": ("#2f7d6d", "Companion"),
    "dragon": ("#b3261e", "\u25b2 Dragon attack"),
    "danger": ("#d9480f", "Danger"),
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
            if _NUMBER.match(w):
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


def card_rules(card: dict[str, Any]) -> list[tuple[str, str]]:
    """The card's rules as (heading, text) paragraphs, generated from its effect tree.

    Headings carry their colon: ``("Play, if another companion is in your play area:",
    "+1 Skill")``; a ``points_per`` card ends with ``("*", "1 point per 5 Gold you have")``,
    the asterisk matching the one in its points hexagon.
    """
    out = []
    for trig in card.get("triggers", []):
        on = trig["on"]
        head = TRIGGER_WORDS.get(on)
        if head is None:
            # Another trigger: its phrase ("When the dragon attacks", in the pack's word).
            phrase = heading(on) if on in TRIGGERS else on.replace("_", " ")
            head = phrase[:1].upper() + phrase[1:]
        limit = LIMITS.get(trig.get("limit", ""))
        if limit:
            head = limit[:1].upper() + limit[1:] + head[:1].lower() + head[1:]
        if "if" in trig:
            head += ", if " + render_condition(trig["if"])
        out.append((head + ":", render_effects(trig["effects"])))
    pp = card.get("points_per")
    if pp:
        unit = "point" if pp["points"] == 1 else "points"
        out.append(("*", f"{pp['points']} {unit} per {render_count(pp['per'])}"))
    return out


def card_kind(card: dict[str, Any]) -> str:
    """The banner kind of a card: acquire, monster, reserve, event or starting."""
    if card["type"] in ("monster", "event"):
        return card["type"]
    if card["deck"] in ("reserve", "starting"):
        return card["deck"]
    return "acquire"


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
            label = f"\u25b2 {dragon[:1].upper()}{dragon[1:]} attack"
        pills.append((colour, label))
    if card.get("danger"):
        pills.append(_TAG_COLOURS["danger"])
    if card.get("only_in"):
        pills.append(("#5c5c5c", f"Only in {card['only_in']}"))
    return pills


def _text(x: float, y: float, body: str, size: float, **attrs: Any) -> str:
    """A text element; ``body`` is markup already escaped, attribute values are escaped here."""
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{extra}>{body}</text>'


def _runs_markup(line: list[Run]) -> str:
    """One wrapped line as tspans, one per change of weight."""
    groups: list[Run] = []
    for run in line:
        if groups and groups[-1].bold == run.bold:
            groups[-1] = Run(groups[-1].text + " " + run.text, run.bold)
        elif groups:
            # A no-break space: renderers may drop a plain one at the edge of a tspan.
            groups.append(Run("\u00a0" + run.text, run.bold))
        else:
            groups.append(run)
    return "".join(
        f'<tspan font-weight="bold">{escape(g.text)}</tspan>' if g.bold else escape(g.text)
        for g in groups
    )


def _name_lines(name: str) -> tuple[list[str], float]:
    """The card name in one or two lines and a font size that fits the banner."""
    width = CARD_W - 2 * 50
    for size in (46, 42, 38):
        if text_width(name, size, bold=True) <= width:
            return [name], size
    for size in (40, 36, 32, 28, 24):
        lines = wrap_runs([Run(name, True)], width, size)
        if len(lines) <= 2:
            return [" ".join(r.text for r in line) for line in lines], size
    lines = wrap_runs([Run(name, True)], width, 24)
    return [" ".join(r.text for r in line) for line in lines[:2]], 24


def _layout_rules(
    paragraphs: list[tuple[str, str]], top: float
) -> tuple[list[tuple[float, list[Run]]], float]:
    """Lines (baseline y, runs) of the rules text and the font size used.

    Tries each size in turn and keeps the first where every line fits above the box bottom;
    at the smallest size the text is cut with an ellipsis rather than run off the card.
    """
    width = _TEXT_X1 - _TEXT_X0 - 2 * _TEXT_PAD
    for size in _TEXT_SIZES:
        placed = _place(paragraphs, top, width, size)
        if not placed or placed[-1][0] + size * 0.3 <= _TEXT_BOTTOM - _TEXT_PAD:
            return placed, size
    size = _TEXT_SIZES[-1]
    placed = _place(paragraphs, top, width, size)
    kept = [p for p in placed if p[0] + size * 0.3 <= _TEXT_BOTTOM - _TEXT_PAD]
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


def _hexagon(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(6):
        # Flat-topped hexagon: corners at 0, 60, ... degrees.
        dx, dy = _HEX[k]
        pts.append(f"{cx + r * dx:.1f},{cy + r * dy:.1f}")
    return " ".join(pts)


_HEX = ((1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866))


def card_svg(card: dict[str, Any], dragon: str = "dragon") -> str:
    """The SVG text of one card face (poker size, 63 x 88 mm); ``dragon`` is the pack's word
    for the antagonist (`dragon { word boss }`), on the attack symbol's pill."""
    kind = card_kind(card)
    banner, ink = BANNERS[kind]
    name = card["name"]
    with antagonist(dragon):
        paragraphs = card_rules(card)
    desc = " ".join(f"{h} {b}" for h, b in paragraphs)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
        f'viewBox="0 0 {CARD_W} {CARD_H}" font-family="{FONT_FAMILY}" '
        f'class="card card-{kind}">',
        f"<title>{escape(name)}</title>",
        f"<desc>{escape(desc)}</desc>",
        f'<rect x="0" y="0" width="{CARD_W}" height="{CARD_H}" rx="30" fill="#222222"/>',
        f'<rect x="14" y="14" width="{CARD_W - 28}" height="{CARD_H - 28}" rx="20" '
        'fill="#fbf6ea"/>',
        # Banner: rounded at the top only, so a plain rect covers the lower corners.
        f'<rect x="14" y="14" width="{CARD_W - 28}" height="118" rx="20" fill="{banner}"/>',
        f'<rect x="14" y="80" width="{CARD_W - 28}" height="52" fill="{banner}"/>',
    ]
    lines, size = _name_lines(name)
    ys = [73 + size * 0.36] if len(lines) == 1 else [73 - size * 0.2, 73 + size * 0.95]
    for y, text in zip(ys, lines, strict=True):
        out.append(
            _text(
                CARD_W / 2,
                round(y, 1),
                escape(text),
                size,
                text_anchor="middle",
                font_weight="bold",
                fill=ink,
                class_="name",
            )
        )
    out.append(_text(40, 170, escape(_subtitle(card)), 24, fill="#5a5048", font_style="italic"))
    copies = card.get("copies", 1)
    out.append(
        _text(
            CARD_W - 40,
            170,
            escape(f"\u00d7{copies}"),
            28,
            text_anchor="end",
            font_weight="bold",
            fill="#5a5048",
            class_="copies",
        )
    )
    y = _pills(out, _tags(card, dragon), 190)
    top = y + 16
    out.append(
        f'<rect x="{_TEXT_X0}" y="{top}" width="{_TEXT_X1 - _TEXT_X0}" '
        f'height="{_TEXT_BOTTOM - top}" rx="14" fill="#ffffff" stroke="#c9bfa8" '
        'stroke-width="3"/>'
    )
    placed, tsize = _layout_rules(paragraphs, top)
    for ty, runs in placed:
        out.append(
            _text(
                _TEXT_X0 + _TEXT_PAD,
                round(ty, 1),
                _runs_markup(runs),
                tsize,
                fill="#1d1d1d",
                class_="rules",
            )
        )
    out.extend(_corner_badges(card))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pills(out: list[str], pills: list[tuple[str, str]], y: float) -> float:
    """Draw keyword pills in rows from ``y``; return the y below the last row."""
    if not pills:
        return y
    size, h, x = 24, 40, 40.0
    for colour, label in pills:
        w = text_width(label, size, bold=True) + 28
        if x + w > CARD_W - 40 and x > 40:
            x, y = 40.0, y + h + 10
        out.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:.0f}" height="{h}" rx="{h // 2}" '
            f'fill="{colour}"/>'
        )
        out.append(
            _text(
                round(x + w / 2, 1),
                y + 28,
                escape(label),
                size,
                text_anchor="middle",
                font_weight="bold",
                fill="#ffffff",
                class_="tag",
            )
        )
        x += w + 10
    return y + h


def _corner_badges(card: dict[str, Any]) -> list[str]:
    """Points (hexagon, lower left) and cost or fight value (lower right)."""
    out = []
    cy = 800
    points = card.get("points", 0)
    if points or card.get("points_per"):
        label = str(points) if points else ""
        if card.get("points_per"):
            label += "*"
        out.append(f'<polygon points="{_hexagon(90, cy, 52)}" fill="#7a5a1e"/>')
        out.append(
            _text(
                90,
                cy + 15,
                escape(label),
                40,
                text_anchor="middle",
                font_weight="bold",
                fill="#ffffff",
                class_="points",
            )
        )
        out.append(_text(160, cy + 9, "points", 24, fill="#5a5048"))
    if "fight" in card:
        out.append(
            '<path d="M 500 752 L 590 752 L 590 800 Q 590 838 545 856 Q 500 838 500 800 Z" '
            'fill="#b3261e"/>'
        )
        out.append(
            _text(
                545,
                cy + 12,
                escape(card["fight"]),
                44,
                text_anchor="middle",
                font_weight="bold",
                fill="#ffffff",
                class_="fight",
            )
        )
        out.append(_text(488, cy + 9, "\u2694 swords", 24, text_anchor="end", fill="#5a5048"))
    elif "cost" in card:
        out.append(
            f'<polygon points="545,746 597,800 545,854 493,800" fill="{BANNERS["acquire"][0]}"/>'
        )
        out.append(
            _text(
                545,
                cy + 15,
                escape(card["cost"]),
                44,
                text_anchor="middle",
                font_weight="bold",
                fill="#ffffff",
                class_="cost",
            )
        )
        out.append(_text(482, cy + 9, "skill", 24, text_anchor="end", fill="#5a5048"))
    return out


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
    ir: dict[str, Any], out_dir: Path, sheet: bool = False, copies: bool = False
) -> list[Path]:
    """Write one SVG per card design into ``out_dir`` (and ``cards.html`` with ``sheet``).

    The folder is created if needed; each file is written atomically without following a
    link at its path (`outputs.write_text`); a problem is an `outputs.OutputError`.
    """
    prepare_dir(out_dir)
    taken: set[str] = {SHEET_NAME}
    written, svgs = [], []
    word = ir.get("dragon", {}).get("word", "dragon")
    for card in ir.get("cards", []):
        svg = card_svg(card, word)
        path = out_dir / card_filename(card["name"], taken)
        write_text(path, svg)
        written.append(path)
        svgs.append(svg)
    if sheet:
        title = ir.get("pack", {}).get("title") or ir.get("pack", {}).get("name", "cards")
        page = out_dir / SHEET_NAME
        write_text(page, sheet_html(ir.get("cards", []), svgs, title, copies))
        written.append(page)
    return written
