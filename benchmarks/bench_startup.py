"""How long `clankwork` takes to start and to check a pack from the command line, old
against new: wall time of whole processes, repeated, min / median.

Run: .venv/bin/python benchmarks/bench_startup.py [--old REV] [--runs 7]

Each command runs ``--runs`` times as a fresh `python -c "...main()" ARGS` process, for the
``--old`` commit (default: the commit issue 30's work started from; its packages read with
`git archive` as bench_sim.py does, put first on PYTHONPATH) and for this checkout, in the
same run, alternating old and new so that the machine's other work falls on both alike.
This checkout is measured twice: as it runs (the parser's tables read from the user's cache,
written by the first run) and with the cache off (``CLANKWORK_CACHE_DIR=""``), which is what
the first run after installing or upgrading costs. The old side ran no cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import BRANCH_POINT  # noqa: E402
from bench_sim import ROOT, _commit, _dirty, _old_tree  # noqa: E402

CODE = "from clankwork.tools.cli import main; main()"


def _commands(content: Path) -> list[tuple[str, list[str]]]:
    return [
        ("--version", ["--version"]),
        ("--help", ["--help"]),
        ("check content/tutorial", ["check", str(content / "tutorial")]),
        ("check content/acqinc", ["check", str(content / "acqinc")]),
    ]


def _run(args: list[str], env: dict[str, str], cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CODE, *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{args} failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=BRANCH_POINT, help="the commit to compare with")
    ap.add_argument("--runs", type=int, default=7, help="runs of each command and side")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_path = _old_tree(args.old, Path(tmp))
        base = dict(os.environ)
        sides = {
            "old": ({**base, "PYTHONPATH": str(old_path)}, old_path / "clankwork" / "content"),
            "new": (base, ROOT / "content"),
            "new, no cache": ({**base, "CLANKWORK_CACHE_DIR": ""}, ROOT / "content"),
        }
        _run(["check", str(ROOT / "content" / "tutorial")], base, Path(tmp))  # fills the cache
        where = subprocess.run(
            [sys.executable, "-c", "import clankwork.tools.cli as c; print(c.__file__)"],
            env=sides["old"][0],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not where.startswith(str(old_path)):
            raise SystemExit(f"the old side ran {where}")
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs):
            for side, (env, content) in sides.items():
                for label, cmd in _commands(content):
                    times.setdefault((side, label), []).append(_run(cmd, env, Path(tmp)))
    print(
        f"old = {args.old} ({_commit(args.old)}), new = this checkout ({_commit('HEAD')}"
        f"{' + changes' if _dirty() else ''}); Python {sys.version.split()[0]}; "
        f"{args.runs} runs each, wall seconds min / median"
    )
    head = "".join(f"{side:>22}" for side in sides)
    print(f"{'':26}{head}")
    for label, _cmd in _commands(ROOT / "content"):
        row = ""
        for side in sides:
            t = times[side, label]
            row += f"{min(t):>11.3f} /{statistics.median(t):>7.3f}   "
        print(f"{label:26}{row}")


if __name__ == "__main__":
    main()
