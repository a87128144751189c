"""`clankwork replay LOG --html FILE`: the page is self-contained, plays in headless Chromium,
and shows a hostile pack's names as text (a log and its pack are untrusted input)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.tools.replay import command as replay_command
from clankwork.tools.replay_html import clean_svg
from clankwork.tools.simulate import command as simulate_command

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or not HAS_DOT,
    reason="Debian's chromium (and Graphviz) is not installed: `sh tools/quickstart.sh test` "
    "installs it as root (apt-get install chromium)",
)
CARD = "</script><script>alert(1)</script>"
SPACE = '<img src=x onerror="alert(2)">'


def _page(tmp: Path, pack: Path, seed: int = 3) -> Path:
    logs = tmp / "logs"
    runner = CliRunner()
    args = [str(pack), "-n", "1", "-p", "2", "--seed", str(seed), "--log-dir", str(logs)]
    result = runner.invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    (log,) = sorted(logs.iterdir())
    out = tmp / "replay.html"
    args = [str(log), "--html", str(out)]
    if pack.parent != ROOT / "content":
        args += ["--pack", str(pack)]
    result = runner.invoke(replay_command, args)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    return out


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of one two-player tutorial game."""
    if not HAS_DOT:
        pytest.skip("Graphviz's dot is not installed")
    return _page(tmp_path_factory.mktemp("html"), ROOT / "content" / "tutorial")


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tutorial with a starting card and a space named like markup, played and paged."""
    if not HAS_DOT:
        pytest.skip("Graphviz's dot is not installed")
    tmp = tmp_path_factory.mktemp("hostile")
    pack = tmp / "pack"
    shutil.copytree(ROOT / "content" / "tutorial", pack, ignore=shutil.ignore_patterns("scenarios"))
    starting = pack / "starting.clank"
    text = starting.read_text()
    assert "card Burgle " in text
    starting.write_text(text.replace("card Burgle ", f"card {json.dumps(CARD)} "))
    board = pack / "board.clank"
    text = board.read_text()
    assert "Gatehouse" in text
    board.write_text(text.replace("Gatehouse", json.dumps(SPACE)))
    return _page(tmp, pack)


@needs_dot
def test_the_page_is_self_contained_and_small(page: Path) -> None:
    html = page.read_text()
    assert len(html.encode()) < 1_000_000  # a 2-player tutorial game: well under 1 MB
    # Nothing is fetched: no URL to load from, no external script, style or font.
    assert not re.search(r"\b(src|href)\s*=", html)
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}  # namespaces
    assert "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html
    data = re.search(r'<script type="application/json" id="clankwork-data">(.*?)</script>', html)
    assert data is not None
    steps = json.loads(data.group(1))["steps"]
    assert steps[0]["cap"] == "setup" and "game over" in steps[-1]["cap"]
    assert len({tuple(p["at"] for p in s["p"]) for s in steps}) > 3  # the pawns move


@needs_dot
def test_hostile_names_are_only_data_in_the_page(hostile_page: Path) -> None:
    html = hostile_page.read_text()
    # Two scripts, ours: the card's name never closes one or opens another.
    assert html.count("<script") == 2 and html.count("</script>") == 2
    # The space's name is in the board's labels and tooltips, escaped: never markup.
    assert "<img" not in html and "&lt;img src=x onerror=" in html
    data = re.search(r'id="clankwork-data">(.*?)</script>', html)
    assert data is not None and CARD in json.loads(data.group(1))["names"]


def test_clean_svg_keeps_the_drawing_only() -> None:
    svg = (
        b'<?xml version="1.0"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" '
        b'xmlns:xlink="http://www.w3.org/1999/xlink" width="10pt"><!-- x --><g class="node" '
        b'onclick="alert(1)"><title>s0</title><a xlink:href="javascript:alert(1)" '
        b'xlink:title="&lt;b&gt;"><text>&lt;/script&gt;</text></a><script>alert(1)</script>'
        b"<foreignObject><div/></foreignObject></g></svg>"
    )
    out = clean_svg(svg)
    assert "script>" not in out.replace("&lt;/script&gt;", "")
    assert "onclick" not in out and "href" not in out and "foreignObject" not in out
    assert "<!--" not in out and "DOCTYPE" not in out and 'width="10pt"' not in out
    assert "<title>s0</title>" in out and "&lt;/script&gt;" in out


def test_html_wants_one_log_and_no_check(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "a.jsonl"
    log.write_text("{}\n")
    for args in ([log, log], ["--check", log]):
        result = runner.invoke(
            replay_command, [*map(str, args), "--html", str(tmp_path / "x.html")]
        )
        assert result.exit_code == 2 and "--html writes one page" in result.output
    result = runner.invoke(replay_command, [str(log), "--html", str(tmp_path / "x.html")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert not (tmp_path / "x.html").exists()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (one launch for the module)."""
    if CHROMIUM is None or not HAS_DOT:
        pytest.skip("Debian's chromium (and Graphviz) is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        # As root (CI) Chromium will not start sandboxed; the page is our own, loaded offline.
        flags = ["--no-sandbox", "--disable-dev-shm-usage"]
        b = pw.chromium.launch(executable_path=CHROMIUM, args=flags)
        try:
            yield b
        finally:
            b.close()


def _open(browser: Any, path: Path) -> tuple[Any, list[str]]:
    """The page at ``path``, and a list that collects every problem the browser reports."""
    problems: list[str] = []
    tab = browser.new_page(viewport={"width": 1400, "height": 900})
    tab.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    tab.on("request", lambda r: r.url.startswith("file:") or problems.append(f"fetch {r.url}"))
    tab.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    tab.goto(path.as_uri())
    return tab, problems


@needs_browser
def test_the_page_plays_in_headless_chromium(page: Path, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    tab, problems = _open(browser, page)
    assert tab.text_content("#caption") == "setup"
    start = [
        (tab.get_attribute(f"#pawn-{s}", "cx"), tab.get_attribute(f"#pawn-{s}", "cy"))
        for s in (0, 1)
    ]
    assert all(x is not None and y is not None for x, y in start)
    # The first step where P1 stands elsewhere, read from the page's data.
    html = page.read_text()
    raw = re.search(r'id="clankwork-data">(.*?)</script>', html)
    assert raw is not None
    spaces = [s["p"][0]["at"] for s in json.loads(raw.group(1))["steps"]]
    moved = next(k for k, at in enumerate(spaces) if at != spaces[0])
    tab.click("#step")  # a real click first; then the same event, without Playwright's waits
    for _ in range(moved - 2):
        tab.dispatch_event("#step", "click")
    assert (tab.get_attribute("#pawn-0", "cx"), tab.get_attribute("#pawn-0", "cy")) == start[0]
    tab.dispatch_event("#step", "click")
    at = (tab.get_attribute("#pawn-0", "cx"), tab.get_attribute("#pawn-0", "cy"))
    assert at != start[0], "P1's pawn did not move when the data says it did"
    assert tab.text_content("#where").startswith(f"step {moved}/")
    assert "move" in (tab.text_content("#caption") or "")
    tab.click("#back")
    assert (
        tab.get_attribute("#pawn-0", "cx"),
        tab.get_attribute("#pawn-0", "cy"),
    ) == start[0]
    # The slider: its end is the end of the game.
    last = int(tab.get_attribute("#slider", "max") or 0)
    assert last > moved
    tab.fill("#slider", str(last))
    assert "game over" in (tab.text_content("#caption") or "")
    assert tab.text_content("#where").startswith(f"step {last}/{last}")
    # The turn buttons stop where the turn changes.
    tab.fill("#slider", "0")

    def turn() -> int:
        return int((tab.text_content("#where") or "").rsplit(" ", 1)[1])

    t0 = turn()
    tab.click("#nextturn")
    first = int(tab.input_value("#slider"))
    assert first > 0 and turn() == t0 + 1
    tab.click("#nextturn")
    assert turn() == t0 + 2
    tab.click("#prevturn")
    assert tab.input_value("#slider") == str(first)
    tab.fill("#slider", "5")
    assert tab.text_content("#where").startswith("step 5/")
    tab.click("#play")
    assert tab.text_content("#play") == "pause"
    # (Playing steps every half second; the page's policy forbids eval, so no
    # wait_for_function: a locator expectation waits for the slider instead.)
    expect(tab.locator("#slider")).not_to_have_value("5")
    tab.click("#play")
    assert tab.text_content("#play") == "play"
    assert "hand" in (tab.text_content("#players") or "")
    assert tab.locator("#row .chip").count() > 0
    tab.screenshot(path=str(tmp_path / "replay.png"), full_page=True)
    assert (tmp_path / "replay.png").stat().st_size > 10_000
    assert problems == []


@needs_browser
def test_hostile_names_show_as_text_in_chromium(hostile_page: Path, browser: Any) -> None:
    tab, problems = _open(browser, hostile_page)
    tab.fill("#slider", "1")
    assert CARD in (tab.text_content("#players") or "")
    assert tab.locator("#players img").count() == 0
    assert tab.locator("script").count() == 2
    # The space's name is drawn as the board's text (Graphviz escaped it).
    assert SPACE in (tab.text_content("#board") or "")
    assert tab.locator("#board img, #board foreignObject").count() == 0
    assert problems == []  # no alert, no error, nothing fetched


def test_steps_follow_the_replayed_game(tutorial_dir: Path, tmp_path: Path) -> None:
    from clankwork.interpreter.log import read_log
    from clankwork.tools.game_logs import Packs
    from clankwork.tools.replay_html import game_steps

    logs = tmp_path / "logs"
    args = [str(tutorial_dir), "-n", "1", "-p", "3", "--seed", "9", "--log-dir", str(logs)]
    assert CliRunner().invoke(simulate_command, args).exit_code == 0
    glog = read_log(next(logs.iterdir()).read_text())
    cat = Packs(None).catalog("tutorial", glog.header["board"])
    steps, names, game = game_steps(cat, glog)
    assert len(steps) == len(glog.decisions) + 1  # the setup, then one after each decision
    assert [s["cap"] for s in steps[1:4]] == [
        f"P{d['player'] + 1}: {d['label']}" if d["kind"] == "action" else s["cap"]
        for d, s in zip(glog.decisions[:3], steps[1:4], strict=True)
    ]
    end = steps[-1]
    for p, shown in zip(game.players, end["p"], strict=True):
        assert shown["at"] == p.pos and shown["hurt"] == p.damage and shown["st"] == p.status
        assert sorted(names[i] for i in shown["hand"]) == sorted(c.name for c in p.hand)
        zones = shown["deck"] + shown["hand"] + shown["disc"] + shown["play"]
        assert len(zones) == len(p.cards())
    assert [names[i] for i in end["row"]] == [c.name for c in game.row]
    assert sum(end["bag"]) == len(game.bag)


def test_a_modular_boards_game_is_a_page_in_the_packs_words(tmp_path: Path) -> None:
    """A Space game (its ship drawn from the seed) makes a page, and the page calls gold by
    the pack's word for it."""
    html = _page(tmp_path, ROOT / "content" / "space").read_text()
    raw = re.search(r'id="clankwork-data">(.*?)</script>', html)
    assert raw is not None
    data = json.loads(raw.group(1))
    assert data["gold"] == "credits" and data["status"]["on"] == "on the board"
    # The page draws and names the game's own ship (drawn from its seed), not the pack's
    # first assembly: the steps' positions index the game's spaces.
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter import assembly as asm
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.log import read_log, replay

    (log,) = sorted((tmp_path / "logs").iterdir())
    cat = prepare(compile_pack(ROOT / "content" / "space").ir)
    game = replay(cat, read_log(log.read_text()))
    assert data["spaces"] == [sp.name for sp in game.board.spaces]
    assert data["spaces"] != [sp.name for sp in cat.board.spaces]  # another ship than the first
    # Each placed side's outline is labelled ("1=Med Lab, 2=Armory, ...").
    ship = asm.label(cat.modular, game.assembly)
    for side in (part.split("=", 1)[1] for part in ship.split(", ")):
        assert side.replace("'", "&#x27;") in html or side in html
    assert "hyperlift (sections)" in html  # the pack's ways, drawn as `render board` does
    tutorial = _page(tmp_path / "t", ROOT / "content" / "tutorial").read_text()
    assert '"gold":"gold"' in tutorial
