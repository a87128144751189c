"""Boards as Graphviz graphs: every space, path and icon a player plans a move with.

Spaces sit where the pack puts them (``pos``, in points, y growing down as on the printed
board) through neato with pinned positions, scaled up just enough that no two labels collide;
a board without positions is laid out by dot, with its groups drawn as clusters. A legend
node explains every symbol that appears on the board. An optional heatmap (from a
simulation) colours spaces by visits and paths by use, with its colour scale in the legend.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from dataclasses import dataclass, field
from html import escape as _html_escape
from pathlib import Path
from typing import Any

import click
import graphviz

from clankwork.dsl.diagnostics import did_you_mean
from clankwork.dsl.limits import MAX_DATA_BYTES
from clankwork.interpreter.content_actions import render_action
from clankwork.interpreter.effects import TRIGGERS
from clankwork.interpreter.effects.registry import render_condition, render_effects
from clankwork.interpreter.paths import is_closed

from .render_cards import text_width

FONT = "Helvetica,Arial,sans-serif"
NAME_SIZE, DETAIL_SIZE, EDGE_SIZE, LEGEND_SIZE = 13, 10, 10, 11

# Terrain decides a space's fill; the first feature of a space found here wins.
TERRAIN = (
    ("hq", "#ffd966", "HQ: start here; come back with an artifact"),
    ("forest", "#c6e5b9", "forest: entering it exhausts your boots"),
    ("crystal cave", "#dccff2", "crystal cave: entering it exhausts your boots"),
    ("security checkpoint", "#cfe0f2", "security checkpoint: entering it exhausts your boots"),
    ("town", "#f6d7a7", "town: buy from the market"),
)
EXHAUSTS_FILL = "#e2e2c8"
PLAIN_FILL = "#ffffff"
DANGER = "#b3261e"
REWARD_INK = "#1c6b2a"
COACH_INK = "#7a4a12"
# Actions a pack declares on a space, and paths of a declared way.
ACTION_INK = "#0b5f7a"
ARTIFACT_INK = "#8a6400"
# Characters a detail line under a space's name may take before it wraps.
LINE_WIDTH = 44
WATER = "#1f6fd1"
MOUNTAIN = "#8c8c8c"
PATH_INK = "#3c3c3c"
MONSTER_ICON = "\u2620"
# Entry tolls (what a space asks of whoever enters it) and tokens a space holds.
TOLL_INK = "#c2410c"
TOLL_MARK = "\u26a0"
TOKEN_INK = "#6d28d9"
TOKEN_MARK = "\u25cf"
# Declared ways (a ladder...), each its own colour and dash on the board and in the legend.
WAY_INKS = ("#0e7490", "#9d174d", "#4d7c0f", "#92400e", "#1e3a8a", "#6b21a8")
WAY_DASHES = ("dashed", "dotted", "dashed", "dotted", "dashed", "dotted")
# Sections a way joins pairwise (`within FEATURE`: a lift's floors...) and the words a
# pack gives spaces that the renderer knows no meaning of: strips and tags of these colours.
SECTION_INKS = ("#1d4ed8", "#b45309", "#047857", "#be185d", "#6d28d9", "#0f766e")
TAG_INKS = ("#475569", "#9a3412", "#3f6212", "#7e22ce", "#0e7490", "#a16207", "#be123c")
# The mark before a section's or a tag's name on a space and in the legend.
MARK = "\u25a0"
GROUP_COLOURS = ("#e8f0fb", "#fbeee8", "#eef8e8", "#f6ecfa", "#fdf7dd", "#e8f7f6")
GROUP_INKS = ("#3d6fb5", "#b5603d", "#4f8f3a", "#8a4fb0", "#a88a12", "#2f8f88")
# Sequential scale (ColorBrewer YlOrRd, 6 classes) for heatmaps; unused spaces stay grey.
HEAT = ("#ffffb2", "#fed976", "#feb24c", "#fd8d3c", "#f03b20", "#bd0026")
# Paths skip the palest class, which would vanish against the white page.
PATH_HEAT = ("#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#b10026")
HEAT_NONE = "#eeeeee"
HEAT_DARK = 4  # bins from this one on are dark: write on them in white


# Characters XML cannot hold (Graphviz parses HTML-like labels as XML, and writes SVG).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_DOT_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_DOT_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _esc(text: object) -> str:
    """Pack text for an HTML-like label: escaped, so it is only ever text in a cell."""
    return _html_escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def dot_text(text: object) -> str:
    """Pack text for a plain (quoted) DOT attribute such as a tooltip.

    The graphviz package emits a string that looks like ``<...>`` unquoted, as an HTML-like
    label, so a name such as ``<x> href="javascript:..." label=<y>`` would add attributes;
    `graphviz.nohtml` makes it a quoted string. Backslashes are doubled (Graphviz reads
    ``\\N``, ``\\l``... in these strings, and a final one would swallow the closing quote).
    """
    clean = _NOT_XML.sub("\ufffd", str(text)).replace("\\", "\\\\")
    return graphviz.nohtml(clean.replace("\n", " ").replace("\r", " "))


def graph_id(name: str) -> str:
    """The DOT name of a board's graph: its own name when that is a plain identifier (as
    ``overworld`` is), otherwise ``board``; a pack's name never becomes DOT syntax."""
    if _DOT_ID.fullmatch(name) and name.lower() not in _DOT_KEYWORDS:
        return name
    return "board"


def _min_width(text: str, size: float, bold: bool = False) -> str:
    """A WIDTH for a table cell: the conservative estimate of its text, in points.

    Graphviz sizes a label with the fonts of the machine that draws it; a viewer may use a
    wider one. The estimate (Verdana-wide) keeps the text inside its box either way.
    """
    return f' WIDTH="{math.ceil(text_width(text, size, bold))}"'


