"""Carets sit under the span: lines split at "\\n" only, escaped characters keep their width."""

from __future__ import annotations

import pytest

from clankwork.dsl.compiler import compile_text
from clankwork.dsl.diagnostics import Diagnostic, Span, format_human, printable, source_lines
from clankwork.dsl.parser import Parser

ERROR = "+2 skil"  # an unknown effect (CW103) whose span is exactly these characters


def snippet(text: str, code: str = "CW103") -> tuple[str, str, str]:
    """The location, the shown source line and the caret line of the first `code`."""
    result = compile_text(text, "f.clank")
    diag = next(d for d in result.diagnostics if d.code == code)
    out = format_human([diag], result.sources).splitlines()
    where = next(i for i, line in enumerate(out) if line.startswith("  --> "))
    return out[where], out[where + 2], out[where + 3]


def assert_caret_under(shown: str, caret: str, target: str) -> None:
    """The caret line marks exactly ``target`` in the shown line (tabs line up as tabs)."""
    body, marks = shown.split("| ", 1)[1], caret.split("| ", 1)[1]
    start = body.index(target)
    assert marks == marks.rstrip()
    assert marks.lstrip(" \t") == "^" * len(target), (body, marks)
    assert len(marks) - len(target) == start, (body, marks)
    assert all(m == "\t" for b, m in zip(body, marks, strict=False) if b == "\t")


@pytest.mark.parametrize(
    "before",
    [
        "# a form\x0cfeed in a comment\n",
        "# a line\u2028separator and\u2029a paragraph one\n",
        "# more: \x0b \x1c \x1d \x1e \x85\n",
        'token "Form\x0cfeed" { }\n',
        'token "Line\u2028sep" { }\n',
    ],
)
def test_line_breaks_lark_does_not_count_do_not_shift_the_caret(before: str) -> None:
    text = before + "token Gem { }\ncard X { cost 1; play: +2 skil }\n"
    where, shown, caret = snippet(text)
    assert where == "  --> f.clank:3:24"
    assert shown.startswith(" 3 | card X {")
    assert_caret_under(shown, caret, ERROR)


@pytest.mark.parametrize("sep", ["\x0c", "\u2028", "\x1b[31m", "\u202e", "\r", "\b", "\x85"])
def test_escaped_characters_before_the_span_keep_the_caret_aligned(sep: str) -> None:
    text = f'card "A{sep}B" {{ cost 1; play: +2 skil }}\n'
    where, shown, caret = snippet(text)
    assert where == f"  --> f.clank:1:{text.index(ERROR) + 1}"
    assert sep not in shown
    assert printable(sep) in shown and printable(sep).startswith("\\")
    assert_caret_under(shown, caret, ERROR)


def test_crlf_line_endings() -> None:
    text = "token Gem { }\r\ncard X {\r\n  cost 1; play: +2 skil }\r\n"
    where, shown, caret = snippet(text)
    assert where == "  --> f.clank:3:17"
    assert "\r" not in shown and "\\x0d" not in shown
    assert_caret_under(shown, caret, ERROR)


def test_tabs_stay_tabs() -> None:
    _where, shown, caret = snippet("card\tX {\n\tcost 1;\tplay: +2 skil }\n")
    assert "\t" in shown and caret.split("| ", 1)[1].startswith("\t")
    assert_caret_under(shown, caret, ERROR)


def test_syntax_error_after_a_form_feed() -> None:
    where, shown, caret = snippet("# a\x0cb\u2028c\n}\n", "CW001")
    assert where == "  --> f.clank:2:1" and shown == " 2 | }" and caret.endswith("| ^")


def test_end_of_file_after_separators() -> None:
    _stmts, diags = Parser().parse("# a\x0cb\u2028c\x0c\ncard X: +1 skill,", "f.clank")
    assert [d.code for d in diags] == ["CW003"]
    assert (diags[0].span.line, diags[0].span.col) == (2, 18)


def test_byte_order_mark_is_blank() -> None:
    result = compile_text('\ufeffpack p { version "1" }\n', "f.clank")
    assert not [d for d in result.diagnostics if d.code in ("CW001", "CW002")]


def test_source_lines_split_at_newline_only() -> None:
    assert source_lines("a\x0cb\u2028c\r\nd\n") == ["a\x0cb\u2028c", "d", ""]


def test_terminal_sequences_in_source_and_message_are_escaped() -> None:
    src = {"f.clank": 'card "\x1b]8;;http://x\x07\x1b[2J\u202eevil" { }\n'}
    diag = Diagnostic(
        "CW107",
        "unknown card '\x1b[2J\u2066x'",
        Span("f.clank", 1, 6, 1, 30),
        hint="did you mean \x9b31m?",
        notes=(("see \r here", Span("f.clank", 1, 1, 1, 2)),),
    )
    for color in (False, True):
        out = format_human([diag], src, color=color)
        body = out.replace("\x1b[1;31m", "").replace("\x1b[1m", "").replace("\x1b[0m", "")
        assert not any(ch in body for ch in "\x1b\x07\r\u202e\u2066\x9b"), repr(body)
        assert "\\x1b[2J" in body and "\\u202e" in body and "\\x9b" in body
        assert "\\x0d here" in body


def test_escaped_file_name_in_the_location() -> None:
    diag = Diagnostic("CW004", "cannot read it", Span("a\x1b[2Jb\n.clank", 1, 1, 1, 2))
    out = format_human([diag], {})
    assert "\x1b" not in out and "a\\x1b[2Jb\\x0a.clank:1:1" in out


def test_wide_and_combining_characters_before_the_span() -> None:
    text = 'card "魔法e\u0301" { cost 1; play: +2 skil }\n'
    _where, shown, caret = snippet(text)
    body, marks = shown.split("| ", 1)[1], caret.split("| ", 1)[1]
    # Two columns for each wide character, none for the combining accent.
    assert len(marks) - len(ERROR) == body.index(ERROR) + 2 - 1
    assert marks.lstrip() == "^" * len(ERROR)


def test_long_line_is_shown_as_a_window_around_the_span() -> None:
    text = "card X { cost 1; play: " + "+1 skill, " * 2000 + "+2 skil }\n"
    _where, shown, caret = snippet(text)
    assert len(shown) < 300 and shown.split("| ", 1)[1].startswith("...")
    assert_caret_under(shown, caret, ERROR)
    text = "card X { cost 1; play: +2 skil" + ", +1 skill" * 2000 + " }\n"
    _where, shown, caret = snippet(text)
    assert len(shown) < 300 and shown.endswith("...")
    assert_caret_under(shown, caret, ERROR)


def test_invalid_utf8_shows_its_line_with_the_caret(tmp_path) -> None:
    from clankwork.dsl.compiler import compile_pack

    (tmp_path / "pack.clank").write_bytes(b'pack p { version "1" }\n# caf\xe9 au lait\n')
    result = compile_pack(tmp_path)
    out = format_human(result.diagnostics, result.sources)
    assert "pack.clank:2:6" in out
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(" 2 | "))
    assert lines[i] == " 2 | # caf\ufffd au lait"
    assert lines[i + 1] == "   |      ^"
