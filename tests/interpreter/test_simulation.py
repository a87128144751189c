"""Many games: every game ends, and nothing is created or lost on the way."""

from __future__ import annotations

import json
import statistics

import pytest
from click.testing import CliRunner

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.invariants import check_invariants
from clankwork.tools.simulate import command, format_summary, run_games, summarize


@pytest.fixture(scope="module")
def cat(tutorial_ir: dict) -> Catalog:
    return prepare(tutorial_ir)


def test_greedy_four_player_games_all_end(cat: Catalog) -> None:
    results = run_games(cat, 200, 4, seed=1)
    assert len(results) == 200
    for r in results:
        assert not r.capped, r
        assert r.winners or r.all_knocked_out
        assert all(s != "on" for s in r.status)
        assert r.rounds < cat.rules["round_cap"]
    assert 10 <= statistics.median(r.rounds for r in results) <= 30
    # Greedy bots finish like people do: most of them get home.
    assert sum(r.escapes for r in results) >= 2 * len(results)


def test_random_games_conserve_cards_cubes_and_tokens(cat: Catalog) -> None:
    checked = 0

    def check(game: Game) -> None:
        nonlocal checked
        problems = check_invariants(game)
        assert not problems, (game.seed, game.turn, problems)
        checked += 1

    for seed in range(240):
        players = 2 + seed % 3
        bots = [make_bot("random", seed * 10 + k) for k in range(players)]
        result = Game(cat, bots, seed).play(after_turn=check)
        assert result.rounds <= cat.rules["round_cap"]
    assert checked > 240 * 20


def test_same_run_same_summary(cat: Catalog) -> None:
    a = summarize(run_games(cat, 20, 3, seed=9, bots="greedy,random,greedy"))
    b = summarize(run_games(cat, 20, 3, seed=9, bots=("greedy", "random", "greedy")))
    assert a == b
    assert a["games"] == 20 and sum(a["wins_by_seat"]) >= 20 - a["no_winner"]
    text = format_summary(a)
    assert "seat" in text and "capped games" in text
    with pytest.raises(ValueError, match="unknown bot"):
        run_games(cat, 1, 2, seed=1, bots="smart")


def test_simulate_command(tmp_path) -> None:
    out = tmp_path / "run.json"
    runner = CliRunner()
    args = ["--games", "5", "--players", "3", "--seed", "4", "--json", str(out)]
    first = runner.invoke(command, args)
    assert first.exit_code == 0, first.output
    assert "5 games, 3 players" in first.stdout
    doc = json.loads(out.read_text())
    assert doc["summary"]["games"] == 5 and len(doc["games"]) == 5
    assert runner.invoke(command, args).stdout == first.stdout


def test_simulate_command_rejects_a_broken_pack(broken_dir) -> None:
    result = CliRunner().invoke(command, [str(broken_dir), "--games", "1"])
    assert result.exit_code == 1
    assert "error[" in result.stderr


def test_simulate_command_checks_arguments(tutorial_dir) -> None:
    runner = CliRunner()
    bad = runner.invoke(command, [str(tutorial_dir), "--players", "5"])
    assert bad.exit_code == 2 and "2 to 4 players" in bad.stderr
    bad = runner.invoke(command, [str(tutorial_dir), "--bots", "greedy,random"])
    assert bad.exit_code == 2
