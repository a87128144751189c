"""Modules as a language construct: `module`, `side`, `connects`, a board's `position` and
`join`, the diagnostics CW135-CW137 the compiler reports, and the assembly lint of `check`
(CW138, CW139: every assembly the pack allows, the breaking one named)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clankwork.dsl.boardcheck import check_boards
from clankwork.dsl.compiler import compile_pack, compile_text
from clankwork.interpreter.assembly import assemblies, label

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "modules"

# Two pieces for two free positions, between a fixed dock (with HQ) and a fixed vault.
SHIP = """
module Dock { connects a b; space Pier { hq }; space "Pier A" { connects a }
  space "Pier B" { connects b }; path Pier -- "Pier A"; path Pier -- "Pier B" }
module Vault { connects a b; space "Vault A" { connects a }; space "Vault B" { connects b }
  path "Vault A" -- "Vault B" }
module Red { connects in out
  side Ruby { space "Ruby In" { connects in }; space "Ruby Out" { connects out }
    path "Ruby In" -- "Ruby Out" }
  side Rose { space "Rose In" { connects in }; space "Rose Out" { connects out }
    path "Rose In" -- "Rose Out" } }
module Blue { connects in out
  space "Blue In" { connects in }; space "Blue Out" { connects out }
  path "Blue In" -- "Blue Out" }
