"""Passages read when they happen (the Legacy rulebook: "When a player enters such a space,
pause their turn and read the corresponding Passage in the Book. (They resume their turn
afterward.)"): the engine's `read_now`, the campaign's readings of them, and campaign files
written before (tests/fixtures/passages_now, tests/fixtures/campaigns)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.stickers import with_waypoints
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.decisions import Decision
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import read_log as read_game_log
from clankwork.tools.campaign import CampaignGame, fold, read_log, readings
from clankwork.tools.cli import main
from clankwork.tools.menus import question
from clankwork.tools.passages import read_during_game
from clankwork.tools.scenario_cmd import run_one

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "tests" / "fixtures" / "passages_now"
OLD = ROOT / "tests" / "fixtures" / "campaigns"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["campaign", *args])
    return result.exit_code, result.output


def test_a_campaign_game_reads_a_waypoint_as_it_is_entered() -> None:
    """The passage is read during the game, its contract open from then on (the scenarios
    of the fixture show it read mid-turn); a plain game reads nothing."""
    ir = compile_pack(PACK).ir
    g = Game(with_waypoints(ir), [make_bot("heuristic", 0), make_bot("heuristic", 1)], 3)
    g.play()
    assert g.opened_contracts == ["Courier"]
    assert g.passages_read[:2] == [[7, 0, -1, 1], [8, 0, -1, 1]]
    assert g.completed_contracts == [["Courier", 0]]
    plain = Game(ir, [make_bot("heuristic", 0), make_bot("heuristic", 1)], 3)
    plain.play()
    assert plain.passages_read == [] and plain.reads == [] and plain.opened_contracts == []


def test_the_campaign_keeps_what_was_read_during_the_game_with_its_choices() -> None:
    ir = compile_pack(PACK).ir
    records = [[7, 1, -1, 1], [10, 0, 1, 1], [11, 0, -1, 0]]
    got = read_during_game(ir, records)
    assert [r["read"] for r in got] == [[[7, None]], [[10, 1], [11, None]]]
    assert got[1]["checkmarks"] == 1
    assert [r["by"] for r in got] == [1, 0]
    assert got[0]["contracts"] == ["Courier"]


def test_a_contract_a_waypoint_opens_is_completed_in_the_same_campaign_game(
    tmp_path: Path,
) -> None:
    """Before, the waypoint's passage was read after the game: its contract could only be
    completed in the next one."""
    file = tmp_path / "p.campaign"
    assert _run("new", str(PACK), str(file), "--players", "2", "--seed", "3")[0] == 0
    code, out = _run("play", str(file))
    assert code == 0, out
    game = read_log(file).events[-1]
    assert game["contracts_completed"] == [["Courier", 0]]
    during = game["during"]
    assert [r["read"] for r in during] == [[[7, None]], [[8, None]]]
    assert during[0]["contracts"] == ["Courier"]
    # Its passage (8, a checkmark each) read when it was completed, not again after.
    assert [n for r in readings(game) for n, _ in r["read"]].count(8) == 1
    c = fold(read_log(file).events)
    assert c.contracts == []  # opened and completed in the same game


def test_a_campaign_file_written_before_still_loads_the_same(tmp_path: Path) -> None:
    """A file of main before passages were read during play (no `during`): `status` says
    what that version said, and the next game is appended after its lines, unchanged."""
    file = tmp_path / "old.campaign"
    shutil.copy(OLD / "acqinc-before-passages-now.campaign", file)
    before = file.read_bytes()
    pack = str(ROOT / "content" / "acqinc")
    code, out = _run("status", str(file), "--pack", pack)
    assert code == 0, out
    want = (OLD / "acqinc-before-passages-now.status").read_text(encoding="utf-8")
    assert out.splitlines()[1:] == want.splitlines()[1:]
    code, out = _run("play", str(file), "--pack", pack)
    assert code == 0, out
    after = file.read_bytes()
    assert after.startswith(before)
    assert (
        len(read_log(file).events)
        == len(read_log(OLD / "acqinc-before-passages-now.campaign").events) + 1
    )


def test_the_fixture_scenarios_pass() -> None:
    """Written from the rulebook's words before the engine read passages during play: the
    contract a waypoint opens, completed at the end of the same turn, failed then."""
    ir = compile_pack(PACK).ir
    scenarios, diags, _ = compile_scenarios(PACK, ir)
    assert not diags and len(scenarios) == 4
    failed = {}
    for sc in scenarios:
        outcome = run_one(ir, sc, {})
        if not outcome.ok:
            failed[sc["name"]] = [f.message for f in outcome.failures]
    assert failed == {}


def test_a_recorded_game_may_complete_a_contract_its_waypoint_opened(tmp_path: Path) -> None:
    """At the table the waypoint was read when it was entered: the contract it opened may be
    among the game's completed contracts (before, it was refused: not in the row)."""
    file = tmp_path / "p.campaign"
    assert _run("new", str(PACK), str(file), "--players", "2", "--names", "Ann,Bo")[0] == 0
    results = tmp_path / "game.toml"
    results.write_text(
        '[[player]]\nstatus = "escaped"\nscore = 30\n\n'
        '[[player]]\nstatus = "escaped"\nscore = 20\n\n'
        '[[contracts]]\nname = "Courier"\nby = "Ann"\n\n'
        '[[passages]]\npassage = 7\nby = "Ann"\n',
        encoding="utf-8",
    )
    code, out = _run("record", str(file), "--from", str(results))
    assert code == 0, out
    game = read_log(file).events[-1]
    assert game["contracts_completed"] == [["Courier", 0]]
    read = [n for r in readings(game) for n, _ in r["read"]]
    assert 7 in read and 8 in read
    assert fold(read_log(file).events).contracts == []


