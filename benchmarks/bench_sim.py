"""Player-turns per CPU-second of this checkout against another commit, side by side.

Run: .venv/bin/python benchmarks/bench_sim.py [--old COMMIT] [--games N] [--repeat R]
     [--pack acqinc] [--players 4] [--bots random,heuristic]

Two rows, each measured on this checkout ("new") and on ``--old`` (default ``HEAD~1``, the
previous commit) in the same run:

- ``random``: every seat the random bot, so the figure is the engine's (the rules, the
  legal actions, the log) with next to nothing spent deciding;
- ``heuristic``: every seat the heuristic bot, what `clankwork simulate` plays by default.

Each figure comes from a fresh worker process that compiles the pack, plays a few games to
warm up (route tables, option caches) and then plays ``--games`` games of ``--players``
players on fixed seeds (inside `interpreter.game.many_games`, the garbage collector's
settings simulate's workers play with, and without a log or a final digest, as simulate plays
a long run's games past the first 1,000, on a checkout that has them); the time is the worker's
CPU time (``time.process_time``), not the wall clock, since the machine is shared. Workers
for old and new alternate (old, new, old, new...), ``--repeat`` times, so a busy moment hits
both alike; the best of the repeats counts and the spread (worst/best) is printed to show
the noise. Peak memory is each worker's peak resident set (getrusage), the most any worker
of that row reached: what one ``--jobs`` worker of `clankwork simulate` needs.

Each side runs its compiled core (interpreter/core.py) when it has one: this checkout's if
it is built and current (the install builds it; `clankwork build-core` after an edit), and
the old commit's, built here for the run when this side runs compiled, the way that commit
builds it: ``setup.py build_ext --inplace`` for a commit that builds its core at install time,
its own ``tools/build_core.build()`` for one of the earlier ``build-core`` command (called as a
function: on some of those commits ``python -m clankwork.tools.cli`` ran nothing). The header
says which core each side's workers reported running (read from the modules they imported),
and the run stops when one side ran compiled and the other Python, unless
``--cores-may-differ``. ``CLANKWORK_CORE=python`` runs both sides as Python.

Before quoting a ratio, check the bench against itself: ``--old HEAD`` on a clean checkout
must read about 1.00 (an A/A run).

The old commit is read with ``git archive`` into a directory of its own (the repository and
its worktrees are left alone) and imported as ``clankwork`` through a directory of links
placed first on PYTHONPATH; each side compiles its own copy of the pack, so a row compares
the two engines on the rules each had. That tree and its compiled core are kept under
``~/.cache/clankwork/bench-old/`` (``$XDG_CACHE_HOME``), keyed by the commit, the Python, the
Cython version and the machine, so only the first run against a commit builds it (3-5
minutes); ``--rebuild`` builds afresh in a temporary directory. Delete the folder to reclaim
the space (about 12 MB a commit).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The top-level folders that install as the clankwork.* packages (pyproject package-dir).
PACKAGES = ("dsl", "interpreter", "tools", "content", "schemas")
# What builds a commit's compiled core at install time, beside its packages.
BUILD_FILES = ("setup.py", "pyproject.toml", "README.md")
SEED = 1
WARM_UP = 3
# Where old commits' trees and compiled cores are kept between runs (see `old_side`).
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "clankwork" / "bench-old"


def _rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (2**20 if sys.platform == "darwin" else 2**10)


def worker(pack: Path, bots: str, games: int, players: int) -> dict[str, float]:
    """Play ``games`` games in this process and say how many player-turns took how much CPU
    time, and the process's peak memory (imports the clankwork found on sys.path)."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.tools.simulate import bot_seed, game_seeds

    result = compile_pack(pack)
    if not result.ok:
        raise SystemExit(f"{pack}: the pack does not compile")
    cat = prepare(result.ir)

    # As simulate plays the games of a long run past the first RESULTS_KEPT (whose records
    # its report keeps): no log and no final digest, where the checkout can say so.
    import inspect

    quiet = {"keep_log": False} if "keep_log" in inspect.signature(Game).parameters else {}

    def run(seed: int, n: int) -> int:
        turns = 0
        for s in game_seeds(seed, n):
            seats = [make_bot(bots, bot_seed(s, k)) for k in range(players)]
            turns += Game(cat, seats, s, **quiet).play().turns
        return turns

    import clankwork.interpreter.game as game_module

    run(SEED + 1, WARM_UP)
    # As `clankwork simulate` plays: its workers play inside `many_games` (the garbage
    # collector's settings for a long run of games), where the checkout has it.
    around = getattr(game_module, "many_games", contextlib.nullcontext)
    with around():
        t0 = time.process_time()
        turns = run(SEED, games)
        cpu = time.process_time() - t0

    # Which core played: compiled or Python (a checkout before the compiled core: Python).
    package = sys.modules["clankwork.interpreter"]
    if any((Path(p) / "core.py").is_file() for p in package.__path__):
        from clankwork.interpreter.core import describe

        core = describe()
    else:
        core = "Python source (the commit predates the compiled core)"
    return {
        "turns": turns,
        "cpu": cpu,
        "rss": _rss_mib(),
        "from": game_module.__file__,
        "core": core,
    }


