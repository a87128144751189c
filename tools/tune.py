"""`clankwork tune`: search a pack's knobs (a card's cost, a rule's value) for values that put
its figures on target (a card's edge at 0, seat 1 at a fair share), with bot games.

Each trial is a run of ``--games`` games on the same seeds (`simulate.simulate` with the
trial's changes, as ``--sweep`` plays them: ``--jobs`` or a Dask cluster, the same figures for
any), so two trials differ by their knobs alone. The search is Optuna's TPE sampler seeded
with ``--seed`` (the same trials for the same options); the pack's own values are tried first.
A target is met when its value lies within the figure's 95 % interval and, with a tolerance
(``edge:CARD=0±3``), when the figure is within the tolerance of it. The search stops when a
trial meets every target, or after ``--trials``. Among the trials that meet them all the one
that changes the fewest knobs wins (then the closest); each knob it changed is then tried at
its own value again, and put back when the targets stay met: the answer changes no more than
it needs to.

Why Optuna: it is maintained, installs from PyPI with no compiler, samples integer knobs
natively, and its TPE sampler is deterministic given a seed. Nevergrad's discrete optimisers
would do as well; no maintained NTBEA package exists on PyPI (TAG's is Java).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.intervals import ci, mean_interval, num, wilson
from clankwork.interpreter.log import LogError, check_rule_overrides
from clankwork.interpreter.rules import MAX_PLAYERS
from clankwork.interpreter.stats import RunTotals

from .check import load_ir
from .cluster import ClusterError, DaskMissing
from .outputs import check_file_target, write_text
from .packs import PACK
from .report_variants import Change, ChangeError, card_figures, find_card, seat_one
from .simulate import MAX_SEED, _check_dask, _table, bot_names, parse_rules, simulate

TUNE_FORMAT = "clankwork-tune/1"
# The most trials one search may play, and the default.
MAX_TRIALS = 500
# What a changed knob costs in the search's objective: among answers equally close to the
# targets, the one that changes fewer knobs is preferred.
CHANGE_PENALTY = 0.25
INSTALL_HINT = "tune needs Optuna: pip install 'clankwork[tune]'"


class TuneError(ValueError):
    """A knob or a target that names nothing in the pack, or is written wrong."""


@dataclass(frozen=True)
class Knob:
    """A value the search may change: a card's cost or a rule's whole-number value."""

    kind: str  # cost | rule
    name: str  # the card's name as the pack spells it, or the rule's key
    low: int
    high: int
    original: int

    @property
    def label(self) -> str:
        """How the option wrote it: ``cost:CARD`` or ``rule:KEY``."""
        return f"{self.kind}:{self.name}"

    def change(self, value: int) -> Change:
        """The run's change that sets this knob to ``value``."""
        if self.kind == "cost":
            return Change("cost", self.name, value=value)
        return Change("rule", key=self.name, value=value)


@dataclass(frozen=True)
class Target:
    """A figure to bring to a value: ``edge`` of a card (points), ``win_rate`` of a seat
    (a share of all games), ``share`` of a seat (of the games with a winner, shared wins
    split; seat 1 only), or ``rounds`` (the mean game length)."""

    kind: str
    subject: str  # the card's name, "seat N", or ""
    value: float
    tolerance: float | None = None

    @property
    def label(self) -> str:
        """How the option wrote it, in its own units."""
        head = f"{self.kind}:{self.subject}" if self.subject else self.kind
        shown = self._shown(self.value)
        tol = f"±{self._shown(self.tolerance)}" if self.tolerance is not None else ""
        return f"{head}={shown}{tol}"

    def _shown(self, x: float) -> str:
        if self.kind == "edge":
            return f"{x * 100:g}"
        return f"{x:g}"

    def measure(self, totals: RunTotals, players: int) -> tuple[float, tuple[float, float]]:
        """The figure in a run and its 95 % interval."""
        if self.kind == "edge":
            c = card_figures(totals, self.subject, players)
            return c["edge"], (c["edge_ci"]["low"], c["edge_ci"]["high"])
        if self.kind == "win_rate":
            seat = int(self.subject.split()[1]) - 1
            wins = (totals.wins_seat + [0] * players)[seat]
            return wins / totals.games if totals.games else 0.0, wilson(wins, totals.games)
        if self.kind == "share":
            fp = seat_one(totals, players)
            return fp["win_rate"], (fp["win_rate_ci"]["low"], fp["win_rate_ci"]["high"])
        n = sum(totals.round_hist.values())
        total = sum(v * k for v, k in totals.round_hist.items())
        sq = sum(v * v * k for v, k in totals.round_hist.items())
        return total / n if n else 0.0, mean_interval(total, sq, n)

    def met(self, value: float, interval: tuple[float, float]) -> bool:
        """The target lies in the interval (and the figure within the tolerance)."""
        inside = interval[0] <= self.value <= interval[1]
        close = self.tolerance is None or abs(value - self.value) <= self.tolerance + 1e-12
        return inside and close


