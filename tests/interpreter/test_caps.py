"""Every game ends: the round cap has a hard ceiling, and a turn that never ends is capped."""

from __future__ import annotations

from pathlib import Path

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import MAX_STEPS, Game
from clankwork.interpreter.rules import ROUND_CAP_MAX


def _tutorial_with(tmp_path: Path, tutorial_dir: Path, reserve: str) -> dict:
    for f in tutorial_dir.glob("*.clank"):
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "reserve.clank").write_text(reserve, encoding="utf-8")
    result = compile_pack(tmp_path)
    assert result.ok, result.diagnostics
    return result.ir


def test_a_turn_that_pays_for_itself_caps_the_game(tmp_path: Path, tutorial_dir: Path) -> None:
    # A reserve monster whose defeat gives its swords back can be fought forever in one turn.
    ir = _tutorial_with(
        tmp_path,
        tutorial_dir,
        "reserve Mercenary { copies 15; cost 2; play: +2 swords }\n"
        "reserve Hydra { fight 2; defeat: +2 swords }\n",
    )
    cat = prepare(ir)
    game = Game(cat, [make_bot("greedy", k) for k in range(2)], seed=3)
    result = game.play()
    assert game.over
    assert game.capped and game.end_reason == "turn cap", game.end_reason
    decisions = sum(1 for r in game.log if r["type"] == "decision")
    assert decisions >= MAX_STEPS
    assert result.record()["capped"] is True


def test_round_cap_cannot_be_lifted_past_the_hard_limit(tutorial_ir: dict) -> None:
    cat = prepare(tutorial_ir)

    # A bot that only ever ends its turn: nobody moves, so only a cap ends the game.
    class Idle:
        name = "idle"

        def choose(self, game, decision):  # noqa: ANN001 - the Bot protocol
            for i, o in enumerate(decision.options):
                if o.value == ("end",) or o.label == "end turn":
                    return i
            return 0

    game = Game(cat, [Idle(), Idle()], seed=1, rules={"round_cap": 10**9})
    game.play()
    assert game.capped and game.end_reason == "round cap"
    assert game.round == ROUND_CAP_MAX
