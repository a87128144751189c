"""Packs that extend packs (issue 7 item 7): the base is compiled first and the extension
laid over it; unknown bases, cycles and edits of what the base lacks are diagnostics that
name the file, line and column they come from."""

from __future__ import annotations

import copy
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.dsl import limits
from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.dsl.extends import shown_path
from clankwork.interpreter.schema import validate_ir
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
ACQINC = ROOT / "content" / "acqinc"


@pytest.fixture(scope="module")
def acqinc() -> dict:
    # Shown as an extension shows its bundled base, so the spans compare equal.
    result = compile_pack(ACQINC, display_root=shown_path(ACQINC))
    assert result.ok, result.diagnostics
    return result.ir


@pytest.fixture(scope="module")
def plus() -> dict:
    result = compile_pack(FIXTURES / "ext_acqinc")
    assert result.ok, [d for d in result.diagnostics if d.severity == "error"]
    return result.ir


@pytest.fixture()
def at_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, so messages show paths like tests/fixtures/..."""
    monkeypatch.chdir(ROOT)
    return ROOT


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _codes(diags: list[Diagnostic]) -> list[str]:
    return [d.code for d in diags if d.severity == "error"]


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def _manifest(name: str, base: str, body: str = "") -> str:
    return f'pack {name} {{\n  version "0.1.0"\n  extends {base}\n}}\n{body}'


# -- the whole pack ----------------------------------------------------------------------------


def test_extension_is_acqinc_plus_its_change(acqinc: dict, plus: dict) -> None:
    base = {c["name"]: c for c in acqinc["cards"]}
    ext = {c["name"]: c for c in plus["cards"]}
    assert set(ext) == (set(base) - {"Lucky Paperclip"}) | {"Overtime Voucher"}
    # The replaced card is the new declaration, at the base's place in the deck.
    sand = ext["Pocket Sand"]
    assert (sand["cost"], sand["points"]) == (3, 2)
    assert sand["at"]["file"].endswith("ext_acqinc/cards.clank")
    kept = [c["name"] for c in acqinc["cards"] if c["name"] != "Lucky Paperclip"]
    assert [c["name"] for c in plus["cards"]] == [*kept, "Overtime Voucher"]
    # A change keeps every property it does not give.
    petty = copy.deepcopy(base["Petty Cash"])
    petty["copies"] = 4
    assert ext["Petty Cash"] == petty
    # Everything else is the base's, spans and all (they point at acqinc's files).
    for name in set(base) - {"Lucky Paperclip", "Pocket Sand", "Petty Cash"}:
        assert ext[name] == base[name], name
    assert ext["Burgle"]["at"]["file"].endswith("content/acqinc/starting.clank")
    assert plus["tokens"] == acqinc["tokens"]
    assert validate_ir(plus) == []


def test_extension_records_its_base(plus: dict) -> None:
    assert plus["pack"]["name"] == "acqinc-plus"
    assert plus["pack"]["version"] == "0.2.0"
    [record] = plus["pack"]["extends"]
    assert (record["name"], record["version"], record["ref"]) == ("acqinc", "0.1.0", "acqinc")
    assert record["at"]["file"].endswith("ext_acqinc/pack.clank")


def test_rules_override_only_what_they_give(acqinc: dict, plus: dict) -> None:
    assert plus["rules"]["market_price"] == 6
    assert plus["rules"]["at"]["market_price"]["file"].endswith("ext_acqinc/pack.clank")
    for key in ("hand_size", "row_size", "rage_start", "starting_clank", "off_clock_draw"):
        assert plus["rules"][key] == acqinc["rules"][key], key
        assert plus["rules"]["at"][key] == acqinc["rules"]["at"][key], key


def test_board_additions_and_a_changed_space(acqinc: dict, plus: dict) -> None:
    [board] = plus["boards"]
    [base] = acqinc["boards"]
    spaces = {s["name"]: s for s in board["spaces"]}
    assert set(spaces) == {s["name"] for s in base["spaces"]} | {"Break Room"}
    assert any(p["from"] == "Front Gate" and p["to"] == "Break Room" for p in board["paths"])
    dock = [
        e["amount"]
        for t in spaces["Loading Dock"]["triggers"]
        for e in t["effects"]
        if e["op"] == "gain" and e["resource"] == "gold"
    ]
    assert dock == [2]
    assert spaces["Loading Dock"]["pos"] == next(
        s["pos"] for s in base["spaces"] if s["name"] == "Loading Dock"
    )


def test_a_base_may_extend_another(plus: dict) -> None:
    result = compile_pack(FIXTURES / "ext_chain")
    assert result.ok, result.diagnostics
    ir = result.ir
    assert [b["name"] for b in ir["pack"]["extends"]] == ["acqinc-plus", "acqinc"]
    cards = {c["name"]: c for c in ir["cards"]}
    assert cards["Overtime Voucher"]["cost"] == 5
    assert cards["Explore"]["copies"] == 10
    assert cards["Petty Cash"]["copies"] == 4  # the middle pack's change carries through
    assert "Break Room" not in {s["name"] for s in ir["boards"][0]["spaces"]}
    assert ir["rules"]["hand_size"] == 6 and ir["rules"]["market_price"] == 6


# -- diagnostics --------------------------------------------------------------------------------


def test_unknown_base_exits_1_naming_the_line(at_root: Path) -> None:
    code, out = _run("check", "tests/fixtures/ext_unknown")
    assert code == 1, out
    assert "error[CW120]" in out
    assert "tests/fixtures/ext_unknown/pack.clank:4:11" in out
    # The hint lists the bundled packs.
    assert "bundled packs: " in out and "acqinc" in out and "tutorial" in out


def test_a_quoted_bundled_name_is_a_path_with_a_hint(tmp_path: Path) -> None:
    _write(tmp_path / "p", {"pack.clank": _manifest("p", '"acqinc"')})
    result = compile_pack(tmp_path / "p")
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.code == "CW120"
    assert "without quotes" in (d.hint or "")


def test_a_near_miss_bundled_name_gets_a_did_you_mean(tmp_path: Path) -> None:
    _write(tmp_path / "p", {"pack.clank": _manifest("p", "acqinq")})
    [d] = [d for d in compile_pack(tmp_path / "p").diagnostics if d.severity == "error"]
    assert d.code == "CW120" and 'did you mean "acqinc"' in (d.hint or "")


def test_cycle_names_both_files(at_root: Path) -> None:
    code, out = _run("check", "tests/fixtures/ext_cycle_a")
    assert code == 1, out
    assert "error[CW121]" in out
    assert "ext_cycle_a extends ext_cycle_b extends ext_cycle_a" in out
    assert "tests/fixtures/ext_cycle_b/pack.clank:4:11" in out
    assert "tests/fixtures/ext_cycle_a/pack.clank:4:11" in out


def test_a_pack_cannot_extend_itself(tmp_path: Path) -> None:
    _write(tmp_path / "p", {"pack.clank": _manifest("p", '"../p"')})
    [d] = [d for d in compile_pack(tmp_path / "p").diagnostics if d.severity == "error"]
    assert d.code == "CW121" and "cannot extend itself" in d.message


def test_edits_of_what_the_base_lacks(at_root: Path) -> None:
    result = compile_pack("tests/fixtures/ext_lacks")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert sorted(d.code for d in errors) == ["CW122", "CW122", "CW122", "CW123"]
    replace, remove, change, dup = sorted(errors, key=lambda d: d.span.line)
    assert replace.span.file == "tests/fixtures/ext_lacks/pack.clank"
    assert (replace.span.line, replace.span.col) == (8, 14)
    assert 'did you mean "Pocket Sand"' in (replace.hint or "")
    assert "no monster named 'Dragon'" in remove.message
    assert "change monster Dryad" in (change.hint or "")
    # A duplicate add says to use replace, and points at the base's declaration.
    assert "replace card Burgle" in (dup.hint or "")
    assert dup.notes[0][1].file.endswith("content/acqinc/starting.clank")
    code, out = _run("check", "tests/fixtures/ext_lacks")
    assert code == 1 and "tests/fixtures/ext_lacks/pack.clank:8:14" in out


def test_board_edits_of_what_the_base_lacks(tmp_path: Path) -> None:
    body = (
        'change space "Loading Dok" { reward gold 2 }\n'
        'remove path "Franchise HQ" -- "Old Mine"\n'
        'change space "Front Gate" in nowhere { reward gold 2 }\n'
        'board overworld { space "Front Gate" { at 1 1 } }\n'
        'board overworld { path "Franchise HQ" -- "Front Gate" }\n'
    )
    _write(tmp_path / "p", {"pack.clank": _manifest("p", "acqinc", body)})
    errors = [d for d in compile_pack(tmp_path / "p").diagnostics if d.severity == "error"]
    by_line = {d.span.line: d for d in errors}
    assert by_line[5].code == "CW122" and 'did you mean "Loading Dock"' in (by_line[5].hint or "")
    assert by_line[6].code == "CW122" and "paths there" in (by_line[6].hint or "")
    assert by_line[7].code == "CW122" and "no board named 'nowhere'" in by_line[7].message
    assert by_line[8].code == "CW123" and "change space" in (by_line[8].hint or "")
    assert by_line[9].code == "CW123" and "change path" in (by_line[9].hint or "")


def test_base_diagnostics_keep_their_base_file(tmp_path: Path) -> None:
    _write(
        tmp_path / "base", {"pack.clank": 'pack base { version "1" }\ncard X { cost 1; copis 2 }\n'}
    )
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"')})
    result = compile_pack(tmp_path / "ext", display_root="ext")
    assert result.ir is None
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.code == "CW102" and d.span.file == "base/pack.clank" and d.span.line == 2
    assert "base/pack.clank" in result.sources  # so the human format can show the line


def test_a_base_reference_broken_by_a_removal_points_at_the_base(tmp_path: Path) -> None:
    _write(
        tmp_path / "base",
        {
            "pack.clank": 'pack base { version "1" }\n'
            "card A { cost 1; play: trash a B }\ncard B { cost 1 }\n"
        },
    )
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', "remove card B\n")})
    result = compile_pack(tmp_path / "ext", display_root="ext")
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.code == "CW107" and d.span.file == "base/pack.clank"


def test_edits_need_a_base() -> None:
    result = compile_text(
        'pack p { version "1" }\nremove card Burgle\nchange card X { copies 2 }\n'
    )
    assert _codes(result.diagnostics) == ["CW124", "CW124"]
    result = compile_text(_manifest("p", "acqinc"))
    assert _codes(result.diagnostics) == ["CW124"]


def test_malformed_edits_are_diagnostics(tmp_path: Path) -> None:
    body = (
        "replace spell Fireball { cost 1 }\n"
        "remove card Burgle { copies 1 }\n"
        "change card Burgle\n"
        "remove path Burgle\n"
    )
    _write(tmp_path / "p", {"pack.clank": _manifest("p", "acqinc", body)})
    errors = [d for d in compile_pack(tmp_path / "p").diagnostics if d.severity == "error"]
    assert [(d.span.line, d.code) for d in errors] == [
        (5, "CW105"),
        (6, "CW112"),
        (7, "CW105"),
        (8, "CW105"),
    ]


# -- where a base may be -------------------------------------------------------------------------


def test_a_sibling_folder_base_and_every_edit_kind(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "content" / "tutorial", tmp_path / "base")
    body = (
        "replace token Treasure { minor secret 2; gold 3 }\n"
        "change token Canoe { market 1 }\n"
        'replace space "Fisher\'s Rest" { at 40 40; reward gold 3 }\n'
        'change path "Old Bridge" -- Gatehouse { boots 1 }\n'
        'change path "Old Bridge" -> Lookout { monsters 1 }\n'
    )
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', body)})
    result = compile_pack(tmp_path / "ext")
    assert result.ok, result.diagnostics
    ir = result.ir
    toks = {t["name"]: t for t in ir["tokens"]}
    assert (toks["Treasure"]["gold"], toks["Treasure"]["count"]) == (3, 2)
    # Only the count changes; the points and what it grants are the base's.
    assert (toks["Canoe"]["count"], toks["Canoe"]["points"]) == (1, 5)
    assert toks["Canoe"]["grants"] == ["canoe"]
    [board] = ir["boards"]
    rest = next(s for s in board["spaces"] if s["name"] == "Fisher's Rest")
    assert rest["pos"] == [40, 40]
    assert [e["amount"] for t in rest["triggers"] for e in t["effects"]] == [3]
    paths = {(p["from"], p["to"]): p for p in board["paths"]}
    # A two-way path is found from either end.
    assert paths[("Gatehouse", "Old Bridge")]["boots"] == 1
    assert paths[("Old Bridge", "Lookout")]["monsters"] == 1
    assert ir["pack"]["extends"][0]["ref"] == "../base"


def test_a_base_outside_the_folder_that_holds_the_pack_is_not_read(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside", {"pack.clank": 'pack secret { version "1" }\n'})
    repo = tmp_path / "repo"
    repo.mkdir()
    for ref in ('"../../outside"', f'"{outside}"', '".."'):
        _write(repo / "ext", {"pack.clank": _manifest("ext", ref)})
        result = compile_pack(repo / "ext")
        [d] = [d for d in result.diagnostics if d.severity == "error"]
        assert d.code == "CW005", (ref, d)
        assert "secret" not in json.dumps([x.to_json() for x in result.diagnostics])
        assert all(name.startswith(f"{repo}/ext/") for name in result.sources), ref


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_link_to_a_base_outside_is_refused(tmp_path: Path) -> None:
    _write(tmp_path / "outside", {"pack.clank": 'pack secret { version "1" }\n'})
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "base").symlink_to(tmp_path / "outside", target_is_directory=True)
    _write(repo / "ext", {"pack.clank": _manifest("ext", '"../base"')})
    result = compile_pack(repo / "ext")
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.code == "CW005" and "link" in d.message
    assert result.sources.keys() == {f"{repo / 'ext'}/pack.clank"}


def test_the_pack_limits_cover_the_extension_and_its_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(
        ROOT / "content" / "tutorial", tmp_path / "base", ignore=lambda *_: ["scenarios"]
    )
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"')})
    base_bytes = sum(f.stat().st_size for f in (tmp_path / "base").glob("*.clank"))
    ext_bytes = (tmp_path / "ext" / "pack.clank").stat().st_size
    monkeypatch.setattr(limits, "MAX_PACK_BYTES", base_bytes + ext_bytes - 1)
    assert compile_pack(tmp_path / "base").ok  # alone, the base fits
    result = compile_pack(tmp_path / "ext")
    assert "CW006" in _codes(result.diagnostics)


def test_a_chain_of_bases_is_bounded(tmp_path: Path) -> None:
    depth = limits.MAX_INCLUDE_DEPTH + 2
    _write(tmp_path / "p0", {"pack.clank": 'pack p0 { version "1" }\n'})
    for i in range(1, depth):
        _write(tmp_path / f"p{i}", {"pack.clank": _manifest(f"p{i}", f'"../p{i - 1}"')})
    result = compile_pack(tmp_path / f"p{depth - 1}")
    assert _codes(result.diagnostics) == ["CW007"]


# -- the tools accept an extension -------------------------------------------------------------


def test_extension_scenarios_use_the_base_cards(at_root: Path) -> None:
    code, out = _run("test", "tests/fixtures/ext_acqinc")
    assert code == 0, out
    assert "3 scenarios: 3 passed, 0 failed" in out


def test_simulate_build_and_render_an_extension(at_root: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    code, out = _run(
        "simulate",
        "tests/fixtures/ext_acqinc",
        "--games",
        "3",
        "--players",
        "2",
        "--json",
        str(report),
    )
    assert code == 0, out
    assert json.loads(report.read_text())["games"] == 3
    code, out = _run("build", "tests/fixtures/ext_acqinc", "-o", str(tmp_path / "ir.json"))
    assert code == 0, out
    ir = json.loads((tmp_path / "ir.json").read_text())
    assert "Overtime Voucher" in {c["name"] for c in ir["cards"]}
    code, out = _run("render", "board", "tests/fixtures/ext_acqinc", "-o", str(tmp_path / "b.svg"))
    assert code == 0, out
    assert "Break Room" in (tmp_path / "b.svg").read_text()
    code, out = _run("check", "tests/fixtures/ext_acqinc", "tests/fixtures/ext_chain")
    assert code == 0, out


def test_the_documented_example_is_the_fixture() -> None:
    """docs/language.md's worked example is tests/fixtures/ext_acqinc, line for line."""
    from clankwork.tools.docs import EXTENDS_DOC

    fixture = "\n".join(
        " ".join(line.split())
        for f in sorted((FIXTURES / "ext_acqinc").glob("*.clank"))
        for line in f.read_text().splitlines()
    )
    example = EXTENDS_DOC.split("### The base")[0]
    blocks = example.split("```")[1::2]
    shown = [" ".join(line.split()) for b in blocks for line in b.splitlines()]
    code = [line for line in shown if line and not line.startswith("#")]
    assert len(code) > 10
    for line in code:
        assert line in fixture, line


