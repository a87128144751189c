"""`clankwork simulate`: the report as a table and as JSON, processes, logs and the heatmap."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.tools.simulate import command, game_seeds, log_name

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(command, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_report_schema_is_valid_and_closed() -> None:
    Draft202012Validator.check_schema(SCHEMA)

    def objects(node: object, path: str = "#") -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, path
            for k, v in node.items():
                objects(v, f"{path}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                objects(v, f"{path}/{i}")

    objects(SCHEMA)


@pytest.fixture(scope="module")
def acqinc_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, Path]:
    out = tmp_path_factory.mktemp("sim")
    code, stdout, stderr = run(
        str(ROOT / "content" / "acqinc"),
        "-n",
        "60",
        "-p",
        "4",
        "--seed",
        "7",
        "--bots",
        "greedy,random,greedy,greedy",
        "--json",
        str(out / "run.json"),
        "--log-dir",
        str(out / "logs"),
    )
    assert code == 0, stderr
    return json.loads((out / "run.json").read_text()), stdout, out


def test_json_report_follows_its_schema(acqinc_report: tuple[dict, str, Path]) -> None:
    rep, _, _ = acqinc_report
    errors = list(Draft202012Validator(SCHEMA).iter_errors(rep))
    assert not errors, [e.message for e in errors[:5]]
    assert rep["pack"] == {"name": "acqinc", "version": "0.1.0"}
    assert rep["games"] == 60 and len(rep["results"]) == 60
    assert rep["bots"] == ["greedy", "random", "greedy", "greedy"]
    assert [g["seed"] for g in rep["results"]] == game_seeds(7, 60)


def test_report_figures_add_up(acqinc_report: tuple[dict, str, Path]) -> None:
    rep, _, _ = acqinc_report
    games = rep["results"]
    wins = rep["wins"]
    total_wins = sum(len(g["winners"]) for g in games)
    assert sum(s["wins"] for s in wins["by_seat"]) == total_wins
    assert sum(p["wins"] for p in wins["by_player"]) == total_wins
    # The random bot is no match for three greedy ones.
    assert wins["by_player"][1]["wins"] < min(wins["by_player"][k]["wins"] for k in (0, 2, 3))
    scores = [s for g in games for s in g["scores"]]
    dist = rep["scores"]["all"]
    assert dist["min"] == min(scores) and dist["max"] == max(scores)
    assert dist["min"] <= dist["q1"] <= dist["median"] <= dist["q3"] <= dist["max"]
    rounds = rep["rounds"]
    assert rounds["max"] == max(g["rounds"] for g in games)
    assert rounds["median"] <= rounds["p95"] <= rounds["max"]
    statuses = [s for g in games for s in g["status"]]
    assert rep["escapes"]["total"] == statuses.count("escaped")
    assert rep["knockouts"]["total"] == statuses.count("knocked out")
    assert rep["deaths"]["total"] == sum(sum(g["zeroed"]) for g in games)
    assert {k: rep["capped"][k] for k in ("count", "round_cap", "games")} == {
        "count": 0,
        "round_cap": 60,
        "games": [],
    }
    assert rep["capped"]["rate"] == 0 and rep["capped"]["rate_ci"]["low"] == 0
    assert sum(rep["end_reasons"].values()) == 60
    taken = sum(a["taken"] for a in rep["artifacts"])
    assert taken >= rep["escapes"]["total"]  # nobody escapes without an artifact
    assert rep["dragon"]["attacks"]["total"] > 0 and rep["dragon"]["damage"]["total"] > 0
    cards = {c["name"]: c for c in rep["cards"]}
    assert "Mercenary" in cards and cards["Mercenary"]["deck"] == "reserve"
    assert "Burgle" not in cards  # starting cards are not acquired
    for c in rep["cards"]:
        assert c["wins"] <= c["players"] <= c["acquired"]
        assert c["players"] <= 60 * 4


def test_heatmap_is_complete_and_renders(acqinc_report: tuple[dict, str, Path]) -> None:
    from clankwork.tools.render import render

    rep, _, out = acqinc_report
    heat = rep["heatmap"]
    assert heat["board"] == "overworld" and heat["games"] == 60
    assert len(heat["spaces"]) == 44  # every space, visited or not
    assert 0 in heat["spaces"].values()
    assert sum(heat["paths"].values()) <= sum(heat["spaces"].values())
    target = out / "heat.dot"
    result = CliRunner().invoke(
        render,
        [
            "board",
            str(ROOT / "content" / "acqinc"),
            "--heatmap",
            str(out / "run.json"),
            "--format",
            "dot",
            "-o",
            str(target),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert "in 60 games" in target.read_text()


def test_table_shows_every_part(acqinc_report: tuple[dict, str, Path]) -> None:
    _, stdout, _ = acqinc_report
    assert stdout.startswith("acqinc 0.1.0 on overworld: 60 games, 4 players")
    for words in (
        "seat  wins",
        "win rate",
        "player  bot",
        "first-player advantage" if "no clear" in stdout else "seat 1 wins",
        "scores",
        "winning scores",
        "rounds",
        "p95",
        "escapes",
        "knock-outs",
        "deaths (scored 0)",
        "dragon attacks",
        "dragon damage",
        "capped games",
        "Heart of the Hoard",
        "cards by edge",
        "busiest spaces",
        "never entered",
    ):
        assert words in stdout, words


def test_logs_are_written_one_per_game(acqinc_report: tuple[dict, str, Path]) -> None:
    rep, _, out = acqinc_report
    logs = sorted((out / "logs").iterdir())
    assert [p.name for p in logs] == [log_name(i) for i in range(60)]
    first = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert first[0]["seed"] == rep["results"][0]["seed"]
    assert first[-1]["state"] == rep["results"][0]["state"]


def test_same_seed_same_report_for_any_jobs(tmp_path: Path) -> None:
    args = ["-n", "60", "-p", "3", "--seed", "11", "--bots", "random,greedy,greedy"]
    reports = []
    for jobs in ("1", "2"):
        code, stdout, stderr = run(*args, "--jobs", jobs, "--json", str(tmp_path / f"{jobs}.json"))
        assert code == 0, stderr
        reports.append((stdout, (tmp_path / f"{jobs}.json").read_bytes()))
    assert "2 processes" in stderr
    assert reports[0] == reports[1]
    code, stdout, _ = run(*args[:-2], "--seed", "12")
    assert stdout != reports[0][0]


def test_spawned_workers_give_the_same_totals(tutorial_ir: dict, monkeypatch) -> None:
    # Linux forks its workers; macOS and Windows spawn them, with fresh hash seeds.
    from clankwork.tools import simulate as sim

    one = sim.simulate(tutorial_ir, 50, 4, seed=2, bots="random,greedy,greedy,random")
    monkeypatch.setattr(sim, "_START_METHOD", "spawn")
    two = sim.simulate(tutorial_ir, 50, 4, seed=2, bots="random,greedy,greedy,random", jobs=2)
    assert two.report() == one.report()


def test_rule_overrides_and_capped_games_are_reported(tmp_path: Path) -> None:
    code, stdout, stderr = run(
        "-n", "6", "-p", "2", "--rule", "round_cap=4", "--json", str(tmp_path / "r.json")
    )
    assert code == 0, stderr
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["rules"] == {"round_cap": 4}
    assert rep["capped"]["count"] == 6 and rep["capped"]["round_cap"] == 4
    assert [g["game"] for g in rep["capped"]["games"]] == list(range(6))
    assert all(g["capped"] and g["rounds"] == 4 for g in rep["results"])
    assert "rules: round_cap=4" in stdout and "capped: games 0 (seed" in stdout
    assert "warning: 6 games reached the round cap" in stderr


def test_check_invariants_option() -> None:
    code, stdout, stderr = run("-n", "10", "-p", "4", "--bots", "random", "--check-invariants")
    assert code == 0, stderr
    assert "10 games, 4 players" in stdout


def test_simulate_command_rejects_a_broken_pack(broken_dir: Path) -> None:
    code, _, stderr = run(str(broken_dir), "--games", "1")
    assert code == 1
    assert "error[" in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "2 to 4 players"),
        (["--bots", "greedy,random"], "2 bots for 4 players"),
        (["--bots", "smart"], "unknown bot 'smart'"),
        (["--rule", "hand_sise=6"], "unknown rule 'hand_sise'"),
        (["--rule", "hand_size=big"], "must be JSON"),
        (["--rule", "hand_size=-1"], "hand_size"),
        (["--board", "moon"], "no board named 'moon'"),
        (["--games", "0"], "--games"),
    ],
)
def test_simulate_command_checks_arguments(
    tutorial_dir: Path, args: list[str], message: str
) -> None:
    code, _, stderr = run(str(tutorial_dir), *args)
    assert code == 2
    assert message in stderr


def test_a_failing_game_is_named_with_its_log(tmp_path: Path, monkeypatch) -> None:
    from clankwork.interpreter.bots import BOTS
    from clankwork.interpreter.log import LogError, read_log
    from clankwork.tools import simulate as sim

    class Broken:
        name = "broken"

        def __init__(self, seed: int) -> None:
            self.asked = 0

        def choose(self, view: object, decision: object) -> int:
            self.asked += 1
            return 0 if self.asked < 5 else 99

    monkeypatch.setitem(BOTS, "broken", Broken)
    monkeypatch.setattr(sim, "make_bot", lambda name, seed: BOTS[name](seed))
    code, stdout, stderr = run("-n", "3", "-p", "2", "--bots", "broken", "--log-dir", str(tmp_path))
    assert code == 1
    seed = game_seeds(1, 1)[0]
    assert f"game 0 (seed {seed}), turn " in stdout
    assert "RuntimeError: bot" in stdout and "answered 99" in stdout
    assert f"log: {tmp_path / log_name(0)}" in stdout
    assert "Error: 3 of 3 games failed" in stderr
    assert "Traceback" not in stderr
    with pytest.raises(LogError, match="without a result record"):
        read_log((tmp_path / log_name(0)).read_text())


# --- numbers are bounded -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--games", "1000000000000"],
            "1000000000000 is not in the range 1<=x<=10000000",
        ),
        (["--players", "9"], "9 is not in the range 1<=x<=8"),
        (["--players", "1"], "this pack plays with 2 to 4 players, not 1"),
        (["--seed", "-1"], "-1 is not in the range 0<=x<=9223372036854775807"),
        (["--seed", str(2**63)], "--seed"),
        (["--jobs", "100000"], "100000 is not in the range 0<=x<=256"),
        (
            ["--rule", "round_cap=501"],
            "rule round_cap: 501 is out of range: round cap goes from 1 to 500",
        ),
        (["--rule", "round_cap=0"], "rule round_cap: 0 is out of range"),
        (["--rule", "hand_size=100000000"], "hand size goes from 1 to 30"),
        (["--rule", "rage_track=[1,2,99]"], "99 is out of range: rage track goes from 0 to 50"),
        (["--rule", f"rage_track={[1] * 31}"], "31 values; at most 30"),
        (
            ["--rule", 'rage_start={"2": 1000}'],
            "1000 is out of range: rage start goes from 1 to 30",
        ),
        (["--rule", "round-kap=5"], "unknown rule 'round_kap'; did you mean \"round_cap\"?"),
        (["--rule", "max_players=9"], "max players goes from 1 to 8"),
    ],
)
def test_numbers_have_documented_ranges(tutorial_dir: Path, args: list[str], message: str) -> None:
    code, _, stderr = run(str(tutorial_dir), *args)
    assert code == 2, stderr
    assert message in stderr, stderr
    assert "Traceback" not in stderr


def test_the_ranges_are_in_the_help() -> None:
    code, stdout, _ = run("--help")
    assert code == 0
    text = " ".join(stdout.split())
    for piece in ("1 to 10,000,000", "1 to 8", "0 to 2**63-1", "0 to 256"):
        assert piece in text, piece


# --- worker processes ----------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_the_watchdog_fallback_ends_an_orphan() -> None:
    import subprocess
    import sys
    import time

    code = (
        "import os, sys, time\n"
        "from clankwork.tools import simulate as sim\n"
        "print('this', sim.die_with_parent(os.getppid()), flush=True)\n"
        "parent = os.getpid()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    sys.platform = 'darwin'  # no prctl: the portable way\n"
        # One write a line: print writes the text and the new line apart, and the two
        # processes' lines could interleave (`1909watchdog`) when stdout is unbuffered.
        "    os.write(1, (sim.die_with_parent(parent) + '\\n').encode())\n"
        "    os.close(1); os.close(2)  # let the test read its output now\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "os.write(1, b'%d\\n' % pid)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    lines = out.stdout.split()
    linux = sys.platform.startswith("linux")
    assert lines[:2] == ["this", "prctl" if linux else "watchdog"], out
    assert "watchdog" in lines[2:], out
    child = int(next(x for x in lines if x.isdigit()))
    try:
        deadline = time.monotonic() + 10
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)  # polling /proc, bounded by the deadline
        assert not _alive(child), "the orphaned worker kept running"
    finally:
        if _alive(child):
            __import__("os").kill(child, 9)


def _children(pid: int) -> set[int]:
    """Child processes of ``pid`` (Linux /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import time

    exe = Path(sys.executable).parent / "clankwork"
    if not exe.exists():
        pytest.skip("the clankwork script is not installed beside this Python")
    parent = subprocess.Popen(
        [str(exe), "simulate", "--jobs", "2", "--games", "1000000", "-p", "2", "--seed", "5"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            workers = {w for w in _children(parent.pid) if _alive(w)}
            time.sleep(0.05)  # polling /proc, bounded by the deadline above
        assert len(workers) >= 2, "the workers never started"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers {left} outlived their parent"
    finally:
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()


# -- streaming totals, intervals and --until-ci -------------------------------------------------


def test_wilson_intervals_match_reference_values() -> None:
    from clankwork.interpreter.stats import wilson

    # Reference: Wilson score interval, z = 1.96 (e.g. R's prop.test without continuity).
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert wilson(0, 0) == (0.0, 1.0)  # nothing counted: nothing known


def test_mean_interval_is_the_normal_one() -> None:
    import statistics

    from clankwork.interpreter.stats import mean_interval

    values = [3, 7, 7, 9, 14, 2, 8]
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    half = 1.959963984540054 * statistics.stdev(values) / len(values) ** 0.5
    assert low == pytest.approx(statistics.fmean(values) - half)
    assert high == pytest.approx(statistics.fmean(values) + half)
    assert mean_interval(5, 25, 1) == (5.0, 5.0)


def test_quantiles_from_a_histogram_are_exact() -> None:
    import random
    from collections import Counter

    from clankwork.interpreter.stats import distribution, hist_distribution

    rng = random.Random(3)
    for n in (1, 2, 3, 4, 5, 17, 100, 101):
        values = [rng.randint(0, 40) for _ in range(n)]
        got = hist_distribution(Counter(values))
        got.pop("mean_ci")
        assert got == distribution(values), values


def test_first_player_verdict_is_plain() -> None:
    from clankwork.interpreter.stats import first_player

    more = first_player(44, 100, 4)
    assert more["verdict"].startswith("seat 1 wins more than its share: 44.0% [")
    assert more["verdict"].endswith("vs 25% (shared wins split)")
    assert first_player(26, 100, 4)["verdict"].startswith("no clear first-player advantage")
    assert first_player(5, 100, 4)["verdict"].startswith("seat 1 wins less than its share")


def test_the_fair_share_is_taken_over_the_games_with_a_winner() -> None:
    """Random bots in acqinc leave 179 of 1,000 games without a winner: seat 1's 205 wins are
    its fair quarter of the 821 that have one, not less than its share of all 1,000."""
    from clankwork.interpreter.stats import first_player

    fp = first_player(205, 821, 4, 1000)
    assert fp["verdict"].startswith("no clear first-player advantage: 25.0% [")
    assert "of the 821 games with a winner" in fp["verdict"]
    assert "179 without a winner left out" in fp["verdict"]
    assert fp["games"] == 821 and fp["win_rate"] == 0.25


def test_a_shared_win_is_split_between_its_winners() -> None:
    from clankwork.interpreter.scoring import GameResult
    from clankwork.interpreter.stats import SHARE_UNIT, RunTotals

    t = RunTotals()
    for winners in ((0,), (0, 1)):
        result = GameResult(
            seed=1, pack="p", bots=("greedy",) * 2, order=(0, 1), scores=(5, 5),
            winners=winners, status=("escaped",) * 2, zeroed=(False, False), rounds=3,
            turns=6, end_reason="all off the clock", capped=False, state="0" * 16,
        )  # fmt: skip
        t.add_result(0, result)
    assert t.wins_seat == [2, 1]  # each winner's win, as the seat table counts them
    assert t.win_shares_seat == [SHARE_UNIT + SHARE_UNIT // 2, SHARE_UNIT // 2]


def _part(index: int, games: int = 25) -> object:
    from clankwork.interpreter.stats import RunTotals

    part = RunTotals()
    part.games = games
    part.turns = index  # tells the parts apart once merged
    part.records = [{"game": index}]
    return part


def test_merger_folds_in_chunk_order_and_refuses_a_chunk_twice() -> None:
    from clankwork.interpreter.stats import RunTotals
    from clankwork.tools.simulate import ChunkMerger

    seen: list[int] = []
    merger = ChunkMerger(RunTotals(), progress=seen.append)
    arrivals = [2, 0, 2, 3, 1, 0, 4, 3]  # out of order, with reruns of lost workers' chunks
    accepted = [merger.offer(i, _part(i)) for i in arrivals]  # type: ignore[arg-type]
    assert accepted == [True, True, False, True, True, False, True, False]
    assert merger.merged == 5 and merger.totals.games == 5 * 25 and seen == [25] * 5
    assert [r["game"] for r in merger.totals.records] == [0, 1, 2, 3, 4]
    assert merger.totals.turns == 0 + 1 + 2 + 3 + 4


def test_run_totals_do_not_grow_with_the_games() -> None:
    import pickle

    from clankwork.interpreter.catalog import prepare
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import simulate

    cat = prepare(load_ir(ROOT / "content" / "tutorial"), 0)
    sizes = {}
    for games in (30, 300):
        totals = simulate({}, games, 2, 3, "greedy", catalog=cat, keep=10).totals
        assert totals.games == games and len(totals.records) == 10
        sizes[games] = len(pickle.dumps(totals))
    # Ten times the games: a few more histogram keys, never ten times the size.
    assert sizes[300] < 1.5 * sizes[30], sizes


def test_a_run_in_one_process_freezes_the_heap_once_not_every_chunk(monkeypatch) -> None:
    """Between two chunks of a run played here the heap stays frozen: each chunk's
    `many_games` is nested in the run's, so the whole heap is not collected again every
    CHUNK games."""
    import gc

    from clankwork.interpreter.catalog import prepare
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import CHUNK, Runner, simulate

    cat = prepare(load_ir(ROOT / "content" / "tutorial"), 0)
    frozen_after: list[int] = []
    run_chunk = Runner.run_chunk

    def watched(self, *args, **kwargs):
        totals = run_chunk(self, *args, **kwargs)
        frozen_after.append(gc.get_freeze_count())
        return totals

    monkeypatch.setattr(Runner, "run_chunk", watched)
    assert gc.get_freeze_count() == 0
    simulate({}, 2 * CHUNK + 1, 2, 3, "random", catalog=cat)
    assert len(frozen_after) == 3 and all(frozen_after), frozen_after
    assert gc.get_freeze_count() == 0  # and thawed once the run is over


def test_games_past_the_kept_records_keep_no_log_and_play_the_same(tmp_path: Path) -> None:
    from clankwork.interpreter.catalog import prepare
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import Runner, RunSpec

    cat = prepare(load_ir(ROOT / "content" / "acqinc"), 0)
    runner = Runner(RunSpec({}, 4, ("heuristic",) * 4), cat)
    kept, _ = runner.play(0, 5)
    quiet, _ = runner.play(0, 5, record=False)
    logged, _ = Runner(RunSpec({}, 4, ("heuristic",) * 4, log_dir=str(tmp_path)), cat).play(0, 5)
    assert kept.result is not None and quiet.result is not None and logged.result is not None
    # The same game: the same result, but no final digest past the kept records.
    assert kept.result.state and not quiet.result.state
    assert {**asdict(quiet.result), "state": ""} == {**asdict(kept.result), "state": ""}
    # Only a game written to a log folder keeps its decisions; a kept record's digest is the
    # one its log ends with (taken as the game ends, not after its last turn).
    assert kept.result == logged.result
    assert logged.log[-1]["state"] == kept.result.state
    assert [r["type"] for r in quiet.log] == ["header"]
    assert [r["type"] for r in kept.log] == ["header"]
    assert sum(r["type"] == "decision" for r in logged.log) > 100
    # A run's records keep their digests, the games past them have none.
    totals = runner.run_chunk(0, game_seeds(1, 3), keep=2)
    assert [bool(r["state"]) for r in totals.records] == [True, True]


def test_report_lists_the_first_games_only(tmp_path: Path) -> None:
    from clankwork.interpreter.catalog import prepare
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import simulate

    cat = prepare(load_ir(ROOT / "content" / "tutorial"), 0)
    rep = simulate({}, 60, 2, 3, "greedy", catalog=cat, keep=20).report()
    assert [g["game"] for g in rep["results"]] == list(range(20))
    assert rep["results_omitted"] == 40
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))


def test_until_ci_stops_on_its_own_and_the_half_width_is_met(tmp_path: Path) -> None:
    from clankwork.interpreter.stats import wilson

    args = [str(ROOT / "content" / "tutorial"), "-p", "2", "--bots", "greedy", "-n", "5000"]
    texts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"ci{jobs}.json"
        code, stdout, stderr = run(*args, "--until-ci", "0.1", "--jobs", jobs, "--json", str(out))
        assert code == 0, stderr
        texts.append(out.read_text())
    assert texts[0] == texts[1]  # where it stops depends on the games alone
    rep = json.loads(texts[0])
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))
    assert rep["stop"]["by"] == "until_ci" and rep["stop"]["until_ci"] == 0.1
    assert 0 < rep["games"] < 5000 and rep["games"] % 25 == 0
    for seat in rep["wins"]["by_seat"]:
        low, high = wilson(seat["wins"], rep["games"])
        assert (high - low) / 2 <= 0.1
    assert rep["stop"]["seat_half_width"] <= 0.1
    assert "stopped: every seat's win rate known to ±10.0%" in stdout


