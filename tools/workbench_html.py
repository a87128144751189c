"""The web page's sections of the designer's workbench: the tension of the games (score
curves, means by round) and a comparison with another pack (`simulate --against`), drawn
with the report page's plots and tables (tools/plots.py)."""

from __future__ import annotations

from typing import Any

import matplotlib

from .plots import RC, SEAT_COLOURS, esc, figure, figure_svg, label, new_figure, pct, pts, table
from .report_compare import figure_name
from .report_tension import tension_rows


def score_curves_plot(rep: dict[str, Any]) -> str | None:
    """The provisional scores of the first games, round by round, one panel a game and one
    line a seat (None without a sample)."""
    sample = rep["tension"]["sample"][:6]
    if not sample:
        return None
    orders = {r["game"]: r["order"] for r in rep.get("results", ())}
    fig = new_figure(7.6, 4.4)
    with matplotlib.rc_context(RC):
        axes = fig.subplots(2, 3, sharey=True).flatten()
        for ax, game in zip(axes, sample, strict=False):
            curve = game["scores"]
            rounds = list(range(1, len(curve) + 1))
            order = orders.get(game["game"], list(range(len(curve[0]) if curve else 0)))
            for seat, player in enumerate(order):
                ax.plot(
                    rounds, [s[player] for s in curve], marker="o", markersize=2,
                    color=SEAT_COLOURS[seat % len(SEAT_COLOURS)], label=f"seat {seat + 1}",
                )  # fmt: skip
            ax.set_title(f"game {game['game']}", fontsize=8)
            ax.set_xlabel("round")
        for ax in axes[len(sample) :]:
            ax.set_visible(False)
        axes[0].set_ylabel("provisional score")
        axes[0].legend(fontsize=6, frameon=False, loc="upper left")
    return figure_svg(fig, "tensioncurves")


def by_round_plot(rep: dict[str, Any]) -> str | None:
    """Mean provisional score, gold and Clank! by round (None without rounds noted)."""
    rows = rep["tension"]["by_round"]
    if not rows:
        return None
    xs = [r["round"] for r in rows]
    fig = new_figure(7.6, 2.6)
    with matplotlib.rc_context(RC):
        axes = fig.subplots(1, 3)
        for ax, key, title, colour in zip(
            axes,
            ("score", "gold", "clank"),
            ("provisional score", "gold", "Clank! (area and bag)"),
            ("#1b6ca8", "#edae49", "#d1495b"),
            strict=True,
        ):
            ax.plot(xs, [r[key] for r in rows], color=colour, marker="o", markersize=2)
            ax.set_title(f"mean {title}", fontsize=8)
            ax.set_xlabel("round")
    return figure_svg(fig, "tensionrounds")


def tension_section(rep: dict[str, Any]) -> list[str]:
    """The page's tension section: the figures with their intervals and the two plots."""
    rows = tension_rows(rep)
    if not rows:
        return []
    parts = ["<h2>Tension</h2>"]
    parts.append(
        "<p>From each round's provisional scores: what each player would score if the game "
        "ended then (no artifact, no points), noted as the last player on the clock ends a "
        "turn; the last round is the final result.</p>"
    )
    parts.append(table(("", "mean or rate, 95% interval"), rows))
    parts.append("<div class=row>")
    curves = score_curves_plot(rep)
    if curves is not None:
        parts.append(
            figure(
                curves,
                "Provisional scores round by round in the run's first games, one line a seat: "
                "a line jumps when its player takes an artifact; crossing lines are lead "
                "changes; the last point is the final score.",
            )
        )
    means = by_round_plot(rep)
    if means is not None:
        parts.append(
            figure(
                means,
                "Mean provisional score, gold and Clank! (cubes in the Clank! area and the "
                "bag) by round, over the players of the games still going.",
            )
        )
    parts.append("</div>")
    return parts


