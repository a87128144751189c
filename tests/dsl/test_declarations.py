"""`resource`, `way` and `action` declarations: their IR and their diagnostics (CW125-CW129)."""

from __future__ import annotations

from clankwork.dsl.compiler import compile_text

BOARD = """
board b {
  space HQ { hq }
  space Shrine { %s }
  path HQ -- Shrine { %s }
}
"""


def _compile(head: str, space: str = "", path: str = "", card: str = "") -> object:
    text = 'pack t { version "1" }\n' + head + "\n" + card + "\n" + BOARD % (space, path)
    return compile_text(text)


def _codes(result) -> list[tuple[str, str | None]]:
    return [(d.code, d.hint) for d in result.diagnostics]


def test_a_declared_resource_is_a_resource_of_effects() -> None:
    r = _compile(
        'resource "special moves" { per turn; word "special move" }\nresource favour { kept }',
        card="card C { cost 1; play: +1 special move, +2 favour, pay 1 favour -> +1 skill }",
    )
    assert r.ok, r.diagnostics
    effects = r.ir["cards"][0]["triggers"][0]["effects"]
    assert [e.get("resource") for e in effects[:2]] == ["special moves", "favour"]
    assert effects[2]["cost"][0] == {**effects[2]["cost"][0], "resource": "favour"}
    assert [(x["name"], x["keep"]) for x in r.ir["resources"]] == [
        ("special moves", "turn"),
        ("favour", "game"),
    ]


def test_a_resource_used_before_it_is_declared_says_how_to_fix() -> None:
    text = 'pack t { version "1" }\ncard C { cost 1; play: +1 favour }\nresource favour { kept }'
    r = compile_text(text)
    (d,) = [d for d in r.diagnostics if d.code == "CW103"]
    assert "declared" in d.hint and "before" in d.hint


def test_a_typo_in_a_declared_resource_gets_a_did_you_mean() -> None:
    r = _compile("resource favour { kept }", card="card C { cost 1; play: +1 favuor }")
    assert ("CW103", 'did you mean "favour"?') in _codes(r)


def test_cw125_a_resource_cannot_reuse_a_base_name_or_be_declared_twice() -> None:
    r = _compile("resource gold { kept }\nresource x { }\nresource x { }\nresource y { word boot }")
    assert [c for c, _ in _codes(r)].count("CW125") == 3


def test_cw126_a_way_paid_in_no_resource() -> None:
    r = _compile(
        "resource favour { kept }\nway gate { paid in favuor }",
        card="card C { cost 1; play: +1 favour }",
    )
    assert ("CW126", 'did you mean "favour"?') in _codes(r)


def test_cw127_a_path_of_an_undeclared_way() -> None:
    r = _compile("way rope { paid in boots }", path="way rpoe")
    assert ("CW127", 'did you mean "rope"?') in _codes(r)
    r = _compile("way rope { paid in boots }\nway rope { paid in boots }")
    assert "CW127" in [c for c, _ in _codes(r)]


def test_a_path_names_its_way_bare_or_with_way_and_a_cost() -> None:
    r = _compile(
        "resource favour { kept }\nway gate { paid in favour; requires pass; teleport can't }",
        path="gate; cost 2",
        card="card C { cost 1; play: +1 favour }",
    )
    assert r.ok, r.diagnostics
    path = r.ir["boards"][0]["paths"][0]
    assert (path["way"], path["boots"]) == ("gate", 2)
    (way,) = r.ir["ways"]
    assert (way["paid_in"], way["requires"], way["teleport"]) == ("favour", ["pass"], False)


def test_cw102_an_unknown_way_property_gets_a_did_you_mean() -> None:
    r = _compile("way rope { paid in boots; usable while exhausetd }")
    assert ("CW102", 'did you mean "usable while exhausted"?') in _codes(r)


