"""Every name, seat and number a scenario states is checked against the game it sets up when
the scenario compiles (`clankwork check`), with its line and a did-you-mean: a seat past
`players`, a cube colour, a space off the board... none reaches the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios

ROOT = Path(__file__).resolve().parents[2]
_IRS: dict[str, dict] = {}


def _ir(pack: str) -> dict:
    if pack not in _IRS:
        result = compile_pack(ROOT / "content" / pack)
        assert result.ok, result.diagnostics
        _IRS[pack] = result.ir
    return _IRS[pack]


def _diags(tmp_path: Path, pack: str, body: str) -> list:
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "s" {\n' + body + "\n}\n", encoding="utf-8"
    )
    scenarios, diags, _ = compile_scenarios(tmp_path, _ir(pack))
    assert scenarios == [] or not diags
    return diags


# One bad fact of each kind a statement takes: (pack, scenario body, code, text the message
# or hint holds). The bad word is always on the scenario's line 2.
BAD = [
    # Seats past `players` (2 unless stated).
    ("tutorial", "bag player 3 1", "CW140", "bag player 3 in a 2-player scenario"),
    ("tutorial", "draws black 3", "CW140", "draws player 3"),
    ("tutorial", "player 3 { hand Burgle }", "CW140", "set `players 3`"),
    ("tutorial", "first player 3", "CW140", "first player 3"),
    ("tutorial", "expect player 3 skill 0", "CW140", "expect player 3"),
    ("tutorial", "expect bag player 3 1", "CW140", "expect bag player 3"),
    ("tutorial", "expect winner 3", "CW140", "expect winner 3"),
    ("tutorial", "expect turn 3", "CW140", "expect turn 3"),
    ("acqinc", 'goal "Road Warrior" 1', "CW140", "player 3's"),
    # Cube colours and cube tokens.
    ("tutorial", "draws blac 1 2 2", "CW107", 'did you mean "black"?'),
    ("tutorial", "draws Ankh", "CW142", "not a cube"),
    ("space", 'draws "Bounty Huntr"', "CW107", 'did you mean "Bounty Hunter"?'),
    # Numbers past what the game allows.
    ("tutorial", "players 6", "CW141", "allow 2 to 4"),
    ("tutorial", "rage 9", "CW141", "7 spaces"),
    ("tutorial", "expect rage 9", "CW141", "7 spaces"),
    ("tutorial", "player 1 { damage 10 }", "CW141", "knocks player 1 out"),
    ("tutorial", "player 1 { clank 20; damage 9; supply 2 }", "CW141", "31"),
    ("tutorial", "bag black 99", "CW141", "24 black cubes"),
    ("tutorial", "reserve Explore 16", "CW141", "holds 15"),
    ("tutorial", "destroy Dryad\ndestroy Dryad\ndestroy Dryad", "CW141", "destroys 3"),
    ("clank", "counter countdown 9", "CW141", "up to 5"),
    ("clank", "expect counter countdown 6", "CW141", "up to 5"),
    ("acqinc", 'goal "Monster Hunter" 7', "CW141", "6 boxes"),
    ("tutorial", "answer 0", "CW108", "at least 1"),
    ("acqinc", "expect reads has 0", "CW108", "at least 1"),
    # Names that the game does not have there.
    ("tutorial", 'destroy "Treasure Map"\nrow "Treasure Map"', "CW142", "every copy"),
    ("tutorial", "player 1 { artifact Canoe }", "CW142", "not an artifact"),
    ("tutorial", "expect player 1 artifact Canoe", "CW142", "not an artifact"),
    ("tutorial", "fight Burgle", "CW142", "cannot be fought"),
    ("tutorial", "acquire Cultist", "CW142", "cannot be acquired"),
    ("tutorial", "buy Ankh", "CW142", "not a market item"),
    ("tutorial", "use Canoe", "CW142", "no `use:` line"),
    ("tutorial", "coach HQ", "CW142", "not a coach space"),
    ("acqinc", 'player 1 { at "Hidden Grove" }', "CW142", 'sticker "Hidden Grove"'),
    ("acqinc", 'expect player 2 goal "Monster Hunter" 1', "CW142", "player 1's"),
    (
        "space",
        'modules "1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab"\nplayer 1 { at "Mess Hall" }',
        "CW142",
        "module side",
    ),
    ("space", 'modules "1=Hydroponix"', "CW143", "cannot take"),
    ("tutorial", 'modules "1=Hydroponics"', "CW143", "not made of modules"),
    ("tutorial", "player 2 { skill 2 }", "CW112", "turn's pool"),
    # Unknown names, with a did-you-mean.
    ("tutorial", "play Burgel", "CW107", 'did you mean "Burgle"?'),
    ("tutorial", 'move "Mirror Lak"', "CW107", 'did you mean "Mirror Lake"?'),
    ("tutorial", "place Ankh on Gatehous", "CW107", 'did you mean "Gatehouse"?'),
    ("tutorial", "expect space Gatehous has Ankh", "CW107", 'did you mean "Gatehouse"?'),
    ("tutorial", "expect moves to Gatehous", "CW107", 'did you mean "Gatehouse"?'),
    ("tutorial", "expect player 1 at Gatehous", "CW107", 'did you mean "Gatehouse"?'),
    ("tutorial", "act pray", "CW107", "no `action` line"),
    ("space", "act hak", "CW107", 'did you mean "hack"?'),
    ("clank", "counter countdwn 1", "CW107", 'did you mean "countdown"?'),
]


@pytest.mark.parametrize(("pack", "body", "code", "text"), BAD, ids=[b[1] for b in BAD])
def test_each_bad_fact_is_a_diagnostic_at_its_line(
    tmp_path: Path, pack: str, body: str, code: str, text: str
) -> None:
    diags = _diags(tmp_path, pack, body)
    assert [d.code for d in diags] == [code], diags
    (d,) = diags
    assert text in d.message + " " + (d.hint or ""), d
    assert d.span is not None and d.span.file.endswith("s.clank") and d.span.line >= 2


@pytest.mark.parametrize(
    ("pack", "body"),
    [
        ("tutorial", "players 3\nbag player 3 1\ndraws black 3\nexpect winner 3"),
        ("tutorial", "player 2 { skill 2 }\nfirst player 2"),
        ("tutorial", "player 2 { status knocked out; damage 10 }"),
        ("acqinc", 'sticker "Hidden Grove"\nplayer 1 { at "Hidden Grove" }'),
        ("acqinc", 'expect player 2 goal "Monster Hunter" 0'),
        ("acqinc", 'players 3\ngoal "Road Warrior" 5'),
        ("space", 'draws "Bounty Hunter" black\nact hack'),
        (
            "space",
            'modules "1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab"\nplayer 1 { at Triage }',
        ),
        ("tutorial", "destroy Dryad\ndestroy Dryad\nexpect row has no Dryad"),
    ],
)
def test_facts_that_fit_the_game_compile(tmp_path: Path, pack: str, body: str) -> None:
    assert _diags(tmp_path, pack, body) == []


def test_a_statement_later_in_the_scenario_decides(tmp_path: Path) -> None:
    """`players` after the seats it allows, `board` after its spaces: the facts are checked
    once the whole scenario is read."""
    assert _diags(tmp_path, "tutorial", "bag player 4 1\nexpect player 4 skill 0\nplayers 4") == []
    diags = _diags(tmp_path, "tutorial", "bag player 4 1\nplayers 3")
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("CW140", 2, 12)]
