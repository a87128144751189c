"""Every output made for people calls the antagonist what the pack calls it
(`dragon { name "Lord Eradikus"; word boss }`): the replay narration, the replay page, `play`,
the simulate text report and its HTML page. A pack that names none keeps "the dragon"; the
JSON report's keys stay the engine's, and the pack's strings reach the pages as text."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.tools.cli import main
from clankwork.tools.simulate import end_reason, format_report

ROOT = Path(__file__).resolve().parents[2]
NAMED = 'dragon { name "Lord Eradikus"; word boss }\n'
HOSTILE = 'dragon { name "</script><b>Lord</b>"; word "<i>boss</i>" }\n'


def _pack(tmp: Path, name: str, dragon: str) -> Path:
    pack = tmp / name
    shutil.copytree(ROOT / "content" / "tutorial", pack, ignore=shutil.ignore_patterns("scenarios"))
    with (pack / "pack.clank").open("a") as f:
        f.write(dragon)
    return pack


def _simulate(pack: Path, out: Path, *extra: str) -> tuple[str, dict]:
    out.mkdir()
    logs, rep = out / "logs", out / "report.json"
    args = ["simulate", str(pack), "-n", "4", "-p", "2", "--seed", "3"]
    args += ["--log-dir", str(logs), "--json", str(rep), *extra]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.stdout, json.loads(rep.read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str, dict, Path]]:
    tmp = tmp_path_factory.mktemp("dragon")
    out = {}
    for name, dragon in (("plain", ""), ("named", NAMED)):
        pack = _pack(tmp, name, dragon)
        text, rep = _simulate(pack, tmp / f"{name}-run")
        out[name] = (tmp / f"{name}-run", text, rep, pack)
    return out


def _narration(run: Path, pack: Path) -> str:
    texts = []
    for log in sorted((run / "logs").glob("*.jsonl")):
        result = CliRunner().invoke(main, ["replay", str(log), "--pack", str(pack)])
        assert result.exit_code == 0, result.output
        texts.append(result.output)
    return "\n".join(texts)


def test_the_narrator_says_who_attacks(runs: dict) -> None:
    named = _narration(runs["named"][0], runs["named"][3])
    assert re.search(r"^    Lord Eradikus attacks: \d+ cubes drawn", named, re.M)
    assert "dragon attacks" not in named
    plain = _narration(runs["plain"][0], runs["plain"][3])
    assert re.search(r"^    the dragon attacks: \d+ cubes drawn", plain, re.M)


def test_the_text_report_uses_the_packs_word(runs: dict) -> None:
    _, text, rep, _ = runs["named"]
    assert re.search(r"^boss attacks +\d+ \(", text, re.M)
    assert re.search(r"^boss damage +\d+ \(", text, re.M)
    assert "dragon attacks" not in text and "dragon damage" not in text
    # The JSON report's keys are an interface: they stay; the pack's words ride along.
    assert set(rep["dragon"]) == {"attacks", "off_clock_attacks", "damage"}
    assert rep["pack"]["dragon"] == {"name": "Lord Eradikus", "word": "boss"}
    _, text, rep, _ = runs["plain"]
    assert re.search(r"^dragon attacks +\d+ \(", text, re.M)
    assert re.search(r"^dragon damage +\d+ \(", text, re.M)
    assert "dragon" not in rep["pack"]


def test_an_end_reason_is_read_in_the_packs_words(runs: dict) -> None:
    rep = runs["named"][2]
    rep = copy.deepcopy(rep)
    rep["end_reasons"] = {"dragon bag empty": 2, "all off the clock": 1}
    assert end_reason(rep, "dragon bag empty") == "boss bag empty"
    assert end_reason(rep, "all off the clock") == "all off the clock"
    text = format_report(rep)
    assert re.search(r"^ended by: boss bag empty +2$", text, re.M)
    assert "dragon bag" not in text
    plain = copy.deepcopy(runs["plain"][2])
    plain["end_reasons"] = {"dragon bag empty": 2}
    assert re.search(r"^ended by: dragon bag empty +2$", format_report(plain), re.M)


def test_the_html_report_uses_the_packs_word_as_text(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pages = {}
    for name, dragon in (("plain", ""), ("hostile", HOSTILE)):
        page = tmp_path / f"{name}.html"
        _simulate(_pack(tmp_path, name, dragon), tmp_path / f"{name}-run", "--html", str(page))
        pages[name] = page.read_text()
    assert "<h2>Dragon attacks and game ends</h2>" in pages["plain"]
    assert "dragon damage" in pages["plain"]
    hostile = pages["hostile"]
    assert "<i>" not in hostile and "<b>Lord" not in hostile
    assert "&lt;i&gt;boss&lt;/i&gt; attacks" in hostile
    assert "<h2>&lt;i&gt;boss&lt;/i&gt; attacks and game ends</h2>" in hostile


def test_the_replay_page_labels_the_panel_and_the_cubes(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "hostile", HOSTILE)
    run = tmp_path / "run"
    _simulate(pack, run)
    log = sorted((run / "logs").glob("*.jsonl"))[0]
    page = tmp_path / "replay.html"
    args = ["replay", str(log), "--pack", str(pack), "--html", str(page)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    html = page.read_text()
    data = html.split('id="clankwork-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data  # the pack's word is in the data as JSON, its markup escaped
    assert json.loads(data)["dragon"] == "<i>boss</i>"
    assert '$("dragonname").textContent = D.dragon' in html  # the panel's title, as text
    assert 'el("span", D.dragon + " " + S.bag[n])' in html  # the cubes in the bag
    assert "<i>boss" not in html


def test_play_shows_the_packs_word(tutorial_ir: dict, tmp_path: Path) -> None:
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.tools.play import position

    ir = copy.deepcopy(tutorial_ir)
    cards = {c["name"]: c for c in ir["cards"]}
    plain = position(Game(prepare(ir), [make_bot("random", k) for k in range(2)], 1), 0, cards)
    assert re.search(r"^Dragon: rage \d+/7", plain, re.M)
    ir["dragon"] = {"name": "Lord Eradikus", "word": "boss"}
    named = position(Game(prepare(ir), [make_bot("random", k) for k in range(2)], 1), 0, cards)
    assert re.search(r"^Boss: rage \d+/7", named, re.M)
    assert "Dragon" not in named


def test_a_card_s_attack_symbol_says_the_packs_word(tmp_path: Path) -> None:
    from clankwork.tools.render_cards import card_svg, write_cards

    card = {"name": "Drone", "deck": "adventure", "type": "acquire", "cost": 2, "dragon": True}
    card |= {"copies": 1, "points": 0, "tags": [], "danger": False, "triggers": []}
    dragon = '<tspan font-family="Clankwork Symbols">\U0001f432</tspan>'
    assert f"{dragon} Dragon attack" in card_svg(card)
    assert f"{dragon} Boss attack" in card_svg(card, "boss")
    hostile = card_svg(card, "<i>boss</i>")
    assert "<i>" not in hostile and "&lt;i&gt;boss&lt;/i&gt; attack" in hostile
    ir = {"pack": {"name": "t"}, "cards": [card], "dragon": {"name": "X", "word": "boss"}}
    (svg,) = write_cards(ir, tmp_path / "cards")
    assert f"{dragon} Boss attack" in svg.read_text()


def test_card_rules_text_says_the_packs_word(tmp_path: Path) -> None:
    """The rules text made from a card's effects (card faces, `play`): "the boss attacks",
    "Boss attack:" for a card's trigger; without a word, and outside the pack, "the dragon"."""
    from clankwork.dsl.compiler import compile_pack
    from clankwork.interpreter.catalog import prepare
    from clankwork.tools.play import card_text
    from clankwork.tools.render_cards import card_rules, card_svg

    pack = _pack(tmp_path, "named", NAMED)
    with (pack / "adventure.clank").open("a") as f:
        f.write(
            'card "Alarm Bell" { cost 2; play: dragon attack, dragon attack with 1 extra cube }\n'
            'card "Lookout" { cost 3; when the dragon attacks: +1 skill }\n'
            'card "Hermit" { cost 1; once per turn whenever you heal: +1 skill }\n'
        )
    result = compile_pack(pack)
    assert result.ok, result.diagnostics
    cards = {c["name"]: c for c in result.ir["cards"]}
    plain = [text for card in ("Alarm Bell", "Lookout") for text in card_rules(cards[card])]
    assert plain == [
        ("Play:", "the dragon attacks, the dragon attacks, drawing 1 more cubes"),
        ("When the dragon attacks:", "+1 Skill"),
    ]
    svg = card_svg(cards["Alarm Bell"], "boss")
    assert "the boss attacks, the boss attacks, drawing 1 more cubes" in svg
    assert "dragon" not in svg.lower()
    assert "When the boss attacks:" in card_svg(cards["Lookout"], "boss")
    cat = prepare(result.ir)
    lookout = next(c for c in cat.cards if c.name == "Lookout")
    text = card_text(lookout, cards, cat.dragon_word)
    assert text == "cost 3 - When the boss attacks: +1 Skill"
    assert card_rules(cards["Hermit"]) == [("Once per turn, whenever you heal:", "+1 Skill")]
    # The word is the pack's only while its text is made: later text is the language's.
    assert card_rules(cards["Alarm Bell"])[0][1].startswith("the dragon attacks")
