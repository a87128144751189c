"""`clankwork campaign record`: games played at a real table go into the campaign, checked
against the pack, with their passages read and their choices made by the people."""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner

from clankwork.tools.campaign import fold, read_log, readings
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
ACQINC = str(ROOT / "content" / "acqinc")
EXAMPLES = ROOT / "docs" / "examples"


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["campaign", *args], input=input)
    return result.exit_code, result.output


def _new(tmp_path: Path, players: int = 4) -> Path:
    file = tmp_path / "ours.campaign"
    names = ",".join(["Ann", "Bo", "Cy", "Di"][:players])
    code, out = _run("new", ACQINC, str(file), "--players", str(players), "--names", names)
    assert code == 0, out
    return file


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_two_games_recorded_from_files_then_one_by_bots_then_a_sticker_undone(
    tmp_path: Path,
) -> None:
    """The issue's table: games 1 and 2 of a four-player acqinc campaign recorded by hand
    (from the example files), game 3 played by bots; status, history with passage text,
    and undo of a sticker."""
    file = _new(tmp_path)
    code, out = _run("record", str(file), "--from", str(EXAMPLES / "acqinc-game-1.toml"))
    assert code == 0, out
    # The passages are printed as they are read, with the choice and who made it.
    assert "passage 1: Welcome to your franchise." in out
    assert "passage 2: Your first quarter is over." in out and "Ann chose 1. Take the bonus" in out
    assert "game 1 (recorded): Ann 58, Bo 46, Cy 25, Di 0; Ann won" in out
    g1 = read_log(file).events[-1]
    assert g1["recorded"] is True and "log" not in g1
    assert g1["parts"][0] == {"artifact": 25, "tokens": 10, "gold": 14, "cards": 9}
    assert g1["status"] == ["escaped", "escaped", "knocked out", "died"]
    assert g1["contracts_completed"] == [["Pest Control", 1]]
    # The post-game steps ran on the table's results: reviews (scored, won), the contract's
    # passage, the epilogue's choice as the file says, a death's X and passage, the
    # waypoint passage read with Cy's seat.
    assert g1["review"]["checkmarks"][0] == ["scored more than 0", "won the game"]
    assert g1["review"]["checkmarks"][3] == []
    assert g1["epilogue"]["read"][0] == [2, 0] and g1["epilogue"]["by"] == 0
    assert g1["death"] and g1["marks"] == {"Dran Enterprises": 1}
    assert [r["by"] for r in readings(g1) if r["read"][0][0] == 42] == [2]
    assert g1["goals"][0] == {"Monster Hunter": 2}
    code, out = _run("record", str(file), "--from", str(EXAMPLES / "acqinc-game-2.toml"))
    assert code == 0, out
    g2 = read_log(file).events[-1]
    assert g2["table"]["stickers"] == ["Trophy Wall"]
    assert g2["table"]["destroyed"] == ["Expense Report"]
    assert g2["scores"][1] == 61 and g2["winners"] == [1]
    assert g2["review"]["checkmarks"][3].count("the game's cards or spaces") == 1
    code, out = _run("play", str(file))
    assert code == 0 and out.startswith("game 3: "), out
    assert "passage 9: The Regional Director hangs a mug rack" in out
    c = fold(read_log(file).events)
    assert c.next_game == 4 and "Trophy Wall" in c.stickers and "Expense Report" in c.destroyed
    assert c.marks["Dran Enterprises"] >= 2  # the death's and game 2's table's
    code, out = _run("status", str(file))
    assert code == 0
    assert "   1   58  46  25   0         15  played at the table" in out
    assert "   2   56  61  56  13         12  played at the table" in out
    assert "Trophy Wall: Franchise Board: whenever you defeat a monster: +1 Gold" in out
    code, out = _run("history", str(file))
    assert code == 0
    assert "game 1: Ann 58, Bo 46, Cy 25, Di 0 (played at the table, 15 rounds)" in out
    assert (
        "passage 2: Your first quarter is over. Head office offers a signing bonus, or a "
        "safer office. -> Ann chose 'Take the bonus'"
    ) in out
    assert "passage 42: The troll at the toll bridge" in out
    # A sticker applied by hand, then undone: the sticker goes, the games stay.
    assert _run("sticker", str(file), "Bulk Discount")[0] == 0
    code, out = _run("undo", str(file))
    assert code == 0 and "took back the sticker 'Bulk Discount' (applied before game 4)" in out
    after = fold(read_log(file).events)
    assert "Bulk Discount" not in after.stickers and after.next_game == 4
    code, out = _run("history", str(file))
    assert "sticker 'Bulk Discount' undone" in out
    # Undo once more: game 3 (bots) goes; played again, it is the same game.
    g3 = read_log(file).events[-3]
    assert g3["type"] == "game" and g3["game"] == 3
    code, out = _run("undo", str(file))
    assert code == 0 and "took back game 3 (played by bots)" in out
    assert _run("play", str(file))[0] == 0
    again = read_log(file).events[-1]
    assert {k: v for k, v in again.items() if k not in ("seq", "check")} == {
        k: v for k, v in g3.items() if k not in ("seq", "check")
    }
    # And a recorded game is taken back the same way, saying how to record it again.
    for _ in range(2):
        assert _run("undo", str(file))[0] == 0
    code, out = _run("history", str(file))
    assert "game 2 undone" in out
    assert fold(read_log(file).events).next_game == 2


