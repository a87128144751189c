"""`clankwork replay`: a log told turn by turn, checked, and every bad log named by its line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from clankwork.tools.replay import command as replay_command
from clankwork.tools.simulate import command as simulate_command

ROOT = Path(__file__).resolve().parents[2]


def replay(*args: str | Path) -> Result:
    return CliRunner().invoke(replay_command, [str(a) for a in args])


def no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Logs of 12 four-player tutorial games, 4 two-player acqinc games and 3 random ones."""
    out = tmp_path_factory.mktemp("logs")
    runner = CliRunner()
    for pack, n, p, bots in (
        ("tutorial", 12, 4, "greedy"),
        ("acqinc", 4, 2, "greedy"),
        ("acqinc", 3, 3, "random"),
    ):
        args = [str(ROOT / "content" / pack), "-n", str(n), "-p", str(p), "--seed", "3"]
        args += ["--bots", bots, "--log-dir", str(out / f"{pack}-{bots}")]
        result = runner.invoke(simulate_command, args)
        assert result.exit_code == 0, result.output
    return out


def test_check_many_logs(logs: Path) -> None:
    files = sorted((logs / "tutorial-greedy").iterdir()) + sorted(
        (logs / "acqinc-greedy").iterdir()
    )
    result = replay("--check", *files)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 16
    assert replay("--check", *sorted((logs / "acqinc-random").iterdir())).exit_code == 0
    assert all(
        re.search(r": ok, \d+ decisions replayed to the recorded final state", x) for x in lines
    )


def test_a_game_told_turn_by_turn(logs: Path) -> None:
    told = []
    for path in sorted((logs / "tutorial-greedy").iterdir()):
        result = replay(path)
        assert result.exit_code == 0, result.output
        told.append(result.stdout)
    text = "\n".join(told)
    first = told[0]
    assert first.startswith("tutorial 0.1.0 on overworld, seed ")
    assert "P1 greedy, P2 greedy, P3 greedy, P4 greedy" in first
    assert "\nRound 1\n  Turn 1: P" in first
    for words in (
        "plays Burgle",
        "moves to ",
        "acquires ",
        "from the reserve",
        "defeats ",
        "takes the artifact ",
        "the dragon attacks: ",
        "off-the-clock attack: ",
        " escapes with ",
        " is knocked out",
        "Game over after ",
        "  winner",
    ):
        assert words in text, words
    assert re.search(r"P\d takes \d+ \(\d+/10\)", text)  # attack damage, with the meter
    assert re.search(r"-> \+\d+ gold", text)  # what a step gave
    # Final scores: one line per player, and the check at the end.
    assert len(re.findall(r"^  P\d \(greedy\) (escaped|knocked out): \d+ points", first, re.M)) == 4
    assert ": ok, " in first.splitlines()[-1]


def test_bundled_pack_by_default_and_pack_option(logs: Path) -> None:
    log = logs / "acqinc-greedy" / "game-000000.jsonl"
    assert replay("--check", log).exit_code == 0
    result = replay("--check", "--pack", ROOT / "content" / "acqinc", log)
    assert result.exit_code == 0, result.output


def test_a_changed_pack_is_a_mismatch(logs: Path, tmp_path: Path) -> None:
    pack = tmp_path / "tutorial"
    shutil.copytree(ROOT / "content" / "tutorial", pack)
    manifest = pack / "pack.clank"
    manifest.write_text(manifest.read_text().replace('version "0.1.0"', 'version "0.2.0"'))
    reserve = pack / "reserve.clank"
    text = reserve.read_text()
    assert "cost 2" in text
    reserve.write_text(text.replace("cost 2", "cost 3", 1))
    log = logs / "tutorial-greedy" / "game-000000.jsonl"
    result = replay("--check", "--pack", pack, log)
    assert result.exit_code == 1
    no_traceback(result)
    assert "the replay does not match the log: line " in result.stderr
    assert "written with tutorial 0.1.0, the pack is now 0.2.0" in result.stderr


