"""`clankwork test --balance`: play a pack's `balance` blocks and check their expectations.

Each block (dsl/balance.py) is a run of `simulate` with its games, seed, players and bots, so
its figures, and whether its expectations hold, are the same for any ``--jobs``. An
expectation is checked on the figure itself; the message gives the figure's 95 % interval
too, so a designer can tell a real change from a close call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clankwork.interpreter.catalog import prepare

from .simulate import bot_names, simulate


@dataclass
class BalanceOutcome:
    """A balance block played: its name, where it is, and its failures (message, at)."""

    name: str
    at: dict[str, Any]
    games: int = 0
    failures: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every expectation held."""
        return not self.failures


def measure(rep: dict[str, Any], e: dict[str, Any]) -> tuple[float, dict[str, float] | None]:
    """The figure an expectation names, in a report, and its interval when it has one."""
    kind, subject, games = e["figure"], e["subject"], max(rep["games"], 1)
    if kind == "win_rate":
        seat = rep["wins"]["by_seat"][subject - 1]
        return seat["win_rate"], seat["win_rate_ci"]
    if kind == "share":
        fp = rep["wins"]["first_player"]
        return fp["win_rate"], fp["win_rate_ci"]
    if kind in ("edge", "acquired"):
        card = next(c for c in rep["cards"] if c["name"] == subject)
        if kind == "edge":
            return card["edge"], card["edge_ci"]
        return card["acquired"] / games, None
    if kind == "rounds":
        return rep["rounds"]["mean"], rep["rounds"]["mean_ci"]
    if kind in ("escapes", "knockouts", "deaths"):
        return rep[kind]["rate"], rep[kind]["rate_ci"]
    if kind == "no_winner":
        return rep["wins"]["no_winner"] / games, None
    t = rep["tension"]
    if kind == "comebacks":
        return t["comeback"]["rate"], t["comeback"]["rate_ci"]
    figure = t["lead_changes" if kind == "lead_changes" else "margin"]
    return figure["mean"], figure["mean_ci"]


def holds(value: float, e: dict[str, Any]) -> bool:
    """Whether a figure meets an expectation's bounds (inclusive)."""
    low, high = e["low"], e["high"]
    return (low is None or value >= low - 1e-12) and (high is None or value <= high + 1e-12)


def _shown(x: float, unit: str) -> str:
    if unit == "rate":
        return f"{x:.1%}"
    if unit == "points":
        return f"{x * 100:+.1f} points"
    return f"{x:.2f}"


def _interval(ci: dict[str, float] | None, unit: str) -> str:
    if ci is None:
        return ""
    if unit == "rate":
        return f" [{ci['low'] * 100:.1f}–{ci['high'] * 100:.1f}]"
    if unit == "points":
        return f" [{ci['low'] * 100:+.1f}, {ci['high'] * 100:+.1f}]"
    return f" [{ci['low']:.2f}–{ci['high']:.2f}]"


def run_balance(ir: dict[str, Any], block: dict[str, Any], jobs: int = 1) -> BalanceOutcome:
    """Play a balance block and check its expectations."""
    out = BalanceOutcome(block["name"], block["at"], block["games"])
    try:
        names = bot_names(block["bots"], block["players"])
        catalog = prepare(ir, block.get("board", 0))
        lo, hi = catalog.rules["min_players"], catalog.rules["max_players"]
        if not lo <= block["players"] <= hi:
            raise ValueError(f"this pack plays with {lo} to {hi} players, not {block['players']}")
    except ValueError as e:
        out.failures.append((str(e), block["at"]))
        return out
    sim = simulate(
        ir, block["games"], block["players"], block["seed"], names,
        board=catalog.board.name, jobs=jobs, catalog=catalog,
    )  # fmt: skip
    rep = sim.report()
    said = f"{rep['games']} games, seed {block['seed']}, {', '.join(sorted(set(names)))}"
    if sim.totals.failed:
        out.failures.append(
            (f"{sim.totals.failed} of {block['games']} games failed ({said}); "
             f"the first: {sim.totals.failures[0]['error']}", block["at"])
        )  # fmt: skip
    for e in block["expect"]:
        value, ci = measure(rep, e)
        if not holds(value, e):
            out.failures.append(
                (
                    f"{e['said']} is {_shown(value, e['unit'])}{_interval(ci, e['unit'])}: "
                    f"expected {e['bounds']} ({said})",
                    e["at"],
                )
            )
    return out
