"""`clankwork simulate`: play many bot games of a pack and report on them.

Game ``i`` of a run always has the same seed (`game_seeds`), its bots are seeded from it, and
games are played in fixed chunks whose totals are merged in game order: the report is the same
whether the games ran in one process or in many (``--jobs``).
"""

from __future__ import annotations

import ctypes
import dataclasses
import gc
import json
import os
import random
import shlex
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.bots import make_bot, parse_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game, many_games
from clankwork.interpreter.invariants import check_invariants
from clankwork.interpreter.log import LogError, check_rule_overrides, to_jsonl
from clankwork.interpreter.rules import MAX_PLAYERS
from clankwork.interpreter.scoring import GameResult
from clankwork.interpreter.stats import (
    FAILURES_KEPT,
    RESULTS_KEPT,
    GameStats,
    RunTotals,
    compare,
    report,
    seat_half_width,
)

from .check import FLAGSHIP, load_ir
from .cluster import INSTALL_HINT, WINDOW_PER_WORKER, ClusterError, DaskMissing, run_on_dask
from .outputs import check_file_target, prepare_dir, write_text
from .packs import PACK
from .report_compare import format_comparison
from .report_tension import format_tension
from .report_variants import (
    Change,
    ChangeError,
    apply_changes,
    format_ladder,
    format_variants,
    give,
    rule_overrides,
    seat_one,
    sweep,
    variant_figures,
    without,
)
from .report_words import dragon_word, end_reason

# Games per unit of work: fixed, so a run is split the same way for any number of processes.
CHUNK = 25

# The most games `--until-ci` plays when --games is not given (±1 point needs about 10,000).
UNTIL_CI_GAMES = 1_000_000

# The documented ranges of the command's numbers (a run of 10 million games is hours).
MAX_GAMES = 10_000_000
MAX_SEED = 2**63 - 1
MAX_JOBS = 256

# Worker processes: forked on Linux (they start at once, with nothing to import again);
# spawned elsewhere, where fork is unsafe or missing. The results are the same either way.
_START_METHOD = "fork" if sys.platform == "linux" else "spawn"


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of each game of a run: a run's games never share a seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of run ``seed`` (``game_seeds(seed, index + 1)[index]``,
    without the list)."""
    rng = random.Random(seed)
    for _ in range(index):
        rng.getrandbits(48)
    return rng.getrandbits(48)


def bot_seed(game_seed: int, seat: int) -> int:
    """A seat's bot seed, derived from its game's seed."""
    return (game_seed * 31 + seat + 1) & ((1 << 63) - 1)


def bot_names(bots: Sequence[str] | str, players: int) -> list[str]:
    """One bot name per seat: a single name is used by every seat."""
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players")
    for n in names:
        parse_bot(n)  # a ValueError names a bad one
    return names


def log_name(index: int) -> str:
    """The file name of game ``index``'s log in a ``--log-dir``."""
    return f"game-{index:06d}.jsonl"


class GameFailed(Exception):
    """A game of the run raised or broke an invariant; names the game so it can be replayed:
    its number and seed, the turn it failed on and the error (its type and message)."""

    def __init__(self, index: int, seed: int, turn: int, error: str) -> None:
        super().__init__(index, seed, turn, error)
        self.index, self.seed, self.turn, self.error = index, seed, turn, error

    @property
    def message(self) -> str:
        """What went wrong, on which turn."""
        return f"turn {self.turn}: {self.error}"

    def __str__(self) -> str:
        return f"game {self.index} (seed {self.seed}) failed: {self.message}"


# The exit status of a run in which a game failed (its report is printed and written all the
# same): 1, as for any error; 2 stays the usage errors'.
GAME_FAILED = 1


def replay_command(
    pack: Path | None,
    players: int,
    bots: Sequence[str],
    seed: int,
    board: str | None = None,
    rules: Sequence[str] = (),
    modules: str | None = None,
    check: bool = False,
) -> list[str]:
    """The words of the command that plays this run's games again, without ``--game``:
    `with_game` adds the number of the one to play (and a variant's option)."""
    words = ["clankwork", "simulate"]
    if pack is not None:
        words.append(str(pack))
    names = list(bots)
    shown = names[0] if len(set(names)) == 1 else ",".join(names)
    words += ["-p", str(players), "--bots", shown, "--seed", str(seed)]
    if board is not None:
        words += ["--board", board]
    for item in rules:
        words += ["--rule", item]
    if modules:
        words += ["--modules", modules]
    if check:
        words.append("--check-invariants")
    return words


def change_option(change: Change) -> list[str]:
    """The option that plays a variant run of this change beside the run."""
    if change.kind == "without":
        return ["--without", change.card]
    if change.kind == "give":
        return ["--give", f"{change.card}@{change.seat}"]
    if change.kind == "cost":
        return ["--sweep", f"cost:{change.card}={change.value}"]
    return ["--sweep", f"{change.key}={json.dumps(change.value)}"]


