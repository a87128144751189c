"""The facts a scenario's `expect` states, each a record (interpreter/scenario_words.py) with
its value in a game or its check, and `check`, which judges an expectation step by its
fact's record.

A fact registered with `fact` gives a value, compared with the expected one ("expected
player 1 gold 3, got 2"); one registered with `fact_check` judges the step itself and says
what it found. A player's fact that no record names is a resource the pack declares or a
field of the declared player state; a game's, a field of the declared game state.
"""

from __future__ import annotations

from typing import Any

from .actions import ACTION_KINDS, MOVE, legal_actions, teleport_targets
from .paths import is_closed
from .scenario_words import fact, fact_check, fact_of
from .scoring import score_player
from .state import BLACK, KNOCKED_OUT, PlayerState, state_facts
from .state import GameCore as Game
from .statuses import describe, has_status


def check(game: Game, step: dict[str, Any]) -> str | None:
    """None when the expectation holds, else a sentence with expected and actual values."""
    p = None
    if "seat" in step:
        seat = step["seat"]
        if not 1 <= seat <= len(game.players):
            return f"there is no player {seat}"
        p = game.players[seat - 1]
    rec = fact_of(step)
    if rec is not None and rec.check is not None:
        return rec.check(game, p, step)
    fact, want = step["fact"], step["value"]
    if p is not None:
        got = player_fact(game, p, fact, step)
        subject = f"player {step['seat']} {fact}" + (f" {step['card']}" if "card" in step else "")
    else:
        got = game_fact(game, fact, step)
        subject = fact
        if "card" in step:
            subject += f" {step['card']}"
        if "of" in step:
            subject += f" {step['of']}"
    if got == want:
        return None
    return f"expected {subject} {_show(want)}, got {_show(got)}"


def player_fact(game: Game, p: PlayerState, fact: str, step: dict[str, Any] | None = None) -> Any:
    """One fact about a player, as scenarios name it."""
    rec = fact_of({"seat": p.seat + 1, "fact": fact})
    if rec is not None and rec.value is not None:
        return rec.value(game, p, step)
    if fact in game.catalog.resources:
        return p.pools.get(fact, 0)
    if tuple(fact.split()) in state_facts()[0]:
        return _state_value(p, fact)
    raise KeyError(fact)


def game_fact(game: Game, fact: str, step: dict[str, Any] | None = None) -> Any:
    """One fact about the game."""
    rec = fact_of({"fact": fact})
    if rec is not None and rec.value is not None:
        return rec.value(game, None, step)
    if tuple(fact.split()) in state_facts()[1]:
        return _state_value(game, fact)
    raise KeyError(fact)


def names(names: Any) -> str:
    """Names listed for a failure's sentence ("nothing" for none)."""
    names = list(names)
    return ", ".join(names) if names else "nothing"


def label_list(labels: list[str]) -> str:
    """Decision labels listed for a failure's sentence."""
    return ", ".join(labels) if labels else "(none)"


def step_text(step: dict[str, Any]) -> str:
    """A script step as the scenario writes it (`move X spending 1 swords`)."""
    text = step["do"]
    if "arg" in step:
        text += f" {step['arg']}"
    if "swords" in step:
        text += f" spending {step['swords']} swords"
    return text


def match_action(step: dict[str, Any], labels: list[str]) -> int | None:
    """The index of the action label a script step names, or None."""
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


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    return str(v)


def _state_value(obj: Any, fact: str) -> Any:
    v = getattr(obj, fact.replace(" ", "_"))
    return len(v) if isinstance(v, (list, dict, set)) else v


# Expectations with forms of their own: what the active player may do now.