def _old_tree(commit: str, into: Path) -> Path:
    """``commit``'s packages under ``into``, and the directory to put on PYTHONPATH. The
    build files (setup.py, pyproject.toml, README.md) come along when the commit has them:
    its core is built in ``into/src``."""
    src = into / "src"
    src.mkdir()
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", commit],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    extra = [f for f in BUILD_FILES if f in listed]
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, *PACKAGES, *extra],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    shim = into / "shim" / "clankwork"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("")
    for name in PACKAGES:
        # Relative (shim/clankwork/NAME -> ../../src/NAME): the tree may be kept and moved.
        (shim / name).symlink_to(Path("..", "..", "src", name), target_is_directory=True)
    return shim.parent


# A commit of the earlier `build-core` (a sys.meta_path finder and interpreter/_compiled/):
# its build function, called directly.
_OLD_BUILD = (
    "from clankwork.tools.build_core import build; print(build(force=True, say=lambda m: None))"
)
_DESCRIBE = "from clankwork.interpreter.core import describe; print(describe())"


def _build_old_core(path: Path) -> str:
    """Build the old checkout's core too when this one runs compiled, so both sides run
    alike, the way that commit builds it; what the old side then runs, in words (as its
    own `describe` says)."""
    from clankwork.interpreter import core

    if not core.describe().startswith("compiled"):
        return "not built (this checkout runs Python)"
    src = path.parent / "src"
    if not (src / "interpreter" / "core.py").is_file():
        return "none (the commit predates the compiled core)"
    env = {**os.environ, "PYTHONPATH": f"{path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("CLANKWORK_CORE", None)
    if (src / "setup.py").is_file():
        cmd = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
        run = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True)
    else:
        cmd = [sys.executable, "-c", _OLD_BUILD]
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        return f"failed: {run.stderr.strip()[-300:]}"
    said = subprocess.run(
        [sys.executable, "-c", _DESCRIBE], env=env, capture_output=True, text=True
    ).stdout.strip()
    return f"built; it runs: {said}"


def _cache_key(commit: str) -> str | None:
    """What the old side's tree and build depend on: the commit, this Python's ABI, the
    Cython that builds it, the machine, and whether it is built at all. None: do not keep it
    (a build of a few modules only, ``CLANKWORK_CORE_MODULES``)."""
    from clankwork.interpreter import core

    if os.environ.get("CLANKWORK_CORE_MODULES", "").strip():
        return None
    compiled = core.describe().startswith("compiled")
    try:
        from Cython import __version__ as cython
    except ImportError:
        cython = "none"
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", f"{commit}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    built = f"cython{cython}" if compiled else "python"
    return f"{full}-{sys.implementation.cache_tag}-{platform.machine()}-{built}"


