"""`clankwork campaign`: an append-only, checksummed campaign file that never loses a game."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import jsonschema
import pytest
from click.testing import CliRunner

from clankwork.tools import campaign as campaign_tool
from clankwork.tools.campaign import create, fold, read_log, readings
from clankwork.tools.campaign_schema import campaign_schema_text
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
PACK = str(ROOT / "content" / "tutorial")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["campaign", *args])
    return result.exit_code, result.output


def _new(tmp_path: Path) -> Path:
    file = tmp_path / "c.campaign"
    code, out = _run("new", PACK, str(file), "--players", "2", "--seed", "5")
    assert code == 0, out
    return file


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _two_player_start() -> tuple[dict, dict]:
    """A two-player campaign's first event, and a game's review with nothing in it (for
    folds of hand-written events)."""
    first = {
        "type": "campaign",
        "pack": "x",
        "pack_name": "x",
        "players": 2,
        "names": ["A", "B"],
        "seed": 1,
        "bots": ["random", "random"],
    }
    return first, {"checkmarks": [[], []], "promotions": []}


def test_games_are_played_undone_and_played_again_the_same(tmp_path: Path) -> None:
    file = _new(tmp_path)
    outs = []
    for _ in range(3):
        code, out = _run("play", str(file))
        assert code == 0, out
        outs.append(out)
    assert outs[0].startswith("game 1: ") and outs[2].startswith("game 3: ")
    before = read_log(file).events[-1]
    code, out = _run("undo", str(file))
    assert code == 0 and "took back game 3 (played by bots)" in out
    assert fold(read_log(file).events).next_game == 3
    code, out = _run("play", str(file))
    assert out == outs[2]
    again = read_log(file).events[-1]
    assert {k: v for k, v in again.items() if k not in ("seq", "check")} == {
        k: v for k, v in before.items() if k not in ("seq", "check")
    }
    # History keeps the undone game; status counts the games that stand.
    code, out = _run("history", str(file))
    assert code == 0 and "game 3 undone" in out and out.count("game 3: ") == 2
    code, out = _run("status", str(file))
    assert code == 0 and "games played: 3" in out
    assert " track:" not in out  # the tutorial declares no campaign track


def test_reviews_give_checkmarks_for_scoring_and_winning(tmp_path: Path) -> None:
    file = _new(tmp_path)
    for _ in range(2):
        assert _run("play", str(file))[0] == 0
    c = fold(read_log(file).events)
    want = [0, 0]
    for g in c.games:
        for seat, score in enumerate(g["scores"]):
            want[seat] += (score > 0) + (seat in g["winners"])
        assert g["death"] == any(s == 0 for s in g["scores"])
    assert c.checkmarks == want


def test_a_write_cut_off_loses_at_most_the_game_it_was_writing(tmp_path: Path) -> None:
    file = _new(tmp_path)
    assert _run("play", str(file))[0] == 0
    whole = file.read_bytes()
    # What an interrupted append leaves: part of the next line, without its newline.
    file.write_bytes(whole + b'{"check":"0123","end":"all off')
    code, out = _run("status", str(file))
    assert code == 0 and "games played: 1" in out and "cut off" in out
    code, out = _run("play", str(file))
    assert code == 0 and "game 2: " in out, out
    events = read_log(file).events
    assert [e["seq"] for e in events] == [1, 2, 3] and file.read_bytes().startswith(whole)


def test_kill_9_during_play_leaves_a_file_that_loads(tmp_path: Path) -> None:
    file = _new(tmp_path)
    cmd = [str(Path(sys.executable).with_name("clankwork")), "campaign", "play", str(file)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    code, out = _run("status", str(file))
    assert code == 0 and ("games played: 0" in out or "games played: 1" in out), out


def test_a_flipped_byte_is_refused_with_its_line_and_the_file_is_kept(tmp_path: Path) -> None:
    file = _new(tmp_path)
    for _ in range(2):
        assert _run("play", str(file))[0] == 0
    data = bytearray(file.read_bytes())
    lines = data.split(b"\n")
    at = len(lines[0]) + 1 + len(lines[1]) // 2  # the middle of line 2
    data[at] = ord("7") if data[at] != ord("7") else ord("8")
    file.write_bytes(bytes(data))
    sha = _sha(file)
    for cmd in ("status", "history", "play", "undo"):
        code, out = _run(cmd, str(file))
        assert code == 1, (cmd, out)
        assert f"{file}:2:" in out and "left as it is" in out
    assert _sha(file) == sha


def test_new_never_overwrites_a_campaign(tmp_path: Path) -> None:
    file = _new(tmp_path)
    sha = _sha(file)
    code, out = _run("new", PACK, str(file))
    assert code == 1 and "never overwritten" in out and _sha(file) == sha


def test_new_never_overwrites_a_campaign_made_meanwhile(tmp_path: Path, monkeypatch) -> None:
    # Another `new` made the file between this one's check and its write: the write refuses.
    file = _new(tmp_path)
    sha = _sha(file)
    monkeypatch.setattr(Path, "exists", lambda self, **kw: False)
    monkeypatch.setattr(Path, "is_symlink", lambda self: False)
    first, _ = _two_player_start()
    with pytest.raises(click.ClickException, match="never overwritten"):
        create(file, {**first, "format": "clankwork-campaign/2"})
    monkeypatch.undo()
    assert _sha(file) == sha
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.campaign"]


# -- one writer at a time -----------------------------------------------------------------


@contextlib.contextmanager
def _held(file: Path) -> Iterator[None]:
    """The campaign file's lock, held here as another writing command would hold it."""
    fd = os.open(file, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def test_two_plays_at_once_play_game_1_then_game_2(tmp_path: Path) -> None:
    file = _new(tmp_path)
    cmd = [str(Path(sys.executable).with_name("clankwork")), "campaign", "play", str(file)]
    with _held(file):
        procs = [
            subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        # Each says it waits before it reads anything: both are at the lock together.
        waiting = [p.stderr.readline() for p in procs]  # type: ignore[union-attr]
    done = [p.communicate() for p in procs]
    firsts = sorted(out.splitlines()[0].split(":")[0] for out, _ in done if out)
    assert firsts == ["game 1", "game 2"], done
    assert [p.returncode for p in procs] == [0, 0], done
    for line in waiting:
        assert line.startswith(f"waiting: another campaign command is writing {file}"), waiting
    assert [e["game"] for e in read_log(file).events[1:]] == [1, 2]
    code, out = _run("status", str(file))
    assert code == 0 and "games played: 2; next: game 3" in out


def test_a_writer_waits_at_most_lock_wait_then_says_so(tmp_path: Path, monkeypatch) -> None:
    file = _new(tmp_path)
    assert _run("play", str(file))[0] == 0
    sha = _sha(file)
    monkeypatch.setattr(campaign_tool, "LOCK_WAIT", 0.0)
    with _held(file):
        for args in (("play",), ("undo",), ("sticker", "Anything")):
            result = CliRunner().invoke(main, ["campaign", args[0], str(file), *args[1:]])
            assert result.exit_code == 1, result.output
            assert "Traceback" not in result.output
            assert result.stderr.splitlines() == [
                f"waiting: another campaign command is writing {file} (it holds the file's lock)",
                f"Error: {file}: another campaign command has been writing it for 0 seconds; "
                "nothing was written: try again when it is done",
            ]
            assert _sha(file) == sha


def test_a_reader_never_waits_for_a_writer_nor_takes_its_append_for_damage(
    tmp_path: Path,
) -> None:
    file = _new(tmp_path)
    assert _run("play", str(file))[0] == 0
    with _held(file):
        # A writer at work, half-way through appending its line: readers go on without it.
        with file.open("ab") as f:
            f.write(b'{"check":"0123","end":"all off')
        for cmd in ("status", "history", "rules"):
            code, out = _run(cmd, str(file))
            assert code == 0, (cmd, out)
            assert "cut off" not in out, (cmd, out)
        assert "games played: 1" in _run("status", str(file))[1]
    # No writer now: that line was cut off by an interrupted write, and is said so.
    code, out = _run("status", str(file))
    assert code == 0 and "games played: 1" in out and "cut off" in out


def test_a_campaign_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "c.campaign"
    os.mkfifo(fifo)
    cmd = [str(Path(sys.executable).with_name("clankwork")), "campaign"]
    for sub in ("status", "play"):
        # The timeout only stops a hang (reading a FIFO with no writer waits for ever).
        done = subprocess.run([*cmd, sub, str(fifo)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done
        assert f"{fifo}: not a regular file, so not a campaign file" in done.stderr


def test_the_schema_is_current_and_every_line_fits(tmp_path: Path) -> None:
    committed = (ROOT / "schemas" / "campaign.schema.json").read_text()
    assert committed == campaign_schema_text(), "run `clankwork schema --write`"
    file = _new(tmp_path)
    assert _run("play", str(file))[0] == 0
    assert _run("undo", str(file))[0] == 0
    schema = json.loads(committed)
    for line in file.read_text().splitlines():
        jsonschema.validate(json.loads(line), schema)


def test_simulate_reports_each_game_of_the_arc() -> None:
    code, out = _run("simulate", PACK, "--campaigns", "3", "--games", "2", "--players", "2")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("3 campaigns of 2 games of tutorial, 2 players (passage choices")
    assert [ln.split()[0] for ln in lines[2:]] == ["1", "2"]
    again = _run("simulate", PACK, "--campaigns", "3", "--games", "2", "--players", "2")[1]
    assert again == out  # the same seed, the same campaigns


def test_simulate_gives_intervals_and_measures_every_branch_of_a_choice() -> None:
    """With --choices random both options of acqinc's passage 2 get played, each with the
    mean score of the games after it; the figures come with intervals over the campaigns."""
    acqinc = str(ROOT / "content" / "acqinc")
    args = ("simulate", acqinc, "--campaigns", "6", "--games", "2", "--players", "2")
    code, out = _run(*args, "--choices", "random")
    assert code == 0, out
    assert "(passage choices: a random pick; ± a 95% interval over the campaigns)" in out
    game_one = out.splitlines()[2].split()
    assert game_one[0] == "1" and game_one[2].startswith("±")
    branches = [ln for ln in out.splitlines() if ln.startswith("  passage 2: ")]
    assert len(branches) == 2 and all("later games: mean score" in ln for ln in branches)
    assert _run(*args, "--choices", "random")[1] == out


def test_a_sticker_applies_to_every_later_game(tmp_path: Path) -> None:
    """acqinc's [R22] sticker gives 5 gold at scoring to each player with an artifact: the
    same game (same seed) scores more for those players once it is applied."""
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "2", "--seed", "3")[0] == 0
    assert _run("play", str(file))[0] == 0
    plain = read_log(file).events[-1]
    assert _run("undo", str(file))[0] == 0
    code, out = _run("sticker", str(file), "Quarterly Bonus")
    assert code == 0 and "slot R22" in out
    assert _run("play", str(file))[0] == 0
    stickered = read_log(file).events[-1]
    assert stickered["stickers"] == ["Quarterly Bonus"] and stickered["seed"] == plain["seed"]
    escaped = [s == "escaped" for s in plain["status"]]
    assert any(escaped)
    for k in range(2):
        if escaped[k] and plain["scores"][k] > 0:
            assert stickered["scores"][k] >= plain["scores"][k] + 5
    code, out = _run("status", str(file))
    assert (
        "Quarterly Bonus: [R22] end of game, before game_end: each player: if you have an "
        "artifact: +5 Gold"
    ) in out
    code, out = _run("sticker", str(file), "Quartrly Bonus")
    assert code == 1 and 'did you mean "Quarterly Bonus"?' in out


def test_prologues_and_epilogues_are_read_and_do_what_they_say(tmp_path: Path) -> None:
    """acqinc's example arc: game 1's epilogue offers a choice (a sticker either way), game
    2's prologue puts the Cave-In sticker on before that game, its epilogue adds an X on the
    Dran track and reads on."""
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "2", "--seed", "2")[0] == 0
    assert _run("play", str(file))[0] == 0
    g1 = read_log(file).events[-1]
    assert g1["prologue"]["read"] == [[1, None]]
    (two, choice), (then, _) = g1["epilogue"]["read"]
    assert two == 2 and then == (3 if choice == 0 else 4)
    assert g1["epilogue"]["stickers"] == (["Signing Bonus"] if choice == 0 else ["Shrine Rebuilt"])
    assert _run("play", str(file))[0] == 0
    g2 = read_log(file).events[-1]
    assert "Cave-In" in g2["stickers"] and g2["stickers"][0] == g1["epilogue"]["stickers"][0]
    assert g2["epilogue"] == {
        "by": g2["winners"][0],  # the winner's to read
        "read": [[6, None], [7, None]],
        "stickers": ["Quarterly Bonus"],
        "checkmarks": 0,
        "marks": {"Dran Enterprises": 1},
        "fetched": [3],
        "destroyed": [],
        "contracts": [],
        "patron": "The Regional Director",
    }
    c = fold(read_log(file).events)
    assert c.marks["Dran Enterprises"] >= 1 and c.stickers[-1] == "Quarterly Bonus"
    # Undo and play again: the same choices, the same games.
    assert _run("undo", str(file))[0] == 0
    assert _run("play", str(file))[0] == 0
    again = read_log(file).events[-1]
    assert {k: v for k, v in again.items() if k not in ("seq", "check")} == {
        k: v for k, v in g2.items() if k not in ("seq", "check")
    }


def test_fetched_cardporium_cards_join_the_adventure_deck_and_destroyed_cards_leave() -> None:
    from clankwork.dsl.compiler import compile_pack
    from clankwork.dsl.stickers import fetch_and_destroy
    from clankwork.interpreter.catalog import prepare

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    names = {c.name for c in prepare(ir).adventure}
    assert "Corporate Card" not in names  # held in the Cardporium
    after = prepare(fetch_and_destroy(ir, [1, 3], ["Lucky Paperclip", "Expense Report"]))
    adventure = {c.name: c.copies for c in after.adventure}
    assert "Corporate Card" in adventure and "Auditor Golem" in adventure
    assert "Team Building Retreat" not in adventure
    assert adventure["Lucky Paperclip"] == 1 and "Expense Report" not in adventure
    assert fetch_and_destroy(ir, [], []) is ir


def test_a_rule_sticker_leaves_the_pack_it_is_applied_to_as_it_was() -> None:
    """`apply_stickers` marks the slot it fills on a copy: the pack's IR (which the scenario
    checks read the rules from) keeps its rule slots unmarked, so it still fits its schema."""
    import copy

    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.stickers import apply_stickers

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    before = copy.deepcopy(ir["rule_slots"])
    out = apply_stickers(ir, ["Bulk Discount"])
    assert out["rules"]["market_price"] == 5
    assert ir["rule_slots"] == before
    assert any(s.get("sticker") == "Bulk Discount" for s in out["rule_slots"])


def test_an_open_contract_stays_in_the_row_until_completed() -> None:
    from clankwork.tools.campaign import fold

    first, review = _two_player_start()
    empty = {"read": [], "stickers": [], "checkmarks": 0, "marks": {}, "fetched": []}
    opened = {**empty, "destroyed": [], "contracts": ["Pest Control"]}
    g1 = {"type": "game", "game": 1, "scores": [1, 1], "review": review, "death": False}
    g1["prologue"] = opened
    g2 = {**g1, "game": 2, "prologue": None, "contracts_completed": [["Pest Control", 1]]}
    g2["contract_passages"] = [{**empty, "destroyed": [], "contracts": [], "checkmarks": 1}]
    assert fold([first, g1]).contracts == ["Pest Control"]
    after = fold([first, g1, g2])
    assert after.contracts == [] and after.checkmarks == [1, 1]


def test_render_draws_the_board_as_the_campaign_has_it(tmp_path: Path) -> None:
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "2")[0] == 0
    plain, stickered = tmp_path / "plain.dot", tmp_path / "stickered.dot"
    runner = CliRunner()
    r = runner.invoke(main, ["render", "board", acqinc, "-o", str(plain), "--format", "dot"])
    assert r.exit_code == 0, r.output
    assert _run("sticker", str(file), "Cave-In")[0] == 0
    args = ["render", "board", "--campaign", str(file), "-o", str(stickered), "--format", "dot"]
    r = runner.invoke(main, args)
    assert r.exit_code == 0, r.output

    def gate(path: Path) -> str:
        return next(
            ln for ln in path.read_text().splitlines() if "Franchise HQ -- Front Gate" in ln
        )

    assert "☠" not in gate(plain) and "☠" in gate(stickered)
    r = runner.invoke(main, ["render", "board", acqinc, "--campaign", str(file)])
    assert r.exit_code == 2 and "not both" in r.output


def test_a_moved_pack_is_named_not_a_traceback(tmp_path: Path) -> None:
    import shutil

    pack = tmp_path / "tut"
    shutil.copytree(ROOT / "content" / "tutorial", pack)
    file = tmp_path / "c.campaign"
    assert _run("new", str(pack), str(file), "--players", "2")[0] == 0
    pack.rename(tmp_path / "elsewhere")
    code, out = _run("play", str(file))
    assert code == 1 and "was at tut" in out and "name it with --pack PATH" in out
    # Named where it is now, every command finds it; another pack is refused, named.
    assert _run("play", str(file), "--pack", str(tmp_path / "elsewhere"))[0] == 0
    code, out = _run("status", str(file), "--pack", str(tmp_path / "elsewhere"))
    assert code == 0 and "games played: 1" in out
    code, out = _run("play", str(file), "--pack", str(ROOT / "content" / "acqinc"))
    assert code == 1 and "is the pack 'acqinc'" in out and "a campaign of 'tutorial'" in out
    assert len(read_log(file).events) == 2


def test_a_campaign_of_a_bundled_pack_names_it_and_moves_anywhere(tmp_path: Path) -> None:
    file = tmp_path / "a" / "c.campaign"
    file.parent.mkdir()
    assert _run("new", PACK, str(file), "--players", "2")[0] == 0
    first = read_log(file).events[0]
    assert first["pack"] == "tutorial" and first["bundled"] is True
    moved = tmp_path / "b" / "deeper" / "c.campaign"
    moved.parent.mkdir(parents=True)
    file.rename(moved)
    code, out = _run("play", str(moved))
    assert code == 0 and out.startswith("game 1: "), out


def test_an_older_file_with_a_path_to_the_bundled_pack_finds_it(tmp_path: Path) -> None:
    """Files written before bundled packs were named kept a path, often into a checkout's
    content folder that is gone now: the bundled pack of that name is used, with a warning."""
    file = tmp_path / "old.campaign"
    first, _ = _two_player_start()
    gone = "../../somewhere/else/content/tutorial"
    create(file, {**first, "format": campaign_tool.FORMAT, "pack": gone, "pack_name": "tutorial"})
    result = CliRunner().invoke(main, ["campaign", "status", str(file)])
    assert result.exit_code == 0, result.output
    assert "using the bundled tutorial" in result.output


def test_a_patron_named_by_an_epilogue_holds_for_the_next_game_only(tmp_path: Path) -> None:
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "2", "--seed", "4")[0] == 0
    for _ in range(2):
        assert _run("play", str(file))[0] == 0
    assert read_log(file).events[-1]["epilogue"]["patron"] == "The Regional Director"
    code, out = _run("status", str(file))
    assert "game 3: patron The Regional Director" in out
    assert _run("play", str(file))[0] == 0
    g3 = read_log(file).events[-1]
    assert g3["patron"] == "The Regional Director"
    assert fold(read_log(file).events).patron is None
    # The patron's +1 gold a turn shows in game 3 against the same game without it.
    from clankwork.dsl.compiler import compile_pack
    from clankwork.dsl.stickers import with_patron

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    assert len(with_patron(ir, "The Regional Director")["triggers"]) == len(ir["triggers"]) + 1


