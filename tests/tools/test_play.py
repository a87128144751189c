"""`clankwork play`: a person against bots, driven through a pseudo-terminal and in memory.

The terminal tests start the real command on a pty, read the screen up to each prompt with a
deadline (never a sleep), type answers, and check what comes back: the menus, `undo` asking
the same decision again, the log written as the game goes, and a finished log that
`clankwork replay` accepts.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.log import read_log
from clankwork.tools.cli import main
from clankwork.tools.play import LiveLog, PlaySession, Quit, position

pty = pytest.importorskip("pty")  # the standard library's, on every POSIX system

PROMPT = re.compile(r"choose 1-(\d+) \(or help\)> ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _take_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # As a terminal's shell starts a command: Ctrl-C interrupts it. A test run started in
    # the background of a script ignores SIGINT (the shell's rule for `cmd &`), and an
    # ignored signal is inherited: the command would never see the Ctrl-C typed here.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Screen:
    """The command on a pseudo-terminal: what it printed so far, and a keyboard."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from clankwork.tools.cli import main; main()", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            # A session of its own with the pty as its controlling terminal, so Ctrl-C typed
            # there is a SIGINT to the command (and only to it).
            start_new_session=True,
            preexec_fn=_take_terminal,
            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"},
        )
        os.close(slave)
        self.fd = master
        self.text = ""
        self.seen = 0  # where the last expect() stopped reading

    def expect(self, pattern: re.Pattern[str], timeout: float = 20.0) -> re.Match[str]:
        """Read until ``pattern`` matches the unread text; fail at the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            m = pattern.search(self.text, self.seen)
            if m:
                self.seen = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"no {pattern.pattern!r} within {timeout} s; screen ends:\n{self.text[-2000:]}"
                )
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the command ended and closed the terminal
                data = b""
            if not data:
                m = pattern.search(self.text, self.seen)
                if m:
                    self.seen = m.end()
                    return m
                raise AssertionError(
                    f"the command ended before {pattern.pattern!r}; screen ends:\n"
                    f"{self.text[-2000:]}"
                )
            self.text += ANSI.sub("", data.decode("utf-8", "replace").replace("\r\n", "\n"))

    def type(self, line: str) -> None:
        """Type a line and press Enter."""
        os.write(self.fd, line.encode() + b"\n")

    def wait(self, timeout: float = 20.0) -> int:
        """Read to the end of output, then the exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                break
            if not data:
                break
            self.text += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))

    def close(self) -> None:
        """Stop the command if it is still running (only this one process group)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.fd)


def _menu_before(text: str, end: int) -> str:
    """The menu printed just before the prompt that ends at ``end``."""
    prompt_start = text.rfind("choose 1-", 0, end)
    body = text[:prompt_start]
    start = max(body.rfind("Your action:"), body.rfind("?\n  1. "))
    return body[start:]


@pytest.fixture()
def screen_factory(tmp_path: Path):  # type: ignore[no-untyped-def]
    screens: list[Screen] = []

    def start(*args: str) -> Screen:
        s = Screen(list(args), tmp_path)
        screens.append(s)
        return s

    yield start
    for s in screens:
        s.close()


def test_a_whole_game_with_undo_through_a_terminal(
    tmp_path: Path, tutorial_dir: Path, screen_factory
) -> None:
    log = tmp_path / "game.jsonl"
    scr = screen_factory(
        "play", str(tutorial_dir), "--players", "2", "--seed", "1", "--log", str(log)
    )
    # The first screen: the position, then the first menu.
    m = scr.expect(PROMPT)
    first = scr.text[: m.end()]
    assert "you are P1" in first
    assert "Hand: " in first and "Row:" in first and "Dragon: rage" in first
    assert "Clank! area" in first and "bag 24 cubes" in first
    menu_a = _menu_before(scr.text, m.end())
    assert menu_a.startswith("Your action:")
    assert "1. play " in menu_a
    # Card options carry the card's generated text.
    assert re.search(r"play Burgle - Play: \+1 Skill", menu_a)

    scr.type("help")
    scr.expect(re.compile(r"undo, u .*\n(.*\n)*?.*" + PROMPT.pattern))
    scr.type("nonsense")
    scr.expect(re.compile(r"'nonsense' is not an option or a command"))
    scr.type("99")
    scr.expect(re.compile(r"there is no option 99"))
    scr.expect(PROMPT)

    scr.type("1")  # decision A
    m = scr.expect(PROMPT)
    menu_b = _menu_before(scr.text, m.end())
    assert menu_b != menu_a  # the card played is gone from the menu
    # The log is written as the game goes: the answer is on disk at the next question.
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["type"] == "header" and records[0]["bots"] == ["human", "heuristic"]
    assert [r["index"] for r in records[1:]] == [0]

    scr.type("undo")
    scr.expect(re.compile(r"\(undone: your last choice is asked again\)"))
    m = scr.expect(PROMPT)
    assert _menu_before(scr.text, m.end()) == menu_a
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 1  # the taken-back answer left the log too

    # Play the game out: always the first option (plays, then the first move or end turn).
    answered = 0
    end = re.compile(PROMPT.pattern + r"|log: (\S+) \(clankwork replay")
    while True:
        scr.type("1")
        answered += 1
        m = scr.expect(end)
        if m.group(2):
            break
        assert answered < 2000, "the game does not end"
    assert scr.wait() == 0
    assert "Game over after" in scr.text
    assert re.search(r"P1 \(human\) .*: \d+ points", scr.text)
    assert "P2's" in scr.text or "Turn 2: P2" in scr.text  # the bot's turns are told

    glog = read_log(log.read_text())
    assert glog.result is not None
    result = CliRunner().invoke(main, ["replay", "--check", str(log)])
    assert result.exit_code == 0, result.output
    assert "ok," in result.output


def test_end_of_input_stops_cleanly_and_keeps_the_log(
    tmp_path: Path, tutorial_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--seed", "7"], input="1\n2\n")
    assert r.exit_code == 0, r.output
    assert "game stopped; its log so far is in play-tutorial-seed-7.jsonl" in r.output
    # The default log: a new file in the current folder, named after the pack and seed.
    glog = read_log((tmp_path / "play-tutorial-seed-7.jsonl").read_text(), require_result=False)
    assert glog.result is None
    assert len([d for d in glog.decisions if d["player"] == 0]) == 2  # both answers kept
    # A second game of the same seed does not overwrite the first one's log.
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--seed", "7"], input="")
    assert "play-tutorial-seed-7-2.jsonl" in r.output


def test_ctrl_c_stops_cleanly(tmp_path: Path, tutorial_dir: Path, screen_factory) -> None:
    log = tmp_path / "c.jsonl"
    scr = screen_factory("play", str(tutorial_dir), "--seed", "3", "--log", str(log))
    scr.expect(PROMPT)
    os.write(scr.fd, b"\x03")  # the terminal turns it into SIGINT
    # Stopping closes the log with an fsync, which a disk busy with other work can hold up
    # for seconds: a generous deadline (once it failed at 20 s on a loaded machine).
    scr.expect(re.compile(r"game stopped"), timeout=90.0)
    assert scr.wait() == 0
    assert "Traceback" not in scr.text
    assert read_log(log.read_text(), require_result=False).header["seed"] == 3


# -- in memory: the session with typed lines from a string ------------------------------------


def _session(
    tutorial_ir: dict, tmp_path: Path, lines: str, **kw: object
) -> tuple[PlaySession, io.StringIO, Path]:
    out = io.StringIO()
    path = tmp_path / "s.jsonl"
    opts = {"players": 2, "seat": 0, "seed": 5, "bots": ["human", "heuristic"], **kw}
    session = PlaySession(
        tutorial_ir,
        prepare(tutorial_ir),
        log=LiveLog(path),
        stdin=io.StringIO(lines),
        stdout=out,
        **opts,  # type: ignore[arg-type]
    )
    return session, out, path


def test_undo_at_the_first_choice_has_nothing_to_take_back(
    tutorial_ir: dict, tmp_path: Path
) -> None:
    session, out, _ = _session(tutorial_ir, tmp_path, "undo\nquit\n")
    with pytest.raises(Quit):
        session.run()
    assert "nothing to undo yet" in out.getvalue()


def test_an_endless_line_is_refused_whole(tutorial_ir: dict, tmp_path: Path) -> None:
    session, out, _ = _session(tutorial_ir, tmp_path, "7" * 100_000 + "\nquit\n")
    with pytest.raises(Quit):
        session.run()
    text = out.getvalue()
    assert "is not an option or a command" in text
    assert text.count("choose 1-") == 2  # one refusal, then the quit


def test_a_later_seat_against_random_bots_plays_to_the_end(
    tutorial_ir: dict, tmp_path: Path
) -> None:
    # Seat 2 of 3, answering "1" every time, with two undos on the way.
    lines = "1\n" * 5 + "undo\n" + "1\n" * 3 + "u\n" + "1\n" * 3000
    session, out, path = _session(
        tutorial_ir,
        tmp_path,
        lines,
        players=3,
        seat=1,
        seed=11,
        bots=["random", "human", "greedy"],
    )
    game = session.run()
    assert game.over
    text = out.getvalue()
    assert text.count("(undone") == 2
    glog = read_log(path.read_text())
    assert glog.header["bots"] == ["random", "human", "greedy"]
    assert glog.result == game.log[-1]
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 0, result.output


def test_position_shows_neighbours_other_players_and_the_dragon(
    tutorial_ir: dict, tmp_path: Path
) -> None:
    session, _, _ = _session(tutorial_ir, tmp_path, "")
    game = session._new_game()
    text = position(game, 0, session.cards)
    assert "You are at HQ" in text
    assert "-> Gatehouse (1 boot)" in text
    assert "P2: at HQ" in text
    assert re.search(r"rage \d+/7", text)
    assert "Reserve: Mercenary (cost 2, 15 left)" in text


def test_bad_options_are_refused(tmp_path: Path, tutorial_dir: Path) -> None:
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--players", "2", "--seat", "3"])
    assert r.exit_code == 2 and "seat 3 of 2 players" in r.output
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--players", "7"])
    assert r.exit_code == 2 and "2 to 4 players" in r.output
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--bots", "nobody"])
    assert r.exit_code == 2 and "unknown bot" in r.output
    (tmp_path / "dir.jsonl").mkdir()
    r = CliRunner().invoke(main, ["play", str(tutorial_dir), "--log", str(tmp_path / "dir.jsonl")])
    assert r.exit_code == 2


def test_a_link_at_the_log_path_is_replaced_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    log = LiveLog(link)
    log.add({"type": "header"})
    log.close()
    assert target.read_text() == "keep me"
    assert not link.is_symlink()
    assert link.read_text() == '{"type":"header"}\n'


def test_play_takes_a_modular_board_s_assembly(tmp_path: Path) -> None:
    from clankwork.dsl.compiler import compile_pack

    space = Path(__file__).resolve().parents[2] / "content" / "space"
    ir = compile_pack(space).ir
    modules = "1=Crew Quarters, 2=Armory, 3=Observation Deck"
    session, _, _ = _session(ir, tmp_path, "", seed=3, modules=modules)
    game = session._new_game()
    assert game.log[0]["modules"] == modules
    assert "Mess Hall" in game.board.index and "Seed Bank" not in game.board.index
    bad = CliRunner().invoke(main, ["play", str(space), "--modules", "1=Nowhere"])
    assert bad.exit_code == 2 and "cannot take" in bad.output


def test_hot_seat_two_people_take_turns_at_one_terminal_each_screen_theirs_alone(
    tutorial_ir: dict, tmp_path: Path
) -> None:
    """`play --seats human,human,bot,bot`: before another person's question the screen is
    cleared and the terminal handed over, so one screen never shows two people's hands; the
    game plays to its end and its log replays."""
    # An empty line goes to a handover's Enter, and is ignored at a menu.
    session, out, path = _session(
        tutorial_ir,
        tmp_path,
        "\n1\n" * 4000,
        players=4,
        seat=0,
        seed=3,
        bots=["human", "human", "heuristic", "heuristic"],
    )
    game = session.run()
    assert game.over
    text = out.getvalue()
    screens = text.split("\x1b[2J\x1b[H")
    assert len(screens) > 10 and "pass the terminal to P2, then press Enter" in text
    for screen in screens:
        # The text map says whose screen it is: the moves from the seat asked.
        seats = set(re.findall(r"moves? from (P\d):", screen))
        assert len(seats) <= 1, screen[:2000]
    assert re.search(r"Map: [^\n]*HQ", text)
    glog = read_log(path.read_text())
    assert glog.header["bots"] == ["human", "human", "heuristic", "heuristic"]
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 0, result.output


def test_the_text_map_shows_everyone_and_the_neighbourhood(tutorial_ir: dict) -> None:
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.game import Game
    from clankwork.tools import play as play_tool

    game = Game(prepare(tutorial_ir), [make_bot("random", k) for k in range(3)], 4)
    text = play_tool.text_map(game, 1)
    lines = text.splitlines()
    assert lines[0].startswith("Map: HQ[P1 P2 P3]")  # everyone starts at HQ
    assert all(len(line) <= play_tool.MAP_WIDTH for line in lines)
    assert "  1 move from P2: Gatehouse" in text and "2 moves from P2:" in text
    # A big board shows only where people are (and the neighbourhood).
    small = play_tool.SMALL_BOARD
    try:
        play_tool.SMALL_BOARD = 2
        big = play_tool.text_map(game, 1)
    finally:
        play_tool.SMALL_BOARD = small
    assert big.splitlines()[0] == "Where everyone is: HQ[P1 P2 P3]"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "bot,bot"], "names no human seat"),
        (["--seats", "human,robot"], "robot"),
        (["--seats", "human,bot", "--players", "3"], "--seats names 2 seats and --players says 3"),
        (["--seats", "human,human,bot,bot,bot"], "plays with 2 to 4 players, not 5"),
    ],
)
def test_bad_seats_are_refused_with_why(args: list[str], message: str, tmp_path: Path) -> None:
    tutorial = str(Path(__file__).resolve().parents[2] / "content" / "tutorial")
    log = str(tmp_path / "x.jsonl")
    result = CliRunner().invoke(main, ["play", tutorial, *args, "--log", log])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output