_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_TOL = re.compile(r"^(.*?)(?:±|\+-|\+/-)(.*)$")


def parse_knob(text: str, catalog: Catalog, rules: dict[str, Any]) -> Knob:
    """``cost:CARD=LO..HI`` or ``rule:KEY=LO..HI`` (whole numbers)."""
    head, eq, span = text.partition("=")
    kind, colon, name = head.partition(":")
    kind, name = kind.strip().lower(), name.strip()
    m = _RANGE.match(span)
    if not eq or not colon or kind not in ("cost", "rule") or not name or m is None:
        raise TuneError(f"{text!r}: expected cost:CARD=LO..HI or rule:KEY=LO..HI")
    low, high = int(m.group(1)), int(m.group(2))
    if low > high:
        raise TuneError(f"{text!r}: the range {low}..{high} is empty (write LO..HI)")
    if kind == "cost":
        try:
            card = find_card(catalog, name)
        except ChangeError as e:
            raise TuneError(f"{text!r}: {e}") from None
        if not 0 <= low <= high <= 999:
            raise TuneError(f"{text!r}: a cost is a whole number 0 to 999")
        return Knob("cost", card.name, low, high, card.cost)
    key = name.replace(" ", "_").replace("-", "_")
    current = {**catalog.rules, **rules}.get(key)
    if not isinstance(current, int) or isinstance(current, bool):
        raise TuneError(f"{text!r}: {key!r} is not a rule with a whole-number value")
    for value in (low, high):
        try:
            check_rule_overrides({**rules, key: value})
        except LogError as e:
            raise TuneError(f"{text!r}: {e.message}") from None
    return Knob("rule", key, low, high, current)


def parse_target(text: str, catalog: Catalog, players: int) -> Target:
    """``edge:CARD=V[±T]`` (points), ``win_rate:seatN=V[±T]`` and ``share:seat1=V[±T]``
    (a fraction, or a percentage with ``%``), ``rounds=V[±T]``."""
    head, eq, rest = text.partition("=")
    kind, _, subject = head.partition(":")
    kind, subject = kind.strip().lower(), subject.strip()
    m = _TOL.match(rest)
    value_text, tol_text = (m.group(1), m.group(2)) if m else (rest, None)

    def number(word: str, scale: float) -> float:
        word = word.strip()
        pct = word.endswith("%")
        try:
            x = float(word.rstrip("%"))
        except ValueError:
            raise TuneError(f"{text!r}: {word!r} is not a number") from None
        return x / 100 if pct else x * scale

    if not eq or kind not in ("edge", "win_rate", "share", "rounds"):
        raise TuneError(
            f"{text!r}: expected edge:CARD=V, win_rate:seatN=V, share:seat1=V or rounds=V "
            "(with ±T for a tolerance)"
        )
    scale = 0.01 if kind == "edge" else 1.0  # an edge is written in points
    value = number(value_text, scale)
    tolerance = number(tol_text, scale) if tol_text is not None else None
    if kind == "edge":
        try:
            subject = find_card(catalog, subject).name
        except ChangeError as e:
            raise TuneError(f"{text!r}: {e}") from None
    elif kind in ("win_rate", "share"):
        seat = re.fullmatch(r"seat\s*(\d+)", subject.lower())
        if seat is None or not 1 <= int(seat.group(1)) <= players:
            raise TuneError(f"{text!r}: name a seat, seat1 to seat{players}")
        if kind == "share" and int(seat.group(1)) != 1:
            raise TuneError(f"{text!r}: share is measured for seat 1 only")
        subject = f"seat {int(seat.group(1))}"
    elif subject:
        raise TuneError(f"{text!r}: rounds takes no subject (rounds=14)")
    return Target(kind, subject, value, tolerance)


