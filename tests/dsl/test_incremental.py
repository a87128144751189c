"""Parsing statement by statement (the language server's) gives what parsing the file gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_property import _PROGRAMS

from clankwork.dsl.compiler import parser
from clankwork.dsl.incremental import IncrementalParser, chunks

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "content").rglob("*.clank")) + sorted((ROOT / "tests").rglob("*.clank"))


def _one_by_one(text: str, name: str = "f.clank") -> tuple[list, list]:
    """``text`` parsed a chunk at a time (nothing kept yet: every chunk is parsed alone)."""
    inc = IncrementalParser(parser())
    inc.parse("", name)  # the file is known: from now on it is parsed chunk by chunk
    return inc.parse(text, name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_the_repository_parses_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    whole = parser().parse(text, str(path))
    assert _one_by_one(text, str(path)) == whole
    assert "".join(c for _, c in chunks(text)) == text + ("" if text.endswith("\n") else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PROGRAMS, st.sampled_from(["\n", "\n\n# a comment\n", "\n  ", ";"]))
def test_generated_programs_parse_the_same(text: str, joint: str) -> None:
    text = text.replace("\n", joint)
    whole = parser().parse(text, "gen.clank")
    got = _one_by_one(text, "gen.clank")
    if not whole[1]:
        assert got == whole, text
    else:
        assert got[0] == [] and got[1], text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='card{}();:,|->+"#\\ \n\tabc123', max_size=120))
def test_any_text_fails_where_the_whole_file_fails(text: str) -> None:
    whole = parser().parse(text, "junk.clank")
    got = _one_by_one(text, "junk.clank")
    assert bool(got[1]) == bool(whole[1]), text
    if not whole[1]:
        assert got == whole, text


def test_an_edit_parses_only_what_changed_and_moves_the_rest() -> None:
    cards = [
        f'card "Card {n}" {{\n  cost {n % 5 + 1}\n  play: +1 gold, draw 1\n}}' for n in range(40)
    ]
    text = "\n".join(cards) + "\n"
    inc = IncrementalParser(parser())
    assert inc.parse(text, "c.clank") == parser().parse(text, "c.clank")

    def edit(new: str, parsed: int) -> None:
        before = inc.parsed_chunks
        assert inc.parse(new, "c.clank") == parser().parse(new, "c.clank")
        assert inc.parsed_chunks - before == parsed

    text = text.replace("cost 3", "cost 4", 1)
    edit(text, 1)  # one card changed: one parsed
    text = "# a new first line\n\n" + text
    edit(text, 1)  # the comment goes with the first card; the other 39 move down two lines
    text = text.replace('card "Card 7" {\n  cost 3\n  play: +1 gold, draw 1\n}\n', "")
    assert '"Card 7"' not in text
    edit(text, 0)  # a card removed: nothing to parse
    broken = text.replace('card "Card 20" {\n  cost 1', 'card "Card 20" {\n  cost 1 (', 1)
    inc.parse(broken, "c.clank")
    got = inc.parse(broken, "c.clank")
    whole = parser().parse(broken, "c.clank")
    assert got[0] == [] and [d.span for d in got[1]][:1] == [d.span for d in whole[1]][:1]
    moved_down = "\n\n\n" + broken
    got = inc.parse(moved_down, "c.clank")
    assert [d.span.line for d in got[1]][:1] == [d.span.line + 3 for d in whole[1]][:1]
    edit("\n\n\n" + text, 0)  # fixed again: the kept statements of that text, moved
    inc.forget("c.clank")
    assert "c.clank" not in inc.kept