def test_the_pack_block_may_follow_the_rules_block(tmp_path: Path) -> None:
    text = "rules { market price 3 }\n" + _manifest("p", "acqinc")
    _write(tmp_path / "p", {"pack.clank": text})
    result = compile_pack(tmp_path / "p")
    assert result.ok, result.diagnostics
    assert result.ir["rules"]["market_price"] == 3
    assert result.ir["rules"]["hand_size"] == 5  # acqinc's, not only the default


def test_extends_outside_the_manifest_is_a_diagnostic(tmp_path: Path) -> None:
    files = {"pack.clank": 'include "more.clank"\n', "more.clank": _manifest("p", "acqinc")}
    _write(tmp_path / "p", files)
    result = compile_pack(tmp_path / "p")
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.code == "CW124" and d.span.file.endswith("more.clank")


def test_an_unknown_base_still_reports_the_extensions_own_mistakes(tmp_path: Path) -> None:
    _write(tmp_path / "p", {"pack.clank": _manifest("p", "nosuchpack", "card X { cots 2 }\n")})
    result = compile_pack(tmp_path / "p")
    assert sorted(_codes(result.diagnostics)) == ["CW102", "CW120"]


def test_the_language_server_places_an_extensions_diagnostics() -> None:
    from clankwork.tools.lsp import analyse

    pack = FIXTURES / "ext_lacks"
    out = analyse(pack / "pack.clank", {})
    mine = out.diagnostics[str((pack / "pack.clank").resolve())]
    assert sorted(d.code for d in mine if d.severity == "error") == [
        "CW122",
        "CW122",
        "CW122",
        "CW123",
    ]