def test_until_ci_says_when_games_ran_out_first(tmp_path: Path) -> None:
    out = tmp_path / "ci.json"
    code, stdout, stderr = run(
        str(ROOT / "content" / "tutorial"), "-p", "2", "--bots", "greedy", "-n", "30",
        "--until-ci", "0.01", "--json", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    rep = json.loads(out.read_text())
    assert rep["games"] == 30 and rep["stop"]["by"] == "games"
    assert rep["stop"]["seat_half_width"] > 0.01
    assert "--games 30 reached first" in stdout


def test_table_shows_rates_with_intervals(acqinc_report: tuple[dict, str, Path]) -> None:
    import re

    rep, stdout, _ = acqinc_report
    assert re.search(r"\d+\.\d% \[\d+\.\d–\d+\.\d\]", stdout)
    assert rep["wins"]["first_player"]["verdict"] in stdout
    for seat in rep["wins"]["by_seat"]:
        ci = seat["win_rate_ci"]
        assert ci["low"] <= seat["win_rate"] <= ci["high"]
        mean = seat["mean_score_ci"]
        assert mean["low"] <= seat["mean_score"] <= mean["high"]
    for card in rep["cards"]:
        assert card["win_rate_ci"]["low"] <= card["win_rate"] <= card["win_rate_ci"]["high"]


def test_dask_without_distributed_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    code, _, stderr = run(str(ROOT / "content" / "tutorial"), "-n", "5", "--dask", "local")
    assert code != 0
    assert "pip install 'clankwork[dask]'" in stderr
    assert "Traceback" not in stderr


def test_dask_address_is_checked_before_playing() -> None:
    code, _, stderr = run(str(ROOT / "content" / "tutorial"), "-n", "5", "--dask", "nowhere")
    assert code != 0 and "tcp://HOST:PORT" in stderr


def test_merger_raises_the_first_failing_chunk_in_game_order() -> None:
    from clankwork.interpreter.stats import RunTotals
    from clankwork.tools.simulate import ChunkMerger

    merger = ChunkMerger(RunTotals())
    assert merger.offer(2, ValueError("chunk 2"))  # finished first, waits for its turn
    assert merger.offer(1, _part(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk 0 failed"):
        merger.offer(0, ValueError("chunk 0 failed"))
    assert merger.done and merger.totals.games == 0


def test_until_ci_without_games_is_not_capped_at_the_default(tmp_path: Path) -> None:
    out = tmp_path / "ci.json"
    tutorial = str(ROOT / "content" / "tutorial")
    code, _, stderr = run(
        tutorial, "-p", "2", "--bots", "greedy", "--until-ci", "0.05", "--json", str(out)
    )
    assert code == 0, stderr
    rep = json.loads(out.read_text())
    assert rep["stop"]["by"] == "until_ci" and rep["stop"]["games_ceiling"] == 1_000_000
    assert rep["games"] > 100  # more than --games' default: the interval decided


def test_a_reader_that_stops_early_does_not_cost_the_report_file(tmp_path: Path) -> None:
    """`clankwork simulate ... --json F 2>&1 | head -3`: the pipe closes while the table and
    the warnings are printed; the JSON report is written before them."""
    import subprocess
    import sys

    out = tmp_path / "r.json"
    cli = "from clankwork.tools.cli import main; main()"
    args = [sys.executable, "-c", cli, "simulate", str(ROOT / "content" / "tutorial")]
    proc = subprocess.Popen(
        [*args, "--games", "30", "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()
    proc.wait(timeout=120)
    assert json.loads(out.read_text())["games"] == 30


def test_a_wrong_assembly_names_the_modules_option() -> None:
    args = [str(ROOT / "content" / "space"), "-n", "2", "--modules", "1=Nope"]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 2
    assert "Invalid value for --modules: position 1 cannot take 'Nope'; it takes " in result.output
    args = [str(ROOT / "content" / "tutorial"), "-n", "2", "--modules", "1=Nope"]
    result = CliRunner().invoke(command, args)
    assert "Invalid value for --modules: board 'overworld' has no modules" in result.output


@pytest.mark.parametrize(
    ("pack", "args", "modules"),
    [
        (
            "space",
            ["--modules", "1=Armory, 2=Med Lab, 3=Crew Quarters"],
            "1=Armory, 2=Med Lab, 3=Crew Quarters",
        ),
        ("space", [], None),
        ("tutorial", [], "absent"),
    ],
)
def test_the_report_says_which_assembly_was_played(
    tmp_path: Path, pack: str, args: list[str], modules: str | None
) -> None:
    """A modular board's report names the assembly every game played on (--modules), null
    when each game drew its own; a board without modules has no such entry."""
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        command, [str(ROOT / "content" / pack), "-n", "2", "--json", str(out), *args]
    )
    assert result.exit_code == 0, result.output
    rep = json.loads(out.read_text())
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))
    assert rep.get("modules", "absent") == modules
    if modules not in (None, "absent"):
        assert f"on {rep['board']} ({modules}):" in result.output.splitlines()[0]


def test_an_unknown_board_lists_the_packs_boards() -> None:
    result = CliRunner().invoke(command, [str(ROOT / "content" / "vault"), "--board", "nosuch"])
    assert result.exit_code == 2
    assert "no board named 'nosuch' (its boards: ropes, clock)" in result.output
