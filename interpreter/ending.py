"""The end of a game: everyone off the clock, the end-of-game phase, scoring."""

from __future__ import annotations

from .events import run_phase
from .scoring import final_result
from .state import ON_CLOCK, GameCore


def finish(game: GameCore, reason: str) -> None:
    """End the game (``reason`` says why): the pack's `end_of_game` phase, then scoring;
    the result record ends the log."""
    if not game._ending:
        game._ending = True
        # The pack's `end_of_game` phase (base rules: the `game end` event), then scoring.
        run_phase(game, "end_of_game", game.active)
        if game.over:
            return  # a game-end trigger or step ended it already
    game.over = True
    game.end_reason = reason
    game.result = final_result(game, digest=game._digest)
    if game._keep_log:
        game.log.append(game.result.record())


def check_all_off(game: GameCore) -> None:
    """End the game once nobody is on the clock."""
    if game.over:
        return
    for p in game.players:
        if p.status == ON_CLOCK:
            return
    finish(game, "all off the clock")
