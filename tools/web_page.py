"""The page a person plays from in `clankwork play --web` (tools/web.py serves it).

Plain HTML, CSS and JavaScript, no framework and nothing fetched from elsewhere: the board
(drawn by `render_board`, cleaned by `replay_html.clean_svg`) is put in the page, the rest
arrives as JSON views over the page's websocket and is put in with ``textContent`` only (a
pack's names are data, never markup). The layout folds to one column on a phone.
"""

from __future__ import annotations

import base64
import hashlib
import re

_CSS = """
*{box-sizing:border-box}
body{font:15px/1.35 system-ui,sans-serif;margin:0;color:#111;background:#f6f4ef}
header{padding:8px 12px;background:#2d2a26;color:#f6f4ef;display:flex;flex-wrap:wrap;
  gap:4px 16px;align-items:baseline}
header h1{font-size:17px;margin:0}
#status{font-weight:600}
main{display:flex;flex-wrap:wrap;gap:10px;padding:10px;align-items:flex-start}
#left{flex:3 1 420px;min-width:0}
#right{flex:2 1 300px;min-width:0}
section{background:#fff;border:1px solid #ccc;border-radius:4px;margin-bottom:8px;
  padding:6px 8px}
section h2{font-size:14px;margin:0 0 4px}
#boardbox{padding:0;overflow:auto}
#board{width:100%;height:auto;display:block}
#decision.yours{border:3px solid #c28b00;background:#fffbea}
#options{display:flex;flex-direction:column;gap:4px}
#options button{font:inherit;text-align:left;padding:8px 10px;border:1px solid #999;
  border-radius:4px;background:#fff;cursor:pointer;min-height:40px}
#options button:hover{background:#f3ecd6}
#options button:disabled{opacity:.5;cursor:wait}
.opt-text{display:block;font-size:12px;color:#555}
.card{border:1px solid #bbb;border-radius:4px;padding:3px 6px;margin:3px 0;background:#faf8f2}
.card b{display:block}.card span{font-size:12px;color:#444}
.chip{display:inline-block;border:1px solid #bbb;border-radius:3px;padding:0 4px;margin:1px;
  background:#faf8f2;font-size:12px}
.dot{display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:4px;
  vertical-align:-1px;border:1px solid #222}
.player{margin:4px 0;padding:3px 4px;border-radius:3px}
.player.active{outline:3px solid #c28b00}
.pawn{stroke:#111;stroke-width:2}
#story{max-height:220px;overflow:auto;font:12px/1.3 ui-monospace,monospace;white-space:pre-wrap}
#refused{color:#a00;font-weight:600}
@media (max-width:700px){body{font-size:16px}#options button{min-height:48px}
  #board{min-width:640px}}
"""

