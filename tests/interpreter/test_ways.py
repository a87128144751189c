"""Actions as records, declared resources, ways and content actions (tests/fixtures/ways)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter import actions
from clankwork.interpreter.actions import ACT, ACTION_KINDS, ActionKind, kinds_legal
from clankwork.interpreter.bot_routes import _groups
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.schema import reference_errors
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
WAYS = ROOT / "tests" / "fixtures" / "ways"


@pytest.fixture(scope="module")
def ways_ir() -> dict[str, Any]:
    result = compile_pack(WAYS)
    assert result.ok, result.diagnostics
    return result.ir


def _labels(g: Game, p: Any) -> list[str]:
    return [o.label for o in actions.legal_actions(g, p)]


def _game(ir: dict[str, Any]) -> Game:
    return Game(ir, [make_bot("random", 0), make_bot("random", 1)], 1)


def _at(g: Game, p: Any, space: str, **pool: int) -> None:
    g.begin_turn(p)
    p.hand.clear()
    p.pos = g.board.index[space]
    for k, v in pool.items():
        if hasattr(p, k):
            setattr(p, k, v)
        else:
            p.pools[k.replace("_", " ")] = v


def test_the_fixture_pack_compiles_to_valid_ir(ways_ir: dict[str, Any]) -> None:
    assert [r["name"] for r in ways_ir["resources"]] == ["special moves", "favour"]
    assert {w["name"]: w["paid_in"] for w in ways_ir["ways"]} == {
        "rope": "special moves",
        "chute": "boots",
        "gate": "favour",
    }
    assert reference_errors(ways_ir) == []


def test_the_fixture_scenarios_pass() -> None:
    result = CliRunner().invoke(main, ["test", str(WAYS)])
    assert result.exit_code == 0, result.output
    assert "14 scenarios: 14 passed" in result.output


def test_once_per_game_holds_across_turns_and_once_per_turn_resets(
    ways_ir: dict[str, Any],
) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    _at(g, p, "Shrine", boots=2, favour=3)
    assert "pray at Shrine" in _labels(g, p) and "act at Shrine" in _labels(g, p)
    g.act(p, "pray at Shrine")
    g.act(p, "act at Shrine")
    assert "act at Shrine" not in _labels(g, p)
    g.end_turn(p)
    g.turn += 1
    _at(g, p, "Shrine", boots=2)
    labels = _labels(g, p)
    assert "pray at Shrine" not in labels  # once per game
    assert "act at Shrine" in labels  # once per turn: a new turn
    # The uses are plain data the state snapshot can walk; favour is kept (3, 1 spent).
    assert json.loads(json.dumps(p.used)) == p.used and len(p.used) == 2
    assert p.pools["favour"] == 2
    # Each player has their own uses.
    q = g.players[1]
    _at(g, q, "Shrine", boots=2)
    assert "pray at Shrine" in _labels(g, q)


def test_per_turn_resources_empty_at_the_end_of_the_turn(ways_ir: dict[str, Any]) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    _at(g, p, "Ledge")
    g.gain(p, "special moves", 2)
    g.gain(p, "favour", 2)
    assert g.can_spend(p, "special moves", 2) and not g.can_spend(p, "special moves", 3)
    g.end_turn(p)
    assert p.pools == {"special moves": 0, "favour": 2}
    with pytest.raises(ValueError, match="unknown resource"):
        g.gain(p, "mana", 1)


def test_a_rope_is_paid_in_special_moves_and_open_while_exhausted(
    ways_ir: dict[str, Any],
) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    _at(g, p, "Ledge", boots=3, exhausted=True)
    assert "move to Summit by rope" not in _labels(g, p)
    p.pools["special moves"] = 1
    # A move of a declared way names it: a tunnel and a rope may join the same two spaces.
    assert "move to Summit by rope" in _labels(g, p)
    g.act(p, "move to Summit by rope")
    assert p.pools["special moves"] == 0 and p.boots == 3
    assert g.board.spaces[p.pos].name == "Summit"


def test_ways_decide_teleports_and_boot_distances(ways_ir: dict[str, Any]) -> None:
    board = prepare(ways_ir).board
    i = board.index
    # No teleport crosses the chute; a rope can be teleported across.
    assert [m.way.name for m in board.moves[i["Shrine"]] if m.to == i["Slide Foot"]] == ["chute"]
    assert i["Slide Foot"] not in board.adjacent[i["Shrine"]]
    assert i["Summit"] in board.adjacent[i["Ledge"]]
    # Boots never climb a rope: the boot distance from Ledge to Summit goes round.
    assert board.dist[i["Ledge"]][i["Summit"]] > 1
    assert not board.plain


def test_a_chute_exhausts_and_a_gate_needs_its_grant(ways_ir: dict[str, Any]) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    _at(g, p, "Shrine", boots=2)
    g.act(p, "move to Slide Foot by chute")
    assert p.exhausted
    _at(g, p, "Summit", favour=1)
    assert "move to Sanctum by gate" not in _labels(g, p)
    p.tokens.append(next(t for t in g.catalog.tokens if t.name == "Gate Pass"))
    assert "move to Sanctum by gate" in _labels(g, p)


def test_a_token_action_is_offered_while_the_token_is_held(ways_ir: dict[str, Any]) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    hook = next(t for t in g.catalog.tokens if t.name == "Grappling Hook")
    _at(g, p, "Gatehouse")
    assert "climb with Grappling Hook" not in _labels(g, p)
    p.tokens.append(hook)
    assert "climb with Grappling Hook" in _labels(g, p)
    g.act(p, "climb with Grappling Hook")
    assert p.pools["special moves"] == 2
    assert "climb with Grappling Hook" not in _labels(g, p)


@pytest.mark.parametrize("pack", ["ways", "acqinc", "tutorial"])
def test_the_fast_listing_equals_asking_every_record(pack: str) -> None:
    """`legal_actions` repeats each record's guard for speed: it must list exactly what
    asking every record in `ACTION_KINDS` order lists, in every position of real games."""
    path = WAYS if pack == "ways" else ROOT / "content" / pack
    cat = prepare(compile_pack(path).ir)
    seen = 0

    class Checking:
        name = "checking"

        def __init__(self, seed: int) -> None:
            self.bot = make_bot("random", seed)

        def choose(self, view: Game, decision: Any) -> int:
            nonlocal seen
            if decision.kind == "action":
                p = view.players[decision.player]
                assert decision.options == kinds_legal(view, p)
                # The engine's grouping is the options' runs of each kind.
                assert decision.detail == _groups(decision.options)
                seen += 1
            return self.bot.choose(view, decision)

    for seed in range(3):
        Game(cat, [Checking(seed * 4 + k) for k in range(3)], seed).play()
    assert seen > 100


def test_bots_take_content_actions_and_finish_games(ways_ir: dict[str, Any]) -> None:
    cat = prepare(ways_ir)
    taken = 0
    for bots in ("heuristic", "greedy"):
        for seed in range(4):
            g = Game(cat, [make_bot(bots, seed * 2 + k) for k in range(2)], seed)
            result = g.play()
            assert not g.capped, result
            taken += sum(
                1
                for r in g.decision_log()
                if r["label"].startswith(("pray at", "act at", "climb with"))
            )
    assert taken > 0


def test_every_kind_is_a_whole_record() -> None:
    for kind in ACTION_KINDS:
        assert isinstance(kind, ActionKind) and kind.name and kind.verb and kind.doc
        for method in ("legal", "apply", "label"):
            assert getattr(type(kind), method) is not getattr(ActionKind, method), (kind, method)
    assert len({k.name for k in ACTION_KINDS}) == len(ACTION_KINDS)


class _Flat:
    """A Valuer where every unit is worth 1 and every effect node 1."""

    def unit(self, key: str) -> float:
        return 1.0

    def effects(self, nodes: list[dict[str, Any]]) -> float:
        return float(len(nodes))

    def chance(self, cond: dict[str, Any]) -> float:
        return 0.5

    def opponents(self, nodes: list[dict[str, Any]]) -> float:
        return -float(len(nodes))


def test_a_content_action_is_appraised_from_its_effects(ways_ir: dict[str, Any]) -> None:
    g = _game(ways_ir)
    p = g.players[0]
    _at(g, p, "Shrine", boots=2)
    (pray,) = [o for o in actions.legal_actions(g, p) if o.label == "pray at Shrine"]
    assert pray.value[0] is ACT
    assert ACT.appraise(pray.value, _Flat()) == 2.0  # a price node and a gain node


def test_no_action_name_is_matched_outside_the_records() -> None:
    """Action kinds are told apart by their record, never by a string."""
    pattern = re.compile(r"value\[0\] *(==|!=|in) ")
    for folder in ("interpreter", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not pattern.search(text), path


def test_board_svg_shows_space_actions_and_ways(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(main, ["render", "board", str(WAYS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "pray, once per game: pay 2 Boots" in svg
    assert ">rope<" in svg
