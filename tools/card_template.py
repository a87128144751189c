"""Card templates: SVG drawings with named slots that `render_cards` fills for each card.

Clankwork's own template (`templates/card.svg` in this package) draws every card unless the
pack has its own: ``PACK/templates/KIND.svg`` for one kind of card (acquire, monster,
reserve, event, starting), else ``PACK/templates/card.svg``. A pack's template is read like
any file of the pack (`dsl.sources.PackReader`: inside the pack folder, a regular file,
bounded) and refused when it could reach outside itself (`dsl.art.svg_problem`: no DOCTYPE,
script, event attribute or outside reference), since it comes from a stranger and ends up in
every drawing of the pack. The slots are described in the template file itself.
"""

from __future__ import annotations

import copy
import functools
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from clankwork.dsl.art import svg_problem
from clankwork.dsl.sources import PackReader

SVG_NS = "http://www.w3.org/2000/svg"
KINDS = ("acquire", "monster", "reserve", "event", "starting")
"""The kinds of card a template can be chosen for (`render_cards.card_kind`)."""
TEMPLATE_BYTES = 1024 * 1024
"""The largest template a pack may have."""

ET.register_namespace("", SVG_NS)


class TemplateError(ValueError):
    """A pack's template cannot be used; the message names the file and says why."""


@dataclass(frozen=True)
class Template:
    """A parsed, checked card template; `tree` gives each card a fresh copy of it."""

    name: str
    root: ET.Element

    def tree(self) -> ET.Element:
        """A copy of the template's root element, to fill for one card."""
        return copy.deepcopy(self.root)


def parse_template(data: bytes, name: str) -> Template:
    """The template in ``data`` (from file ``name``), or `TemplateError` saying why not."""
    problem = svg_problem(data)
    if problem is not None:
        raise TemplateError(f"{name} cannot be used as a card template: {problem}")
    root = ET.fromstring(data)
    if root.tag != f"{{{SVG_NS}}}svg":
        raise TemplateError(
            f'{name} cannot be used as a card template: its <svg> needs xmlns="{SVG_NS}"'
        )
    return Template(name, root)


@functools.lru_cache(maxsize=1)
def default_template() -> Template:
    """Clankwork's own card template."""
    path = resources.files("clankwork.tools").joinpath("templates", "card.svg")
    return parse_template(path.read_bytes(), "card.svg")


def default_template_bytes() -> bytes:
    """The text of Clankwork's own template, for a designer to copy."""
    return resources.files("clankwork.tools").joinpath("templates", "card.svg").read_bytes()


def pack_templates(pack_dir: Path | None) -> dict[str, Template]:
    """The pack's templates by card kind (``"card"`` for every kind), read from
    ``PACK/templates/``; empty when the pack has none. `TemplateError` for one that is
    refused (outside the pack, not a regular file, too large, or not a safe SVG)."""
    if pack_dir is None or not (Path(pack_dir) / "templates").is_dir():
        return {}
    found: dict[str, Template] = {}
    with PackReader(pack_dir, pack_dir) as reader:
        for kind in ("card", *KINDS):
            named = f"templates/{kind}.svg"
            if not reader.exists(named):
                continue
            rel = reader.resolve(named, None)
            data = None if rel is None else reader.read_binary(rel, named, None, TEMPLATE_BYTES)
            if data is None:
                raise TemplateError(reader.diags[-1].message)
            found[kind] = parse_template(data, reader.display(named))
    return found


def slots(root: ET.Element) -> list[tuple[ET.Element, ET.Element]]:
    """(parent, element) of every element with a ``data-slot``, in document order."""
    return [
        (parent, child)
        for parent in root.iter()
        for child in parent
        if child.get("data-slot") is not None
    ]


def number(el: ET.Element, attr: str, default: float) -> float:
    """A numeric attribute of ``el`` (``default`` when absent or not a number)."""
    try:
        return float(el.get(attr, default))
    except ValueError:
        return default
