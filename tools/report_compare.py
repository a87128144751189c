"""`simulate EXT --against BASE` as text and as the web page's section: each figure on both
packs and its paired difference with its interval, the significant changes first, then the
cards' edges side by side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Differences the text lists when not all are asked for: the significant ones of the game
# itself, the clearest PER_GROUP of each group of content figures, and others up to SHOWN.
SHOWN = 25
PER_GROUP = 8

_WHAT = {
    "seats": "",
    "game": "",
    "tension": "tension: ",
    "cards": "acquired a game: ",
    "tokens": "taken a game: ",
    "monsters": "defeated a game: ",
    "spaces": "arrivals a game: ",
    "paths": "walks a game: ",
    "ways": "moves a game by way: ",
}
_TENSION = {
    "lead_changes": "lead changes",
    "margin": "margin of victory",
    "decided": "winner led alone from round",
    "led_for": "rounds the winner led alone",
    "comeback": "comebacks (winner behind at mid-game)",
    "escape_race": "escape race (rounds)",
}


def figure_name(row: dict[str, Any], word: str = "dragon") -> str:
    """What a difference is about, in words (``word``: the pack's word for its dragon)."""
    name = row["figure"]
    if row["group"] == "tension":
        name = _TENSION.get(name, name)
    elif row["group"] == "seats" and name.endswith(" win"):
        name = f"{name[:-4]} win rate"
    elif row["group"] == "game" and word != "dragon" and name.startswith("dragon "):
        name = f"{word} {name[len('dragon ') :]}"
    return _WHAT[row["group"]] + name


def _value(row: dict[str, Any], x: float) -> str:
    return f"{x:.1%}" if row["kind"] == "rate" else f"{x:.2f}"


def _delta(row: dict[str, Any]) -> str:
    ci = row["delta_ci"]
    if row["kind"] == "rate":
        return f"{row['delta'] * 100:+.1f} [{ci['low'] * 100:+.1f}, {ci['high'] * 100:+.1f}] pts"
    return f"{row['delta']:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]"


def format_comparison(
    rep: dict[str, Any], table: Callable[..., list[str]], all_rows: bool = False
) -> list[str]:
    """The comparison's lines (``rep``: the extension's report with its ``against``)."""
    against = rep.get("against")
    if not against:
        return []
    ext, base = rep["pack"]["name"], against["pack"]["name"]
    word = str(rep["pack"].get("dragon", {}).get("word", "dragon"))
    rows = against["differences"]
    elsewhere = not against["same_board"] and not all_rows
    if elsewhere:  # a space of one board is not one of the other's, even of the same name
        rows = [r for r in rows if r["group"] not in ("spaces", "paths")]
    significant = [r for r in rows if r["significant"]]
    lines = [
        "",
        f"{ext} against {base} ({against['board']}): the same {against['games_paired']} "
        "seeds, each game played on both",
        f"differences {ext} − {base}: the mean of the per-game differences, 95% normal "
        "interval; * the interval leaves out 0",
    ]
    shown = rows
    if not all_rows:
        # Every significant change of the game itself; of the content's figures (cards,
        # tokens, monsters, spaces, paths, ways) the clearest few of each group.
        per_group: dict[str, int] = {}
        shown = []
        for r in significant:
            per_group[r["group"]] = per_group.get(r["group"], 0) + 1
            if r["group"] in ("seats", "game", "tension") or per_group[r["group"]] <= PER_GROUP:
                shown.append(r)
        quiet = [r for r in rows if not r["significant"]]
        shown += quiet[: max(SHOWN - len(shown), 0)]
    cells = [("", ext, base, "difference")]
    cells += [
        (
            ("* " if r["significant"] else "  ") + figure_name(r, word),
            _value(r, r["ext"]),
            _value(r, r["base"]),
            _delta(r),
        )
        for r in shown
    ]
    lines += table(cells)
    if elsewhere:
        lines.append(
            f"the boards differ ({rep['board']}, {against['board']}): spaces and paths are "
            "left out (--all lists them; the two reports' heatmaps have them)"
        )
    left = len(rows) - len(shown)
    lines.append(
        f"{len(significant)} of {len(rows)} figures changed beyond their interval"
        + (f"; {left} more not shown (--all shows every one)" if left > 0 else "")
    )
    both = [e for e in against["edges"] if "delta" in e]
    if both:
        both.sort(key=lambda e: -abs(e["delta"]))
        cut = both if all_rows else both[:10]
        lines += ["", "card edges on both packs (points; the difference as of two runs):"]
        cells = [("card", ext, base, "difference")]
        for e in cut:
            a, b, ci = e["ext"], e["base"], e["delta_ci"]
            cells.append(
                (
                    e["name"],
                    f"{a['edge'] * 100:+.1f}",
                    f"{b['edge'] * 100:+.1f}",
                    f"{e['delta'] * 100:+.1f} [{ci['low'] * 100:+.1f}, {ci['high'] * 100:+.1f}]",
                )
            )
        lines += table(cells)
    new = [e["name"] for e in against["edges"] if e["base"] is None]
    gone = [e["name"] for e in against["edges"] if e["ext"] is None]
    if new:
        lines.append(f"cards only in {ext}: {len(new)} (their edges are in {ext}'s card table)")
    if gone:
        lines.append(f"cards only in {base}: {', '.join(gone[:20])}")
    return lines
