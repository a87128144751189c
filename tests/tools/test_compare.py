"""`simulate EXT --against BASE`: both packs on the same seeds, each figure compared game by
game with the paired interval, the same for any --jobs."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from clankwork.tools.compare import PairedTotals, paired_differences
from clankwork.tools.simulate import command

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
TUTORIAL = ROOT / "content" / "tutorial"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(command, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def cheap_tome(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tutorial with the Mysterious Tome (7 points) at cost 4, not 7."""
    pack = tmp_path_factory.mktemp("ext") / "cheap"
    shutil.copytree(TUTORIAL, pack, ignore=shutil.ignore_patterns("scenarios"))
    reserve = pack / "reserve.clank"
    text = reserve.read_text()
    old = 'reserve "Mysterious Tome" { copies 12; cost 7;'
    assert old in text
    reserve.write_text(text.replace(old, old.replace("cost 7", "cost 4")))
    return pack


def test_a_pack_against_itself_changes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "same.json"
    code, stdout, stderr = run(
        str(TUTORIAL), "-n", "30", "--bots", "greedy", "--against", str(TUTORIAL),
        "--json", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    rep = json.loads(out.read_text())
    Draft202012Validator(SCHEMA).validate(rep)
    against = rep["against"]
    assert against["games_paired"] == 30 and against["same_board"]
    assert against["report"]["wins"] == rep["wins"]
    assert against["differences"] and not any(d["significant"] for d in against["differences"])
    assert all(d["delta"] == 0 and d["ext"] == d["base"] for d in against["differences"])
    assert "0 of " in stdout and "figures changed beyond their interval" in stdout


def test_a_cheaper_card_is_bought_more_and_the_comparison_is_the_same_for_any_jobs(
    tmp_path: Path, cheap_tome: Path
) -> None:
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.json"
        code, stdout, stderr = run(
            str(cheap_tome), "-n", "50", "--bots", "greedy", "--against", str(TUTORIAL),
            "-j", jobs, "--json", str(out),
        )  # fmt: skip
        assert code == 0, stderr
        reports.append(out.read_bytes())
    assert reports[0] == reports[1]
    rep = json.loads(reports[0])
    Draft202012Validator(SCHEMA).validate(rep)
    rows = {(d["group"], d["figure"]): d for d in rep["against"]["differences"]}
    tome = rows[("cards", "Mysterious Tome")]
    assert tome["significant"] and tome["delta"] > 0 and tome["games"] == 50
    assert "* acquired a game: Mysterious Tome" in stdout
    edges = {e["name"]: e for e in rep["against"]["edges"]}
    assert "delta" in edges["Mysterious Tome"]


def test_the_paired_interval_is_the_normal_one_of_the_per_game_differences() -> None:
    t = PairedTotals()
    diffs = [3, 1, 2, 2, 4, 0]
    for d in diffs:
        t.add_pair({("game", "rounds"): 10 + d}, {("game", "rounds"): 10})
    (row,) = paired_differences(t)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.959963984540054 * sd / math.sqrt(n)
    assert row["delta"] == pytest.approx(mean)
    assert row["delta_ci"]["low"] == pytest.approx(mean - half, abs=1e-4)
    assert row["delta_ci"]["high"] == pytest.approx(mean + half, abs=1e-4)
    assert row["significant"] and row["ext"] == pytest.approx(12) and row["base"] == 10


def test_a_figure_measured_in_some_games_is_paired_only_where_both_measured_it() -> None:
    t = PairedTotals()
    t.add_pair({("tension", "margin"): 5, ("cards", "X"): 2}, {("tension", "margin"): 3})
    t.add_pair({("cards", "X"): 1}, {("tension", "margin"): 9})
    rows = {r["figure"]: r for r in paired_differences(t)}
    assert rows["margin"]["games"] == 1 and rows["margin"]["delta"] == 2
    assert rows["X"]["games"] == 2 and rows["X"]["ext"] == 1.5 and rows["X"]["base"] == 0


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--sweep", "hand_size=4,6"], "leave out --sweep"),
        (["--until-ci", "0.1"], "leave out --until-ci"),
    ],
)
def test_against_refuses_what_it_cannot_pair(extra: list[str], words: str) -> None:
    code, _, stderr = run(str(TUTORIAL), "-n", "5", "--against", str(TUTORIAL), *extra)
    assert code == 2 and words in stderr and "--against" in stderr


def test_an_unknown_base_is_named() -> None:
    code, _, stderr = run(str(TUTORIAL), "-n", "5", "--against", "no-such-pack")
    assert code == 2
    assert "'no-such-pack': no such folder or file, and no bundled pack" in stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None or shutil.which("dot") is None,
    reason="Debian's chromium (and Graphviz) is not installed: `sh tools/quickstart.sh test` "
    "installs it as root (apt-get install chromium)",
)
def test_the_comparisons_page_opens_in_chromium_without_an_error(
    tmp_path: Path, cheap_tome: Path
) -> None:
    from playwright.sync_api import sync_playwright

    page = tmp_path / "against.html"
    code, _, stderr = run(
        str(cheap_tome), "-n", "25", "--bots", "greedy", "--against", str(TUTORIAL),
        "--html", str(page),
    )  # fmt: skip
    assert code == 0, stderr
    html = page.read_text()
    assert "<h2>Against tutorial</h2>" in html and "<script" not in html
    assert "Win rate by seat on both packs" in html and "Provisional scores round by" in html
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            tab = browser.new_page(viewport={"width": 1300, "height": 900})
            tab.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
            tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            tab.on("request", lambda r: r.url.startswith("file:") or problems.append(r.url))
            tab.goto(page.as_uri())
            plots = tab.locator("svg.plot")
            boxes = [plots.nth(k).bounding_box() for k in range(plots.count())]
        finally:
            browser.close()
    assert problems == []
    assert len(boxes) >= 6 and all(b is not None and b["width"] > 300 for b in boxes)
