"""The formatter: one layout, idempotent, comments kept, and the IR (spans aside) unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_property import _PROGRAMS

from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.dsl.formatter import comments_of, format_source
from clankwork.dsl.scenarios import compile_scenarios

CONTENT = Path(__file__).resolve().parents[2] / "content"
PACK_FILES = sorted(CONTENT.rglob("*.clank"))


def no_spans(node: Any) -> Any:
    """The IR without its source spans (`at` and every `*_at` key)."""
    if isinstance(node, dict):
        return {k: no_spans(v) for k, v in node.items() if not (k == "at" or k.endswith("_at"))}
    if isinstance(node, list):
        return [no_spans(v) for v in node]
    return node


def fmt(text: str) -> str:
    out = format_source(text, "t.clank")
    assert out is not None
    return out


@pytest.mark.parametrize("path", PACK_FILES, ids=lambda p: str(p.relative_to(CONTENT)))
def test_every_bundled_file_is_formatted_and_formatting_is_idempotent(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    once = fmt(text)
    assert fmt(once) == once
    assert once == text, f"{path} is not formatted: run `clankwork fmt content/`"
    assert [c for _, c, _ in comments_of(text)] == [c for _, c, _ in comments_of(once)]


@pytest.mark.parametrize("pack", ["tutorial", "acqinc", "clank"])
def test_the_ir_of_each_bundled_pack_is_unchanged_by_a_messy_layout(
    pack: str, tmp_path: Path
) -> None:
    # The committed packs are formatted already, so mess each file up first (as a designer
    # might; inside quoted names too, which changes the names alike in both copies) and
    # check that formatting it back changes nothing the compiler sees.
    src = CONTENT / pack
    messy, tidy = tmp_path / "messy", tmp_path / "tidy"
    shutil.copytree(src, messy)
    shutil.copytree(src, tidy)
    for f in messy.rglob("*.clank"):
        text = f.read_text(encoding="utf-8")
        text = text.replace("; ", " ;   ").replace(": ", " :").replace("{ ", "{\n")
        text = text.replace("\n  ", "\n\t ").replace(", ", " ,")
        f.write_text(text, encoding="utf-8")
        out = format_source(text, f.name)
        assert out is not None, f
        (tidy / f.relative_to(messy)).write_text(out, encoding="utf-8")
    irs = []
    for folder in (messy, tidy):
        result = compile_pack(folder)
        assert result.ok, result.diagnostics
        scenarios, diags, _ = compile_scenarios(folder, result.ir)
        assert not diags
        irs.append(no_spans([result.ir, scenarios]))
    assert irs[0] == irs[1]
    assert irs[0][0]["cards"]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_PROGRAMS)
def test_generated_programs_keep_their_ir_and_format_idempotently(text: str) -> None:
    out = format_source(text, "gen.clank")
    if out is None:  # a syntax error: fmt reports it and leaves the text alone
        assert compile_text(text, "gen.clank").diagnostics
        return
    assert format_source(out, "gen.clank") == out
    before, after = compile_text(text, "gen.clank"), compile_text(out, "gen.clank")
    assert no_spans(before.ir) == no_spans(after.ir)
    assert [d.code for d in before.diagnostics] == [d.code for d in after.diagnostics]
    assert [c for _, c, _ in comments_of(text)] == [c for _, c, _ in comments_of(out)]


def test_the_canonical_layout() -> None:
    messy = (
        'card   "Lucky Coin"{cost 1;points 1\n'
        "play:+1 skill,+1 clank ,draw 1}\n"
        "card X {cost 2; play: may pay 2 gold->(+2 skill,+1 boots), choose one(heal 1|draw 1)}\n"
        "card Y { cost 3; play: a -> (b -> c), d -> (e) }\n"
        "board b {\n"
        '  path A--"B C" { boots 2 }\n'
        "}\n"
    )
    assert fmt(messy) == (
        'card "Lucky Coin" { cost 1; points 1; play: +1 skill, +1 clank, draw 1 }\n'
        "card X { cost 2; play: may pay 2 gold -> (+2 skill, +1 boots), "
        "choose one (heal 1 | draw 1) }\n"
        "card Y { cost 3; play: a -> (b -> c), d -> e }\n"
        "board b {\n"
        '  path A -- "B C" { boots 2 }\n'
        "}\n"
    )


def test_quoting_is_kept_as_written() -> None:
    # `"May"` is a name and `May` a word to the compiler: the formatter adds or drops no quotes.
    text = 'card "May" { cost "2" }\ncard May { cost 2 }\n'
    assert fmt(text) == text


def test_long_lines_break_blocks_and_then_effect_lists() -> None:
    long_effects = ", ".join(f"+{i} gold" for i in range(1, 16))
    out = fmt(f"card Z {{ cost 1; play: {long_effects} }}\n")
    lines = out.splitlines()
    assert lines[0] == "card Z {"
    assert lines[1] == "  cost 1"
    assert lines[2] == "  play: +1 gold,"
    assert lines[3] == "      +2 gold,"
    assert all(len(line) <= 100 for line in lines)
    assert fmt(out) == out


def test_comments_stay_where_they_were() -> None:
    text = (
        "# head of file\n"
        "\n"
        "\n"
        "card A {   # opener note\n"
        "    # before cost\n"
        "  cost 1  # after cost\n"
        "\n"
        "  # last in block\n"
        "}  # after the card\n"
        'card "B#1" { cost 2 } # trailing, and a "#" in a name is not a comment\n'
        "card C { play: choose one (+1 gold |\n"
        "   # inside brackets\n"
        "   heal 1) }\n"
        "# end of file\n"
    )
    out = fmt(text)
    assert out == (
        "# head of file\n"
        "\n"
        "card A {  # opener note\n"
        "  # before cost\n"
        "  cost 1  # after cost\n"
        "\n"
        "  # last in block\n"
        "}  # after the card\n"
        'card "B#1" { cost 2 }  # trailing, and a "#" in a name is not a comment\n'
        "card C {\n"
        "  # inside brackets\n"
        "  play: choose one (+1 gold | heal 1)\n"
        "}\n"
        "# end of file\n"
    )
    assert fmt(out) == out


def test_blank_lines_collapse_to_one_and_crlf_and_bom_go() -> None:
    text = "\ufeffcard A { cost 1 }\r\n\r\n\r\n\r\ncard B { cost 2 }\r\n\r\n"
    assert fmt(text) == "card A { cost 1 }\n\ncard B { cost 2 }\n"


def test_a_syntax_error_gives_none() -> None:
    assert format_source('card "X { cost 1 }\n', "bad.clank") is None
    assert format_source("card X { cost 1\n", "bad.clank") is None


def test_empty_text_and_comment_only_files() -> None:
    assert fmt("") == ""
    assert fmt("\n\n") == ""
    assert fmt("  # only a comment\n\n") == "# only a comment\n"
