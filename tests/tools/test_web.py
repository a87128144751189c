"""`clankwork play --web`: two people in two browsers and two bots play one tutorial game to
its end on the server; the server refuses an illegal answer and never shows another's hand."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from click.testing import CliRunner

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.log import read_log
from clankwork.tools.check import bundled_pack, load_ir
from clankwork.tools.cli import main
from clankwork.tools.livelog import LiveLog
from clankwork.tools.web import Server, Table, board_drawing

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HAS_DOT = shutil.which("dot") is not None
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or not HAS_DOT,
    reason="Debian's chromium (and Graphviz) is not installed: `sh tools/quickstart.sh test` "
    "installs it as root (apt-get install chromium)",
)
SEATS = ["human", "human", "heuristic", "heuristic"]
# The longest wait for the server or a page (never reached when all is well).
WAIT = 20.0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Table, Server, Path]]:
    """A tutorial game of two people (seats 1 and 2) and two bots, served on 127.0.0.1."""
    ir = load_ir(bundled_pack("tutorial"))
    cat = prepare(ir)
    path = tmp_path / "web.jsonl"
    log = LiveLog(path)
    table = Table(ir, cat, SEATS, 7, log)
    game = table.start()
    server = Server(table, board_drawing(ir, cat, game))
    server.start_in_thread()
    try:
        yield table, server, path
    finally:
        server.stop()
        log.close()


def _ws_url(server: Server, seat: int) -> str:
    return server.seat_urls()[seat].replace("http://", "ws://").replace("/seat/", "/ws/")


def _open_decision(table: Table) -> tuple[int, int, Any]:
    """The person asked now: (seat, decision number, decision), once one is asked."""
    assert table.wait_past(0, WAIT)
    with table.lock:
        ((seat, (number, decision)),) = table.pending.items()
    return seat, number, decision


def test_an_illegal_answer_and_another_seat_s_hand_are_refused(
    served: tuple[Table, Server, Path],
) -> None:
    table, server, _ = served
    seat, number, decision = _open_decision(table)
    other = 1 - seat

    async def talk() -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        async with aiohttp.ClientSession() as s:
            # A link no seat has: no page, no socket.
            async with s.get(server.url + "/seat/not-a-seat") as r:
                assert r.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await s.ws_connect(server.url.replace("http", "ws") + "/ws/not-a-seat")
            async with s.get(server.seat_urls()[seat]) as r:
                assert r.status == 200
                assert "script-src 'sha256-" in r.headers["Content-Security-Policy"]
            ws = await s.ws_connect(_ws_url(server, seat))
            first = json.loads((await ws.receive()).data)
            got.append(first)
            n = len(decision.options)
            for bad in (
                {"type": "answer", "decision": number, "index": n},  # no such option
                {"type": "answer", "decision": number, "index": -1},
                {"type": "answer", "decision": number, "index": "1"},  # not an index
                {"type": "answer", "decision": number + 5, "index": 0},  # not the open one
                {"type": "view", "seat": other},  # another seat's view
                {"type": "take", "card": "anything"},
            ):
                await ws.send_json(bad)
                got.append(json.loads((await ws.receive()).data))  # refused
                got.append(json.loads((await ws.receive()).data))  # the view again
            # The other person answers this seat's decision: not theirs to answer.
            ws2 = await s.ws_connect(_ws_url(server, other))
            got.append(json.loads((await ws2.receive()).data))
            await ws2.send_json({"type": "answer", "decision": number, "index": 0})
            got.append(json.loads((await ws2.receive()).data))
            await ws.close()
            await ws2.close()
        return got

    got = asyncio.run(talk())
    mine, others = got[0]["view"], got[-2]["view"]
    refusals = [m["why"] for m in got if m["type"] == "refused"]
    assert len(refusals) == 7
    assert "there is no option" in refusals[0] and "there is no option" in refusals[1]
    assert "by its index" in refusals[2] and "not the one open now" in refusals[3]
    assert "another seat's hand is not shown" in refusals[4]
    assert "unknown message type" in refusals[5]
    assert "no decision of yours open now" in refusals[6]
    # Nothing refused was taken: the same decision is still open, unanswered.
    with table.lock:
        assert table.pending[seat][0] == number and not table.answers
    # Each page holds its own hand, by name, and only counts of the others'.
    with table.lock:
        hands = [[c.name for c in p.hand] for p in table.game.players]
    assert [c["name"] for c in mine["hand"]] == hands[seat]
    assert [c["name"] for c in others["hand"]] == hands[other]
    assert all(isinstance(p["hand"], int) for p in mine["players"])
    assert mine["players"][other]["hand"] == len(hands[other])
    assert mine["decision"]["number"] == number and others["decision"] is None
    text = json.dumps(mine)
    assert all(t["name"] not in text for t in table.game.players[other].tokens)


def _browser_play(table: Table, server: Server, tmp_path: Path) -> dict[int, Path]:
    """Play the served game to its end from two browser contexts, one per person: each
    clicks the option a heuristic bot would take (asked on the server side, as a hint).
    Returns screenshots of each page, mid-game and at the end."""
    from playwright.sync_api import sync_playwright

    hints = {k: make_bot("heuristic", 1000 + k) for k in (0, 1)}
    shots: dict[int, Path] = {}
    with sync_playwright() as pw:
        flags = ["--no-sandbox", "--disable-dev-shm-usage"]
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=flags)
        try:
            problems: list[str] = []
            pages = {}
            for seat in (0, 1):
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                page = ctx.new_page()
                page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
                page.on("console", lambda m: m.type == "error" and problems.append(m.text))
                page.goto(server.seat_urls()[seat])
                pages[seat] = page
            clicks = 0
            asked = 0
            while True:
                assert table.wait_past(asked, WAIT), "the server asked nobody in time"
                with table.lock:
                    if table.done:
                        break
                    ((seat, (number, decision)),) = table.pending.items()
                page = pages[seat]
                page.wait_for_selector(
                    f'#options[data-number="{number}"] button:not([disabled])', timeout=WAIT * 1000
                )
                index = hints[seat].choose(table.game, decision)
                page.click(f'#options button[data-index="{index}"]')
                clicks += 1
                asked = number
                if clicks == 40:
                    for k, p in pages.items():
                        p.wait_for_selector("#options[data-number]", state="attached")
                        shots[k] = tmp_path / f"mid-P{k + 1}.png"
                        p.screenshot(path=str(shots[k]), full_page=True)
            for k, p in pages.items():
                # (The page's policy forbids eval, so no wait_for_function here.)
                p.wait_for_selector('#question:has-text("Game over")', timeout=WAIT * 1000)
                shots[k + 10] = tmp_path / f"end-P{k + 1}.png"
                p.screenshot(path=str(shots[k + 10]), full_page=True)
            assert not problems, problems
            assert clicks > 50
        finally:
            browser.close()
    return shots


@needs_browser
def test_two_people_in_browsers_and_two_bots_play_the_tutorial_to_the_end(
    served: tuple[Table, Server, Path], tmp_path: Path
) -> None:
    table, server, path = served
    shots = _browser_play(table, server, tmp_path)
    assert table.done and table.failed is None
    result = table.game.result
    assert result is not None and result.players == 4
    glog = read_log(path.read_text())
    assert glog.header["bots"] == SEATS
    assert glog.result == table.game.log[-1]
    r = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert r.exit_code == 0, r.output
    assert all(p.stat().st_size > 10_000 for p in shots.values())
    keep = os.environ.get("CLANKWORK_KEEP_SCREENSHOTS")
    if keep:  # for a person to look at them: CLANKWORK_KEEP_SCREENSHOTS=FOLDER
        for p in shots.values():
            shutil.copy(p, Path(keep) / p.name)


def test_play_web_serves_each_person_a_link_and_stops_on_term(tmp_path: Path) -> None:
    """The command itself: it prints a link per person's seat, serves the page on
    127.0.0.1, refuses a link no seat has, and stops cleanly on TERM (or Ctrl-C), keeping
    the log so far."""
    log = tmp_path / "web.jsonl"
    args = [str(Path(sys.executable).with_name("clankwork")), "play", "content/tutorial"]
    args += ["--seats", "human,bot,human", "--web", "--port", "0", "--log", str(log)]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("serving tutorial at http://127.0.0.1:"), lines
        links = [line.split()[1] for line in lines[1:3]]
        assert lines[1].startswith("  P1: ") and lines[2].startswith("  P3: ")
        assert links[0] != links[1] and "secret" in lines[3]
        with urllib.request.urlopen(links[1], timeout=WAIT) as r:
            assert r.status == 200 and "<title>Clankwork</title>" in r.read().decode()
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(links[1].rsplit("/", 1)[0] + "/guess", timeout=WAIT)
        assert e.value.code == 403
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert f"game stopped before its end; its log so far is in {log}" in out
    header = read_log(log.read_text(), require_result=False).header
    assert header["bots"] == ["human", "heuristic", "human"]
