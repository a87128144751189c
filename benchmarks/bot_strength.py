"""How strong the heuristic bot is against the heuristic bot of another commit.

Run: .venv/bin/python benchmarks/bot_strength.py [--old COMMIT] [--games N] [--pack acqinc]
     [--board NAME] [--players 2] [--speed-games M] [--bot NAME] [--vs NAME]

With ``--vs NAME`` the other side is this checkout's bot NAME instead of ``--old``'s bot
(``--bot search:8 --vs heuristic``: how much the search bot adds); ``--speed-games 0`` then
skips the speed rows, which compare the same bot name on both sides.

The old bot is interpreter/bots.py as it was at ``--old`` (default: main), read with
``git show`` and loaded as a module inside this checkout's package, so both bots play on the
same engine and only the bots differ. Two-player games by default; each seed is played twice
with the seats swapped, so seat order and deck luck cancel out. With ``--players 4`` the new
bot takes seats 1 and 3, then 2 and 4 (every other seat), against the old one in the rest: a
race between several rivals is where the bot's reading of its rivals counts. A win counts 1, a
shared win its share, a game nobody wins the new bot's share of the seats. The new bot's share
of the wins is printed with its 95% Wilson interval (as strong as the old bot: 0.5); the score
difference (the new seats' mean less the old seats') with a normal 95% interval. Then, side
by side in the same process, the player-turns per CPU-second of four-player games with every
seat the old bot and every seat the new one (the same seeds, best of five interleaved runs of
``--speed-games`` games).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.util
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.tools.simulate import bot_seed, game_seeds

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054


def old_bots(commit: str) -> ModuleType:
    """interpreter/bots.py at ``commit``, with the bot_*.py modules it is split into there,
    loaded as clankwork.interpreter._old_bots (and _old_bot_*): their imports of each other
    are pointed at the old copies, their other relative imports reach this checkout's
    engine."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", commit, "interpreter/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    folder = Path(tempfile.mkdtemp(prefix="old-bots-"))
    names = []
    for path in listed:
        stem = Path(path).stem
        if path.endswith(".py") and (stem == "bots" or stem.startswith("bot_")):
            text = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{commit}:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            text = re.sub(r"from \.(bots?\b|bot_)", r"from ._old_\1", text)
            (folder / f"_old_{stem}.py").write_text(text)
            names.append(f"_old_{stem}")
    sys.meta_path.insert(0, _OldBots(folder, set(names)))
    return importlib.import_module("clankwork.interpreter._old_bots")


class _OldBots(importlib.abc.MetaPathFinder):
    """Finds clankwork.interpreter._old_bot* in the folder `old_bots` wrote them to."""

    def __init__(self, folder: Path, names: set[str]) -> None:
        self.folder, self.names = folder, names

    def find_spec(self, fullname: str, path: object, target: object = None) -> object:
        prefix, _, name = fullname.rpartition(".")
        if prefix != "clankwork.interpreter" or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.folder / f"{name}.py")


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="the commit whose bot plays against this one")
    ap.add_argument("--games", type=int, default=2000, help="games (an even number: seat pairs)")
    ap.add_argument("--pack", default="acqinc", help="a bundled pack under content/")
    ap.add_argument("--board", default=None, help="the pack's board to play on (default: first)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--players", type=int, default=2, help="players a game (the new bot in alternate seats)"
    )
    ap.add_argument("--bot", default="heuristic", help="the bot name compared (search:N too)")
    ap.add_argument(
        "--vs",
        default=None,
        help="another bot of this checkout to play against instead of --old's (search:8 "
        "against heuristic: --bot search:8 --vs heuristic)",
    )
    ap.add_argument("--speed-games", type=int, default=40, help="games a speed run (0: none)")
    args = ap.parse_args()

    result = compile_pack(ROOT / "content" / args.pack)
    if not result.ok:
        raise SystemExit(f"{args.pack}: the pack does not compile")
    cat = prepare(result.ir, args.board) if args.board else prepare(result.ir)
    if args.vs:
        vs = args.vs
        old = SimpleNamespace(make_bot=lambda name, seed: make_bot(vs, seed))
        args.old = f"{vs} (this checkout)"
    else:
        old = old_bots(args.old)
    pairs = max(1, args.games // 2)
    players = args.players
    points = 0.0
    diffs: list[float] = []
    t0 = time.perf_counter()
    for s in game_seeds(args.seed, pairs):
        for flip in (0, 1):
            # The new bot in every other seat (seat 1, or seats 1 and 3...), then the others.
            mine = {k for k in range(players) if k % 2 == flip}
            seats = [
                make_bot(args.bot, bot_seed(s, k))
                if k in mine
                else old.make_bot(args.bot, bot_seed(s, k))
                for k in range(players)
            ]
            r = Game(cat, seats, s).play()
            if r.winners:
                points += sum(w in mine for w in r.winners) / len(r.winners)
            else:
                points += len(mine) / players
            ours = sum(r.scores[k] for k in mine) / len(mine)
            theirs = sum(r.scores[k] for k in range(players) if k not in mine)
            diffs.append(ours - theirs / (players - len(mine)))
    n = len(diffs)
    share = sum(len({k for k in range(players) if k % 2 == f}) for f in (0, 1)) / (2 * players)
    lo, hi = wilson(points, n)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
    half = Z95 * sd / math.sqrt(n)
    where = f"{args.pack} on {args.board}" if args.board else args.pack
    print(
        f"{where}, {players} players, {n} games ({pairs} seeds, the new bot in alternate "
        f"seats, then the others), old = {args.old}"
    )
    print(
        f"new {args.bot} share of the wins: {points / n:.3f}  (95% CI {lo:.3f}-{hi:.3f}; "
        f"as strong as the old one: {share:.3f})"
    )
    print(f"score new - old: {mean:+.2f}  (95% CI {mean - half:+.2f} to {mean + half:+.2f})")
    print(f"{time.perf_counter() - t0:.1f} s")
    if args.speed_games:
        speed(cat, old, args)


def speed(cat: object, old: ModuleType, args: argparse.Namespace) -> None:
    """Player-turns a second, four old bots against four new ones on the same seeds."""
    seeds = game_seeds(args.seed + 1, args.speed_games)
    makers = {"old": old.make_bot, "new": make_bot}
    best: dict[str, float] = {}
    for _ in range(5):
        for name, make in makers.items():
            # CPU time, not the wall clock: the machine may be shared.
            t0 = time.process_time()
            turns = 0
            for s in seeds:
                seats = [make(args.bot, bot_seed(s, k)) for k in range(4)]
                turns += Game(cat, seats, s).play().turns
            tps = turns / max(1e-9, time.process_time() - t0)
            best[name] = max(best.get(name, 0.0), tps)
    print(
        f"4 players, {args.speed_games} games, best of 5: old {best['old']:.0f}, "
        f"new {best['new']:.0f} player-turns per CPU-second "
        f"(new/old {best['new'] / best['old']:.3f})"
    )


if __name__ == "__main__":
    main()