@contextlib.contextmanager
def old_side(commit: str, keep: bool = True) -> Iterator[tuple[Path, str]]:
    """``commit``'s tree with its core built as `_build_old_core` builds it: the directory to
    put on PYTHONPATH, and what its core is, in words.

    A commit never changes, so the tree and its build are kept under
    ``$XDG_CACHE_HOME/clankwork/bench-old/`` (``~/.cache`` by default), keyed by the full
    commit, this Python's ABI, the Cython version, the machine and whether the core is
    built: the next run against the same commit starts at once rather than compiling for 3-5
    minutes. A build that failed is not kept; a lock lets two runs share one build.
    ``keep=False`` (``--rebuild``) builds afresh in a temporary directory."""
    key = _cache_key(commit) if keep else None
    if key is None:
        with tempfile.TemporaryDirectory(prefix="bench-sim-") as tmp:
            path = _old_tree(commit, Path(tmp))
            yield path, _build_old_core(path)
        return
    root = CACHE / key
    root.parent.mkdir(parents=True, exist_ok=True)
    done = root / "built.txt"
    with open(root.parent / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            shutil.rmtree(root, ignore_errors=True)  # a run cut short left half a tree
            root.mkdir()
            said = _build_old_core(_old_tree(commit, root))
            if said.startswith("failed"):
                shutil.rmtree(root, ignore_errors=True)
                raise SystemExit(f"the old checkout's core did not build: {said}")
            shutil.rmtree(root / "src" / "build", ignore_errors=True)  # objects: 55 MB
            done.write_text(said, encoding="utf-8")
        fcntl.flock(lock, fcntl.LOCK_UN)
    yield root / "shim", f"{done.read_text(encoding='utf-8')} (kept in {root})"


def _engine_is_from(where: str, tree: Path) -> bool:
    """Whether a worker's engine module (its file, ``where``) lies in ``tree``: this checkout,
    or the old commit's folder, which holds the links put on PYTHONPATH (``shim/``) and the
    tree they point into (``src/``, where a commit of the `build-core` command keeps its
    compiled modules, in ``src/interpreter/_compiled/``)."""
    return Path(where).is_relative_to(tree)


def _spawn(side: dict[str, object], bots: str, args: argparse.Namespace) -> dict[str, float]:
    env = dict(os.environ)
    if side["path"] is not None:
        env["PYTHONPATH"] = f"{side['path']}{os.pathsep}{env.get('PYTHONPATH', '')}"
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--pack",
        str(side["pack"]),
        "--bots",
        bots,
        "--games",
        str(args.games),
        "--players",
        str(args.players),
    ]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _commit(rev: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="HEAD~1", help="the commit to compare with")
    ap.add_argument("--games", type=int, default=60, help="games a worker plays, timed")
    ap.add_argument("--repeat", type=int, default=3, help="workers per row and side")
    ap.add_argument("--pack", default="acqinc", help="a bundled pack under content/")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random,heuristic", help="rows: bot names, commas")
    ap.add_argument(
        "--cores-may-differ",
        action="store_true",
        help="quote the figures even when one side ran compiled and the other Python",
    )
    ap.add_argument(
        "--rebuild",
        action="store_true",
        help="build the old commit's core afresh rather than reuse the one kept from a run",
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        # --pack is a path here; print one line of JSON for the parent.
        print(json.dumps(worker(Path(args.pack), args.bots, args.games, args.players)))
        return

    rows = [b.strip() for b in args.bots.split(",") if b.strip()]
    with old_side(args.old, keep=not args.rebuild) as (old_path, old_build):
        sides = {
            "old": {"path": old_path, "pack": old_path / "clankwork" / "content" / args.pack},
            "new": {"path": None, "pack": ROOT / "content" / args.pack},
        }
        got: dict[tuple[str, str], list[dict[str, float]]] = {}
        t0 = time.perf_counter()
        for _ in range(args.repeat):
            for bots in rows:
                for name, side in sides.items():
                    got.setdefault((bots, name), []).append(_spawn(side, bots, args))
        wall = time.perf_counter() - t0

    for bots in rows:
        for name in sides:
            where = got[bots, name][0]["from"]
            if not _engine_is_from(where, old_path.parent if name == "old" else ROOT):
                raise SystemExit(f"the {name} worker ran the engine from {where}")

    print(
        f"{args.pack}, {args.players} players, {args.games} games a worker, "
        f"best of {args.repeat} workers a figure; old = {args.old} ({_commit(args.old)}), "
        f"new = this checkout ({_commit('HEAD')}{' + changes' if _dirty() else ''}); "
        f"Python {sys.version.split()[0]}"
    )
    cores = {name: {r["core"] for b in rows for r in got[b, name]} for name in sides}
    for name in sides:
        print(f"{name} core: {' / '.join(sorted(cores[name]))}")
    print(f"(the old checkout's compiled core: {old_build})")
    kinds = {name: {c.startswith("compiled") for c in cores[name]} for name in sides}
    if kinds["old"] != kinds["new"] and not args.cores_may_differ:
        raise SystemExit(
            "one side ran compiled and the other Python: the ratios would compare the builds, "
            "not the commits (--cores-may-differ to print them anyway)"
        )
    head = (
        f"{'player-turns per CPU-second':<30}{'old':>10}{'new':>10}{'new/old':>9}"
        f"{'spread old':>12}{'spread new':>12}{'turns/game':>12}"
    )
    print(head)
    print("-" * len(head))
    best: dict[tuple[str, str], float] = {}
    for bots in rows:
        cells = []
        for name in sides:
            rates = [r["turns"] / r["cpu"] for r in got[bots, name]]
            best[bots, name] = max(rates)
            cells.append((max(rates), min(rates) / max(rates)))
        (o, so), (n, sn) = cells
        per_game = got[bots, "new"][0]["turns"] / args.games
        figures = f"{o:>10.0f}{n:>10.0f}{n / o:>9.2f}{so:>12.2f}{sn:>12.2f}"
        print(f"{bots:<30}{figures}{per_game:>12.1f}")
    print()
    print(f"{'peak RSS per worker (MiB)':<30}{'old':>10}{'new':>10}")
    for bots in rows:
        o = max(r["rss"] for r in got[bots, "old"])
        n = max(r["rss"] for r in got[bots, "new"])
        print(f"{bots:<30}{o:>10.1f}{n:>10.1f}")
    target = 15000
    if "heuristic" in rows:
        h = best["heuristic", "new"]
        verdict = "meets" if h >= target else "misses"
        print(
            f"\nheuristic, one process: {h:.0f} player-turns per CPU-second "
            f"({verdict} the {target:,} goal); {wall:.0f} s wall for the whole run"
        )


def _dirty() -> bool:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", *PACKAGES],
        capture_output=True,
        text=True,
    ).stdout
    return bool(out.strip())


if __name__ == "__main__":
    main()