@dataclass
class Heatmap:
    """Visit counts of one board from a simulation: spaces by name, paths by "FROM->TO"."""

    board: str
    spaces: dict[str, int] = field(default_factory=dict)
    paths: dict[str, int] = field(default_factory=dict)
    games: int | None = None

    def space_max(self) -> int:
        """The largest space count (0 when there are none)."""
        return max(self.spaces.values(), default=0)

    def path_count(self, path: dict[str, Any]) -> int:
        """Uses of one path; a two-way path counts both directions."""
        n = self.paths.get(f"{path['from']}->{path['to']}", 0)
        if not path["oneway"] and path["to"] is not None:
            n += self.paths.get(f"{path['to']}->{path['from']}", 0)
        return n

    def unknown_names(
        self, board: dict[str, Any], ways: list[dict[str, Any]] | tuple[dict[str, Any], ...] = ()
    ) -> list[str]:
        """Spaces and path keys of the heatmap that the board does not have (a move of a
        declared way between two spaces of a feature it joins, `within`, is one it has)."""
        names = {s["name"] for s in board["spaces"]}
        keys = set()
        for p in board["paths"]:
            keys.add(f"{p['from']}->{p['to']}")
            if not p["oneway"]:
                keys.add(f"{p['to']}->{p['from']}")
        for w in ways:
            for feature in w.get("within", ()):
                joined = [s["name"] for s in board["spaces"] if feature in s["features"]]
                keys |= {f"{a}->{b}" for a in joined for b in joined if a != b}
        return sorted(n for n in self.spaces if n not in names) + sorted(
            k for k in self.paths if k not in keys
        )


def load_heatmap(path: Path) -> Heatmap:
    """Read a simulation result's heatmap section.

    The format is ``{"heatmap": {"board": NAME, "spaces": {NAME: N}, "paths": {"A->B": N}}}``,
    with an optional ``"games": N``; anything else raises ``ValueError`` with the reason.
    """
    try:
        with path.open("rb") as f:
            data = f.read(MAX_DATA_BYTES + 1)
        if len(data) > MAX_DATA_BYTES:
            raise ValueError(f"{path}: larger than {MAX_DATA_BYTES} bytes, the limit for one file")
        doc = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    except RecursionError:
        raise ValueError(f"cannot read {path}: nested too deeply") from None
    heat = doc.get("heatmap") if isinstance(doc, dict) else None
    if not isinstance(heat, dict) or not isinstance(heat.get("board"), str):
        raise ValueError(f'{path}: expected {{"heatmap": {{"board": NAME, ...}}}}')
    games = heat.get("games")
    if games is not None and (not isinstance(games, int) or isinstance(games, bool) or games < 0):
        raise ValueError(f"{path}: heatmap.games must be a whole number of games")
    out = Heatmap(heat["board"], games=games)
    for key in ("spaces", "paths"):
        table = heat.get(key, {})
        if not isinstance(table, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in table.values()
        ):
            raise ValueError(f"{path}: heatmap.{key} must map names to counts (whole numbers)")
        setattr(out, key, dict(table))
    return out


def heat_bin(count: int, top: int) -> int:
    """The scale class (0-5) of ``count`` on a scale whose largest value is ``top``; -1 for 0."""
    if count <= 0 or top <= 0:
        return -1
    return min(len(HEAT) - 1, math.ceil(count * len(HEAT) / top) - 1)


def heat_ranges(top: int) -> list[tuple[int, int]]:
    """The (low, high) counts of each non-empty class of a scale up to ``top``."""
    out = []
    for i in range(len(HEAT)):
        lo = math.floor(i * top / len(HEAT)) + 1
        hi = math.floor((i + 1) * top / len(HEAT))
        if lo <= hi:
            out.append((lo, hi))
    return out


# --- what a space shows --------------------------------------------------------------------


def _terrain(space: dict[str, Any]) -> tuple[str, str | None]:
    for feature, fill, _doc in TERRAIN:
        if feature in space["features"]:
            return fill, feature
    if space.get("exhausts"):
        return EXHAUSTS_FILL, None
    return PLAIN_FILL, None


def _effect_text(e: dict[str, Any]) -> str:
    """One effect of a space's entry reward, as short as the board can print it."""
    op = e["op"]
    if op == "gain" and e["resource"] == "gold" and "per" not in e:
        return f"{e['amount']:+d} gold"
    if op in ("draw", "heal"):
        return f"{op} {e['n']}"
    if op == "secret":
        return f"{e['size']} secret"
    if op == "take_here":
        what = e["what"]
        return {"major": "major secret", "minor": "minor secret", "fruit": "mystic fruit"}.get(
            what, what
        )
    return render_effects([e])


def _is_reward(t: dict[str, Any]) -> bool:
    return t["on"] == "enter" and t.get("limit") == "turn" and "if" not in t


def _is_toll(t: dict[str, Any]) -> bool:
    return t["on"] == "toll"


def _trigger_text(t: dict[str, Any]) -> str:
    """A space trigger: a once-a-turn entry reward as its effects, others in full (with the
    condition that decides whether they happen)."""
    if _is_reward(t):
        return " \u00b7 ".join(_effect_text(e) for e in t["effects"])
    text = TRIGGERS[t["on"]].render(t)
    if "if" in t:
        head, _, body = text.partition(": ")
        text = f"{head} if {render_condition(t['if'])}: {body}"
    if _is_toll(t):
        text = f"{TOLL_MARK} {text}"
    return text


