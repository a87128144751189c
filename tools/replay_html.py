"""`clankwork replay LOG --html FILE`: a game log as one self-contained web page.

The page holds the board (drawn by `render_board`, through Graphviz), one JSON snapshot of the
game after every decision, and a small script that shows a snapshot: pawns over the board's
spaces, the row, every player's deck, hand, discard and play area, the Clank! area, the bag and
health, with step, back and play controls and a slider.

A log is untrusted input, and so is the pack it is replayed on (issue 13): every name reaches
the page only as data. The snapshots are JSON in a ``<script type="application/json">`` with
``<``, ``>`` and ``&`` written as ``\\u003c``... (so no name can close the script), the script
puts all text in with ``textContent``, and the board SVG, whose labels Graphviz escapes, is
parsed and written back with anything active (scripts, event attributes, links, foreign
content) taken out. The page loads nothing: no network, no fonts, no CDN.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import click
import graphviz

from clankwork.interpreter import assembly as asm
from clankwork.interpreter.catalog import Catalog
from clankwork.interpreter.decisions import Decision
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.log import GameLog, LogError, ReplayMismatch, replay

from .game_logs import Packs, read_log_file, version_note
from .outputs import check_file_target, write_text
from .render_board import board_graph, pick_board, render_graph

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
# What a Graphviz drawing is made of; anything else (script, foreignObject, style, image...)
# is dropped, so the drawing can never run or fetch anything whatever its labels say.
_SVG_TAGS = {
    "svg", "g", "title", "path", "polygon", "polyline", "ellipse", "circle", "rect", "line",
    "text", "tspan", "a", "defs", "linearGradient", "radialGradient", "stop",
}  # fmt: skip
_SLOTS = re.compile(r"/\*(?:CSS|CSP|DATA|JS)\*/|<!--BOARD-->")
# A player's status as the page says it (in words every pack's board fits: a ship, a dungeon).
_STATUS = {"on": "on the board", "escaped": "escaped", "knocked out": "knocked out"}


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def clean_svg(svg: bytes) -> str:
    """Graphviz's SVG as inline markup with only drawing left in it.

    The XML declaration, doctype and comments go (ElementTree drops them), as do elements
    outside `_SVG_TAGS`, ``on*`` attributes and every ``href`` (the drawing needs no links).
    """
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(svg)

    def scrub(el: ET.Element) -> None:
        for child in list(el):
            if _local(child.tag) not in _SVG_TAGS:
                el.remove(child)
            else:
                scrub(child)
        for key in list(el.attrib):
            name = _local(key).lower()
            if name.startswith("on") or name == "href" or name == "style":
                del el.attrib[key]

    scrub(root)
    # The page sizes the drawing itself (to its column); the viewBox keeps its proportions.
    for key in ("width", "height"):
        root.attrib.pop(key, None)
    root.set("id", "board")
    return ET.tostring(root, encoding="unicode")


class _Names:
    """Card and token names once each, in a table; snapshots hold their indices."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self.index: dict[str, int] = {}

    def __call__(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.table)
            self.table.append(name)
        return i

    def sorted(self, cards: list[Any]) -> list[int]:
        return sorted(self(c.name) for c in cards)


def _caption(game: Game, decision: Decision, index: int) -> str:
    who = f"P{decision.player + 1}"
    label = decision.options[index].label
    if decision.kind == "action":
        return f"{who}: {label}"
    src = f" ({decision.source})" if decision.source else ""
    return f"{who}{src}, {decision.kind}: {label}"


