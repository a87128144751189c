"""Statuses: what holds for a player for a time, named, kept in `PlayerState.statuses`.

A status is `[name, ends, seat]`: its name ("dizzy", or a prohibition such as "cannot use
boots"), when it ends, and whose turn that is. It ends

    "turn"       at the end of the turn it was given in (seat: the player whose turn it is),
    "next_turn"  when the seat's next turn begins ("until your next turn", said by the seat),
    "game"       never (for the rest of the game).

A named status does what the pack's lines that test it say (`if you are dizzy`); a
prohibition is read by the engine where its act happens: `cannot use RESOURCE` (it cannot be
spent: not on paths, prices or purchases, Boots gained later included), `cannot gain RESOURCE`
(gains of it are not made: `cannot gain clank` adds no cube), `cannot move`, `cannot
teleport`, `cannot acquire`, `cannot fight`, `cannot buy`. A prohibited action is not among
the legal ones, so bots and `play` never offer it. Giving a status a player has already keeps
the longer of the two.
"""

from __future__ import annotations

from typing import Any

from .state import GameCore, PlayerState

ENDS = ("turn", "next_turn", "game")
# The acts a prohibition may name; those taking a resource first.
RESOURCE_ACTS = ("use", "gain")
PLAIN_ACTS = ("move", "teleport", "acquire", "fight", "buy")
_LONGER = {"turn": 0, "next_turn": 1, "game": 2}


def prohibition(act: str, resource: str | None = None) -> str:
    """The name of the status that forbids ``act`` (of ``resource``): "cannot use boots"."""
    return f"cannot {act} {resource}" if resource else f"cannot {act}"


def add_status(player: PlayerState, name: str, ends: str, seat: int) -> bool:
    """Give ``player`` the status until it ends; True when it is new (not only longer)."""
    for entry in player.statuses:
        if entry[0] == name:
            if _LONGER[ends] > _LONGER[entry[1]]:
                entry[1], entry[2] = ends, seat
            return False
    player.statuses.append([name, ends, seat])
    return True


def end_status(player: PlayerState, name: str) -> bool:
    """Take the status away (an effect ends it early); True when the player had it."""
    kept = [e for e in player.statuses if e[0] != name]
    if len(kept) == len(player.statuses):
        return False
    player.statuses[:] = kept
    return True


def has_status(player: PlayerState, name: str) -> bool:
    """Whether the player has the status now."""
    name = name.lower()
    return any(entry[0] == name for entry in player.statuses)


def forbids(player: PlayerState, act: str, resource: str | None = None) -> bool:
    """Whether a status forbids ``player`` to ``act`` (of ``resource``) now."""
    if not player.statuses:
        return False
    return has_status(player, prohibition(act, resource))


def expire(players: list[PlayerState], ends: str, seat: int | None = None) -> list[Any]:
    """End the statuses that end now ("turn", or "next_turn" of ``seat``); the
    `(player, name)` pairs ended."""
    gone: list[Any] = []
    for p in players:
        if not p.statuses:
            continue
        kept = []
        for e in p.statuses:
            if e[1] == ends and (seat is None or e[2] == seat):
                gone.append((p, e[0]))
            else:
                kept.append(e)
        if len(kept) != len(p.statuses):
            p.statuses[:] = kept
    return gone


def status_names(player: PlayerState) -> list[str]:
    """The player's statuses by name, in the order they were given."""
    return [e[0] for e in player.statuses]


def describe(entry: list[Any]) -> str:
    """A status as a player reads it: "dizzy until player 2's next turn"."""
    name, ends, seat = entry
    if ends == "turn":
        return f"{name} this turn"
    if ends == "next_turn":
        return f"{name} until player {seat + 1}'s next turn"
    return name


def give_status(game: GameCore, player: PlayerState, name: str, ends: str) -> None:
    """Give ``player`` a status until it ends; "until your next turn" is the active
    player's (who says it)."""
    add_status(player, name.lower(), ends, game.active.seat)


def take_status(game: GameCore, player: PlayerState, name: str) -> None:
    """End ``player``'s status now."""
    end_status(player, name.lower())


def status_held(game: GameCore, player: PlayerState, name: str) -> bool:
    """Whether ``player`` has the status now."""
    return has_status(player, name)