def test_an_extension_adds_steps_triggers_and_counters(tmp_path: Path) -> None:
    from clankwork.interpreter.catalog import prepare

    ext = _write(
        tmp_path / "ext",
        {
            "pack.clank": _manifest(
                "steps",
                "acqinc",
                "rules {\n"
                "  counter bonus max 3\n"
                "  step end_of_turn.tip after end_of_turn.draw_hand: counter bonus +1\n"
                "  when you escape: +1 gold\n"
                "}\n",
            )
        },
    )
    result = compile_pack(ext)
    assert result.ok, [d.message for d in result.diagnostics]
    ir = result.ir
    # The base's own trigger (the mug) stays; the extension's comes after it (the base's
    # rule slots bound to a moment are empty triggers among them).
    assert [t["on"] for t in ir["triggers"] if "slot" not in t] == ["escape", "escape"]
    assert [c["name"] for c in ir["counters"]] == ["bonus"]
    names = [p.name for p in prepare(ir).steps["end_of_turn"]]
    assert names.index("end_of_turn.tip") == names.index("end_of_turn.draw_hand") + 1


# -- a base's resources and ways ---------------------------------------------------------------


def test_an_extension_names_its_bases_resources_ways_and_resource_words(tmp_path: Path) -> None:
    """A base declaring a resource, a way paid in it and another word for gold: the extension
    may use all three words, and the whole pack is valid IR (a base's ways once kept their
    source marks, which the schema refuses)."""
    from clankwork.tools.check import compile_and_check

    _write(
        tmp_path / "base",
        {
            "pack.clank": 'pack base { version "1" }\n'
            "resource favour { kept; word favours }\n"
            "resource gold { word coins coin }\n"
            "way ladder { paid in favours }\n"
            "card Acolyte { cost 2; play: +1 favour, +1 skill }\n"
        },
    )
    body = "way rope { paid in favour }\ncard Patron { cost 3; play: +2 favours, +1 coins }\n"
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', body)})
    result = compile_and_check(tmp_path / "ext")
    assert _codes(result.diagnostics) == [], result.diagnostics
    ir = result.ir
    assert {w["name"]: w["paid_in"] for w in ir["ways"]} == {"ladder": "favour", "rope": "favour"}
    assert all("paid_at" not in w for w in ir["ways"])
    assert ir["resource_aliases"] == {"coins": "gold", "coin": "gold"}
    [patron] = [c for c in ir["cards"] if c["name"] == "Patron"]
    gains = {e["resource"]: e["amount"] for e in patron["triggers"][0]["effects"]}
    assert gains == {"favour": 2, "gold": 1}
    validate_ir(ir)