def _pack_with(tmp_path: Path, stickers: str, name: str = "tut") -> Path:
    """The tutorial pack, copied, with a stickers file of its own (and a slot R10)."""
    import shutil

    pack = tmp_path / name
    shutil.copytree(ROOT / "content" / "tutorial", pack)
    (pack / "stickers.clank").write_text(
        "rules { slot R10 after setup.players }\n" + stickers, encoding="utf-8"
    )
    manifest = pack / "pack.clank"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace(
            'include "board.clank"', 'include "board.clank"\ninclude "stickers.clank"'
        ),
        encoding="utf-8",
    )
    return pack


def _check(pack: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", str(pack)])
    return result.exit_code, result.output


def test_a_misspelled_sticker_word_is_named_with_its_place_and_a_guess(tmp_path: Path) -> None:
    pack = _pack_with(tmp_path, 'sticker "Typo" { fils R10: +1 gold }\n')
    code, out = _check(pack)
    assert code == 1, out
    assert "stickers.clank:2:18" in out and 'did you mean "fills"' in out
    pack2 = _pack_with(tmp_path, 'sticker "Typo" { fills R01: +1 gold }\n', "tut2")
    code, out = _check(pack2)
    assert code == 1 and "stickers.clank:2:24" in out and 'did you mean "R10"' in out, out
    # A campaign of a pack that does not check is not started.
    code, out = _run("new", str(pack), str(tmp_path / "c.campaign"))
    assert code == 1 and not (tmp_path / "c.campaign").exists()


def test_a_sticker_filling_a_slot_with_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    pack = _pack_with(
        tmp_path,
        "rules { slot R15 rule market price\nslot R13 whenever you heal }\n"
        'sticker "A" { fills R15: +1 gold }\n'
        'sticker "B" { fills R13 { market price 3 } }\n'
        'sticker "C" { fills R15 { hand size 3 } }\n'
        'sticker "D" { fills R15 { market price 3 } }\n'
        'sticker "E" { fills R13: +1 gold }\n',
    )
    code, out = _check(pack)
    assert code == 1
    assert out.count("error[CW112]") == 3, out
    assert "slot R15 is the rule `market price`" in out and "takes effects" in out


def test_a_board_sticker_that_cuts_a_space_off_is_refused(tmp_path: Path) -> None:
    pack = _pack_with(
        tmp_path, 'sticker "Landslide" { remove path "Whispering Wood" -- "Ring Cellar" }\n'
    )
    code, out = _check(pack)
    assert code == 1 and "error[CW206]" in out, out
    assert "'Ring Cellar' cannot be reached from HQ" in out and "stickers.clank:2:1" in out


def test_two_board_stickers_that_cut_a_space_off_together_stop_the_game(tmp_path: Path) -> None:
    """Each sticker alone leaves the board whole (the pack checks); applied together, the
    second cuts the Whispering Wood off, and the game is refused naming that sticker."""
    pack = _pack_with(
        tmp_path,
        'sticker "Flood A" { remove path "Mossy Path" -- "Whispering Wood" }\n'
        'sticker "Flood B" { remove path "Whispering Wood" -- "Goblin Warren" }\n',
    )
    assert _check(pack)[0] == 0
    file = tmp_path / "c.campaign"
    assert _run("new", str(pack), str(file), "--players", "2")[0] == 0
    assert _run("sticker", str(file), "Flood A")[0] == 0
    assert _run("play", str(file))[0] == 0
    assert _run("sticker", str(file), "Flood B")[0] == 0
    sha = _sha(file)
    code, out = _run("play", str(file))
    assert code == 1, out
    assert "stickers.clank:3:1: sticker 'Flood B' breaks the board" in out
    assert "'Whispering Wood' cannot be reached from HQ" in out
    assert _sha(file) == sha


def test_the_acqinc_arc_runs_ten_games_with_what_the_campaign_layer_asks(tmp_path: Path) -> None:
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "4", "--seed", "1")[0] == 0
    for n in range(1, 11):
        code, out = _run("play", str(file))
        assert code == 0 and out.startswith(f"game {n}: "), out
    events = read_log(file).events
    c = fold(events)
    assert c.next_game == 11 and len(c.stickers) >= 15
    every = [r for g in c.games for r in readings(g)]
    read = [n for r in every for n, _ in r["read"]]
    # Every game had its prologue and its epilogue read.
    from clankwork.tools.check import load_ir

    ir = load_ir(Path(acqinc), checks=True)
    arc = {(p.get("prologue"), p.get("epilogue")): p["number"] for p in ir["passages"]}
    for n in range(1, 11):
        assert arc[(n, None)] in read and arc[(None, n)] in read
    # Each promotion read its entry on the Associate Status track.
    entries = {s["name"]: s["reads"] for s in ir["campaign"]["statuses"]}
    for g in c.games:
        got = [n for r in readings(g) for n, _ in r["read"]]
        for _seat, rank in g["review"]["promotions"]:
            assert entries[rank] in got
    # The track's numbered spaces were read as Xs covered them.
    (track,) = ir["campaign"]["tracks"]
    assert track["name"] == "Dran Enterprises"
    numbered = {int(k): v for k, v in track["reads"].items()}
    for space, passage in numbered.items():
        assert (passage in read) == (c.marks.get(track["name"], 0) >= space)
    # Personal goals: boxes folded across games, never past a row.
    goals = {g["name"]: g for g in ir["goals"]}
    for seat, boxes in enumerate(c.goals):
        for name, k in boxes.items():
            assert goals[name]["player"] == seat + 1 and 0 < k <= goals[name]["boxes"]
    code, out = _run("status", str(file))
    assert code == 0 and "Dran Enterprises track:" in out and "personal goals" in out
    assert "adventure deck: + Corporate Card (Cardporium 1)" in out or "Cardporium" in out
    code, out = _run("rules", str(file))
    assert code == 0 and "[R15]" in out and "[R33]" in out and "[Franchise Board]" in out
    schema = json.loads((ROOT / "schemas" / "campaign.schema.json").read_text())
    for line in file.read_text().splitlines():
        jsonschema.validate(json.loads(line), schema)