def test_only_the_version_changed(logs: Path, tmp_path: Path) -> None:
    pack = tmp_path / "tutorial"
    shutil.copytree(ROOT / "content" / "tutorial", pack)
    manifest = pack / "pack.clank"
    manifest.write_text(manifest.read_text().replace('version "0.1.0"', 'version "0.1.1"'))
    result = replay("--check", "--pack", pack, logs / "tutorial-greedy" / "game-000001.jsonl")
    assert result.exit_code == 0
    assert "the pack is now 0.1.1" in result.stdout


def _variant(src: Path, dst: Path, edit) -> Path:
    lines = src.read_text().splitlines()
    dst.write_text("\n".join(edit(lines)) + "\n")
    return dst


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("cut.jsonl", lambda ls: [*ls[:9], ls[9][:25]], r":10: not valid JSON"),
        ("short.jsonl", lambda ls: ls[:30], r":30: the log ends at line 30 without a result"),
        (
            "field.jsonl",
            lambda ls: [*ls[:6], ls[6].replace('"index"', '"idx"'), *ls[7:]],
            r":7: decision record: 'index' is a required property",
        ),
        (
            "type.jsonl",
            lambda ls: [*ls[:6], ls[6].replace('"turn":', '"turn":"x","t":'), *ls[7:]],
            r":7: decision record: ",
        ),
        (
            "state.jsonl",
            lambda ls: [*ls[:-1], re.sub(r'"state":"\w+"', '"state":"0123456789abcdef"', ls[-1])],
            r"does not match the log: line \d+: different result \(state\)",
        ),
        (
            "seed.jsonl",
            lambda ls: [re.sub(r'"seed":\d+', '"seed":1', ls[0]), *ls[1:]],
            r"does not match the log: line \d+ \(turn \d+\)",
        ),
        (
            "pack.jsonl",
            lambda ls: [ls[0].replace('"pack":"tutorial"', '"pack":"nosuch"'), *ls[1:]],
            r"names pack 'nosuch', which is not a bundled pack "
            r"\(acqinc, clank, mummy, space, temple, tutorial, vault\): "
            r"replay it with --pack PACK",
        ),
        ("empty.jsonl", lambda ls: [""], r": the log is empty"),
    ],
)
def test_bad_logs_get_a_clear_message(
    logs: Path, tmp_path: Path, name: str, edit, message: str
) -> None:
    bad = _variant(logs / "tutorial-greedy" / "game-000002.jsonl", tmp_path / name, edit)
    for args in (("--check", bad), (bad,)):
        result = replay(*args)
        assert result.exit_code == 1, result.output
        no_traceback(result)
        assert re.search(message, result.stderr), result.stderr


def test_one_bad_log_among_good_ones(logs: Path, tmp_path: Path) -> None:
    good = logs / "tutorial-greedy" / "game-000003.jsonl"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe{}\n")
    result = replay("--check", good, bad, good)
    assert result.exit_code == 1
    assert result.stdout.count(": ok, ") == 2
    assert "bad.jsonl:1: not UTF-8 text" in result.stderr
    missing = replay("--check", tmp_path / "missing.jsonl")
    assert missing.exit_code == 1 and "cannot read" in missing.stderr


def test_a_failed_games_log_is_readable_up_to_its_end(logs: Path) -> None:
    from clankwork.interpreter.log import read_log

    text = (logs / "tutorial-greedy" / "game-000004.jsonl").read_text()
    lines = text.splitlines()
    cut = read_log("\n".join(lines[:20]), require_result=False)
    assert cut.result is None and len(cut.decisions) == 19
    assert json.loads(lines[0]) == cut.header


def test_effect_decisions_are_told(logs: Path) -> None:
    text = "".join(replay(p).stdout for p in sorted((logs / "acqinc-random").iterdir()))
    assert re.search(r"\n    [A-Z][\w' -]+: (does it|declines)", text)
    assert re.search(r"\n    [A-Z][\w' -]+: chooses ", text)
    assert "\n    discards " in text
    assert " is knocked out at " in text and ": scores 0" in text


