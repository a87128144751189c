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
    (d,) = _diags('token "Lucky Coin" { market; on reveal: +1 skill }\n')
    assert d.code == "CW102" and "never fires" in d.message and "market" in d.message


def test_reveal_on_a_token_taken_from_a_space_is_fine() -> None:
    # A token lying on a space (or in the supply) is revealed when a player takes it.
    assert not _diags("token Relic { count 2; on reveal: +1 skill }\n")


def test_a_repeated_reward() -> None:
    text = BASE.replace("reward gold 1 }", "reward gold 1; reward gold 2 }")
    (d,) = compile_text(text, "p.clank").diagnostics
    assert d.code == "CW105" and "twice" in d.message and d.notes


def test_echo_has_no_behaviour_yet() -> None:
    (d,) = _diags("card A { cost 1; echo; play: +1 skill }\n")
    assert d.code == "CW102" and "echo" in d.message


def test_campaign_declarations_are_refused_not_kept_as_text() -> None:
    diags = _diags(
        "sticker R8 { rule setup.starting_deck: replace 1 Stumble with Clang }\n"
        'passage 12 { read "The vault opens." }\n'
        "contract Heist { points 5 }\n"
    )
    assert [d.code for d in diags] == ["CW101"] * 3
    assert all("no meaning" in d.message for d in diags)