@dataclass
class Trial:
    """One set of knob values and what its run measured."""

    number: int
    values: dict[str, int]
    figures: list[dict[str, Any]]
    met: bool
    objective: float
    changed: int
    games: int  # games this trial played (0 when its values were measured before)
    phase: str = "search"  # search | simplify (a knob put back to its own value)

    def record(self) -> dict[str, Any]:
        """The trial as the JSON report lists it."""
        return {
            "trial": self.number,
            "phase": self.phase,
            "values": dict(self.values),
            "changed": self.changed,
            "figures": self.figures,
            "met": self.met,
            "objective": num(self.objective),
            "games": self.games,
        }


@dataclass
class Search:
    """A tuning run: what it plays and the trials so far (measured values are cached)."""

    measure_run: Callable[[tuple[Change, ...]], RunTotals]
    knobs: list[Knob]
    targets: list[Target]
    players: int
    games: int
    trail: list[Trial] = field(default_factory=list)
    _seen: dict[tuple[int, ...], Trial] = field(default_factory=dict)

    @property
    def space(self) -> int:
        """How many sets of knob values there are."""
        size = 1
        for k in self.knobs:
            size *= k.high - k.low + 1
        return size

    def evaluate(self, values: dict[str, int], phase: str = "search") -> Trial:
        """Measure the targets with the knobs at ``values`` (a run, unless measured before:
        then the earlier trial's figures, with no games played and nothing added to the
        trail)."""
        key = tuple(values[k.label] for k in self.knobs)
        seen = self._seen.get(key)
        if seen is not None:  # measured before: the same figures, no games, not in the trail
            return Trial(seen.number, dict(values), seen.figures, seen.met, seen.objective,
                         seen.changed, 0, phase)  # fmt: skip
        changes = tuple(k.change(values[k.label]) for k in self.knobs)
        totals = self.measure_run(changes)
        figures, objective, met = [], 0.0, True
        for t in self.targets:
            value, (low, high) = t.measure(totals, self.players)
            ok = t.met(value, (low, high))
            met = met and ok
            half = max((high - low) / 2, 1e-6)
            objective += ((value - t.value) / half) ** 2
            if t.tolerance is not None:
                objective += max(abs(value - t.value) - t.tolerance, 0) / max(t.tolerance, 1e-6)
            figures.append(
                {"target": t.label, "value": num(value), "ci": ci((low, high)), "met": ok}
            )
        changed = sum(values[k.label] != k.original for k in self.knobs)
        objective += CHANGE_PENALTY * changed
        trial = Trial(len(self.trail) + 1, dict(values), figures, met, objective, changed,
                      totals.games + totals.failed, phase)  # fmt: skip
        self._seen[key] = trial
        self.trail.append(trial)
        return trial

    def best(self) -> Trial:
        """The trial that meets every target with the fewest changed knobs (then the
        closest), or the closest of all when none meets them."""
        met = [t for t in self.trail if t.met]
        if met:
            return min(met, key=lambda t: (t.changed, t.objective, t.number))
        return min(self.trail, key=lambda t: (t.objective, t.number))

    def simplify(self, best: Trial) -> Trial:
        """Put each knob the answer changed back to its own value, one at a time, and keep
        it there when the targets stay met."""
        if not best.met:
            return best
        for k in self.knobs:
            if best.values[k.label] == k.original:
                continue
            trial = self.evaluate({**best.values, k.label: k.original}, phase="simplify")
            if trial.met:
                best = trial
        return best

    @property
    def games_spent(self) -> int:
        """Games played by all the trials (a repeated trial plays none)."""
        return sum(t.games for t in self.trail)


