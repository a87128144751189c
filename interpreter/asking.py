"""Decisions put to the players: the bot's answer, checked and logged; and the decisions of
chance (a random outcome's roll)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import Space
from .decisions import ACTION, MAY, Decision, Option
from .rng import below
from .state import GameCore, PlayerState


def decide(
    game,
    player: PlayerState,
    kind: str,
    options: list[Option],
    prompt: str = "",
    source: str | None = None,
    detail: Any = None,
) -> int:
    """Put a decision to the player's bot, log the answer and return its index."""
    n = len(options)
    if n < 2:
        if not n:
            raise RuntimeError(f"a {kind} decision without options")
        if kind not in (ACTION, MAY):
            return 0
    seat = player.seat
    index = game.bots[seat].choose(game, Decision(seat, kind, options, prompt, source, detail))
    if not isinstance(index, int) or not 0 <= index < n:
        raise RuntimeError(f"bot {game.bots[seat]!r} answered {index!r} to {kind}")
    if game._keep_log:
        log_decision(game, seat, kind, index, options[index].label)
    return index


def log_decision(game: GameCore, seat: int, kind: str, index: int, label: str) -> None:
    """The log's record of a decision answered."""
    game.log.append(
        {
            "type": "decision",
            "turn": game.turn,
            "player": seat,
            "kind": kind,
            "index": index,
            "label": label,
        }
    )


def choose(
    game,
    player: PlayerState,
    kind: str,
    labels: Sequence[str],
    source: Any = None,
    detail: Any = None,
) -> int:
    """The effect handlers' decision point: the index of the label the player picks."""
    options = [Option(label, i) for i, label in enumerate(labels)]
    pick = decide(
        game, player, kind, options, source=getattr(source, "name", source), detail=detail
    )
    if game.stats is not None and isinstance(source, Space):
        # What players answer to a space (its entry toll, what it offers): counted even
        # when only one option was open, as the rules then decided for them.
        game.stats.on_choice(game, player, source.index, kind, labels[pick], detail)
    return pick


class UnfitRoll(ValueError):
    """A scenario stacked a roll (`rolls N`) whose option the roll that came does not have."""


def roll(
    game,
    player: PlayerState,
    weights: Sequence[int],
    source: Any = None,
    detail: Any = None,
) -> int:
    """A random outcome for the player: the index of the option that comes up, each as
    likely as its weight. A scenario's stacked rolls come first (`rolls N`: option N)."""
    stacked = game.stacked_rolls
    if stacked:
        pick = stacked.pop(0)
        if not 0 <= pick < len(weights):
            raise UnfitRoll(
                f"`rolls {pick + 1}` names option {pick + 1}, but the roll that came "
                f"({getattr(source, 'name', source) or 'a roll'}) has {len(weights)} options"
            )
    else:
        r = below(game.rng, sum(weights))
        pick = 0
        while r >= weights[pick]:
            r -= weights[pick]
            pick += 1
    if game.stats is not None:
        game.stats.on_roll(game, player, pick, getattr(source, "name", source), detail)
    return pick
