"""`compile_and_check` with a cache (the language server's) says what it says without one,
and compiles the pack again only when a file it read has changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.diagnostics import Diagnostic
from clankwork.dsl.parser import Parser
from clankwork.tools.check import bundled_pack, compile_and_check
from clankwork.tools.check_cache import CheckCache, _lines_moved


def _same(pack: Path, cache: CheckCache, overrides: dict[str, str] | None = None) -> list:
    """The diagnostics with the cache, checked against a run without one."""
    got = compile_and_check(pack, overrides, cache)
    want = compile_and_check(pack, overrides)
    assert got.diagnostics == want.diagnostics
    assert got.sources == want.sources
    assert got.ir == want.ir
    return got.diagnostics


def _codes(diags: list[Diagnostic]) -> list[str]:
    return [d.code for d in diags if d.severity == "error"]


def test_edits_of_scenarios_and_pack_files(tmp_path: Path) -> None:
    pack = tmp_path / "acqinc"
    shutil.copytree(bundled_pack("acqinc"), pack)
    cache = CheckCache()
    assert _codes(_same(pack, cache)) == []
    assert (cache.compiles, cache.reuses) == (1, 0)
    _same(pack, cache)
    assert (cache.compiles, cache.reuses) == (1, 1)

    # A scenario edited in the editor: the compiled pack is used again.
    scenario = sorted((pack / "scenarios").glob("*.clank"))[0]
    rel = scenario.relative_to(pack).as_posix()
    text = scenario.read_text()
    broken = text + '\nscenario "X" { play Nobody }\n'
    assert "CW107" in _codes(_same(pack, cache, {rel: broken}))
    assert (cache.compiles, cache.reuses) == (1, 2)

    # A pack file edited in the editor, then the same text saved: compiled once, then kept.
    cards = "adventure.clank"
    typo = (pack / cards).read_text().replace("+2 gold", "+2 goldd", 1)
    assert "CW103" in _codes(_same(pack, cache, {cards: typo}))
    assert cache.compiles == 2
    (pack / cards).write_text(typo)
    assert "CW103" in _codes(_same(pack, cache))
    assert cache.compiles == 2  # the disk now says what the buffer said

    # Changed on disk behind the editor's back, or made a link: compiled again.
    (pack / cards).write_text(typo.replace("+2 goldd", "+2 gold"))
    assert _codes(_same(pack, cache)) == []
    assert cache.compiles == 3
    outside = tmp_path / "elsewhere.clank"
    outside.write_text((pack / cards).read_text())
    (pack / cards).unlink()
    os.symlink(outside, pack / cards)
    assert "CW005" in _codes(_same(pack, cache))
    assert cache.compiles == 4
    _same(pack, cache)
    assert cache.compiles == 5  # a compile that refused a file is never kept


def test_a_base_pack_changed_on_disk_is_compiled_again(tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(bundled_pack("tutorial"), base)
    ext = tmp_path / "ext"
    ext.mkdir()
    (ext / "pack.clank").write_text(
        'pack ext { version "0.1"; extends "../base" }\ninclude "more.clank"\n'
    )
    (ext / "more.clank").write_text("card Extra { cost 2; play: +1 skill }\n")
    cache = CheckCache()
    assert _codes(_same(ext, cache)) == []
    _same(ext, cache)
    assert (cache.compiles, cache.reuses) == (1, 1)
    reserve = base / "reserve.clank"
    reserve.write_text(reserve.read_text() + "\ncard Oops { cost 1; play: +1 goldd }\n")
    assert "CW103" in _codes(_same(ext, cache))
    assert cache.compiles == 2


def test_trying_the_stickers_leaves_the_pack_as_it_was() -> None:
    """The sticker check copies only what each sticker edits (a pack of 2,000 cards was
    copied whole for each of its stickers); the pack it tries them on is never changed."""
    import copy
    import json

    from clankwork.dsl import stickers

    result = compile_and_check(bundled_pack("acqinc"))
    ir = result.ir
    assert ir is not None
    edited = [s for s in ir["stickers"] if s.get("edits")]
    assert any(e["kind"] in ("card", "monster") for s in edited for e in s["edits"])
    before = json.dumps(ir, sort_keys=True)
    found = stickers.check(ir)
    assert json.dumps(ir, sort_keys=True) == before
    assert found == stickers.check(copy.deepcopy(ir))


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files `Parser.parse` is asked to parse from now on, in order."""
    asked: list[str] = []
    real = Parser.parse

    def counting(self: Parser, text: str, filename: str) -> Any:
        asked.append(filename)
        return real(self, text, filename)

    monkeypatch.setattr(Parser, "parse", counting)
    return asked


