"""The tension of a run's games, as the text report's lines and the web page's section.

The figures come from the report's ``tension`` entry (interpreter/tension.py): lead changes,
the round the winner took the lead for good, comebacks, the margin of victory and the escape
race, each with its 95 % interval; the page adds score curves of the first games and the
mean score, gold and Clank! by round.
"""

from __future__ import annotations

from typing import Any


def _mean(f: dict[str, Any], unit: str = "") -> str:
    ci = f["mean_ci"]
    return f"{f['mean']:.2f} [{ci['low']:.2f}–{ci['high']:.2f}]{unit} ({f['games']} games)"


def tension_rows(rep: dict[str, Any]) -> list[tuple[str, str]]:
    """The tension figures as (what, figure with its interval) pairs; none without them."""
    t = rep.get("tension")
    if not t:
        return []
    c = t["comeback"]
    ci = c["rate_ci"]
    return [
        ("lead changes a game", _mean(t["lead_changes"])),
        ("winner led alone from round", _mean(t["decided_round"])),
        ("winner led alone for", _mean(t["led_for"], " rounds")),
        (
            "comebacks (winner behind at mid-game)",
            f"{c['rate']:.1%} [{ci['low'] * 100:.1f}–{ci['high'] * 100:.1f}] "
            f"({c['comebacks']} of {c['games']} games)",
        ),
        ("margin of victory", _mean(t["margin"], " points")),
        ("escape race (first to last escape)", _mean(t["escape_race"], " rounds")),
    ]


def format_tension(rep: dict[str, Any], table: Any) -> list[str]:
    """The tension lines of the text report (``table`` lays out rows of cells)."""
    rows = tension_rows(rep)
    if not rows:
        return []
    head = (
        "tension (from each round's provisional scores: what each player would score if the "
        "game ended then)"
    )
    return ["", head, *table(rows, right=set())]
