"""Setup and the turn as named, ordered steps that a pack inserts, replaces or removes.

The base rules are five phases of engine steps, in the rulebook's order:

- ``setup``: first player, bank, dragon, reserve and row, tokens, players, hands, arrive;
- ``turn``: the start of a turn on the clock (the pool emptied, the `turn start` event);
  the player's actions follow;
- ``end_of_turn``: resolve contracts, clear the play area, draw a new hand, escape, refill
  the row, the dragon attack a new dragon symbol calls for;
- ``off_clock``: the turn of a player off the clock (Legacy: draw the off-the-clock cubes);
- ``end_of_game``: the game is over (the `game end` event); scoring follows;
- ``post_game``: a campaign game's post-game steps, after scoring (the Legacy rulebook's
  "Post-Game Campaign Steps"): mission report, contracts' end-of-game instructions (the
  epilogue is read by the campaign), employee reviews, sort components, player death,
  continue. Only a campaign game runs them (`Game.post_game`); a plain game ends at scoring.

A pack changes them in its rules block, by name (a step's name starts with its phase):

    rules {
      step off_clock.doom replaces off_clock.draw_cubes: dragon attack
      step end_of_turn.tithe after end_of_turn.draw_hand: pay 1 gold -> heal 1
      remove step setup.arrive
    }

A content step runs its effects for the player whose turn it is (setup: the first player).
The compiler checks the names against `STEPS`; `plan` applies the changes to the defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import setup
from .rules import for_players

# The game and player the steps act on (`interpreter.game.Game`, `state.PlayerState`): the
# steps are records the catalog plans, below the engine, so they reach the game through its
# API, as the effect handlers do.
Game = Any
PlayerState = Any

PHASES = ("setup", "turn", "end_of_turn", "off_clock", "end_of_game", "post_game")


@dataclass(frozen=True)
class Step:
    """One engine step: its name (``phase.what``), its handler and what it does."""

    name: str
    handler: Callable[..., None]
    doc: str

    @property
    def phase(self) -> str:
        """The phase the step belongs to."""
        return self.name.split(".", 1)[0]


def _begin(game: Game, player: PlayerState) -> None:
    """The pool is emptied (skill, swords, boots, a turn's resources and modifiers); the
    `turn start` event."""
    game.empty_pool(player)


def _game_end(game: Game, player: PlayerState) -> None:
    """The `game end` event (before scoring)."""
    game.emit("game end", None)


def _setup_contracts(game: Game) -> None:
    """Setup 1: each open contract's instructions for the start of the game (`start:`), for
    the first player (`each player` is everyone)."""
    if game.catalog.contracts:
        game.contract_instructions("start")


def _mission_report(game: Game, player: PlayerState) -> None:
    """Post-game 1: the scores go on the Mission Reports (the campaign file keeps them)."""


def _contracts_end(game: Game, player: PlayerState) -> None:
    """Post-game 2: each open contract's instructions for the end of the game (`end of
    game:`); the campaign then reads the game's epilogue passage."""
    if game.catalog.contracts:
        game.contract_instructions("end")


def _employee_reviews(game: Game, player: PlayerState) -> None:
    """Post-game 3: a Checkmark of Grudging Approval for each player who scored more than 0,
    one for the winner, and one for each row of personal goals a player completed."""
    game.review()


def _sort_components(game: Game, player: PlayerState) -> None:
    """Post-game 4: every card back where it began, no token kept: the next game starts
    from the pack again (nothing of this game's state is carried)."""


def _player_death(game: Game, player: PlayerState) -> None:
    """Post-game 5: if any player scored 0, one X on the campaign track the pack names for a
    death (never more than one), then the passage it names (`death marks TRACK reads N`)."""
    game.check_death()


def _continue(game: Game, player: PlayerState) -> None:
    """Post-game 6: the Contracts row carries over into the next game (the campaign keeps
    it)."""


def _resolve_contracts(game: Game, player: PlayerState) -> None:
    """Each open contract whose condition the player meets and whose price they can pay:
    they may complete it (pay, take the reward); a completed contract is done this game."""
    if game.catalog.contracts or game.opened_contracts:
        game.resolve_contracts(player)


def _clear_play_area(game: Game, player: PlayerState) -> None:
    """Discard the play area; the turn's skill, swords and boots are lost."""
    game.clear_play_area(player)  # cards told to stay in play for the next turn stay
    player.skill = player.swords = player.boots = player.clank_debt = 0
    game.clear_turn_pools(player)
    player.pending.clear()
    player.recounts.clear()


def _draw_hand(game: Game, player: PlayerState) -> None:
    """Draw a new hand (five more if cards are left), if still on the clock."""
    if player.on_clock:
        game.draw(player, game.rules["hand_size"])


def _escape(game: Game, player: PlayerState) -> None:
    """A player back on HQ with an artifact escapes now, before the row is refilled."""
    if player.escaping and player.on_clock:
        game.escape(player)


def _refill_row(game: Game, player: PlayerState) -> None:
    """Refill the adventure row; remember whether a new card shows the dragon symbol."""
    game.new_dragon = game.refill_row()


def _dragon_attack(game: Game, player: PlayerState) -> None:
    """One dragon attack if a card the refill added shows the dragon symbol."""
    if game.new_dragon and not game.over:
        game.dragon_attack()
    game.new_dragon = False


def _off_clock_draw(game: Game, player: PlayerState) -> None:
    """Off the clock, the rage track and danger are ignored: the Clank! area goes into the
    bag and exactly `off clock draw` cubes are drawn."""
    game.off_clock_draw(for_players(game.rules["off_clock_draw"], len(game.players)))


STEPS: dict[str, Step] = {}
"""Every engine step by name, in the order of its phase."""


def _add(name: str, handler: Callable[..., None]) -> None:
    STEPS[name] = Step(name, handler, (handler.__doc__ or "").strip())


for _name, _fn in (
    ("setup.first_player", setup.first_player),
    ("setup.bank", setup.bank),
    ("setup.dragon", setup.dragon),
    ("setup.reserve_and_row", setup.reserve_and_row),
    ("setup.tokens", setup.tokens),
    ("setup.players", setup.players),
    ("setup.contracts", _setup_contracts),
    ("setup.hands", setup.hands),
    ("setup.arrive", setup.arrive),
    ("turn.begin", _begin),
    ("end_of_turn.resolve_contracts", _resolve_contracts),
    ("end_of_turn.clear_play_area", _clear_play_area),
    ("end_of_turn.draw_hand", _draw_hand),
    ("end_of_turn.escape", _escape),
    ("end_of_turn.refill_row", _refill_row),
    ("end_of_turn.dragon_attack", _dragon_attack),
    ("off_clock.draw_cubes", _off_clock_draw),
    ("end_of_game.game_end", _game_end),
    ("post_game.mission_report", _mission_report),
    ("post_game.contracts_and_epilogue", _contracts_end),
    ("post_game.employee_reviews", _employee_reviews),
    ("post_game.sort_components", _sort_components),
    ("post_game.player_death", _player_death),
    ("post_game.continue", _continue),
):
    _add(_name, _fn)


@dataclass(frozen=True, slots=True)
class Planned:
    """A step of a phase as a game runs it: an engine step, or a pack's effects."""

    name: str
    step: Step | None
    effects: list[dict[str, Any]] | None


def defaults() -> dict[str, list[str]]:
    """The base rules' step names by phase, in order."""
    out: dict[str, list[str]] = {p: [] for p in PHASES}
    for name, step in STEPS.items():
        out[step.phase].append(name)
    return out


def plan_names(
    changes: list[dict[str, Any]],
) -> tuple[dict[str, list[str]], list[tuple[int, str]]]:
    """The step names by phase after a pack's changes, and (index, problem) for each change
    that does not fit (an unknown anchor or phase, a name used twice); those are skipped."""
    phases = defaults()
    problems: list[tuple[int, str]] = []
    for i, c in enumerate(changes):
        name = c["step"]
        phase = name.split(".", 1)[0]
        order = phases.get(phase)
        if order is None:
            problems.append(
                (
                    i,
                    f"step {name!r} names no phase: start it with one of "
                    + ", ".join(f"`{p}.`" for p in PHASES),
                )
            )
            continue
        anchor = c.get("before") or c.get("after") or c.get("replaces")
        if c["change"] == "remove":
            anchor = name
        if anchor is not None and anchor not in order:
            problems.append(
                (i, f"there is no step {anchor!r} in {phase}: its steps are " + ", ".join(order))
            )
            continue
        if c["change"] != "remove" and name in order and name != c.get("replaces"):
            problems.append((i, f"step {name!r} is already in {phase}"))
            continue
        if c["change"] == "remove":
            order.remove(name)
        elif "replaces" in c:
            order[order.index(c["replaces"])] = name
        elif "before" in c:
            order.insert(order.index(c["before"]), name)
        elif "after" in c:
            order.insert(order.index(c["after"]) + 1, name)
        else:
            order.append(name)
    return phases, problems


def plan(changes: list[dict[str, Any]]) -> dict[str, tuple[Planned, ...]]:
    """The steps each phase runs, after a pack's changes (checked by the compiler)."""
    phases, _problems = plan_names(changes)
    content = {c["step"]: c.get("effects") for c in changes if c["change"] != "remove"}
    # A rule slot that covers an engine step and holds no sticker yet: the printed rule.
    printed = {
        c["step"]: STEPS[c["covers"]]
        for c in changes
        if c.get("covers") in STEPS and not c.get("effects")
    }
    return {
        phase: tuple(
            Planned(n, printed[n], None)
            if n in printed
            else Planned(n, STEPS.get(n) if n not in content else None, content.get(n))
            for n in names
        )
        for phase, names in phases.items()
    }
