"""The compiler: IR shapes, spans, and the diagnostics of each stage."""

from __future__ import annotations

import pytest

from clankwork.dsl.compiler import compile_text


def compiled(src: str) -> dict:
    result = compile_text(src, "t.clank")
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return result.ir


def codes(src: str) -> list[tuple[str, int]]:
    result = compile_text(src, "t.clank")
    return [(d.code, d.span.line if d.span else 0) for d in result.diagnostics]


def test_card_ir_matches_card_text() -> None:
    ir = compiled(
        'card "Freelance Cleric" {\n copies 2; cost 4; points 1; companion\n'
        " play: +2 skill\n play if another companion in play: +1 skill\n}\n"
    )
    (card,) = ir["cards"]
    assert card["name"] == "Freelance Cleric"
    assert (card["copies"], card["cost"], card["points"], card["tags"]) == (2, 4, 1, ["companion"])
    first, second = card["triggers"]
    assert first["effects"][0] == {
        "op": "gain",
        "amount": 2,
        "resource": "skill",
        "at": {"file": "t.clank", "line": 3, "col": 8, "end_line": 3, "end_col": 16},
    }
    assert second["if"]["cond"] == "in_play"
    assert second["if"]["tag"] == "companion" and second["if"]["other"] is True


def test_every_node_carries_a_span() -> None:
    ir = compiled(
        "card X { cost 2; play: may discard 1 card -> draw 2, choose one (+1 gold | heal 1),"
        " each opponent (+1 clank), if you have an artifact (teleport) }\n"
    )

    def walk(node):
        if isinstance(node, dict):
            if "op" in node or "cond" in node:
                assert "at" in node, node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    effects = ir["cards"][0]["triggers"][0]["effects"]
    assert [e["op"] for e in effects] == ["pay", "choose", "each", "if"]
    assert effects[0]["optional"] is True
    walk(effects)


def test_card_kinds() -> None:
    ir = compiled(
        "card Burgle { starting 10; play: +1 skill }\n"
        "reserve Cultist { fight 2; defeat: +1 gold }\n"
        "monster Dryad { fight 2; only in forest; dragon attack; danger; defeat: +2 skill }\n"
        "event Quake { arrive: each player (take 1 damage) }\n"
    )
    kinds = {c["name"]: (c["deck"], c["type"]) for c in ir["cards"]}
    assert kinds == {
        "Burgle": ("starting", "acquire"),
        "Cultist": ("reserve", "monster"),
        "Dryad": ("adventure", "monster"),
        "Quake": ("adventure", "event"),
    }
    dryad = ir["cards"][2]
    assert dryad["dragon"] and dryad["danger"] and dryad["only_in"] == "forest"


def test_point_formula() -> None:
    ir = compiled("card Duke { cost 5; points 1 per 5 gold }\n")
    per = ir["cards"][0]["points_per"]
    assert per["points"] == 1 and per["per"]["count"] == "gold" and per["per"]["every"] == 5


def test_board_ir() -> None:
    ir = compiled(
        "board b {\n space HQ { hq; at 10 20 }\n space Wood { forest; reward gold 2 }\n"
        " space Town { town; coach 3; waypoint 17 }\n"
        " path HQ -- Wood { boots 2 }\n path Wood -> Town { monsters 1; water }\n"
        " dead end Town\n}\n"
    )
    (board,) = ir["boards"]
    wood = board["spaces"][1]
    assert wood["exhausts"] and wood["features"] == ["forest"]
    (reward,) = wood["triggers"]
    assert (reward["on"], reward["limit"]) == ("enter", "turn")
    assert reward["effects"][0]["op"] == "gain" and reward["effects"][0]["amount"] == 2
    assert board["spaces"][0]["pos"] == [10, 20]
    assert board["spaces"][2]["coach"] == 3 and board["spaces"][2]["waypoint"] == 17
    two, one, dead = board["paths"]
    assert (two["oneway"], two["boots"]) == (False, 2)
    assert one["oneway"] and one["monsters"] == 1 and one["requires"] == ["canoe"]
    assert dead["to"] is None


def test_rules_block() -> None:
    ir = compiled("rules { hand size 6; rage start 2 with 3 players; rage track 1 2 3 }\n")
    rules = ir["rules"]
    assert rules["hand_size"] == 6 and rules["rage_track"] == [1, 2, 3]
    assert rules["rage_start"]["3"] == 2 and rules["rage_start"]["4"] == 1
    assert rules["at"]["hand_size"]["line"] == 1


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("card X { cost 2; play: drow 2 }", "CW103"),
        ("card X { cots 2 }", "CW102"),
        ("monstr X { fight 2 }", "CW101"),
        ("card X { cost -1 }", "CW108"),
        ("card X { copies 0; cost 1 }", "CW108"),
        ("monster X { copies 1 }", "CW109"),
        ("card X { cost 1 }\ncard X { cost 2 }", "CW106"),
        ("card X { cost 1; play: trash 1 Nothing }", "CW107"),
        ("card X { cost 1; play if you are happy: +1 skill }", "CW104"),
        ("card X { cost 1; play: +1 skill -> draw 1 }", "CW112"),
        ("card X { cost 1; play: choose one (+1 gold) }", "CW105"),
        ("card X { starting 5 }", "CW110"),
        ("board b { space A { hq }\n path A -- B }", "CW107"),
    ],
)
def test_each_error_code(src: str, expected: str) -> None:
    assert expected in [c for c, _ in codes(src + "\n")]


def test_many_errors_in_one_run() -> None:
    src = "card A { cost 1; play: drow 1 }\ncard B { cots 1 }\nmonstr C { }\n"
    assert [c for c, _ in codes(src)] == ["CW103", "CW102", "CW101"]


def test_did_you_mean() -> None:
    result = compile_text("card X { cost 2; play: +2 skil, drow 1 }\n", "t.clank")
    hints = [d.hint for d in result.diagnostics]
    assert hints == ['did you mean "skill"?', 'did you mean "draw"?']


def test_a_repeated_phrase_compiles_to_separate_nodes_with_their_own_spans() -> None:
    # resolve() remembers matches; each occurrence must still get its own node and span.
    result = compile_text(
        'pack p { version "1" }\n'
        "card A { cost 1; play: +1 skill, +1 gold per 5 gold }\n"
        "card B { cost 1; play: +1 skill, +1 gold per 5 gold }\n"
    )
    a, b = (c["triggers"][0]["effects"] for c in result.ir["cards"])
    assert a[0] is not b[0] and a[1]["per"] is not b[1]["per"]
    assert a[0]["at"]["line"] == 2 and b[0]["at"]["line"] == 3
    assert a[1]["per"]["at"]["line"] == 2 and b[1]["per"]["at"]["line"] == 3
    assert {k: v for k, v in a[0].items() if k != "at"} == {
        k: v for k, v in b[0].items() if k != "at"
    }
