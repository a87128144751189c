"""`clankwork simulate`: play many bot games of a pack and summarise them."""

from __future__ import annotations

import importlib.resources
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.bots import BOTS, make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.scoring import GameResult


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of each game of a run: a run's games never share a seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


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
        if n not in BOTS:
            raise ValueError(f"unknown bot {n!r}; known: {', '.join(BOTS)}")
    return names


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
    names = bot_names(bots if bots is not None else "greedy", players)
    results = []
    for s in game_seeds(seed, games):
        seats = [make_bot(name, bot_seed(s, k)) for k, name in enumerate(names)]
        results.append(Game(catalog, seats, s, rules=rules).play())
    return results


def _mean(values: Sequence[float]) -> float:
    return round(statistics.fmean(values), 3) if values else 0.0


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Totals over a run: wins by seat (in turn order), scores, lengths, escapes, deaths."""
    players = max((r.players for r in results), default=0)
    wins = [0] * players
    for r in results:
        for w in r.winners:
            wins[r.seat_of(w)] += 1
    rounds = [r.rounds for r in results]
    return {
        "games": len(results),
        "players": players,
        "wins_by_seat": wins,
        "no_winner": sum(1 for r in results if not r.winners),
        "mean_score": _mean([s for r in results for s in r.scores]),
        "mean_winning_score": _mean([max(r.scores) for r in results if r.winners]),
        "mean_rounds": _mean(rounds),
        "median_rounds": statistics.median(rounds) if rounds else 0,
        "min_rounds": min(rounds, default=0),
        "max_rounds": max(rounds, default=0),
        "escapes": sum(r.escapes for r in results),
        "knockouts": sum(r.knockouts for r in results),
        "zero_scores": sum(sum(r.zeroed) for r in results),
        "everyone_knocked_out": sum(1 for r in results if r.all_knocked_out),
        "capped": sum(1 for r in results if r.capped),
        "end_reasons": dict(sorted(Counter(r.end_reason for r in results).items())),
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a small table for the terminal."""
    games = summary["games"] or 1
    lines = [f"{summary['games']} games, {summary['players']} players"]
    lines.append("")
    lines.append("seat  wins  win rate")
    for k, w in enumerate(summary["wins_by_seat"]):
        lines.append(f"{k + 1:>4}  {w:>4}  {w / games:>7.1%}")
    lines.append("")
    rows = [
        ("no winner", summary["no_winner"]),
        ("mean score", summary["mean_score"]),
        ("mean winning score", summary["mean_winning_score"]),
        (
            "rounds (mean / median / min-max)",
            f"{summary['mean_rounds']} / {summary['median_rounds']} / "
            f"{summary['min_rounds']}-{summary['max_rounds']}",
        ),
        ("escapes", summary["escapes"]),
        ("knock-outs", summary["knockouts"]),
        ("scored zero", summary["zero_scores"]),
        ("everyone knocked out", summary["everyone_knocked_out"]),
        ("capped games", summary["capped"]),
    ]
    rows += [(f"ended by: {k}", v) for k, v in summary["end_reasons"].items()]
    width = max(len(k) for k, _ in rows)
    lines += [f"{k:<{width}}  {v}" for k, v in rows]
    return "\n".join(lines)


def _compile(pack: Path | None) -> Any:
    from clankwork.dsl.compiler import compile_pack
    from clankwork.dsl.diagnostics import format_human

    if pack is None:
        with importlib.resources.as_file(
            importlib.resources.files("clankwork.content") / "tutorial"
        ) as path:
            result = compile_pack(path)
    else:
        result = compile_pack(pack)
    if not result.ok:
        click.echo(format_human(result.diagnostics, result.sources), err=True)
        raise SystemExit(1)
    return result.ir


@click.command("simulate")
@click.argument("pack", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--games", "-n", default=100, show_default=True, help="Games to play.")
@click.option("--players", "-p", default=4, show_default=True, help="Players per game.")
@click.option("--seed", "-s", default=1, show_default=True, help="Seed of the whole run.")
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="Bot names, comma-separated: one for every seat, or one per seat (greedy, random).",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the summary and every game's result to this JSON file.",
)
def command(
    pack: Path | None, games: int, players: int, seed: int, bots: str, json_file: Path | None
) -> None:
    """Play bot games of PACK (default: the bundled tutorial) and print a summary."""
    ir = _compile(pack)
    try:
        names = bot_names(bots, players)
        catalog = prepare(ir)
        lo, hi = catalog.rules["min_players"], catalog.rules["max_players"]
        if not lo <= players <= hi:
            raise ValueError(f"this pack plays with {lo} to {hi} players")
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    start = time.perf_counter()
    results = run_games(catalog, games, players, seed, names)
    elapsed = time.perf_counter() - start
    summary = summarize(results)
    click.echo(format_summary(summary))
    click.echo(
        f"{games} games in {elapsed:.2f} s ({games / max(elapsed, 1e-9):.0f} games/s)", err=True
    )
    if json_file is not None:
        doc = {
            "pack": catalog.name,
            "seed": seed,
            "bots": names,
            "summary": summary,
            "games": [{"seed": r.seed, **r.record()} for r in results],
        }
        json_file.write_text(json.dumps(doc, indent=1) + "\n")
    sys.stdout.flush()
