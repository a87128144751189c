"""Setting up a game on a generated board of N spaces: CPU time by size, old against new.

Run: .venv/bin/python benchmarks/bench_board.py [--old HEAD~1] [--sizes 100,500,1000,2000,5000]
     [--old-max 2000] [--rounds 3] [--players 4] [--pack clank]

For each size the board is generated (`board_ir`): a grid of rooms a few columns wider than
it is deep, with HQ in the middle of the top row, the paths between neighbours (some cost 2
boots, some carry monster icons, some are one-way down into the depths, a few need a key),
the lower two thirds a danger zone, crystal caves that end the walking, minor and major
secrets and healing to pick up on the way, towns, and one artifact per 200 spaces (at least
seven, as the base game has) spread over the depths. It replaces the board of a bundled pack
(``--pack``, the base game's by default), whose compiled spaces lend the generated ones their
triggers and holds, so the same generator builds the same board for any commit.

Each size and side runs in a worker process of its own, which times in CPU seconds
(``time.process_time``, the machine is shared): preparing the pack for play (`catalog.prepare`:
the board and its distance tables), constructing the `Game` (setup) and playing the first
``--rounds`` rounds with the heuristic bot in every seat (its route tables are built on first
use, in those turns): "setup"; then the rest of that game: "game" is the two together. The
growth exponent between two sizes is log(t2 / t1) / log(n2 / n1): 1 is linear, 2 quadratic.

The baseline is ``--old`` (default ``HEAD~1``), read with ``git archive`` as
`bench_sim.py` does and measured in the same run, up to ``--old-max`` spaces (the all-pairs
tables took 10 s at 2,000 spaces and did not finish in 42 CPU-seconds at 4,000); larger
sizes print "-" for it. The old side runs its Python source (its core is not built here):
with ``CLANKWORK_CORE=python`` both sides do.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sim import _commit, _dirty, _old_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEED = 1
ARTIFACT_POINTS = (5, 7, 10, 15, 20, 25, 30)


def _template(spaces: list[dict[str, Any]], op: str, what: str | None = None) -> dict[str, Any]:
    """The first compiled space whose entry gives ``op`` (of ``what``): its triggers and
    holds, to copy onto generated spaces."""
    for s in spaces:
        for t in s.get("triggers", ()):
            for e in t.get("effects", ()):
                if e.get("op") == op and (what is None or e.get("what") == what):
                    return {"triggers": s["triggers"], "holds": s.get("holds", [])}
    return {"triggers": [], "holds": []}


def board_ir(n: int, like: dict[str, Any], seed: int = SEED) -> dict[str, Any]:
    """A board IR of ``n`` spaces (see the module docstring); ``like`` is a compiled board of
    the pack whose spaces give the rewards' triggers."""
    rng = random.Random(seed)
    width = max(2, math.ceil(math.sqrt(n * 1.5)))
    depth = math.ceil(n / width)
    rewards = {
        "minor": _template(like["spaces"], "take_here", "minor"),
        "major": _template(like["spaces"], "take_here", "major"),
        "heal": _template(like["spaces"], "heal"),
    }
    hq = width // 2
    deep = [i for i in range(n) if i // width >= depth // 3 and i != hq]
    artifacts = max(7, n // 200)
    artifact_at = {deep[(k * len(deep)) // artifacts]: k for k in range(artifacts)}
    spaces = []
    for i in range(n):
        row = i // width
        features = []
        sp: dict[str, Any] = {"name": f"Room {i}", "exhausts": False, "triggers": [], "holds": []}
        if i == hq:
            features.append("hq")
        elif row >= depth // 3:
            features.append("danger zone")
        roll = rng.random()
        if i != hq:
            if roll < 0.08:
                features.append("crystal cave")
                sp["exhausts"] = True
            elif roll < 0.18:
                sp.update(copy.deepcopy(rewards["minor"]))
            elif roll < 0.24:
                sp.update(copy.deepcopy(rewards["major"]))
            elif roll < 0.27:
                sp.update(copy.deepcopy(rewards["heal"]))
            elif roll < 0.28 and row >= depth // 3:
                features.append("town")
        if i in artifact_at:
            sp["artifact"] = ARTIFACT_POINTS[artifact_at[i] % len(ARTIFACT_POINTS)]
        sp["features"] = features
        sp["pos"] = [(i % width) * 100, row * 100]
        spaces.append(sp)
    paths = []
    for i in range(n):
        row, col = divmod(i, width)
        ends = []
        if col + 1 < width and i + 1 < n:
            ends.append(i + 1)
        if i + width < n:
            ends.append(i + width)
        for j in ends:
            down = j == i + width
            # Row 0 and column 0 keep all their paths both ways: the board stays connected.
            keep_both = row == 0 or (col == 0 and down)
            if not keep_both and rng.random() < 0.12:
                continue  # a wall
            roll = rng.random()
            path: dict[str, Any] = {
                "from": f"Room {i}",
                "to": f"Room {j}",
                "oneway": bool(down and not keep_both and roll < 0.12),
                "boots": 2 if rng.random() < 0.2 else 1,
                "monsters": (1 if roll < 0.75 else 2) if 0.6 <= roll < 0.8 else 0,
                "requires": [],
                "features": [],
            }
            if not keep_both and roll >= 0.97:
                path["requires"], path["features"] = ["key"], ["lock"]
            paths.append(path)
    return {"name": f"generated {n}", "spaces": spaces, "paths": paths, "groups": []}


def worker(pack: Path, n: int, rounds: int, players: int) -> dict[str, Any]:
    """Prepare the pack on a generated board of ``n`` spaces, set up a game, play its first
    rounds with heuristic bots, then the rest of the game; the CPU time of each part (imports
    the clankwork found on sys.path)."""
    import clankwork.interpreter.game as game_module
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.tools.simulate import bot_seed

    result = compile_pack(pack)
    if not result.ok:
        raise SystemExit(f"{pack}: the pack does not compile")
    ir = dict(result.ir)
    ir["boards"] = [board_ir(n, result.ir["boards"][0])]
    t0 = time.process_time()
    cat = prepare(ir)
    t1 = time.process_time()
    game = Game(cat, [make_bot("heuristic", bot_seed(SEED, k)) for k in range(players)], SEED)
    t2 = time.process_time()
    turns = 0
    for _ in range(rounds):
        game.round += 1
        for seat in game.order:
            game.take_turn(game.players[seat])
            turns += 1
            if game.over:
                break
        if game.over:
            break
    t3 = time.process_time()
    ended = game.play()
    t4 = time.process_time()
    return {
        "prepare": t1 - t0,
        "game": t2 - t1,
        "turns": t3 - t2,
        "rest": t4 - t3,
        "played": turns,
        "game_turns": ended.turns,
        "spaces": len(cat.board.spaces),
        "paths": sum(len(m) for m in cat.board.moves),
        "from": game_module.__file__,
    }


def _spawn(path: Path | None, pack: Path, n: int, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = f"{path}{os.pathsep}{env.get('PYTHONPATH', '')}"
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--pack",
        str(pack),
        "--sizes",
        str(n),
        "--rounds",
        str(args.rounds),
        "--players",
        str(args.players),
    ]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _exponents(sizes: list[int], times: list[float | None]) -> list[str]:
    """The growth exponent from each size to the next ("" where a time is missing)."""
    out = [""]
    for k in range(1, len(sizes)):
        t1, t2 = times[k - 1], times[k]
        ok = t1 is not None and t2 is not None and t1 > 0 and t2 > 0
        out.append(f"{math.log(t2 / t1) / math.log(sizes[k] / sizes[k - 1]):.2f}" if ok else "")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="HEAD~1", help="the commit to compare with")
    ap.add_argument("--sizes", default="100,500,1000,2000,5000", help="spaces, commas")
    ap.add_argument("--old-max", type=int, default=2000, help="largest size the old side runs")
    ap.add_argument("--rounds", type=int, default=3, help="rounds played after setup")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--pack", default="clank", help="a bundled pack under content/")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    if args.worker:
        print(json.dumps(worker(Path(args.pack), sizes[0], args.rounds, args.players)))
        return

    got: dict[tuple[str, int], dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-board-") as tmp:
        old_path = _old_tree(args.old, Path(tmp))
        old_pack = old_path / "clankwork" / "content" / args.pack
        for n in sizes:
            if n <= args.old_max:
                got["old", n] = _spawn(old_path, old_pack, n, args)
                if "bench-board-" not in got["old", n]["from"]:
                    raise SystemExit(f"the old worker ran the engine from {got['old', n]['from']}")
            got["new", n] = _spawn(None, ROOT / "content" / args.pack, n, args)

    print(
        f"{args.pack} on generated boards, {args.players} heuristic bots; old = {args.old} "
        f"({_commit(args.old)}), new = this checkout ({_commit('HEAD')}"
        f"{' + changes' if _dirty() else ''}); Python {sys.version.split()[0]}; CPU seconds"
    )
    print(
        f"setup = prepare (the board) + Game (setup) + the first {args.rounds} rounds; "
        "game = setup and the rest of the game"
    )
    head = (
        f"{'spaces':>7}{'moves':>7}{'prepare':>9}{'Game':>7}{'rounds':>8}"
        f"{'old setup':>11}{'new setup':>11}{'old/new':>9}{'old game':>10}{'new game':>10}"
        f"{'turns':>7}"
    )
    print(head)
    print("-" * len(head))
    setup: dict[str, list[float | None]] = {"old": [], "new": []}
    whole: dict[str, list[float | None]] = {"old": [], "new": []}
    for n in sizes:
        for side in ("old", "new"):
            r = got.get((side, n))
            first = r["prepare"] + r["game"] + r["turns"] if r else None
            setup[side].append(first)
            whole[side].append(first + r["rest"] if r and first is not None else None)
        new = got["new", n]
        o, w = setup["old"][-1], whole["old"][-1]
        cells = (
            f"{new['prepare']:>9.2f}{new['game']:>7.2f}{new['turns']:>8.2f}"
            + (f"{o:>11.2f}" if o is not None else f"{'-':>11}")
            + f"{setup['new'][-1]:>11.2f}"
            + (f"{o / setup['new'][-1]:>9.1f}" if o is not None else f"{'-':>9}")
            + (f"{w:>10.2f}" if w is not None else f"{'-':>10}")
            + f"{whole['new'][-1]:>10.2f}{new['game_turns']:>7}"
        )
        print(f"{n:>7}{new['paths']:>7}{cells}")
    print()
    print(f"{'growth exponent':<18}" + "".join(f"{n:>8}" for n in sizes))
    for name, table in (("setup", setup), ("game", whole)):
        for side in ("old", "new"):
            line = "".join(f"{e:>8}" for e in _exponents(sizes, table[side]))
            print(f"{side + ' ' + name:<18}{line}")


if __name__ == "__main__":
    main()