def test_a_random_outcome_is_told_with_its_number(tmp_path: Path) -> None:
    # The Mummy's Curse rolls its die often: when a token is taken, a monster defeated.
    args = [str(ROOT / "content" / "mummy"), "-n", "2", "-p", "2", "--seed", "3"]
    result = CliRunner().invoke(simulate_command, [*args, "--log-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = "".join(replay(p).stdout for p in sorted(tmp_path.iterdir()))
    assert re.search(r"\n    Pyramid Die[\w ()]*: rolls the pyramid die [1-4]: ", text), text


# --- a log is untrusted --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "../tutorial",
        "tutorial/",
        "./tutorial",
        "Tutorial",
        "tutorial/../acqinc",
        "content/tutorial",
        "__init__.py",
        "{abs}",
    ],
)
def test_a_log_cannot_point_the_replayer_at_a_folder(logs: Path, tmp_path: Path, name: str) -> None:
    # A pack of the attacker's, beside the log: a log naming it must not get it compiled.
    evil = tmp_path / "evil"
    shutil.copytree(ROOT / "content" / "tutorial", evil)
    (evil / "pack.clank").write_text("this is not a pack { and would fail to compile\n")
    name = name.replace("{abs}", str(evil))
    src = logs / "tutorial-greedy" / "game-000005.jsonl"
    lines = src.read_text().splitlines()
    header = json.loads(lines[0])
    header["pack"] = name
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = replay("--check", log)
    assert result.exit_code == 1
    no_traceback(result)
    assert f"names pack {name!r}, which is not a bundled pack" in result.stderr
    assert "--pack PACK" in result.stderr
    assert "would fail" not in result.output and "error[" not in result.output
    if name == str(evil):
        # With an explicit --pack the same log replays (its pack name differs: a note says so).
        ok = replay("--check", "--pack", ROOT / "content" / "tutorial", log)
        assert ok.exit_code == 0, ok.output


def test_bundled_pack_takes_exact_names_only() -> None:
    import click

    from clankwork.tools.check import bundled_names, bundled_pack

    assert bundled_names() == ["acqinc", "clank", "mummy", "space", "temple", "tutorial", "vault"]
    assert bundled_pack("tutorial").name == "tutorial"
    for bad in ("..", "../tutorial", "/etc", "tutorial/..", "TUTORIAL", "", "tutorial\x00"):
        with pytest.raises(click.ClickException, match="no bundled pack named"):
            bundled_pack(bad)
    with pytest.raises(click.ClickException, match='did you mean "tutorial"'):
        bundled_pack("tutorail")


def _edited_header(logs: Path, tmp_path: Path, **changes: object) -> Path:
    lines = (logs / "tutorial-greedy" / "game-000006.jsonl").read_text().splitlines()
    header = {**json.loads(lines[0]), **changes}
    log = tmp_path / "edited.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return log


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 1000, "bots": ["greedy"] * 1000}, ":1: 1000 players; a game seats at most 8"),
        ({"rules": {"round_cap": 100000}}, ":1: rule round_cap: 100000 is out of range"),
        (
            {"bots": ["greedy", "\x1b]0;pwned\x07"] * 2},
            ":1: control character U+001B in the header's bots[1]",
        ),
        ({"version": "1\r\n"}, ":1: control character U+000D in the header's version"),
        ({"rules": {"rage_track": [1] * 40}}, ":1: rule rage_track: 40 values; at most 30"),
        (
            {"rules": {"round_kap": 5}},
            "unknown rule 'round_kap' in the header's rule overrides; did you mean \"round_cap\"?",
        ),
    ],
)
def test_header_numbers_are_bounded(
    logs: Path, tmp_path: Path, changes: dict, message: str
) -> None:
    result = replay("--check", _edited_header(logs, tmp_path, **changes))
    assert result.exit_code == 1
    no_traceback(result)
    assert message in result.stderr, result.stderr