def failure_records(
    sim: Simulation,
    variant_runs: Sequence[tuple[Change, RunTotals]],
    command: Sequence[str],
    log_dir: Path | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """How many games of a run and of its variant runs failed, and the first
    `FAILURES_KEPT` of them (the run's first, in game order), each with the command that
    replays it (``command`` and ``--game N``), its variant and its log file when kept."""
    failed = sim.totals.failed + sum(t.failed for _, t in variant_runs)
    found: list[tuple[Change | None, dict[str, Any]]] = [(None, f) for f in sim.totals.failures]
    found += [(c, f) for c, t in variant_runs for f in t.failures]
    out = []
    for change, f in found[:FAILURES_KEPT]:
        extra = change_option(change) if change is not None else []
        record = {**f, "replay": shlex.join([*command, "--game", str(f["game"]), *extra])}
        if change is not None:
            record["change"] = change.label
        elif log_dir is not None:
            # A variant's games write no logs: only the run's own failures have one.
            record["log"] = str(log_dir / log_name(f["game"]))
        out.append(record)
    return failed, out


class InvariantBroken(Exception):
    """`check_invariants` found a problem after a turn."""


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's games, except which of them to play."""

    ir: dict[str, Any]
    players: int
    bots: tuple[str, ...]
    board: int | str = 0
    rules: dict[str, Any] | None = None
    log_dir: str | None = None
    check: bool = False
    # Card changes of a variant run (rule changes are in ``rules``), applied by each worker.
    changes: tuple[Change, ...] = ()
    # A modular board's assembly for every game (`--modules`); None: each game draws one.
    modules: str | None = None

    def runner(self, catalog: Catalog | None = None) -> Runner:
        """What plays this spec's chunks in a process (or on a Dask worker)."""
        return Runner(self, catalog)


class Runner:
    """Plays games of one spec in this process (the catalog is prepared once)."""

    def __init__(self, spec: RunSpec, catalog: Catalog | None = None) -> None:
        self.spec = spec
        base = catalog if catalog is not None else prepare(spec.ir, spec.board)
        self.catalog = apply_changes(base, spec.changes) if spec.changes else base

    def play(self, index: int, seed: int, record: bool = True) -> tuple[Game, GameStats]:
        """Play game ``index`` (its log written to the log folder, if any). Only a game
        written to a log folder keeps a log: no report reads it (building it cost about a
        sixth of the games' time). A ``record`` game's result has its final-state digest;
        without ``record`` it has none (a game past those whose records the report keeps)."""
        spec = self.spec
        bots = [make_bot(name, bot_seed(seed, k)) for k, name in enumerate(spec.bots)]
        stats = GameStats.for_game(self.catalog, spec.players)
        game = Game(
            self.catalog,
            bots,
            seed,
            rules=spec.rules,
            stats=stats,
            modules=spec.modules,
            keep_log=spec.log_dir is not None,
            digest=record or spec.log_dir is not None,
        )
        try:
            game.play(after_turn=_check_turn if spec.check else None)
        except Exception as e:
            raise GameFailed(index, seed, game.turn, f"{type(e).__name__}: {e}") from e
        finally:
            # A failed game's log is written too (without a result): it shows how it got there.
            if spec.log_dir is not None:
                write_text(Path(spec.log_dir) / log_name(index), to_jsonl(game.log))
        return game, stats

    def run_chunk(self, start: int, seeds: Sequence[int], keep: int = RESULTS_KEPT) -> RunTotals:
        """Play games ``start``, ``start + 1``... with these seeds and add them up (the
        records of games numbered below ``keep`` kept). A game that fails is counted as
        failed, with its error, and the others are played on: one failure never costs the
        run its report."""
        totals = RunTotals(keep=keep)
        with many_games():
            for k, seed in enumerate(seeds):
                try:
                    game, stats = self.play(start + k, seed, record=start + k < keep)
                except GameFailed as e:
                    totals.add_failure(e.index, e.seed, e.turn, e.error)
                    continue
                totals.add(start + k, game, stats)
        return totals


def _check_turn(game: Game) -> None:
    problems = check_invariants(game)
    if problems:
        raise InvariantBroken("; ".join(problems))


# A worker process's runner, made once by the pool's initializer (one per process).
_WORKER: Runner | None = None


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(parent: int) -> str:
    """Make this (worker) process end when process ``parent`` does, even by ``kill -9``.

    On Linux the kernel sends SIGKILL when the parent goes (``prctl(PR_SET_PDEATHSIG)``);
    the parent may have died just before that call, so its pid is checked right after. Where
    prctl is missing a daemon thread watches ``os.getppid()``. Returns which way was used.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            ok = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            ok = False
        if ok:
            if os.getppid() != parent:  # orphaned before the call: no signal will come
                os._exit(1)
            return "prctl"
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    return "watchdog"


def _watch_parent(parent: int) -> None:
    # A process whose parent died is adopted by another: its parent pid changes.
    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(1)


def _init_worker(spec: RunSpec, parent: int | None = None) -> None:
    global _WORKER
    if parent is not None:
        die_with_parent(parent)
    _WORKER = spec.runner()
    # The worker's heap as it starts (its runner's pack, the modules) is frozen for the life
    # of the process: each chunk's `many_games` is then nested and does not collect and walk
    # all of it again (see `play_chunks`).
    gc.collect()
    gc.freeze()


def _run_chunk(job: tuple[int, list[int], int]) -> RunTotals:
    assert _WORKER is not None
    return _WORKER.run_chunk(*job)


def chunk_plan(seed: int, games: int) -> Iterator[tuple[int, int, list[int]]]:
    """The run's chunks, ``(chunk index, first game, seeds)``, drawn as they are needed: the
    same seeds as `game_seeds`, without a list of a million seeds up front."""
    rng = random.Random(seed)
    for index, start in enumerate(range(0, games, CHUNK)):
        yield index, start, [rng.getrandbits(48) for _ in range(min(CHUNK, games - start))]


class ChunkMerger:
    """Folds chunk totals into the run's totals in chunk order, whatever order they arrive in.

    A chunk that arrives early waits in a buffer until the chunks before it are in; a chunk
    index seen before (a task rerun after its worker was lost, whose first result came back
    after all) is refused, so no game is counted twice. ``stop(totals)``, checked after each
    chunk, ends the run at a point that depends on the games alone.
    """

    def __init__(
        self,
        totals: RunTotals,
        progress: Callable[[int], None] | None = None,
        stop: Callable[[RunTotals], bool] | None = None,
    ) -> None:
        self.totals = totals
        self.progress = progress
        self.stop = stop
        self.next = 0  # the chunk index merged next
        self.merged = 0  # chunks merged
        self.done = False
        self._waiting: dict[int, RunTotals | BaseException] = {}

    def offer(self, index: int, part: RunTotals | BaseException) -> bool:
        """Take chunk ``index``'s totals; False when it was seen before (or the run ended).

        ``part`` may be the error the chunk raised: it is raised when the chunk's turn comes,
        so a failing run names the same first failing game for any number of workers.
        """
        if self.done or index < self.next or index in self._waiting:
            return False
        self._waiting[index] = part
        while not self.done and self.next in self._waiting:
            ready = self._waiting.pop(self.next)
            if isinstance(ready, BaseException):
                self.done = True
                self._waiting.clear()
                raise ready
            self.totals.merge(ready)
            self.next += 1
            self.merged += 1
            if self.progress is not None:
                self.progress(ready.games)
            if self.stop is not None and self.stop(self.totals):
                self.done = True
                self._waiting.clear()
        return True


@dataclass
class Simulation:
    """A finished run: its totals, the catalog played, how it was asked for and what ended it."""

    totals: RunTotals
    catalog: Catalog
    seed: int
    bots: list[str]
    rules: dict[str, Any]
    stop: dict[str, Any] | None = None
    # The assembly every game played on (`--modules`); None: each game drew its own.
    modules: str | None = None
    # The one game of the run played (`--game`), or None: games 0, 1, 2...
    only: int | None = None

    @property
    def played(self) -> int:
        """Games played, the failed ones included (those the report counts, and the rest)."""
        return self.totals.games + self.totals.failed

    def report(self) -> dict[str, Any]:
        """The report (schemas/report.schema.json)."""
        return report(
            self.totals,
            self.catalog,
            seed=self.seed,
            bots=self.bots,
            rules=self.rules,
            stop=self.stop,
            modules=self.modules,
        )


def simulate(
    ir: dict[str, Any],
    games: int,
    players: int,
    seed: int,
    bots: Sequence[str] | str | None = None,
    *,
    board: int | str = 0,
    rules: dict[str, Any] | None = None,
    jobs: int = 1,
    log_dir: Path | None = None,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
    catalog: Catalog | None = None,
    until_ci: float | None = None,
    dask: str | None = None,
    keep: int = RESULTS_KEPT,
    changes: Sequence[Change] = (),
    modules: str | None = None,
    only: int | None = None,
) -> Simulation:
    """Play a run of ``games`` games; the same arguments give the same totals for any ``jobs``
    and on any Dask cluster (``dask``: ``"local"`` or a scheduler's ``tcp://HOST:PORT``).

    ``progress(n)`` is called as each chunk of ``n`` games is merged; ``check`` runs
    `check_invariants` after every turn. With ``until_ci``, chunks are played until every
    seat's win-rate interval is at most that wide on each side (``games`` is then a ceiling).
    Chunks are folded in as they arrive, so memory does not grow with ``games``. A game that
    fails is counted in the totals' ``failed`` and listed in their ``failures`` (with its
    seed, turn and error), and the run goes on. ``changes`` make a variant run
    (`report_variants`); ``catalog`` is then the pack's own, the changes are made to a copy.
    With ``only``, the run is game ``only`` alone (``games`` is ignored): the game a longer
    run with this seed plays under that number, which is how one game of a run is replayed.
    """
    names = bot_names(bots if bots is not None else "heuristic", players)
    changes = tuple(changes)
    rules = {**(rules or {}), **rule_overrides(changes)}
    cards = tuple(c for c in changes if c.kind != "rule")
    spec = RunSpec(ir, players, tuple(names), board, rules or None, None, check, cards)
    if log_dir is not None:
        prepare_dir(log_dir, "log folder")
        spec = RunSpec(ir, players, tuple(names), board, spec.rules, str(log_dir), check, cards)
    if modules:
        spec = dataclasses.replace(spec, modules=modules)
    stop = None
    if until_ci is not None:
        limit = until_ci

        def stop(totals: RunTotals) -> bool:
            return seat_half_width(totals, players) <= limit

    if only is not None:
        games = 1
        keep = max(keep, only + 1)  # the one game's record is listed, whatever its number
        plan = iter([(0, only, [game_seed(seed, only)])])
    else:
        plan = chunk_plan(seed, games)
    merger = ChunkMerger(RunTotals(keep=keep), progress, stop)
    runner = play_chunks(
        spec, plan, merger, games=games, jobs=jobs, dask=dask, keep=keep, catalog=catalog
    )
    played = runner.catalog if runner is not None else None
    if played is None:
        played = catalog if catalog is not None else prepare(ir, board)
        if cards:
            played = apply_changes(played, cards)
    ended = None
    if until_ci is not None:
        ended = {
            "by": "until_ci" if merger.done else "games",
            "until_ci": until_ci,
            "games_ceiling": games,
        }
    return Simulation(merger.totals, played, seed, names, rules, ended, modules or None, only)


def play_chunks(
    spec: Any,
    plan: Iterator[tuple[int, int, list[int]]],
    merger: ChunkMerger,
    *,
    games: int,
    jobs: int = 1,
    dask: str | None = None,
    keep: int = RESULTS_KEPT,
    catalog: Catalog | None = None,
) -> Any:
    """Play ``plan``'s chunks of ``spec`` (anything with a ``runner(catalog)`` whose
    ``run_chunk(start, seeds, keep)`` returns totals that merge) into ``merger``: here, in
    ``jobs`` processes, or on a Dask cluster. Returns the runner when the chunks were played
    in this process (None otherwise)."""
    if dask is not None:
        run_on_dask(dask, spec, plan, merger, workers=jobs, keep=keep)
        return None
    if jobs <= 1 or games <= CHUNK:
        runner = spec.runner(catalog)
        # One `many_games` around the run, so each chunk's own is nested in it: the heap is
        # collected and frozen once, not walked in full again every CHUNK games (a full
        # collection of a process that has compiled a pack took about as long as playing a
        # quarter of a chunk's games).
        with many_games():
            for index, start, seeds in plan:
                merger.offer(index, runner.run_chunk(start, seeds, keep))
                if merger.done:
                    break
        return runner
    workers = min(jobs, -(-games // CHUNK))
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context(_START_METHOD),
        initializer=_init_worker,
        initargs=(spec, os.getpid()),
    ) as pool:

        def submit(start: int, seeds: list[int]) -> Future[RunTotals]:
            return pool.submit(_run_chunk, (start, seeds, keep))

        stream_chunks(submit, plan, merger, workers * WINDOW_PER_WORKER)
    return None


def play_variants(
    base: Simulation,
    ir: dict[str, Any],
    variants: Sequence[Change],
    *,
    board: int | str = 0,
    jobs: int = 1,
    dask: str | None = None,
    check: bool = False,
    catalog: Catalog | None = None,
    progress: Callable[[int], None] | None = None,
    modules: str | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[Change, RunTotals]]]:
    """Play each change on the base run's seeds (as many games as it played, with its rules
    and its assembly of a modular board, ``modules``) and compare it with the base run
    (`stats.compare`), in the order given; and each change with its run's totals (whose
    ``failed`` and ``failures`` tell the games of the variant runs that failed)."""
    out = []
    runs: list[tuple[Change, RunTotals]] = []
    players = len(base.bots)
    for change in variants:
        sim = simulate(
            ir,
            base.played,
            players,
            base.seed,
            base.bots,
            board=board,
            rules=base.rules,
            jobs=jobs,
            check=check,
            progress=progress,
            catalog=catalog,
            dask=dask,
            changes=(change,),
            modules=modules,
            only=base.only,
        )
        runs.append((change, sim.totals))
        out.append(
            {
                "change": change.record(),
                **compare(base.totals, sim.totals, players),
                **variant_figures(change, sim.totals, players),
            }
        )
    return out, runs


def play_ladder(
    base: Simulation,
    ir: dict[str, Any],
    ladder: Sequence[str],
    *,
    board: int | str = 0,
    jobs: int = 1,
    dask: str | None = None,
    catalog: Catalog | None = None,
    progress: Callable[[int], None] | None = None,
    modules: str | None = None,
) -> list[dict[str, Any]]:
    """Seat 1's share of the games with a winner when every seat plays each bot of
    ``ladder`` in turn (the run's seeds, games and rules): whether a first-player advantage
    is the game's or the bots' (it may grow as the bots get better)."""
    out = []
    players = len(base.bots)
    for name in ladder:
        sim = simulate(
            ir, base.played, players, base.seed, [name] * players, board=board,
            rules=base.rules, jobs=jobs, progress=progress, catalog=catalog, dask=dask,
            modules=modules,
        )  # fmt: skip
        out.append({"bot": name, "played": sim.totals.games, **seat_one(sim.totals, players)})
    return out


def stream_chunks(
    submit: Callable[[int, list[int]], Future[RunTotals]],
    plan: Iterator[tuple[int, int, list[int]]],
    merger: ChunkMerger,
    window: int,
) -> None:
    """Keep ``window`` chunks in flight in a pool and fold each into ``merger`` as it ends.

    Chunks are drawn from ``plan`` only as others finish, so a million-game run never holds
    more than a window of results; when the merger is done the rest are cancelled.
    """
    pending: dict[Future[RunTotals], int] = {}

    def fill() -> None:
        while not merger.done and len(pending) < window:
            item = next(plan, None)
            if item is None:
                return
            index, start, seeds = item
            pending[submit(start, seeds)] = index

    try:
        fill()
        while pending and not merger.done:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                # A chunk's error waits for its turn too: the first failing game is named.
                merger.offer(pending.pop(f), f.exception() or f.result())
            fill()
    finally:
        for f in pending:
            f.cancel()


def run_games(
    ir: dict[str, Any] | Catalog,
    games: int,
    players: int,
    seed: int,
    bots: Sequence[str] | str | None = None,
    *,
    board: int | str = 0,
    rules: dict[str, Any] | None = None,
) -> list[GameResult]:
    """Play ``games`` games with ``players`` bots; the same arguments give the same results."""
    catalog = ir if isinstance(ir, Catalog) else prepare(ir, board)
    names = bot_names(bots if bots is not None else "heuristic", players)
    spec = RunSpec({}, players, tuple(names), board, rules)
    runner = Runner(spec, catalog)
    return [runner.play(i, s)[0].result for i, s in enumerate(game_seeds(seed, games))]


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Totals of results alone: wins by seat (in turn order), scores, lengths, escapes."""
    players = max((r.players for r in results), default=0)
    wins = [0] * players
    for r in results:
        for w in r.winners:
            wins[r.seat_of(w)] += 1
    rounds = [r.rounds for r in results]
    scores = [s for r in results for s in r.scores]
    return {
        "games": len(results),
        "players": players,
        "wins_by_seat": wins,
        "no_winner": sum(1 for r in results if not r.winners),
        "mean_score": round(statistics.fmean(scores), 3) if scores else 0.0,
        "mean_rounds": round(statistics.fmean(rounds), 3) if rounds else 0.0,
        "max_rounds": max(rounds, default=0),
        "escapes": sum(r.escapes for r in results),
        "knockouts": sum(r.knockouts for r in results),
        "zero_scores": sum(sum(r.zeroed) for r in results),
        "capped": sum(1 for r in results if r.capped),
        "end_reasons": dict(sorted(Counter(r.end_reason for r in results).items())),
    }


# -- the report as text -----------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _pct_ci(x: float, ci: dict[str, float] | None) -> str:
    """A rate with its interval: ``44.0% [37.3–50.9]``."""
    if ci is None:
        return _pct(x)
    return f"{x:.1%} [{ci['low'] * 100:.1f}–{ci['high'] * 100:.1f}]"


def _mean_ci(x: float, ci: dict[str, float] | None) -> str:
    """A mean with its interval: ``12.3 [11.9–12.7]``."""
    if ci is None:
        return f"{x}"
    return f"{x:.1f} [{ci['low']:.1f}–{ci['high']:.1f}]"


def _mean_pm(x: float, ci: dict[str, float], digits: int = 1) -> str:
    """A mean with the half-width of its interval: ``4.2 ±0.3``."""
    half = (ci["high"] - ci["low"]) / 2
    return f"{x:.{digits}f} ±{half:.{digits}f}"


def _components(rep: dict[str, Any]) -> list[str]:
    """The monsters, events, tokens, actions and cube tokens tables: how often each was
    defeated, revealed, taken, drawn; and how players answered what spaces asked."""
    lines: list[str] = []
    if rep["monsters"]:
        rows = [("monster", "fight", "defeated", "a game")]
        rows += [
            (
                m["name"],
                str(m["fight"]),
                str(m["defeated"]),
                _mean_pm(m["per_game"], m["per_game_ci"], 2),
            )
            for m in rep["monsters"]
        ]
        lines += ["", *_table(rows)]
    if rep["events"]:
        rows = [("event", "revealed", "a game")]
        rows += [
            (e["name"], str(e["revealed"]), _mean_pm(e["per_game"], e["per_game_ci"], 2))
            for e in rep["events"]
        ]
        lines += ["", *_table(rows)]
    if rep["tokens"]:
        rows = [("token", "kind", "points", "taken", "a game", "players", "win rate")]
        rows += [
            (
                t["name"],
                t["kind"],
                _points(t),
                str(t["taken"]),
                _mean_pm(t["per_game"], t["per_game_ci"], 2),
                str(t["players"]),
                _pct_ci(t["win_rate"], t["win_rate_ci"]),
            )
            for t in rep["tokens"]
        ]
        lines += ["", *_table(rows, right={2, 3, 4, 5, 6})]
        # Token designs that share a type (three crowns, six guards...) add up.
        types: dict[str, list[dict[str, Any]]] = {}
        for t in rep["tokens"]:
            types.setdefault(t["type"], []).append(t)
        shared = [(k, v) for k, v in types.items() if len(v) > 1]
        if shared and rep["games"]:
            summed = ", ".join(
                f"{k} {sum(t['taken'] for t in v) / rep['games']:.2f}" for k, v in shared
            )
            lines.append(f"taken a game, by type: {summed}")
    if rep.get("space_choices"):
        rows = [("space", "answered (entry tolls, what a space offers)", "times", "a game")]
        rows += [
            (c["space"], c["choice"], str(c["times"]), _mean_pm(c["per_game"], c["per_game_ci"], 2))
            for c in rep["space_choices"]
        ]
        lines += ["", *_table(rows, right={2, 3})]
    if rep.get("actions"):
        rows = [("action", "taken", "a game")]
        rows += [
            (a["name"], str(a["taken"]), _mean_pm(a["per_game"], a["per_game_ci"], 2))
            for a in rep["actions"]
        ]
        lines += ["", *_table(rows)]
    if len(rep.get("moves", ())) > 1:
        rows = [("moves by way", "moves", "a game")]
        rows += [
            (m["way"], str(m["moves"]), _mean_pm(m["per_game"], m["per_game_ci"], 2))
            for m in rep["moves"]
        ]
        lines += ["", *_table(rows)]
    if rep.get("cubes"):
        rows = [("cube token", "drawn", "a game")]
        rows += [
            (c["name"], str(c["drawn"]), _mean_pm(c["per_game"], c["per_game_ci"], 2))
            for c in rep["cubes"]
        ]
        lines += ["", *_table(rows)]
    return lines


def _points(row: dict[str, Any]) -> str:
    """A token's points as it scores them: "3", or "5 per companion" (plus what is printed)."""
    per = row.get("points_per")
    if not per:
        return str(row["points"])
    return f"{row['points']} + {per}" if row["points"] else per


def _offers(rep: dict[str, Any], all_cards: bool = False) -> list[str]:
    """The offered-and-chosen table: for each market item, token, action, way and space
    (and, with ``all_cards``, each card and monster), how often a game players could take it
    and did, and the share of the players offered it who took it."""
    shown = [o for o in rep.get("offers", ()) if all_cards or o["kind"] not in ("card", "monster")]
    if not shown:
        return []
    rows = [
        ("offered and chosen", "kind", "offered a game", "chosen a game", "players who took it")
    ]
    rows += [
        (
            o["name"],
            o["kind"],
            _mean_pm(o["offered_per_game"], o["offered_per_game_ci"], 2),
            _mean_pm(o["chosen_per_game"], o["chosen_per_game_ci"], 2),
            _pct_ci(o["use_rate"], o["use_rate_ci"]) if o["offered_players"] else "never offered",
        )
        for o in shown
    ]
    return ["", *_table(rows)]


def offer_warnings(rep: dict[str, Any]) -> list[str]:
    """The two warnings of the offers table, told apart: things players were offered and never
    chose (the bots judge them not worth it, or do not understand them), and things never
    offered (never within reach: the space never reached, the card never affordable in the
    row). Cards are left to the "never acquired" warning, which says which is which."""
    games = rep["games"]
    if games < 20:
        return []
    out = []
    rows = [o for o in rep.get("offers", ()) if o["kind"] not in ("card", "monster")]
    refused = [o for o in rows if o["offered"] and not o["chosen"]]
    if refused:
        named = ", ".join(
            f"{o['kind']} {o['name']} ({o['offered_per_game']:.2f} times a game)" for o in refused
        )
        out.append(f"offered but never chosen in {games} games: {named}")
    unseen = [f"{o['kind']} {o['name']}" for o in rows if not o["offered"]]
    if unseen:
        out.append(f"never offered in {games} games (never within reach): {_some(unseen)}")
    return out


def _edge(d: float, ci: dict[str, float]) -> str:
    """A difference of rates in points with its interval: ``+4.1 [+1.0, +7.2]``."""
    return f"{d * 100:+.1f} [{ci['low'] * 100:+.1f}, {ci['high'] * 100:+.1f}]"


def _table(rows: list[tuple[str, ...]], right: set[int] | None = None) -> list[str]:
    right = right if right is not None else set(range(1, len(rows[0])))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(widths[k]) if k in right else c.ljust(widths[k]) for k, c in enumerate(r)]
        out.append("  ".join(cells).rstrip())
    return out


