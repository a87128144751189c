"""Art a card names (`art "art/goblin.png"`): read from inside the pack, and only images.

A pack comes from a stranger, and its art ends up inside every card drawn from it (SVG, PNG,
PDF, a Tabletop Simulator sheet). So an art file is read like any file of the pack
(`PackReader`: inside the pack folder after links are resolved, a regular file, at most
`limits.MAX_ART_BYTES`), and only a PNG, a JPEG or an SVG is taken, recognised by its
content. An SVG may not reach outside itself: no DOCTYPE or entity, no script, no
``foreignObject``, no event attribute, and no reference (``href``, ``url(...)``, ``@import``)
other than to its own elements (``#id``) or to an embedded PNG or JPEG (``data:``). The
compiler reports each problem at the `art` line (CW004 missing, CW005 outside the pack,
CW006 too large, CW144 not an image it can draw); the renderers check again when they read
the file, since an IR file or the folder may have changed since.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from . import limits
from .diagnostics import Diagnostic, Span
from .sources import PackReader

PNG = "image/png"
JPEG = "image/jpeg"
SVG = "image/svg+xml"
EXTENSIONS = {".png": PNG, ".jpg": JPEG, ".jpeg": JPEG, ".svg": SVG}
"""The file names art may have, and the kind of image each must hold."""
_SHOWN = {PNG: "PNG", JPEG: "JPEG", SVG: "SVG"}

_SVG_NS = "{http://www.w3.org/2000/svg}"
_FORBIDDEN = {"script", "foreignObject", "iframe", "object", "embed", "audio", "video"}
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)
_SAFE_DATA = re.compile(r"data:image/(png|jpeg|jpg);base64,", re.IGNORECASE)


def image_kind(data: bytes) -> str | None:
    """The media type of ``data`` (PNG, JPEG or SVG) from its first bytes, else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in data[:65536]:
        return SVG
    return None


def _reference_ok(value: str) -> bool:
    value = value.strip()
    return value.startswith("#") or bool(_SAFE_DATA.match(value)) or value == ""


def svg_problem(data: bytes) -> str | None:
    """Why the SVG ``data`` cannot be used as art or a template (a short phrase), or None.

    Refused: a DOCTYPE or an entity (they can pull in other files), anything that is not
    well-formed XML or whose root is not ``svg``, scripts and embedded documents, event
    attributes, and any reference to something outside the file."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return "it has a DOCTYPE or an entity declaration"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, col = exc.position
        return f"it is not well-formed XML (line {line}, column {col + 1})"
    if root.tag not in (f"{_SVG_NS}svg", "svg"):
        return "its root element is not <svg>"
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        if tag in _FORBIDDEN:
            return f"it has a <{tag}> element"
        for key, value in el.attrib.items():
            local = key.rsplit("}", 1)[-1].lower()
            if local.startswith("on"):
                return f"it has an event attribute ({local})"
            if local == "href" and not _reference_ok(value):
                return f"it refers to {value[:60]!r}"
            for target in _URL.findall(value):
                if not _reference_ok(target):
                    return f"it refers to {target[:60]!r}"
        if tag == "style":
            text = "".join(el.itertext())
            if "@import" in text.lower():
                return "its style imports another file"
            for target in _URL.findall(text):
                if not _reference_ok(target):
                    return f"it refers to {target[:60]!r}"
    return None


def art_problem(named: str, data: bytes) -> str | None:
    """Why ``data``, read from the art file ``named``, cannot be drawn (a sentence), or None."""
    ext = "." + named.rsplit(".", 1)[-1].lower() if "." in named else ""
    kind = image_kind(data)
    if ext not in EXTENSIONS:
        return f"{named} is not a PNG, JPEG or SVG file (art must be one of .png, .jpg, .svg)"
    if kind != EXTENSIONS[ext]:
        return f"{named} does not hold the {_SHOWN[EXTENSIONS[ext]]} image its name says"
    if kind == SVG:
        problem = svg_problem(data)
        if problem is not None:
            return f"{named} cannot be used as art: {problem}"
    return None


def check_art(reader: PackReader, refs: list[tuple[dict[str, Any], str, Span]]) -> list[Diagnostic]:
    """Read each card's art through ``reader`` and set ``card["art"]`` (its path inside the
    pack) when it is an image that can be drawn. A missing file is CW004 and a file that is
    not an image CW144, here; a file outside the pack (CW005) or too large (CW006) is in
    ``reader.diags``, with the span of the `art` line."""
    out: list[Diagnostic] = []
    for card, named, span in refs:
        rel = reader.resolve(named, span)
        if rel is None:
            continue
        if not reader.exists(rel):
            out.append(
                Diagnostic(
                    "CW004",
                    f"the art of {card['name']!r}, {reader.display(named)}, does not exist",
                    span,
                    hint="the path is relative to the pack folder (the one with pack.clank)",
                )
            )
            continue
        data = reader.read_binary(rel, named, span, limits.MAX_ART_BYTES)
        if data is None:
            continue
        problem = art_problem(named, data)
        if problem is not None:
            out.append(
                Diagnostic(
                    "CW144",
                    problem,
                    span,
                    hint="use a PNG, a JPEG, or an SVG that holds everything it draws "
                    "(embed pictures as data: URLs; no links to other files or sites)",
                )
            )
            continue
        card["art"] = rel
    return out
