"""One failed game never loses the run: `clankwork simulate` reports the games that finished,
lists the ones that failed with their seed and the command that replays each, keeps their
logs, and exits 1, in one process, in several (--jobs) and on a Dask cluster."""

from __future__ import annotations

import copy
import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator

from clankwork.interpreter import turn
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import LogError, read_log
from clankwork.tools import simulate as sim
from clankwork.tools.check import load_ir
from clankwork.tools.simulate import GAME_FAILED, command, game_seed, game_seeds, log_name

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = str(ROOT / "content" / "tutorial")
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
# Games 3 and 7 of a run with --seed 1 fail on their fourth turn.
FAILING = (3, 7)
ARGS = [TUTORIAL, "-n", "10", "-p", "2", "--bots", "greedy", "--seed", "1"]


def run(*args: str) -> Result:
    return CliRunner().invoke(command, list(args))


@pytest.fixture
def crashing(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The engine raises at the end of turn 4 of the games numbered FAILING of run seed 1
    (forked --jobs workers inherit it)."""
    bad = {game_seed(1, i) for i in FAILING}
    end_turn = turn.end_turn

    def failing_end_turn(game: Game, player: Any) -> None:
        if game.seed in bad and game.turn == 4:
            raise RuntimeError("the engine broke on purpose")
        end_turn(game, player)

    # The turn's procedure, which the round loop calls (Game.end_turn names it too).
    monkeypatch.setattr(turn, "end_turn", failing_end_turn)
    return bad


def test_game_seed_is_the_runs_nth_seed() -> None:
    seeds = game_seeds(9, 40)
    assert [game_seed(9, i) for i in range(40)] == seeds


def test_the_other_games_are_reported_and_the_failures_listed(
    crashing: set[int], tmp_path: Path
) -> None:
    out, logs = tmp_path / "run.json", tmp_path / "logs"
    page = tmp_path / "run.html"
    result = run(*ARGS, "--json", str(out), "--html", str(page), "--log-dir", str(logs))
    assert result.exit_code == GAME_FAILED == 1
    assert "Traceback" not in result.stderr
    # The text report of the eight games that finished, then the two that failed.
    assert result.stdout.startswith("tutorial 0.1.0 on overworld: 8 games, 2 players")
    assert "FAILED: 2 games failed and are not counted here" in result.stdout
    replay = f"clankwork simulate {TUTORIAL} -p 2 --bots greedy --seed 1 --game 3"
    assert f"game 3 (seed {game_seed(1, 3)}), turn 4: RuntimeError: the engine broke" in (
        result.stdout
    )
    assert f"replay: {replay}" in result.stdout
    assert f"log: {logs / log_name(3)}" in result.stdout
    assert "Error: 2 of 10 games failed" in result.stderr and replay in result.stderr
    # The JSON report: the eight games, and the two failures with what replays them.
    rep = json.loads(out.read_text())
    assert not [e.message for e in Draft202012Validator(SCHEMA).iter_errors(rep)]
    assert rep["games"] == 8 and rep["failed"] == 2
    assert [g["game"] for g in rep["results"]] == [0, 1, 2, 4, 5, 6, 8, 9]
    assert rep["failures"] == [
        {
            "game": i,
            "seed": game_seed(1, i),
            "turn": 4,
            "error": "RuntimeError: the engine broke on purpose",
            "replay": f"clankwork simulate {TUTORIAL} -p 2 --bots greedy --seed 1 --game {i}",
            "log": str(logs / log_name(i)),
        }
        for i in FAILING
    ]
    # The failed games' logs are kept, cut short where they failed; the others are whole.
    for i in range(10):
        text = (logs / log_name(i)).read_text()
        if i in FAILING:
            with pytest.raises(LogError, match="without a result record"):
                read_log(text)
        else:
            read_log(text)
    html = page.read_text()
    assert "<h2>Failed games</h2>" in html and "RuntimeError: the engine broke" in html
    assert "2 games failed" in html


def test_several_processes_report_the_same_failures(crashing: set[int], tmp_path: Path) -> None:
    texts = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        # 60 games: three chunks, so the two workers both play.
        args = [*ARGS[:2], "60", *ARGS[3:]]
        result = run(*args, "--jobs", jobs, "--json", str(out))
        assert result.exit_code == GAME_FAILED, result.stderr
        texts[jobs] = out.read_bytes()
    assert texts["2"] == texts["1"]
    rep = json.loads(texts["1"])
    assert rep["games"] == 58 and [f["game"] for f in rep["failures"]] == list(FAILING)


def test_the_replay_command_plays_the_failed_game_again(crashing: set[int]) -> None:
    result = run(*ARGS)
    replay = next(
        line.split("replay: ", 1)[1] for line in result.stdout.splitlines() if "replay: " in line
    )
    words = shlex.split(replay)
    assert words[:2] == ["clankwork", "simulate"]
    again = run(*words[2:])
    assert again.exit_code == GAME_FAILED
    assert again.stdout.startswith("tutorial 0.1.0 on overworld: 0 games, 2 players")
    assert f"game 3 (seed {game_seed(1, 3)}), turn 4: RuntimeError" in again.stdout


def test_one_game_of_a_run_is_the_same_game_alone(tmp_path: Path) -> None:
    whole, alone = tmp_path / "whole.json", tmp_path / "alone.json"
    base = [TUTORIAL, "-p", "3", "--bots", "heuristic", "--seed", "4"]
    assert run(*base, "-n", "6", "--json", str(whole)).exit_code == 0
    assert run(*base, "--game", "5", "--json", str(alone)).exit_code == 0
    rep = json.loads(alone.read_text())
    assert rep["games"] == 1 and rep["failed"] == 0 and rep["failures"] == []
    assert rep["results"] == [json.loads(whole.read_text())["results"][5]]


@pytest.mark.parametrize(
    ("extra", "said"),
    [(["-n", "5"], "leave out --games"), (["--until-ci", "0.1"], "leave out --until-ci")],
)
def test_game_is_one_game(extra: list[str], said: str) -> None:
    result = run(TUTORIAL, "-p", "2", "--game", "3", *extra)
    assert result.exit_code == 2 and said in result.stderr


def test_a_variant_runs_failures_are_listed_with_its_option(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Only the variant without Lucky Coin fails, on game 2.
    end_turn = turn.end_turn
    bad = game_seed(1, 2)

    def failing_end_turn(game: Game, player: Any) -> None:
        lucky = any(c.name == "Lucky Coin" for c in game.catalog.cards if c.copies)
        if game.seed == bad and game.turn == 4 and not lucky:
            raise RuntimeError("the variant broke")
        end_turn(game, player)

    monkeypatch.setattr(turn, "end_turn", failing_end_turn)
    out = tmp_path / "run.json"
    result = run(*ARGS[:2], "4", *ARGS[3:], "--without", "Lucky Coin", "--json", str(out))
    assert result.exit_code == GAME_FAILED
    rep = json.loads(out.read_text())
    assert not [e.message for e in Draft202012Validator(SCHEMA).iter_errors(rep)]
    assert rep["games"] == 4 and rep["failed"] == 1
    (f,) = rep["failures"]
    assert f["change"] == "without Lucky Coin" and f["game"] == 2
    assert f["replay"].endswith("--seed 1 --game 2 --without 'Lucky Coin'")
    assert "game 2 of the variant without Lucky Coin" in result.stdout


def broken_tutorial() -> dict[str, Any]:
    """The tutorial's IR with Lucky Coin giving a resource no pack has: the games in which
    a bot plays it fail (the IR a worker of any kind is sent, no patch needed)."""
    ir = copy.deepcopy(load_ir(Path(TUTORIAL)))
    coin = next(c for c in ir["cards"] if c["name"] == "Lucky Coin")
    coin["triggers"] = [
        {"on": "play", "effects": [{"op": "gain", "amount": 1, "resource": "nonesuch"}]}
    ]
    return ir


def test_a_failure_in_the_pack_fails_the_same_games_on_a_dask_cluster(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(sim, "load_pack", lambda pack: broken_tutorial())
    texts = {}
    for name, extra in {"one": [], "dask": ["--dask", "local", "--jobs", "2"]}.items():
        out = tmp_path / f"{name}.json"
        args = [TUTORIAL, "-n", "60", "-p", "2", "--bots", "heuristic", "--seed", "5"]
        result = run(*args, *extra, "--json", str(out))
        assert result.exit_code == GAME_FAILED, result.stderr
        texts[name] = out.read_bytes()
    assert texts["dask"] == texts["one"]
    rep = json.loads(texts["one"])
    assert 0 < rep["failed"] < 60 and rep["games"] == 60 - rep["failed"]
    assert {f["error"] for f in rep["failures"]} == {"ValueError: unknown resource 'nonesuch'"}
