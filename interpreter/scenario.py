"""Run a scenario (scenario IR) against a pack: set up the position, play the script, check.

Strict mode, as in XMage's tests: a decision the script does not answer fails the scenario
with the line of the step it was waiting on. Expectations are checked at the point of the
script where they stand: just before the next decision the game asks for, or at the end.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .actions import ACTION_KINDS, MOVE, legal_actions, teleport_targets
from .asking import UnfitRoll
from .catalog import Catalog, prepare
from .decisions import ACTION, Decision
from .game import BLACK, Game
from .paths import is_closed
from .scoring import score_player
from .state import ESCAPED, KNOCKED_OUT, ON_CLOCK, PlayerState, state_facts
from .statuses import describe, has_status


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
                    f"legal actions: {_list(decision.labels)}",
                    step["at"],
                )
            index = _match_action(step, decision.labels)
            if index is None:
                self.fail(
                    f"`{_step_text(step)}` is not a legal action for {who} now; "
                    f"legal actions: {_list(decision.labels)}",
                    step["at"],
                )
        else:
            if step["do"] not in ("answer", "yes", "no"):
                self.fail(
                    f"unscripted decision: {who} must answer a {decision.kind} question"
                    f"{' from ' + decision.source if decision.source else ''} "
                    f"(options: {_list(decision.labels)}) before `{_step_text(step)}`; "
                    "script it with `answer ...`, `yes` or `no`",
                    step["at"],
                )
            index = _match_answer(step, decision.labels)
            if index is None:
                self.fail(
                    f"`{_step_text(step)}` is not an option of the {decision.kind} question; "
                    f"options: {_list(decision.labels)}",
                    step["at"],
                )
        self.steps.pop(0)
        self.out.steps_done += 1
        # The engine carries the step out until it asks the next decision.
        self.doing.at, self.doing.what = step["at"], f"carrying out `{_step_text(step)}`"
        assert index is not None
        return index


def _list(labels: list[str]) -> str:
    return ", ".join(labels) if labels else "(none)"


def _step_text(step: dict[str, Any]) -> str:
    text = step["do"]
    if "arg" in step:
        text += f" {step['arg']}"
    if "swords" in step:
        text += f" spending {step['swords']} swords"
    return text


def _match_action(step: dict[str, Any], labels: list[str]) -> int | None:
    do = step["do"]
    low = [label.lower() for label in labels]

    def first(*cands: str, prefix: bool = False) -> int | None:
        for cand in cands:
            for i, label in enumerate(low):
                if label == cand.lower() or (prefix and label.startswith(cand.lower())):
                    return i
        return None

    # The first kind whose verb the step uses says which labels it names (acquire and fight
    # have a row and a reserve kind with the same verb and the same candidates).
    for kind in ACTION_KINDS:
        if kind.verb == do:
            cands, prefix = kind.script(step)
            return first(*cands, prefix=prefix)
    return None


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


def check(game: Game, step: dict[str, Any]) -> str | None:
    """None when the expectation holds, else a sentence with expected and actual values."""
    fact, want = step["fact"], step["value"]
    if fact == "can":
        return _check_can(game, step)
    if fact == "moves":
        got = sorted(
            {o.value[1].to for o in legal_actions(game, game.active) if o.value[0] is MOVE}
        )
        names = [game.board.spaces[s].name for s in got]
        if sorted(names) == want:
            return None
        return (
            f"expected player {game.active.seat + 1} to have moves to {_names(want)}; "
            f"the legal moves go to {_names(sorted(names))}"
        )
    if fact == "teleports":
        names = sorted(game.board.spaces[s].name for s in teleport_targets(game, game.active))
        if names == want:
            return None
        return (
            f"expected a teleport of player {game.active.seat + 1} to reach {_names(want)}; "
            f"it reaches {_names(names)}"
        )
    if "seat" in step:
        seat = step["seat"]
        if not 1 <= seat <= len(game.players):
            return f"there is no player {seat}"
        p = game.players[seat - 1]
        if fact in ("has status", "has no status"):
            return _check_status(p, step)
        if fact.endswith(" has") or fact.endswith(" has no") or fact in ("has", "has no"):
            return _check_holds(game, p, step)
        got = player_fact(game, p, fact, step)
        subject = f"player {seat} {fact}" + (f" {step['card']}" if "card" in step else "")
        if fact == "owns":
            subject = f"player {seat} to own {want} {step['card']}"
            return None if got == want else f"expected {subject}, they own {got}"
    else:
        if fact in ("row has", "row has no", "adventure discard has", "adventure discard has no"):
            pile = game.row if fact.startswith("row") else game.adventure_discard
            where = "the row" if fact.startswith("row") else "the adventure discard pile"
            present = any(c.name == want for c in pile)
            if present == (not fact.endswith(" no")):
                return None
            return (
                f"expected {'no ' if fact.endswith(' no') else ''}{want!r} in {where}; "
                f"{where} holds {_names(c.name for c in pile)}"
            )
        if fact in ("path", "path has", "path has no"):
            return _check_path(game, step)
        if fact == "switch":
            if step["switch"] not in game.board.switches:
                return f"no path of this game's board has switch {step['switch']!r}"
            got = game.switches.get(step["switch"], 1)
            if got == want:
                return None
            return f"expected switch {step['switch']} {want}, it is {got}"
        if fact in ("space has", "space has no"):
            at = game.board.index.get(step["space"])
            if at is None:
                return f"space {step['space']!r} is not on this game's board{_ship(game)}"
            here = _space_tokens(game, at)
            present = want in here
            if present == (fact == "space has"):
                return None
            return (
                f"expected {step['space']} {'to hold' if fact == 'space has' else 'not to hold'} "
                f"{want!r}; it holds {_names(here)}"
            )
        got = game_fact(game, fact, step)
        subject = fact
        if "card" in step:
            subject += f" {step['card']}"
        if "of" in step:
            subject += f" {step['of']}"
    if got == want:
        return None
    return f"expected {subject} {_show(want)}, got {_show(got)}"


def _names(names: Any) -> str:
    names = list(names)
    return ", ".join(names) if names else "nothing"


def _check_can(game: Game, step: dict[str, Any]) -> str | None:
    action, want = step["action"], step["value"]
    p = game.active
    if not p.on_clock:
        return f"player {p.seat + 1} is {p.status}: no actions to check"
    labels = [o.label for o in legal_actions(game, p)]
    found = _match_action(action, labels) is not None
    if found == want:
        return None
    who = f"player {p.seat + 1}"
    if want:
        return f"expected `{_step_text(action)}` to be legal for {who}; legal: {_list(labels)}"
    return f"expected `{_step_text(action)}` not to be legal for {who}, but it is"


def _zone(p: PlayerState, fact: str) -> tuple[list[Any], str]:
    zone = fact.removesuffix(" no").removesuffix(" has")
    if zone == "in play":
        return p.play, "play area"
    return getattr(p, zone), {"hand": "hand", "deck": "deck", "discard": "discard pile"}[zone]


def _check_holds(game: Game, p: PlayerState, step: dict[str, Any]) -> str | None:
    """`has [no] TOKEN` and `ZONE has [no] CARD` for one player."""
    fact, want = step["fact"], step["value"]
    negate = fact.endswith(" no")
    who = f"player {p.seat + 1}"
    if fact in ("has", "has no"):
        held = [t.name for t in p.tokens] + ([p.artifact.name] if p.artifact else [])
        if (want in held) != negate:
            return None
        return (
            f"expected {who} {'not ' if negate else ''}to have {want!r}; they hold {_names(held)}"
        )
    cards, where = _zone(p, fact)
    present = any(c.name == want for c in cards)
    if present != negate:
        return None
    return (
        f"expected {'no ' if negate else ''}{want!r} in {who}'s {where}; "
        f"it holds {_names(c.name for c in cards)}"
    )


def _check_status(p: PlayerState, step: dict[str, Any]) -> str | None:
    """`has status NAME` and `has no status NAME` for one player."""
    want, negate = step["value"], step["fact"] == "has no status"
    if has_status(p, want) != negate:
        return None
    held = [describe(e) for e in p.statuses]
    return (
        f"expected player {p.seat + 1} {'not ' if negate else ''}to have status {want!r}; "
        f"their statuses: {_names(held)}"
    )


def _space_tokens(game: Game, space: int) -> list[str]:
    art = game.space_artifact[space]
    tokens = [*game.space_tokens[space], *([art] if art else [])]
    return [t.name for t in tokens]


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    return str(v)


def _state_value(obj: Any, fact: str) -> Any:
    v = getattr(obj, fact.replace(" ", "_"))
    return len(v) if isinstance(v, (list, dict, set)) else v


def player_fact(game: Game, p: PlayerState, fact: str, step: dict[str, Any] | None = None) -> Any:
    """One fact about a player, as scenarios name it."""
    if fact in ("skill", "swords", "boots", "damage", "supply"):
        return getattr(p, fact)
    if fact == "gold":
        return game.gold_of(p)
    if fact == "clank":
        return p.area
    if fact == "debt":
        return p.clank_debt
    if fact in ("hand", "deck", "discard"):
        return len(getattr(p, fact))
    if fact == "played":
        return len(p.play)
    if fact == "tokens":
        return len(p.tokens)
    if fact == "cards":
        return len(p.cards())
    if fact == "goal":
        assert step is not None
        return p.goals.get(step["goal"], 0)
    if fact == "owns":
        assert step is not None
        return sum(1 for c in p.cards() if c.name == step["card"])
    if fact == "at":
        return game.board.spaces[p.pos].name
    if fact == "status":
        return {KNOCKED_OUT: "knocked out"}.get(p.status, p.status)
    if fact == "exhausted":
        return p.exhausted
    if fact == "artifact":
        return p.artifact.name if p.artifact else None
    if fact == "score":
        # Before the end: what the player would score if the game ended now.
        if game.result is None:
            return score_player(game, p)[0]
        return game.result.scores[p.seat]
    if fact in game.catalog.resources:
        return p.pools.get(fact, 0)
    if tuple(fact.split()) in state_facts()[0]:
        return _state_value(p, fact)
    raise KeyError(fact)


def game_fact(game: Game, fact: str, step: dict[str, Any] | None = None) -> Any:
    """One fact about the game."""
    if fact == "rage":
        return game.rage + 1
    if fact == "bag":
        return len(game.bag)
    if fact == "bag black":
        return game.bag.count(BLACK)
    if fact == "bag player":
        assert step is not None
        return game.bag.count(step["of"] - 1)
    if fact == "aside":
        return game.black_aside
    if fact == "counter":
        assert step is not None
        return game.counters.get(step["counter"], 0)
    if fact == "row":
        return len(game.row)
    if fact == "adventure deck":
        return len(game.adventure_deck)
    if fact == "adventure discard":
        return len(game.adventure_discard)
    if fact == "reserve":
        assert step is not None
        return next((n for c, n in game.reserve.items() if c.name == step["card"]), None)
    if fact == "minor secrets":
        return len(game.minor_bank)
    if fact == "major secrets":
        return len(game.major_bank)
    if fact == "trashed":
        return len(game.trashed)
    if fact == "over":
        return game.over
    if fact == "winner":
        if game.result is None:
            return None
        winners = game.result.winners
        return winners[0] + 1 if len(winners) == 1 else [w + 1 for w in winners] or None
    if fact == "turn":
        return game.active.seat + 1
    if fact == "track":
        assert step is not None
        return game.campaign_marks.get(step["track"], 0)
    if fact == "reads has":
        assert step is not None
        return step["value"] if step["value"] in game.reads else game.reads
    if tuple(fact.split()) in state_facts()[1]:
        return _state_value(game, fact)
    raise KeyError(fact)


def _card(cat: Catalog, name: str) -> Any:
    return cat.by_name[name.lower()]


def _token(cat: Catalog, name: str) -> Any:
    for t in cat.tokens:
        if t.name.lower() == name.lower():
            return t
    raise KeyError(name)


def _take_from(pile: list[Any], card: Any) -> None:
    """Remove one copy of ``card`` from a pile when it is there (kept conservation-friendly)."""
    if card in pile:
        pile.remove(card)


def _tidy(game: Game, sc: dict[str, Any]) -> None:
    """Without `as dealt`: player 1 (or the `first player`) about to act, in seat order,
    with an empty Clank! area."""
    if sc.get("dealt"):
        return
    n = len(game.players)
    first = sc.get("first", 1) - 1
    game.order = [(first + k) % n for k in range(n)]
    game.active = game.players[first]
    # A scenario starts from a quiet Clank! area: the starting Clank! depends on a random
    # first player, so a scenario that wants cubes there says so with `clank N`.
    for p in game.players:
        p.supply += p.area
        p.area = 0


def _rage(game: Game, sc: dict[str, Any]) -> None:
    if "rage" in sc:
        game.rage = max(0, min(sc["rage"] - 1, len(game.rules["rage_track"]) - 1))


def _counters(game: Game, sc: dict[str, Any]) -> None:
    for name, value in sc.get("counters", {}).items():
        game.counters[name] = 0
        game.move_counter(name, value)


def _row(game: Game, sc: dict[str, Any]) -> None:
    if "row" in sc:
        game.adventure_deck.extend(game.row)
        game.row = []
        for name in sc["row"]:
            card = _card(game.catalog, name)
            _take_from(game.adventure_deck, card)
            game.row.append(card)


def _adventure(game: Game, sc: dict[str, Any]) -> None:
    cat = game.catalog
    if "adventure_deck" in sc:
        # Listed top first; the top of a pile is the end of its list.
        game.adventure_deck = [_card(cat, name) for name in reversed(sc["adventure_deck"])]
    elif "adventure" in sc and not sc.get("dealt"):
        # The first name listed is the top card: the top of a pile is the end of its list.
        for name in reversed(sc["adventure"]):
            card = _card(cat, name)
            _take_from(game.adventure_deck, card)
            game.adventure_deck.append(card)
    if "adventure_discard" in sc:
        game.adventure_discard = [_card(cat, name) for name in sc["adventure_discard"]]


def _reserve(game: Game, sc: dict[str, Any]) -> None:
    for name, left in sc.get("reserve", {}).items():
        game.reserve[_card(game.catalog, name)] = left


def _banks(game: Game, sc: dict[str, Any]) -> None:
    for size in ("minor", "major"):
        if f"{size}_bank" in sc:
            # The first listed is drawn first: the bank is drawn from the end of its list.
            bank = [_token(game.catalog, name) for name in reversed(sc[f"{size}_bank"])]
            setattr(game, f"{size}_bank", bank)


def _path_index(game: Game, ends: list[str]) -> int:
    a, b = (_space_index(game, x) for x in ends)
    path = game.board.path_between(a, b)
    if path is None:
        raise ValueError(f"no path joins {ends[0]} and {ends[1]} on this game's board")
    return path


def _check_path(game: Game, step: dict[str, Any]) -> str | None:
    """`expect tunnel A -- B is blocked|open` / `has [no] TOKEN`: None when it holds."""
    a, b = (game.board.index.get(x) for x in step["path"])
    path = None if a is None or b is None else game.board.path_between(a, b)
    name = " -- ".join(step["path"])
    if path is None:
        return f"no path joins {step['path'][0]} and {step['path'][1]} on this game's board"
    if step["fact"] == "path":
        state = "blocked" if is_closed(game, path) else "open"
        return None if state == step["value"] else f"expected {name} {step['value']}, it is {state}"
    here = [t.name for t in game.path_tokens.get(path, ())]
    if (step["value"] in here) == (step["fact"] == "path has"):
        return None
    want = "to hold" if step["fact"] == "path has" else "not to hold"
    return f"expected {name} {want} {step['value']!r}; it holds {_names(here)}"


def _paths(game: Game, sc: dict[str, Any]) -> None:
    """The scenario's tokens on paths and blocked paths. A path the scenario lays tokens on
    holds those only: what the setup laid there (a path's `holds`, a setup step's random
    placement) goes back to the supply, so a scenario fixes what lies where."""
    laid: set[int] = set()
    for placed in sc.get("place_on_path", ()):
        tok = _token(game.catalog, placed["token"])
        path = _path_index(game, placed["path"])
        if path not in laid:
            laid.add(path)
            for old in game.path_tokens.pop(path, ()):
                game.token_supply[old] = game.token_supply.get(old, 0) + 1
        if game.token_supply.get(tok):
            game.token_supply[tok] -= 1  # from the supply while it lasts, as a line places
        game.path_tokens.setdefault(path, []).append(tok)
    for name, state in sc.get("switches", {}).items():
        if name not in game.board.switches:
            raise ValueError(f"no path of this game's board has switch {name!r}")
        game.switches[name] = state
    for ends in sc.get("block", ()):
        path = _path_index(game, ends)
        if path not in game.closed_paths:
            game.closed_paths.append(path)
    game.closed_paths.sort()
    game.reshape()


def _places(game: Game, sc: dict[str, Any]) -> None:
    for placed in sc.get("place", []):
        space = _space_index(game, placed["space"])
        if placed["token"] is None:
            game.space_tokens[space] = []
            game.space_artifact[space] = None
            continue
        tok = _token(game.catalog, placed["token"])
        if tok.kind == "artifact":
            game.space_artifact[space] = tok
        else:
            game.space_tokens[space] = [tok]


def _bag(game: Game, sc: dict[str, Any]) -> None:
    if "bag" not in sc:
        return
    for p in game.players:
        p.supply += game.bag.count(p.seat)
    game.bag = [BLACK] * sc["bag"].get("black", 0)
    for seat, k in sc["bag"].items():
        if seat == "black":
            continue
        p = game.players[int(seat) - 1]
        k = min(k, p.supply)
        p.supply -= k
        game.bag.extend([p.seat] * k)


def _draws(game: Game, sc: dict[str, Any]) -> None:
    if "draws" not in sc:
        return
    tokens = game.catalog.tokens
    game.stacked_draws = [
        BLACK
        if d == "black"
        # A cube token is -2 - its index among the pack's tokens.
        else -2 - tokens.index(_token(game.catalog, d["token"]))
        if isinstance(d, dict)
        else d - 1
        for d in sc["draws"]
    ]


def _rolls(game: Game, sc: dict[str, Any]) -> None:
    if "rolls" in sc:
        game.stacked_rolls = [k - 1 for k in sc["rolls"]]


# The setup statements in the order they change the position, each with the statements
# (their first words) it sets up: a failure while setting one up is reported at its line.
SETUP_STEPS: tuple[tuple[tuple[str, ...], Callable[[Game, dict[str, Any]], None]], ...] = (
    ((), _tidy),
    (("rage",), _rage),
    (("counter",), _counters),
    (("row",), _row),
    (("adventure", "adventure deck", "adventure discard"), _adventure),
    (("reserve",), _reserve),
    (("minor secrets", "major secrets"), _banks),
    (("place",), _places),
    (("place", "block", "switch"), _paths),
    (("bag",), _bag),
    (("draws",), _draws),
    (("rolls",), _rolls),
)


def _player(game: Game, entry: dict[str, Any]) -> None:
    """One `player N { ... }` block."""
    cat = game.catalog
    p = game.players[entry["seat"] - 1]
    zones = ("hand", "deck", "discard", "in_play")
    if any(z in entry for z in zones):
        for zone in zones:
            cards = [_card(cat, name) for name in entry.get(zone, ())]
            if zone == "deck":
                cards.reverse()  # listed top first; the top is the end of the list
            setattr(p, "play" if zone == "in_play" else zone, cards)
    if "space" in entry:
        p.pos = _space_index(game, entry["space"])
    if "gold" in entry:
        p.gold = entry["gold"]
    for name, n in entry.get("pools", {}).items():
        if not cat.resources[name].per_turn:
            p.pools[name] = n
    for key in ("damage", "clank"):
        if key in entry:
            k = min(entry[key], p.supply)
            p.supply -= k
            if key == "damage":
                p.damage += k
            else:
                p.area += k
    if "supply" in entry:
        # Cubes beyond the stated supply are put aside (out of this scenario's game).
        p.supply = entry["supply"]
    if "tokens" in entry:
        p.tokens = [_token(cat, name) for name in entry["tokens"]]
    if "artifact" in entry:
        p.artifact = _token(cat, entry["artifact"])
    if "status" in entry:
        _status(game, p, entry["status"])


def _status(game: Game, p: PlayerState, status: str) -> None:
    p.status = {"escaped": ESCAPED, "knocked out": KNOCKED_OUT}.get(status, ON_CLOCK)
    if p.status != ON_CLOCK:
        # Players listed off the clock left in the order they are listed.
        game.left.append(p.seat)
    if p.status == ESCAPED:
        # An escaped player's Clank! left the area with them.
        p.supply += p.area
        p.area = 0


@dataclass
class Doing:
    """What a scenario run is carrying out, and the line of the scenario that says it: where
    a failure inside the engine is reported."""

    at: dict[str, Any]
    what: str


def setup_position(game: Game, sc: dict[str, Any], doing: Doing | None = None) -> None:
    """Turn a freshly set-up game into the scenario's position.

    Without `as dealt`, player 1 (or the `first player`) is about to act, in seat order, with
    an empty Clank! area. With it, the game stays as the rules set it up (turn order, starting
    Clank!, the dealt row and its Arrive texts) and only what the scenario states changes.
    ``doing`` follows the statement being set up.
    """
    doing = doing or Doing(sc["at"], "setting up the game")
    lines = sc.get("setup_at", {})
    for words, step in SETUP_STEPS:
        said = [w for w in words if w in lines]
        doing.at = lines[said[0]] if said else sc["at"]
        doing.what = f"setting up `{said[0]}`" if said else "setting up the game"
        step(game, sc)
    for entry in sc["setup"]:
        doing.at, doing.what = entry["at"], f"setting up `player {entry['seat']}`"
        _player(game, entry)


def _ship(game: Game) -> str:
    assembly = getattr(game, "assembly", None)
    return ' (the board\'s assembly is chosen with `modules "..."`)' if assembly else ""


def _space_index(game: Game, name: str) -> int:
    """The index of a space a scenario names; ValueError when this game's board (a modular
    board's assembly) lacks it."""
    at = game.board.index.get(name)
    if at is None:
        raise ValueError(f"space {name!r} is not on this game's board{_ship(game)}")
    return at


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
        dealt["stacked_adventure"] = [_card(cat, name) for name in sc.get("adventure", ())]
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
                    f"`{_step_text(step)}`",
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
