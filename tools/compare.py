"""`clankwork simulate EXT --against BASE`: two packs played on the same seeds, compared game by
game.

Game ``i`` is played on both packs with the same seed and the same bots (each pack with its own
catalog), and each game's figures (each seat's win and score, the length, escapes, deaths,
the dragon's attacks and damage, each card's acquisitions, each token, monster, space, path
and way, and the tension figures) are taken on both sides. What is added up is, per figure,
the count of pairs, the sums of both sides and the sum and sum of squares of the per-game
differences: whole numbers, so the pairs of a run merge exactly in chunk order, for any
``--jobs`` and on a Dask cluster, and memory does not grow with the games. A difference's
interval is the normal one of the mean of the per-game differences (mean ± 1.96 standard
errors): the pairing takes the luck of the deal out of the comparison, which is why it is
much narrower than comparing two separate runs.

A card's edge is a difference of two win rates over player-games, not a per-game figure: the
two packs' edges are put side by side with the interval of their difference taken as of two
independent estimates (from each edge's own interval, the MOVER method).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.intervals import Z95, ci, num
from clankwork.interpreter.stats import RESULTS_KEPT, GameStats, RunTotals, report
from clankwork.interpreter.tension import game_figures

from .check import bundled_names, load_ir
from .cluster import ClusterError, DaskMissing
from .outputs import write_text
from .report_html import write_page
from .simulate import (
    GAME_FAILED,
    ChunkMerger,
    GameFailed,
    Runner,
    RunSpec,
    chunk_plan,
    format_report,
    play_chunks,
    result_warnings,
)

COMPARE_METHOD = (
    "paired: each game played on both packs with the same seed and bots; a difference is the "
    "mean of the per-game differences with its 95% normal interval"
)

# Figures measured only in some games (the others leave them out of the pair).
_SOMETIMES = {"margin", "decided", "led_for", "comeback", "escape_race"}
# The groups in the order the tables list them, and how a figure of each is read.
GROUPS = ("seats", "game", "tension", "cards", "tokens", "monsters", "spaces", "paths", "ways")
_RATES = {"comeback", "no winner", "shared win"}


def game_metrics(game: Game, stats: GameStats) -> dict[tuple[str, str], int]:
    """One finished game's figures, by (group, name); every figure a whole number."""
    result = game.result
    assert result is not None
    m: dict[tuple[str, str], int] = {}
    for p, score in enumerate(result.scores):
        seat = result.seat_of(p) + 1
        m[("seats", f"seat {seat} win")] = int(p in result.winners)
        m[("seats", f"seat {seat} score")] = score
    m[("game", "rounds")] = result.rounds
    m[("game", "turns")] = result.turns
    m[("game", "escapes")] = result.escapes
    m[("game", "knock-outs")] = result.knockouts
    m[("game", "deaths")] = sum(result.zeroed)
    m[("game", "no winner")] = int(not result.winners)
    m[("game", "shared win")] = int(len(result.winners) > 1)
    m[("game", "dragon attacks")] = stats.attacks
    m[("game", "off-the-clock attacks")] = stats.off_clock
    m[("game", "dragon damage")] = sum(stats.damage)
    m[("game", "adventure deck reshuffles")] = stats.recycles
    for key, x in game_figures(result, stats.trace).items():
        m[("tension", key)] = x
    for got in stats.acquired:
        for name, n in got.items():
            m[("cards", name)] = m.get(("cards", name), 0) + n
    for got in stats.tokens:
        for name, n in got.items():
            m[("tokens", name)] = m.get(("tokens", name), 0) + n
    for name, n in stats.defeated.items():
        m[("monsters", name)] = n
    spaces = game.board.spaces
    for s, n in enumerate(stats.entries):
        if n:
            m[("spaces", spaces[s].name)] = n
    for (a, b), n in stats.paths.items():
        m[("paths", f"{spaces[a].name}->{spaces[b].name}")] = n
    for way, n in stats.ways.items():
        m[("ways", way)] = n
    return m


