"""The game's symbols (boots, swords, skill, Clank!, the dragon...) and the font that draws them.

Card text names resources in words ("+2 Skill"); a printed card also shows each one's symbol,
so a player finds it at a glance. The symbols come from one font shipped with Clankwork,
`fonts/ClankworkSymbols.ttf`: a subset of Noto Emoji (SIL Open Font License 1.1, its
licence beside it), renamed so that it never stands in for a system's colour emoji font.
A renderer that lacks a glyph draws an empty box, so the font goes wherever a symbol goes:

- in an SVG, the glyphs the drawing uses are embedded as a font subset (`font_face_css`), so
  a browser or an editor shows them without any font installed;
- for PNG and PDF (cairo, through fontconfig), `register_font` adds the font file to the
  process's fontconfig as an application font before anything is drawn.

Text uses DejaVu Sans (Debian's fonts-dejavu-core, which the quick start installs); a
system without it substitutes another sans face, which is never wider (see `render_cards`).
"""

from __future__ import annotations

import base64
import ctypes
import ctypes.util
import functools
import io
import re
from importlib import resources
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

FAMILY = "Clankwork Symbols"
FONT_FILE = "ClankworkSymbols.ttf"

SYMBOLS: dict[str, str] = {
    "boots": "\U0001f462",
    "swords": "\u2694",
    "skill": "\U0001f48e",
    "clank": "\U0001f4a5",
    "dragon": "\U0001f432",
    "gold": "\U0001fa99",
    "health": "\u2764",
    "monster": "\u2620",
    "danger": "\u26a0",
    "canoe": "\U0001f6f6",
    "lock": "\U0001f512",
    "artifact": "\U0001f3fa",
    "footprints": "\U0001f463",
}
"""Each symbol's character (its Unicode meaning, so copied text still says what it is)."""

ADVANCE_EM = 2600 / 2048
"""Every glyph of the font is this wide, in ems (checked against the font by a test)."""

_CHARS = "".join(SYMBOLS.values())
SYMBOL_RUN = re.compile(f"[{re.escape(_CHARS)}]+")

# The resource words of generated card text, after a number ("+2 Skill", "3 Clank!").
_WORDS = {"Skill": "skill", "Swords": "swords", "Boots": "boots", "Clank!": "clank", "Gold": "gold"}
_RESOURCE = re.compile(r"(?<![\w!])((?:\d+|X) )(Skill|Swords|Boots|Clank!|Gold)(?![\w!])")


def font_path() -> Path:
    """The symbol font file inside the installed package."""
    return Path(str(resources.files("clankwork.tools").joinpath("fonts", FONT_FILE)))


def with_symbols(text: str) -> str:
    """``text`` with each resource word after a number preceded by its symbol:
    ``"+2 Skill"`` becomes ``"+2 💎 Skill"`` (the word stays, for new players)."""
    return _RESOURCE.sub(lambda m: f"{m[1]}{SYMBOLS[_WORDS[m[2]]]}\u00a0{m[2]}", text)


def symbol_markup(escaped: str) -> str:
    """SVG character data (already escaped) with each run of symbol characters in a
    ``tspan`` of the symbol font, so every renderer draws them from it."""
    return SYMBOL_RUN.sub(lambda m: f'<tspan font-family="{FAMILY}">{m[0]}</tspan>', escaped)


def used_symbols(text: str) -> str:
    """The distinct symbol characters of ``text``, in the font's order."""
    return "".join(ch for ch in _CHARS if ch in text)


@functools.lru_cache(maxsize=256)
def font_face_css(chars: str) -> str:
    """An ``@font-face`` rule embedding the symbol font reduced to ``chars`` (a data URL), for
    the ``<style>`` of an SVG; empty when ``chars`` is."""
    if not chars:
        return ""
    # Same glyphs, same bytes: a saved font otherwise carries the time it was saved.
    font = TTFont(font_path(), recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 14]  # keep the copyright and the licence URL
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(c) for c in chars])
    sub.subset(font)
    out = io.BytesIO()
    font.save(out)
    data = base64.b64encode(out.getvalue()).decode("ascii")
    return (
        f'@font-face {{ font-family: "{FAMILY}"; '
        f'src: url("data:font/ttf;base64,{data}") format("truetype"); }}'
    )


class FontUnavailable(RuntimeError):
    """fontconfig cannot be loaded, so cairo would draw the symbols as boxes."""


@functools.lru_cache(maxsize=1)
def register_font() -> None:
    """Add the symbol font to this process's fontconfig (an application font), once.

    cairo finds fonts through fontconfig only, by family name; the font ships inside the
    package, not in a system folder, so it is added here rather than installed. Raises
    `FontUnavailable` when fontconfig (Debian's libfontconfig1, which cairo itself needs)
    is missing or refuses the file."""
    name = ctypes.util.find_library("fontconfig")
    if name is None:
        raise FontUnavailable("fontconfig is not installed (apt-get install libfontconfig1)")
    lib = ctypes.CDLL(name)
    lib.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.FcConfigAppFontAddFile.restype = ctypes.c_int
    if not lib.FcConfigAppFontAddFile(None, str(font_path()).encode()):
        raise FontUnavailable(f"fontconfig could not read {font_path()}")