@fact_check(
    "form",
    "can",
    "action",
    "the step is (`can`) or is not (`cannot`) a legal action now",
    "expect can end turn",
)
def _can(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    action, want = step["action"], step["value"]
    p = game.active
    if not p.on_clock:
        return f"player {p.seat + 1} is {p.status}: no actions to check"
    labels = [o.label for o in legal_actions(game, p)]
    found = match_action(action, labels) is not None
    if found == want:
        return None
    who = f"player {p.seat + 1}"
    if want:
        return f"expected `{step_text(action)}` to be legal for {who}; legal: {label_list(labels)}"
    return f"expected `{step_text(action)}` not to be legal for {who}, but it is"


@fact_check(
    "form",
    "moves to",
    "spaces",
    "the legal moves go to exactly these spaces",
    'expect moves to "Old Watchtower"',
    name="moves",
)
def _moves(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    want = step["value"]
    got = sorted({o.value[1].to for o in legal_actions(game, game.active) if o.value[0] is MOVE})
    found = [game.board.spaces[s].name for s in got]
    if sorted(found) == want:
        return None
    return (
        f"expected player {game.active.seat + 1} to have moves to {names(want)}; "
        f"the legal moves go to {names(sorted(found))}"
    )


@fact_check(
    "form",
    "teleports to",
    "spaces",
    "a teleport now would reach exactly these spaces",
    "expect teleports to Millbrook",
    name="teleports",
)
def _teleports(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    want = step["value"]
    found = sorted(game.board.spaces[s].name for s in teleport_targets(game, game.active))
    if found == want:
        return None
    return (
        f"expected a teleport of player {game.active.seat + 1} to reach {names(want)}; "
        f"it reaches {names(found)}"
    )


@fact("form", "game over", "over", "the game has (not) ended", "expect game not over", name="over")
def _over(game: Game, _p: None, _step: Any) -> Any:
    return game.over


@fact_check(
    "form",
    "switch",
    "switch",
    "the board's switch NAME is in state N",
    "expect switch dial 2",
)
def _switch(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    want = step["value"]
    if step["switch"] not in game.board.switches:
        return f"no path of this game's board has switch {step['switch']!r}"
    got = game.switches.get(step["switch"], 1)
    if got == want:
        return None
    return f"expected switch {step['switch']} {want}, it is {got}"


def _path(game: Game, _p: None, step: dict[str, Any]) -> str | None:
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
    return f"expected {name} {want} {step['value']!r}; it holds {names(here)}"


fact_check(
    "form",
    "tunnel is",
    "path state",
    "whether the path joining A and B is blocked (or closed by its switch's state)",
    "expect tunnel Hall -- Cellar is blocked",
    name="path",
)(_path)
fact_check(
    "form",
    "tunnel has",
    "path token",
    "a token lies on the path joining A and B (`path A -- B` too)",
    "expect tunnel Hall -- Cellar has Spike",
    name="path has",
)(_path)
fact_check(
    "form",
    "tunnel has no",
    "path token",
    "no such token lies on the path joining A and B",
    "expect tunnel Hall -- Cellar has no token Spike",
    name="path has no",
)(_path)


def _space(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    want, fact = step["value"], step["fact"]
    at = game.board.index.get(step["space"])
    if at is None:
        return f"space {step['space']!r} is not on this game's board{ship(game)}"
    art = game.space_artifact[at]
    here = [t.name for t in [*game.space_tokens[at], *([art] if art else [])]]
    present = want in here
    if present == (fact == "space has"):
        return None
    return (
        f"expected {step['space']} {'to hold' if fact == 'space has' else 'not to hold'} "
        f"{want!r}; it holds {names(here)}"
    )


fact_check(
    "form",
    "space has",
    "space token",
    "a token lies on the space",
    'expect space "Old Watchtower" has "Founder\'s Signet"',
)(_space)
fact_check(
    "form",
    "space has no",
    "space token",
    "no such token lies on the space",
    "expect space Hall has no Spike",
)(_space)


def ship(game: Game) -> str:
    """How a modular board's assembly is chosen, for a space off it."""
    assembly = getattr(game, "assembly", None)
    return ' (the board\'s assembly is chosen with `modules "..."`)' if assembly else ""


# About one player (`expect player N FACT VALUE`), in the order the compiler lists them.


def _attr(game: Game, p: PlayerState, step: dict[str, Any]) -> Any:
    return getattr(p, step["fact"])


def _size(game: Game, p: PlayerState, step: dict[str, Any]) -> Any:
    return len(getattr(p, step["fact"]))


for _words, _doc in (
    ("skill", "the pool holds that much skill"),
    ("swords", "the pool holds that many swords"),
    ("boots", "the pool holds that many boots"),
):
    fact("player", _words, "int", _doc, f"expect player 1 {_words} 2")(_attr)


@fact("player", "gold", "int", "gold, counting tokens worth gold", "expect player 1 gold 3")
def _gold(game: Game, p: PlayerState, _step: Any) -> Any:
    return game.gold_of(p)


@fact("player", "clank", "int", "cubes in the Clank! area", "expect player 1 clank 1")
def _clank(game: Game, p: PlayerState, _step: Any) -> Any:
    return p.area


@fact(
    "player",
    "debt",
    "int",
    "negative Clank! still waiting for Clank! this turn",
    "expect player 1 debt 1",
)
def _debt(game: Game, p: PlayerState, _step: Any) -> Any:
    return p.clank_debt


fact("player", "damage", "int", "cubes on the health meter", "expect player 1 damage 2")(_attr)
fact("player", "supply", "int", "cubes in the supply", "expect player 1 supply 20")(_attr)
for _words in ("hand", "deck", "discard"):
    fact("player", _words, "int", f"cards in the {_words}", f"expect player 1 {_words} 5")(_size)


@fact("player", "played", "int", "cards in the play area", "expect player 1 played 2")
def _played(game: Game, p: PlayerState, _step: Any) -> Any:
    return len(p.play)


@fact("player", "tokens", "int", "tokens held (artifact not counted)", "expect player 1 tokens 1")
def _tokens(game: Game, p: PlayerState, _step: Any) -> Any:
    return len(p.tokens)


@fact("player", "cards", "int", "cards owned in all four zones", "expect player 1 cards 10")
def _cards(game: Game, p: PlayerState, _step: Any) -> Any:
    return len(p.cards())


@fact(
    "player",
    "score",
    "int",
    "the final score; before the game ends, what the player would score if it ended now",
    "expect player 1 score 0",
)
def _score(game: Game, p: PlayerState, _step: Any) -> Any:
    if game.result is None:
        return score_player(game, p)[0]
    return game.result.scores[p.seat]


@fact("player", "at", "space", "the figure's space", "expect player 1 at Southmarch")
def _at(game: Game, p: PlayerState, _step: Any) -> Any:
    return game.board.spaces[p.pos].name


@fact(
    "player",
    "status",
    "word",
    "on the clock, escaped, knocked out",
    "expect player 1 status escaped",
)
def _status(game: Game, p: PlayerState, _step: Any) -> Any:
    return {KNOCKED_OUT: "knocked out"}.get(p.status, p.status)


def _holds(game: Game, p: PlayerState, step: dict[str, Any]) -> str | None:
    """`has [no] TOKEN` and `ZONE has [no] CARD` for one player."""
    fact, want = step["fact"], step["value"]
    negate = fact.endswith(" no")
    who = f"player {p.seat + 1}"
    if fact in ("has", "has no"):
        held = [t.name for t in p.tokens] + ([p.artifact.name] if p.artifact else [])
        if (want in held) != negate:
            return None
        return f"expected {who} {'not ' if negate else ''}to have {want!r}; they hold {names(held)}"
    zone = fact.removesuffix(" no").removesuffix(" has")
    if zone == "in play":
        cards, where = p.play, "play area"
    else:
        cards = getattr(p, zone)
        where = {"hand": "hand", "deck": "deck", "discard": "discard pile"}[zone]
    present = any(c.name == want for c in cards)
    if present != negate:
        return None
    return (
        f"expected {'no ' if negate else ''}{want!r} in {who}'s {where}; "
        f"it holds {names(c.name for c in cards)}"
    )


def _has_status(game: Game, p: PlayerState, step: dict[str, Any]) -> str | None:
    """`has status NAME` and `has no status NAME` for one player."""
    want, negate = step["value"], step["fact"] == "has no status"
    if has_status(p, want) != negate:
        return None
    held = [describe(e) for e in p.statuses]
    return (
        f"expected player {p.seat + 1} {'not ' if negate else ''}to have status {want!r}; "
        f"their statuses: {names(held)}"
    )


fact_check("player", "has", "token", "holds that token (or artifact)", "expect player 1 has Mug")(
    _holds
)
fact_check("player", "has no", "token", "does not hold that token", "expect player 1 has no Mug")(
    _holds
)
fact_check(
    "player",
    "has status",
    "status",
    "a status is in force: a named one, or a prohibition in quotes",
    "expect player 2 has status dizzy",
)(_has_status)
fact_check(
    "player",
    "has no status",
    "status",
    "the status is not in force",
    'expect player 1 has no status "cannot use boots"',
)(_has_status)


@fact(
    "player",
    "exhausted",
    "bool",
    "boots can no longer be spent on movement this turn",
    "expect player 1 exhausted yes",
)
def _exhausted(game: Game, p: PlayerState, _step: Any) -> Any:
    return p.exhausted


@fact(
    "player",
    "artifact",
    "token?",
    "the artifact carried (`none`: none)",
    "expect player 1 artifact none",
)
def _artifact(game: Game, p: PlayerState, _step: Any) -> Any:
    return p.artifact.name if p.artifact else None


@fact_check(
    "player",
    "owns",
    "int card",
    "copies of that card owned in all four zones",
    "expect player 1 owns 6 Burgle",
)
def _owns(game: Game, p: PlayerState, step: dict[str, Any]) -> str | None:
    got = sum(1 for c in p.cards() if c.name == step["card"])
    if got == step["value"]:
        return None
    return f"expected player {step['seat']} to own {step['value']} {step['card']}, they own {got}"


for _zone in ("hand", "deck", "discard", "in play"):
    fact_check(
        "player",
        f"{_zone} has",
        "card",
        f"the card is in the player's {_zone}",
        f"expect player 1 {_zone} has Burgle",
    )(_holds)
    fact_check(
        "player",
        f"{_zone} has no",
        "card",
        f"the card is not in the player's {_zone}",
        f"expect player 1 {_zone} has no Burgle",
    )(_holds)


@fact(
    "player",
    "goal",
    "goal int",
    "boxes of that personal goal filled this game (a campaign game)",
    'expect player 1 goal "Monster Hunter" 1',
)
def _goal(game: Game, p: PlayerState, step: dict[str, Any]) -> Any:
    return p.goals.get(step["goal"], 0)


# About the game (`expect FACT VALUE`), in the order the compiler lists them.


@fact("game", "rage", "rage", "the rage marker is on space N (from 1)", "expect rage 3")
def _rage(game: Game, _p: None, _step: Any) -> Any:
    return game.rage + 1


@fact("game", "bag", "int", "cubes in the dragon bag", "expect bag 4")
def _bag(game: Game, _p: None, _step: Any) -> Any:
    return len(game.bag)


@fact("game", "bag black", "int", "black cubes in the dragon bag", "expect bag black 3")
def _bag_black(game: Game, _p: None, _step: Any) -> Any:
    return game.bag.count(BLACK)


@fact(
    "game",
    "bag player",
    "seat int",
    "one player's cubes in the dragon bag",
    "expect bag player 1 2",
)
def _bag_player(game: Game, _p: None, step: dict[str, Any]) -> Any:
    return game.bag.count(step["of"] - 1)


@fact("game", "aside", "int", "black cubes drawn and set aside", "expect aside 1")
def _aside(game: Game, _p: None, _step: Any) -> Any:
    return game.black_aside


@fact("game", "row", "int", "cards in the adventure row", "expect row 6")
def _row(game: Game, _p: None, _step: Any) -> Any:
    return len(game.row)


def _pile_has(game: Game, _p: None, step: dict[str, Any]) -> str | None:
    fact, want = step["fact"], step["value"]
    pile = game.row if fact.startswith("row") else game.adventure_discard
    where = "the row" if fact.startswith("row") else "the adventure discard pile"
    present = any(c.name == want for c in pile)
    if present == (not fact.endswith(" no")):
        return None
    return (
        f"expected {'no ' if fact.endswith(' no') else ''}{want!r} in {where}; "
        f"{where} holds {names(c.name for c in pile)}"
    )


fact_check("game", "row has", "card", "the card is in the row", "expect row has Dryad")(_pile_has)
fact_check(
    "game", "row has no", "card", "the card is not in the row", 'expect row has no "Kobold Temp"'
)(_pile_has)


@fact("game", "adventure deck", "int", "cards in the adventure deck", "expect adventure deck 30")
def _adventure_deck(game: Game, _p: None, _step: Any) -> Any:
    return len(game.adventure_deck)


@fact(
    "game",
    "adventure discard",
    "int",
    "cards in the adventure discard pile",
    "expect adventure discard 1",
)
def _adventure_discard(game: Game, _p: None, _step: Any) -> Any:
    return len(game.adventure_discard)


fact_check(
    "game",
    "adventure discard has",
    "card",
    "the card is in the adventure discard pile",
    "expect adventure discard has Dryad",
)(_pile_has)
fact_check(
    "game",
    "adventure discard has no",
    "card",
    "the card is not in the adventure discard pile",
    "expect adventure discard has no Dryad",
)(_pile_has)


@fact("game", "reserve", "card int", "cards left in a reserve pile", "expect reserve Explore 14")
def _reserve(game: Game, _p: None, step: dict[str, Any]) -> Any:
    return next((n for c, n in game.reserve.items() if c.name == step["card"]), None)


@fact("game", "minor secrets", "int", "minor secrets left in the bank", "expect minor secrets 2")
def _minor(game: Game, _p: None, _step: Any) -> Any:
    return len(game.minor_bank)


@fact("game", "major secrets", "int", "major secrets left in the bank", "expect major secrets 1")
def _major(game: Game, _p: None, _step: Any) -> Any:
    return len(game.major_bank)


@fact("game", "trashed", "int", "cards trashed this game", "expect trashed 1")
def _trashed(game: Game, _p: None, _step: Any) -> Any:
    return len(game.trashed)


@fact("game", "winner", "seat", "player N won (the game is over)", "expect winner 1")
def _winner(game: Game, _p: None, _step: Any) -> Any:
    if game.result is None:
        return None
    winners = game.result.winners
    return winners[0] + 1 if len(winners) == 1 else [w + 1 for w in winners] or None


@fact("game", "turn", "seat", "player N is the active player", "expect turn 2")
def _turn(game: Game, _p: None, _step: Any) -> Any:
    return game.active.seat + 1


@fact("game", "counter", "counter int", "a counter's value", "expect counter doom 2")
def _counter(game: Game, _p: None, step: dict[str, Any]) -> Any:
    return game.counters.get(step["counter"], 0)


@fact(
    "game",
    "reads has",
    "passage",
    "passage N was read during the game or is to be read after it (a campaign game)",
    "expect reads has 17",
)
def _reads_has(game: Game, _p: None, step: dict[str, Any]) -> Any:
    return step["value"] if step["value"] in game.reads else game.reads


@fact(
    "game",
    "track",
    "track int",
    "X added to the pack's campaign track TRACK this game (a campaign game)",
    'expect track "Rival Guild" 1',
)
def _track(game: Game, _p: None, step: dict[str, Any]) -> Any:
    return game.campaign_marks.get(step["track"], 0)