def test_a_space_action_compiles_to_price_and_effects() -> None:
    r = _compile("", space="action pray once per game: pay 2 boots -> +3 gold")
    assert r.ok, r.diagnostics
    (a,) = r.ir["boards"][0]["spaces"][1]["actions"]
    assert (a["name"], a["limit"]) == ("pray", "game")
    assert [n["op"] for n in a["cost"]] == ["spend"] and a["effects"][0]["amount"] == 3
    assert a["at"]["line"] > 1


def test_cw128_malformed_actions() -> None:
    r = _compile("", space="action once per round: +1 gold")
    assert ("CW128", 'did you mean "once per turn"?') in _codes(r)
    r = _compile("", space="action pray once per game")
    assert "CW128" in [c for c, _ in _codes(r)]
    r = _compile("", space="action 3: +1 gold")
    assert "CW128" in [c for c, _ in _codes(r)]


def test_an_action_with_an_unknown_effect_is_a_diagnostic() -> None:
    r = _compile("", space="action: +1 glod")
    assert ("CW103", 'did you mean "gold"?') in _codes(r)


def test_cw129_a_resource_nothing_gives_is_a_warning() -> None:
    r = _compile('resource "special moves" { }')
    ((code, _hint),) = [(d.code, d.severity) for d in r.diagnostics]
    assert (code, _hint) == ("CW129", "warning")
    assert r.ok


def test_a_token_action() -> None:
    r = compile_text(
        'pack t { version "1" }\ntoken Hook { minor secret; action once per game: +1 gold }'
        + BOARD % ("", "")
    )
    assert r.ok, r.diagnostics
    (a,) = r.ir["tokens"][0]["actions"]
    assert a == {**a, "limit": "game", "cost": []} and "name" not in a


def test_cw129_a_way_requirement_no_token_grants_is_a_warning() -> None:
    r = _compile("way gate { requires pass }", path="gate")
    assert [(d.code, d.severity) for d in r.diagnostics] == [("CW129", "warning")]
    assert "pass" in r.diagnostics[0].message


def test_cw129_counts_gains_from_the_rules_block_and_space_triggers() -> None:
    """A resource gained only by the pack's `rules` block, a space's `when you enter` or a
    way's path trigger is given: the pack checks clean (issue 24: it never did)."""
    for head, space in (
        ("resource favour { kept }\nrules { when you escape: +1 favour }", ""),
        ("resource favour { kept }", "when you enter: +1 favour"),
        ("resource favour { kept }\nrules { step turn.stipend after turn.begin: +1 favour }", ""),
    ):
        r = _compile(head, space=space)
        assert r.ok and r.diagnostics == [], (head, space, r.diagnostics)


def test_cw129_still_warns_when_the_only_mention_spends_it() -> None:
    r = _compile(
        "resource favour { kept }\nrules { when you escape: pay 1 favour -> +1 gold }",
        space="action: pay 1 favour -> +1 gold",
    )
    assert [(d.code, d.severity) for d in r.diagnostics] == [("CW129", "warning")]
    assert "favour" in r.diagnostics[0].message


def test_cw130_a_mug_no_rule_awards_is_a_warning_with_the_rule_to_add() -> None:
    """A pack written when a mug awarded itself on escape compiles, but says so (issue 24:
    it silently lost 20 points per escape)."""
    r = _compile('token "Coffee Mug" { mug 4; points 20 }')
    (d,) = r.diagnostics
    assert (d.code, d.severity, d.span.line, d.span.col) == ("CW130", "warning", 2, 1)
    assert "Coffee Mug" in d.message and r.ok
    assert d.hint is not None and 'when you escape: take "Coffee Mug"' in d.hint


def test_cw130_a_mug_a_rule_awards_checks_clean() -> None:
    for rule in ("rules { when you escape: take Mug }", "card C { cost 1; play: take Mug }"):
        r = _compile("token Mug { mug 4; points 20 }\n" + rule)
        assert r.ok and r.diagnostics == [], (rule, r.diagnostics)
