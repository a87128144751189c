"""Zone triggers, one family per zone event (tests/fixtures/paths_and_triggers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.interpreter.bot_values import _GreedyValuer
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.effects import TRIGGERS
from clankwork.interpreter.effects.triggers import ZONE_TRIGGERS
from clankwork.interpreter.game import Game
from clankwork.tools.card_text import card_rules
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "paths_and_triggers"


def test_the_fixture_scenarios_pass() -> None:
    result = CliRunner().invoke(main, ["test", str(FIXTURE)])
    assert result.exit_code == 0, result.output
    assert " 0 failed" in result.output


def test_every_zone_event_has_its_own_owners_and_another_players_trigger() -> None:
    for event, names in ZONE_TRIGGERS.items():
        whos = [TRIGGERS[n].meta["who"] for n in names]
        assert whos == ["self", "you", "other"], event
        assert {TRIGGERS[n].meta["event"] for n in names} == {event}
        other = TRIGGERS[names[2]].phrases
        assert all(p.split()[1:3] == ["another", "player"] for p in other), other
        assert set(TRIGGERS[names[2]].meta["holders"]) == {"card", "token"}


@pytest.mark.parametrize(
    "line",
    [
        "when you discard this: +2 boots",
        "when this card is discarded: +2 boots",
        "when you trash this: +2 gold",
        "when you draw this: +1 gold",
        "whenever another player trashes a card: +1 gold",
        "whenever you discard a card: +1 gold",
    ],
)
def test_a_card_line_compiles_and_prints_in_its_first_phrase(line: str) -> None:
    result = compile_text(f"card X {{ cost 2; play: +1 skill; {line} }}", "t.clank")
    assert result.ok, result.diagnostics
    (trig,) = [t for t in result.ir["cards"][0]["triggers"] if t["on"] != "play"]
    assert trig["effects"]
    assert line.split(":")[0] in TRIGGERS[trig["on"]].phrases
    heads = [h.lower() for h, _ in card_rules(result.ir["cards"][0])]
    assert f"{TRIGGERS[trig['on']].phrases[0]}:" in heads, heads


def test_a_misspelt_zone_trigger_suggests_the_trigger_not_its_first_word() -> None:
    result = compile_text("card X { cost 2; when you discrad this: +2 boots }", "t.clank")
    (d,) = [d for d in result.diagnostics if d.code == "CW102"]
    assert d.hint == 'did you mean "when you discard this"?'
    assert d.span is not None and d.span.line == 1


def test_a_discard_trigger_on_a_monster_is_refused_with_what_applies() -> None:
    result = compile_text("monster M { fight 2; when you discard this: +2 boots }", "t.clank")
    (d,) = [d for d in result.diagnostics if d.code == "CW102"]
    assert "does not apply" in d.message


def test_a_discard_trigger_adds_to_the_bots_worth_of_the_card() -> None:
    plain = compile_text("card X { cost 2; play: +1 skill }", "t.clank").ir["cards"][0]
    with_it = compile_text(
        "card X { cost 2; play: +1 skill; when you discard this: +2 boots }", "t.clank"
    ).ir["cards"][0]
    catalog_plain = prepare(compile_pack(FIXTURE).ir)
    v = _GreedyValuer()
    a = type(catalog_plain.cards[0]).from_ir(plain)
    b = type(catalog_plain.cards[0]).from_ir(with_it)
    assert v.hooks(b) - v.hooks(a) == pytest.approx(0.3 * 2 * v.unit("boots"))


def test_the_heuristic_bot_values_a_discard_trigger_more_with_discarding_cards() -> None:
    ir = compile_pack(FIXTURE).ir
    game = Game(ir, [make_bot("heuristic", 0), make_bot("heuristic", 1)], 3)
    bot = game.bots[0]
    p = game.players[0]
    quick = game.catalog.by_name["quickstep"]
    bot._begin(game, p)
    without = bot._moments_bonus(p, quick)
    p.discard.extend([game.catalog.by_name["rummage"]] * 3)
    with_rummage = bot._moments_bonus(p, quick)
    assert without == 0.0
    assert with_rummage > 0.0
