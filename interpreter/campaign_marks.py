"""Contracts, and a campaign game's marks: checkmarks, tracks, passages, personal goals;
the post-game steps that make them."""

from __future__ import annotations

from .asking import choose
from .context import Ctx
from .decisions import MAY
from .effects import EFFECTS
from .events import holds, run
from .state import GameCore, PlayerState


def resolve_contracts(game: GameCore, player: PlayerState) -> None:
    """The end of ``player``'s turn: they may complete each open contract they can (its
    condition holds, its price can be paid); completing runs its effects."""
    done = {name for name, _ in game.completed_contracts}
    ctx = Ctx(player, None)
    for c in game.catalog.contracts:
        if c["name"] in done or game.over:
            continue
        if "effects" not in c or ("if" in c and not holds(game, ctx, c["if"])):
            continue
        if not all(
            EFFECTS[e["op"]].can_pay is None or EFFECTS[e["op"]].can_pay(game, ctx, e)
            for e in c["effects"]
        ):
            continue
        node = {"op": "may", "do": c["effects"]}  # what a bot weighs, like a "may"
        if choose(game, player, MAY, ["yes", "no"], source=c["name"], detail=node) != 0:
            continue
        game.completed_contracts.append([c["name"], player.seat])
        game.log.append({"type": "contract", "name": c["name"], "seat": player.seat})
        run(game, ctx, c["effects"])


def contract_instructions(game: GameCore, moment: str) -> None:
    """Each open contract's instructions for the ``moment`` ("start" of the game, or its
    "end", after scoring), in the order of the Contracts row, for the active player; a
    contract completed this game has left the row."""
    ctx = Ctx(game.active, None)
    done = {name for name, _ in game.completed_contracts}
    for c in game.catalog.contracts:
        effects = c.get(moment)
        if effects and c["name"] not in done:  # a completed contract left the row
            run(game, ctx, effects)


def post_game(game: GameCore) -> None:
    """A campaign game's post-game steps (the `post_game` phase), after scoring; `each
    player` is every player, as at the end of the game."""
    assert game.result is not None, "the game is not over"
    # The game is scored; its effects run once more, for the campaign's marks.
    game.over = False
    try:
        for planned in game.catalog.steps["post_game"]:
            if planned.step is None:
                run(game, Ctx(game.active, None), planned.effects or [])
            else:
                planned.step.handler(game, game.active)
    finally:
        game.over = True


def add_checkmark(game: GameCore, player: PlayerState, why: str) -> None:
    """A Checkmark of Grudging Approval for the player (the campaign marks it on their
    Associate Status track after the game)."""
    player.checkmarks.append(why)


def mark_track(game: GameCore, track: str) -> None:
    """An X on the campaign track ``track`` (the campaign marks it after the game)."""
    game.campaign_marks[track] = game.campaign_marks.get(track, 0) + 1


def queue_read(game: GameCore, passage: int, seat: int | None = None) -> None:
    """A Book of Secrets passage to read after the game (the campaign reads it); ``seat``:
    the player whose action read it, who makes its choices (a campaign's game keeps it:
    tools/campaign.py)."""
    game.reads.append(passage)


def mark_goal(game: GameCore, player: PlayerState, name: str) -> None:
    """The player fills a box of their personal goal ``name`` (another player's goal,
    or a row already full, is not theirs to mark)."""
    goal = game.catalog.goals.get(name)
    if goal is None or goal["player"] != player.seat + 1:
        return
    before = game.goals_before[player.seat].get(name, 0) if game.goals_before else 0
    if before + player.goals.get(name, 0) < goal["boxes"]:
        player.goals[name] = player.goals.get(name, 0) + 1


def review(game: GameCore) -> None:
    """Employee reviews: a checkmark for scoring more than 0, one for winning, one for
    each row of personal goals completed this game."""
    assert game.result is not None
    for p in game.players:
        if game.result.scores[p.seat] > 0:
            add_checkmark(game, p, "scored more than 0")
        if p.seat in game.result.winners:
            add_checkmark(game, p, "won the game")
        before = game.goals_before[p.seat] if game.goals_before else {}
        for name, n in p.goals.items():
            size = game.catalog.goals[name]["boxes"]
            if before.get(name, 0) < size <= before.get(name, 0) + n:
                add_checkmark(game, p, f"completed the row of {name}")


def check_death(game: GameCore) -> None:
    """Player death: if any player scored 0, one X on the track the pack's campaign names
    for a death (`death marks TRACK`; never more than one), then its passage (`reads P`)."""
    assert game.result is not None
    death = game.catalog.campaign.get("death")
    if death is not None and any(s == 0 for s in game.result.scores):
        if "marks" in death:
            mark_track(game, death["marks"])
        if "reads" in death:
            queue_read(game, death["reads"])