@dataclass
class Marks:
    """How the pack's own words are drawn on one board: each declared way its colour and
    dash, each section a `within` way joins its strip colour, each other feature its tag
    colour (the legend explains them all)."""

    ways: dict[str, tuple[str, str]] = field(default_factory=dict)
    way_ir: dict[str, dict[str, Any]] = field(default_factory=dict)
    sections: dict[str, tuple[str, str]] = field(default_factory=dict)  # feature: (colour, way)
    tags: dict[str, str] = field(default_factory=dict)
    # Sections drawn as pale bands (a board with positions), else as dashed lines.
    banded: bool = True

    @classmethod
    def of(cls, board: dict[str, Any], ways: list[dict[str, Any]] | None) -> Marks:
        """The marks of the ways and features that appear on ``board``."""
        marks = cls()
        feats = {f for sp in board["spaces"] for f in sp["features"]}
        used = {p["way"] for p in board["paths"] if p.get("way")}
        for w in ways or ():
            within = [f for f in w.get("within", ()) if f in feats]
            if w["name"] not in used and not within:
                continue
            k = len(marks.ways)
            marks.ways[w["name"]] = (WAY_INKS[k % len(WAY_INKS)], WAY_DASHES[k % len(WAY_DASHES)])
            marks.way_ir[w["name"]] = w
            for f in within:
                colour = SECTION_INKS[len(marks.sections) % len(SECTION_INKS)]
                marks.sections[f] = (colour, w["name"])
        known = {f for f, _c, _d in TERRAIN} | {"danger zone", "magic circle", "hq"}
        for f in sorted(feats - known - set(marks.sections)):
            marks.tags[f] = TAG_INKS[len(marks.tags) % len(TAG_INKS)]
        return marks


def way_text(w: dict[str, Any]) -> str:
    """What a declared way means, from its record: how it is paid and who may take it."""
    paid = w.get("paid_in", "boots")
    text = "from any space of a section to any other of it" if w.get("within") else "moved along"
    text += " with boots" if paid == "boots" else f" with {paid}, not boots"
    if w.get("requires"):
        text += f"; only with {', '.join(w['requires'])}"
    if w.get("while_exhausted"):
        text += "; open after your boots are exhausted"
    if w.get("exhausts"):
        text += "; exhausts your boots"
    text += "; a teleport may cross it" if w.get("teleport", True) else "; no teleport"
    return text


def space_lines(space: dict[str, Any], marks: Marks | None = None) -> list[tuple[str, str, bool]]:
    """The detail lines under a space's name as (text, colour, bold). With ``marks``, the
    sections and tags it shows are left out (its label draws them)."""
    lines = []
    shown = set(marks.sections) | set(marks.tags) if marks else set()
    # A space called "HQ" need not say "HQ" twice.
    kinds = [
        ("HQ" if f == "hq" else f)
        for f in space["features"]
        if f.lower() != space["name"].lower() and f not in shown
    ]
    exhausting = {"forest", "crystal cave", "security checkpoint"}
    if space.get("exhausts") and not exhausting & set(space["features"]):
        kinds.append("exhausts")
    if kinds:
        lines.append((" \u00b7 ".join(kinds), "#444444", False))
    rewards = [_trigger_text(t) for t in space.get("triggers", ()) if _is_reward(t)]
    if rewards:
        lines.append((" \u00b7 ".join(rewards), REWARD_INK, False))
    for t in space.get("triggers", ()):
        if not _is_reward(t):
            ink = TOLL_INK if _is_toll(t) else REWARD_INK
            lines.append((_trigger_text(t), ink, False))
    for what, n in ((h["what"], h["n"]) for h in space.get("holds", ())):
        if what not in ("major", "fruit"):
            lines.append((f"{TOKEN_MARK} holds {n} {what}", TOKEN_INK, False))
    if "coach" in space:
        lines.append((f"coach: {space['coach']} gold", COACH_INK, False))
    if "artifact" in space:
        lines.append((f"\u25c6 artifact {space['artifact']}", ARTIFACT_INK, True))
    for action in space.get("actions", ()):
        lines.append((render_action(action), ACTION_INK, False))
    # A long line (an action's whole text) is wrapped, so one room is not drawn as wide as
    # the board.
    return [
        (part, colour, bold)
        for text, colour, bold in lines
        for part in (textwrap.wrap(text, LINE_WIDTH) if len(text) > LINE_WIDTH else [text])
    ]


def _strips(space: dict[str, Any], marks: Marks | None) -> list[tuple[str, str]]:
    """The coloured strips of a space: the sections it is in, then its tags."""
    if marks is None:
        return []
    feats = space["features"]
    return [(f, marks.sections[f][0]) for f in feats if f in marks.sections] + [
        (f, marks.tags[f]) for f in feats if f in marks.tags
    ]


def _strip_text(strips: list[tuple[str, str]]) -> str:
    return "   ".join(f"{MARK} {text}" for text, _c in strips)


def _strip_row(strips: list[tuple[str, str]]) -> str:
    """One line of coloured marks: ``■ east wing   ■ watchpost``."""
    body = "   ".join(
        f'<FONT COLOR="{colour}"><B>{MARK} {_esc(text)}</B></FONT>' for text, colour in strips
    )
    width = _min_width(_strip_text(strips), DETAIL_SIZE, True)
    return f'<TR><TD{width}><FONT POINT-SIZE="{DETAIL_SIZE}">{body}</FONT></TD></TR>'


def _space_size(
    space: dict[str, Any], group: str | None, marks: Marks | None = None
) -> tuple[float, float]:
    """An estimate (points) of a space node's width and height, erring large."""
    name_w = text_width(space["name"], NAME_SIZE, bold=True)
    if "waypoint" in space:
        name_w += text_width(f" {space['waypoint']} ", NAME_SIZE, bold=True) + 6
    lines = space_lines(space, marks)
    widths = [name_w] + [text_width(t, DETAIL_SIZE, b) for t, _c, b in lines]
    strips = _strips(space, marks)
    rows = 1 + len(lines) + (1 if group else 0) + (1 if strips else 0)
    if group:
        widths.append(text_width(group, DETAIL_SIZE - 1))
    if strips:
        widths.append(text_width(_strip_text(strips), DETAIL_SIZE, True))
    return max(widths) + 18, NAME_SIZE * 1.4 + (rows - 1) * DETAIL_SIZE * 1.35 + 12


