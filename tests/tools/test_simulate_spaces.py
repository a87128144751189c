"""The report says how players answered what spaces asked (an entry toll: fight its guard or
take its damage; a token to take from another room) and which of the pack's actions they
took, in the text, the JSON (schemas/report.schema.json) and the HTML page; tokens carry
their type, and designs of one type add up. The Forgotten Vault has all of these."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import GameStats
from clankwork.tools.check import load_ir
from clankwork.tools.report_html import build_page
from clankwork.tools.simulate import bot_seed, command, game_seeds

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, Path]:
    out = tmp_path_factory.mktemp("spaces")
    args = [str(ROOT / "content" / "vault"), "-n", "24", "-p", "4", "--seed", "2"]
    args += ["--json", str(out / "run.json"), "--log-dir", str(out / "logs")]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.stderr
    return json.loads((out / "run.json").read_text()), result.stdout, out / "logs"


def test_the_report_follows_its_schema(run: tuple[dict, str, Path]) -> None:
    rep, _, _ = run
    assert not [e.message for e in Draft202012Validator(SCHEMA).iter_errors(rep)][:3]


def test_tolls_are_answered_by_fighting_or_by_damage(run: tuple[dict, str, Path]) -> None:
    rep, stdout, _ = run
    perches = {"Room 7", "Room 14", "Room 21", "Room 25", "Room 31"}
    answers = Counter(c["choice"] for c in rep["space_choices"] if c["space"] in perches)
    assert set(answers) == {
        "take 1 damage",
        "spend 3 Swords to defeat the gargoyle on this space",
    }
    rows = [c for c in rep["space_choices"] if c["space"] in perches]
    for c in rows:
        assert c["per_game"] == pytest.approx(c["times"] / rep["games"], abs=1e-3)
    assert "answered (entry tolls, what a space offers)" in stdout
    assert "taken a game, by type: " in stdout and "study " in stdout and "gargoyle " in stdout
    types = {t["name"]: t["type"] for t in rep["tokens"]}
    assert types["Skill Study Token"] == "study" and types["Gargoyle of Gold"] == "gargoyle"


def test_actions_taken_are_the_logs_actions(run: tuple[dict, str, Path]) -> None:
    rep, stdout, logs = run
    logged: Counter[str] = Counter()
    for path in sorted(logs.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["type"] == "decision" and rec["kind"] == "action":
                logged[rec["label"]] += 1
    acted = {a["name"]: a["taken"] for a in rep["actions"]}
    # The report counts actions by name; the log's labels say where ("... at Room 7").
    by_name: Counter[str] = Counter()
    for label, n in logged.items():
        for name in acted:
            if label.startswith(f"{name} at ") or label.startswith(f"{name} with "):
                by_name[name] += n
    assert acted and by_name == acted
    assert "use the hook" in acted and "fight the gargoyle" in acted
    assert ["action", "taken", "a", "game"] in [line.split() for line in stdout.splitlines()]


def test_moves_by_way_are_the_logs_moves(run: tuple[dict, str, Path]) -> None:
    """The report counts moves by way (ropes on this board, tunnels for plain paths), as the
    logs' `move to X [by WAY]` decisions do."""
    rep, stdout, logs = run
    logged: Counter[str] = Counter()
    for path in sorted(logs.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["type"] == "decision" and rec["label"].startswith("move to "):
                # "move to Room 3 (1 swords, 0 damage) by rope": the way comes last.
                label = rec["label"]
                logged[label.rsplit(" by ", 1)[1] if " by " in label else "tunnel"] += 1
    moves = {m["way"]: m["moves"] for m in rep["moves"]}
    assert {w: n for w, n in moves.items() if n} == dict(logged)
    assert moves["rope"] > 0 and moves["tunnel"] > moves["rope"]
    # Every way the pack declares is listed: the swing (the clock side's) with 0 here.
    assert moves["swing"] == 0 and rep["moves"][-1]["way"] == "swing"
    assert [m["moves"] for m in rep["moves"]] == sorted(moves.values(), reverse=True)
    assert ["moves", "by", "way", "moves", "a", "game"] in [x.split() for x in stdout.splitlines()]
    assert "<h2>Moves by way</h2>" in build_page(rep)


def test_a_toll_is_counted_each_time_a_player_meets_it() -> None:
    """Every entry onto a perch where a gargoyle lies asks the toll once, whether the player
    had a choice or only one option was open (then the log shows no decision)."""
    cat = prepare(load_ir(None, "vault"))

    class Meeting(GameStats):
        __slots__ = ("met",)

        def __init__(self, spaces: int, players: int) -> None:
            super().__init__(spaces, players)
            self.met: Counter[int] = Counter()

        def on_enter(self, game, player, space) -> None:  # type: ignore[no-untyped-def]
            super().on_enter(game, player, space)
            if any(t.type == "gargoyle" for t in game.space_tokens[space]):
                self.met[space] += 1

    for seed in game_seeds(6, 4):
        stats = Meeting.for_game(cat, 4)
        bots = [make_bot("heuristic", bot_seed(seed, k)) for k in range(4)]
        Game(cat, bots, seed, stats=stats).play()
        answered: Counter[int] = Counter()
        for (space, _), n in stats.choices.items():
            if space in cat.board.tolled:
                answered[space] += n
        assert answered == stats.met


def test_the_page_shows_tokens_tolls_and_actions(run: tuple[dict, str, Path]) -> None:
    rep, _, _ = run
    page = build_page(rep)
    for head in ("<h2>Tokens</h2>", "<h2>What spaces asked</h2>", "<h2>Actions taken</h2>"):
        assert head in page
    assert "Taken a game, by type: " in page
    assert "spend 3 Swords to defeat the gargoyle on this space" in page


def test_a_sections_any_to_any_moves_are_no_paths_in_warnings_or_heatmaps(
    tmp_path: Path,
) -> None:
    """The clock's swings join every two rooms of a pendulum section: a pair never swung
    between is not a "path never walked", and the run's heatmap draws on its board with no
    warning about names the board lacks."""
    from clankwork.tools.render import render

    out = tmp_path / "clock.json"
    args = [str(ROOT / "content" / "vault"), "--board", "clock", "-n", "20", "-p", "4"]
    result = CliRunner().invoke(command, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.stderr
    never = [ln for ln in result.stderr.splitlines() if "paths never walked" in ln]
    assert never and "Room 2–Room 4" not in never[0]  # a swing pair of section 1
    rep = json.loads(out.read_text())
    paths = rep["heatmap"]["paths"]
    assert paths["Room 2->Room 4"] == paths["Room 4->Room 2"] == 0  # counted, never swung
    drawn = CliRunner().invoke(
        render,
        [
            "board",
            str(ROOT / "content" / "vault"),
            "--board",
            "clock",
            "--heatmap",
            str(out),
            "-o",
            str(tmp_path / "clock.svg"),
        ],
    )
    assert drawn.exit_code == 0, drawn.output
    assert "names what board" not in drawn.stderr