def test_a_deep_or_huge_line_keeps_its_line_number(logs: Path, tmp_path: Path) -> None:
    lines = (logs / "tutorial-greedy" / "game-000007.jsonl").read_text().splitlines()
    deep = tmp_path / "deep.jsonl"
    deep.write_text("\n".join([*lines[:4], "[" * 100_000 + "]" * 100_000, *lines[4:]]) + "\n")
    result = replay("--check", deep)
    no_traceback(result)
    assert "deep.jsonl:5: a record nested too deeply to read" in result.stderr
    digits = tmp_path / "digits.jsonl"
    digits.write_text("\n".join([*lines[:2], '{"turn": ' + "9" * 5000 + "}", *lines[2:]]) + "\n")
    result = replay("--check", digits)
    no_traceback(result)
    assert "digits.jsonl:3: not a readable record" in result.stderr


def test_a_log_is_read_with_a_size_bound(tmp_path: Path) -> None:
    import os

    from clankwork.dsl.limits import MAX_DATA_BYTES

    big = tmp_path / "big.jsonl"
    with big.open("wb") as f:
        f.truncate(MAX_DATA_BYTES + 1)
    result = replay("--check", big)
    assert result.exit_code == 1
    no_traceback(result)
    assert f"larger than {MAX_DATA_BYTES} bytes" in result.stderr
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.jsonl"
        os.mkfifo(fifo)
        result = replay("--check", fifo)  # would block forever if it were opened
        assert result.exit_code == 1 and "not a regular file" in result.stderr


@pytest.mark.parametrize("modules", [None, "1=Med Lab, 2=Armory, 3=Crew Quarters"])
def test_a_modular_boards_games_replay(tmp_path: Path, modules: str | None) -> None:
    """A Space game's ship is drawn from its seed, or written with --modules; either way its
    log replays (the replay names the assembly, and naming one draws the same numbers as
    drawing it did, so the seed deals the same)."""
    args = [str(ROOT / "content" / "space"), "-n", "3", "-p", "3", "--seed", "4"]
    args += ["--bots", "random", "--log-dir", str(tmp_path)]
    if modules:
        args += ["--modules", modules]
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    result = replay("--check", *sorted(tmp_path.iterdir()))
    assert result.exit_code == 0, result.output
    assert result.stdout.count(": ok, ") == 3
    # Told in the pack's word for gold (`resource gold { word credits credit }`).
    told = replay(sorted(tmp_path.iterdir())[0]).stdout
    assert "(damage 0/10, credits 0)" in told and " gold " not in told