def snapshot(game: Game, names: _Names, caption: str) -> dict[str, Any]:
    """The game as the page shows it, in short keys (a page holds hundreds of these)."""
    bag = Counter(game.bag)
    players = []
    for p in game.players:
        players.append(
            {
                "at": p.pos,
                "hurt": p.damage,
                "area": p.area,
                "gold": game.gold_of(p),
                "st": p.status,
                "deck": names.sorted(p.deck),
                "hand": names.sorted(p.hand),
                "disc": names.sorted(p.discard),
                "play": [names(c.name) for c in p.play],
                "art": names(p.artifact.name) if p.artifact else None,
                "tok": [names(t.name) for t in p.tokens],
                "pool": [p.skill, p.swords, p.boots],
            }
        )
    return {
        "turn": game.turn,
        "round": game.round,
        "who": game.active.seat,
        "cap": caption,
        "rage": game.rules["rage_track"][game.rage],
        "bag": [bag.get(s, 0) for s in range(len(game.players))] + [bag.get(BLACK, 0)],
        "row": [names(c.name) for c in game.row],
        "p": players,
    }


def game_steps(cat: Catalog, glog: GameLog) -> tuple[list[dict[str, Any]], list[str], Game]:
    """Replay ``glog`` on ``cat``: a snapshot after every decision, the name table, the game.

    Raises what `replay` raises (`ReplayMismatch` when the log does not fit the pack).
    """
    names = _Names()
    steps: list[dict[str, Any]] = []
    last = ["setup"]

    def on_decision(game: Game, decision: Decision, index: int) -> None:
        # Called before the engine acts: this is the state the previous decision led to.
        steps.append(snapshot(game, names, last[0]))
        last[0] = _caption(game, decision, index)

    game = replay(cat, glog, on_decision=on_decision)
    result = game.result
    assert result is not None
    scores = ", ".join(
        f"P{s + 1} {result.scores[s]}{' (winner)' if s in result.winners else ''}"
        for s in result.order
    )
    steps.append(snapshot(game, names, f"{last[0]} / game over: {result.end_reason}; {scores}"))
    return steps, names.table, game