def test_every_bundled_pack_extends_cleanly(tmp_path: Path) -> None:
    """`clankwork new X --extends P` checks clean for each bundled pack (an extension of
    space once failed its schema on the base's ways)."""
    for base in ("tutorial", "acqinc", "clank", "vault", "space"):
        code, out = _run("new", f"on-{base}", "--extends", base, "--dir", str(tmp_path))
        assert code == 0, out
        code, out = _run("check", str(tmp_path / f"on-{base}"))
        assert code == 0 and "error" not in out, out


def test_an_extensions_path_names_a_base_way_bare_with_did_you_mean(tmp_path: Path) -> None:
    base = 'pack base { version "1" }\nresource favour { kept }\nway ladder { paid in favour }\n'
    base += "card Acolyte { cost 2; play: +1 favour }\n"
    base += "board b {\n  space A { at 0 0 }\n  space B { at 9 9 }\n  path A -- B\n}\n"
    _write(tmp_path / "base", {"pack.clank": base})
    body = "board b {\n  space C { at 5 5 }\n  path B -- C { ladder }\n  path A -- C { ladr }\n}\n"
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', body)})
    [err] = [d for d in compile_pack(tmp_path / "ext").diagnostics if d.severity == "error"]
    assert err.code == "CW102" and "`ladr`" in err.message and err.hint == 'did you mean "ladder"?'


