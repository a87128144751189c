"""Every word means something or is a diagnostic: no condition, keyword or trigger that the
engine would silently ignore."""

from __future__ import annotations

from click.testing import CliRunner

from clankwork.dsl.compiler import compile_text
from clankwork.tools.cli import main

BASE = """pack p { version "1" }
card Burgle { starting 10; play: +1 skill }
token "Temple Key" { market; type key; grants key }
token "Sun Idol" { artifact; points 5 }
token Egg { minor secret; points 3 }
board b {
  space HQ { hq }
  space Grove { forest; artifact 5; reward gold 1 }
  space Town { town; coach 2 }
  path HQ -- Grove
  path Grove -- Town
}
"""


def _diags(extra: str) -> list:
    return compile_text(BASE + extra, "p.clank").diagnostics


def test_the_base_is_clean() -> None:
    assert _diags("") == []


def test_a_condition_naming_no_token_is_an_error_with_did_you_mean() -> None:
    (d,) = _diags('card A { cost 1; play if you have "Temple Lock": +2 boots }\n')
    assert d.code == "CW107" and "Temple Lock" in d.message
    assert d.hint == 'did you mean "Temple Key"?'
    assert d.span.line == 13


def test_a_condition_naming_no_feature_is_an_error() -> None:
    (d,) = _diags("card A { cost 1; play if you are in the shallows: +2 boots }\n")
    assert d.code == "CW107" and "shallows" in d.message and "no space" in d.message


def test_conditions_that_name_what_the_pack_has_are_fine() -> None:
    text = (
        "card A { cost 1; play if you have a key: +1 boots }\n"
        "card B { cost 1; play if you have an artifact: +1 boots }\n"
        "card C { cost 1; play if you have a secret: +1 boots }\n"
        "card D { cost 1; play: if you are in a forest (+1 boots) }\n"
        "card E { cost 1; play: if you are at a coach (+1 boots) }\n"
    )
    assert _diags(text) == []


def test_a_flag_word_names_the_feature_it_gives() -> None:
    """`depths` on a space is the danger-zone feature, so `only in depths` and `you are in
    the depths` mean it too (and `market` means town)."""
    text = (
        "monster Troll { fight 1; only in depths; defeat: +1 gold }\n"
        "card A { cost 1; play if you are in the depths: +1 boots }\n"
        "card B { cost 1; only in market; play: +1 boots }\n"
    )
    deep = "  path Grove -- Town\n  space Deep { depths }\n  path Town -- Deep\n"
    result = compile_text(BASE.replace("  path Grove -- Town\n", deep) + text, "p.clank")
    assert result.diagnostics == [], [d.message for d in result.diagnostics]
    cards = {c["name"]: c for c in result.ir["cards"]}
    assert cards["Troll"]["only_in"] == "danger zone" and cards["B"]["only_in"] == "town"
    assert cards["A"]["triggers"][0]["if"]["feature"] == "danger zone"


def test_exit_1_from_the_command_line(tmp_path) -> None:
    (tmp_path / "pack.clank").write_text(
        BASE + 'card A { cost 1; play if you have "Temple Lock": +2 boots }\n', "utf-8"
    )
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "pack.clank:13:" in result.output


def test_an_artifact_value_without_a_token_is_a_warning() -> None:
    (d,) = compile_text(BASE.replace("artifact 5;", "artifact 7;"), "p.clank").diagnostics
    assert d.code == "CW115" and d.severity == "warning" and "worth 7" in d.message


def test_reveal_on_a_token_that_is_never_revealed() -> None:
    (d,) = _diags('token "Lucky Coin" { artifact; points 5; on reveal: +1 skill }\n')
    assert d.code == "CW102" and "never fires" in d.message and "artifact" in d.message


def test_reveal_on_a_market_item_fires_when_it_is_bought() -> None:
    # "When you buy this, immediately heal 2 damage" (a market item's reveal is its purchase).
    assert not _diags('token "Lucky Coin" { market; on reveal: +1 skill }\n')


def test_reveal_on_a_token_taken_from_a_space_is_fine() -> None:
    # A token lying on a space (or in the supply) is revealed when a player takes it.
    assert not _diags("token Relic { count 2; on reveal: +1 skill }\n")


def test_a_repeated_reward() -> None:
    text = BASE.replace("reward gold 1 }", "reward gold 1; reward gold 2 }")
    (d,) = compile_text(text, "p.clank").diagnostics
    assert d.code == "CW105" and "twice" in d.message and d.notes


def test_a_word_with_no_behaviour_is_an_unknown_property() -> None:
    # The Vault's Echo is content on a general record (effects/stay_in_play.py).
    (d,) = _diags("card A { cost 1; echo; play: +1 skill }\n")
    assert d.code == "CW102" and "echo" in d.message