BROKEN = """\
rounds = 12
colour = "red"

[[player]]
name = "Ann"
status = "escaped"
score = { artifact = 25, tokens = -3, glod = 2 }

[[player]]
name = "Bo"
status = "vanished"

[[player]]
name = "Cy"
status = "died"
score = 40

[[player]]
name = "Di"
goals = { "Monster Hunter" = 1 }

[[contracts]]
name = "Pest Contol"
by = "Bob"

[[passages]]
passage = 4242
by = 2

[table]
stickers = ["Mug Rak"]
destroyed = ["Expense Report"]

[choices]
2 = "Take the money"
"""


def test_a_results_file_is_checked_against_the_pack_every_problem_at_its_line(
    tmp_path: Path,
) -> None:
    file = _new(tmp_path)
    results = tmp_path / "results.toml"
    results.write_text(BROKEN)
    before = _sha(file)
    result = CliRunner().invoke(main, ["campaign", "record", str(file), "--from", str(results)])
    out = result.output
    assert result.exit_code == 1, out
    assert "Traceback" not in out and _sha(file) == before
    r = str(results)
    expected = [
        (f"{r}:2:1", "error[CW150]: unknown key 'colour'"),
        (f"{r}:7:", "error[CW152]: Ann's tokens: -3 is out of range"),
        (f"{r}:7:", "error[CW150]: no score part 'glod'"),
        (f"{r}:11:", "error[CW152]: status 'vanished'"),
        (f"{r}:16:", "error[CW152]: Cy died and scores nothing, not 40"),
        (f"{r}:20:", "error[CW151]: 'Monster Hunter' is player 1's goal, not Di's"),
        (f"{r}:23:", "error[CW151]: acqinc has no contract named 'Pest Contol'"),
        (f"{r}:27:", "error[CW151]: the pack has no passage 4242"),
        (f"{r}:31:", "error[CW151]: acqinc has no sticker named 'Mug Rak'"),
        (f"{r}:35:", "error[CW151]: passage 2: 'Take the money' is none of its options"),
    ]
    for where, message in expected:
        assert message in out, message
        assert where in out, where
    assert 'did you mean "Pest Control"?' in out and 'did you mean "Mug Rack"?' in out
    assert "10 problems; nothing was recorded" in out
    # Not TOML at all: its line and column.
    results.write_text('rounds = 12\n[[player]\nname = "Ann"\n')
    code, out = _run("record", str(file), "--from", str(results))
    assert code == 1 and "error[CW150]: not TOML" in out and f"{r}:2:" in out
    assert _sha(file) == before


def test_a_choice_the_file_does_not_answer_is_asked_for_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    file = _new(tmp_path)
    text = (EXAMPLES / "acqinc-game-1.toml").read_text()
    results = tmp_path / "results.toml"
    results.write_text(text.replace('2 = "Take the bonus"', ""))
    before = _sha(file)
    code, out = _run("record", str(file), "--from", str(results))
    assert code == 1 and "passage 2 offers a choice (Take the bonus / Reinforce the tunnels)" in out
    assert 'add it under [choices], e.g. 2 = "Take the bonus"' in out
    assert _sha(file) == before


def test_a_game_is_recorded_by_answering_questions_in_the_terminal(tmp_path: Path) -> None:
    file = _new(tmp_path, players=2)
    answers = [
        # Ann: status, four score parts (a word refused first), her two goals, checkmarks
        *("escaped", "20", "5", "x", "7", "3", "1", "0", "0"),
        # Bo: a wrong status first, then died (no score parts asked), goals, checkmarks
        *("gone", "died", "0", "0", "0"),
        "11",  # rounds
        *("Pest Control:Bob", "Pest Control:Ann"),  # a name that is no player, then right
        "42:2",  # passages reached
        *("Mug Rack", "", ""),  # stickers, fetched, destroyed
        "0",  # X on the Dran Enterprises track
        *("3", "2"),  # the epilogue's choice, asked of Ann (the winner): out of range, then 2
    ]
    code, out = _run("record", str(file), input="\n".join(answers) + "\n")
    assert code == 0, out
    assert "'x' is not a whole number" in out and "status 'gone'" in out
    assert "no player named 'Bob'" in out and "choose 1 to 2" in out
    assert "Ann, your choice for passage 2 (1-2)" in out
    g = read_log(file).events[-1]
    assert g["scores"] == [35, 0] and g["winners"] == [0] and g["rounds"] == 11
    assert g["goals"] == [{"Monster Hunter": 1}, {}]
    assert g["epilogue"]["read"][0] == [2, 1]
    assert g["table"]["stickers"] == ["Mug Rack"]
    assert fold(read_log(file).events).contracts == []  # Pest Control completed


def test_a_campaign_with_a_person_s_seat_records_a_table_game_too(tmp_path: Path) -> None:
    file = tmp_path / "ours.campaign"
    code, out = _run(
        "new", ACQINC, str(file), "--players", "4", "--names", "Ann,Bo,Cy,Di",
        "--bots", "human,heuristic,heuristic,heuristic",
    )  # fmt: skip
    assert code == 0, out
    code, out = _run("record", str(file), "--from", str(EXAMPLES / "acqinc-game-1.toml"))
    assert code == 0, out
    assert read_log(file).events[-1]["bots"] == ["human"] * 4