def run_search(search: Search, trials: int, seed: int) -> tuple[Trial, str]:
    """Search with Optuna's TPE sampler (seeded) for ``trials`` distinct trials at most (or
    until every set of values is tried), the pack's own
    values first (when they are in the knobs' ranges); then simplify the best. Returns it
    and what stopped the search."""
    try:
        import optuna
    except ImportError:
        raise click.ClickException(INSTALL_HINT) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(5, trials))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    if all(k.low <= k.original <= k.high for k in search.knobs):
        study.enqueue_trial({k.label: k.original for k in search.knobs})
    stopped = {"by": "trials"}

    def objective(trial: Any) -> float:
        values = {k.label: trial.suggest_int(k.label, k.low, k.high) for k in search.knobs}
        result = search.evaluate(values)
        if result.met:
            stopped["by"] = "targets met"
            trial.study.stop()
        elif len(search.trail) >= min(trials, search.space):
            stopped["by"] = "trials" if len(search.trail) >= trials else "every value tried"
            trial.study.stop()
        return result.objective

    # The sampler may propose values measured before: they cost no games and do not count
    # as trials, so it may propose more (within reason) to find new ones.
    study.optimize(objective, n_trials=trials * 20)
    return search.simplify(search.best()), stopped["by"]


def tune_report(search: Search, best: Trial, stopped: str, meta: dict[str, Any]) -> dict[str, Any]:
    """The JSON report of a search (schemas/tune.schema.json)."""
    return {
        "format": TUNE_FORMAT,
        **meta,
        "knobs": [
            {"knob": k.label, "low": k.low, "high": k.high, "original": k.original}
            for k in search.knobs
        ],
        "targets": [
            {
                "target": t.label,
                "kind": t.kind,
                "subject": t.subject,
                "value": t.value,
                "tolerance": t.tolerance,
            }
            for t in search.targets
        ],
        "stopped_by": stopped,
        "games_per_trial": search.games,
        "games_spent": search.games_spent,
        "best": best.record(),
        "trail": [t.record() for t in search.trail],
    }


def _figure(f: dict[str, Any], kind: str) -> str:
    c = f["ci"]
    if kind == "edge":
        return f"{f['value'] * 100:+.1f} [{c['low'] * 100:+.1f}, {c['high'] * 100:+.1f}]"
    if kind in ("win_rate", "share"):
        return f"{f['value']:.1%} [{c['low'] * 100:.1f}–{c['high'] * 100:.1f}]"
    return f"{f['value']:.2f} [{c['low']:.2f}–{c['high']:.2f}]"


def format_tune(rep: dict[str, Any], table: Callable[..., list[str]]) -> str:
    """The search as text: the trail, then the answer with its figures and the games spent."""
    kinds = [t["kind"] for t in rep["targets"]]
    knobs = [k["knob"] for k in rep["knobs"]]
    head = ["trial", *knobs, *[t["target"] for t in rep["targets"]], "met", "games"]
    rows = [tuple(head)]
    for t in rep["trail"]:
        rows.append(
            (
                f"{t['trial']}{' (simplify)' if t['phase'] == 'simplify' else ''}",
                *[str(t["values"][k]) for k in knobs],
                *[_figure(f, kind) for f, kind in zip(t["figures"], kinds, strict=True)],
                "yes" if t["met"] else "no",
                str(t["games"]),
            )
        )
    best = rep["best"]
    originals = {k["knob"]: k["original"] for k in rep["knobs"]}
    values = ", ".join(
        f"{k}={best['values'][k]}"
        + (f" (from {originals[k]})" if best["values"][k] != originals[k] else " (unchanged)")
        for k in knobs
    )
    lines = [
        f"tune {rep['pack']['name']} {rep['pack']['version']}: {rep['players']} players "
        f"({', '.join(rep['bots'])}), {rep['games_per_trial']} games a trial on the same "
        f"seeds (--seed {rep['seed']})",
        "",
        *table(rows, right=set(range(1, len(head)))),
        "",
        ("answer: " if best["met"] else "closest (targets not met): ") + values,
    ]
    for f, kind in zip(best["figures"], kinds, strict=True):
        lines.append(f"  {f['target']}: {_figure(f, kind)} {'met' if f['met'] else 'NOT met'}")
    why = {
        "targets met": "a trial met every target",
        "every value tried": "every set of knob values was tried",
    }.get(rep["stopped_by"], f"--trials {rep['trials']} reached")
    lines.append(f"{len(rep['trail'])} trials, {rep['games_spent']} games played; stopped: {why}")
    return "\n".join(lines)