def space_label(
    space: dict[str, Any],
    group: tuple[str, str] | None = None,
    ink: str = "#111111",
    marks: Marks | None = None,
) -> str:
    """The HTML-like Graphviz label of a space: name, waypoint badge and detail lines.

    ``group`` is (name, colour) when group membership is shown as a header strip (pinned
    layouts, where Graphviz cannot draw clusters); with ``marks``, the space's sections and
    tags are strips under its name.
    """
    rows = []
    if group:
        rows.append(
            f'<TR><TD BGCOLOR="{group[1]}"><FONT POINT-SIZE="{DETAIL_SIZE - 1}" '
            f'COLOR="#ffffff">{_esc(group[0])}</FONT></TD></TR>'
        )
    name = f'<FONT POINT-SIZE="{NAME_SIZE}" COLOR="{ink}"><B>{_esc(space["name"])}</B></FONT>'
    name_w = _min_width(space["name"], NAME_SIZE, True)
    if "waypoint" in space:
        badge = (
            f'<TD BGCOLOR="#111111" STYLE="rounded"><FONT POINT-SIZE="{NAME_SIZE - 1}" '
            f'COLOR="#ffffff"><B> {_esc(space["waypoint"])} </B></FONT></TD>'
        )
        name = (
            '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1"><TR>'
            f"{badge}<TD> </TD><TD{name_w}>{name}</TD></TR></TABLE>"
        )
        name_w = ""
    rows.append(f"<TR><TD{name_w}>{name}</TD></TR>")
    strips = _strips(space, marks)
    if strips:
        rows.append(_strip_row(strips))
    for text, colour, bold in space_lines(space, marks):
        body = f"<B>{_esc(text)}</B>" if bold else _esc(text)
        colour = ink if ink != "#111111" else colour
        rows.append(
            f"<TR><TD{_min_width(text, DETAIL_SIZE, bold)}>"
            f'<FONT POINT-SIZE="{DETAIL_SIZE}" COLOR="{colour}">{body}</FONT></TD></TR>'
        )
    return (
        '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
        + "".join(rows)
        + "</TABLE>>"
    )


# --- what a path shows ---------------------------------------------------------------------


def path_parts(path: dict[str, Any], marks: Marks | None = None) -> list[tuple[str, str]]:
    """The label pieces of a path as (text, colour): boots, monsters, water, needs..."""
    parts = []
    if path["to"] is None:
        parts.append(("dead end", "#555555"))
    if path.get("way"):
        # A declared way (a ladder...): its name, and its price when more than one.
        cost = f" {path['boots']}" if path["boots"] > 1 else ""
        ink = marks.ways[path["way"]][0] if marks and path["way"] in marks.ways else ACTION_INK
        parts.append((f"{path['way']}{cost}", ink))
    elif path["boots"] > 1:
        parts.append((f"{path['boots']} boots", "#111111"))
    if path["monsters"]:
        parts.append((MONSTER_ICON * path["monsters"], DANGER))
    covered = set()
    for feature in path["features"]:
        if feature == "water":
            parts.append(("\u2248 canoe", WATER))
            covered.add("canoe")
        elif feature == "lock":
            parts.append(("locked: key", "#6b4a00"))
            covered.add("key")
        else:
            parts.append((feature, MOUNTAIN if feature == "mountain" else "#444444"))
    for need in path["requires"]:
        if need not in covered:
            parts.append((f"needs {need}", "#6b2d8a"))
    # What happens on it (`when you take this path: ...`) and what setup lays on it.
    for t in path.get("triggers", ()):
        parts.append((_path_trigger_text(t), ACTION_INK))
    for what, n in ((h["what"], h["n"]) for h in path.get("holds", ())):
        parts.append((f"{TOKEN_MARK} holds {n} {what}", TOKEN_INK))
    switch = path.get("switch")
    if switch:
        states = ", ".join(str(x) for x in switch["states"])
        parts.append((f"switch {switch['name']}: {states}", ACTION_INK))
    # A game's changes (`board_in_play`): a blocked path, tokens lying on a path.
    if path.get("blocked"):
        parts.append(("\u26d4 blocked", DANGER))
    for name in path.get("tokens", ()):
        parts.append((f"\u25c6 {name}", ACTION_INK))
    return parts


def _path_trigger_text(t: dict[str, Any]) -> str:
    """A path's trigger: its own moves as "when taken" (the trigger's phrase speaks of any
    path), another in full."""
    if t["on"] != "move_along_path":
        return _trigger_text(t)
    cond = f" if {render_condition(t['if'])}" if "if" in t else ""
    return f"when taken{cond}: " + " \u00b7 ".join(_effect_text(e) for e in t["effects"])


def _path_label(path: dict[str, Any], marks: Marks | None = None) -> str | None:
    parts = path_parts(path, marks)
    if not parts:
        return None
    cells = "  ".join(
        f'<FONT COLOR="{c}" POINT-SIZE="{EDGE_SIZE + 5}"><B>{_esc(t)}</B></FONT>'
        if t.startswith(MONSTER_ICON)
        else f'<FONT COLOR="{c}">{_esc(t)}</FONT>'
        for t, c in parts
    )
    return (
        '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1" BGCOLOR="#ffffff">'
        f"<TR><TD{_min_width('  '.join(t for t, _c in parts), EDGE_SIZE)}>"
        f'<FONT POINT-SIZE="{EDGE_SIZE}">{cells}</FONT></TD></TR></TABLE>>'
    )


