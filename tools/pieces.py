"""A pack's physical pieces as SVG: card faces (with the pack's templates and art), card
backs by deck, token faces and backs; shared by `render pnp`, `render cards --format png`
and `export tts`.

Decks follow the rulebook's setup: the starting cards, the adventure deck (cards, monsters
and events), the reserve piles, and the Cardporium (legacy cards held back until a passage
fetches them, which stay sealed unless ``include_sealed``). Each deck has its own back, so a
printed card gives nothing away face down.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clankwork.dsl import limits
from clankwork.dsl.art import art_problem
from clankwork.dsl.sources import PackReader

from .card_template import Template, default_template, pack_templates
from .render_cards import (
    CARD_H,
    CARD_W,
    FONT_FAMILY,
    Run,
    card_kind,
    card_svg,
    escape,
    text_width,
    wrap_runs,
)
from .symbols import SYMBOLS, font_face_css, symbol_markup, used_symbols

DECKS = ("starting", "adventure", "reserve", "cardporium")
"""The decks a pack's cards are in, in setup order (each has its own back)."""
DECK_NAMES = {
    "starting": "Starting deck",
    "adventure": "Adventure deck",
    "reserve": "Reserve",
    "cardporium": "Cardporium",
}
_BACKS = {
    "starting": ("#6d6256", SYMBOLS["boots"]),
    "adventure": ("#23395d", SYMBOLS["dragon"]),
    "reserve": ("#a07d12", SYMBOLS["skill"]),
    "cardporium": ("#4a2c5e", SYMBOLS["lock"]),
}

TOKEN_KINDS: dict[str, tuple[str, float, str, str]] = {
    "minor": ("round", 22, "#4f7a28", "Minor secret"),
    "major": ("round", 22, "#6b3fa0", "Major secret"),
    "artifact": ("round", 25, "#b8901c", "Artifact"),
    "fruit": ("round", 22, "#c2185b", "Mystic fruit"),
    "market": ("square", 25, "#2a5ea8", "Market"),
    "mug": ("square", 22, "#8b5a2b", "Mug"),
    "cube": ("square", 12, "#3c3c3c", "Cube"),
    "other": ("square", 22, "#5c5c5c", "Token"),
}
"""Each token kind's shape, size (diameter or side, mm), colour and the word on its back."""


def deck_groups(ir: dict[str, Any], include_sealed: bool = False) -> dict[str, list[dict]]:
    """The pack's cards by deck, in pack order; the Cardporium only with ``include_sealed``
    (a legacy campaign opens it card by card), and empty decks left out."""
    groups: dict[str, list[dict[str, Any]]] = {d: [] for d in DECKS}
    for card in ir.get("cards", []):
        deck = card["deck"] if card["deck"] in groups else "adventure"
        groups[deck].append(card)
    if not include_sealed:
        groups["cardporium"] = []
    return {d: cards for d, cards in groups.items() if cards}


def pack_title(ir: dict[str, Any]) -> str:
    """The pack's title (its name when it has none)."""
    pack = ir.get("pack", {})
    return str(pack.get("title") or pack.get("name", "pack"))


