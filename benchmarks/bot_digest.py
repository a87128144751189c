"""Whether this checkout's bot decides exactly as another commit's, game by game.

Run: .venv/bin/python benchmarks/bot_digest.py [--old COMMIT] [--games N]
     [--packs acqinc,tutorial,clank,vault,space] [--players 2,4] [--bot heuristic]

The old bot is interpreter/bots.py at ``--old`` (default: main), loaded into this checkout's
engine as `benchmarks/bot_strength.py` does, so only the bots differ. Every seat is the old bot
in one game and the new bot in its twin, on the same seed; each game's whole log (every
decision, every card drawn, the result) is hashed. A speed change to the bot should leave
every hash as it was: the script prints, per pack and player count, how many of the games
differ, and for the first that does, the first log line where the two part. It exits 1 when
any game differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import old_bots  # noqa: E402

from clankwork.dsl.compiler import compile_pack  # noqa: E402
from clankwork.interpreter.bots import make_bot  # noqa: E402
from clankwork.interpreter.catalog import prepare  # noqa: E402
from clankwork.interpreter.game import Game  # noqa: E402
from clankwork.tools.simulate import bot_seed, game_seeds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _log(cat: object, make: object, bot: str, seed: int, players: int) -> list[str]:
    seats = [make(bot, bot_seed(seed, k)) for k in range(players)]  # type: ignore[operator]
    game = Game(cat, seats, seed)  # type: ignore[arg-type]
    game.play()
    return [json.dumps(r, sort_keys=True, default=str) for r in game.log]


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="the commit whose bot is the reference")
    ap.add_argument("--games", type=int, default=40, help="seeds per pack and player count")
    ap.add_argument("--packs", default="acqinc,tutorial,clank,vault,space")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bot", default="heuristic", help="the bot name compared")
    args = ap.parse_args()

    old = old_bots(args.old)
    differ = 0
    for pack in args.packs.split(","):
        result = compile_pack(ROOT / "content" / pack)
        if not result.ok:
            raise SystemExit(f"{pack}: the pack does not compile")
        cat = prepare(result.ir)
        for players in (int(n) for n in args.players.split(",")):
            bad = 0
            first = None
            every = hashlib.sha256()
            for s in game_seeds(args.seed, args.games):
                a = _log(cat, old.make_bot, args.bot, s, players)
                b = _log(cat, make_bot, args.bot, s, players)
                every.update(_digest(b).encode())
                if a != b:
                    bad += 1
                    if first is None:
                        k = next(
                            (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                            min(len(a), len(b)),
                        )
                        first = (s, k, a[k] if k < len(a) else "", b[k] if k < len(b) else "")
            differ += bad
            print(
                f"{pack:<10}{players} players  {args.games} games  "
                f"{bad} differ  (new logs {every.hexdigest()[:16]})"
            )
            if first is not None:
                s, k, x, y = first
                print(f"  first: seed {s}, log line {k}\n    old {x}\n    new {y}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