def _path_style(path: dict[str, Any], marks: Marks | None = None) -> dict[str, str]:
    attrs = {"color": PATH_INK, "penwidth": "1.6"}
    if marks and path.get("way") in marks.ways:
        colour, dash = marks.ways[path["way"]]
        attrs.update(color=colour, penwidth="2.6", style=dash)
    elif "water" in path["features"]:
        attrs.update(color=WATER, penwidth="2.6")
    elif "mountain" in path["features"]:
        attrs.update(color=MOUNTAIN, penwidth="3.2")
    if path.get("blocked"):
        attrs.update(color=DANGER, style="dotted", penwidth="2.2")
    if path["to"] is None:
        attrs.update(style="dashed", arrowhead="tee", dir="forward")
    elif path["oneway"]:
        attrs.update(dir="forward", arrowhead="normal", arrowsize="1.1")
    else:
        attrs["dir"] = "none"
    return attrs


# --- the legend ----------------------------------------------------------------------------


def legend_rows(
    board: dict[str, Any], groups: dict[str, str], heat: Heatmap | None, marks: Marks | None = None
) -> list[tuple[str, str]]:
    """Legend rows as (sample cell HTML, explanation), only for what the board shows."""
    spaces, paths = board["spaces"], board["paths"]
    feats = {f for s in spaces for f in s["features"]}
    rows: list[tuple[str, str]] = []

    def swatch(fill: str, text: str, border: str | None = None) -> str:
        edge = f' BORDER="2" COLOR="{border}"' if border else ' BORDER="1" COLOR="#888888"'
        return f'<TD BGCOLOR="{fill}"{edge}{_min_width(text, LEGEND_SIZE)}>{_esc(text)}</TD>'

    def ink(colour: str, text: str, bold: bool = False) -> str:
        body = f"<B>{_esc(text)}</B>" if bold else _esc(text)
        return f'<TD{_min_width(text, LEGEND_SIZE, bold)}><FONT COLOR="{colour}">{body}</FONT></TD>'

    if heat is None:
        for feature, fill, doc in TERRAIN:
            if feature in feats:
                rows.append((swatch(fill, "HQ" if feature == "hq" else feature), doc))
        if any(s.get("exhausts") and not _terrain(s)[1] for s in spaces):
            rows.append((swatch(EXHAUSTS_FILL, "exhausts"), "entering it exhausts your boots"))
    if "danger zone" in feats:
        rows.append(
            (swatch("#ffffff", "danger zone", DANGER), "Danger Zone: knocked out here, you score 0")
        )
    if "magic circle" in feats:
        rows.append((ink("#444444", "magic circle"), "a magic circle some cards use"))

    def strip(colour: str, text: str) -> str:
        return ink(colour, f"{MARK} {text}", True)

    known = {f for f, _c, _d in TERRAIN} | {"danger zone", "magic circle"}
    if marks is not None:
        known |= set(marks.sections) | set(marks.tags)
        for f, colour in marks.tags.items():
            n = sum(1 for sp in spaces if f in sp["features"])
            rows.append((strip(colour, f), f"the pack's word for {n} space{'s' * (n != 1)}"))
        for f, (colour, way) in marks.sections.items():
            n = sum(1 for sp in spaces if f in sp["features"])
            sample = (
                f'<TD BGCOLOR="{colour}55"{_min_width(f"{MARK} {f}", LEGEND_SIZE, True)}>'
                f'<FONT COLOR="{colour}"><B>{MARK} {_esc(f)}</B></FONT></TD>'
            )
            drawn = "the pale band" if marks.banded else "the dashed line"
            rows.append((sample, f"a section of {n} spaces ({drawn}): a {way} joins any two"))
    for other in sorted(feats - known):
        rows.append((ink("#444444", other), "a feature of the space (see the pack)"))
    rewarded = [t for s in spaces for t in s.get("triggers", ()) if _is_reward(t)]
    if rewarded:
        sample = _effect_text(rewarded[0]["effects"][0])
        rows.append((ink(REWARD_INK, sample), "reward on entering, once a turn"))
    triggers = [t for s in spaces for t in s.get("triggers", ()) if not _is_reward(t)]
    if any(not _is_toll(t) for t in triggers):
        rows.append((ink(REWARD_INK, "when you enter if ...: ..."), "what entering gives"))
    if any(_is_toll(t) for t in triggers):
        rows.append(
            (
                ink(TOLL_INK, f"{TOLL_MARK} to enter ...: ...", True),
                "an entry toll: whoever enters must do it; who cannot, may not enter",
            )
        )
    if any(h["what"] not in ("major", "fruit") for s in spaces for h in s.get("holds", ())):
        rows.append((ink(TOKEN_INK, f"{TOKEN_MARK} holds N TOKEN"), "tokens lying here"))
    if any("coach" in s for s in spaces):
        rows.append(
            (ink(COACH_INK, "coach: N gold"), "hire a coach: 1 boot + the gold of both spaces")
        )
    if any("artifact" in s for s in spaces):
        rows.append((ink(ARTIFACT_INK, "\u25c6 artifact N", True), "artifact worth N points"))
    if any(s.get("actions") for s in spaces):
        rows.append(
            (ink(ACTION_INK, "NAME: PRICE \u2192 EFFECTS"), "an action a player may take here")
        )
    if any("waypoint" in s for s in spaces):
        badge = '<TD BGCOLOR="#111111"><FONT COLOR="#ffffff"><B> N </B></FONT></TD>'
        rows.append((badge, "waypoint: read passage N when you enter"))
    kinds = {g["name"]: g["kind"] for g in board.get("groups", [])}
    for name, colour in groups.items():
        rows.append(
            (
                f'<TD BGCOLOR="{colour}"><FONT COLOR="#ffffff">{_esc(name)}</FONT></TD>',
                kinds.get(name, "group"),
            )
        )
    rows.append((ink(PATH_INK, "\u2014\u2014\u2014"), "path: 1 boot (two-way)"))
    if any(p["boots"] > 1 and not p.get("way") for p in paths):
        rows.append((ink("#111111", "N boots"), "footprints: the path costs N boots"))
    if marks is not None:
        dashes = {"dashed": "\u2013 \u2013 \u2013", "dotted": "\u00b7 \u00b7 \u00b7 \u00b7"}
        for way, (colour, dash) in marks.ways.items():
            w = marks.way_ir[way]
            sample = dashes[dash] + f" {way}" if not w.get("within") else f"{way} (sections)"
            rows.append((ink(colour, sample, True), f"{way}: {way_text(w)}"))
    for way in sorted({p["way"] for p in paths if p.get("way")} - set(marks.ways if marks else ())):
        rows.append((ink(ACTION_INK, f"{way} [N]"), f"a {way}: moved along as the pack's way says"))
    if any(p["monsters"] for p in paths):
        rows.append(
            (
                f'<TD><FONT COLOR="{DANGER}" POINT-SIZE="{LEGEND_SIZE + 5}">'
                f"<B>{MONSTER_ICON}</B></FONT></TD>",
                "monster: 1 damage each, unless you spend 1 sword",
            )
        )
    if any("water" in p["features"] for p in paths):
        rows.append((ink(WATER, "\u2014\u2014 \u2248 canoe"), "water: only with a canoe"))
    if any("mountain" in p["features"] for p in paths):
        rows.append((ink(MOUNTAIN, "\u2014\u2014 mountain", True), "mountain path"))
    if any("lock" in p["features"] for p in paths):
        rows.append((ink("#6b4a00", "locked: key"), "locked: only with a key"))
    needs = sorted({n for p in paths for n in p["requires"]} - {"canoe", "key"})
    for need in needs:
        rows.append((ink("#6b2d8a", f"needs {need}"), f"only with {need}"))
    if any(p["oneway"] and p["to"] is not None for p in paths):
        rows.append((ink(PATH_INK, "\u2014\u2014\u25b6"), "one-way: only along the arrow"))
    if any(p["to"] is None for p in paths):
        rows.append((ink("#555555", "- - -\u22a3 dead end"), "leads nowhere (yet)"))
    return rows


