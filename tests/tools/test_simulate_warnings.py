"""`simulate` warns of setups that cannot work, of cards nobody buys, of an adventure deck that
recycles, reserve piles that run out and spaces and paths nobody uses; `--all` shows every card
of the table."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from clankwork.tools.simulate import _unwalked_paths, command, result_warnings


def _run(*args: str):
    return CliRunner().invoke(command, list(args))


def test_fewer_artifact_spaces_than_players_is_a_warning(
    tmp_path: Path, tutorial_dir: Path
) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(tutorial_dir, pack)
    board = pack / "board.clank"
    text = board.read_text(encoding="utf-8")
    for value in ("5", "15"):  # four artifact spaces become two
        text = text.replace(f"artifact {value}; ", "", 1)
    board.write_text(text, encoding="utf-8")
    result = _run(str(pack), "--games", "2", "--players", "4")
    assert result.exit_code == 0, result.output
    assert "warning: the board has 2 artifact spaces for 4 players" in result.stderr
    quiet = _run(str(pack), "--games", "2", "--players", "2")
    assert "artifact spaces" not in quiet.stderr


def test_all_shows_every_card_and_the_cut_says_so() -> None:
    cut = _run("--games", "40", "--players", "4", "--seed", "3")
    assert cut.exit_code == 0, cut.output
    assert "more; --all shows every card" in cut.stdout
    full = _run("--games", "40", "--players", "4", "--seed", "3", "--all")
    assert "more; --all" not in full.stdout
    table = full.stdout.split("cards by edge")[1].split("\n\n")[0]
    assert len([ln for ln in table.splitlines() if "%" in ln]) > 20


def test_cards_never_acquired_are_named(tutorial_dir: Path) -> None:
    result = _run(str(tutorial_dir), "--games", "40", "--players", "4")
    assert result.exit_code == 0
    never = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: never acquired")]
    assert never and "in 40 games:" in never[0]


def test_artifacts_nobody_takes_are_named(tmp_path: Path, tutorial_dir: Path) -> None:
    out = tmp_path / "r.json"
    result = _run(str(tutorial_dir), "--games", "20", "--players", "4", "--json", str(out))
    assert result.exit_code == 0
    rep = json.loads(out.read_text())
    assert "artifacts never taken" not in result.stderr  # the bots take every one
    # As if nobody had taken the first two: named, in the table's order; and not before 20
    # games (fewer prove nothing).
    for a in rep["artifacts"][:2]:
        a["taken"] = 0
    names = ", ".join(a["name"] for a in rep["artifacts"][:2])
    assert f"artifacts never taken in 20 games: {names}" in result_warnings(rep)
    rep["games"] = 19
    assert not any("artifacts never" in w for w in result_warnings(rep))


def test_a_recycling_deck_empty_piles_and_unused_spaces_are_warned_of(
    tutorial_dir: Path,
) -> None:
    result = _run(str(tutorial_dir), "--games", "40", "--players", "4")
    assert result.exit_code == 0
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: ")]
    text = "\n".join(warnings)
    # The tutorial's 24-card adventure deck comes round more than once a game.
    assert "warning: the adventure deck (24 cards, a row of 6) was reshuffled" in text
    assert "times a game [" in text
    assert "warning: reserve piles ran out in most games: " in text and "Explore (" in text
    assert "warning: never entered in 40 games: Lookout" in text
    assert "warning: paths never walked in 40 games: " in text and "Lookout" in text


def test_a_long_deck_and_few_games_are_quiet(tutorial_dir: Path) -> None:
    result = _run(str(tutorial_dir), "--games", "10", "--players", "4")
    assert "never entered" not in result.stderr and "paths never" not in result.stderr
    big = _run("--games", "4", "--players", "4")  # acqinc: a 100-card deck
    assert "reshuffled" not in big.stderr


def test_a_path_key_is_split_where_it_names_two_spaces() -> None:
    spaces = {"A->B", "C", "D"}
    paths = {"A->B->C": 0, "C->A->B": 0, "C->D": 3, "D->C": 0}
    assert _unwalked_paths(paths, spaces) == ["A->B–C"]
