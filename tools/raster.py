"""SVG drawn to PNG and PDF with cairo (CairoSVG), the symbol font registered first.

Every picture Clankwork prints is an SVG it wrote (cards, backs, tokens, pages, the board
from Graphviz); this module is the one place it becomes pixels or a PDF page, so what is
printed is what the SVG says. CairoSVG reads only the SVG text it is given: every reference
to another file or site is answered with nothing (`_no_fetch`), so a pack's template or art
can never make a drawing read a file. Art reaches a card already embedded (``data:`` URLs).
"""

from __future__ import annotations

import base64
import urllib.parse
from typing import Any

from .symbols import FontUnavailable, register_font

try:
    from cairosvg import surface as cairo_surface
except OSError as exc:  # libcairo2 is missing: `render pnp` and PNGs say so, the rest works
    cairo_surface = None
    _CAIRO_PROBLEM = str(exc)
else:
    _CAIRO_PROBLEM = ""


class RasterUnavailable(RuntimeError):
    """cairo or fontconfig is missing, so nothing can be drawn to PNG or PDF."""


def available() -> bool:
    """True when cairo can be loaded (PNG and PDF can be drawn)."""
    return cairo_surface is not None


def _no_fetch(url: str, resource_type: str) -> bytes:
    """CairoSVG's URL fetcher: ``data:`` URLs are decoded, anything else is an empty SVG
    (nothing outside the drawing is ever read)."""
    if url.startswith("data:"):
        head, _, body = url.partition(",")
        if head.endswith(";base64"):
            return base64.b64decode(body)
        return urllib.parse.unquote_to_bytes(body)
    return b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'


def _ready() -> Any:
    """CairoSVG's surfaces, once the symbol font is registered."""
    if cairo_surface is None:
        raise RasterUnavailable(
            "cairo is not installed, so PNG and PDF cannot be drawn "
            f"(apt-get install libcairo2): {_CAIRO_PROBLEM}"
        )
    try:
        register_font()
    except FontUnavailable as exc:
        raise RasterUnavailable(str(exc)) from None
    return cairo_surface


def svg_to_png(svg: str, dpi: float = 96) -> bytes:
    """The SVG drawn as a PNG at ``dpi`` (its width and height in mm set the size)."""
    return _ready().PNGSurface.convert(
        bytestring=svg.encode("utf-8"), dpi=dpi, url_fetcher=_no_fetch
    )


def svg_to_pdf(svg: str) -> bytes:
    """The SVG as a one-page PDF, at the size its width and height give."""
    return _ready().PDFSurface.convert(
        bytestring=svg.encode("utf-8"), dpi=72, url_fetcher=_no_fetch
    )
