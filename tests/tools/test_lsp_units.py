"""The language server's parts without a server: the name index, completion by context and
quick fixes, on the bundled packs and small packs written here."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from clankwork.dsl.compiler import parser
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.tools import lsp as lsp_server
from clankwork.tools.check import bundled_pack, compile_and_check
from clankwork.tools.lsp_actions import apply_edits, fixes
from clankwork.tools.lsp_complete import complete, pack_names
from clankwork.tools.lsp_index import Symbol, build, new_text, rename_problem


def _index(pack: Path):  # type: ignore[no-untyped-def]
    result = compile_and_check(pack)
    trees = {name: parser().parse(text, name)[0] for name, text in result.sources.items()}
    return build(result.ir, trees), result


def test_the_index_knows_words_from_names() -> None:
    index, _result = _index(bundled_pack("vault"))
    moves = Symbol("resource", "special moves")
    uses = index.by_symbol[moves]
    assert any(u.declares for u in uses)
    assert any(u.span.end_col - u.span.col == len("special moves") for u in uses)
    # `feature skill study room` is the feature, not the resource skill.
    room = index.by_symbol[Symbol("feature", "skill study room")]
    assert room and all(u.span.end_col - u.span.col == len("skill study room") for u in room)
    # A space named HQ is the space where its name is written; the flag `hq` the feature.
    tutorial, _ = _index(bundled_pack("tutorial"))
    hq = tutorial.by_symbol[Symbol("space", "HQ")]
    assert any(u.declares for u in hq)
    assert Symbol("feature", "hq") in tutorial.by_symbol
    assert all(not u.declares for u in tutorial.by_symbol[Symbol("feature", "hq")])


def test_what_may_not_be_renamed() -> None:
    index, result = _index(bundled_pack("vault"))
    own = {f for f in result.sources if "/vault/" in f}
    burgle = Symbol("card", "Burgle")
    assert "base pack" in (rename_problem(index, burgle, "Thief", own) or "")
    assert "game's own" in (rename_problem(index, Symbol("resource", "skill"), "x", own) or "")
    forest = Symbol("feature", "crystal cave")
    assert "the language gives" in (rename_problem(index, forest, "grotto", own) or "")
    moves = Symbol("resource", "special moves")
    assert rename_problem(index, moves, "tricks", own) is None
    assert "already a resource" in (rename_problem(index, moves, "Mercy", own) or "")
    assert "quote" in (rename_problem(index, moves, 'a "b"', own) or "")
    assert "named by words" in (rename_problem(index, moves, "two-step", own) or "")
    assert rename_problem(index, moves, " tricks", own) is not None


def test_a_renamed_name_is_quoted_where_it_must_be() -> None:
    index, _ = _index(bundled_pack("tutorial"))
    uses = index.by_symbol[Symbol("card", "Burgle")]
    bare = next(u for u in uses if not u.quoted)
    assert new_text(bare, "Thief", {"draw"}) == "Thief"
    assert new_text(bare, "Cat Burglar", {"draw"}) == '"Cat Burglar"'
    assert new_text(bare, "Draw", {"draw"}) == '"Draw"'  # a bare Draw reads as the effect
    coin = next(u for u in index.by_symbol[Symbol("card", "Lucky Coin")] if u.quoted)
    assert new_text(coin, "Coin", set()) == '"Coin"'  # quoting is kept as written


PACK = {
    "pack.clank": 'pack p { version "0.1" }\ninclude "cards.clank"\ninclude "board.clank"\n',
    "cards.clank": "card Burgle { starting 6; play: +1 skil }\n"
    "card Purge { cost 2; play: trash 1 Burgel }\n"
    "card Fan { cost 2; play: +2 favour }\n"
    "replace card Explore { cost 3; play: +2 skill }\n",
    "board.clank": "board b {\n  space HQ { hq }\n  space A { forest }\n  path HQ -- A\n"
    '  path A -- "Big Room"\n}\n',
}


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    for name, text in PACK.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_quick_fixes(small: Path) -> None:
    result = compile_and_check(small)
    bundled = {
        "clank": ["card Explore { cost 3; play: +2 skill }\n"],
        "vault": ["card Other { cost 1 }\n"],
    }
    manifest = str(small / "pack.clank"), PACK["pack.clank"]
    got: dict[str, list[str]] = {}
    for d in result.diagnostics:
        assert isinstance(d, Diagnostic) and d.span is not None
        text = result.sources[d.span.file]
        for fix in fixes(d, d.span.file, text, lambda: manifest, lambda: bundled):
            (edit,) = fix.edits
            source = manifest[1] if edit.real == manifest[0] else text
            got.setdefault(fix.title, []).append(apply_edits(source, [edit]))
    assert got["Change skil to skill"][0].startswith("card Burgle { starting 6; play: +1 skill }")
    assert "trash 1 Burgle }" in got["Change Burgel to Burgle"][0]
    declared = got["Declare the resource favour (lost at the end of the turn)"][0]
    assert declared.startswith("resource favour { per turn }\ncard Burgle")
    assert (
        '  space "Big Room" { }\n  path A -- "Big Room"'
        in got['Add space "Big Room" to the board'][0]
    )
    assert got["Add `extends clank` to the pack block"][0].startswith(
        'pack p { version "0.1"; extends clank }'
    )
    # Each fix, made, clears its diagnostic.
    for name, text in [("cards.clank", got["Change skil to skill"][0])]:
        (small / name).write_text(text)
    assert "CW103" not in [
        d.code for d in compile_and_check(small).diagnostics if "skil" in d.message
    ]


@pytest.mark.parametrize(
    "text, first, absent",
    [
        ("card X { cost 2; play: +2 sk", ["skill", "skills"], ["gold"]),
        ("card X { cost 2; play: trash a Bu", ["Burgle"], ["Stumble"]),
        ("card X { cost 2; play: if you are in a fo", ["forest"], []),
        ("card X {\n  play if another comp", ["companion"], []),
        ("card X {\n  only in fo", ["forest"], ["Burgle"]),
        ("card X {\n  not in fo", ["forest"], ["Burgle"]),
        ("card X {\n  play unless you are in a fo", ["forest"], []),
        ("card X {\n  play unl", ["unless"], []),
        ("card X { cost 1; play: unless you are in a fo", ["forest"], []),
        ("card X {\n  play if no", ["no", "not"], []),
        ("card X {\n  play if you are in a forest or you are in a fo", ["forest"], []),
        ("board b {\n  path HQ -- Ga", ["Gatehouse"], ["forest"]),
        ('card X { cost 2; play: trash a "Lu', ["Lucky Coin"], []),
        ("card X {\n  co", ["companion", "copies", "cost"], ["card"]),
        ("board b {\n  space A { for", ["forest"], []),
        ("extends tu", ["tutorial"], []),
        ("card X { cost 2; play: ro", ["roll"], ["choose one"]),
        ("card X { cost 2; play: at ra", ["random"], []),
        ("card X { cost 2; play: return ha", ["half"], []),
    ],
)
def test_completion_by_context(text: str, first: list[str], absent: list[str]) -> None:
    ir = compile_and_check(bundled_pack("tutorial")).ir
    names = pack_names(ir, ["acqinc", "tutorial"])
    lines = text.split("\n")
    labels = [i.label for i in complete(text, len(lines) - 1, len(lines[-1]), names)]
    assert labels[: len(first)] == first, labels
    assert not set(absent) & set(labels)


def test_completion_in_a_scenario_file() -> None:
    ir = compile_and_check(bundled_pack("tutorial")).ir
    names = pack_names(ir, [])
    text = 'scenario "x" {\n  players 2\n  player 1 { at Gate'
    labels = [i.label for i in complete(text, 2, len(text.split("\n")[2]), names, True)]
    assert labels == ["Gatehouse"]
    top = [i.label for i in complete("", 0, 0, names, scenario_file=True)]
    assert top == ["scenario", "scenario …"]
    plain = [i.label for i in complete("", 0, 0, names, scenario_file=True, snippets=False)]
    assert plain == ["scenario"]


def test_hover_on_a_name_says_what_it_is() -> None:
    from clankwork.tools.lsp_features import symbol_text

    index, _ = _index(bundled_pack("vault"))
    moves = symbol_text(index, Symbol("resource", "special moves")) or ""
    assert moves.startswith("**special moves** (resource, lost at the end of the turn")
    assert "also special move" in moves
    cave = symbol_text(index, Symbol("feature", "crystal cave")) or ""
    assert cave.startswith("**crystal cave** (space feature): ")
    rope = symbol_text(index, Symbol("way", "rope")) or ""
    assert rope.startswith("**rope** (way")
    burgle = symbol_text(index, Symbol("card", "Burgle")) or ""
    assert burgle.startswith("**Burgle** (starting") and "Play:" in burgle
    assert symbol_text(index, Symbol("resource", "skill")) is None  # the effect's docs say more


def test_the_cycle_collector_waits_until_the_diagnostics_are_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a big pack's analysis its first pass walks everything the caches keep: the
    # editor gets the diagnostics first.
    server = lsp_server.ClankServer()
    enabled: list[bool] = []

    def analyse(*args: object) -> lsp_server.Analysis:
        enabled.append(gc.isenabled())
        return lsp_server.Analysis(None, None)

    monkeypatch.setattr(lsp_server, "analyse", analyse)
    monkeypatch.setattr(server, "allowed", lambda uri: True)
    monkeypatch.setattr(server, "open_docs", dict)
    monkeypatch.setattr(server, "window_log_message", lambda params: None)
    monkeypatch.setattr(server, "publish", lambda *args: enabled.append(gc.isenabled()))
    assert gc.isenabled()
    server.refresh((tmp_path / "cards.clank").as_uri())
    assert enabled == [False, False] and gc.isenabled()