def test_a_check_parses_each_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The scenario files give their scenarios and their balance blocks from one parse.
    asked = _parses(monkeypatch)
    pack = bundled_pack("tutorial")
    result = compile_and_check(pack)
    assert any(s.endswith("scenarios/balance.clank") for s in result.sources)
    assert sorted(asked) == sorted(set(asked)) and len(asked) == len(result.sources)


def test_an_edit_of_a_pack_file_parses_no_scenario_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), pack)
    cache = CheckCache()
    _same(pack, cache)
    asked = _parses(monkeypatch)
    cards = "adventure.clank"
    text = "# a new first line\n" + (pack / cards).read_text()
    got = compile_and_check(pack, {cards: text}, cache)
    assert not any("/scenarios/" in name for name in asked), asked
    assert got.diagnostics == compile_and_check(pack, {cards: text}).diagnostics


def _moved_variants(text: str) -> list[str]:
    """The text with lines that mean nothing to the grammar added and removed: a comment
    at the top, a blank line and a comment before the middle line of code (the lines below
    move, those above stay), and the first comment-only line taken out (those below move
    up)."""
    lines = text.split("\n")
    code = [i for i, line in enumerate(lines) if line.strip() and not line.strip().startswith("#")]
    middle = code[len(code) // 2]
    out = ["# a note added at the top\n" + text]
    out.append("\n".join([*lines[:middle], "", "# a note in the middle", *lines[middle:]]))
    comments = [i for i, line in enumerate(lines) if line.strip().startswith("#")]
    if comments:
        out.append("\n".join(lines[: comments[0]] + lines[comments[0] + 1 :]))
    # A comment after the code of a line with a string (a `#` inside a string is code).
    quoted = next((i for i in code if '"' in lines[i]), middle)
    trailing = list(lines)
    trailing[quoted] += '  # a note after the code, "quoted"'
    out.append("\n".join(trailing))
    return out


@pytest.mark.parametrize("name", ["clank", "vault", "tutorial"])
def test_comments_and_blank_lines_move_the_kept_compile(name: str) -> None:
    """A comment or a blank line added or removed anywhere in a pack file changes no
    statement: the kept compile is used with its positions moved (`CheckCache.moved`),
    and it is what compiling the new text gives: the same IR, spans included, the same
    diagnostics at the same lines, the same sources."""
    pack = bundled_pack(name)
    files = sorted(p.relative_to(pack).as_posix() for p in pack.glob("*.clank"))
    assert files
    for rel in files:
        text = (pack / rel).read_text()
        first = CheckCache()
        compile_and_check(pack, {rel: text}, first)
        for variant in _moved_variants(text):
            cache = CheckCache()
            cache.part, cache.compiles = first.part, 1  # what the first run kept
            got = compile_and_check(pack, {rel: variant}, cache)
            assert (cache.compiles, cache.moves) == (1, 1), rel
            want = compile_and_check(pack, {rel: variant})
            assert got.ir == want.ir, rel
            assert got.diagnostics == want.diagnostics, rel
            assert got.sources == want.sources, rel


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "card Burgle { starting 6; play: +1 skill }",
            "card Burgle { starting 6; play: +2 skill }",
        ),
        ('card "A#B" { cost 1 }', 'card "A" #B" { cost 1 }'),
        ('card "A\\"#" { cost 1 }', 'card "A\\"" { cost 1 }'),
    ],
)
def test_a_change_of_code_is_not_a_move(old: str, new: str) -> None:
    """A change to a line's code is compiled again, `#` inside a string (escaped quotes
    included) being code and not a comment."""
    assert _lines_moved(f"# a\n{old}\n", f"{new}\n") is None
    assert _lines_moved(f"# a\n{old}\n", f"{old}  # b\n\n") == {2: 1}


def test_an_edit_of_a_line_of_code_compiles_again() -> None:
    """A changed line of code is compiled: only comments and blank lines are known to mean
    nothing."""
    pack = bundled_pack("clank")
    text = (pack / "dungeon.clank").read_text()
    cache = CheckCache()
    compile_and_check(pack, {"dungeon.clank": text}, cache)
    changed = text.replace("cost 2", "cost 3", 1)
    assert changed != text
    _same(pack, cache, {"dungeon.clank": changed})
    assert (cache.compiles, cache.moves) == (2, 0)