def _heat_rows(heat: Heatmap, board: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    games = f" in {heat.games} games" if heat.games else ""
    path_top = max((heat.path_count(p) for p in board["paths"]), default=0)
    scales = (("space visits", heat.space_max(), HEAT), ("path uses", path_top, PATH_HEAT))
    for title, top, palette in scales:
        rows.append(("<TD></TD>", f"<B>{_esc(title + games)}</B>"))
        rows.append((f'<TD BGCOLOR="{HEAT_NONE}" BORDER="1" COLOR="#888888">0</TD>', "never"))
        for i, (lo, hi) in enumerate(heat_ranges(top)):
            ink = "#ffffff" if i >= HEAT_DARK else "#111111"
            text = str(lo) if lo == hi else f"{lo}\u2013{hi}"
            rows.append(
                (
                    f'<TD BGCOLOR="{palette[i]}" BORDER="1" COLOR="#888888">'
                    f'<FONT COLOR="{ink}">{text}</FONT></TD>',
                    "",
                )
            )
    return rows


def legend_label(
    board: dict[str, Any], groups: dict[str, str], heat: Heatmap | None, marks: Marks | None = None
) -> tuple[str, float, float]:
    """The legend's HTML label and an estimate of its width and height in points."""
    rows = legend_rows(board, groups, heat, marks)
    heat_rows = _heat_rows(heat, board) if heat else []
    html = [
        '<<TABLE BORDER="1" COLOR="#999999" CELLBORDER="0" CELLSPACING="2" CELLPADDING="4" '
        'BGCOLOR="#fafafa">',
        f'<TR><TD COLSPAN="2"><FONT POINT-SIZE="{NAME_SIZE}"><B>{_esc(board["name"])}'
        "</B></FONT></TD></TR>",
    ]
    for sample, doc in rows:
        width = _min_width(doc, LEGEND_SIZE)
        html.append(f'<TR>{sample}<TD ALIGN="LEFT"{width}>{_esc(doc)}</TD></TR>')
    for sample, doc in heat_rows:
        html.append(f'<TR>{sample}<TD ALIGN="LEFT">{doc}</TD></TR>')
    html.append("</TABLE>>")
    width = max(
        [text_width(board["name"], NAME_SIZE, True)]
        + [130 + text_width(doc, LEGEND_SIZE) for _s, doc in rows]
    )
    height = (len(rows) + len(heat_rows) + 1) * (LEGEND_SIZE * 1.35 + 8) + 20
    return "".join(html), width + 20, height


# --- the graph -----------------------------------------------------------------------------


def auto_scale(spaces: list[dict[str, Any]], sizes: dict[str, tuple[float, float]]) -> float:
    """The smallest factor (at least 1, at most 4) that spreads pinned spaces apart enough.

    Two spaces are apart when their estimated boxes, plus room for a path label between
    them, are separated horizontally or vertically.
    """
    need = 1.0
    placed = [s for s in spaces if "pos" in s]
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            dx = abs(a["pos"][0] - b["pos"][0])
            dy = abs(a["pos"][1] - b["pos"][1])
            wa, ha = sizes[a["name"]]
            wb, hb = sizes[b["name"]]
            fx = ((wa + wb) / 2 + 40) / dx if dx else math.inf
            fy = ((ha + hb) / 2 + 36) / dy if dy else math.inf
            need = max(need, min(fx, fy))
    return round(min(need, 4.0), 2)


def _dead_end_pos(
    board: dict[str, Any], path: dict[str, Any], sizes: dict[str, tuple[float, float]]
) -> tuple[float, float] | None:
    """Where (in pack coordinates) the stub of a dead end ends: away from the neighbours."""
    by_name = {s["name"]: s for s in board["spaces"]}
    here = by_name.get(path["from"])
    if here is None or "pos" not in here:
        return None
    x0, y0 = here["pos"]
    vx = vy = 0.0
    for p in board["paths"]:
        if p["to"] is None or path["from"] not in (p["from"], p["to"]):
            continue
        other = by_name.get(p["to"] if p["from"] == path["from"] else p["from"])
        if other and "pos" in other and other is not here:
            dx, dy = other["pos"][0] - x0, other["pos"][1] - y0
            d = math.hypot(dx, dy) or 1.0
            vx, vy = vx + dx / d, vy + dy / d
    d = math.hypot(vx, vy)
    ux, uy = (-vx / d, -vy / d) if d > 1e-6 else (1.0, 0.0)
    w, h = sizes[here["name"]]
    reach = abs(ux) * w / 2 + abs(uy) * h / 2 + 70
    return x0 + ux * reach, y0 + uy * reach


def board_in_play(game: Any) -> dict[str, Any]:
    """The board IR of a game as it stands: its printed paths with the ones blocked marked
    (`blocked`), the tokens lying on each (`tokens`), and the paths added during the game
    (the `board_graph` of it draws them)."""
    board = game.board
    ir = dict(board.ir)
    paths = [dict(p) for p in ir["paths"]]
    for a, b, boots in game.added_paths:
        paths.append(
            {
                "from": board.spaces[a].name,
                "to": board.spaces[b].name,
                "boots": boots,
                "monsters": 0,
                "features": [],
                "requires": [],
                "oneway": False,
            }
        )
    for k in range(len(paths)):
        if is_closed(game, k):
            paths[k]["blocked"] = True
    for k, toks in game.path_tokens.items():
        paths[k]["tokens"] = [t.name for t in toks]
    ir["paths"] = paths
    return ir


def board_graph(
    board: dict[str, Any],
    heat: Heatmap | None = None,
    scale: float | None = None,
    ways: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
) -> graphviz.Digraph:
    """The Graphviz graph of one board (with its legend and, if given, a heatmap).

    With positions (any space has ``pos``) the graph uses neato with pinned positions scaled
    by ``scale`` (worked out by ``auto_scale`` when None); otherwise dot, with groups drawn as
    clusters. ``ways`` are the pack's declared ways (the IR's ``ways``): each is drawn in its
    own colour and dash, the sections a `within` way joins as marks on their spaces and a
    pale band through them (a dashed line in board order on a board without positions), and
    the pack's other words for spaces as tags; without them, as before (names on paths,
    features as text).
    """
    marks = Marks.of(board, ways) if ways else None
    if marks is not None:
        marks.banded = any("pos" in s for s in board["spaces"])
    pinned = any("pos" in s for s in board["spaces"])
    group_names = [g["name"] for g in board.get("groups", [])]
    group_names += sorted({s["group"] for s in board["spaces"] if "group" in s} - set(group_names))
    group_ink = {g: GROUP_INKS[i % len(GROUP_INKS)] for i, g in enumerate(group_names)}
    # A placed module's outline says which position it is at (interpreter/assembly.py).
    group_kind = {
        g["name"]: g["kind"] + (f" at {g['position']}" if "position" in g else "")
        for g in board.get("groups", [])
    }

    g = graphviz.Digraph(name=graph_id(board["name"]), engine="neato" if pinned else "dot")
    g.attr(
        "graph",
        layout="neato" if pinned else "dot",
        fontname=FONT,
        bgcolor="#ffffff",
        pad="0.3",
        outputorder="edgesfirst",
        tooltip=dot_text(board["name"]),
    )
    g.attr("node", fontname=FONT, shape="box", style="rounded,filled", margin="0.1,0.05")
    g.attr("edge", fontname=FONT, fontsize=str(EDGE_SIZE))

    ids = {s["name"]: f"s{i}" for i, s in enumerate(board["spaces"])}
    sizes = {
        s["name"]: _space_size(s, s.get("group") if pinned else None, marks)
        for s in board["spaces"]
    }
    space_top = heat.space_max() if heat else 0
    path_top = max((heat.path_count(p) for p in board["paths"]), default=0) if heat else 0

    s = 1.0
    y_max = max((sp["pos"][1] for sp in board["spaces"] if "pos" in sp), default=0)
    if pinned:
        s = scale if scale is not None else auto_scale(board["spaces"], sizes)

        def at(x: float, y: float) -> str:
            # Graphviz y grows up; the pack's (and the printed board's) grows down.
            return f"{x * s:.1f},{(y_max - y) * s:.1f}!"

        g.attr("graph", inputscale="72", splines="true", overlap="true")
    else:
        g.attr("graph", rankdir="TB", nodesep="0.35", ranksep="0.55", newrank="true")

    def add_space(target: graphviz.Digraph, space: dict[str, Any]) -> None:
        fill, _terr = _terrain(space)
        attrs = {"fillcolor": fill, "color": "#555555", "penwidth": "1.2"}
        ink = "#111111"
        tip = space["name"]
        if heat is not None:
            n = heat.spaces.get(space["name"], 0)
            b = heat_bin(n, space_top)
            attrs["fillcolor"] = HEAT[b] if b >= 0 else HEAT_NONE
            ink = "#ffffff" if b >= HEAT_DARK else "#111111"
            tip += f": visited {n} times"
        if "danger zone" in space["features"]:
            attrs.update(color=DANGER, penwidth="3")
        if "artifact" in space:
            attrs["peripheries"] = "2"
        group = None
        if pinned and space.get("group"):
            group = (space["group"], group_ink[space["group"]])
        if pinned and "pos" in space:
            attrs["pos"] = at(*space["pos"])
        label = space_label(space, group, ink, marks)
        target.node(ids[space["name"]], label=label, tooltip=dot_text(tip), **attrs)

    if pinned:
        for space in board["spaces"]:
            add_space(g, space)
    else:
        for space in board["spaces"]:
            if not space.get("group"):
                add_space(g, space)
        for i, name in enumerate(group_names):
            with g.subgraph(name=f"cluster_{i}") as c:
                kind = group_kind.get(name, "group")
                c.attr(
                    label=f"<<B>{_esc(name)}</B> <I>({_esc(kind)})</I>>",
                    style="rounded,filled",
                    fillcolor=GROUP_COLOURS[i % len(GROUP_COLOURS)],
                    color=group_ink[name],
                    fontname=FONT,
                    fontsize=str(NAME_SIZE - 1),
                    fontcolor=group_ink[name],
                )
                for space in board["spaces"]:
                    if space.get("group") == name:
                        add_space(c, space)
        hq = [ids[sp["name"]] for sp in board["spaces"] if "hq" in sp["features"]]
        if hq:
            with g.subgraph() as r:
                r.attr(rank="min")
                for node in hq:
                    r.node(node)

    for i, path in enumerate(board["paths"]):
        tail = ids.get(path["from"])
        if tail is None:
            continue
        attrs = _path_style(path, marks)
        if path["to"] is None:
            head = f"dead{i}"
            stub = {"shape": "point", "width": "0.08", "color": "#555555", "label": ""}
            pos = _dead_end_pos(board, path, sizes) if pinned else None
            if pos is not None:
                stub["pos"] = at(*pos)
            g.node(head, **stub)
        else:
            head = ids.get(path["to"])
            if head is None:
                continue
        label = _path_label(path, marks)
        if label:
            attrs["label"] = label
        tip = f"{path['from']} {'->' if path['oneway'] else '--'} {path['to'] or 'dead end'}"
        if heat is not None:
            n = heat.path_count(path)
            b = heat_bin(n, path_top)
            if b >= 0:
                attrs.update(color=PATH_HEAT[b], penwidth=f"{1.5 + 5 * n / path_top:.2f}")
            else:
                attrs.update(color="#bbbbbb")
            tip += f": used {n} times"
        attrs["tooltip"] = dot_text(tip)
        g.edge(tail, head, **attrs)

    if marks is not None and pinned:
        # Each section a `within` way joins: a pale band along the shortest tree through its
        # spaces, drawn under the paths, so its extent reads at a glance.
        for feature, (colour, way) in marks.sections.items():
            members = [sp for sp in board["spaces"] if feature in sp["features"] and "pos" in sp]
            for a, b in _spanning_tree(members):
                g.edge(
                    ids[a["name"]],
                    ids[b["name"]],
                    color=f"{colour}55",
                    penwidth="9",
                    dir="none",
                    tooltip=dot_text(f"{feature}: a {way} joins any two of its spaces"),
                )
    elif ways:
        _within_lines(g, board, ids, ways)

    legend_groups = {name: group_ink[name] for name in group_names} if pinned else {}
    html, lw, lh = legend_label(board, legend_groups, heat, marks)
    legend = {
        "shape": "plaintext",
        "margin": "0",
        "fontsize": str(LEGEND_SIZE),
        "label": html,
    }
    if pinned:
        right = max(
            sp["pos"][0] * s + sizes[sp["name"]][0] / 2 for sp in board["spaces"] if "pos" in sp
        )
        legend["pos"] = f"{right + 60 + lw / 2:.1f},{y_max * s - lh / 2 + 20:.1f}!"
    g.node("legend", **legend)
    return g


def _spanning_tree(spaces: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The pairs of the shortest tree (by position) joining ``spaces`` (Prim's, in order)."""
    if len(spaces) < 2:
        return []
    inside = [spaces[0]]
    left = spaces[1:]
    pairs = []
    while left:
        a, b = min(
            ((a, b) for a in inside for b in left),
            key=lambda ab: math.dist(ab[0]["pos"], ab[1]["pos"]),
        )
        pairs.append((a, b))
        inside.append(b)
        left.remove(b)
    return pairs


# Colours of the dashed lines of ways that join a feature's spaces (`within`), in order.
WITHIN_INKS = ("#6a3d9a", "#1f78b4", "#b15928", "#33a02c")


def _within_lines(
    g: graphviz.Digraph,
    board: dict[str, Any],
    ids: dict[str, str],
    ways: list[dict[str, Any]] | tuple[dict[str, Any], ...],
) -> None:
    """A dashed line through the spaces each `within` way joins (any of them to any other:
    drawn as a chain in board order, so as not to clutter), labelled once with the way's
    name; it does not move the layout."""
    k = 0
    for way in ways:
        for feature in way.get("within", ()):
            spaces = [s["name"] for s in board["spaces"] if feature in s["features"]]
            if len(spaces) < 2:
                continue
            ink = WITHIN_INKS[k % len(WITHIN_INKS)]
            k += 1
            for i, (a, b) in enumerate(zip(spaces, spaces[1:], strict=False)):
                attrs = {
                    "style": "dashed",
                    "color": ink,
                    "fontcolor": ink,
                    "dir": "none",
                    "constraint": "false",
                    "penwidth": "1.6",
                    "tooltip": dot_text(f"{way['name']}: {', '.join(spaces)}"),
                }
                if i == 0:
                    attrs["xlabel"] = dot_text(way["name"])
                g.edge(ids[a], ids[b], **attrs)


def render_graph(graph: graphviz.Digraph, fmt: str) -> bytes:
    """The graph as ``svg``, ``png`` or ``dot`` bytes (svg and png need Graphviz's binaries)."""
    if fmt == "dot":
        return graph.source.encode("utf-8")
    return graph.pipe(format=fmt)


def pick_board(ir: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The board called ``name``, or the pack's only board when ``name`` is None."""
    boards = ir.get("boards", [])
    if not boards:
        raise click.ClickException("the pack has no board")
    names = [b["name"] for b in boards]
    if name is None:
        if len(boards) > 1:
            raise click.ClickException(
                "the pack has several boards; choose one with --board: " + ", ".join(names)
            )
        return boards[0]
    for board in boards:
        if board["name"] == name:
            return board
    hint = did_you_mean(name, names)
    raise click.ClickException(
        f"no board {name!r} in the pack"
        + (f"; {hint}" if hint else "")
        + " (boards: "
        + ", ".join(names)
        + ")"
    )
