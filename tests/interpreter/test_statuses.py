"""Statuses and prices other than resources (tests/fixtures/statuses): the scenarios, and what
they cannot say: statuses survive a snapshot and a copy, the listing of legal actions leaves
out what a status forbids, bots value them, `play` and the replay tell them, a misspelt
status is a diagnostic."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.interpreter.actions import kinds_legal, legal_actions
from clankwork.interpreter.bot_routes import _groups
from clankwork.interpreter.bot_values import effects_value
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.invariants import check_invariants
from clankwork.interpreter.restore import restore
from clankwork.interpreter.schema import validate_ir
from clankwork.interpreter.scoring import fingerprint
from clankwork.tools.cli import main
from clankwork.tools.lsp_complete import complete, pack_names
from clankwork.tools.play import position
from clankwork.tools.replay import command as replay_command
from clankwork.tools.simulate import command as simulate_command

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "tests" / "fixtures" / "statuses"


@pytest.fixture(scope="module")
def ir() -> dict[str, Any]:
    result = compile_pack(PACK)
    assert result.ok, result.diagnostics
    return result.ir


def _game(ir: dict[str, Any], seed: int = 1) -> Game:
    return Game(ir, [make_bot("random", 0), make_bot("random", 1)], seed)


def test_the_fixture_scenarios_pass() -> None:
    result = CliRunner().invoke(main, ["test", str(PACK)])
    assert result.exit_code == 0, result.output
    assert "26 scenarios: 26 passed" in result.output


def test_statuses_survive_a_snapshot_and_a_copy(ir: dict[str, Any]) -> None:
    g = _game(ir)
    g.begin_turn(g.players[0])
    g.give_status(g.players[1], "dizzy", "next_turn")
    g.give_status(g.players[0], g.prohibition("use", "boots"), "turn")
    g.box_cubes(g.players[0], 2)
    data = json.loads(json.dumps(g.snapshot(mid_turn=True)))
    back = restore(ir, data, [make_bot("random", 0), make_bot("random", 1)])
    copy = g.clone()
    for other in (back, copy):
        assert [p.statuses for p in other.players] == [
            [["cannot use boots", "turn", 0]],
            [["dizzy", "next_turn", 0]],
        ]
        assert other.players[0].boxed_cubes == 2
        assert fingerprint(other) == fingerprint(g)
    copy.players[1].statuses.clear()
    assert g.players[1].statuses  # the copy's statuses are its own
    g.end_status(g.players[1], "dizzy")
    assert fingerprint(g) != fingerprint(back)  # the fingerprint sees statuses


def test_a_status_given_again_keeps_the_longer_time(ir: dict[str, Any]) -> None:
    g = _game(ir)
    g.begin_turn(g.players[0])
    p = g.players[0]
    g.give_status(p, "dizzy", "game")
    g.give_status(p, "dizzy", "turn")
    assert p.statuses == [["dizzy", "game", 0]]


def test_the_listing_leaves_out_what_a_status_forbids(ir: dict[str, Any]) -> None:
    g = _game(ir)
    p = g.players[0]
    g.begin_turn(p)
    p.hand.clear()
    p.pos = g.board.index["Hall"]
    p.boots, p.swords, p.skill = 3, 0, 0
    moves = [o.label for o in legal_actions(g, p) if o.label.startswith("move")]
    assert moves
    g.give_status(p, g.prohibition("move"), "turn")
    assert not [o.label for o in legal_actions(g, p) if o.label.startswith("move")]
    assert legal_actions(g, p) == kinds_legal(g, p)


def test_bots_play_the_pack_and_cubes_paid_stay_counted(ir: dict[str, Any]) -> None:
    """Bots meet statuses and prices in real games: the fast listing equals asking every
    record, and every cube (some in the box) is still counted."""
    cat = prepare(ir)
    seen = 0

    class Checking:
        name = "checking"

        def __init__(self, seed: int) -> None:
            self.bot = make_bot("random", seed)

        def choose(self, view: Game, decision: Any) -> int:
            nonlocal seen
            if decision.kind == "action":
                p = view.players[decision.player]
                assert decision.options == kinds_legal(view, p)
                assert decision.detail == _groups(decision.options)
                seen += 1
            return self.bot.choose(view, decision)

    for seed in range(4):
        g = Game(cat, [Checking(seed * 3 + k) for k in range(3)], seed)
        g.play(after_turn=lambda game: check_invariants(game) == [] or pytest.fail(str(game)))
    for seed in range(3):
        g = Game(cat, [make_bot("heuristic", seed * 2 + k) for k in range(2)], seed)
        g.play()
        assert check_invariants(g) == []
    assert seen > 100


def test_bots_value_a_prohibition_on_an_opponent_and_on_themselves() -> None:
    cant_move = {"op": "forbid", "act": "move", "ends": "next_turn"}
    on_them = {"op": "each", "who": "opponent", "do": [cant_move]}
    no_clank = {"op": "forbid", "act": "gain", "resource": "clank", "ends": "turn"}
    no_boots = {"op": "forbid", "act": "use", "resource": "boots", "ends": "turn"}
    assert effects_value([cant_move]) < 0
    assert effects_value([no_boots]) < 0
    assert effects_value([no_clank]) > 0
    assert effects_value([on_them]) > 0


def test_play_shows_a_players_statuses(ir: dict[str, Any]) -> None:
    g = _game(ir)
    g.begin_turn(g.players[0])
    g.give_status(g.players[1], "dizzy", "next_turn")
    g.give_status(g.players[0], g.prohibition("gain", "clank"), "turn")
    text = position(g, 0, {})
    assert "cannot gain clank this turn" in text
    assert "dizzy until player 1's next turn" in text


def test_the_replay_tells_when_a_status_begins_and_ends(tmp_path: Path) -> None:
    runner = CliRunner()
    args = [str(PACK), "-n", "6", "-p", "2", "--seed", "5", "--bots", "greedy"]
    result = runner.invoke(simulate_command, [*args, "--log-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    told = ""
    for log in sorted(tmp_path.iterdir()):
        out = runner.invoke(replay_command, [str(log), "--pack", str(PACK)])
        assert out.exit_code == 0, out.output
        told += out.output
    assert re.search(r"P\d now cannot move until player \d's next turn", told)
    assert re.search(r"P\d may move again", told)


def test_a_misspelt_status_is_an_unknown_condition_with_a_suggestion() -> None:
    src = (
        'pack p { version "0.1.0" }\n'
        "card Daze { cost 1; play: you are dizzy this turn }\n"
        "card Wobble { cost 1; play if you are dizy: +1 skill }\n"
    )
    diags = [d for d in compile_text(src).diagnostics if d.code == "CW104"]
    assert len(diags) == 1
    assert "dizy" in diags[0].message and diags[0].span.line == 3
    assert "dizzy" in (diags[0].hint or "")


@pytest.mark.parametrize(
    ("line", "price"),
    [
        ("-20 boots", "pay 20 boots"),
        ("-1 gold", "pay 1 gold"),
        ("-2 skill whenever you gain boots this turn", "pay 2 skill"),
    ],
)
def test_a_negative_gain_of_a_pool_is_cw131_with_what_to_write(line: str, price: str) -> None:
    """`-20 boots` used to compile and stop at 0, so later Boots still worked (issue 24)."""
    src = f'pack p {{ version "0.1.0" }}\ncard X {{ cost 1; play: +1 skill, {line} }}\n'
    (d,) = [d for d in compile_text(src).diagnostics if d.code == "CW131"]
    assert (d.severity, d.span.line) == ("error", 2)
    word = price.split()[-1]
    assert f"`{price} -> ...`" in (d.hint or "")
    assert f"you can't use {word} for the rest of this turn" in (d.hint or "")


def test_negative_clank_is_still_a_debt() -> None:
    src = 'pack p { version "0.1.0" }\ncard X { cost 1; play: -2 clank }\n'
    assert not [d for d in compile_text(src).diagnostics if d.code == "CW131"]


def test_a_negative_gain_in_ir_is_reported_and_never_cut_to_zero(ir: dict[str, Any]) -> None:
    """IR the compiler did not write: the IR check names it, and the engine refuses to take
    more than the pool holds rather than clamping."""
    bad = json.loads(json.dumps(ir))
    card = next(c for c in bad["cards"] if c["name"] == "Sidestep")
    card["triggers"][0]["effects"].append({"op": "gain", "resource": "boots", "amount": -3})
    assert any("negative gain of 'boots'" in m for _, m in validate_ir(bad))
    g = _game(ir)
    p = g.players[0]
    g.begin_turn(p)
    p.boots = 1
    with pytest.raises(ValueError, match="takes 3 boots from player 1, who has 1"):
        g.gain(p, "boots", -3)
    assert p.boots == 1
    g.gain(p, "boots", -1)  # a pool that holds it pays
    assert p.boots == 0


@pytest.mark.parametrize("line", ["spend 3 gold", "pay 2 boots, draw 1", "pay 2 clank cubes"])
def test_a_price_alone_on_a_line_is_cw132(line: str) -> None:
    """`spend 3 gold` with 1 gold used to pay what there was (or fail mid-game): a price is
    asked only where something checks it can be paid."""
    src = f'pack p {{ version "0.1.0" }}\ncard X {{ cost 1; play: {line} }}\n'
    (d,) = [d for d in compile_text(src).diagnostics if d.code == "CW132"]
    assert d.severity == "error" and "->" in (d.hint or "")


@pytest.mark.parametrize(
    "line", ["choose one (pay 3 gold -> draw 1 | +1 skill)", "may pay 2 clank cubes -> draw 1"]
)
def test_a_price_where_it_is_asked_compiles(line: str) -> None:
    src = f'pack p {{ version "0.1.0" }}\ncard X {{ cost 1; play: {line} }}\n'
    assert not [d for d in compile_text(src).diagnostics if d.code == "CW132"]


def test_completion_offers_how_long_a_prohibition_lasts() -> None:
    names = pack_names(None, [])
    text = "card X { cost 1; play: you can't use boots until "
    labels = [i.label for i in complete(text, 0, len(text), names)]
    assert "until your next turn" in labels
    assert "for the rest of the game" not in labels
    text = "card X { cost 1; play: you can't use boots "
    labels = [i.label for i in complete(text, 0, len(text), names)]
    assert "for the rest of this turn" in labels


def test_completion_after_a_whole_phrase_and_more_words_answers() -> None:
    """Typing past the end of a phrase (`draw 2 cards ` then a word) raised IndexError in
    the completer before (met while adding the duration slot)."""
    text = "card X { cost 1; play: draw 2 cards and "
    assert complete(text, 0, len(text), pack_names(None, [])) == []


@pytest.mark.parametrize(
    "line",
    [
        "each opponent can't use boots until your next turn",
        "each opponent is dizzy until your next turn",
        "each player gains no clank this turn",
        "you may not use boots for the remainder of this turn",
        "you cannot move until the start of your next turn",
    ],
)
def test_natural_wordings_of_a_status_compile(line: str) -> None:
    src = f'pack p {{ version "0.1.0" }}\ncard X {{ cost 1; play: {line} }}\n'
    assert not [d for d in compile_text(src).diagnostics if d.severity == "error"]