def test_campaign_declarations_are_typed_not_kept_as_text() -> None:
    diags = _diags(
        "sticker R8 { rule setup.starting_deck: replace 1 Stumble with Clang }\n"
        'passage 12 { read "The vault opens." }\n'
        "contract Heist { points 5 }\n"
    )
    # Stickers, passages and contracts have meaning now: their bad lines are named.
    assert [d.code for d in diags] == ["CW102", "CW105", "CW109", "CW102"]
    assert "unknown sticker line" in diags[0].message and "fills SLOT" in diags[0].hint
    assert "read takes one number" in diags[1].message
    assert "no `complete:` line" in diags[2].message
    assert "unknown contract line" in diags[3].message


def test_a_sticker_fills_a_declared_slot_and_its_words_resolve() -> None:
    rules = "rules { slot R10 after setup.players }\n"
    assert _diags(rules + 'sticker "A" { fills R10: each player (+2 gold) }\n') == []
    (d,) = _diags(rules + 'sticker "A" { fills R1O: +2 gold }\n')
    assert d.code == "CW107" and d.hint == 'did you mean "R10"?' and d.span.line == 14
    (d,) = _diags(rules + 'sticker "A" { fills R10: +2 glod }\n')
    assert d.span.line == 14 and "glod" in d.message
    (d,) = _diags(rules + 'sticker "A" { }\n')
    assert d.code == "CW109" and "fills no slot" in d.message


def test_a_card_an_effect_names_must_exist() -> None:
    text = (
        "reserve Tome { copies 4; cost 7; points 7 }\n"
        'card A { cost 1; play: pay 7 gold -> take 2 "Secret Tom" from the reserve }\n'
        "card B { cost 1; play: pay 7 gold -> take a Burgle from the reserve }\n"
        "card C { cost 1; play: trash a Burgel }\n"
        'card D { cost 1; play: trash a Burgle, pay 1 gold -> take a "Tome" from the reserve }\n'
    )
    diags = _diags(text)
    assert [d.code for d in diags] == ["CW107"] * 3, [d.message for d in diags]
    assert _diags(text.replace("Secret Tom", "Tome").replace("a Burgle from", "a Tome from")) == [
        diags[2]
    ]
    a, b, c = diags
    assert "Secret Tom" in a.message and "Tome" in a.hint
    assert "not a reserve card" in b.message
    assert "Burgel" in c.message and "Burgle" in c.hint


def test_passages_resolve_what_they_read_and_apply() -> None:
    rules = "rules { slot R10 after setup.players }\n"
    rules += 'sticker "A" { fills R10: +2 gold }\n'
    rules += "campaign { track Rivals { spaces 3 } }\n"
    ok = (
        'passage 1 { prologue 1; text "Hi."; sticker "A"; read 2 }\n'
        'passage 2 { choice "Yes" reads 1; choice "No" reads 2; checkmark each player }\n'
        "passage 3 { mark the Rivals track; add an X to the Rivals track }\n"
    )
    assert _diags(rules + ok) == []
    diags = _diags(rules + 'passage 1 { sticker "B"; read 9; epilog 2 }\npassage 1 { }\n')
    assert sorted(d.code for d in diags) == ["CW102", "CW106", "CW107", "CW107"]
    by = {d.code: d for d in diags}
    assert by["CW102"].hint == 'did you mean "epilogue"?'


# A campaign track is the pack's: declared in its campaign block, named by the words that mark
# it. Line numbers count from BASE's 12 lines.
TRACKS = """passage 17 { text "The rivals gain ground." }
passage 167 { text "A funeral." }
campaign {
  track "Rival Guild" {
    spaces 6
    space 2 reads 17
  }
  track Doom { spaces 4 }
  death marks "Rival Guild" reads 167
}
"""


def test_a_campaign_declares_its_own_named_tracks() -> None:
    result = compile_text(BASE + TRACKS, "p.clank")
    assert result.diagnostics == []
    block = result.ir["campaign"]
    assert [(t["name"], t["spaces"], t["reads"]) for t in block["tracks"]] == [
        ("Rival Guild", 6, {"2": 17}),
        ("Doom", 4, {}),
    ]
    assert {k: v for k, v in block["death"].items() if k != "at"} == {
        "marks": "Rival Guild",
        "reads": 167,
    }