def test_a_bases_way_paid_in_no_resource_is_reported_in_the_base(tmp_path: Path) -> None:
    base = 'pack base { version "1" }\nresource favour { kept }\nway ladder { paid in favr }\n'
    base += "card Acolyte { cost 2; play: +1 favour }\n"
    _write(tmp_path / "base", {"pack.clank": base})
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"')})
    from clankwork.tools.check import compile_and_check

    errors = [d for d in compile_and_check(tmp_path / "ext").diagnostics if d.severity == "error"]
    assert [(d.code, d.span.file.endswith("base/pack.clank"), d.span.line) for d in errors] == [
        ("CW126", True, 3)
    ]
    assert errors[0].hint == 'did you mean "favour"?'


def test_a_resource_word_names_one_resource(tmp_path: Path) -> None:
    text = 'pack p { version "1" }\nresource gold { word coins }\n'
    text += "resource boon { kept; word coins }\ncard X { cost 1; play: +1 boon }\n"
    [err] = [d for d in compile_text(text).diagnostics if d.severity == "error"]
    assert err.code == "CW125" and err.message == "`coins` already names the resource gold"
    base = 'pack base { version "1" }\nresource favour { kept }\n'
    base += "card Acolyte { cost 2; play: +1 favour }\n"
    _write(tmp_path / "base", {"pack.clank": base})
    body = "resource favour { kept }\n"
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', body)})
    [err] = [d for d in compile_pack(tmp_path / "ext").diagnostics if d.severity == "error"]
    assert err.code == "CW125" and "already names a resource of the base pack" in err.message


def test_redeclaring_a_bases_way_says_to_use_it(tmp_path: Path) -> None:
    base = 'pack base { version "1" }\nway ladder { paid in boots }\n'
    _write(tmp_path / "base", {"pack.clank": base})
    body = "way ladder { paid in boots }\n"
    _write(tmp_path / "ext", {"pack.clank": _manifest("ext", '"../base"', body)})
    [err] = [d for d in compile_pack(tmp_path / "ext").diagnostics if d.severity == "error"]
    assert err.code == "CW123" and err.hint == (
        "an extension uses its base's ways as they are: remove this declaration, or give the "
        "new way another name"
    )
