"""Run a scenario (scenario IR) against a pack: set up the position, play the script, check.

Strict mode, as in XMage's tests: a decision the script does not answer fails the scenario
with the line of the step it was waiting on. Expectations are checked at the point of the
script where they stand: just before the next decision the game asks for, or at the end.
"""

from __future__ import annotations

import contextlib
import traceback
from dataclasses import dataclass, field
from typing import Any

from .asking import UnfitRoll
from .catalog import Catalog, prepare
from .decisions import ACTION, Decision
from .game import Game
from .scenario_checks import check, game_fact, label_list, match_action, player_fact, step_text
from .scenario_setup import Doing, card_def, setup_position
from .scenario_words import FACTS, VERBS, Fact, Verb, facts, verbs

# What other modules read here: the checks, the setup and the records (the statements and
# facts as the runner registers them, which the compiler reads) live beside the runner.
__all__ = [
    "FACTS",
    "VERBS",
    "Doing",
    "Fact",
    "Verb",
    "facts",
    "verbs",
    "Failure",
    "Outcome",
    "check",
    "crash",
    "game_fact",
    "player_fact",
    "run_scenario",
    "setup_position",
]


@dataclass
class Failure:
    """Why a scenario failed, at which line of it."""

    message: str
    at: dict[str, Any] | None
    # "expect": an expectation did not hold; "script": the script does not fit the game;
    # "crash": the engine raised an exception (``trace`` holds its traceback).
    kind: str = "script"
    trace: str | None = None


@dataclass
class Outcome:
    """The result of one scenario run."""

    name: str
    at: dict[str, Any]
    failures: list[Failure] = field(default_factory=list)
    steps_done: int = 0

    @property
    def ok(self) -> bool:
        """True when every expectation held and the script ran to its end."""
        return not self.failures


class _Stop(Exception):
    """The script is done (or failed); unwind out of the game."""


class _Script:
    """Answers every player's decisions from the scenario's steps (one script for all)."""

    name = "scenario"

    def __init__(
        self, game_ref: list[Game], steps: list[dict[str, Any]], out: Outcome, doing: Doing
    ) -> None:
        self.game_ref = game_ref
        self.steps = list(steps)
        self.out = out
        self.doing = doing

    @property
    def game(self) -> Game:
        return self.game_ref[0]

    def check_expectations(self) -> None:
        while self.steps and self.steps[0]["do"] == "expect":
            step = self.steps.pop(0)
            self.out.steps_done += 1
            self.doing.at, self.doing.what = step["at"], "checking this expectation"
            problem = check(self.game, step)
            if problem:
                self.out.failures.append(Failure(problem, step["at"], "expect"))

    def fail(self, message: str, at: dict[str, Any] | None) -> None:
        self.out.failures.append(Failure(message, at))
        raise _Stop

    def choose(self, view: Any, decision: Decision) -> int:
        self.check_expectations()
        if not self.steps:
            raise _Stop
        step = self.steps[0]
        who = f"player {decision.player + 1}"
        if decision.kind == ACTION:
            if step["do"] in ("answer", "yes", "no"):
                self.fail(
                    f"the script answers a question here, but {who} is choosing an action; "
                    f"legal actions: {label_list(decision.labels)}",
                    step["at"],
                )
            index = match_action(step, decision.labels)
            if index is None:
                self.fail(
                    f"`{step_text(step)}` is not a legal action for {who} now; "
                    f"legal actions: {label_list(decision.labels)}",
                    step["at"],
                )
        else:
            if step["do"] not in ("answer", "yes", "no"):
                self.fail(
                    f"unscripted decision: {who} must answer a {decision.kind} question"
                    f"{' from ' + decision.source if decision.source else ''} "
                    f"(options: {label_list(decision.labels)}) before `{step_text(step)}`; "
                    "script it with `answer ...`, `yes` or `no`",
                    step["at"],
                )
            index = _match_answer(step, decision.labels)
            if index is None:
                self.fail(
                    f"`{step_text(step)}` is not an option of the {decision.kind} question; "
                    f"options: {label_list(decision.labels)}",
                    step["at"],
                )
        self.steps.pop(0)
        self.out.steps_done += 1
        # The engine carries the step out until it asks the next decision.
        self.doing.at, self.doing.what = step["at"], f"carrying out `{step_text(step)}`"
        assert index is not None
        return index


def _match_answer(step: dict[str, Any], labels: list[str]) -> int | None:
    do, arg = step["do"], step.get("arg")
    low = [label.lower() for label in labels]
    if do in ("yes", "no"):
        return low.index(do) if do in low else None
    if isinstance(arg, int):
        return arg - 1 if 1 <= arg <= len(labels) else None
    want = str(arg).lower()
    if want in low:
        return low.index(want)
    hits = [i for i, label in enumerate(low) if label.startswith(want) or want in label]
    return hits[0] if len(hits) == 1 else None