def _json_for_script(data: Any) -> str:
    """JSON that cannot end its ``<script>`` element or start markup inside it."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(ch, esc)
    # JSON allows these raw; old JavaScript parsers did not. Written escaped, they are safe.
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def build_page(
    cat: Catalog,
    board_ir: dict[str, Any],
    glog: GameLog,
    ways: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
) -> str:
    """The whole page for one log replayed on ``cat`` (whose board is ``board_ir``; ``ways``
    the pack's declared ways, drawn in their colours as `render board` draws them).

    Needs Graphviz (`render_graph` raises `graphviz.ExecutableNotFound` without it).
    """
    steps, table, game = game_steps(cat, glog)
    if game.assembly:
        # A modular board is drawn as this game's ship was assembled; its spaces are numbered
        # as the game's board numbers them (what the steps' positions index).
        board_ir = asm.assemble(board_ir, game.assembly)
    svg = clean_svg(render_graph(board_graph(board_ir, ways=ways), "svg"))
    h = glog.header
    data = {
        "pack": h["pack"],
        "version": h["version"],
        "board": h["board"],
        "seed": h["seed"],
        "bots": list(h["bots"]),
        "health": game.rules["health"],
        "gold": cat.gold_word,  # the pack's word for gold (Space's "credits")
        "dragon": cat.dragon_word,  # and for the antagonist who attacks (`dragon { word }`)
        "spaces": [s.name for s in game.board.spaces],
        "status": _STATUS,
        "names": table,
        "steps": steps,
    }
    fill = {
        "/*CSS*/": _CSS,
        "/*CSP*/": _script_hash(),
        "<!--BOARD-->": svg,
        "/*DATA*/": _json_for_script(data),
        "/*JS*/": _JS,
    }
    # One pass over the template: text put in (the board's labels) is never searched again.
    return _SLOTS.sub(lambda m: fill[m.group(0)], _PAGE)


def _script_hash() -> str:
    """The page's policy lets only our own script run: it is named by its SHA-256."""
    digest = hashlib.sha256(_JS.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def write_page(path: Path, packs: Packs, out: Path) -> bool:
    """Replay the log at ``path`` and write its page to ``out``; False, said why, on failure."""
    check_file_target(out, named=True)
    glog: GameLog | None = None
    cat: Catalog | None = None
    try:
        glog = read_log_file(path)
        h = glog.header
        cat = packs.catalog(h["pack"], h["board"])
        ir = packs.ir(h["pack"])
        page = build_page(cat, pick_board(ir, h["board"]), glog, ir.get("ways", ()))
    except LogError as e:
        click.echo(f"error: {path}:{e.line or ''}{':' if e.line else ''} {e.message}", err=True)
        return False
    except ReplayMismatch as e:
        note = version_note(glog, cat) if glog is not None and cat is not None else ""
        click.echo(f"error: {path}: the replay does not match the log: {e}", err=True)
        if note:
            click.echo(f"  ({note})", err=True)
        return False
    except graphviz.ExecutableNotFound:
        click.echo(
            "error: Graphviz's `dot`/`neato` programs are not installed (e.g. `apt-get "
            "install graphviz`): the page draws the board with them",
            err=True,
        )
        return False
    except click.ClickException as e:  # no such bundled pack, an unreadable IR file
        click.echo(f"error: {path}: {e.message}", err=True)
        return False
    except Exception as e:  # an engine or drawing bug met on the way: said, not a traceback
        click.echo(
            f"error: {path}: the page could not be made: {type(e).__name__}: {e} "
            "(a Clankwork bug: please report it with this log)",
            err=True,
        )
        return False
    write_text(out, page, named=True)
    click.echo(
        f"wrote {out}: {len(glog.decisions)} decisions of {h['pack']} on {h['board']}, "
        f"{len(page.encode('utf-8')) // 1024} KiB"
    )
    return True


_CSS = """
body{font:14px/1.35 system-ui,sans-serif;margin:0;color:#111;background:#f6f4ef}
header{padding:8px 12px;background:#2d2a26;color:#f6f4ef}
header h1{font-size:17px;margin:0 0 2px}
#controls{display:flex;gap:6px;align-items:center;padding:8px 12px;background:#e7e2d8;
  position:sticky;top:0;z-index:2;flex-wrap:wrap}
#controls button{font:inherit;padding:3px 10px;min-width:64px}
#slider{flex:1;min-width:160px}
#caption{padding:6px 12px;font-weight:600;min-height:1.4em}
main{display:flex;gap:12px;padding:0 12px 12px;align-items:flex-start}
#boardbox{flex:3;min-width:0;background:#fff;border:1px solid #ccc}
#board{width:100%;height:auto;display:block}
#side{flex:2;min-width:280px}
section{background:#fff;border:1px solid #ccc;margin-bottom:8px;padding:6px 8px}
section h2{font-size:14px;margin:0 0 4px}
.zone{margin:2px 0}.zone b{display:inline-block;min-width:84px}
.chip{display:inline-block;border:1px solid #bbb;border-radius:3px;padding:0 4px;margin:1px;
  background:#faf8f2;font-size:12px}
.active{outline:3px solid #c28b00}
.dot{display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:4px;
  vertical-align:-1px;border:1px solid #222}
.pawn{stroke:#111;stroke-width:2}
"""

_JS = r"""
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("clankwork-data").textContent);
  var COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];
  var SVGNS = "http://www.w3.org/2000/svg";
  var n = D.steps[0].p.length;
  var at = 0, timer = null;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function colour(seat) { return COLOURS[seat % COLOURS.length]; }
  // The panel of the antagonist who attacks, titled with the pack's word for it.
  $("dragonname").textContent = D.dragon.charAt(0).toUpperCase() + D.dragon.slice(1);
  function dot(seat) {
    var d = el("span", null, "dot"); d.style.background = colour(seat); return d;
  }
  // Where each space is drawn: render_board names space i's node "s<i>" (its <title>).
  var svg = $("board"), centres = {};
  var nodes = svg.querySelectorAll("g.node");
  for (var i = 0; i < nodes.length; i++) {
    var t = nodes[i].querySelector("title");
    if (!t) continue;
    var m = /^s(\d+)$/.exec(t.textContent);
    if (!m) continue;
    var shape = nodes[i].querySelector("path,polygon,ellipse") || nodes[i];
    var b = shape.getBBox();
    centres[m[1]] = {x: b.x + b.width / 2, y: b.y + b.height, w: b.width};
    nodes[i].setAttribute("id", "space-" + m[1]);
  }
  var layer = svg.querySelector("g.graph") || svg;
  var pawns = [];
  for (var s = 0; s < n; s++) {
    var c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("r", "11");
    c.setAttribute("class", "pawn");
    c.setAttribute("id", "pawn-" + s);
    c.setAttribute("fill", colour(s));
    var tip = document.createElementNS(SVGNS, "title");
    tip.textContent = "P" + (s + 1) + " (" + D.bots[s] + ")";
    c.appendChild(tip);
    layer.appendChild(c);
    pawns.push(c);
  }
  function names(list) {
    var box = el("span");
    if (!list.length) box.appendChild(el("i", "none"));
    for (var k = 0; k < list.length; k++) box.appendChild(el("span", D.names[list[k]], "chip"));
    return box;
  }
  function zone(label, list, counted) {
    var z = el("div", null, "zone");
    z.appendChild(el("b", label + (counted ? " " + list.length : "")));
    z.appendChild(names(list));
    return z;
  }
  function show(k) {
    at = Math.max(0, Math.min(D.steps.length - 1, k));
    var S = D.steps[at];
    $("slider").value = String(at);
    $("where").textContent = "step " + at + "/" + (D.steps.length - 1) + ", round " +
      S.round + ", turn " + S.turn;
    $("caption").textContent = S.cap;
    // Pawns: on their space's node, side by side along its lower edge.
    var here = {};
    for (var s = 0; s < n; s++) {
      var p = S.p[s], c = centres[p.at], pawn = pawns[s];
      if (!c) { pawn.setAttribute("visibility", "hidden"); continue; }
      var j = here[p.at] = (here[p.at] || 0) + 1;
      pawn.setAttribute("visibility", "visible");
      pawn.setAttribute("cx", (c.x + (j - 1 - (n - 1) / 2) * 20).toFixed(1));
      pawn.setAttribute("cy", c.y.toFixed(1));
      pawn.setAttribute("opacity", p.st === "on" ? "1" : "0.45");
    }
    var row = $("row"); row.textContent = "";
    row.appendChild(names(S.row));
    var dragon = $("dragon"); dragon.textContent = "";
    dragon.appendChild(el("div", "rage " + S.rage + " (cubes drawn per attack)"));
    var bag = el("div", null, "zone"); bag.appendChild(el("b", "bag"));
    var area = el("div", null, "zone"); area.appendChild(el("b", "Clank!"));
    for (s = 0; s < n; s++) {
      bag.appendChild(dot(s)); bag.appendChild(el("span", S.bag[s] + "  "));
      area.appendChild(dot(s)); area.appendChild(el("span", S.p[s].area + "  "));
    }
    bag.appendChild(el("span", D.dragon + " " + S.bag[n]));
    dragon.appendChild(area); dragon.appendChild(bag);
    var box = $("players"); box.textContent = "";
    for (s = 0; s < n; s++) {
      p = S.p[s];
      var sec = el("section");
      if (s === S.who && p.st === "on") sec.className = "active";
      var h = el("h2"); h.appendChild(dot(s));
      h.appendChild(document.createTextNode("P" + (s + 1) + " " + D.bots[s] + " at " +
        D.spaces[p.at] + " (" + (D.status[p.st] || p.st) + ")"));
      sec.appendChild(h);
      sec.appendChild(el("div", "health " + (D.health - p.hurt) + "/" + D.health +
        ", " + D.gold + " " + p.gold + ", skill " + p.pool[0] + ", swords " + p.pool[1] +
        ", boots " + p.pool[2] + (p.art !== null ? ", artifact " + D.names[p.art] : "")));
      sec.appendChild(zone("hand", p.hand, true));
      sec.appendChild(zone("in play", p.play, true));
      sec.appendChild(zone("deck", p.deck, true));
      sec.appendChild(zone("discard", p.disc, true));
      if (p.tok.length) sec.appendChild(zone("tokens", p.tok, false));
      box.appendChild(sec);
    }
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "play";
  }
  // Where each turn starts: the slider's tick marks, and the turn buttons' stops.
  var starts = [0];
  for (var k = 1; k < D.steps.length; k++) {
    if (D.steps[k].turn !== D.steps[k - 1].turn) starts.push(k);
  }
  for (k = 0; k < starts.length; k++) {
    var o = document.createElement("option"); o.value = String(starts[k]);
    $("turns").appendChild(o);
  }
  function nextTurn() {
    for (var k = 0; k < starts.length; k++) if (starts[k] > at) return starts[k];
    return D.steps.length - 1;
  }
  function prevTurn() {
    for (var k = starts.length - 1; k >= 0; k--) if (starts[k] < at) return starts[k];
    return 0;
  }
  $("nextturn").addEventListener("click", function () { stop(); show(nextTurn()); });
  $("prevturn").addEventListener("click", function () { stop(); show(prevTurn()); });
  $("slider").max = String(D.steps.length - 1);
  $("step").addEventListener("click", function () { stop(); show(at + 1); });
  $("back").addEventListener("click", function () { stop(); show(at - 1); });
  $("slider").addEventListener("input", function () { stop(); show(Number(this.value)); });
  $("play").addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    if (at >= D.steps.length - 1) show(0);
    $("play").textContent = "pause";
    timer = setInterval(function () {
      if (at >= D.steps.length - 1) { stop(); return; }
      show(at + 1);
    }, 500);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") { stop(); show(at + 1); }
    if (e.key === "ArrowLeft") { stop(); show(at - 1); }
    if (e.key === "PageDown") { e.preventDefault(); stop(); show(nextTurn()); }
    if (e.key === "PageUp") { e.preventDefault(); stop(); show(prevTurn()); }
    if (e.key === " ") { e.preventDefault(); $("play").click(); }
  });
  document.title = "Clankwork replay: " + D.pack + " " + D.version + ", seed " + D.seed;
  $("title").textContent = D.pack + " " + D.version + " on " + D.board + ", seed " + D.seed;
  $("sub").textContent = D.bots.map(function (b, s) { return "P" + (s + 1) + " " + b; })
    .join(", ") + "; " + (D.steps.length - 1) + " decisions";
  show(0);
})();
"""

# No pack text is ever put into this template: it all comes from the JSON data, by the script.
_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src /*CSP*/">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clankwork replay</title>
<style>/*CSS*/</style></head>
<body>
<header><h1 id="title"></h1><div id="sub"></div></header>
<div id="controls">
<button id="back" type="button" title="back one decision (left arrow)">back</button>
<button id="play" type="button" title="play / pause (space)">play</button>
<button id="step" type="button" title="forward one decision (right arrow)">step</button>
<button id="prevturn" type="button"
 title="to the start of this or the last turn (page up)">&lsaquo; turn</button>
<button id="nextturn" type="button"
 title="to the start of the next turn (page down)">turn &rsaquo;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step" list="turns">
<datalist id="turns"></datalist>
<span id="where"></span>
</div>
<div id="caption"></div>
<main>
<div id="boardbox"><!--BOARD--></div>
<div id="side">
<section><h2>Row</h2><div id="row"></div></section>
<section><h2 id="dragonname">Dragon</h2><div id="dragon"></div></section>
<div id="players"></div>
</div>
</main>
<script type="application/json" id="clankwork-data">/*DATA*/</script>
<script>/*JS*/</script>
</body></html>
"""