@dataclass
class PairedTotals:
    """Both packs' run totals and the sums of the per-game figures of the games that
    finished on both: pairs, each side's sum, the differences' sum and sum of squares."""

    keep: int = RESULTS_KEPT
    ext: RunTotals = field(default_factory=RunTotals)
    base: RunTotals = field(default_factory=RunTotals)
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    ext_sum: Counter[tuple[str, str]] = field(default_factory=Counter)
    base_sum: Counter[tuple[str, str]] = field(default_factory=Counter)
    diff_sum: Counter[tuple[str, str]] = field(default_factory=Counter)
    diff_sq: Counter[tuple[str, str]] = field(default_factory=Counter)
    games_paired: int = 0

    def __post_init__(self) -> None:
        self.ext.keep = self.base.keep = self.keep

    @property
    def games(self) -> int:
        """Games played on the extension (what the progress bar counts)."""
        return self.ext.games + self.ext.failed

    def add_pair(self, a: dict[tuple[str, str], int], b: dict[tuple[str, str], int]) -> None:
        """Count one game's figures on both packs. A count a game lacks is 0 there (and
        every pair counts for it: see `pairs_of`); a figure measured only in some games
        (`_SOMETIMES`) is paired only when both sides measured it."""
        self.games_paired += 1
        for key in a.keys() | b.keys():
            sometimes = key[0] == "tension" and key[1] in _SOMETIMES
            if sometimes and (key not in a or key not in b):
                continue
            x, y = a.get(key, 0), b.get(key, 0)
            if sometimes:
                self.pairs[key] += 1
            else:
                self.pairs[key] += 0  # listed; its count of pairs is every game's
            self.ext_sum[key] += x
            self.base_sum[key] += y
            self.diff_sum[key] += x - y
            self.diff_sq[key] += (x - y) * (x - y)

    def merge(self, other: PairedTotals) -> None:
        """Add a part of the run that comes after this one in game order."""
        self.ext.merge(other.ext)
        self.base.merge(other.base)
        for name in ("pairs", "ext_sum", "base_sum", "diff_sum", "diff_sq"):
            getattr(self, name).update(getattr(other, name))
        self.games_paired += other.games_paired


class PairedRunner:
    """Plays each game of a chunk on both packs (each pack's catalog prepared once)."""

    def __init__(self, spec: PairedSpec, catalog: Catalog | None = None) -> None:
        self.ext = Runner(spec.ext, catalog)
        self.base = Runner(spec.base)
        self.catalog = self.ext.catalog

    def run_chunk(self, start: int, seeds: Sequence[int], keep: int = RESULTS_KEPT) -> Any:
        """Play games ``start``, ``start + 1``... on both packs; a game that fails on one
        side is counted as failed there and left out of the pairs."""
        totals = PairedTotals(keep=keep)
        for k, seed in enumerate(seeds):
            index = start + k
            record = index < keep
            played: list[dict[tuple[str, str], int] | None] = []
            for runner, side in ((self.ext, totals.ext), (self.base, totals.base)):
                try:
                    game, stats = runner.play(index, seed, record=record)
                except GameFailed as e:
                    side.add_failure(e.index, e.seed, e.turn, e.error)
                    played.append(None)
                    continue
                side.add(index, game, stats)
                played.append(game_metrics(game, stats))
            a, b = played
            if a is not None and b is not None:
                totals.add_pair(a, b)
        return totals


@dataclass(frozen=True)
class PairedSpec:
    """Two runs' specs played on the same seeds: the extension's and the base's."""

    ext: RunSpec
    base: RunSpec

    def runner(self, catalog: Catalog | None = None) -> PairedRunner:
        """What plays this pair's chunks in a process (or on a Dask worker)."""
        return PairedRunner(self, catalog)


def pairs_of(t: PairedTotals, key: tuple[str, str]) -> int:
    """The games a figure is paired over: all of them for a count, those that measured it
    on both sides for a figure of `_SOMETIMES`."""
    if key[0] == "tension" and key[1] in _SOMETIMES:
        return t.pairs[key]
    return t.games_paired