class _Asked:
    """A seat that takes the second option of every question and keeps what it was asked."""

    name = "asked"

    def __init__(self) -> None:
        self.asked: list[Decision] = []

    def choose(self, view: object, decision: Decision) -> int:
        self.asked.append(decision)
        return 1 if len(decision.options) > 1 else 0


def test_a_passages_choice_is_asked_of_its_player_with_its_text() -> None:
    """The choice goes through the game's decisions (a bot, or a person's menu headed with
    the passage's text); the option taken leads to its passage, read at once."""
    ir = compile_pack(PACK).ir
    seat = _Asked()
    g = Game(with_waypoints(ir), [seat, make_bot("heuristic", 1)], 3)
    assert g.read_now(g.players[0], 10)
    (asked,) = [d for d in seat.asked if d.source == "passage 10"]
    assert asked.labels == ["Take the low road", "Take the high road"]
    assert question(g, asked) == "passage 10: Two roads part at the crossroads. choose one:"
    assert g.passages_read == [[10, 0, 1, 1], [11, 0, -1, 0]]
    assert g.reads == [10, 11]
    # Once a game: entering again reads nothing more.
    assert g.read_now(g.players[1], 10)
    assert len(g.passages_read) == 2


def test_a_bot_takes_the_option_whose_passage_is_worth_more_to_it() -> None:
    """The high road's passage gives a checkmark, the low road's nothing: the bots weigh
    what each option's passage does, as they weigh any effect."""
    ir = compile_pack(PACK).ir
    for bot in ("heuristic", "greedy"):
        g = Game(with_waypoints(ir), [make_bot(bot, 0), make_bot(bot, 1)], 3)
        g.read_now(g.players[0], 10)
        assert g.passages_read[0] == [10, 0, 1, 1], bot


def test_a_tables_pick_takes_a_choice_read_during_play() -> None:
    """`campaign simulate --choices random` picks for the seats during play too."""
    ir = compile_pack(PACK).ir
    bots = [make_bot("heuristic", 0), make_bot("heuristic", 1)]
    g = CampaignGame(prepare(with_waypoints(ir)), bots, 3, picks=[lambda ps: 0, None])
    g.read_now(g.players[0], 10)
    assert g.passages_read[0] == [10, 0, 0, 1]  # the heuristic bot would take option 2


def test_the_log_of_a_game_that_completes_a_contract_reads_back() -> None:
    """A completed contract is kept in the state (`completed_contracts`), not as a record of
    the game's log, whose records are a header, decisions and a result: the log of a person's
    campaign game (`campaign play` with a human seat writes it as the engine appends) could
    not be read back by `clankwork replay`."""
    ir = compile_pack(PACK).ir
    g = Game(with_waypoints(ir), [make_bot("heuristic", 0), make_bot("heuristic", 1)], 3)
    g.play()
    assert g.completed_contracts == [["Courier", 0]]
    text = "\n".join(json.dumps(record) for record in g.log)
    got = read_game_log(text)
    assert got.result is not None and len(got.decisions) == len(g.log) - 2
