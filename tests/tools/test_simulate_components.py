"""The report's acquisition timing and its monsters, events and tokens tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import GameStats
from clankwork.tools.check import load_ir
from clankwork.tools.simulate import command

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, Path]:
    out = tmp_path_factory.mktemp("components")
    args = ["-n", "30", "-p", "4", "--seed", "5", "--bots", "heuristic,greedy,greedy,random"]
    args += ["--json", str(out / "run.json"), "--log-dir", str(out / "logs")]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.stderr
    return json.loads((out / "run.json").read_text()), result.stdout, out / "logs"


def test_the_report_follows_its_schema(run: tuple[dict, str, Path]) -> None:
    rep, _, _ = run
    assert not [e.message for e in Draft202012Validator(SCHEMA).iter_errors(rep)][:3]


def test_market_items_bought_are_the_logs_buys(run: tuple[dict, str, Path]) -> None:
    rep, _, logs = run
    bought: dict[str, int] = {}
    for path in sorted(logs.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["type"] == "decision" and rec["label"].startswith("buy "):
                name = rec["label"][4:]
                bought[name] = bought.get(name, 0) + 1
    market = {t["name"]: t["taken"] for t in rep["tokens"] if t["kind"] == "market"}
    assert bought and {k: v for k, v in market.items() if v} == bought


def test_per_game_figures_and_first_rounds_add_up(run: tuple[dict, str, Path]) -> None:
    rep, _, _ = run
    games = rep["games"]
    cat = prepare(load_ir(None, "acqinc"))
    # Events held in the Cardporium are out of play (a campaign fetches them).
    assert [e["name"] for e in rep["events"]] == [
        c.name for c in cat.cards if c.type == "event" and c.deck != "cardporium"
    ]
    assert sum(e["revealed"] for e in rep["events"]) > 0
    assert sum(t["taken"] for t in rep["tokens"] if t["kind"] in ("minor", "major")) > 0
    for row in (*rep["monsters"], *rep["events"], *rep["tokens"]):
        count = row.get("defeated", row.get("revealed", row.get("taken")))
        assert row["per_game"] == pytest.approx(count / games, abs=1e-3)
        assert row["per_game_ci"]["low"] <= row["per_game"] <= row["per_game_ci"]["high"]
    for t in rep["tokens"]:
        assert t["players"] <= t["taken"] and t["wins"] <= t["players"]
    for c in rep["cards"]:
        if c["players"]:
            assert 1 <= c["first_round"] <= rep["rounds"]["max"]
        else:
            assert c["first_round"] == 0
    starting = min((c for c in rep["cards"] if c["players"] > 20), key=lambda c: c["first_round"])
    assert starting["first_round"] < 4  # some card is bought in the first rounds


def test_the_tables_are_printed(run: tuple[dict, str, Path]) -> None:
    _, stdout, _ = run
    heads = [line.split() for line in stdout.splitlines()]
    for header in (
        ["monster", "fight", "defeated", "a", "game"],
        ["event", "revealed", "a", "game"],
        ["token", "kind", "points", "taken", "a", "game", "players", "win", "rate"],
    ):
        assert header in heads, header
    assert "first round" in stdout


def test_the_hooks_count_what_happens() -> None:
    cat = prepare(load_ir(None, "acqinc"))
    stats = GameStats.for_game(cat, 2)
    game = Game(cat, [make_bot("greedy", k) for k in range(2)], 4, stats=stats)
    p = game.active
    game.take_secret(p, "minor")
    assert sum(stats.tokens[p.seat].values()) == 1
    game.round = 3
    card = next(c for c in cat.cards if c.type == "acquire" and c.deck == "reserve")
    stats.on_acquire(game, p, card)
    game.round = 5
    stats.on_acquire(game, p, card)
    assert stats.first_round[p.seat][card.name] == 3  # the first copy's round
    event = next(c for c in cat.cards if c.type == "event")
    before = stats.events.get(event.name, 0)
    game.adventure_deck.append(event)
    game.row.clear()
    game.refill_row()
    assert stats.events[event.name] == before + 1
