"""The rule parameters a pack's `rules` block may set, with the base game's values.

Where the Legacy rulebook gives no number, the classic Clank! values from
shared/reference/clank-facts.md are used (health 10, rage track 2 2 3 3 4 4 5).
A `with N players` variant is stored under the player count; "*" is every other count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_PLAYERS = 8
"""Most players any pack may seat."""
ROUND_CAP_MAX = 500
"""The hard limit on a game's rounds: no pack and no `--rule` can raise the cap past it, so
every game ends (a game that reaches its cap is scored as it stands and reported as capped)."""


@dataclass(frozen=True)
class RuleParam:
    """One parameter: its IR key, the words that name it, its value shape and default."""

    key: str
    words: str
    shape: str  # int | ints | by_players
    default: Any
    doc: str
    low: int = 0
    """Smallest value allowed (each value, for `ints` and `by_players`)."""
    high: int = 100
    """Largest value allowed: packs come from strangers, so no rule asks for unbounded work."""
    max_len: int = 16
    """Most values an `ints` rule may list."""
    switch: bool = False
    """A rule a pack turns on by writing its words alone (`deck out ends game`; `... 0`
    turns it off): absent from the rules of a pack that does not write it, so the games of
    packs written before it was added are the same game, state and digest."""


RULE_PARAMS: tuple[RuleParam, ...] = (
    RuleParam("hand_size", "hand size", "int", 5, "Cards drawn at the end of each turn.", 1, 30),
    RuleParam("row_size", "row size", "int", 6, "Cards in the adventure row.", 1, 30),
    RuleParam("market_price", "market price", "int", 7, "Gold for one market item.", 0, 100),
    RuleParam("health", "health", "int", 10, "Spaces on each health meter.", 1, 100),
    RuleParam(
        "rage_track",
        "rage track",
        "ints",
        [2, 2, 3, 3, 4, 4, 5],
        "Cubes drawn per attack.",
        low=0,
        high=50,
        max_len=30,
    ),
    RuleParam(
        "rage_start",
        "rage start",
        "by_players",
        {"2": 3, "3": 2, "4": 1, "*": 1},
        "Rage track space (from 1) the marker starts on.",
        low=1,
        high=30,
    ),
    RuleParam(
        "starting_clank",
        "starting clank",
        "ints",
        [3, 2, 1, 0],
        "Clank! placed by each seat.",
        high=30,
        max_len=MAX_PLAYERS,
    ),
    RuleParam(
        "dragon_cubes", "dragon cubes", "int", 24, "Black cubes in the dragon bag.", high=500
    ),
    RuleParam("player_cubes", "player cubes", "int", 30, "Cubes in each player's supply.", 1, 500),
    RuleParam(
        "off_clock_draw",
        "off clock draw",
        "by_players",
        {"2": 6, "*": 4},
        "Cubes drawn on an off-the-clock turn.",
    ),
    RuleParam("starting_deck", "starting deck", "int", 10, "Cards in each starting deck.", 1, 100),
    RuleParam("min_players", "min players", "int", 2, "Fewest players.", 1, MAX_PLAYERS),
    RuleParam("max_players", "max players", "int", 4, "Most players.", 1, MAX_PLAYERS),
    RuleParam(
        "round_cap",
        "round cap",
        "int",
        60,
        "Safety cap for simulations: a game reaching it is reported as capped.",
        1,
        ROUND_CAP_MAX,
    ),
    RuleParam(
        "deck_out",
        "deck out ends game",
        "int",
        0,
        "A switch (1: on): when the adventure deck cannot refill the row, the game ends at once"
        " and everyone still on the clock is knocked out (the classic game's 2025 FAQ); off,"
        " the adventure discard pile is shuffled into a new deck.",
        0,
        1,
        switch=True,
    ),
)

RULES_BY_KEY = {p.key: p for p in RULE_PARAMS}


def default_rules() -> dict[str, Any]:
    """A fresh copy of every default value, by key."""
    import copy

    return {p.key: copy.deepcopy(p.default) for p in RULE_PARAMS if not p.switch}


def for_players(value: dict[str, Any], players: int) -> Any:
    """Read a by-player-count value."""
    return value.get(str(players), value.get("*"))


def rules_schema() -> dict[str, Any]:
    """The closed JSON Schema of the IR `rules` object."""
    seats = [str(n) for n in range(1, MAX_PLAYERS + 1)]

    def shape(p: RuleParam) -> dict[str, Any]:
        # The same ranges the compiler checks, so a hand-written IR cannot ask for more.
        value = {"type": "integer", "minimum": p.low, "maximum": p.high}
        if p.shape == "int":
            return value
        if p.shape == "ints":
            return {"type": "array", "items": value, "minItems": 1, "maxItems": p.max_len}
        return {
            "type": "object",
            "propertyNames": {"enum": [*seats, "*"]},
            "additionalProperties": value,
        }

    props: dict[str, Any] = {p.key: {**shape(p), "description": p.doc} for p in RULE_PARAMS}
    props["at"] = {
        "type": "object",
        "propertyNames": {"enum": [p.key for p in RULE_PARAMS]},
        "additionalProperties": {"$ref": "#/$defs/span"},
    }
    return {
        "type": "object",
        "properties": props,
        "required": [p.key for p in RULE_PARAMS if not p.switch],
        "additionalProperties": False,
    }


def rule_value_problem(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for rule parameter ``key`` (shape, then its documented
    range `RuleParam.low`..`RuleParam.high`, and `max_len` values for a list); None if fine."""
    from jsonschema import Draft202012Validator

    param = RULES_BY_KEY.get(key)
    if param is None:
        return f"no rule parameter is called {key!r}"
    shape = rules_schema()["properties"][key]
    # The shape first; the range below says it in the designer's words.
    ranges = ("minimum", "maximum", "maxItems")
    errors = Draft202012Validator(shape).iter_errors(value)
    err = next((e for e in errors if e.validator not in ranges), None)
    if err is not None:
        return err.message
    span = f"from {param.low} to {param.high}"
    if param.shape == "int":
        values = [value]
    elif param.shape == "ints":
        if len(value) > param.max_len:
            return f"{len(value)} values; at most {param.max_len}"
        values = list(value)
    else:
        values = list(value.values())
    for v in values:
        if not param.low <= v <= param.high:
            return f"{v} is out of range: {param.words} goes {span}"
    return None