def format_report(rep: dict[str, Any], top: int = 10, all_cards: bool = False) -> str:
    """The report as tables for the terminal (``top`` cards and spaces in the short lists;
    every card with ``all_cards``)."""
    games = rep["games"]
    pg = games * rep["players"] or 1
    head = f"{games} games, {rep['players']} players ({', '.join(rep['bots'])})"
    board = rep["board"] + (f" ({rep['modules']})" if rep.get("modules") else "")
    lines = [f"{rep['pack']['name']} {rep['pack']['version']} on {board}: {head}"]
    if rep["rules"]:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in rep["rules"].items()))
    stop = rep.get("stop", {})
    if stop.get("until_ci") is not None:
        why = (
            f"every seat's win rate known to ±{stop['until_ci']:.1%}"
            if stop["by"] == "until_ci"
            else f"--games {stop['games_ceiling']} reached first"
        )
        lines.append(f"stopped: {why} (widest seat interval ±{stop['seat_half_width']:.2%})")
    if rep.get("failed"):
        n = rep["failed"]
        lines.append(
            f"FAILED: {n} game{'s' if n != 1 else ''} failed and {'are' if n != 1 else 'is'} "
            "not counted here (listed at the end)"
        )
    lines.append("")

    w = rep["wins"]
    rows = [("seat", "wins", "win rate", "mean score")]
    rows += [
        (
            str(s["seat"]),
            str(s["wins"]),
            _pct_ci(s["win_rate"], s.get("win_rate_ci")),
            _mean_ci(s["mean_score"], s.get("mean_score_ci")),
        )
        for s in w["by_seat"]
    ]
    lines += _table(rows)
    if "first_player" in w:
        lines.append(w["first_player"]["verdict"])
    if len(set(rep["bots"])) > 1:
        lines.append("")
        rows = [("player", "bot", "wins", "win rate")]
        rows += [
            (
                str(p["player"]),
                p["bot"],
                str(p["wins"]),
                _pct_ci(p["win_rate"], p.get("win_rate_ci")),
            )
            for p in w["by_player"]
        ]
        lines += _table(rows, right={0, 2, 3})
    lines.append("")

    def dist(d: dict[str, Any]) -> str:
        return (
            f"mean {_mean_ci(d['mean'], d.get('mean_ci'))}, min {d['min']}, q1 {d['q1']}, "
            f"median {d['median']}, "
            f"q3 {d['q3']}, max {d['max']}"
        )

    def counted(x: dict[str, Any]) -> str:
        return f"{x['total']} ({_pct_ci(x['total'] / pg, x.get('rate_ci'))})"

    r = rep["rounds"]
    dragon = rep["dragon"]
    word = dragon_word(rep)
    capped = rep["capped"]
    facts = [
        ("scores", dist(rep["scores"]["all"])),
        ("winning scores", dist(rep["scores"]["winning"])),
        ("no winner / shared wins", f"{w['no_winner']} / {w['shared']}"),
        (
            "rounds",
            f"mean {_mean_ci(r['mean'], r.get('mean_ci'))}, median {r['median']}, p95 {r['p95']}, "
            f"min {r['min']}, max {r['max']}",
        ),
        ("escapes", counted(rep["escapes"])),
        ("knock-outs", counted(rep["knockouts"])),
        ("deaths (scored 0)", counted(rep["deaths"])),
        ("everyone knocked out", str(rep["everyone_knocked_out"])),
        (
            f"{word} attacks",
            f"{dragon['attacks']['total']} "
            f"({_mean_ci(dragon['attacks']['per_game'], dragon['attacks'].get('per_game_ci'))}"
            " a game), "
            f"off the clock {dragon['off_clock_attacks']['total']}",
        ),
        (
            f"{word} damage",
            f"{dragon['damage']['total']} "
            f"({_mean_ci(dragon['damage']['per_game'], dragon['damage'].get('per_game_ci'))}"
            " a game)",
        ),
        (
            "capped games",
            f"{capped['count']} ({_pct_ci(capped.get('rate', 0), capped.get('rate_ci'))}, "
            f"round cap {capped['round_cap']})",
        ),
    ]
    facts += [(f"ended by: {end_reason(rep, k)}", str(v)) for k, v in rep["end_reasons"].items()]
    lines += _table(facts, right=set())
    if capped["games"]:
        shown = ", ".join(f"{g['game']} (seed {g['seed']})" for g in capped["games"][:10])
        more = f" and {capped['count'] - 10} more" if capped["count"] > 10 else ""
        lines.append(f"capped: games {shown}{more}")

    if rep["artifacts"]:
        lines.append("")
        rows = [("artifact", "points", "taken", "escaped", "wins", "win rate")]
        rows += [
            (
                a["name"],
                str(a["points"]),
                str(a["taken"]),
                str(a["escaped"]),
                str(a["wins"]),
                _pct_ci(a["win_rate"], a.get("win_rate_ci")),
            )
            for a in rep["artifacts"]
        ]
        lines += _table(rows)

    if rep["cards"]:
        # A card few players took (or passed) measures noise: rank those with 1 % or more
        # of the player-games on both sides, by edge; list the others by name.
        enough = max(1, pg // 100)
        ranked = sorted(
            (c for c in rep["cards"] if c["players"] >= enough and c["passed"] >= enough),
            key=lambda c: (-c["edge"], -c["players"], c["name"]),
        )
        rare = [c["name"] for c in rep["cards"] if c not in ranked]
        lines.append("")
        lines.append(
            "cards by edge: the win rate of the players who acquired one minus that of the "
            "players who could have"
        )
        lines.append(
            "(it was in the row or reserve on a turn with the skill for it) and did not; "
            f"any player wins {_pct(w['baseline_win_rate'])}; {enough}+ players on each side"
        )
        cut = not all_cards and len(ranked) > 2 * top
        shown = ranked[:top] + ranked[-top:] if cut else ranked
        rows = [
            (
                "card",
                "cost",
                "acquired",
                "players",
                "win rate",
                "passed",
                "win rate",
                "edge",
                "first round",
            )
        ]
        rows += [
            (
                c["name"],
                str(c["cost"]),
                str(c["acquired"]),
                str(c["players"]),
                _pct_ci(c["win_rate"], c.get("win_rate_ci")),
                str(c["passed"]),
                _pct_ci(c["passed_win_rate"], c.get("passed_win_rate_ci")),
                _edge(c["edge"], c["edge_ci"]),
                _mean_pm(c["first_round"], c["first_round_ci"]),
            )
            for c in shown
        ]
        table = _table(rows)
        if cut:
            table.insert(top + 1, f"... ({len(ranked) - 2 * top} more; --all shows every card)")
        lines += table
        if rare:
            lines.append(f"too few players acquired or passed: {', '.join(rare)}")

    lines += format_tension(rep, _table)
    lines += _components(rep)
    lines += _offers(rep, all_cards)

    spaces = rep["heatmap"]["spaces"]
    if spaces:
        lines.append("")
        ranked_spaces = sorted(spaces.items(), key=lambda kv: (-kv[1], kv[0]))
        busiest = ", ".join(f"{k} {v}" for k, v in ranked_spaces[:top])
        never = [k for k, v in spaces.items() if v == 0]
        lines.append(f"busiest spaces: {busiest}")
        lines.append(f"never entered: {', '.join(never) if never else 'none'}")
    lines += format_variants(rep.get("variants", []), _table)
    lines += format_ladder(rep.get("first_player_by_bot", []), _table)
    lines += format_comparison(rep, _table, all_cards)
    lines += format_failures(rep)
    return "\n".join(lines)


def format_failures(rep: dict[str, Any]) -> list[str]:
    """The failed games of a report, each with its seed, turn, error, the command that
    replays it and its log (none when every game finished)."""
    if not rep.get("failed"):
        return []
    failures = rep["failures"]
    more = rep["failed"] - len(failures)
    lines = ["", f"failed games: {rep['failed']} (not counted above)"]
    for f in failures:
        variant = f" of the variant {f['change']}" if "change" in f else ""
        lines.append(
            f"  game {f['game']}{variant} (seed {f['seed']}), turn {f['turn']}: {f['error']}"
        )
        if "replay" in f:
            lines.append(f"    replay: {f['replay']}")
        if "log" in f:
            lines.append(f"    log: {f['log']}")
    if more > 0:
        lines.append(f"  and {more} more")
    return lines


def setup_warnings(catalog: Catalog, players: int) -> list[str]:
    """Setups that cannot work as the rules mean them, known before a game is played."""
    out = []
    artifacts = len(catalog.board.artifact_spaces)
    if artifacts < players:
        out.append(
            f"the board has {artifacts} artifact space{'s' if artifacts != 1 else ''} for "
            f"{players} players: some players can never take an artifact, so never escape "
            "with one"
        )
    return out


def result_warnings(
    rep: dict[str, Any], joined: frozenset[frozenset[str]] = frozenset()
) -> list[str]:
    """What the games showed that a designer should look at: cards nobody ever bought,
    artifacts nobody ever took, an adventure deck that recycles, reserve piles that run out,
    spaces and paths nobody used. The ones that count absences wait for 20 games: fewer
    prove nothing. ``joined``: pairs of spaces only a `within` way joins (a section's
    any-to-any moves are no paths)."""
    games = rep["games"]
    out = []
    never = [c["name"] for c in rep["cards"] if c["acquired"] == 0]
    if never and games >= 20:
        offered = {o["name"] for o in rep.get("offers", ()) if o["kind"] == "card" and o["offered"]}
        refused = [n for n in never if n in offered]
        unseen = [n for n in never if n not in offered]
        if "offers" not in rep:  # a report of an older Clankwork
            out.append(f"never acquired in {games} games: {', '.join(never)}")
        if refused:
            out.append(
                f"never acquired in {games} games: {', '.join(refused)} (affordable in the row "
                "or the reserve on some turn, never chosen)"
            )
        if unseen:
            out.append(
                f"never acquired in {games} games: {', '.join(unseen)} (never offered: never "
                "affordable in the row or the reserve)"
            )
    out += offer_warnings(rep)
    untaken = [a["name"] for a in rep["artifacts"] if a["taken"] == 0]
    if untaken and games >= 20:
        out.append(f"artifacts never taken in {games} games: {', '.join(untaken)}")
    deck = rep["adventure_deck"]
    recycled = deck["recycled"]
    if games and recycled["per_game"] >= 1:
        ci = recycled["per_game_ci"]
        out.append(
            f"the adventure deck ({deck['cards']} cards, a row of {deck['row']}) was reshuffled "
            f"{recycled['per_game']:.1f} times a game [{ci['low']:.1f}–{ci['high']:.1f}]: the "
            "same cards come round again; more cards, or fewer leaving the row"
        )
    empty = [c for c in rep["cards"] if c["deck"] == "reserve" and 2 * c["exhausted"] > games]
    if empty:
        named = ", ".join(f"{c['name']} ({c['exhausted'] / games:.0%})" for c in empty)
        out.append(f"reserve piles ran out in most games: {named}")
    if games >= 20:
        spaces = rep["heatmap"]["spaces"]
        unvisited = [name for name, n in spaces.items() if n == 0]
        if unvisited:
            out.append(f"never entered in {games} games: {_some(unvisited)}")
        unwalked = _unwalked_paths(rep["heatmap"]["paths"], set(spaces), joined)
        if unwalked:
            out.append(f"paths never walked in {games} games: {_some(unwalked)}")
    return out


def within_pairs(board: Any) -> frozenset[frozenset[str]]:
    """The pairs of spaces that only a `within` way joins (no path of their own)."""
    pairs: set[frozenset[str]] = set()
    drawn: set[frozenset[str]] = set()
    names = [sp.name for sp in board.spaces]
    for s, moves in enumerate(board.moves):
        for m in moves:
            pair = frozenset((names[s], names[m.to]))
            (pairs if m.way.within else drawn).add(pair)
    return frozenset(pairs - drawn)


# Names one warning lists; the rest are counted (the JSON report's heatmap has every one).
WARNING_NAMES = 20


def _some(names: list[str]) -> str:
    shown = ", ".join(names[:WARNING_NAMES])
    more = len(names) - WARNING_NAMES
    return f"{shown} and {more} more (--json has them all)" if more > 0 else shown


def _unwalked_paths(
    paths: dict[str, int], spaces: set[str], joined: frozenset[frozenset[str]] = frozenset()
) -> list[str]:
    """Paths walked in neither direction, as ``A–B``, in the heatmap's order (pairs only a
    `within` way joins, ``joined``, left out)."""
    walked: dict[frozenset[str], int] = {}
    order: list[tuple[str, str]] = []
    for key, n in paths.items():
        ends = _path_ends(key, spaces)
        pair = frozenset(ends)
        if pair not in walked:
            order.append(ends)
            walked[pair] = 0
        walked[pair] += n
    return [
        f"{a}–{b}"
        for a, b in order
        if not walked[frozenset((a, b))] and frozenset((a, b)) not in joined
    ]


def _path_ends(key: str, spaces: set[str]) -> tuple[str, str]:
    # A space's name may hold "->" itself: the split is the one that names two spaces.
    at = key.find("->")
    while at >= 0:
        a, b = key[:at], key[at + 2 :]
        if a in spaces and b in spaces:
            return a, b
        at = key.find("->", at + 1)
    a, _, b = key.partition("->")
    return a, b


# -- the command ----------------------------------------------------------------------------


def _check_dask(address: str, log_dir: Path | None) -> None:
    """Refuse a --dask address that cannot work, before any game is played."""
    if address != "local" and not address.startswith(("tcp://", "tls://")):
        raise click.BadParameter(
            f"{address!r}: expected 'local' or a scheduler address tcp://HOST:PORT",
            param_hint="--dask",
        )
    if address != "local" and log_dir is not None:
        raise click.BadParameter(
            "--log-dir writes on the machine that plays the game: use it with --jobs or "
            "--dask local, not a remote scheduler",
            param_hint="--dask",
        )
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise click.ClickException(INSTALL_HINT) from None


def _variants(
    catalog: Catalog,
    players: int,
    rules: dict[str, Any],
    without_cards: Sequence[str],
    give_cards: Sequence[str],
    sweeps: Sequence[str],
) -> list[Change]:
    """The variant runs the options ask for, checked before any game is played."""
    out: list[Change] = []
    for option, items, make in (
        ("--without", without_cards, lambda t: [without(catalog, t)]),
        ("--give", give_cards, lambda t: [give(catalog, t, players)]),
        ("--sweep", sweeps, lambda t: sweep(catalog, t)),
    ):
        for item in items:
            try:
                changes = make(item)
                for c in changes:
                    if c.kind == "rule":
                        check_rule_overrides({**rules, c.key: c.value})
            except ChangeError as e:
                raise click.BadParameter(str(e), param_hint=option) from None
            except LogError as e:
                raise click.BadParameter(f"{item!r}: {e.message}", param_hint=option) from None
            out += changes
    return out


def load_pack(pack: Path | None, name: str = FLAGSHIP) -> dict[str, Any]:
    """The IR of a pack (see `check.load_ir`); without a path, the bundled pack ``name``."""
    return load_ir(pack, name)


def parse_rules(items: Sequence[str]) -> dict[str, Any]:
    """``--rule KEY=VALUE`` options as overrides (VALUE is JSON: ``6``, ``[2,3]``...)."""
    rules: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        key = key.strip().replace(" ", "_").replace("-", "_")
        if not eq:
            raise click.BadParameter(f"{item!r}: expected KEY=VALUE", param_hint="--rule")
        try:
            # ValueError too: a number past Python's digit limit; RecursionError: [[[[...
            value = json.loads(text)
        except (ValueError, RecursionError):
            raise click.BadParameter(
                f'{item!r}: the value must be JSON (6, [2, 2, 3], {{"2": 6, "*": 4}})',
                param_hint="--rule",
            ) from None
        rules[key] = value
    try:
        # Names, shapes and documented ranges (round_cap at most ROUND_CAP_MAX...).
        check_rule_overrides(rules)
    except LogError as e:
        raise click.BadParameter(e.message, param_hint="--rule") from None
    return rules


@click.command("simulate")
@click.argument("pack", required=False, type=PACK)
@click.option(
    "--games",
    "-n",
    default=100,
    show_default=True,
    type=click.IntRange(1, MAX_GAMES),
    help=f"Games to play (1 to {MAX_GAMES:,}).",
)
@click.option(
    "--players",
    "-p",
    default=4,
    show_default=True,
    type=click.IntRange(1, MAX_PLAYERS),
    help=f"Players per game (1 to {MAX_PLAYERS}, then within the pack's min and max players).",
)
@click.option(
    "--seed",
    "-s",
    default=1,
    show_default=True,
    type=click.IntRange(0, MAX_SEED),
    help="Seed of the whole run (0 to 2**63-1).",
)
@click.option(
    "--game",
    "only",
    type=click.IntRange(0, MAX_GAMES - 1),
    metavar="N",
    help="Play only game N of the run (from 0): the game a longer run with this --seed plays "
    "under that number. How a failed game is replayed.",
)
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help=(
        "Bot names, comma-separated: one for all seats or one each (heuristic, greedy, random, "
        "search, search:N for N playouts an option: stronger and slower)."
    ),
)
@click.option("--board", help="Board to play on, when the pack has several [default: first].")
@click.option(
    "--rule",
    "rule_items",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a rule for this run (repeatable): --rule hand_size=6 --rule round_cap=40.",
)
@click.option(
    "--jobs",
    "-j",
    default=1,
    show_default=True,
    type=click.IntRange(0, MAX_JOBS),
    help=f"Processes to play in, 0 to {MAX_JOBS} (0: one per CPU). The report does not "
    "depend on it.",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report as JSON (schemas/report.schema.json; also a --heatmap for render).",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report as one self-contained web page with plots (opens offline).",
)
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each game's log here (game-000000.jsonl...), for `clankwork replay`.",
)
@click.option(
    "--dask",
    "dask_address",
    metavar="local|tcp://HOST:PORT",
    help="Play on a Dask cluster: 'local' starts one here (--jobs workers, default one per "
    "CPU), tcp://HOST:PORT uses a running scheduler. The report does not depend on it.",
)
@click.option(
    "--until-ci",
    type=click.FloatRange(0, 0.5, min_open=True),
    metavar="HALF_WIDTH",
    help="Play until every seat's win-rate 95% interval is at most this wide on each side "
    "(0.01: known to a point); --games is then the most to play (default 1,000,000).",
)
@click.option(
    "--check-invariants",
    "check",
    is_flag=True,
    help="Check that cards, cubes and tokens are conserved after every turn (slower).",
)
@click.option("--all", "all_cards", is_flag=True, help="Every card in the card table, not 20.")
@click.option(
    "--modules",
    help='A modular board\'s assembly for every game, e.g. "1=Hydroponics, 2=Med Lab" '
    "[default: each game draws one from its seed].",
)
@click.option(
    "--without",
    "without_cards",
    multiple=True,
    metavar="CARD",
    help="Also play the same seeds with CARD's copies out of every deck, and report the change "
    "in each seat's win rate and mean score (repeatable).",
)
@click.option(
    "--give",
    "give_cards",
    multiple=True,
    metavar="CARD[@SEAT]",
    help="Also play the same seeds with one CARD in seat SEAT's starting deck (default seat 1, "
    "the first player), and report the change (repeatable).",
)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="RULE=V1,V2,...",
    help="Also play the same seeds with each value of a rule (values are JSON) or, as "
    "cost:CARD=4,5,6, of a card's cost, and report each one's change (repeatable).",
)
@click.option(
    "--ladder",
    metavar="BOT,BOT,...",
    help="Also play the same seeds with every seat each of these bots in turn (random,greedy,"
    "heuristic) and report seat 1's share per bot: the first-player advantage by bot strength.",
)
@click.option(
    "--against",
    metavar="BASE",
    help="Also play the same seeds on pack BASE (a folder, an IR file or a bundled pack's "
    "name) and report every figure on both with its paired difference and interval.",
)
def command(
    pack: Path | None,
    games: int,
    players: int,
    seed: int,
    only: int | None,
    bots: str,
    board: str | None,
    rule_items: tuple[str, ...],
    jobs: int,
    json_file: Path | None,
    html_file: Path | None,
    log_dir: Path | None,
    dask_address: str | None,
    until_ci: float | None,
    check: bool,
    all_cards: bool,
    without_cards: tuple[str, ...],
    give_cards: tuple[str, ...],
    sweeps: tuple[str, ...],
    modules: str | None,
    ladder: str | None,
    against: str | None,
) -> None:
    """Play bot games of PACK (default: the bundled flagship pack) and report on them."""
    # Where the results go is checked first: a bad path fails now, not after the games.
    for target in (json_file, html_file):
        if target is not None:
            check_file_target(target, named=True)
    if log_dir is not None:
        prepare_dir(log_dir, "log folder")
    source = click.get_current_context().get_parameter_source
    if only is not None and (until_ci is not None or source("games").name != "DEFAULT"):
        given = "--until-ci" if until_ci is not None else "--games"
        raise click.BadParameter(f"--game plays one game: leave out {given}", param_hint="--game")
    if against is not None:
        alone = {"--until-ci": until_ci, "--game": only, "--log-dir": log_dir}
        alone.update({"--modules": modules, "--without": without_cards, "--give": give_cards})
        alone["--sweep"] = sweeps
        clash = [name for name, value in alone.items() if value]
        if clash:
            raise click.BadParameter(
                f"compares two whole runs: leave out {', '.join(clash)}", param_hint="--against"
            )
    if until_ci is not None and source("games").name == "DEFAULT":
        games = UNTIL_CI_GAMES  # --until-ci decides when to stop; --games only caps it
    if dask_address is not None:
        _check_dask(dask_address, log_dir)
        if source("jobs").name == "DEFAULT":
            jobs = 0  # a local cluster is as big as the machine unless --jobs says otherwise
    ir = load_pack(pack)
    rules = parse_rules(rule_items)
    try:
        names = bot_names(bots, players)
        catalog = prepare(ir, board if board is not None else 0)
        if modules:
            try:
                catalog.choose_assembly(None, modules)  # a ValueError names what does not fit
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="--modules") from None
        limits = {**catalog.rules, **rules}
        lo, hi = limits["min_players"], limits["max_players"]
        if not lo <= players <= hi:
            raise ValueError(
                f"this pack plays with {lo} to {hi} players, not {players} (--players {lo} to {hi})"
            )
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    variants = _variants(catalog, players, rules, without_cards, give_cards, sweeps)
    rungs: list[str] = []
    if ladder is not None:
        rungs = list(dict.fromkeys(b.strip() for b in ladder.split(",") if b.strip()))
        if not rungs:
            raise click.BadParameter(
                "name one bot or more: --ladder random,greedy,heuristic,search:4",
                param_hint="--ladder",
            )
        for rung in rungs:
            try:
                parse_bot(rung)  # a ValueError names a bad one and the known bots
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="--ladder") from None
    if jobs == 0:
        jobs = min(os.cpu_count() or 1, MAX_JOBS)
    if against is not None:
        from .compare import against_command  # compare builds on this module's runners

        against_command(
            pack, ir, catalog, against, games=games, players=players, seed=seed, bots=names,
            rules=rules, jobs=jobs, dask=dask_address, check=check, json_file=json_file,
            html_file=html_file, all_rows=all_cards,
        )  # fmt: skip
        return
    for warning in setup_warnings(catalog, players):
        click.echo(f"warning: {warning}", err=True)
    start = time.perf_counter()
    bar: Any = None
    if sys.stderr.isatty():
        length = games * (1 + len(variants) + len(rungs))
        bar = click.progressbar(length=length, label="simulating", file=sys.stderr)
        bar.__enter__()
    try:
        sim = simulate(
            ir,
            games,
            players,
            seed,
            names,
            board=catalog.board.name,
            rules=rules,
            jobs=jobs,
            log_dir=log_dir,
            check=check,
            progress=bar.update if bar is not None else None,
            catalog=catalog,
            until_ci=until_ci,
            dask=dask_address,
            modules=modules,
            only=only,
        )
        played_variants, variant_runs = play_variants(
            sim,
            ir,
            variants,
            board=catalog.board.name,
            jobs=jobs,
            dask=dask_address,
            check=check,
            catalog=catalog,
            progress=bar.update if bar is not None else None,
            modules=modules,
        )
        by_bot = play_ladder(
            sim, ir, rungs, board=catalog.board.name, jobs=jobs, dask=dask_address,
            catalog=catalog, progress=bar.update if bar is not None else None, modules=modules,
        )  # fmt: skip
    except (DaskMissing, ClusterError) as e:
        raise click.ClickException(str(e)) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    elapsed = time.perf_counter() - start
    rep = sim.report()
    rep["variants"] = played_variants
    if rungs:
        rep["first_player_by_bot"] = by_bot
    again = replay_command(pack, players, names, seed, board, rule_items, modules, check)
    rep["failed"], rep["failures"] = failure_records(sim, variant_runs, again, log_dir)
    played = sim.played * (1 + len(variants) + len(rungs))
    after = result_warnings(rep, within_pairs(catalog.board))
    warnings = setup_warnings(catalog, players) + after
    # The files first: a reader that stops early (`| head`) must not cost the run its report.
    if json_file is not None:
        write_text(json_file, json.dumps(rep, indent=1) + "\n", named=True)
    if html_file is not None:
        from .report_html import write_page  # matplotlib loads only when a page is asked for

        write_page(html_file, rep, ir, warnings, modules)
    click.echo(format_report(rep, all_cards=all_cards))
    for warning in after:
        click.echo(f"warning: {warning}", err=True)
    where = f", {jobs} processes" if jobs > 1 and dask_address is None else ""
    if dask_address is not None:
        where = f", Dask {dask_address}"
    click.echo(
        f"{played} games in {elapsed:.2f} s ({played / max(elapsed, 1e-9):.0f} games/s{where})",
        err=True,
    )
    if rep["capped"]["count"]:
        click.echo(
            f"warning: {rep['capped']['count']} games reached the round cap "
            f"({rep['capped']['round_cap']}) and were scored as they stood",
            err=True,
        )
    if json_file is not None:
        click.echo(f"wrote {json_file}", err=True)
    if html_file is not None:
        click.echo(f"wrote {html_file}", err=True)
    if log_dir is not None:
        click.echo(f"wrote {played} logs to {log_dir}", err=True)
    sys.stdout.flush()
    if rep["failed"]:
        first = rep["failures"][0]
        click.echo(
            f"Error: {rep['failed']} of {played} games failed (listed in the report, not "
            f"counted in its figures); replay the first with: {first['replay']}",
            err=True,
        )
        sys.exit(GAME_FAILED)
