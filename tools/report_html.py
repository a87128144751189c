"""`clankwork simulate --html FILE`: the simulation report as one self-contained web page.

The page holds the report's plots, drawn by matplotlib to SVG and inlined (win rate by seat
with intervals, the score and game-length histograms, card strength with intervals, each
variant's change by seat, sweep curves), the board coloured by the run's heatmap (drawn by
`render_board`, through Graphviz, when it is installed) and the report's main tables.

Packs come from strangers (issue 13): every pack-provided string (the pack's, board's, cards',
spaces' names...) reaches the page as escaped text. In the plots it is SVG text, escaped by
matplotlib's writer, with math parsing off (a ``$`` in a card name is a dollar sign); every
SVG is then parsed and written back with only drawing elements left (no script, no foreign
content, no link out of the drawing, no event attribute). The page has no script at all and
its policy forbids loading anything: it opens offline, from a file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import graphviz
import matplotlib

from clankwork.interpreter import assembly as asm

from .outputs import write_text
from .plots import (
    LABEL_CHARS,
    SEAT_COLOURS,
    inline_svg,
)
from .plots import RC as _RC
from .plots import errors as _errors
from .plots import esc as _e
from .plots import figure as _figure
from .plots import figure_svg as _figure_svg
from .plots import label as _label
from .plots import new_figure as _new_figure
from .plots import pct as _pct
from .plots import pts as _pts
from .plots import table as _table
from .render_board import Heatmap, board_graph, pick_board, render_graph
from .report_words import dragon_word, end_reason
from .workbench_html import compare_section, tension_section

# Cards in the card-strength plot: the best and the worst this many (all when fewer).
CARDS_PLOTTED = 15


def seat_plot(rep: dict[str, Any]) -> str:
    """Win rate by seat with 95 % intervals, against the fair share."""
    seats = rep["wins"]["by_seat"]
    fig = _new_figure(5.2, 3.0)
    with matplotlib.rc_context(_RC):
        ax = fig.subplots()
        xs = [s["seat"] for s in seats]
        rates = [s["win_rate"] * 100 for s in seats]
        cis = [s["win_rate_ci"] for s in seats]
        colours = [SEAT_COLOURS[(x - 1) % len(SEAT_COLOURS)] for x in xs]
        ax.bar(xs, rates, color=colours, width=0.6)
        yerr = _errors([s["win_rate"] for s in seats], cis, 100)
        ax.errorbar(xs, rates, yerr=yerr, fmt="none", ecolor="#222", capsize=4)
        fair = 100 / max(rep["players"], 1)
        ax.axhline(fair, color="#888", linestyle="--", linewidth=1)
        ax.annotate(f"fair share {fair:.0f}%", (xs[-1] + 0.3, fair), va="bottom", ha="right")
        ax.set_xticks(xs, [f"seat {x}" for x in xs])
        ax.set_ylabel("win rate (%)")
        ax.set_title("Win rate by seat, 95% intervals")
    return _figure_svg(fig, "seats")


def histogram_plot(pairs: list[list[int]], title: str, xlabel: str, salt: str) -> str:
    """Bars of a [value, count] histogram."""
    fig = _new_figure(5.2, 2.8)
    with matplotlib.rc_context(_RC):
        ax = fig.subplots()
        if pairs:
            ax.bar([v for v, _ in pairs], [n for _, n in pairs], width=0.9, color="#1b6ca8")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("count")
        ax.set_title(title)
    return _figure_svg(fig, salt)


def ranked_cards(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards the table ranks (1 % of player-games on each side), by edge."""
    enough = max(1, rep["games"] * rep["players"] // 100)
    return sorted(
        (c for c in rep["cards"] if c["players"] >= enough and c["passed"] >= enough),
        key=lambda c: (-c["edge"], -c["players"], c["name"]),
    )


def card_plot(rep: dict[str, Any]) -> str | None:
    """Each ranked card's edge with its 95 % interval (the best and worst `CARDS_PLOTTED`)."""
    ranked = ranked_cards(rep)
    if not ranked:
        return None
    shown = ranked
    if len(ranked) > 2 * CARDS_PLOTTED:
        shown = ranked[:CARDS_PLOTTED] + ranked[-CARDS_PLOTTED:]
    fig = _new_figure(6.4, 0.6 + 0.24 * len(shown))
    with matplotlib.rc_context(_RC):
        ax = fig.subplots()
        ys = list(range(len(shown)))[::-1]
        edges = [c["edge"] * 100 for c in shown]
        cis = [c["edge_ci"] for c in shown]
        colours = ["#2e933c" if e >= 0 else "#d1495b" for e in edges]
        xerr = _errors([c["edge"] for c in shown], cis, 100)
        ax.errorbar(edges, ys, xerr=xerr, fmt="none", ecolor="#999", capsize=2)
        ax.scatter(edges, ys, color=colours, zorder=3, s=16)
        ax.axvline(0, color="#444", linewidth=1)
        ax.set_yticks(ys, [_label(c["name"]) for c in shown])
        ax.set_xlabel("edge: win rate of acquirers minus that of those who passed (points)")
        cut = f" (best and worst {CARDS_PLOTTED} of {len(ranked)})" if shown is not ranked else ""
        ax.set_title(f"Card strength, 95% intervals{cut}")
    return _figure_svg(fig, "cards")


def variant_plot(variant: dict[str, Any], k: int) -> str:
    """One variant's change in each seat's win rate, with 95 % intervals."""
    seats = variant["by_seat"]
    fig = _new_figure(5.2, 2.6)
    with matplotlib.rc_context(_RC):
        ax = fig.subplots()
        xs = [s["seat"] for s in seats]
        deltas = [s["win_rate_delta"] * 100 for s in seats]
        cis = [s["win_rate_delta_ci"] for s in seats]
        colours = [SEAT_COLOURS[(x - 1) % len(SEAT_COLOURS)] for x in xs]
        ax.bar(xs, deltas, color=colours, width=0.6)
        yerr = _errors([s["win_rate_delta"] for s in seats], cis, 100)
        ax.errorbar(xs, deltas, yerr=yerr, fmt="none", ecolor="#222", capsize=4)
        ax.axhline(0, color="#444", linewidth=1)
        ax.set_xticks(xs, [f"seat {x}" for x in xs])
        ax.set_ylabel("change in win rate (points)")
        ax.set_title(_label(variant["change"]["label"], 2 * LABEL_CHARS))
    return _figure_svg(fig, f"variant{k}")


def sweeps(variants: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The sweep variants grouped by what they sweep (a rule, or a card's cost), in order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for v in variants:
        ch = v["change"]
        if ch["kind"] == "rule":
            groups.setdefault(ch["rule"], []).append(v)
        elif ch["kind"] == "cost":
            groups.setdefault(f"cost of {ch['card']}", []).append(v)
    return list(groups.items())


def sweep_plot(name: str, group: list[dict[str, Any]], rep: dict[str, Any], k: int) -> str:
    """Each seat's win rate and the game length against the swept values."""
    values = [v["change"]["value"] for v in group]
    numeric = all(isinstance(x, int | float) and not isinstance(x, bool) for x in values)
    xs = values if numeric else list(range(len(values)))
    fig = _new_figure(7.6, 2.9)
    with matplotlib.rc_context(_RC):
        left, right = fig.subplots(1, 2)
        for seat in range(rep["players"]):
            rates = [v["by_seat"][seat]["win_rate"] for v in group]
            cis = [v["by_seat"][seat]["win_rate_ci"] for v in group]
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            left.errorbar(
                xs, [r * 100 for r in rates], yerr=_errors(rates, cis, 100), color=colour,
                marker="o", markersize=3, capsize=3, label=f"seat {seat + 1}",
            )  # fmt: skip
        left.set_ylabel("win rate (%)")
        left.set_title(_label(f"{name}: win rate by seat", 2 * LABEL_CHARS))
        left.legend(fontsize=7, frameon=False, loc="best")
        rounds = [v["rounds"]["mean"] for v in group]
        cis = [v["rounds"]["mean_ci"] for v in group]
        right.errorbar(xs, rounds, yerr=_errors(rounds, cis), color="#444", marker="o", capsize=3)
        right.axhline(rep["rounds"]["mean"], color="#888", linestyle="--", linewidth=1)
        right.set_ylabel("rounds (mean)")
        right.set_title(_label(f"{name}: game length", 2 * LABEL_CHARS))
        for ax in (left, right):
            ax.set_xlabel(_label(name))
            if numeric:
                ax.set_xticks(xs)  # the values swept, not the ones between
            else:
                ax.set_xticks(xs, [_label(json.dumps(x)) for x in values])
    return _figure_svg(fig, f"sweep{k}")


def sweep_card_rows(group: list[dict[str, Any]]) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    """A card's cost sweep as a table: at each cost, how often a game the card was offered and
    chosen, the share of the players offered it who took it, and its edge."""
    head = ("cost", "offered a game", "chosen a game", "taken when offered", "edge")
    rows = []
    for v in group:
        c = v["card"]
        offered = c["offered_per_game"] if c["offered_players"] else "never offered"
        rows.append(
            (
                v["change"]["value"],
                offered,
                c["chosen_per_game"],
                _pct(c["use_rate"], c["use_rate_ci"]) if c["offered_players"] else "",
                _pts(c["edge"], c["edge_ci"]),
            )
        )
    return head, rows


def sweep_card_plot(group: list[dict[str, Any]], k: int) -> str | None:
    """A card's cost sweep: the card's edge at each cost, its 95 % interval as a band,
    against 0, and the share of players who acquired it (None for a rule's sweep)."""
    if not all("card" in v for v in group):
        return None
    xs = [v["change"]["value"] for v in group]
    cards = [v["card"] for v in group]
    fig = _new_figure(7.6, 2.9)
    with matplotlib.rc_context(_RC):
        left, right = fig.subplots(1, 2)
        left.fill_between(
            xs, [c["edge_ci"]["low"] * 100 for c in cards],
            [c["edge_ci"]["high"] * 100 for c in cards], color="#2e933c", alpha=0.2, linewidth=0,
        )  # fmt: skip
        left.plot(xs, [c["edge"] * 100 for c in cards], color="#2e933c", marker="o", markersize=3)
        left.axhline(0, color="#444", linewidth=1)
        left.set_ylabel("edge (points)")
        left.set_title(_label(f"{cards[0]['name']}: its edge", 2 * LABEL_CHARS))
        rates = [c["players_rate"] for c in cards]
        cis = [c["players_rate_ci"] for c in cards]
        right.errorbar(
            xs, [r * 100 for r in rates], yerr=_errors(rates, cis, 100), color="#1b6ca8",
            marker="o", capsize=3,
        )  # fmt: skip
        right.set_ylabel("players who acquired one (%)")
        right.set_title(_label(f"{cards[0]['name']}: bought by", 2 * LABEL_CHARS))
        for ax in (left, right):
            ax.set_xlabel("cost")
            ax.set_xticks(xs)
    return _figure_svg(fig, f"sweepcard{k}")


def build_page(
    rep: dict[str, Any],
    board_svg: str | None = None,
    warnings: Sequence[str] = (),
    board_note: str = "",
) -> str:
    """The whole page of a report; ``board_svg`` is the board drawn with the run's heatmap
    (raw SVG from `render_board`, cleaned here; None: the page says it is missing), and
    ``board_note`` what its caption adds (which assembly a modular board's drawing shows)."""
    pack = rep["pack"]
    title = f"{pack['name']} {pack['version']}: {rep['games']} games, {rep['players']} players"
    w = rep["wins"]
    parts = [
        f"<h1>{_e(title)}</h1>",
        f"<p class=meta>board {_e(rep['board'])}; bots {_e(', '.join(rep['bots']))}; "
        f"seed {_e(rep['seed'])}"
        + (f"; rules {_e(json.dumps(rep['rules'], ensure_ascii=False))}" if rep["rules"] else "")
        + "</p>",
    ]
    if warnings:
        parts.append("<ul class=warnings>")
        parts += [f"<li>{_e(x)}</li>" for x in warnings]
        parts.append("</ul>")
    parts += _failures(rep)
    parts.append("<h2>Seats</h2><div class=row>")
    parts.append(
        _figure(
            seat_plot(rep),
            "Each seat's share of the games won (seat 1 took the first turn), with its 95% "
            "Wilson interval; the dashed line is the fair share, 1 / players.",
        )
    )
    rows = [
        (s["seat"], s["wins"], _pct(s["win_rate"], s["win_rate_ci"]), s["mean_score"])
        for s in w["by_seat"]
    ]
    parts.append(
        "<div>"
        + _table(("seat", "wins", "win rate", "mean score"), rows, 0)
        + f"<p>{_e(w['first_player']['verdict'])}</p></div></div>"
    )
    hist = rep["histograms"]
    parts.append("<h2>Scores and game length</h2><div class=row>")
    parts.append(
        _figure(
            histogram_plot(hist["scores"], "Final scores", "score", "scores"),
            f"Every player's final score (mean {rep['scores']['all']['mean']}).",
        )
    )
    parts.append(
        _figure(
            histogram_plot(hist["rounds"], "Game length", "rounds", "rounds"),
            f"Rounds a game lasted (mean {rep['rounds']['mean']}, p95 {rep['rounds']['p95']}).",
        )
    )
    parts.append("</div>")
    parts += tension_section(rep)
    parts += _attacks_and_ends(rep)
    cards = card_plot(rep)
    parts.append("<h2>Card strength</h2>")
    if cards is not None:
        parts.append(
            _figure(
                cards,
                "Each card's edge: the win rate of the players who acquired it minus that of "
                "the players who could have (it was in the row or reserve on a turn with the "
                "skill for it) and did not, with its 95% interval; cards with 1% of the "
                "player-games on each side.",
            )
        )
        rows = [
            (
                c["name"],
                c["cost"],
                c["players"],
                _pct(c["win_rate"], c["win_rate_ci"]),
                c["passed"],
                _pct(c["passed_win_rate"], c["passed_win_rate_ci"]),
                _pts(c["edge"], c["edge_ci"]),
                c["first_round"],
            )
            for c in ranked_cards(rep)
        ]
        head = ("card", "cost", "acquired by", "win rate", "passed by", "win rate", "edge")
        parts.append(_table((*head, "first round"), rows))
    else:
        parts.append("<p>Too few games to rank cards.</p>")
    parts += _component_tables(rep)
    parts.append("<h2>Board</h2>")
    if board_svg is not None:
        parts.append(
            _figure(
                inline_svg(board_svg, "board"),
                "The board coloured by arrivals on each space and walks along each path."
                + board_note,
            )
        )
    else:
        parts.append("<p>The board drawing needs Graphviz (`apt-get install graphviz`).</p>")
    variants = rep.get("variants", [])
    single = [v for v in variants if v["change"]["kind"] in ("without", "give")]
    if single:
        parts.append("<h2>Variants</h2><div class=row>")
        for k, v in enumerate(single):
            parts.append(
                _figure(
                    variant_plot(v, k),
                    f"{v['change']['label']}, on the same {v['games']} seeds: the change in "
                    "each seat's win rate, with its 95% interval.",
                )
            )
        parts.append("</div>")
    groups = sweeps(variants)
    if groups:
        parts.append("<h2>Sweeps</h2>")
        for k, (name, group) in enumerate(groups):
            parts.append(
                _figure(
                    sweep_plot(name, group, rep, k),
                    f"{name}: each value played on the same seeds; win rate by seat and mean "
                    "game length with 95% intervals (dashed: the run without the sweep).",
                )
            )
            card = sweep_card_plot(group, k)
            if card is not None:
                parts.append(
                    _figure(
                        card,
                        f"{name}: the card's own edge at each cost (acquirers' win rate minus "
                        "passers', in points) with its 95% interval as a band, and the share of "
                        "players who acquired one.",
                    )
                )
                parts.append(_table(*sweep_card_rows(group)))
    parts += compare_section(rep)
    return _PAGE.replace("<!--TITLE-->", _e(title)).replace("<!--BODY-->", "\n".join(parts))


def _failures(rep: dict[str, Any]) -> list[str]:
    """The games that failed, each with its error and the command that replays it (nothing
    when every game finished)."""
    failed = rep.get("failed", 0)
    if not failed:
        return []
    listed = rep["failures"]
    rows = [
        (
            f["game"],
            f.get("change", ""),
            f["seed"],
            f["turn"],
            f["error"],
            f.get("replay", ""),
            f.get("log", ""),
        )
        for f in listed
    ]
    more = f" The first {len(listed)} are listed." if failed > len(listed) else ""
    return [
        "<h2>Failed games</h2>",
        f"<p class=failures>{_e(failed)} game{'s' if failed != 1 else ''} failed (an engine "
        f"error or a broken invariant) and {'are' if failed != 1 else 'is'} not counted in "
        f"the figures of this page.{_e(more)}</p>",
        _table(("game", "variant", "seed", "turn", "error", "replay", "log"), rows, 7),
    ]


def _attacks_and_ends(rep: dict[str, Any]) -> list[str]:
    """The antagonist's attacks and damage, and how the games ended, in the pack's words
    for it (`dragon { word boss }`: "Boss attacks", "boss bag empty")."""
    word = dragon_word(rep)
    d = rep["dragon"]
    rows = [
        (f"{word} attacks", d["attacks"]["total"], _per_game(d["attacks"])),
        ("off the clock", d["off_clock_attacks"]["total"], _per_game(d["off_clock_attacks"])),
        (f"{word} damage", d["damage"]["total"], _per_game(d["damage"])),
    ]
    ends = [(end_reason(rep, k), n) for k, n in rep["end_reasons"].items()]
    return [
        f"<h2>{_e(word[:1].upper() + word[1:])} attacks and game ends</h2><div class=row>",
        _table(("", "total", "a game"), rows),
        _table(("ended by", "games"), ends),
        "</div>",
    ]


def _per_game(row: dict[str, Any]) -> str:
    ci = row["per_game_ci"]
    return f"{row['per_game']:.2f} [{ci['low']:.2f}–{ci['high']:.2f}]"


def _component_tables(rep: dict[str, Any]) -> list[str]:
    """Monsters defeated, events revealed, tokens taken (and by type), what spaces asked and
    how players answered, and the pack's actions taken."""
    parts: list[str] = []
    if rep["monsters"] or rep["events"]:
        parts.append("<h2>Monsters and events</h2><div class=row>")
        if rep["monsters"]:
            rows = [(m["name"], m["fight"], m["defeated"], _per_game(m)) for m in rep["monsters"]]
            parts.append(_table(("monster", "fight", "defeated", "a game"), rows))
        if rep["events"]:
            rows = [(e["name"], e["revealed"], _per_game(e)) for e in rep["events"]]
            parts.append(_table(("event", "revealed", "a game"), rows))
        parts.append("</div>")
    if rep["tokens"]:
        parts.append("<h2>Tokens</h2>")
        rows = [
            (
                t["name"],
                t["kind"],
                t["type"],
                _token_points(t),
                t["taken"],
                _per_game(t),
                t["players"],
                _pct(t["win_rate"], t["win_rate_ci"]),
            )
            for t in rep["tokens"]
        ]
        head = ("token", "kind", "type", "points", "taken", "a game", "players", "win rate")
        parts.append(_table(head, rows, 3))
        types: dict[str, int] = {}
        designs: dict[str, int] = {}
        for t in rep["tokens"]:
            types[t["type"]] = types.get(t["type"], 0) + t["taken"]
            designs[t["type"]] = designs.get(t["type"], 0) + 1
        shared = [(k, n) for k, n in types.items() if designs[k] > 1]
        if shared and rep["games"]:
            summed = ", ".join(f"{k} {n / rep['games']:.2f}" for k, n in shared)
            parts.append(f"<p>Taken a game, by type: {_e(summed)}.</p>")
    if rep.get("space_choices"):
        parts.append("<h2>What spaces asked</h2>")
        parts.append(
            "<p>How players answered the decisions a space put to them: an entry toll's "
            "options (counted also when only one was open), what a space offers.</p>"
        )
        rows = [(c["space"], c["choice"], c["times"], _per_game(c)) for c in rep["space_choices"]]
        parts.append(_table(("space", "answered", "times", "a game"), rows, 2))
    if rep.get("actions"):
        parts.append("<h2>Actions taken</h2>")
        rows = [(a["name"], a["taken"], _per_game(a)) for a in rep["actions"]]
        parts.append(_table(("action (the pack's `action` lines)", "taken", "a game"), rows))
    if len(rep.get("moves", ())) > 1:
        parts.append("<h2>Moves by way</h2>")
        rows = [(m["way"], m["moves"], _per_game(m)) for m in rep["moves"]]
        parts.append(_table(("way (tunnel: a plain path)", "moves", "a game"), rows))
    if rep.get("cubes"):
        parts.append("<h2>Cube tokens drawn</h2>")
        rows = [(c["name"], c["drawn"], _per_game(c)) for c in rep["cubes"]]
        parts.append(_table(("cube token", "drawn", "a game"), rows))
    if rep.get("offers"):
        parts += _offers_table(rep["offers"])
    return parts


def _token_points(row: dict[str, Any]) -> str:
    """A token's points as it scores them: "3", or "5 per companion"."""
    per = row.get("points_per")
    if not per:
        return str(row["points"])
    return f"{row['points']} + {per}" if row["points"] else per


def _offers_table(offers: list[dict[str, Any]]) -> list[str]:
    """What players could take and what they took: never offered, offered and never chosen,
    and the share of the players offered each thing who took it."""
    rows = [
        (
            o["name"],
            o["kind"],
            _per_game({"per_game": o["offered_per_game"], "per_game_ci": o["offered_per_game_ci"]}),
            _per_game({"per_game": o["chosen_per_game"], "per_game_ci": o["chosen_per_game_ci"]}),
            _pct(o["use_rate"], o["use_rate_ci"]) if o["offered_players"] else "never offered",
        )
        for o in offers
    ]
    head = ("offered and chosen", "kind", "offered a game", "chosen a game", "players who took it")
    return [
        "<h2>Offered and chosen</h2>",
        "<p>How often a game each card, monster, market item, token, action, way and space "
        "with <code>when you enter</code> lines was within a player's reach (a legal option "
        "on a turn) and how often it was taken: offered and never chosen is what the bots "
        "judge not worth it; never offered was never within reach.</p>",
        _table(head, rows, 2),
    ]


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><!--TITLE--></title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222;
  padding: 0 1em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
.meta { color: #555; }
.row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0.5em 0; }
.row > figure { flex: 1 1 440px; max-width: 640px; }
figcaption { color: #555; font-size: 0.9em; max-width: 42em; }
svg.plot { width: 100%; max-width: 640px; height: auto; display: block; }
svg.board { width: 100%; height: auto; display: block; }
table { border-collapse: collapse; font-size: 0.92em; margin: 0.5em 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f6f6f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.warnings { background: #fff6e0; border: 1px solid #f0d590; padding: 0.5em 2em; }
.failures { background: #fde8e8; border: 1px solid #e8a0a0; padding: 0.5em 1em; }
</style>
</head>
<body>
<!--BODY-->
</body>
</html>
"""


def board_drawing(
    rep: dict[str, Any], ir: dict[str, Any], modules: str | None = None
) -> tuple[str | None, str]:
    """The run's board coloured by its heatmap, as Graphviz's SVG (None without Graphviz),
    and what the caption adds. A modular board is drawn assembled: as ``modules`` (the run's
    `--modules`) says, else its first assembly, whose rooms' colours count every game that
    had them."""
    heat = rep["heatmap"]
    board = pick_board(ir, heat["board"])
    note = ""
    if asm.is_modular(board):
        chosen = asm.parse_assembly(board, modules)[0] if modules else None
        if chosen is None:
            chosen = asm.first_assembly(board)
            note = (
                f" The board drawn is its first assembly ({asm.label(board, chosen)}); each game"
                " drew its own, and a space's colour counts every game that had it."
                if chosen and asm.count_assemblies(board, 2) > 1
                else ""
            )
        if chosen:
            board = asm.assemble(board, chosen)
    colours = Heatmap(heat["board"], dict(heat["spaces"]), dict(heat["paths"]), heat["games"])
    try:
        graph = board_graph(board, colours, ways=ir.get("ways", ()))
        return render_graph(graph, "svg").decode("utf-8"), note
    except graphviz.ExecutableNotFound:
        return None, note


def write_page(
    path: Path,
    rep: dict[str, Any],
    ir: dict[str, Any],
    warnings: Sequence[str] = (),
    modules: str | None = None,
) -> None:
    """Write the report's page (through `outputs.write_text`: whole or not at all)."""
    svg, note = board_drawing(rep, ir, modules)
    write_text(path, build_page(rep, svg, warnings, board_note=note), named=True)
