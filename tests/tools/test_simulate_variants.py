"""Card strength that is not confounded: acquirers against players who could have and passed,
and variant runs (`--without`, `--give`) on the same seeds, compared with intervals."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import (
    GameStats,
    RunTotals,
    compare,
    difference_interval,
    mean_difference_interval,
)
from clankwork.tools.check import FLAGSHIP, load_ir
from clankwork.tools.report_variants import ChangeError, apply_changes, give, without
from clankwork.tools.simulate import RunSpec, command, simulate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
VP = "Regional Vice President"


@pytest.fixture(scope="module")
def acqinc() -> dict:
    return load_ir(None, "acqinc")


def test_the_flagship_pack_is_acqinc_and_has_the_card() -> None:
    assert FLAGSHIP == "acqinc"
    cat = prepare(load_ir(None, FLAGSHIP))
    assert cat.by_name[VP.lower()].deck in ("adventure", "reserve")


def test_difference_interval_matches_newcombe() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, table II, method 10.
    cases = {
        (56, 70, 48, 80): (0.0524, 0.3339),
        (9, 10, 3, 10): (0.1705, 0.8090),
        (5, 56, 0, 29): (-0.0381, 0.1926),
        (0, 10, 0, 20): (-0.1611, 0.2775),
    }
    for args, (low, high) in cases.items():
        got = difference_interval(*args)
        assert got == pytest.approx((low, high), abs=1e-4), args
    assert difference_interval(3, 5, 0, 0) == (-1.0, 1.0)


def test_mean_difference_interval_is_the_two_sample_normal_one() -> None:
    a, b = [3, 5, 7, 9], [1, 2, 3]
    low, high = mean_difference_interval(
        (len(a), sum(a), sum(x * x for x in a)), (len(b), sum(b), sum(x * x for x in b))
    )
    # means 6 and 2; variances 20/3 and 1: se = sqrt(20/12 + 1/3)
    se = (20 / 12 + 1 / 3) ** 0.5
    assert (low + high) / 2 == pytest.approx(4)
    assert (high - low) / 2 == pytest.approx(1.959964 * se, rel=1e-5)


def test_a_turn_with_the_skill_for_a_row_card_marks_it_as_could_have(acqinc: dict) -> None:
    cat = prepare(acqinc)
    stats = GameStats.for_game(cat, 2)
    game = Game(cat, [make_bot("random", k) for k in range(2)], 5, stats=stats)
    p = game.active
    game.begin_turn(p)
    cheap = min(c.cost for c in game.row if c.type == "acquire")
    game.gain(p, "skill", cheap)
    game.spend(p, "skill", cheap)  # spent on something else: it still could have
    stats.on_turn_end(game, p)
    want = {c.name for c in game.row if c.type == "acquire" and c.cost <= cheap}
    want |= {c.name for c, left in game.reserve.items() if left and c.cost <= cheap}
    assert want and stats.could[p.seat] == want
    other = game.players[1 - p.seat]
    assert not stats.could[other.seat]


def test_acquirers_are_not_counted_as_passers(acqinc: dict) -> None:
    cat = prepare(acqinc)
    stats = GameStats.for_game(cat, 2)
    game = Game(cat, [make_bot("heuristic", k) for k in range(2)], 9, stats=stats)
    game.play()
    totals = RunTotals()
    totals.add(0, game, stats)
    for seat, got in enumerate(stats.acquired):
        for name in got:
            assert name not in stats.could[seat] - set(got)
    assert sum(totals.passers.values()) == sum(
        len(c - set(g)) for c, g in zip(stats.could, stats.acquired, strict=True)
    )


def test_card_rows_have_the_edge_with_intervals(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    result = CliRunner().invoke(
        command, ["-n", "30", "-p", "4", "--seed", "2", "--bots", "greedy", "--json", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    rep = json.loads(out.read_text())
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))
    measured = [c for c in rep["cards"] if c["players"] and c["passed"]]
    assert measured
    for c in measured:
        assert c["edge"] == pytest.approx(c["win_rate"] - c["passed_win_rate"], abs=2e-3)
        assert c["edge_ci"]["low"] <= c["edge"] <= c["edge_ci"]["high"]
        ci = c["passed_win_rate_ci"]
        assert ci["low"] <= c["passed_win_rate"] <= ci["high"]
        assert c["passed_wins"] <= c["passed"]
    assert "cards by edge" in result.stdout


def test_without_takes_every_copy_out_and_keeps_the_pack(acqinc: dict) -> None:
    cat = prepare(acqinc)
    changed = apply_changes(cat, (without(cat, VP.lower()),))
    assert cat.by_name[VP.lower()].copies > 0  # the catalog given is not changed
    game = Game(changed, [make_bot("random", k) for k in range(4)], 3)
    everywhere = [*game.row, *game.adventure_deck, *game.reserve, *game.adventure_discard]
    everywhere += [c for p in game.players for c in (*p.deck, *p.hand)]
    assert VP not in {c.name for c in everywhere}


def test_give_puts_one_copy_in_the_seat_deck_and_keeps_the_rest_of_the_deal(
    acqinc: dict,
) -> None:
    cat = prepare(acqinc)
    change = give(cat, f"{VP}@3", 4)
    assert (change.card, change.seat) == (VP, 3)
    base = Game(cat, [make_bot("random", k) for k in range(4)], 11)
    game = Game(apply_changes(cat, (change,)), [make_bot("random", k) for k in range(4)], 11)
    assert game.order == base.order
    for k, seat in enumerate(game.order):
        p, b = game.players[seat], base.players[seat]
        names = sorted(c.name for c in (*p.deck, *p.hand))
        base_names = sorted(c.name for c in (*b.deck, *b.hand))
        if k == 2:
            assert names == sorted([*base_names, VP])
        else:
            assert (p.deck, p.hand) == (b.deck, b.hand)
    assert [c.name for c in game.row] == [c.name for c in base.row]


def test_a_bad_card_or_seat_is_refused_with_a_hint(acqinc: dict) -> None:
    cat = prepare(acqinc)
    with pytest.raises(ChangeError, match="did you mean 'Regional Vice President'"):
        without(cat, "Regional Vice Presidnet")
    with pytest.raises(ChangeError, match="seats are 1 to 4"):
        give(cat, f"{VP}@5", 4)
    result = CliRunner().invoke(command, ["-n", "2", "--without", "No Such Card"])
    assert result.exit_code == 2 and "no card named 'No Such Card'" in result.stderr
    assert "Traceback" not in result.output


def test_without_and_give_report_the_delta_with_intervals(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    args = ["-n", "30", "-p", "4", "--seed", "4", "--bots", "greedy", "--json", str(out)]
    args += ["--without", VP, "--give", f"{VP}@2"]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.stderr
    rep = json.loads(out.read_text())
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))
    off, given = rep["variants"]
    assert off["change"] == {"kind": "without", "label": f"without {VP}", "card": VP}
    assert given["change"]["seat"] == 2 and given["games"] == 30
    for v in (off, given):
        assert len(v["by_seat"]) == 4
        for s in v["by_seat"]:
            base = rep["wins"]["by_seat"][s["seat"] - 1]
            assert s["win_rate_delta"] == pytest.approx(s["win_rate"] - base["win_rate"], abs=2e-3)
            lo, hi = s["win_rate_delta_ci"]["low"], s["win_rate_delta_ci"]["high"]
            assert lo <= s["win_rate_delta"] <= hi
            lo, hi = s["mean_score_delta_ci"]["low"], s["mean_score_delta_ci"]["high"]
            assert lo <= s["mean_score_delta"] <= hi
    assert f"without {VP}: rounds" in result.stdout
    assert "* the seat given" in result.stdout


def test_a_variant_is_the_same_in_worker_processes(acqinc: dict) -> None:
    cat = prepare(acqinc)
    changes = (give(cat, VP, 2), without(cat, "Mercenary"))
    spec = RunSpec(acqinc, 2, ("greedy", "greedy"), changes=changes)
    assert pickle.loads(pickle.dumps(spec)).changes == changes  # what a worker receives
    one = simulate(acqinc, 50, 2, 8, "greedy", catalog=cat, changes=changes)
    two = simulate(acqinc, 50, 2, 8, "greedy", jobs=2, changes=changes)
    assert one.totals == two.totals
    plain = simulate(acqinc, 50, 2, 8, "greedy", catalog=cat)
    assert compare(plain.totals, plain.totals, 2)["by_seat"][0]["win_rate_delta"] == 0
    assert one.totals != plain.totals


def test_a_sweep_plays_each_value_on_the_same_seeds(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    args = [str(ROOT / "content" / "tutorial"), "-n", "25", "-p", "2", "--bots", "greedy"]
    args += ["--sweep", "hand_size=4,6", "--sweep", "cost:Freelance Fighter=1,5"]
    result = CliRunner().invoke(command, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.stderr
    rep = json.loads(out.read_text())
    assert not list(Draft202012Validator(SCHEMA).iter_errors(rep))
    labels = [v["change"]["label"] for v in rep["variants"]]
    assert labels == [
        "hand_size=4",
        "hand_size=6",
        "cost:Freelance Fighter=1",
        "cost:Freelance Fighter=5",
    ]
    assert rep["variants"][2]["change"] == {
        "kind": "cost",
        "label": "cost:Freelance Fighter=1",
        "card": "Freelance Fighter",
        "value": 1,
    }
    # Fewer cards in hand make longer games.
    assert rep["variants"][0]["rounds"]["delta"] > 0 > rep["variants"][1]["rounds"]["delta"]
    assert "hand_size=4: rounds" in result.stdout
    # Each cost carries what the card was offered and chosen: at cost 1 it is taken more
    # often, and by a larger share of the players offered it, than at 5.
    cheap, dear = rep["variants"][2]["card"], rep["variants"][3]["card"]
    assert cheap["chosen_per_game"] > dear["chosen_per_game"]
    assert cheap["use_rate"] > dear["use_rate"]
    assert cheap["offered_players"] and dear["offered_players"]
    assert "offered / chosen" in result.stdout and "taken when offered" in result.stdout


@pytest.mark.parametrize(
    "sweep, message",
    [
        ("hand_size", "expected RULE=V1,V2"),
        ("hand_size=4,x", "must be JSON"),
        ("hand_size=0", "hand_size"),
        ("no_such_rule=3", "no_such_rule"),
        ("cost:Freelance Fighter=-1", "whole number 0 to 999"),
        ("cost:Nobody=3", "no card named 'Nobody'"),
        ("hand_size=" + ",".join(["5"] * 21), "at most 20"),
    ],
)
def test_a_bad_sweep_is_a_usage_error(sweep: str, message: str) -> None:
    result = CliRunner().invoke(command, [str(ROOT / "content" / "tutorial"), "--sweep", sweep])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.output


def test_variants_play_on_the_runs_assembly(tmp_path: Path) -> None:
    """A sweep to the rule's own value plays the run's games again: on the ship --modules
    names, not on ships drawn from the seeds."""
    args = [str(ROOT / "content" / "space"), "-n", "6", "-p", "3", "--bots", "random"]
    args += ["--seed", "4", "--modules", "1=Med Lab, 2=Armory, 3=Crew Quarters"]
    args += ["--sweep", "hand_size=5", "--json", str(tmp_path / "r.json")]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output
    [variant] = json.loads((tmp_path / "r.json").read_text())["variants"]
    assert variant["rounds"]["delta"] == 0
    assert all(s["win_rate_delta"] == 0 for s in variant["by_seat"])


def test_a_variant_played_after_its_base_acts_on_its_own_cards(tutorial_ir: dict) -> None:
    # A variant shares its base's board; what the engine and the bots work out once per board
    # (which cards are cheap enough to offer, the deck's dragon share) is its own all the same.
    from clankwork.interpreter import actions
    from clankwork.interpreter.bot_routes import _board_info
    from clankwork.tools.report_variants import Change

    base = prepare(tutorial_ir)
    game = Game(base, [make_bot("heuristic", k) for k in range(2)], 1)
    game.begin_turn(game.active)
    actions.legal_actions(game, game.active)  # the base's listing is made first
    card = game.row[0]
    assert card.cost > 0
    variant = apply_changes(base, (Change("cost", card.name, value=0),))
    assert variant.board is base.board
    other = Game(variant, [make_bot("heuristic", k) for k in range(2)], 1)
    other.begin_turn(other.active)
    other.active.skill = 0
    labels = [o.label for o in actions.legal_actions(other, other.active)]
    assert f"acquire {card.name}" in labels
    dragons = [c.name for c in base.cards if c.deck == "adventure" and c.dragon]
    fewer = apply_changes(base, tuple(Change("without", n) for n in dragons))
    assert _board_info(Game(fewer, [make_bot("heuristic", 0)] * 2, 1)).dragon_share == 0
    assert _board_info(game).dragon_share > 0


def test_the_ladder_gives_seat_ones_share_for_each_bot(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    args = [str(ROOT / "content" / "tutorial"), "-n", "30", "--bots", "greedy"]
    result = CliRunner().invoke(command, [*args, "--ladder", "random,greedy", "--json", str(out)])
    assert result.exit_code == 0, result.output
    rep = json.loads(out.read_text())
    Draft202012Validator(SCHEMA).validate(rep)
    random_rung, greedy_rung = rep["first_player_by_bot"]
    assert (random_rung["bot"], greedy_rung["bot"]) == ("random", "greedy")
    # The greedy rung is the run itself: the same seeds, the same bots.
    assert greedy_rung["win_rate"] == rep["wins"]["first_player"]["win_rate"]
    assert random_rung["played"] == 30 and random_rung["games"] <= 30
    assert "first-player advantage by bot strength" in result.stdout
    bad = CliRunner().invoke(command, [*args, "--ladder", "random,genius"])
    assert bad.exit_code == 2 and "unknown bot 'genius'" in bad.stderr


def test_the_ladder_takes_a_search_bot_at_a_budget(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    args = [str(ROOT / "content" / "tutorial"), "-n", "2", "-p", "2", "--bots", "greedy"]
    result = CliRunner().invoke(command, [*args, "--ladder", "search:4", "--json", str(out)])
    assert result.exit_code == 0, result.output
    [rung] = json.loads(out.read_text())["first_player_by_bot"]
    assert rung["bot"] == "search:4" and rung["played"] == 2
    bad = CliRunner().invoke(command, [*args, "--ladder", "greedy,search:1"])
    assert bad.exit_code == 2 and "search:1" in bad.stderr and "--ladder" in bad.stderr