def _seats_both_plot(rep: dict[str, Any]) -> str:
    """Each seat's win rate on both packs, with 95 % intervals."""
    against = rep["against"]
    sides = ((rep["pack"]["name"], rep), (against["pack"]["name"], against["report"]))
    fig = new_figure(5.2, 3.0)
    with matplotlib.rc_context(RC):
        ax = fig.subplots()
        for k, (name, r) in enumerate(sides):
            seats = r["wins"]["by_seat"]
            xs = [s["seat"] + (k - 0.5) * 0.36 for s in seats]
            rates = [s["win_rate"] * 100 for s in seats]
            below = [(s["win_rate"] - s["win_rate_ci"]["low"]) * 100 for s in seats]
            above = [(s["win_rate_ci"]["high"] - s["win_rate"]) * 100 for s in seats]
            colour = ("#1b6ca8", "#bbbbbb")[k]
            ax.bar(xs, rates, width=0.34, color=colour, label=label(name))
            ax.errorbar(xs, rates, yerr=[below, above], fmt="none", ecolor="#222", capsize=3)
        seats = rep["wins"]["by_seat"]
        ax.set_xticks([s["seat"] for s in seats], [f"seat {s['seat']}" for s in seats])
        ax.set_ylabel("win rate (%)")
        ax.legend(fontsize=7, frameon=False)
        ax.set_title("Win rate by seat on both packs, 95% intervals")
    return figure_svg(fig, "againstseats")


def _relative_plot(rows: list[dict[str, Any]]) -> str | None:
    """The significant changes of the game's figures (seats, length, deaths, the dragon,
    tension) as a share of the base's value, with their intervals."""
    shown = [
        r
        for r in rows
        if r["significant"] and r["group"] in ("seats", "game", "tension") and r["base"]
    ][:20]
    if not shown:
        return None
    fig = new_figure(6.4, 0.7 + 0.26 * len(shown))
    with matplotlib.rc_context(RC):
        ax = fig.subplots()
        ys = list(range(len(shown)))[::-1]
        rel = [r["delta"] / abs(r["base"]) * 100 for r in shown]
        lows = [r["delta_ci"]["low"] / abs(r["base"]) * 100 for r in shown]
        highs = [r["delta_ci"]["high"] / abs(r["base"]) * 100 for r in shown]
        ax.errorbar(
            rel, ys, xerr=[[x - lo for x, lo in zip(rel, lows, strict=True)],
                           [hi - x for x, hi in zip(rel, highs, strict=True)]],
            fmt="o", color="#1b6ca8", ecolor="#999", capsize=2, markersize=4,
        )  # fmt: skip
        ax.axvline(0, color="#444", linewidth=1)
        ax.set_yticks(ys, [label(figure_name(r)) for r in shown])
        ax.set_xlabel("change, % of the base's value")
        ax.set_title("What changed: the game's figures, 95% intervals")
    return figure_svg(fig, "againstrel")


def compare_section(rep: dict[str, Any]) -> list[str]:
    """The page's comparison with ``--against``'s pack (nothing without one)."""
    against = rep.get("against")
    if not against:
        return []
    ext, base = rep["pack"]["name"], against["pack"]["name"]
    rows = against["differences"]
    if not against["same_board"]:
        rows = [r for r in rows if r["group"] not in ("spaces", "paths")]
    parts = [
        f"<h2>Against {esc(base)}</h2>",
        f"<p>The same {esc(against['games_paired'])} seeds played on both packs with the same "
        f"bots; a difference is {esc(ext)} minus {esc(base)}, the mean of the per-game "
        "differences with its 95% normal interval (paired, so the luck of the deal cancels "
        "out).</p>",
        "<div class=row>",
        figure(_seats_both_plot(rep), "Each seat's win rate on both packs."),
    ]
    rel = _relative_plot(rows)
    if rel is not None:
        parts.append(
            figure(rel, "The significant changes of the game's figures, as a share of the "
                   f"value in {base}."),
        )  # fmt: skip
    parts.append("</div>")
    cells = [
        (
            ("* " if r["significant"] else "") + figure_name(r),
            pct(r["ext"]) if r["kind"] == "rate" else f"{r['ext']:.2f}",
            pct(r["base"]) if r["kind"] == "rate" else f"{r['base']:.2f}",
            pts(r["delta"], r["delta_ci"])
            if r["kind"] == "rate"
            else f"{r['delta']:+.2f} [{r['delta_ci']['low']:+.2f}, {r['delta_ci']['high']:+.2f}]",
        )
        for r in rows[:120]
    ]
    parts.append(table(("figure (* the interval leaves out 0)", ext, base, "difference"), cells))
    if len(rows) > 120:
        parts.append(f"<p>{len(rows) - 120} more in the JSON report.</p>")
    return parts