def paired_differences(t: PairedTotals) -> list[dict[str, Any]]:
    """Each figure's means on both packs over the games paired, and the mean of the
    per-game differences with its interval; the significant ones (the interval leaves out
    0) first, the clearest first, then the others in the groups' order."""
    out = []
    for key in t.pairs:
        n = pairs_of(t, key)
        d, dd = t.diff_sum[key], t.diff_sq[key]
        mean = d / n
        half = 0.0
        if n > 1:
            var = max((n * dd - d * d) / (n * (n - 1)), 0.0)
            half = Z95 * math.sqrt(var / n)
        low, high = mean - half, mean + half
        significant = n > 1 and (low > 0 or high < 0)
        z = abs(mean) / (half / Z95) if half else (math.inf if mean else 0.0)
        group, name = key
        out.append(
            {
                "group": group,
                "figure": name,
                "kind": "rate" if name.endswith(" win") or name in _RATES else "mean",
                "games": n,
                "ext": num(t.ext_sum[key] / n),
                "base": num(t.base_sum[key] / n),
                "delta": num(mean),
                "delta_ci": ci((low, high)),
                "significant": significant,
                "_z": z,
            }
        )
    order = {g: k for k, g in enumerate(GROUPS)}
    out.sort(
        key=lambda r: (
            not r["significant"],
            order[r["group"]],
            -r["_z"] if r["significant"] else 0,
            r["figure"],
        )
    )
    for r in out:
        del r["_z"]
    return out