@dataclass
class Pieces:
    """Draws one pack's pieces: faces from its templates and art, backs, tokens.

    ``pack_dir`` is the pack folder its templates and art are read from (None for an IR
    file: Clankwork's template, no art). Art that cannot be read now (moved, grown, changed
    since `check`) is left out of its card and noted in ``warnings``."""

    ir: dict[str, Any]
    pack_dir: Path | None = None
    warnings: list[str] = field(default_factory=list)
    _templates: dict[str, Template] | None = None
    _faces: dict[int, str] = field(default_factory=dict)

    def templates(self) -> dict[str, Template]:
        """The pack's templates by kind (`card_template.pack_templates`), read once."""
        if self._templates is None:
            self._templates = pack_templates(self.pack_dir)
        return self._templates

    def template_for(self, card: dict[str, Any]) -> Template:
        """The template a card is drawn from: its kind's, else the pack's, else Clankwork's."""
        found = self.templates()
        return found.get(card_kind(card)) or found.get("card") or default_template()

    def face(self, card: dict[str, Any]) -> str:
        """The SVG of a card's face."""
        key = id(card)
        if key not in self._faces:
            word = self.ir.get("dragon", {}).get("word", "dragon")
            art = self.art_url(card)
            self._faces[key] = card_svg(card, word, self.template_for(card), art)
        return self._faces[key]

    def art_url(self, card: dict[str, Any]) -> str | None:
        """The card's art as a ``data:`` URL, read through `PackReader` and checked again;
        None (with a warning) when it cannot be read or used."""
        named = card.get("art")
        if not named:
            return None
        if self.pack_dir is None:
            self.warnings.append(
                f"{card['name']}: art {named!r} is not drawn (give the pack folder, not an IR "
                "file, to draw art)"
            )
            return None
        with PackReader(self.pack_dir, self.pack_dir) as reader:
            rel = reader.resolve(named, None)
            data = None
            if rel is not None and reader.exists(rel):
                data = reader.read_binary(rel, named, None, limits.MAX_ART_BYTES)
            problem = art_problem(named, data) if data is not None else None
            if data is None or problem:
                why = problem or (reader.diags[-1].message if reader.diags else "it is missing")
                self.warnings.append(f"{card['name']}: art not drawn: {why}")
                return None
        kind = {".png": "image/png", ".svg": "image/svg+xml"}.get(
            Path(named).suffix.lower(), "image/jpeg"
        )
        return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"

    def back(self, deck: str) -> str:
        """The SVG of the back of every card of ``deck``."""
        return back_svg(deck, pack_title(self.ir))


def back_svg(deck: str, title: str) -> str:
    """A card back (63 x 88 mm): the deck's colour and symbol, its name and the pack's."""
    colour, symbol = _BACKS.get(deck, ("#333333", SYMBOLS["dragon"]))
    label = DECK_NAMES.get(deck, deck.capitalize())
    lines = wrap_runs([Run(title)], CARD_W - 140, 30)[:2]
    titles = "".join(
        f'<text x="{CARD_W / 2:g}" y="{700 + 38 * i}" font-size="30" text-anchor="middle" '
        f'fill="#f3ead7">{escape(" ".join(r.text for r in line))}</text>'
        for i, line in enumerate(lines)
    )
    css = font_face_css(used_symbols(symbol))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
        f'viewBox="0 0 {CARD_W} {CARD_H}" font-family="{FONT_FAMILY}" '
        f'class="back back-{escape(deck)}" data-bleed="#222222">\n'
        f"<title>{escape(label)}</title>\n<style>{css}</style>\n"
        f'<rect x="0" y="0" width="{CARD_W}" height="{CARD_H}" rx="30" fill="#222222"/>\n'
        f'<rect x="14" y="14" width="{CARD_W - 28}" height="{CARD_H - 28}" rx="20" '
        f'fill="{colour}"/>\n'
        f'<rect x="44" y="44" width="{CARD_W - 88}" height="{CARD_H - 88}" rx="12" '
        'fill="none" stroke="#f3ead7" stroke-width="4" stroke-dasharray="18 10"/>\n'
        f'<circle cx="{CARD_W / 2:g}" cy="400" r="150" fill="#f3ead7" opacity="0.15"/>\n'
        f'<text x="{CARD_W / 2:g}" y="455" font-size="160" text-anchor="middle" '
        f'fill="#f3ead7">{symbol_markup(symbol)}</text>\n'
        f'<text x="{CARD_W / 2:g}" y="180" font-size="46" font-weight="bold" '
        f'text-anchor="middle" fill="#f3ead7">{escape(label)}</text>\n'
        f"{titles}\n</svg>\n"
    )