def test_sorting_components_carries_nothing_but_the_campaign_into_the_next_game(
    tmp_path: Path,
) -> None:
    """Post-game 4 (sort components): the next game is a function of the pack as the campaign
    has it (stickers, Cardporium, contracts) and its seed; the last game's cards, tokens,
    gold and scores are not carried."""
    from clankwork.tools.campaign import play_game
    from clankwork.tools.check import load_ir

    file = tmp_path / "c.campaign"
    acqinc = ROOT / "content" / "acqinc"
    assert _run("new", str(acqinc), str(file), "--players", "3", "--seed", "2")[0] == 0
    assert _run("play", str(file))[0] == 0
    assert _run("play", str(file))[0] == 0
    events = read_log(file).events
    ir = load_ir(acqinc, checks=True)
    c = fold(events[:2])
    other = fold(events[:2])
    other.games[0] = {**other.games[0], "scores": [0, 0, 0], "status": ["knocked out"] * 3}
    again = play_game(ir, other, 2)
    assert again["log"] == events[2]["log"] == play_game(ir, c, 2)["log"]


def test_a_plain_game_of_acqinc_has_no_campaign_content() -> None:
    """Cardporium cards stay out, no goal marks a box, no slot trigger watches anything:
    the campaign's content does not change a plain game."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.catalog import prepare

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    cat = prepare(ir)
    assert not [
        c
        for c in cat.adventure
        if any(x["name"] == c.name and "cardporium" in x for x in ir["cards"])
    ]
    assert [h.on for hs in cat.rule_hooks.values() for h in hs] == ["escape"]
    assert cat.contracts == ()
    # Every slot of the pack's steps is empty, so its stickers are nowhere in play.
    slots = [p for ph in cat.steps.values() for p in ph if p.step is None]
    assert slots and all(not p.effects for p in slots)


def test_a_goal_is_marked_only_in_a_campaign_game() -> None:
    from clankwork.dsl.compiler import compile_pack
    from clankwork.dsl.stickers import with_goals
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    plain = Game(prepare(ir), [make_bot("heuristic", k) for k in range(4)], 7)
    plain.play()
    assert all(not p.goals for p in plain.players)
    camp = Game(prepare(with_goals(ir)), [make_bot("heuristic", k) for k in range(4)], 7)
    camp.play()
    assert any(p.goals for p in camp.players)
    assert [p.status for p in camp.players] == [p.status for p in plain.players]


def test_bots_answer_a_passage_choice_by_what_the_options_are_worth() -> None:
    """acqinc's passage 2: the bonus (a sticker worth 2 Gold a player, a card, a checkmark)
    against the rebuilt shrine (a heal on one space): a weighing bot takes the bonus every
    time; a random bot takes either."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.tools.passages import passage_worth, read_passages

    ir = compile_pack(ROOT / "content" / "acqinc").ir
    assert passage_worth(ir, 3) > passage_worth(ir, 4) > 0
    for seed in range(20):
        assert read_passages(ir, 2, seed, "heuristic")["read"][:2] == [[2, 0], [3, None]]
    picks = {read_passages(ir, 2, seed, "random")["read"][0][1] for seed in range(20)}
    assert picks == {0, 1}
    # The same seed, the same answer.
    assert read_passages(ir, 2, 5, "random") == read_passages(ir, 2, 5, "random")


