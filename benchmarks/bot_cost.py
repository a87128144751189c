"""What the bot itself costs a player-turn, this checkout's against another commit's.

Run: .venv/bin/python benchmarks/bot_cost.py [--old COMMIT] [--games N] [--pack acqinc]
     [--players 4] [--repeat 5] [--bot heuristic]

`benchmarks/bench_sim.py` times whole games, engine and bots together. This splits them: the
same seeds are played three ways in one process on this checkout's engine, alternating, best
of ``--repeat``:

- with the old bot (interpreter/bots.py at ``--old``, loaded as `bot_strength.py` does);
- with this checkout's bot;
- from a tape: every answer the new bot gave, played back by a bot that only reads it, so the
  time is the engine's alone (the same decisions, the same game).

Each bot's cost is its games' CPU time less the tape's, per player-turn. The old bot must
decide as the new one does for its figure to be a fair comparison (`bot_digest.py` checks
that); the script says when the two played different games.

The old bot is loaded from its source (`bot_strength.old_bots`), so it always runs as Python:
with this checkout's bot compiled (the core built) the two would compare the builds, not the
commits (an A/A run, ``--old HEAD``, read 1.32). The script then stops unless
``CLANKWORK_CORE=python`` runs this side as Python too, or ``--cores-may-differ`` asks for the
figures anyway.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import old_bots  # noqa: E402

from clankwork.dsl.compiler import compile_pack  # noqa: E402
from clankwork.interpreter import bots as bots_module  # noqa: E402
from clankwork.interpreter.bots import make_bot  # noqa: E402
from clankwork.interpreter.catalog import prepare  # noqa: E402
from clankwork.interpreter.game import Game  # noqa: E402
from clankwork.interpreter.log import to_jsonl  # noqa: E402
from clankwork.tools.simulate import bot_seed, game_seeds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WARM_UP = 3


class _Recording:
    """A bot that answers as ``bot`` does and writes every answer down."""

    def __init__(self, bot: Any, tape: list[Any]) -> None:
        self.bot, self.tape = bot, tape
        self.name = bot.name  # the log names the bots
        if getattr(bot, "play_first", None) is None:
            self.play_first = None  # type: ignore[assignment]
        if getattr(bot, "choose_action", None) is None:
            self.choose_action = None  # type: ignore[assignment]

    def choose(self, view: Any, decision: Any) -> Any:
        answer = self.bot.choose(view, decision)
        self.tape.append(answer)
        return answer

    def play_first(self, view: Any, p: Any) -> Any:
        answer = self.bot.play_first(view, p)
        self.tape.append(answer)
        return answer

    def choose_action(self, view: Any, p: Any, options: Any, groups: Any) -> Any:
        answer = self.bot.choose_action(view, p, options, groups)
        self.tape.append(answer)
        return answer


class _Tape:
    """A bot that gives back the recorded answers, in order."""

    def __init__(self, tape: list[Any], name: str) -> None:
        self._next = iter(tape).__next__
        self.name = name  # the log names the bots

    def choose(self, view: Any, decision: Any) -> Any:
        return self._next()

    def play_first(self, view: Any, p: Any) -> Any:
        return self._next()

    def choose_action(self, view: Any, p: Any, options: Any, groups: Any) -> Any:
        return self._next()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="the commit whose bot is compared")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--pack", default="acqinc", help="a bundled pack under content/")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--bot", default="heuristic", help="the bot name compared")
    ap.add_argument(
        "--cores-may-differ",
        action="store_true",
        help="print the figures even though the old bot runs as Python and the new compiled",
    )
    args = ap.parse_args()
    compiled = not bots_module.__file__.endswith(".py")
    if compiled and not args.cores_may_differ:
        raise SystemExit(
            "this checkout's bot runs compiled and the old one from its source, as Python: the "
            "ratio would compare the builds (run with CLANKWORK_CORE=python, or "
            "--cores-may-differ to print the figures anyway)"
        )

    result = compile_pack(ROOT / "content" / args.pack)
    if not result.ok:
        raise SystemExit(f"{args.pack}: the pack does not compile")
    cat = prepare(result.ir)
    old = old_bots(args.old)
    n = args.players

    def play(seeds: list[int], make: Any) -> tuple[int, list[Game]]:
        turns, games = 0, []
        for s in seeds:
            game = Game(cat, [make(s, k) for k in range(n)], s)
            turns += game.play().turns
            games.append(game)
        return turns, games

    def logs(games: list[Game]) -> list[str]:
        return [to_jsonl(g.log) for g in games]

    play(game_seeds(2, WARM_UP), lambda s, k: make_bot(args.bot, bot_seed(s, k)))
    play(game_seeds(2, WARM_UP), lambda s, k: old.make_bot(args.bot, bot_seed(s, k)))
    seeds = game_seeds(1, args.games)
    tapes: dict[tuple[int, int], list[Any]] = {}

    def recording(s: int, k: int) -> Any:
        tape = tapes[s, k] = []
        return _Recording(make_bot(args.bot, bot_seed(s, k)), tape)

    turns, recorded = play(seeds, recording)
    reference = logs(recorded)
    sides = {
        "old": lambda s, k: old.make_bot(args.bot, bot_seed(s, k)),
        "new": lambda s, k: make_bot(args.bot, bot_seed(s, k)),
        "tape": lambda s, k: _Tape(tapes[s, k], args.bot),
    }
    best: dict[str, float] = {}
    same = True
    for _ in range(args.repeat):
        for name, make in sides.items():
            t0 = time.process_time()
            got, games = play(seeds, make)
            cpu = time.process_time() - t0
            best[name] = min(best.get(name, float("inf")), cpu / got * 1e6)
            if logs(games) != reference:
                same = False
            del games
    engine = best["tape"]
    old_bot, new_bot = best["old"] - engine, best["new"] - engine
    print(
        f"{args.pack}, {n} players, {args.games} games ({turns} player-turns), best of "
        f"{args.repeat}; old = {args.old}"
    )
    print(f"new bot: {'compiled' if compiled else 'Python'}; old bot: Python (from its source)")
    print(f"engine alone (tape)   {engine:7.1f} us a player-turn")
    print(f"old {args.bot:<17} {old_bot:7.1f} us a player-turn on top")
    print(f"new {args.bot:<17} {new_bot:7.1f} us a player-turn on top")
    print(f"the bot's cost, old/new: {old_bot / new_bot:.2f}")
    if not same:
        print("note: the old and new bots played different games (see bot_digest.py)")


if __name__ == "__main__":
    main()
