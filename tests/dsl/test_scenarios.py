"""The scenario compiler: what each statement lowers to, and the diagnostics of a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

from clankwork.dsl.balance import compile_balances
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.scenario import run_scenario


def _compile(tmp_path: Path, tutorial_ir: dict, body: str) -> tuple[list, list]:
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "s" {\n' + body + "\n}\n", encoding="utf-8"
    )
    scenarios, diags, _ = compile_scenarios(tmp_path, tutorial_ir)
    return scenarios, diags


def test_setup_statements_lower_to_ir(tmp_path: Path, tutorial_ir: dict) -> None:
    (sc,), diags = _compile(
        tmp_path,
        tutorial_ir,
        "players 3\nas dealt\nfirst player 2\nadventure Dryad\nreserve Explore 0\n"
        'adventure discard Consultant\nplace Ankh on Gatehouse\nplace nothing on "Ring Cellar"\n'
        "player 2 { status knocked out; supply 4 }",
    )
    assert not diags
    assert sc["dealt"] is True and sc["first"] == 2 and sc["adventure"] == ["Dryad"]
    assert sc["reserve"] == {"Explore": 0}
    assert sc["adventure_discard"] == ["Consultant"]
    assert sc["place"] == [
        {"token": "Ankh", "space": "Gatehouse"},
        {"token": None, "space": "Ring Cellar"},
    ]
    assert sc["setup"][0]["status"] == "knocked out" and sc["setup"][0]["supply"] == 4


def test_expectations_lower_to_ir(tmp_path: Path, tutorial_ir: dict) -> None:
    (sc,), diags = _compile(
        tmp_path,
        tutorial_ir,
        "expect cannot end turn\nexpect can move Gatehouse spending 1 swords\n"
        "expect player 1 owns 6 Burgle\nexpect player 1 discard has no Dryad\n"
        "expect reserve Explore 14\nexpect bag player 2 3\nexpect row has no Dryad\n"
        "expect moves to Gatehouse HQ\nexpect game not over\nexpect player 1 artifact none",
    )
    assert not diags
    facts = [(s["fact"], s["value"]) for s in sc["steps"]]
    assert facts == [
        ("can", False),
        ("can", True),
        ("owns", 6),
        ("discard has no", "Dryad"),
        ("reserve", 14),
        ("bag player", 3),
        ("row has no", "Dryad"),
        ("moves", ["Gatehouse", "HQ"]),
        ("over", False),
        ("artifact", None),
    ]
    assert sc["steps"][1]["action"] == {
        "do": "move",
        "arg": "Gatehouse",
        "swords": 1,
        "at": sc["steps"][1]["action"]["at"],
    }


@pytest.mark.parametrize(
    ("body", "code", "hint"),
    [
        ("expect player 1 skil 2", "CW102", '"skill"'),
        ("expect row hs Dryad", "CW102", '"row has"'),
        ("expect adventure discrd 2", "CW102", '"adventure discard"'),
        ("expect player 1 owns Burgle", "CW105", "expect player 1 owns 6 Burgle"),
        ("player 1 { stauts escaped }", "CW102", '"status"'),
        ("player 1 { status escapd }", "CW105", '"escaped"'),
        ("reserve Dryad 2", "CW107", "reserve card"),
        ("minor secrets Ankh", "CW105", "minor secrets"),
        ("place Burgle on Gatehouse", "CW107", None),
        ("first player 3", "CW140", "players 3"),
        ("as dealt\nrow Dryad", "CW112", "adventure"),
        ("expect cannot yes", "CW105", "expect cannot end turn"),
        ("mvoe Gatehouse", "CW102", '"move"'),
    ],
)
def test_bad_statements_are_diagnosed(
    tmp_path: Path, tutorial_ir: dict, body: str, code: str, hint: str | None
) -> None:
    scenarios, diags = _compile(tmp_path, tutorial_ir, body)
    assert scenarios == []
    assert [d.code for d in diags] == [code], diags
    if hint:
        assert hint in (diags[0].hint or "") + diags[0].message, diags[0]


def _run(tmp_path: Path, tutorial_ir: dict, body: str) -> list[str]:
    (sc,), diags = _compile(tmp_path, tutorial_ir, body)
    assert not diags
    return [f.message for f in run_scenario(tutorial_ir, sc).failures]


def test_as_dealt_seats_the_first_player_and_stacks_the_deal(
    tmp_path: Path, tutorial_ir: dict
) -> None:
    assert (
        _run(
            tmp_path,
            tutorial_ir,
            "players 3\nas dealt\nfirst player 2\nadventure Dryad\n"
            "expect turn 2\nexpect player 2 clank 3\nexpect player 3 clank 2\n"
            "expect player 1 clank 1\nexpect row has Dryad",
        )
        == []
    )


def test_failed_expectations_say_what_was_found(tmp_path: Path, tutorial_ir: dict) -> None:
    failures = _run(
        tmp_path,
        tutorial_ir,
        "player 1 { hand Burgle Stumble }\nexpect can end turn\nexpect player 1 owns 2 Burgle\n"
        "expect player 1 hand has Dryad",
    )
    assert failures[0].startswith("expected `end turn` to be legal for player 1; legal: play")
    assert failures[1] == "expected player 1 to own 2 Burgle, they own 1"
    assert failures[2] == "expected 'Dryad' in player 1's hand; it holds Burgle, Stumble"


def test_every_declared_state_field_is_a_fact(tmp_path: Path, tutorial_ir: dict) -> None:
    """Facts not in the named tables come from the declared state: a new field of
    Game.STATE or PlayerState is a scenario fact without a line of scenario code."""
    assert (
        _run(
            tmp_path,
            tutorial_ir,
            "player 1 { hand Burgle }\nexpect round 1\nexpect black aside 0\nexpect left 0\n"
            "expect player 1 escaping no\nexpect player 1 visited 0\nplay Burgle\n"
            "expect player 1 skill 1",
        )
        == []
    )
    failures = _run(tmp_path, tutorial_ir, "expect round 7\nexpect player 1 escaping yes")
    assert len(failures) == 2 and "round" in failures[0] and "escaping" in failures[1]
    _, diags = _compile(tmp_path, tutorial_ir, "expect blak aside 0")
    assert [d.code for d in diags] == ["CW102"] and "black aside" in (diags[0].hint or "")


def test_expect_track_names_a_declared_campaign_track(tmp_path: Path, tutorial_ir: dict) -> None:
    ir = {**tutorial_ir, "campaign": {"statuses": [], "tracks": [], "at": None}}
    ir["campaign"]["tracks"] = [{"name": "Rival Guild", "spaces": 5, "reads": {}, "at": None}]
    (sc,), diags = _compile(tmp_path, ir, 'expect track "Rival Guild" 0')
    assert not diags and sc["steps"][-1]["track"] == "Rival Guild"
    assert run_scenario(ir, sc).failures == []
    _, diags = _compile(tmp_path, ir, 'expect track "Rival Gild" 1')
    (d,) = diags
    assert d.code == "CW107" and d.hint == 'did you mean "Rival Guild"?' and d.span.line == 2
    _, diags = _compile(tmp_path, tutorial_ir, "expect track Doom 1")
    assert [d.code for d in diags] == ["CW107"]  # the tutorial declares no track


def test_a_name_given_twice_is_cw106_for_scenarios_and_balance_blocks(
    tmp_path: Path, tutorial_ir: dict
) -> None:
    # Both compilers report it through one helper (resolve.named_twice): names that differ
    # only in case or spacing are one name; a scenario's points at the earlier one.
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "Twice" {\n  players 2\n}\nscenario "twice " {\n  players 2\n}\n'
        'balance "Even" {\n  games 4; seed 1; players 2; bots greedy\n'
        "  expect rounds mean between 1 and 99\n}\n"
        'balance "even" {\n  games 4; seed 1; players 2; bots greedy\n'
        "  expect rounds mean between 1 and 99\n}\n",
        encoding="utf-8",
    )
    _, diags, _ = compile_scenarios(tmp_path, tutorial_ir)
    (d,) = [d for d in diags if d.code == "CW106"]
    assert d.message == "two scenarios are named 'twice '" and d.span.line == 4
    assert [(n, at.line) for n, at in d.notes] == [("the first is here", 1)]
    _, diags, _ = compile_balances(tmp_path, tutorial_ir)
    (d,) = [d for d in diags if d.code == "CW106"]
    assert d.message == "two balance blocks are named 'even'" and d.span.line == 11
    assert d.hint == "make their names unique" and d.notes == ()
