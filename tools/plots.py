"""What the web reports share: plots drawn by matplotlib to SVG and inlined with only drawing
left in them, and escaped HTML tables and figures (`simulate --html` and the workbench's
sections: tension, comparisons, tuning).

Every pack-provided string is text: in plots SVG text escaped by matplotlib's writer with
math parsing off (a ``$`` is a dollar sign), in tables escaped HTML; every SVG is parsed and
written back with only drawing elements (no script, foreign content, link out or event
attribute).
"""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import matplotlib
from matplotlib.figure import Figure

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
# What matplotlib's and Graphviz's drawings are made of; anything else (script, style,
# foreignObject, image, metadata...) is dropped.
_SVG_TAGS = {
    "svg", "g", "title", "path", "polygon", "polyline", "ellipse", "circle", "rect", "line",
    "text", "tspan", "a", "defs", "clipPath", "use", "linearGradient", "radialGradient", "stop",
}  # fmt: skip
# A label longer than this is cut (with an ellipsis) so that plots keep their shape.
LABEL_CHARS = 36
SEAT_COLOURS = ["#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f", "#555"]
RC = {
    "svg.fonttype": "none",  # text stays text: small, and searchable in the page
    "text.parse_math": False,  # a name's "$" is a dollar sign, not mathtext
    "font.size": 9,
    "font.family": "DejaVu Sans",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e4e4e4",
    "axes.axisbelow": True,
}


def label(text: str, chars: int = LABEL_CHARS) -> str:
    """A name cut (with an ellipsis) to ``chars`` characters, so that plots keep their shape."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def inline_svg(svg: bytes | str, css_class: str) -> str:
    """An SVG drawing as inline markup with only drawing left in it.

    Elements outside `_SVG_TAGS` go with their content, as do ``on*`` attributes, links that
    leave the drawing (an ``href`` not starting with ``#``) and ``url(...)`` references that
    are not to the drawing's own ids; the size is left to the page's style.
    """
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)

    def scrub(el: ET.Element) -> None:
        for child in list(el):
            if _local(child.tag) not in _SVG_TAGS:
                el.remove(child)
            else:
                scrub(child)
        for key in list(el.attrib):
            name = _local(key).lower()
            value = el.attrib[key]
            leaves = name == "href" and not value.startswith("#")
            if name.startswith("on") or leaves or re.search(r"url\((?!#)", value):
                del el.attrib[key]

    scrub(root)
    for key in ("width", "height"):
        root.attrib.pop(key, None)
    root.set("class", css_class)
    return ET.tostring(root, encoding="unicode")


def figure_svg(fig: Figure, salt: str) -> str:
    """The figure as inline SVG; ``salt`` makes its ids its own within the page."""
    buf = io.StringIO()
    with matplotlib.rc_context({**RC, "svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    return inline_svg(buf.getvalue(), "plot")


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of that size (inches), laid out by matplotlib."""
    with matplotlib.rc_context(RC):
        return Figure(figsize=(width, height), layout="constrained")


def errors(
    values: Sequence[float], cis: Sequence[dict[str, float]], scale: float = 1.0
) -> list[list[float]]:
    """Asymmetric error bars (below, above) from intervals in the values' units, scaled."""
    below = [max(0.0, (v - c["low"]) * scale) for v, c in zip(values, cis, strict=True)]
    above = [max(0.0, (c["high"] - v) * scale) for v, c in zip(values, cis, strict=True)]
    return [below, above]


def esc(text: object) -> str:
    """Text as escaped HTML (quotes too)."""
    return html.escape(str(text), quote=True)


def pct(x: float, ci: dict[str, float] | None = None) -> str:
    """A rate as a percentage, with its interval when given: ``44.0% [37.3–50.9]``."""
    if ci is None:
        return f"{x:.1%}"
    return f"{x:.1%} [{ci['low'] * 100:.1f}–{ci['high'] * 100:.1f}]"


def pts(d: float, ci: dict[str, float]) -> str:
    """A difference of rates in points with its interval: ``+4.1 [+1.0, +7.2]``."""
    return f"{d * 100:+.1f} [{ci['low'] * 100:+.1f}, {ci['high'] * 100:+.1f}]"


def table(head: Sequence[str], rows: Sequence[Sequence[object]], numeric_from: int = 1) -> str:
    """An HTML table; every cell is escaped text."""
    out = ["<table><thead><tr>"]
    out += [f"<th>{esc(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        cells = [
            f'<td class="{"num" if i >= numeric_from else "name"}">{esc(c)}</td>'
            for i, c in enumerate(row)
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def figure(svg: str, caption: str) -> str:
    """A plot and its caption (escaped)."""
    return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"