def token_shape(token: dict[str, Any]) -> tuple[str, float]:
    """A token's shape (``round`` or ``square``) and size in mm."""
    shape, size, _colour, _back = TOKEN_KINDS.get(token.get("kind", ""), TOKEN_KINDS["other"])
    return shape, size


def token_svg(token: dict[str, Any], back: bool = False) -> str:
    """A token's face (its name, points and gold) or, with ``back``, its back (its kind),
    in a square box of its size (mm), the shape filled to 1 mm past its cut line."""
    shape, size, colour, back_label = TOKEN_KINDS.get(token.get("kind", ""), TOKEN_KINDS["other"])
    u = size * 10  # 0.1 mm units, as on cards
    pad = 10  # the colour runs 1 mm past the cut line (bleed)
    if shape == "round":
        fill = f'<circle cx="{u / 2:g}" cy="{u / 2:g}" r="{u / 2 + pad:g}" fill="{colour}"/>'
        ring = (
            f'<circle cx="{u / 2:g}" cy="{u / 2:g}" r="{u / 2 - 12:g}" fill="none" '
            'stroke="#f3ead7" stroke-width="4"/>'
        )
    else:
        side = u + 2 * pad
        fill = f'<rect x="{-pad}" y="{-pad}" width="{side:g}" height="{side:g}" fill="{colour}"/>'
        ring = (
            f'<rect x="12" y="12" width="{u - 24:g}" height="{u - 24:g}" rx="10" fill="none" '
            'stroke="#f3ead7" stroke-width="4"/>'
        )
    body = _token_back(back_label, u) if back else _token_face(token, u)
    css = font_face_css(used_symbols(body))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:g}mm" height="{size:g}mm" '
        f'viewBox="0 0 {u:g} {u:g}" font-family="{FONT_FAMILY}" overflow="visible">'
        f"<title>{escape(token.get('name', ''))}</title><style>{css}</style>"
        f"{fill}{ring}{body}</svg>"
    )


def _token_face(token: dict[str, Any], u: float) -> str:
    size = max(u / 9, 14)
    lines = wrap_runs([Run(token.get("name", ""), True)], u * 0.74, size)[:3]
    extra = []
    if token.get("points"):
        extra.append(f"{token['points']} pts")
    if token.get("gold"):
        extra.append(f"{token['gold']} {SYMBOLS['gold']}")
    rows = len(lines) + (1 if extra else 0)
    y0 = u / 2 - (rows - 1) * size * 0.6 + size * 0.35
    out = []
    for i, line in enumerate(lines):
        text = escape(" ".join(r.text for r in line))
        out.append(
            f'<text x="{u / 2:g}" y="{y0 + i * size * 1.2:.1f}" font-size="{size:.1f}" '
            f'font-weight="bold" text-anchor="middle" fill="#ffffff">{text}</text>'
        )
    if extra:
        y = y0 + len(lines) * size * 1.2
        text = " \u00b7 ".join(extra)
        out.append(
            f'<text x="{u / 2 - _half(text, size):.1f}" y="{y:.1f}" font-size="{size:.1f}" '
            f'fill="#ffe9a8">{symbol_markup(escape(text))}</text>'
        )
    return "".join(out)


def _half(text: str, size: float) -> float:
    """Half the estimated width of ``text`` (text with a symbol is placed from its start)."""
    return text_width(text, size) / 2 / 1.06


def _token_back(label: str, u: float) -> str:
    size = max(u / 8, 14)
    lines = wrap_runs([Run(label, True)], u * 0.74, size)[:2]
    y0 = u / 2 - (len(lines) - 1) * size * 0.6 + size * 0.35
    return "".join(
        f'<text x="{u / 2:g}" y="{y0 + i * size * 1.2:.1f}" font-size="{size:.1f}" '
        f'font-weight="bold" text-anchor="middle" fill="#f3ead7">'
        f"{escape(' '.join(r.text for r in line))}</text>"
        for i, line in enumerate(lines)
    )