def run_scenario(pack: Catalog | dict[str, Any], sc: dict[str, Any]) -> Outcome:
    """Run one scenario; the outcome lists every failed expectation with its line.

    An exception raised inside the engine is the scenario's failure (a "crash"), at the line
    of the statement it was carrying out, with its traceback kept for `--verbose`."""
    out = Outcome(sc["name"], sc["at"])
    doing = Doing(sc["at"], "setting up the game")
    try:
        _run(pack, sc, out, doing)
    except Exception as e:  # any bug of the engine is this scenario's failure, at its line
        out.failures.append(crash(e, doing))
    return out


def crash(exc: BaseException, doing: Doing) -> Failure:
    """An exception raised while ``doing``, as a one-line failure (traceback kept apart)."""
    said = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    what = f"{type(exc).__name__}: {said}" if said else type(exc).__name__
    trace = "".join(traceback.format_exception(exc))
    return Failure(f"the engine failed while {doing.what}: {what}", doing.at, "crash", trace)


def _new_game(cat: Catalog, sc: dict[str, Any], script: _Script) -> Game:
    """The game set up by the rules for the scenario's players, seed, board and deal."""
    players = sc.get("players", 2)
    dealt: dict[str, Any] = {}
    if sc.get("dealt"):
        # Setup itself deals from the stacked deck and seats the named first player.
        dealt["stacked_adventure"] = [card_def(cat, name) for name in sc.get("adventure", ())]
        if "first" in sc:
            dealt["first_player"] = sc["first"] - 1
    if sc.get("goals_before"):
        # Boxes filled in earlier games, on the seat each goal belongs to.
        before: list[dict[str, int]] = [{} for _ in range(players)]
        for name, n in sc["goals_before"].items():
            seat = cat.goals[name]["player"] - 1
            if seat < players:
                before[seat][name] = n
        dealt["goals_before"] = before
    return Game(cat, [script] * players, sc.get("seed", 0), modules=sc.get("modules"), **dealt)


def _run(pack: Catalog | dict[str, Any], sc: dict[str, Any], out: Outcome, doing: Doing) -> None:
    ref: list[Game] = []
    script = _Script(ref, sc["steps"], out, doing)
    try:
        cat = pack if isinstance(pack, Catalog) else prepare(pack, sc.get("board", 0))
        game = _new_game(cat, sc, script)
        ref.append(game)
        setup_position(game, sc, doing)
    except ValueError as e:
        # A position this game cannot have (a space off this assembly of the board...).
        out.failures.append(Failure(str(e), doing.at))
        return
    doing.at, doing.what = sc["at"], "starting the first turn"
    with contextlib.suppress(_Stop):
        try:
            _play(game, sc)
        except UnfitRoll as e:
            # The script does not fit the game: reported at the `rolls` line.
            at = sc.get("setup_at", {}).get("rolls", sc["at"])
            out.failures.append(Failure(f"{e}; stack the option numbers of the rolls", at))
            return
    if sc.get("campaign") and game.over and game.result is not None and not out.failures:
        # A campaign game: the post-game steps, then what is still to be checked.
        doing.at, doing.what = sc["at"], "running the post-game steps"
        game.post_game()
    if script.steps and not out.failures:
        script.check_expectations()
        if script.steps:
            step = script.steps[0]
            out.failures.append(
                Failure(
                    f"the game ended ({game.end_reason or 'no more decisions'}) before "
                    f"`{step_text(step)}`",
                    step["at"],
                )
            )


def _play(game: Game, sc: dict[str, Any]) -> None:
    """Play from the scenario's position until the script stops it or the game ends."""
    players = len(game.players)
    first = game.players[game.order[0]]
    pool = next((e for e in sc["setup"] if e["seat"] == first.seat + 1), {})
    game.round, game.turn = 1, 0
    if first.on_clock:
        game.turn = 1
        game.begin_turn(first)
        for res in ("skill", "swords", "boots"):
            if res in pool:
                setattr(first, res, pool[res])
        # Declared resources: a turn's pool is stated like boots, a kept one like gold.
        first.pools.update(pool.get("pools", {}))
        while game.step(first):
            pass
        if not game.over:
            game.end_turn(first)
    else:
        game.take_turn(first)
    k = 1
    while not game.over and k < 200 * players:
        if k % players == 0:
            game.round += 1
        game.take_turn(game.players[game.order[k % players]])
        k += 1