def test_a_slot_that_covers_a_printed_rule_keeps_it_until_a_sticker_covers_it(
    tmp_path: Path,
) -> None:
    """`slot R21 covers end_of_turn.dragon_attack`: empty, the printed rule holds (the game is
    the plain game, move for move); filled, the sticker's effects run instead."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.dsl.stickers import apply
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game

    pack = _pack_with(
        tmp_path,
        "rules { slot R21 covers end_of_turn.dragon_attack }\n"
        'sticker "Calm Dragon" { fills R21: +1 gold }\n',
    )
    ir = compile_pack(pack).ir
    plain = compile_pack(ROOT / "content" / "tutorial").ir

    def game(pack_ir: dict) -> Game:
        g = Game(prepare(pack_ir), [make_bot("heuristic", k) for k in range(2)], 11)
        g.play()
        return g

    names = [p.name for p in prepare(ir).steps["end_of_turn"]]
    assert "end_of_turn.R21" in names and "end_of_turn.dragon_attack" not in names
    a, b = game(ir), game(plain)
    assert a.decision_log() == b.decision_log() and a.result.scores == b.result.scores
    stickered = prepare(apply(ir, ["Calm Dragon"]))
    r21 = next(p for p in stickered.steps["end_of_turn"] if p.name == "end_of_turn.R21")
    assert r21.step is None and r21.effects and r21.effects[0]["op"] == "gain"
    c = game(apply(ir, ["Calm Dragon"]))
    assert c.decision_log() != b.decision_log()


def test_bots_are_checked_and_play_may_change_them_for_a_game(tmp_path: Path) -> None:
    file = tmp_path / "c.campaign"
    code, out = _run("new", PACK, str(file), "--bots", "foo")
    assert code == 2 and "unknown bot 'foo'" in out and not file.exists()
    code, out = _run("simulate", PACK, "--bots", "foo", "--campaigns", "1")
    assert code == 2 and "unknown bot 'foo'" in out
    assert _run("new", PACK, str(file), "--players", "2")[0] == 0
    code, out = _run("play", str(file), "--bots", "random,greedy")
    assert code == 0, out
    assert read_log(file).events[-1]["bots"] == ["random", "greedy"]
    assert fold(read_log(file).events).bots == ["heuristic", "heuristic"]
    code, out = _run("play", str(file), "--bots", "nope")
    assert code == 2 and "unknown bot 'nope'" in out


def test_a_file_of_the_old_format_is_refused_with_why_not_a_traceback(tmp_path: Path) -> None:
    """Format 1 kept one rival track under a fixed name (a game and its readings counted its
    X as plain numbers); such a file is refused with what to do, and left as it is."""
    from clankwork.tools.campaign import _line

    file = tmp_path / "old.campaign"
    first = {"type": "campaign", "format": "clankwork-campaign/1", "pack": "x", "seq": 1}
    first |= {"pack_name": "x", "players": 2, "names": ["A", "B"], "seed": 1}
    first["bots"] = ["random", "random"]
    game = {"type": "game", "game": 1, "seq": 2, "scores": [0, 3], "death": True, "dran_x": 1}
    file.write_bytes(_line(first) + _line(game))
    sha = _sha(file)
    for cmd in ("status", "history", "play", "undo", "rules"):
        code, out = _run(cmd, str(file))
        assert code == 1, (cmd, out)
        assert f"{file}:1: a clankwork-campaign/1 campaign file" in out
        assert "campaign new" in out and "Traceback" not in out
    assert _sha(file) == sha


def _two_track_pack(tmp_path: Path) -> Path:
    """The tutorial with two campaign tracks of its own: each escape adds an X to "Doom";
    a death marks "Rivals"; Doom's second space reads a passage that marks Rivals too."""
    import shutil

    pack = tmp_path / "tracks"
    shutil.copytree(ROOT / "content" / "tutorial", pack)
    main = pack / "pack.clank"
    text = main.read_text()
    assert "  when you escape: take Mug\n" in text
    text = text.replace(
        "  when you escape: take Mug\n",
        '  when you escape: take Mug, add an X to the "Doom" track\n',
    )
    text += (
        "campaign {\n"
        "  track Rivals { spaces 4; space 1 reads 901 }\n"
        '  track "Doom" { spaces 30; space 2 reads 902 }\n'
        "  death marks Rivals reads 903\n"
        "}\n"
        'passage 901 { text "The rivals notice." }\n'
        'passage 902 { text "Doom draws near."; mark the Rivals track }\n'
        'passage 903 { text "A funeral." }\n'
    )
    main.write_text(text)
    return pack