board Ship {
  position dock: Dock
  position vault: Vault
  position 1: one of Red, Blue, either side
  position 2: one of Red, Blue
  join dock a -- 1 in
  join 1 out -- vault a
  join dock b -- 2 in
  join 2 out -- vault b
}
"""


def codes(text: str) -> list[str]:
    return [d.code for d in compile_text(text).diagnostics]


def test_the_fixture_pack_compiles_with_its_positions_joins_and_modules() -> None:
    result = compile_pack(FIXTURE)
    assert result.ok, result.diagnostics
    (board,) = result.ir["boards"]
    assert [p["name"] for p in board["positions"]] == ["dock", "hall", "vault", "left", "right"]
    # Four two-sided pieces at each free position: 8 choices each.
    assert [len(p["choices"]) for p in board["positions"]] == [1, 1, 1, 8, 8]
    assert len(board["joins"]) == 6
    assert {m["name"] for m in board["modules"]} >= {"Garden", "Forge", "Library", "Barracks"}
    garden = next(m for m in board["modules"] if m["name"] == "Garden")
    assert garden["points"] == ["aft", "fore"]
    assert garden["sides"][0]["points"] == {"aft": "Orchard Gate", "fore": "Orchard Crest"}
    # Every side's spaces are on the board, tagged with their module and side.
    crest = next(s for s in board["spaces"] if s["name"] == "Orchard Crest")
    assert (crest["module"], crest["side"], crest["artifact"]) == ("Garden", "Orchard", 5)


def test_every_assembly_is_counted_no_module_twice() -> None:
    board = compile_pack(FIXTURE).ir["boards"][0]
    every = list(assemblies(board))
    # 8 choices at the first free position, then 6 (the other three pieces) at the second.
    assert len(every) == 8 * 6
    for a in every:
        modules = [m for _p, m, _s in a]
        assert len(set(modules)) == len(modules)
    assert label(board, every[0]) == "left=Orchard, right=Smithy"


def test_a_small_ship_compiles_clean_and_lints_clean() -> None:
    result = compile_text(SHIP)
    assert result.ok, result.diagnostics
    # Ruby, Rose or Blue at 1, then what is left at 2 (Blue, Blue, Ruby or Rose): 4.
    assert len(list(assemblies(result.ir["boards"][0]))) == 4
    # No cards (CW205), but no board finding in any of the four assemblies.
    assert {d.code for d in check_boards(result.ir)} == {"CW205"}


def test_cw135_a_module_used_twice() -> None:
    twice_fixed = SHIP.replace("position vault: Vault", "position vault: Dock")
    assert "CW135" in codes(twice_fixed)
    fixed_and_free = SHIP.replace("one of Red, Blue, either side", "one of Red, Blue, Dock")
    assert "CW135" in codes(fixed_and_free)
    listed_twice = SHIP.replace("one of Red, Blue, either side", "one of Red, Red")
    assert "CW135" in codes(listed_twice)
    too_few = SHIP.replace("one of Red, Blue\n", "Red\n").replace(
        "one of Red, Blue, either side", "Red side Ruby"
    )
    diags = compile_text(too_few).diagnostics
    assert "CW135" in [d.code for d in diags]


def test_cw135_names_the_first_use_in_a_note() -> None:
    d = next(
        d
        for d in compile_text(
            SHIP.replace("position vault: Vault", "position vault: Dock")
        ).diagnostics
        if d.code == "CW135"
    )
    assert "Dock" in d.message and d.span is not None and d.notes


def test_cw136_a_connection_point_with_no_match() -> None:
    # A space at a point its module does not list.
    assert "CW136" in codes(
        SHIP.replace('space "Blue Out" { connects out }', 'space "Blue Out" { connects up }')
    )
    # A side with no space at a listed point.
    assert "CW136" in codes(SHIP.replace('space "Rose Out" { connects out }', 'space "Rose Out"'))
    # A join at a point a module that may sit there lacks.
    assert "CW136" in codes(SHIP.replace("join 1 out -- vault a", "join 1 up -- vault a"))
    # A module's point that no join at its position uses (it would lead nowhere).
    dangling = compile_text(SHIP.replace("join 2 out -- vault b\n", "")).diagnostics
    hits = [d for d in dangling if d.code == "CW136"]
    assert all("no join uses it" in d.message for d in hits)
    assert {m for d in hits for m in ("position 2", "position vault") if m in d.message} == {
        "position 2",
        "position vault",
    }


def test_cw137_a_position_naming_no_module() -> None:
    diags = compile_text(SHIP.replace("one of Red, Blue\n", "one of Red, Bleu\n")).diagnostics
    hit = next(d for d in diags if d.code == "CW137")
    assert "'Bleu'" in hit.message and hit.hint and '"Blue"' in hit.hint
    assert hit.span is not None and hit.span.line > 1
    assert "CW137" in codes(SHIP.replace("one of Red, Blue, either side", "Red side Ruhy"))
    assert "CW137" in codes(SHIP.replace("join 2 out -- vault b", "join 3 out -- vault b"))


@pytest.mark.parametrize(
    "bad",
    [
        "position: Dock",
        "position 4",
        "join dock a 1 in",
        'position 5: one of "Red" side',
    ],
)
def test_malformed_position_and_join_lines_are_diagnostics(bad: str) -> None:
    result = compile_text(
        SHIP.replace("  join dock a -- 1 in\n", f"  join dock a -- 1 in\n  {bad}\n")
    )
    assert not result.ok
    assert all(d.span is not None for d in result.diagnostics)


def _broken_copy(tmp_path: Path) -> Path:
    """The fixture with Drill's path turned one way (tower to yard) and the right-hand fore
    join one way out: Drill Tower is unreachable when Drill sits at the right only."""
    pack = tmp_path / "broken"
    shutil.copytree(FIXTURE, pack)
    mods = pack / "modules.clank"
    text = mods.read_text()
    old = 'path "Drill Yard" -- "Drill Tower" { boots 2 }'
    assert old in text
    mods.write_text(text.replace(old, 'path "Drill Tower" -> "Drill Yard" { boots 2 }'))
    board = pack / "board.clank"
    board.write_text(
        board.read_text().replace(
            "join right fore -- vault starboard", "join right fore -> vault starboard"
        )
    )
    return pack


def test_check_lints_every_assembly_of_the_fixture() -> None:
    result = compile_pack(FIXTURE)
    assert check_boards(result.ir) == []


def test_a_module_broken_in_one_placement_is_named_with_the_assembly(tmp_path: Path) -> None:
    result = compile_pack(_broken_copy(tmp_path))
    assert result.ok, result.diagnostics
    diags = check_boards(result.ir)
    assert [d.code for d in diags] == ["CW138"]
    (d,) = diags
    assert "'Drill Tower'" in d.message and "module 'Barracks' side 'Drill'" in d.message
    # The first assembly with Drill at the right, and how many others break it (Drill at the
    # right with each of the other three pieces' two sides at the left).
    assert "in assembly left=Orchard, right=Drill" in d.message
    assert "(and 5 other assemblies of 48)" in d.message
    assert d.span is not None and d.span.file.endswith("modules.clank")
    line = (tmp_path / "broken" / "modules.clank").read_text().splitlines()[d.span.line - 1]
    assert '"Drill Tower"' in line and d.span.col == line.index("space") + 1
    assert d.notes and "module 'Barracks'" in d.notes[0][0]


def test_a_one_way_trap_in_some_assembly_is_a_warning(tmp_path: Path) -> None:
    pack = tmp_path / "trap"
    shutil.copytree(FIXTURE, pack)
    board = pack / "board.clank"
    # Into the left piece by its aft point only: the fore room's way out goes one way in.
    board.write_text(
        board.read_text()
        .replace("join left fore -- vault port", "join vault port -> left fore")
        .replace("join dock port -- left aft", "join dock port -> left aft")
    )
    diags = check_boards(compile_pack(pack).ir)
    traps = [d for d in diags if d.code in ("CW139", "CW203")]
    assert traps, diags
    assert all("assembl" in d.message for d in traps)
    assert {d.severity for d in traps if d.code == "CW139"} <= {"warning"}


def test_the_space_pack_checks_clean_in_every_assembly() -> None:
    result = compile_pack(ROOT / "content" / "space")
    assert result.ok, result.diagnostics
    board = result.ir["boards"][0]
    assert len(list(assemblies(board))) == 48
    assert check_boards(result.ir) == []


def test_a_space_room_unreachable_in_one_placement_only_names_that_assembly(
    tmp_path: Path,
) -> None:
    # Hydroponics' Compost Chute is made reachable only through its `outer` point, and the
    # join of position 3's outer point to Command made one way out: the room is cut off when
    # Hydroponics lies at position 3, and only then (positions 1 and 2 join it both ways).
    pack = tmp_path / "space"
    shutil.copytree(ROOT / "content" / "space", pack)
    mods = pack / "modules.clank"
    text = mods.read_text()
    for old, new in (
        (
            'path "Grow Tanks" -- "Compost Chute" { boots 2 }',
            'path "Compost Chute" -> "Grow Tanks"',
        ),
        ('path "Fungus Farm" -> "Compost Chute"', 'path "Compost Chute" -> "Fungus Farm"'),
    ):
        assert old in text
        text = text.replace(old, new)
    mods.write_text(text)
    board = pack / "board.clank"
    old = "join 3 outer -- command port { monsters 1 }"
    assert old in board.read_text()
    board.write_text(board.read_text().replace(old, "join 3 outer -> command port { monsters 1 }"))
    result = compile_pack(pack)
    assert result.ok, result.diagnostics
    diags = [d for d in check_boards(result.ir) if d.code == "CW138"]
    assert len(diags) == 1, diags
    (d,) = diags
    assert "'Compost Chute'" in d.message and "side 'Hydroponics'" in d.message
    assert "3=Hydroponics" in d.message
    # Hydroponics at 3 with each of the other two pieces' sides at 1 and 2: 8 assemblies.
    assert "(and 7 other assemblies of 48)" in d.message


def test_the_language_reference_example_compiles_and_lints_clean() -> None:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    example = section.split("```\n", 2)[1]
    result = compile_text(example, "example.clank")
    assert result.ok, result.diagnostics
    (board,) = result.ir["boards"]
    assert len(list(assemblies(board))) == 3  # Forge, Library or Garden in the middle
    assert {d.code for d in check_boards(result.ir)} == {"CW205"}  # no cards: a fragment
