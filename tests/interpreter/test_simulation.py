"""Many games: every game ends, nothing is created or lost, and logs replay to the same state.

1,080 games are played here (both bundled packs, 2 to 4 players, greedy, random and mixed
bots), with the invariants checked after every turn; one game in ten is replayed from its
log through JSON. The statistics hook is checked against the log it must not change.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.invariants import check_invariants
from clankwork.interpreter.log import from_jsonl, replay, to_jsonl
from clankwork.interpreter.state import ESCAPED, KNOCKED_OUT
from clankwork.interpreter.stats import GameStats
from clankwork.tools.simulate import bot_seed, run_games, simulate, summarize

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_CONFIG = 60
BOT_MIXES = {"greedy": ("greedy",), "random": ("random",), "mixed": ("greedy", "random")}


@pytest.fixture(scope="module")
def packs(tutorial_ir: dict) -> dict[str, Catalog]:
    from clankwork.dsl.compiler import compile_pack

    acqinc = compile_pack(ROOT / "content" / "acqinc")
    assert acqinc.ok, acqinc.diagnostics
    return {"tutorial": prepare(tutorial_ir), "acqinc": prepare(acqinc.ir)}


def seat_bots(mix: str, players: int, seed: int) -> list:
    names = BOT_MIXES[mix]
    return [make_bot(names[k % len(names)], bot_seed(seed, k)) for k in range(players)]


@pytest.mark.parametrize("mix", sorted(BOT_MIXES))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("pack", ["tutorial", "acqinc"])
def test_games_end_and_conserve_everything(
    packs: dict[str, Catalog], pack: str, players: int, mix: str
) -> None:
    cat = packs[pack]
    health = cat.rules["health"]
    turns_checked = 0

    def check(game: Game) -> None:
        nonlocal turns_checked
        problems = check_invariants(game)
        assert not problems, (pack, game.seed, game.turn, problems)
        for p in game.players:
            assert 0 <= p.damage <= health, (game.seed, p)
        turns_checked += 1

    base = 1000 * players + 100 * sorted(BOT_MIXES).index(mix)
    for seed in range(base, base + GAMES_PER_CONFIG):
        game = Game(cat, seat_bots(mix, players, seed), seed)
        result = game.play(after_turn=check)
        # Every game ends by the rules, never by the safety cap.
        assert game.over and not result.capped, (pack, seed, result)
        assert result.end_reason in ("all off the clock", "dragon bag empty")
        assert all(s in (ESCAPED, KNOCKED_OUT) for s in result.status)
        assert result.rounds < cat.rules["round_cap"]
        assert not check_invariants(game)
        assert (result.winners != ()) == (max(result.scores) > 0)
        if seed % 10 == 0:
            # A log replays, through JSON, to the identical final state and log.
            again = replay(cat, from_jsonl(to_jsonl(game.log)))
            assert again.result == result
            assert again.log == game.log
    assert turns_checked >= GAMES_PER_CONFIG * players * 5


def test_greedy_bots_finish_like_people(packs: dict[str, Catalog]) -> None:
    results = run_games(packs["tutorial"], 200, 4, seed=1)
    assert 10 <= statistics.median(r.rounds for r in results) <= 30
    # Most greedy players get home.
    assert sum(r.escapes for r in results) >= 2 * len(results)


@pytest.mark.parametrize("pack", ["tutorial", "acqinc"])
def test_statistics_hook_counts_without_changing_the_log(
    packs: dict[str, Catalog], pack: str
) -> None:
    cat = packs[pack]
    for seed in range(12):
        players = 2 + seed % 3
        mix = ("greedy", "random", "mixed")[seed % 3]
        plain = Game(cat, seat_bots(mix, players, seed), seed)
        plain.play()
        stats = GameStats.for_game(cat, players)
        counted = Game(cat, seat_bots(mix, players, seed), seed, stats=stats)
        counted.play()
        assert to_jsonl(counted.log) == to_jsonl(plain.log)

        labels = [r["label"] for r in plain.decision_log() if r["kind"] == "action"]
        acquired = sum(n for got in stats.acquired for n in got.values())
        assert acquired == sum(1 for x in labels if x.startswith("acquire "))
        assert sum(stats.defeated.values()) == sum(1 for x in labels if x.startswith("fight "))
        walks = sum(stats.paths.values())
        moves = sum(1 for x in labels if x.startswith("move to "))
        # A walk that knocks its player out never arrives; every arrival is counted.
        assert moves - sum(r == KNOCKED_OUT for r in plain.result.status) <= walks <= moves
        assert sum(stats.entries) >= walks


def test_run_totals_do_not_depend_on_the_chunking(packs: dict[str, Catalog]) -> None:
    from clankwork.interpreter import stats as stats_mod
    from clankwork.tools import simulate as sim_mod

    cat = packs["tutorial"]
    ir: dict = {}
    whole = simulate(ir, 30, 3, seed=5, bots="greedy,random,greedy", catalog=cat).report()
    saved = sim_mod.CHUNK
    try:
        sim_mod.CHUNK = 7
        pieces = simulate(ir, 30, 3, seed=5, bots="greedy,random,greedy", catalog=cat).report()
    finally:
        sim_mod.CHUNK = saved
    assert pieces == whole
    assert whole["games"] == 30 and len(whole["results"]) == 30
    assert [g["game"] for g in whole["results"]] == list(range(30))
    old = summarize(run_games(cat, 30, 3, seed=5, bots=("greedy", "random", "greedy")))
    assert old["wins_by_seat"] == [s["wins"] for s in whole["wins"]["by_seat"]]
    assert whole["format"] == stats_mod.REPORT_FORMAT


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    pack=st.sampled_from(["tutorial", "acqinc"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**48),
    bots=st.lists(st.sampled_from(["greedy", "random"]), min_size=4, max_size=4),
)
def test_any_seed_replays(
    packs: dict[str, Catalog], pack: str, players: int, seed: int, bots: list[str]
) -> None:
    cat = packs[pack]
    game = Game(cat, [make_bot(b, seed + k) for k, b in enumerate(bots[:players])], seed)
    game.play()
    again = replay(cat, from_jsonl(to_jsonl(game.log)))
    assert again.result is not None and game.result is not None
    assert again.result.state == game.result.state