def test_a_pack_may_keep_several_named_tracks(tmp_path: Path) -> None:
    pack = _two_track_pack(tmp_path)
    file = tmp_path / "c.campaign"
    assert (
        _run("new", str(pack), str(file), "--players", "2", "--seed", "3", "--bots", "random")[0]
        == 0
    )
    for _ in range(3):
        code, out = _run("play", str(file))
        assert code == 0, out
    c = fold(read_log(file).events)
    escapes = sum(g["status"].count("escaped") for g in c.games)
    deaths = sum(g["death"] for g in c.games)
    read = [n for g in c.games for r in readings(g) for n, _ in r["read"]]
    assert escapes >= 2 and c.marks["Doom"] == escapes
    # Each game's own X: one per escape on Doom, one on Rivals for a death (never more).
    for g in c.games:
        assert g["marks"].get("Doom", 0) == g["status"].count("escaped")
        assert g["marks"].get("Rivals", 0) == (1 if g["death"] else 0)
        assert (903 in [n for r in readings(g) for n, _ in r["read"]]) == g["death"]
    # Doom's space 2 read passage 902 once, which marked Rivals; Rivals' space 1 read 901.
    assert read.count(902) == 1 and c.marks["Rivals"] == deaths + 1 and read.count(901) == 1
    code, out = _run("status", str(file))
    assert code == 0
    assert f"Rivals track: {c.marks['Rivals']} X  [X901 " in out
    assert f"Doom track: {c.marks['Doom']} X  [X X902 " in out
    code, out = _run("history", str(file))
    assert code == 0 and "X on the Doom track" in out
    schema = json.loads((ROOT / "schemas" / "campaign.schema.json").read_text())
    for line in file.read_text().splitlines():
        jsonschema.validate(json.loads(line), schema)
    code, out = _run("simulate", str(pack), "--campaigns", "2", "--games", "2", "--players", "2")
    assert code == 0, out
    head = out.splitlines()[1]
    assert "  Rivals X  Doom X  " in head and "Dran" not in out