def edges_side_by_side(ext: dict[str, Any], base: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of either report with both edges (a card one pack lacks has none there) and,
    for a card of both, the difference of the edges with its interval (independent
    estimates: each side's interval combined, the MOVER method)."""
    base_cards = {c["name"]: c for c in base["cards"]}
    ext_cards = {c["name"]: c for c in ext["cards"]}
    out = []
    for name in [*ext_cards, *(n for n in base_cards if n not in ext_cards)]:
        a, b = ext_cards.get(name), base_cards.get(name)
        row: dict[str, Any] = {"name": name}
        for side, c in (("ext", a), ("base", b)):
            row[side] = (
                None
                if c is None
                else {
                    "players": c["players"],
                    "passed": c["passed"],
                    "edge": c["edge"],
                    "edge_ci": c["edge_ci"],
                }
            )
        measured = [c for c in (a, b) if c is not None and c["players"] and c["passed"]]
        if a is not None and b is not None and len(measured) == 2:
            d = a["edge"] - b["edge"]
            la, ua = a["edge_ci"]["low"], a["edge_ci"]["high"]
            lb, ub = b["edge_ci"]["low"], b["edge_ci"]["high"]
            low = d - math.hypot(a["edge"] - la, ub - b["edge"])
            high = d + math.hypot(ua - a["edge"], b["edge"] - lb)
            row["delta"] = num(d)
            row["delta_ci"] = ci((max(low, -2.0), min(high, 2.0)))
        out.append(row)
    return out


@dataclass
class Comparison:
    """A finished comparison: both reports and what the pairs say."""

    ext: dict[str, Any]
    base: dict[str, Any]
    totals: PairedTotals

    def against(self) -> dict[str, Any]:
        """The extension report's ``against`` entry (schemas/report.schema.json)."""
        return {
            "pack": self.base["pack"],
            "board": self.base["board"],
            "method": COMPARE_METHOD,
            # Spaces and paths compare like with like only on the same board.
            "same_board": set(self.ext["heatmap"]["spaces"]) == set(self.base["heatmap"]["spaces"]),
            "games_paired": self.totals.games_paired,
            "differences": paired_differences(self.totals),
            "edges": edges_side_by_side(self.ext, self.base),
            "report": self.base,
        }


def base_board(catalog_ir: dict[str, Any], board: str) -> int | str:
    """The base pack's board of the extension's board's name, else its first."""
    names = [b.get("name") for b in catalog_ir.get("boards", ())]
    return board if board in names else 0


def compare_runs(
    ext_ir: dict[str, Any],
    base_ir: dict[str, Any],
    games: int,
    players: int,
    seed: int,
    bots: Sequence[str],
    *,
    board: int | str = 0,
    base_board_name: int | str = 0,
    rules: dict[str, Any] | None = None,
    jobs: int = 1,
    dask: str | None = None,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
    catalog: Catalog | None = None,
) -> Comparison:
    """Play ``games`` games on both packs with the same seeds and compare them game by game;
    the same arguments give the same comparison for any ``jobs`` and on any Dask cluster."""
    names = tuple(bots)
    ext = RunSpec(ext_ir, players, names, board, rules or None, None, check)
    base = RunSpec(base_ir, players, names, base_board_name, rules or None, None, check)
    spec = PairedSpec(ext, base)
    merger = ChunkMerger(PairedTotals(), progress)  # any totals that merge
    runner = play_chunks(
        spec, chunk_plan(seed, games), merger, games=games, jobs=jobs, dask=dask, catalog=catalog
    )
    totals: PairedTotals = merger.totals
    ext_catalog = runner.ext.catalog if runner is not None else catalog or prepare(ext_ir, board)
    base_catalog = runner.base.catalog if runner is not None else prepare(base_ir, base_board_name)
    return Comparison(
        report(totals.ext, ext_catalog, seed=seed, bots=names, rules=rules),
        report(totals.base, base_catalog, seed=seed, bots=names, rules=rules),
        totals,
    )


def load_base(against: str) -> dict[str, Any]:
    """The IR of ``--against``: a pack's folder or file when one is there, else the bundled
    pack of that name."""
    path = Path(against)
    if path.exists():
        return load_ir(path)
    if against in bundled_names():
        return load_ir(None, against)
    raise click.BadParameter(
        f"{against!r}: no such folder or file, and no bundled pack of that name "
        f"(bundled: {', '.join(bundled_names())})",
        param_hint="--against",
    )


def against_command(
    pack: Path | None,
    ir: dict[str, Any],
    catalog: Catalog,
    against: str,
    *,
    games: int,
    players: int,
    seed: int,
    bots: Sequence[str],
    rules: dict[str, Any],
    jobs: int,
    dask: str | None,
    check: bool,
    json_file: Path | None,
    html_file: Path | None,
    all_rows: bool,
) -> None:
    """`simulate PACK --against BASE`: play, print and write the comparison."""
    base_ir = load_base(against)
    board = base_board(base_ir, catalog.board.name)
    try:
        base_catalog = prepare(base_ir, board)
        limits = {**base_catalog.rules, **rules}
        lo, hi = limits["min_players"], limits["max_players"]
        if not lo <= players <= hi:
            raise ValueError(f"{against} plays with {lo} to {hi} players, not {players}")
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--against") from None
    start = time.perf_counter()
    bar: Any = None
    if sys.stderr.isatty():
        bar = click.progressbar(length=games, label="simulating both", file=sys.stderr)
        bar.__enter__()
    try:
        cmp = compare_runs(
            ir, base_ir, games, players, seed, bots, board=catalog.board.name,
            base_board_name=board, rules=rules, jobs=jobs, dask=dask, check=check,
            progress=bar.update if bar is not None else None, catalog=catalog,
        )  # fmt: skip
    except (DaskMissing, ClusterError) as e:
        raise click.ClickException(str(e)) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    elapsed = time.perf_counter() - start
    rep = cmp.ext
    rep["against"] = cmp.against()
    failed = rep["failed"] + cmp.base["failed"]
    if json_file is not None:
        write_text(json_file, json.dumps(rep, indent=1) + "\n", named=True)
    if html_file is not None:
        write_page(html_file, rep, ir, result_warnings(rep))
    click.echo(format_report(rep, all_cards=all_rows))
    click.echo(f"{2 * games} games in {elapsed:.2f} s", err=True)
    for target in (json_file, html_file):
        if target is not None:
            click.echo(f"wrote {target}", err=True)
    sys.stdout.flush()
    if failed:
        click.echo(
            f"Error: {failed} games failed ({rep['failed']} of {ext_name(rep)}, "
            f"{cmp.base['failed']} of {against}): listed in each report, counted in no figure",
            err=True,
        )
        sys.exit(GAME_FAILED)


def ext_name(rep: dict[str, Any]) -> str:
    """The extension's pack name."""
    return str(rep["pack"]["name"])
