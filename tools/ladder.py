"""`clankwork ladder`: how much skill matters in a pack.

Each rung of the ladder (random, greedy, heuristic, then the search bot at rising budgets)
plays against the rung below it: the stronger bot in one seat, the weaker one in every other
seat, the stronger bot's seat turning from game to game so that seat order cancels out. The
stronger bot's share of the wins is printed with its 95% Wilson interval next to what it
would be if skill did not matter (one over the number of players), with the CPU time a game
of that rung cost. A pack where every step wins far above the baseline rewards skill; one
where the steps are near it is decided by luck.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.bots import make_bot, parse_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import wilson

from .check import load_ir
from .packs import PACK
from .simulate import bot_seed, game_seeds

# The rungs when none are named: every bot, weakest first, the search bot at two budgets (below
# 4 playouts an option it plays as the heuristic bot: `bot_search.MIN_PLAYOUTS`).
RUNGS = ("random", "greedy", "heuristic", "search:4", "search:8")


@dataclass(frozen=True)
class Rung:
    """One step of the ladder: ``strong`` against ``weak``, over ``games`` games, ``decided``
    of them with a winner (a shared win split between its winners)."""

    strong: str
    weak: str
    games: int
    wins: float
    seconds: float
    players: int
    decided: int

    @property
    def share(self) -> float:
        """The stronger bot's share of the games with a winner."""
        return self.wins / self.decided if self.decided else 0.0

    def line(self) -> str:
        """The rung as one line of the ladder."""
        lo, hi = wilson(round(self.wins), self.decided)
        undecided = self.games - self.decided
        return (
            f"{self.strong:<11} vs {self.players - 1} {self.weak:<11} wins {self.share:6.1%} "
            f"[{lo:.1%}–{hi:.1%}] (no skill: {1 / self.players:.1%}), "
            f"{self.seconds / max(1, self.games):.3f} s a game, {self.games} games"
            + (f" ({undecided} without a winner left out)" if undecided else "")
        )


_CATALOG: list[Catalog] = []


def _init(ir: dict[str, Any]) -> None:
    _CATALOG[:] = [prepare(ir)]


def _game(job: tuple[str, str, int, int, int]) -> tuple[float, bool, float]:
    """One game of a rung: (the stronger bot's share of the win, whether anyone won, CPU
    seconds)."""
    strong, weak, players, seed, seat = job
    t0 = time.process_time()
    bots = [make_bot(strong if k == seat else weak, bot_seed(seed, k)) for k in range(players)]
    r = Game(_CATALOG[0], bots, seed, keep_log=False).play()
    win = 1.0 / len(r.winners) if seat in r.winners else 0.0
    return win, bool(r.winners), time.process_time() - t0


def climb(
    ir: dict[str, Any],
    rungs: Sequence[str],
    players: int,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    games_for: Callable[[str], int] | None = None,
) -> list[Rung]:
    """Play every rung of the ladder (``games_for(bot)``: the games of the rung whose
    stronger bot is ``bot``; ``games`` when not given). The same arguments give the same
    ladder for any ``jobs``."""
    for name in rungs:
        parse_bot(name)  # a ValueError names a bad one
    out = []
    for weak, strong in zip(rungs, rungs[1:], strict=False):
        n = games_for(strong) if games_for is not None else games
        seeds = game_seeds(seed, n)
        jobs_list = [(strong, weak, players, s, k % players) for k, s in enumerate(seeds)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs, initializer=_init, initargs=(ir,)) as pool:
                results = list(pool.map(_game, jobs_list, chunksize=max(1, n // (4 * jobs))))
        else:
            _init(ir)
            results = [_game(j) for j in jobs_list]
        wins = sum(w for w, _, _ in results)
        decided = sum(1 for _, d, _ in results if d)
        seconds = sum(t for _, _, t in results)
        out.append(Rung(strong, weak, n, wins, seconds, players, decided))
    return out


@click.command("ladder")
@click.argument("pack", required=False, type=PACK)
@click.option("--players", "-p", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1),
    default=200,
    show_default=True,
    help="Games a rung of cheap bots (random, greedy, heuristic).",
)
@click.option(
    "--search-games",
    type=click.IntRange(1),
    default=40,
    show_default=True,
    help="Games a rung whose stronger bot is a search bot (seconds a game).",
)
@click.option(
    "--rungs",
    default=",".join(RUNGS),
    show_default=True,
    help="The bots of the ladder, weakest first (search:N: N playouts an option).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True)
def command(
    pack: Path | None,
    players: int,
    games: int,
    search_games: int,
    rungs: str,
    seed: int,
    jobs: int,
) -> None:
    """Print PACK's strength ladder: each bot's win rate against the one below it.

    PACK is a pack folder or a bundled pack's name (default: the bundled flagship pack)."""
    ir = load_ir(pack)  # exits on errors
    names = [r.strip() for r in rungs.split(",") if r.strip()]
    if len(names) < 2:
        raise click.BadParameter("name two bots or more, weakest first", param_hint="--rungs")
    try:
        ladder = climb(
            ir,
            names,
            players,
            games,
            seed,
            jobs,
            games_for=lambda b: search_games if parse_bot(b)[0] == "search" else games,
        )
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--rungs") from None
    name = ir["pack"]["name"]
    click.echo(
        f"{name}, {players} players: each bot in one seat against the bot below it in the others"
    )
    for rung in ladder:
        click.echo(rung.line())