def test_a_cardporium_card_is_fetched_once_however_many_passages_fetch_it(tmp_path: Path) -> None:
    first, review = _two_player_start()
    empty = {"read": [], "stickers": [], "checkmarks": 0, "marks": {}, "destroyed": []}
    g1 = {"type": "game", "game": 1, "scores": [1, 1], "review": review, "death": False}
    g1["prologue"] = {**empty, "fetched": [8, 4]}
    g2 = {**g1, "game": 2, "prologue": {**empty, "fetched": [8]}}
    assert fold([first, g1, g2]).fetched == [8, 4]
    # Played: acqinc's third game reads two passages that fetch Cardporium 8 (12 and 21); the
    # game's event and the history name it once.
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "4", "--seed", "1")[0] == 0
    for _ in range(3):
        code, out = _run("play", str(file), "--bots", "heuristic")
        assert code == 0, out
    third = read_log(file).events[-1]
    fetched = [k for r in readings(third) for k in r["fetched"]]
    assert 8 in fetched and len(fetched) == len(set(fetched))
    code, out = _run("history", str(file))
    # 8 (from 21), then 4 and 5 (12 fetches 4, 5 and 8 again), 8 not twice; what later
    # passages fetch depends on how the games went.
    assert code == 0 and "fetched Cardporium 8, 4, 5" in out
    assert "fetched Cardporium 8, 4, 5, 8" not in out