def test_format_1_logs_of_named_and_drawn_ships_replay(tmp_path: Path) -> None:
    """Before clankwork-log/2, a ship named with --modules drew no numbers; such a log is
    replayed as it was played (the game here is made the /1 way: the assembly given as
    triples, which draws nothing). A /1 log of a drawn ship replays as drawn."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.interpreter.log import to_jsonl

    cat = prepare(compile_pack(ROOT / "content" / "space").ir)
    ship = cat.choose_assembly(None, "1=Med Lab, 2=Armory, 3=Crew Quarters")
    game = Game(cat, [make_bot("random", 40 + k) for k in range(3)], 9, modules=ship)
    game.play()
    text = to_jsonl(game.log)
    assert '"format":"clankwork-log/2"' in text
    old = tmp_path / "old.jsonl"
    old.write_text(text.replace('"format":"clankwork-log/2"', '"format":"clankwork-log/1"', 1))
    result = replay("--check", old)
    assert result.exit_code == 0, result.output
    # A named-ship /1 log damaged late is told where it is damaged (the attempt that went
    # further), not at the first decision of the other way of reading it.
    lines = old.read_text().splitlines()
    k = max(i for i, line in enumerate(lines) if '"kind":"action"' in line and '"index":0' in line)
    bad = json.loads(lines[k])
    bad["label"] = "play Nonsense"
    lines[k] = json.dumps(bad, separators=(",", ":"))
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join(lines) + "\n")
    result = replay("--check", damaged)
    assert result.exit_code == 1 and f"line {k + 1} " in result.output, result.output
    # The same log read as /2 draws the set-aside numbers, so it is another game.
    new = tmp_path / "new.jsonl"
    new.write_text(text)
    assert replay("--check", new).exit_code == 1
    # A /1 log of a ship drawn from the seed (what every simulated Space game was) replays
    # too: the named way does not fit it, so the drawn way is taken.
    drawn = Game(cat, [make_bot("random", 50 + k) for k in range(3)], 11)
    drawn.play()
    text = to_jsonl(drawn.log)
    assert '"modules":' in text
    old_drawn = tmp_path / "old-drawn.jsonl"
    old_drawn.write_text(
        text.replace('"format":"clankwork-log/2"', '"format":"clankwork-log/1"', 1)
    )
    result = replay("--check", old_drawn)
    assert result.exit_code == 0, result.output
    told = replay(old_drawn)
    assert told.exit_code == 0 and told.stdout.count("Round 1\n") == 1


def test_a_ship_with_more_rooms_than_the_first_is_told_and_played(tmp_path: Path) -> None:
    """The narrator and `play` count spaces for every assembly a pack allows, not only the
    first (a side with an extra room once meant an index past the narrator's table)."""
    pack = tmp_path / "modules"
    shutil.copytree(ROOT / "tests" / "fixtures" / "modules", pack)
    text = (pack / "modules.clank").read_text()
    extra = '    space "Drill Shed" { }\n    path "Drill Yard" -- "Drill Shed"\n'
    text = text.replace('    path "Drill Yard" -- "Drill Tower" { boots 2 }\n', "", 1)
    text = text.replace(
        '    space "Drill Tower" { connects fore }\n',
        '    space "Drill Tower" { connects fore }\n'
        + '    path "Drill Yard" -- "Drill Tower" { boots 2 }\n'
        + extra,
        1,
    )
    (pack / "modules.clank").write_text(text)
    logs = tmp_path / "logs"
    args = [str(pack), "-n", "4", "-p", "2", "--bots", "random", "--seed", "2"]
    args += ["--modules", "right=Drill", "--log-dir", str(logs)]
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    for log in sorted(logs.iterdir()):
        told = replay(log, "--pack", pack)
        no_traceback(told)
        assert told.exit_code == 0, told.output


def test_a_modular_board_with_one_assembly_replays(tmp_path: Path) -> None:
    """A board whose every position has one choice is named by the board's name in a log's
    header (and may be in --modules); it replays."""
    pack = tmp_path / "space"
    shutil.copytree(ROOT / "content" / "space", pack, ignore=shutil.ignore_patterns("scenarios"))
    board = (pack / "board.clank").read_text()
    for k, side in ((1, '"Bio Piece" side Hydroponics'), (2, '"Weapons Piece" side Armory')):
        board = board.replace(
            f'position {k}: one of "Bio Piece", "Weapons Piece", "Science Piece", either side',
            f"position {k}: {side}",
        )
    board = board.replace(
        'position 3: one of "Bio Piece", "Weapons Piece", "Science Piece", either side',
        'position 3: "Science Piece" side "Med Lab"',
    )
    (pack / "board.clank").write_text(board)
    logs = tmp_path / "logs"
    args = [str(pack), "-n", "2", "-p", "2", "--bots", "random", "--log-dir", str(logs)]
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    assert '"modules":"Eradikus Prime"' in sorted(logs.iterdir())[0].read_text()
    result = replay("--check", "--pack", pack, *sorted(logs.iterdir()))
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(simulate_command, [*args[:7], "--modules", "Eradikus Prime"])
    assert result.exit_code == 0, result.output


def test_the_narration_names_the_ship_and_a_hostile_one_is_refused(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    args = [str(ROOT / "content" / "space"), "-n", "1", "-p", "2", "--bots", "random"]
    args += ["--modules", "1=Med Lab, 2=Armory, 3=Crew Quarters", "--log-dir", str(logs)]
    assert CliRunner().invoke(simulate_command, args).exit_code == 0
    (log,) = sorted(logs.iterdir())
    told = replay(log)
    assert told.exit_code == 0
    assert told.stdout.splitlines()[1] == "modules: 1=Med Lab, 2=Armory, 3=Crew Quarters"
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["modules"] = "1=Med Lab\x1b[2J"
    evil = tmp_path / "evil.jsonl"
    evil.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = replay(evil)
    no_traceback(result)
    assert result.exit_code == 1
    assert "control character U+001B in the header's modules" in result.output
    assert "\x1b" not in result.output
