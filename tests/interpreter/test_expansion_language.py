"""Negation, alternatives and comparisons between players (issue 24 items 1 and 3), with the
fixture pack tests/fixtures/expansion_language: its scenarios, the IR the words compile to,
the card text, the diagnostics and the bots' appraisal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.interpreter.bot_values import _UNKNOWN_UNIT, _Profiler
from clankwork.interpreter.bots import HeuristicBot, make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.effects.logic import leaves
from clankwork.interpreter.effects.ranking import rank_points
from clankwork.interpreter.effects.registry import Valuer, render_condition, render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.schema import reference_errors
from clankwork.interpreter.scoring import award_margin
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "tests" / "fixtures" / "expansion_language"

_BOARD = """
token Crown { market 3; type crown }
token SCUBA { market 2; type gear }
token Ring { artifact; points 5 }
board b {
  space HQ { hq }
  space Pool { feature flooded; artifact 5 }
  space Cave { crystal cave }
  path HQ -- Pool
  path Pool -- Cave
}
"""


def _compiled(text: str) -> Any:
    return compile_text(text + _BOARD, "t.clank")


def _line_if(text: str) -> dict[str, Any]:
    result = _compiled(f"card X {{ cost 1; companion; {text} }}")
    assert result.ok, result.diagnostics
    trig = result.ir["cards"][0]["triggers"][0]
    return trig["if"] if "if" in trig else trig["effects"][0]["cond"]


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k != "at"}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def test_the_fixture_pack_compiles_to_valid_ir() -> None:
    result = compile_pack(PACK)
    assert result.ok, result.diagnostics
    assert reference_errors(result.ir) == []


def test_the_fixture_scenarios_pass() -> None:
    result = CliRunner().invoke(main, ["test", str(PACK)])
    assert result.exit_code == 0, result.output
    assert " 0 failed" in result.output


@pytest.mark.parametrize(
    "line, ir",
    [
        (
            "play if you are not in a flooded room: +1 skill",
            {"cond": "not", "of": {"cond": "at", "feature": "flooded room"}},
        ),
        (
            'play unless you have "SCUBA": +1 skill',
            {"cond": "not", "of": {"cond": "have", "what": "SCUBA"}},
        ),
        (
            "play: unless you have a crown (+1 skill)",
            {"cond": "not", "of": {"cond": "have", "what": "crown"}},
        ),
        (
            "play if not you are in a crystal cave: +1 skill",
            {"cond": "not", "of": {"cond": "at", "feature": "crystal cave"}},
        ),
        (
            "play if you have a crown or you are in a crystal cave: +1 skill",
            {
                "cond": "any",
                "of": [
                    {"cond": "have", "what": "crown"},
                    {"cond": "at", "feature": "crystal cave"},
                ],
            },
        ),
        (
            "play if you have a crown or you have SCUBA and you are in a flooded room: +1 skill",
            {
                "cond": "any",
                "of": [
                    {"cond": "have", "what": "crown"},
                    {
                        "cond": "all",
                        "of": [
                            {"cond": "have", "what": "scuba"},
                            {"cond": "at", "feature": "flooded room"},
                        ],
                    },
                ],
            },
        ),
        # `lack` stays the record it was: packs and IR written with it are unchanged.
        ("play if you lack a crown: +1 skill", {"cond": "lack", "what": "crown"}),
        # Words holding "or" stay one condition when the parts are no conditions.
        (
            "play if 2 or more companion in play: +1 skill",
            {"cond": "in_play", "tag": "companion", "min": 2},
        ),
        (
            "play if you do not hold a crown: +1 skill",
            {"cond": "not", "of": {"cond": "have", "what": "crown"}},
        ),
    ],
)
def test_conditions_compile_to_one_shape(line: str, ir: dict[str, Any]) -> None:
    assert _strip(_line_if(line)) == ir


@pytest.mark.parametrize(
    "line, text",
    [
        ("play if you are not in a flooded room: +1 skill", "you are not in a flooded room"),
        ('play unless you have "SCUBA": +1 skill', "you do not have a SCUBA"),
        (
            "play if you have a crown or you are in a crystal cave: +1 skill",
            "you have a crown or you are in a crystal cave",
        ),
        (
            "play if not you have a crown or you are in a crystal cave: +1 skill",
            "you do not have a crown or you are in a crystal cave",
        ),
        ("play if not 2 players: +1 skill", "it is not so that 2 players play"),
    ],
)
def test_card_text_says_the_negation(line: str, text: str) -> None:
    assert render_condition(_line_if(line)) == text


def test_action_and_contract_take_unless() -> None:
    result = _compiled(
        'token Flask { minor secret 1; action sip unless you have "SCUBA": +1 boots }\n'
        "contract Dry { complete unless you are in a flooded room: +1 gold }\n"
    )
    assert result.ok, result.diagnostics
    flask = next(t for t in result.ir["tokens"] if t["name"] == "Flask")
    assert _strip(flask["actions"][0]["if"]) == {
        "cond": "not",
        "of": {"cond": "have", "what": "SCUBA"},
    }
    (contract,) = result.ir["contracts"]
    assert contract["if"]["cond"] == "not"


@pytest.mark.parametrize(
    "line, message, hint",
    [
        (
            "play if you are not in a floded room: +1 skill",
            "asks whether you are in 'floded room'",
            'did you mean "flooded"?',
        ),
        ("play unles you have a crown: +1 skill", "unknown trigger", 'did you mean "unless"?'),
        ("play: unles you have a crown (+1 skill)", "unknown effect group", '"unless"'),
        ("action sip unles you have a crown: +1 boots", "`unles` in the action's name", '"unless"'),
        ("not in a floded room", "is not in 'floded room'", 'did you mean "flooded"?'),
        (
            "play if you have a crown or you are in a cristal cave: +1 skill",
            "'cristal cave'",
            'did you mean "crystal cave"?',
        ),
        (
            "play if another companion in play or you ar hungry: +1 skill",
            "unknown condition `you ar hungry`",
            None,
        ),
    ],
)
def test_misspelt_words_get_a_did_you_mean(line: str, message: str, hint: str | None) -> None:
    kind = "token X { minor secret 1" if line.startswith("action") else "card X { cost 1"
    result = _compiled(f"{kind}; {line} }}")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, line
    d = errors[0]
    assert message in d.message
    assert d.span is not None and d.span.line == 1
    if hint is not None:
        assert hint in (d.hint or "")


class _Half(Valuer):
    """A valuer whose every unit is 1 and every place is a one-in-four chance."""

    def unit(self, key: str) -> float:
        return 1.0

    def opponents(self, nodes: list[dict[str, Any]]) -> float:
        return 0.0

    def where(self, feature: str) -> float:
        return 0.25


def test_the_bots_weigh_a_negation_from_the_condition_it_denies() -> None:
    v = _Half()
    at = {"cond": "at", "feature": "flooded"}
    assert v.chance(at) == 0.25
    assert v.chance({"cond": "not", "of": at}) == 0.75
    both = {"cond": "all", "of": [at, at]}
    either = {"cond": "any", "of": [at, at]}
    assert v.chance(both) == pytest.approx(0.0625)
    assert v.chance(either) == pytest.approx(1 - 0.75 * 0.75)


def test_the_card_reader_learns_no_place_from_a_denied_one() -> None:
    at = {"cond": "at", "feature": "flooded"}
    pr = _Profiler()
    pr.chance({"cond": "not", "of": at})
    assert pr.places == []
    pr.chance(at)
    assert pr.places == ["flooded"]


def test_leaves_reach_every_record_inside() -> None:
    cond = _line_if(
        "play if not you have a crown or you have SCUBA and you are in a flooded room: +1 skill"
    )
    assert [c["cond"] for c in leaves(cond)] == ["have", "have", "at"]


# -- comparisons between players ------------------------------------------------------------


@pytest.mark.parametrize(
    "values, points, ties, fewest, scored",
    [
        ([3, 2, 1], [7, 4, 2], "share", False, [7, 4, 2]),
        ([3, 3, 1], [7, 4, 2], "share", False, [5, 5, 2]),
        ([3, 3, 1], [7, 4, 2], "all", False, [7, 7, 4]),
        ([3, 3, 1], [7, 4, 2], "skip", False, [7, 7, 2]),
        ([2, 1, 1, 1], [7, 4, 2], "share", False, [7, 2, 2, 2]),
        ([0, 0], [7], "share", False, [0, 0]),
        ([0, 2, 5], [5], "share", True, [5, 0, 0]),
        ([None, 3, 1], [7, 4], "share", False, [0, 7, 4]),
    ],
)
def test_a_ranked_award_by_its_tie_rule(
    values: list[int], points: list[int], ties: str, fewest: bool, scored: list[int]
) -> None:
    assert rank_points(values, points, ties, fewest) == scored


def test_award_lines_compile_to_one_award_per_count() -> None:
    result = compile_pack(PACK)
    veins, crowns, companions, damage = (_strip(a) for a in result.ir["awards"])
    assert veins == {
        "count": {"count": "resource", "resource": "veins"},
        "fewest": False,
        "points": [7, 4, 2],
        "ties": "share",
    }
    assert crowns["count"] == {"count": "held", "what": "crown"} and crowns["ties"] == "all"
    assert companions["count"] == {"count": "owned", "card": "companion"}
    assert companions["ties"] == "skip"
    assert damage == {"count": {"count": "damage"}, "fewest": True, "points": [3], "ties": "skip"}


@pytest.mark.parametrize(
    "rules, message",
    [
        ("most veins: 7 points, ties sharre", 'did you mean "ties share"?'),
        ("most vains: 7 points", 'did you mean "veins"?'),
        # A base resource misspelt, and a score counted, were offered a card ("Ogre").
        ("most swrods: 3 points", 'did you mean "swords"?'),
        ("most score: 7 points", "points are what the line gives, not a count"),
        ("most veins: 7 points, third most 2", "place 3 of the award comes before place 2"),
        ("second most: 4 points", "of what?"),
        ("most veins: seven points", "takes a number of points"),
    ],
)
def test_award_mistakes_are_diagnostics(rules: str, message: str) -> None:
    result = compile_text(
        "resource veins { kept }\ncard X { cost 1; play: +1 veins }\n"
        f"rules {{\n  {rules}\n}}\n",
        "t.clank",
    )
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, rules
    assert message in errors[0].message + " " + (errors[0].hint or "")
    assert errors[0].span is not None and errors[0].span.line == 4


def test_a_score_sheet_colon_reads_in_an_award_line_only() -> None:
    sheet = compile_text(
        "resource veins { kept }\ncard X { cost 1; play: +1 veins }\n"
        "rules {\n  most veins: 7 points, second most: 4, third most: 2\n}\n",
        "t.clank",
    )
    assert sheet.ok, sheet.diagnostics
    assert sheet.ir["awards"][0]["points"] == [7, 4, 2]
    other = compile_text("card X { cost 1; play: +1 skill: +2 gold }\n", "t.clank")
    assert [d.code for d in other.diagnostics] == ["CW001"]


@pytest.mark.parametrize(
    "line, ir, text",
    [
        (
            "play if you have more gold than every other player: +1 skill",
            {
                "cond": "more_than",
                "count": {"count": "gold", "every": 1},
                "fewer": False,
                "every": True,
            },
            "you have more Gold than every other player",
        ),
        (
            "play if you have the fewest crown tokens: +1 skill",
            {
                "cond": "most",
                "count": {"count": "held", "what": "crown"},
                "fewest": True,
                "alone": False,
            },
            "you have the fewest crown token",
        ),
    ],
)
def test_comparison_conditions(line: str, ir: dict[str, Any], text: str) -> None:
    cond = _line_if(line)
    assert _strip(cond) == ir
    assert render_condition(cond) == text


def test_each_player_who_has_more_compiles_and_prints() -> None:
    result = _compiled("card X { cost 1; play: each player who has more gold than you (+1 clank) }")
    assert result.ok, result.diagnostics
    (node,) = result.ir["cards"][0]["triggers"][0]["effects"]
    assert _strip(node) == {
        "op": "each_compared",
        "who": "player",
        "rel": "more",
        "count": {"count": "gold", "every": 1},
        "do": [{"op": "gain", "amount": 1, "resource": "clank"}],
    }
    assert render_effects([node]).startswith("each player who has more Gold than you:")


def _bot_at_start(ir: dict[str, Any]) -> tuple[Game, HeuristicBot]:
    bot = HeuristicBot(1)
    g = Game(prepare(ir), [bot, make_bot("heuristic", 2)], 3)
    bot._begin(g, g.players[0])
    return g, bot


def test_the_bots_value_what_a_ranked_award_counts() -> None:
    ir = compile_pack(PACK).ir
    without = {k: v for k, v in ir.items() if k != "awards"}
    g, ranked = _bot_at_start(ir)
    g0, plain = _bot_at_start(without)
    # Nobody has a vein yet: one more makes the most veins, 7 points.
    assert plain.unit("veins") == _UNKNOWN_UNIT
    assert ranked.unit("veins") == pytest.approx(_UNKNOWN_UNIT + 7)
    # Both players have no damage and tie for the fewest: one more loses its 3 points.
    assert ranked.unit("damage") == pytest.approx(plain.unit("damage") - 3)
    # A crown token held, and a companion owned, count for their awards too.
    assert ranked.token("crown") > plain.token("crown")
    squire, plain_squire = g.catalog.by_name["squire"], g0.catalog.by_name["squire"]
    worth = ranked.card_value(g, g.players[0], squire)
    assert worth > plain.card_value(g0, g0.players[0], plain_squire)


def test_a_lead_is_worth_keeping() -> None:
    ir = compile_pack(PACK).ir
    g, bot = _bot_at_start(ir)
    p, rival = g.players
    p.pools["veins"], rival.pools["veins"] = 3, 2
    # One more vein wins nothing now, but keeps a rival one vein behind from tying, which
    # would share 7 and 4: 5 each, 2 less than the 7.
    assert award_margin(g, p, ir["awards"][0]) == 2
    # Behind, one more vein ties for the most: from 4 to 5.
    p.pools["veins"] = 1
    assert award_margin(g, p, ir["awards"][0]) == 1


def test_clank_with_its_exclamation_mark_is_a_word() -> None:
    """Card text writes the game's noise as `Clank!`: `+1 Clank!`, `gain no Clank! this
    turn` and `pay 2 of your Clank! cubes` read as they do without the mark (they were
    CW002, "unexpected character '!'")."""
    result = _compiled(
        "card A { cost 1; play: +1 Clank!, gain no Clank! this turn }\n"
        "card B { cost 1; play: may pay 2 of your Clank! cubes -> +3 skill }\n"
    )
    assert result.ok, result.diagnostics
    a, b = (_strip(c["triggers"][0]["effects"]) for c in result.ir["cards"][:2])
    assert a == [
        {"op": "gain", "amount": 1, "resource": "clank"},
        {"op": "forbid", "ends": "turn", "resource": "clank", "act": "gain"},
    ]
    assert b[0]["cost"] == [{"op": "pay_cubes", "n": 2}]


def test_a_count_naming_tokens_counts_the_tokens_held() -> None:
    """`most veins: 7 points` where veins are tokens (no card or tag of that name) counts
    the vein tokens each player holds, as `vein tokens` does; a card's name keeps its
    meaning."""
    result = _compiled(
        "token Vein { count 12; type vein }\n"
        "card Prospector { cost 1; tag miner }\n"
        "rules {\n  most veins: 7 points, second most: 4\n  most miner: 3 points\n}\n"
    )
    assert result.ok, result.diagnostics
    veins, miners = (_strip(a["count"]) for a in result.ir["awards"])
    assert veins == {"count": "held", "what": "veins"}
    assert miners == {"count": "owned", "card": "miner"}


def test_a_contract_is_checked_like_a_trigger() -> None:
    """A contract's condition and what completing it does name tokens and features like any
    line: a misspelt one is CW107 (contracts were never walked by the reference checks)."""
    result = _compiled("contract Dry { complete if you are in a floded room: +1 gold }\n")
    (bad,) = [d for d in result.diagnostics if d.severity == "error"]
    assert bad.code == "CW107" and "floded" in bad.message
    assert bad.hint == 'did you mean "flooded"?'