def test_undo_takes_back_the_last_event_a_sticker_too_and_a_game_replays_the_same(
    tmp_path: Path,
) -> None:
    """The issue's table: a sticker applied by hand, then `undo`: the sticker is taken back
    (not the game before it), and undoing the game too then playing it gives the same game."""
    file = tmp_path / "c.campaign"
    acqinc = str(ROOT / "content" / "acqinc")
    assert _run("new", acqinc, str(file), "--players", "2", "--seed", "3")[0] == 0
    for _ in range(2):
        assert _run("play", str(file))[0] == 0
    game2 = read_log(file).events[-1]
    code, out = _run("sticker", str(file), "Bulk Discount")
    assert code == 0, out
    # Applied twice by hand: refused, nothing written.
    before = _sha(file)
    code, out = _run("sticker", str(file), "Bulk Discount")
    assert code == 1 and "already on" in out and _sha(file) == before
    code, out = _run("undo", str(file))
    assert code == 0 and "took back the sticker 'Bulk Discount'" in out
    c = fold(read_log(file).events)
    assert "Bulk Discount" not in c.stickers and c.next_game == 3
    code, out = _run("undo", str(file))
    assert code == 0 and "took back game 2 (played by bots)" in out
    assert fold(read_log(file).events).next_game == 2
    assert _run("play", str(file))[0] == 0
    again = read_log(file).events[-1]
    assert {k: v for k, v in again.items() if k not in ("seq", "check")} == {
        k: v for k, v in game2.items() if k not in ("seq", "check")
    }
    code, out = _run("history", str(file))
    assert "sticker 'Bulk Discount' undone" in out and "game 2 undone" in out
    # Undo goes back as far as there are events, then says there is nothing left.
    for _ in range(2):
        assert _run("undo", str(file))[0] == 0
    code, out = _run("undo", str(file))
    assert code == 1 and "nothing to undo" in out


