"""`clankwork simulate --html FILE`: one self-contained page with the report's plots; it opens
in headless Chromium without a console error, and a hostile pack's names are only text."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.tools.report_html import inline_svg
from clankwork.tools.simulate import command

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HAS_DOT = shutil.which("dot") is not None
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or not HAS_DOT,
    reason="Debian's chromium (and Graphviz) is not installed: `sh tools/quickstart.sh test` "
    "installs it as root (apt-get install chromium)",
)
# A card named like markup (and like matplotlib's mathtext), a space named like markup.
CARD = "</script><script>alert(1)</script> $\\frac{1}{0}$"
SPACE = '<img src=x onerror="alert(2)">'


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of a small tutorial run with a give, a rule sweep and a cost sweep, on a copy
    of the tutorial whose Lucky Coin and Gatehouse have hostile names."""
    pytest.importorskip("matplotlib")
    tmp = tmp_path_factory.mktemp("report")
    pack = tmp / "pack"
    shutil.copytree(ROOT / "content" / "tutorial", pack, ignore=shutil.ignore_patterns("scenarios"))
    adventure = pack / "adventure.clank"
    text = adventure.read_text()
    assert 'card "Lucky Coin" ' in text
    adventure.write_text(text.replace('card "Lucky Coin" ', f"card {json.dumps(CARD)} "))
    board = pack / "board.clank"
    text = board.read_text()
    assert "Gatehouse" in text
    board.write_text(text.replace("Gatehouse", json.dumps(SPACE)))
    out = tmp / "report.html"
    args = [str(pack), "-n", "25", "-p", "4", "--bots", "greedy", "--html", str(out)]
    args += ["--give", f"{CARD}@2", "--sweep", "hand_size=4,6", "--sweep", f"cost:{CARD}=1,3"]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stderr
    return out


def test_the_page_is_self_contained(page: Path) -> None:
    html = page.read_text()
    assert len(html.encode()) < 2_000_000
    assert "<script" not in html  # the page needs no script, and no name can bring one
    assert "default-src 'none'" in html
    # Nothing to fetch: links only to the drawings' own ids, no URL but the SVG namespaces.
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', html))
    assert not re.search(r"\bsrc\s*=", html.replace("&lt;img src=x", ""))
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert not re.search(r"url\((?!#)", html) and "@import" not in html
    # The plots: seats, two histograms, tension (two), cards, the board, a variant, two sweeps
    # and the swept card's edge.
    assert html.count('class="plot"') == 10 and html.count('class="board"') == 1
    for words in ("Win rate by seat", "Final scores", "Game length", "Card strength"):
        assert words in html, words
    assert "hand_size: win rate by seat" in html
    assert "Provisional scores round by round" in html and "lead changes a game" in html
    assert "own edge at each cost" in html


def test_hostile_names_are_escaped_text(page: Path) -> None:
    html = page.read_text()
    assert "<img" not in html and "&lt;img src=x onerror=" in html
    escaped = CARD.replace("<", "&lt;").replace(">", "&gt;")
    assert escaped in html  # as escaped text, the $...$ kept (no mathtext)


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


@needs_browser
def test_the_page_opens_in_headless_chromium_without_an_error(page: Path, browser: Any) -> None:
    problems: list[str] = []
    tab = browser.new_page(viewport={"width": 1300, "height": 900})
    tab.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    tab.on("request", lambda r: r.url.startswith("file:") or problems.append(f"fetch {r.url}"))
    tab.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    tab.goto(page.as_uri())
    assert problems == []
    # Every plot is drawn at a readable size, and the hostile names are text on the page.
    boxes = [tab.locator("svg.plot").nth(k).bounding_box() for k in range(10)]
    assert all(b is not None and b["width"] > 300 and b["height"] > 150 for b in boxes)
    assert CARD in (tab.text_content("body") or "")
    assert tab.locator("img").count() == 0
    tab.close()


def test_inline_svg_keeps_the_drawing_only() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10pt"><style>*{}</style><metadata>x</metadata><g onclick="alert(1)" '
        'clip-path="url(#p1)" style="fill: url(https://x.invalid/a)"><use xlink:href="#m1"/>'
        '<use xlink:href="https://x.invalid/b#c"/><text>&lt;/script&gt;</text>'
        "<script>alert(1)</script><foreignObject><div/></foreignObject></g></svg>"
    )
    out = inline_svg(svg, "plot")
    assert "onclick" not in out and "<script" not in out and "foreignObject" not in out
    assert "<style" not in out and "metadata" not in out and 'width="10pt"' not in out
    assert 'href="#m1"' in out and "x.invalid" not in out
    assert 'clip-path="url(#p1)"' in out and "&lt;/script&gt;" in out
    assert 'class="plot"' in out


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("modules", [None, "1=Med Lab, 2=Armory, 3=Crew Quarters"])
def test_a_modular_boards_heatmap_is_drawn_on_an_assembled_ship(
    tmp_path: Path, modules: str | None
) -> None:
    """The board of a Space run is drawn as a ship (module outlines): the run's --modules,
    else the first assembly, and the caption says which when the games drew their own."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "space.html"
    args = [str(ROOT / "content" / "space"), "-n", "3", "-p", "2", "--bots", "random"]
    args += ["--html", str(out)] + (["--modules", modules] if modules else [])
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert "(module at cargo)" in html and "(module at 1)" in html
    first = "The board drawn is its first assembly (1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab)"
    assert (first in html) is (modules is None)
    if modules:
        assert "Med Lab" in html and "Crew Quarters" in html