def test_a_track_a_word_names_must_be_declared_with_its_place_and_a_guess() -> None:
    text = TRACKS.replace('death marks "Rival Guild"', 'death marks "Rival Gild"')
    text += 'card A { cost 1; play: add an X to the "rival guild" track }\n'
    text += "contract K { complete: pay 1 gold -> +1 gold; end of game: mark the Dom track }\n"
    text += "passage 3 { mark the Dooom track }\n"
    diags = _diags(text)
    assert [d.code for d in diags] == ["CW107"] * 4, [d.message for d in diags]
    by = {d.span.line: d for d in diags}
    assert set(by) == {21, 23, 24, 25}
    assert "Rival Gild" in by[21].message and by[21].hint == 'did you mean "Rival Guild"?'
    assert "names match exactly" in by[23].hint and by[23].span.col > 1
    assert by[24].hint == 'did you mean "Doom"?' and by[25].hint == 'did you mean "Doom"?'


def test_a_track_block_is_checked_line_by_line() -> None:
    diags = _diags(
        "campaign {\n  track T { spaces 3; space 5 reads 1; spacs 2 }\n  track T { spaces 2 }\n"
        '  death reads\n}\npassage 1 { text "One." }\n'
    )
    assert sorted(d.code for d in diags) == ["CW102", "CW105", "CW106", "CW108"], diags
    by = {d.code: d for d in diags}
    assert "past its end" in by["CW108"].message and by["CW108"].span.line == 14
    assert by["CW102"].hint == 'did you mean "spaces"?'
    assert "twice" in by["CW106"].message and by["CW106"].span.line == 15
    assert "death line" in by["CW105"].message and by["CW105"].span.line == 16


def test_the_old_fixed_track_words_are_refused_with_the_new_shape() -> None:
    """A campaign block written for one game's track by name (`dran track 8`) is a
    diagnostic naming the general shape, never silently dropped."""
    diags = _diags("campaign {\n  dran track 8\n  dran 2 reads 17\n}\n")
    assert [d.code for d in diags] == ["CW102", "CW102"]
    assert all("track" in (d.hint or "") for d in diags)
    assert (diags[0].span.line, diags[0].span.col) == (14, 3)


def test_patrons_and_boards_named_by_passages_must_exist() -> None:
    ok = 'patron "Boss" { at the start of your turn: +1 gold }\n'
    ok += 'passage 1 { patron "Boss"; board b }\n'
    assert _diags(ok) == []
    diags = _diags('patron "Boss" { gold 1 }\npassage 1 { patron "Bos"; board c }\n')
    assert sorted(d.code for d in diags) == ["CW102", "CW107", "CW107"]
    assert any(d.hint == 'did you mean "Boss"?' for d in diags)


def test_a_token_a_lack_condition_or_a_guard_names_must_exist() -> None:
    """`if you lack X`, `if there is an X here`, and the tokens an action defeats, a space
    offers from elsewhere or setup deals are held to the pack's token words too: a misspelt
    one would otherwise never be held, never lie anywhere, and the rule would go quiet."""
    text = (
        "token Guard { count 2; type guard; points 2 }\n"
        "board c {\n"
        "  space Gate { hq; feature watchpost }\n"
        '  space Post { feature watchpost; when you enter if you lack "Egg": take "Egg" here\n'
        "    to enter if there is a gaurd here: choose one (defeat a guard here with 3 swords"
        " | take 1 damage)\n"
        "    action fight: defeat a gard here with 3 swords\n"
        "    when you enter: may take an eg you lack from another room }\n"
        "  path Gate -- Post\n"
        "}\n"
        "rules { step setup.guards after setup.tokens: deal a random gaurd face down onto each"
        " watchpost }\n"
    )
    diags = _diags(text)
    assert all(d.code == "CW107" for d in diags), [d.message for d in diags]
    said = sorted(d.message for d in diags)
    assert said == [
        "'Post' asks whether 'gaurd' lies on a space, but no token of the pack is called that "
        "or is of that kind",
        "'Post' defeats 'gard', but no token of the pack is called that or is of that kind",
        "'Post' takes 'eg', but no token of the pack is called that or is of that kind",
        "'step setup.guards' deals 'gaurd', but no token of the pack is called that or is of "
        "that kind",
    ]
    assert all(d.hint in ('did you mean "guard"?', 'did you mean "egg"?') for d in diags)


def test_an_effect_with_a_known_first_word_is_hinted_whole() -> None:
    (d,) = _diags("card A { cost 1; play: take 1 damge }\n")
    assert d.code == "CW103" and d.hint == 'did you mean "take 1 damage"?'


def test_a_line_that_belongs_inside_a_block_says_which_block() -> None:
    text = 'pack p { version "1" }\nstep turn.stipend after turn.begin: +1 boots\n'
    text += "path A -- B\n"
    diags = [d for d in compile_text(text).diagnostics if d.code == "CW101"]
    assert [d.hint for d in diags] == [
        "a `step` goes inside the `rules { ... }` block: rules { step NAME after OTHER: ... }",
        "a `path` goes inside a `board NAME { ... }` (or `module`) block",
    ]