def test_an_undo_written_before_any_event_could_be_undone_still_takes_back_its_game() -> None:
    first, review = _two_player_start()
    game = {"type": "game", "scores": [1, 2], "review": review}
    events = [
        {**first, "seq": 1},
        {**game, "game": 1, "seq": 2},
        {"type": "sticker", "name": "S", "before_game": 2, "seq": 3},
        {"type": "undo", "game": 1, "seq": 4},  # the old form: names the game only
    ]
    c = fold(events)
    assert c.games == [] and c.stickers == ["S"]


def test_a_person_plays_a_seat_of_a_campaign_game_in_the_terminal(tmp_path: Path) -> None:
    """`campaign play --bots human,heuristic`: a person plays seat 1 with `play`'s menus (and
    undo); the game is appended as a bot game is, naming who played it, with its log."""
    file = _new(tmp_path)
    log = tmp_path / "game1.jsonl"
    args = ["play", str(file), "--bots", "human,heuristic", "--log", str(log)]
    code, out = _run(*args[:-2], "--bots", "human,robot")
    assert code == 2 and "robot" in out
    result = CliRunner().invoke(main, ["campaign", *args], input="1\n5\nundo\n" + "1\n" * 3000)
    assert result.exit_code == 0, result.output[-3000:]
    out = result.output
    assert "Your action:" in out and "(undone: your last choice is asked again)" in out
    assert f"log of game 1: {log}" in out and "game 1: " in out
    game = read_log(file).events[-1]
    assert game["bots"] == ["human", "heuristic"] and game["game"] == 1
    assert game["log"] == hashlib.sha256(log.read_bytes()).hexdigest()[:16]
    assert CliRunner().invoke(main, ["replay", "--check", str(log)]).exit_code == 0
    # A person who stops before the end leaves the campaign as it was.
    before = _sha(file)
    code, out = _run("play", str(file), "--bots", "human", "--log", str(tmp_path / "g2.jsonl"))
    assert code == 1 and "game 2 stopped before its end: the campaign is as it was" in out
    assert _sha(file) == before


def test_a_person_s_answer_to_a_passage_is_taken_and_the_bots_later_choices_stay_the_same() -> None:
    from clankwork.tools.check import load_ir
    from clankwork.tools.passages import read_passages

    ir = load_ir(ROOT / "content" / "acqinc")
    told: list[str] = []
    people = read_passages(ir, 2, 5, "heuristic", by=1, ask=lambda ps: 1, say=told.append, who="Bo")
    assert people["read"][:2] == [[2, 1], [4, None]] and people["by"] == 1
    assert people["stickers"] == ["Shrine Rebuilt"]
    assert told[0].startswith("passage 2: Your first quarter is over.")
    assert "  1. Take the bonus" in told[0] and "  2. Reinforce the tunnels" in told[0]
    assert told[1] == "  Bo chose 2. Reinforce the tunnels"
    assert told[2].startswith("passage 4: The chapel is rebuilt")