_JS = r"""
(function () {
  "use strict";
  var COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];
  var SVGNS = "http://www.w3.org/2000/svg";
  var $ = function (id) { return document.getElementById(id); };
  var token = location.pathname.split("/").pop();
  var seat = Number(document.body.getAttribute("data-seat"));
  var ws = null, last = null;
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function colour(s) { return COLOURS[s % COLOURS.length]; }
  function dot(s) { var d = el("span", null, "dot"); d.style.background = colour(s); return d; }
  function who(V, s) { return "P" + (s + 1) + (s === V.seat ? " (you)" : " " + V.players[s].who); }
  // Where each space is drawn: render_board names space i's node "s<i>" (its <title>).
  var svg = $("board"), centres = {}, pawns = [];
  if (svg) {
    var nodes = svg.querySelectorAll("g.node");
    for (var i = 0; i < nodes.length; i++) {
      var t = nodes[i].querySelector("title");
      var m = t ? /^s(\d+)$/.exec(t.textContent) : null;
      if (!m) continue;
      var shape = nodes[i].querySelector("path,polygon,ellipse") || nodes[i];
      var b = shape.getBBox();
      centres[m[1]] = {x: b.x + b.width / 2, y: b.y + b.height};
    }
  }
  function drawPawns(V) {
    if (!svg) return;
    var layer = svg.querySelector("g.graph") || svg, n = V.players.length, here = {};
    for (var s = 0; s < n; s++) {
      if (!pawns[s]) {
        var c = document.createElementNS(SVGNS, "circle");
        c.setAttribute("r", "11"); c.setAttribute("class", "pawn");
        c.setAttribute("id", "pawn-" + s); c.setAttribute("fill", colour(s));
        var tip = document.createElementNS(SVGNS, "title");
        tip.textContent = who(V, s); c.appendChild(tip);
        layer.appendChild(c); pawns[s] = c;
      }
      var p = V.players[s], at = centres[p.at], pawn = pawns[s];
      if (!at) { pawn.setAttribute("visibility", "hidden"); continue; }
      var j = here[p.at] = (here[p.at] || 0) + 1;
      pawn.setAttribute("visibility", "visible");
      pawn.setAttribute("cx", (at.x + (j - 1 - (n - 1) / 2) * 20).toFixed(1));
      pawn.setAttribute("cy", at.y.toFixed(1));
      pawn.setAttribute("opacity", p.status === "on" ? "1" : "0.45");
    }
  }
  function cards(box, list) {
    box.textContent = "";
    if (!list.length) box.appendChild(el("i", "none"));
    list.forEach(function (c) {
      var d = el("div", null, "card"); d.appendChild(el("b", c.name));
      if (c.text) d.appendChild(el("span", c.text));
      box.appendChild(d);
    });
  }
  function answer(number, index) {
    var buttons = $("options").querySelectorAll("button");
    for (var k = 0; k < buttons.length; k++) buttons[k].disabled = true;
    ws.send(JSON.stringify({type: "answer", decision: number, index: index}));
  }
  function show(V) {
    last = V;
    if (V.starting) { $("status").textContent = "the game is being set up"; return; }
    $("title").textContent = V.pack + " on " + V.board + ", seed " + V.seed;
    $("you").textContent = "you are P" + (V.seat + 1);
    var status;
    if (V.failed) status = "the game stopped: " + V.failed;
    else if (V.over) status = "game over";
    else if (V.decision) status = "your turn to choose";
    else if (V.waiting.length) status = "waiting for " + V.waiting.map(function (s) {
      return "P" + (s + 1); }).join(", ");
    else status = "the bots are playing";
    $("status").textContent = status + " (round " + V.round + ", turn " + V.turn + ")";
    document.title = (V.decision ? "(your move) " : "") + "Clankwork: " + V.pack;
    drawPawns(V);
    var dec = $("decision"), opts = $("options");
    opts.textContent = "";
    opts.setAttribute("data-number", V.decision ? String(V.decision.number) : "");
    $("question").textContent = "";
    dec.className = V.decision ? "yours" : "";
    if (V.result) {
      var lines = V.result.scores.map(function (sc, s) {
        return "P" + (s + 1) + " " + sc + (V.result.winners.indexOf(s) >= 0 ? " (winner)" : "");
      });
      $("question").textContent = "Game over (" + V.result.end + "): " + lines.join(", ");
    } else if (V.decision) {
      $("question").textContent = V.decision.question;
      V.decision.options.forEach(function (o) {
        var bt = el("button", null);
        bt.type = "button";
        bt.setAttribute("data-index", String(o.index));
        bt.appendChild(el("span", (o.index + 1) + ". " + o.label));
        if (o.text) bt.appendChild(el("span", o.text, "opt-text"));
        bt.addEventListener("click", function () { answer(V.decision.number, o.index); });
        opts.appendChild(bt);
      });
    } else {
      $("question").textContent = "Not your move: the board shows where everyone is.";
    }
    cards($("hand"), V.hand);
    $("tokens").textContent = V.tokens.length ? "your tokens: " + V.tokens.join(", ") : "";
    cards($("row"), V.row);
    var res = $("reserve"); res.textContent = "";
    V.reserve.forEach(function (r) {
      res.appendChild(el("span", r.name + " (cost " + r.cost + ", " + r.left + " left)", "chip"));
    });
    var dr = $("dragon"); dr.textContent = "";
    $("dragonname").textContent = V.dragon.charAt(0).toUpperCase() + V.dragon.slice(1);
    dr.appendChild(el("div", "rage " + V.rage + "/" + V.rage_track + ": an attack draws " +
      V.attack + " cubes"));
    var area = el("div", "Clank! area: "), bag = el("div", "bag: ");
    V.players.forEach(function (p, s) {
      area.appendChild(dot(s)); area.appendChild(el("span", p.area + "  "));
      bag.appendChild(dot(s)); bag.appendChild(el("span", V.bag[s] + "  "));
    });
    bag.appendChild(el("span", V.dragon + " " + V.bag[V.players.length]));
    dr.appendChild(area); dr.appendChild(bag);
    var box = $("players"); box.textContent = "";
    V.players.forEach(function (p, s) {
      var d = el("div", null, "player" + (s === V.active && !V.over ? " active" : ""));
      var h = el("div"); h.appendChild(dot(s));
      h.appendChild(el("b", who(V, s)));
      h.appendChild(document.createTextNode(" at " + p.space + (p.status === "on" ? "" :
        " (" + p.status + ")")));
      d.appendChild(h);
      d.appendChild(el("div", "health " + (p.health - p.damage) + "/" + p.health + ", " +
        V.gold + " " + p.gold + ", skill " + p.skill + ", swords " + p.swords + ", boots " +
        p.boots + (p.artifact ? ", artifact " + p.artifact : "") +
        (p.tokens ? ", " + p.tokens + (p.tokens === 1 ? " token" : " tokens") : "")));
      d.appendChild(el("div", "hand " + p.hand + ", deck " + p.deck + ", discard " +
        p.discard + (p.play.length ? "; in play: " + p.play.join(", ") : "")));
      box.appendChild(d);
    });
    var story = $("story");
    story.textContent = V.story.join("\n");
    story.scrollTop = story.scrollHeight;
  }
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws/" + token);
    ws.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      if (msg.type === "view") { $("refused").textContent = ""; show(msg.view); }
      else if (msg.type === "refused") $("refused").textContent = msg.why;
    };
    ws.onclose = function () {
      $("status").textContent = "disconnected from the game's server: reload to reconnect";
    };
  }
  connect();
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clankwork</title>
<style>/*CSS*/</style></head>
<body data-seat="/*SEAT*/">
<header><h1 id="title">Clankwork</h1><span id="you"></span><span id="status">connecting</span>
</header>
<main>
<div id="left">
<section id="decision"><h2 id="question"></h2><div id="options"></div>
<div id="refused"></div></section>
<section id="boardbox"><!--BOARD--></section>
<section><h2>Your hand</h2><div id="hand"></div><div id="tokens"></div></section>
</div>
<div id="right">
<section><h2>Row</h2><div id="row"></div><div id="reserve"></div></section>
<section><h2 id="dragonname">Dragon</h2><div id="dragon"></div></section>
<section><h2>Players</h2><div id="players"></div></section>
<section><h2>The game so far</h2><div id="story"></div></section>
</div>
</main>
<script>/*JS*/</script>
</body></html>
"""

_SLOTS = re.compile(r"/\*(?:CSS|JS|SEAT)\*/|<!--BOARD-->")


def script_hash() -> str:
    """The page's policy lets only our own script run: it is named by its SHA-256."""
    digest = hashlib.sha256(_JS.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def page_html(board_svg: str, seat: int) -> str:
    """The page of the person at ``seat``; ``board_svg`` is the cleaned board drawing (empty
    without Graphviz: the players' list still says where everyone is)."""
    fill = {"/*CSS*/": _CSS, "/*JS*/": _JS, "/*SEAT*/": str(seat), "<!--BOARD-->": board_svg}
    # One pass over the template: text put in (the board's labels) is never searched again.
    return _SLOTS.sub(lambda m: fill[m.group(0)], _PAGE)