@click.command("tune")
@click.argument("pack", required=False, type=PACK)
@click.option("--knob", "knob_items", multiple=True, required=True,
              metavar="cost:CARD=LO..HI|rule:KEY=LO..HI",
              help="A value the search may change (repeatable).")  # fmt: skip
@click.option("--target", "target_items", multiple=True, required=True,
              metavar="edge:CARD=V|win_rate:seatN=V|share:seat1=V|rounds=V",
              help="A figure to bring to a value, with ±T for a tolerance (repeatable): "
              "edge in points, rates as fractions or with %.")  # fmt: skip
@click.option("--games", "-n", default=200, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Games a trial plays (the same seeds for every trial).")  # fmt: skip
@click.option("--trials", default=30, show_default=True, type=click.IntRange(1, MAX_TRIALS),
              help=f"The most trials to play (1 to {MAX_TRIALS}).")  # fmt: skip
@click.option("--players", "-p", default=4, show_default=True,
              type=click.IntRange(1, MAX_PLAYERS))  # fmt: skip
@click.option("--seed", "-s", default=1, show_default=True, type=click.IntRange(0, MAX_SEED),
              help="Seed of the games and of the search.")  # fmt: skip
@click.option("--bots", default="heuristic", show_default=True, help="Bot names, as simulate.")
@click.option("--board", help="Board to play on [default: first].")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE",
              help="A rule override for every trial (repeatable).")  # fmt: skip
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(0, 256),
              help="Processes to play each trial in (0: one per CPU).")  # fmt: skip
@click.option("--dask", "dask_address", metavar="local|tcp://HOST:PORT",
              help="Play each trial on a Dask cluster, as simulate --dask.")  # fmt: skip
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the search as JSON (schemas/tune.schema.json).")  # fmt: skip
def command(
    pack: Path | None,
    knob_items: tuple[str, ...],
    target_items: tuple[str, ...],
    games: int,
    trials: int,
    players: int,
    seed: int,
    bots: str,
    board: str | None,
    rule_items: tuple[str, ...],
    jobs: int,
    dask_address: str | None,
    json_file: Path | None,
) -> None:
    """Search PACK's knobs (costs, rules) for values that put its figures on target
    (default: the bundled flagship pack)."""
    if json_file is not None:
        check_file_target(json_file, named=True)
    if dask_address is not None:
        _check_dask(dask_address, None)
    ir = load_ir(pack)
    rules = parse_rules(rule_items)
    try:
        names = bot_names(bots, players)
        catalog = prepare(ir, board if board is not None else 0)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    knobs, targets = [], []
    for option, items, parse in (
        ("--knob", knob_items, lambda x: knobs.append(parse_knob(x, catalog, rules))),
        ("--target", target_items, lambda x: targets.append(parse_target(x, catalog, players))),
    ):
        for item in items:
            try:
                parse(item)
            except TuneError as e:
                raise click.BadParameter(str(e), param_hint=option) from None
    if len({k.label for k in knobs}) < len(knobs):
        raise click.BadParameter("a knob is given twice", param_hint="--knob")

    def measure_run(changes: tuple[Change, ...]) -> RunTotals:
        sim = simulate(
            ir, games, players, seed, names, board=catalog.board.name, rules=rules,
            jobs=jobs, catalog=catalog, dask=dask_address, changes=changes,
        )  # fmt: skip
        return sim.totals

    search = Search(measure_run, knobs, targets, players, games)
    start = time.perf_counter()
    try:
        best, stopped = run_search(search, trials, seed)
    except (DaskMissing, ClusterError) as e:
        raise click.ClickException(str(e)) from None
    meta = {
        "pack": {"name": catalog.name, "version": catalog.version},
        "board": catalog.board.name,
        "players": players,
        "bots": names,
        "seed": seed,
        "rules": dict(sorted(rules.items())),
        "trials": trials,
    }
    rep = tune_report(search, best, stopped, meta)
    if json_file is not None:
        write_text(json_file, json.dumps(rep, indent=1) + "\n", named=True)
    click.echo(format_tune(rep, _table))
    sys.stdout.flush()
    click.echo(f"searched in {time.perf_counter() - start:.1f} s", err=True)
    if json_file is not None:
        click.echo(f"wrote {json_file}", err=True)
