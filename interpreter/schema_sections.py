"""The pack IR's JSON Schema in parts: one registered fragment per section of the IR.

Each top-level key of the IR has one `Section` in `IR_SECTIONS` (a function returning its
schema, its docstring saying what the section holds), and each shared definition one in
`DEFS` (`#/$defs/NAME`); `schema.pack_schema` assembles them in registration order, which is
the order the committed `schemas/pack.schema.json` lists them in. A new IR section is one
`@section` function here (tests/interpreter/test_schema.py checks that every top-level key the
compiler writes has one, and that each one is written). The parts made from records stay
generated: effect ops, conditions and counts from their registries, triggers' moments, the
rules from `rules.RULE_PARAMS`, a declared resource from `resource_props`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Registry
from .effects.ranking import TIES
from .effects.registry import RESOURCES
from .resource_props import resource_schema
from .rules import RULE_PARAMS, rules_schema

Fragment = Callable[[], dict[str, Any]]


@dataclass(frozen=True)
class Section:
    """One part of the schema: the IR key (or `$defs` name) it describes, the function that
    builds its fragment, whether every IR has it, and what writes it."""

    key: str
    build: Fragment
    required: bool = False
    written_by: str = "compiler"

    @property
    def doc(self) -> str:
        """What the section holds (its fragment's docstring)."""
        return (self.build.__doc__ or "").strip()


IR_SECTIONS: dict[str, Section] = {}
DEFS: dict[str, Section] = {}


def section(
    key: str, required: bool = False, written_by: str = "compiler"
) -> Callable[[Fragment], Fragment]:
    """Register a function as the fragment of the IR's top-level ``key``. ``written_by`` is
    "compiler" for what compiling a pack writes, "campaign" for what only a campaign game's
    IR carries (dsl/stickers.py)."""

    def register(build: Fragment) -> Fragment:
        if key in IR_SECTIONS:
            raise ValueError(f"IR section {key!r} is registered twice")
        IR_SECTIONS[key] = Section(key, build, required, written_by)
        return build

    return register


def definition(name: str) -> Callable[[Fragment], Fragment]:
    """Register a function as the fragment of `#/$defs/NAME`."""

    def register(build: Fragment) -> Fragment:
        if name in DEFS:
            raise ValueError(f"schema definition {name!r} is registered twice")
        DEFS[name] = Section(name, build)
        return build

    return register


# Shared pieces ----------------------------------------------------------------------------

AT = {"$ref": "#/$defs/span"}
NAME = {"type": "string", "minLength": 1}
STEP_NAME = {"type": "string", "minLength": 1, "maxLength": 200}
PASSAGE_NO = {"type": "integer", "minimum": 1}


def closed(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An object with exactly these properties (no others), ``required`` among them."""
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def chain(registry: Registry, key: str) -> dict[str, Any]:
    """An if/then chain keyed on the discriminator: precise errors, unlike oneOf."""
    names = registry.names()
    return {
        "type": "object",
        "required": [key],
        "properties": {key: {"enum": names}},
        "allOf": [
            {
                "if": {"properties": {key: {"const": r.name}}, "required": [key]},
                "then": r.schema(),
            }
            for r in registry
        ],
    }


def _list(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


def _of(name: str) -> dict[str, Any]:
    """A list of `#/$defs/NAME`."""
    return _list({"$ref": f"#/$defs/{name}"})


def _words() -> dict[str, Any]:
    return _list({"type": "string"})


def _points_per() -> dict[str, Any]:
    """`points N per COUNT` on a card or token."""
    return closed(
        {"points": {"type": "integer"}, "per": {"$ref": "#/$defs/count"}}, ["points", "per"]
    )


def _step() -> dict[str, Any]:
    """A change to the steps of setup or a turn (insert, replace, remove)."""
    return closed(
        {
            "change": {"enum": ["insert", "replace", "remove"]},
            "step": STEP_NAME,
            "before": STEP_NAME,
            "after": STEP_NAME,
            "replaces": STEP_NAME,
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot (`slot R10 after setup.players`) and the sticker filling it; the
            # engine step a slot covers (`slot R21 covers end_of_turn.dragon_attack`).
            "slot": NAME,
            "sticker": NAME,
            "covers": STEP_NAME,
            "at": AT,
        },
        ["change", "step", "at"],
    )


def _counter() -> dict[str, Any]:
    """`counter NAME max N`."""
    return closed(
        {"name": NAME, "max": {"type": "integer", "minimum": 1, "maximum": 1000}, "at": AT},
        ["name", "max", "at"],
    )


def _edits() -> dict[str, Any]:
    """Extension edits (`change`, `replace`, `remove`; dsl/extends.py edit_to_ir)."""
    return _list(
        closed(
            {
                "verb": {"enum": ["change", "replace", "remove"]},
                "kind": {"type": "string"},
                "name": {"type": "string"},
                "board": {"type": "string"},
                "item": {"type": "object"},
                "fields": _words(),
                "ends": {"type": "array", "maxItems": 3},
                "at": AT,
                "name_at": AT,
            },
            ["verb", "kind", "name", "at", "name_at"],
        )
    )


# Top-level sections, in the order the schema lists them ----------------------------------


@section("format", required=True)
def _format() -> dict[str, Any]:
    """The IR's format name and version."""
    return {"const": "clankwork-ir/1"}


@section("pack", required=True)
def _pack() -> dict[str, Any]:
    """The pack block: name, version, title, description, and its bases."""
    return closed(
        {
            "name": NAME,
            "version": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            # The bases the pack is built on, its own base first (dsl/extends.py).
            "extends": _list(
                closed(
                    {
                        "name": NAME,
                        "version": {"type": "string"},
                        "ref": {"type": "string"},
                        "at": AT,
                    },
                    ["name", "version", "ref"],
                )
            ),
            "at": AT,
        },
        ["name", "version", "extends"],
    )


@section("rules", required=True)
def _rules() -> dict[str, Any]:
    """The rule values (`rules { ... }`; interpreter/rules.py RULE_PARAMS)."""
    return {"$ref": "#/$defs/rules"}


@section("cards", required=True)
def _cards() -> dict[str, Any]:
    """The cards (`#/$defs/card`)."""
    return _of("card")


@section("tokens", required=True)
def _tokens() -> dict[str, Any]:
    """The tokens (`#/$defs/token`)."""
    return _of("token")


@section("boards", required=True)
def _boards() -> dict[str, Any]:
    """The boards: spaces, paths, groups, and a modular board's modules (dsl/modules.py)."""
    return _list(_board())


@section("triggers", required=True)
def _triggers() -> dict[str, Any]:
    """The pack's rules triggers (`rules { whenever ...: ... }`)."""
    return _of("trigger")


@section("steps", required=True)
def _steps() -> dict[str, Any]:
    """Changes to the steps of setup and of a turn."""
    return _list(_step())


@section("counters", required=True)
def _counters() -> dict[str, Any]:
    """The pack's counters (`counter NAME max N`)."""
    return _list(_counter())


@section("awards")
def _awards() -> dict[str, Any]:
    """Ranked awards at the end of the game (`most veins: 7 points, ...`)."""
    return _list(_award())


@section("resources")
def _resources() -> dict[str, Any]:
    """The declared resources, each with its properties (interpreter/resource_props.py)."""
    return _list(resource_schema(NAME, AT))


@section("resource_aliases")
def _resource_aliases() -> dict[str, Any]:
    """Other words for a base resource (`resource gold { word credits }`): a compile-time
    name an extension of the pack may use too."""
    return {"type": "object", "additionalProperties": {"enum": sorted(set(RESOURCES))}}


@section("ways")
def _ways() -> dict[str, Any]:
    """The ways to move (`way NAME { paid in R; ... }`)."""
    return _list(_way())


@section("dragon")
def _dragon_section() -> dict[str, Any]:
    """What the pack calls the antagonist who attacks (`dragon { name "..."; word WORD }`):
    display only, "the dragon" and "dragon" when absent."""
    return {"$ref": "#/$defs/dragon"}


@section("stickers", required=True)
def _stickers() -> dict[str, Any]:
    """The stickers of a legacy campaign, each filling a rule slot or changing a board."""
    return _list(_sticker())


@section("passages", required=True)
def _passages() -> dict[str, Any]:
    """The numbered passages of a campaign book."""
    return _list(_passage())


@section("contracts", required=True)
def _contracts() -> dict[str, Any]:
    """The contracts of a campaign."""
    return _list(_contract())


@section("patrons")
def _patrons() -> dict[str, Any]:
    """The patrons of a campaign."""
    return _list(_patron())


@section("goals")
def _goals() -> dict[str, Any]:
    """Personal goals, one player's each."""
    return _list(_goal())


@section("rule_slots")
def _rule_slots() -> dict[str, Any]:
    """Rule slots bound to a rule parameter (`slot R15 rule market price`)."""
    return _list(
        closed({"slot": NAME, "rule": {"type": "string"}, "at": AT}, ["slot", "rule", "at"])
    )


@section("campaign")
def _campaign_section() -> dict[str, Any]:
    """The campaign block: statuses, tracks, and what a player death marks."""
    return _campaign()


@section("on_board")
def _on_boards() -> dict[str, Any]:
    """What differs on one board (`on board NAME { ... }`), laid over the pack when a game is
    set up on it (interpreter/on_board.py)."""
    return _list(_on_board())


@section("campaign_game", written_by="campaign")
def _campaign_game() -> dict[str, Any]:
    """A campaign game: passages are read as they happen (dsl/stickers.py)."""
    return {"type": "boolean"}


@section("open_contracts", written_by="campaign")
def _open_contracts() -> dict[str, Any]:
    """The contracts open in the Contracts row (a campaign's, dsl/stickers.py)."""
    return _list(NAME)


# Shared definitions (#/$defs) --------------------------------------------------------------


@definition("span")
def _span() -> dict[str, Any]:
    """Where something is written: file, line and column, and where it ends."""
    return closed(
        {
            "file": {"type": "string"},
            "line": {"type": "integer", "minimum": 1},
            "col": {"type": "integer", "minimum": 1},
            "end_line": {"type": "integer", "minimum": 1},
            "end_col": {"type": "integer", "minimum": 1},
        },
        ["file", "line", "col", "end_line", "end_col"],
    )


@definition("effect")
def _effect() -> dict[str, Any]:
    """One effect node, generated from the op registry."""
    return chain(EFFECTS, "op")


@definition("effects")
def _effects() -> dict[str, Any]:
    """A list of effect nodes."""
    return _of("effect")


@definition("condition")
def _condition() -> dict[str, Any]:
    """One condition node, generated from the condition registry."""
    return chain(CONDITIONS, "cond")


@definition("count")
def _count() -> dict[str, Any]:
    """One count node, generated from the count registry."""
    return chain(COUNTS, "count")


@definition("trigger")
def _trigger() -> dict[str, Any]:
    """`on MOMENT [if COND] [once per turn|game]: EFFECTS`; the moments from TRIGGERS."""
    return closed(
        {
            "on": {"enum": TRIGGERS.names()},
            "if": {"$ref": "#/$defs/condition"},
            "limit": {"enum": ["turn", "game"]},
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot bound to this moment (`slot R13 whenever you heal`), and the
            # sticker filling it.
            "slot": {"type": "string", "minLength": 1},
            "sticker": {"type": "string", "minLength": 1},
            "at": AT,
        },
        ["on", "effects", "at"],
    )


@definition("action")
def _action() -> dict[str, Any]:
    """`action [NAME] [once per turn|game|module] [if COND]: [PRICE ->] EFFECTS` on a space
    or token."""
    return closed(
        {
            "name": NAME,
            "limit": {"enum": ["turn", "game", "module"]},
            "if": {"$ref": "#/$defs/condition"},
            "cost": {"$ref": "#/$defs/effects"},
            "effects": {"$ref": "#/$defs/effects"},
            "at": AT,
        },
        ["cost", "effects", "at"],
    )


@definition("card")
def _card() -> dict[str, Any]:
    """A card: its deck, type, price, points, tags and triggers."""
    return closed(
        {
            "name": NAME,
            "deck": {"enum": ["starting", "adventure", "reserve", "cardporium"]},
            "cardporium": {"type": "integer", "minimum": 1},
            "type": {"enum": ["acquire", "monster", "event"]},
            "copies": {"type": "integer", "minimum": 1},
            "cost": {"type": "integer", "minimum": 0},
            "fight": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": _points_per(),
            "tags": _words(),
            "dragon": {"type": "boolean"},
            "danger": {"type": "boolean"},
            # A reserve monster out of play until an effect flips it in.
            "aside": {"type": "boolean"},
            "only_in": {"type": "string"},
            "not_in": {"type": "string"},
            # The card's picture: a path inside the pack folder (`art "art/goblin.png"`).
            "art": {"type": "string", "minLength": 1},
            "triggers": _of("trigger"),
            "at": AT,
        },
        ["name", "deck", "type", "copies", "points", "tags", "dragon", "danger", "triggers", "at"],
    )


@definition("token")
def _token() -> dict[str, Any]:
    """A token: its kind, count, points, what it grants, and where it goes when crossed."""
    return closed(
        {
            "name": NAME,
            "kind": {
                "enum": ["major", "minor", "market", "artifact", "mug", "fruit", "cube", "other"]
            },
            "count": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": _points_per(),
            "gold": {"type": "integer", "minimum": 0},
            "type": {"type": "string"},
            "grants": _words(),
            "returns": {"type": "boolean"},
            # Lying on a path: what becomes of it when someone crosses, the boots it adds.
            "crossed": {"enum": ["stays", "removed", "taken"]},
            "extra_boots": {"type": "integer", "minimum": 0, "maximum": 100},
            "triggers": _of("trigger"),
            "actions": _of("action"),
            "at": AT,
        },
        ["name", "kind", "count", "points", "gold", "type", "grants", "returns", "triggers", "at"],
    )


@definition("rules")
def _rules_def() -> dict[str, Any]:
    """The rule values, generated from RULE_PARAMS."""
    return rules_schema()


@definition("dragon")
def _dragon() -> dict[str, Any]:
    """The antagonist's name and the word effects call it by."""
    return closed(
        {
            "name": {"type": "string", "minLength": 1},
            "word": {"type": "string", "minLength": 1},
            "at": AT,
        },
        ["name", "word"],
    )


# Parts of the sections --------------------------------------------------------------------


def _way() -> dict[str, Any]:
    """`way NAME { paid in R; requires W; exhausts; ... }`."""
    return closed(
        {
            "name": NAME,
            "paid_in": NAME,
            "requires": _words(),
            "exhausts": {"type": "boolean"},
            "while_exhausted": {"type": "boolean"},
            "teleport": {"type": "boolean"},
            "within": _words(),
            # The price of a `within` move (default 1), and tokens that close the way where
            # they lie.
            "cost": {"type": "integer", "minimum": 0, "maximum": 100},
            "blocked_by": _words(),
            "at": AT,
        },
        ["name", "paid_in", "requires", "exhausts", "while_exhausted", "teleport", "at"],
    )


def _step_do() -> dict[str, Any]:
    """One instruction of a passage (`apply sticker S`, `read N`, ...)."""
    return {
        "type": "object",
        "properties": {
            "do": {
                "enum": [
                    "sticker",
                    "checkmark",
                    "mark",
                    "read",
                    "fetch",
                    "destroy",
                    "contract",
                    "patron",
                    "board",
                ]
            },
            "name": NAME,
            "track": NAME,
            "card": {"type": "integer", "minimum": 1},
            "passage": {"type": "integer", "minimum": 1},
            "at": AT,
        },
        "required": ["do", "at"],
        "additionalProperties": False,
    }


def _passage() -> dict[str, Any]:
    """`passage N { "text"; DO...; choice "label" reads M }`."""
    return closed(
        {
            "number": {"type": "integer", "minimum": 1},
            "text": {"type": "string"},
            "prologue": {"type": "integer", "minimum": 1},
            "epilogue": {"type": "integer", "minimum": 1},
            "do": _list(_step_do()),
            "choices": _list(
                closed(
                    {"label": {"type": "string"}, "read": {"type": "integer"}, "at": AT},
                    ["label", "read", "at"],
                )
            ),
            "at": AT,
        },
        ["number", "text", "do", "at"],
    )


def _patron() -> dict[str, Any]:
    """`patron NAME { TRIGGER: EFFECTS }`."""
    return closed({"name": NAME, "triggers": _of("trigger"), "at": AT}, ["name", "triggers", "at"])


def _contract() -> dict[str, Any]:
    """`contract NAME { complete [if COND]: EFFECTS; start: ...; end: ... }`."""
    return closed(
        {
            "name": NAME,
            "if": {"$ref": "#/$defs/condition"},
            "effects": {"$ref": "#/$defs/effects"},
            # Instructions for the start of the game and for its end (post-game).
            "start": {"$ref": "#/$defs/effects"},
            "end": {"$ref": "#/$defs/effects"},
            "passage": {"type": "integer", "minimum": 1},
            "at": AT,
        },
        ["name", "effects", "at"],
    )


def _goal() -> dict[str, Any]:
    """`goal NAME { player N; boxes N; TRIGGER }`: a row of boxes on one player's sheet."""
    return closed(
        {
            "name": NAME,
            "player": {"type": "integer", "minimum": 1},
            "boxes": {"type": "integer", "minimum": 1, "maximum": 20},
            "trigger": {"$ref": "#/$defs/trigger"},
            "at": AT,
        },
        ["name", "player", "boxes", "trigger", "at"],
    )


def _campaign() -> dict[str, Any]:
    """`campaign { status NAME ...; track NAME { ... }; death marks TRACK reads P }`."""
    return closed(
        {
            "statuses": _list(
                closed(
                    {"name": NAME, "checkmark": PASSAGE_NO, "reads": PASSAGE_NO, "at": AT},
                    ["name", "checkmark", "reads", "at"],
                )
            ),
            # The pack's own tracks (`track NAME { spaces N; space K reads P }`), in order.
            "tracks": _list(
                closed(
                    {
                        "name": NAME,
                        "spaces": {"type": "integer", "minimum": 0},
                        "reads": {"type": "object", "additionalProperties": PASSAGE_NO},
                        "at": AT,
                    },
                    ["name", "spaces", "reads", "at"],
                )
            ),
            # A player death (`death marks TRACK reads P`): the track it marks, the passage.
            "death": closed({"marks": NAME, "reads": PASSAGE_NO, "at": AT}, ["at"]),
            "at": AT,
        },
        ["statuses", "tracks", "at"],
    )


def _sticker() -> dict[str, Any]:
    """`sticker NAME { fills SLOT: EFFECTS }`, or a board or card sticker."""
    return closed(
        {
            "name": NAME,
            "fills": NAME,
            "fills_at": AT,
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot bound to a rule parameter takes rule values (`market price 5`).
            "rules": {"type": "object"},
            # A Franchise Board sticker's permanent abilities (rules triggers).
            "abilities": _of("trigger"),
            # Spaces and paths a board sticker adds to a board (each a board of the pack's).
            "boards": _list({"type": "object"}),
            # Board and card stickers: extension edits (dsl/extends.py edit_to_ir).
            "edits": _edits(),
            "at": AT,
        },
        ["name", "at"],
    )


def _award() -> dict[str, Any]:
    """`most COUNT: P1, P2, ... points` (or `fewest`), with how ties split."""
    return closed(
        {
            "count": {"$ref": "#/$defs/count"},
            "fewest": {"type": "boolean"},
            "points": {
                "type": "array",
                "items": {"type": "integer", "minimum": -100, "maximum": 1000},
                "minItems": 1,
            },
            "ties": {"enum": list(TIES)},
            "at": AT,
        },
        ["count", "fewest", "points", "ties"],
    )


def _on_board() -> dict[str, Any]:
    """`on board NAME { ... }`: rule values, triggers, steps, counters, cards, tokens, edits."""
    return closed(
        {
            "board": NAME,
            "at": AT,
            "board_at": AT,
            # The rule values the board changes, as the `rules` object writes them.
            "rules": {
                "type": "object",
                "propertyNames": {"enum": [*(p.key for p in RULE_PARAMS), "at"]},
            },
            "triggers": _of("trigger"),
            "steps": _list(_step()),
            "counters": _list(_counter()),
            "cards": _of("card"),
            "tokens": _of("token"),
            "edits": _edits(),
            "dragon": {"$ref": "#/$defs/dragon"},
        },
        ["board", "at", "board_at"],
    )


def _hold() -> dict[str, Any]:
    """`holds N WHAT` on a space or path."""
    return closed(
        {
            "what": {"type": "string", "minLength": 1},
            "n": {"type": "integer", "minimum": 1},
            "at": AT,
        },
        ["what", "n", "at"],
    )


def _space() -> dict[str, Any]:
    """A space of a board: features, triggers, what it holds, actions."""
    return closed(
        {
            "name": NAME,
            "features": _words(),
            "exhausts": {"type": "boolean"},
            "triggers": _of("trigger"),
            "holds": _list(_hold()),
            "coach": {"type": "integer", "minimum": 0},
            "waypoint": {"type": "integer", "minimum": 1},
            "artifact": {"type": "integer", "minimum": 1},
            "pos": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "group": {"type": "string"},
            "actions": _of("action"),
            # Words a held token must grant to enter the space (`requires WORD`).
            "requires": _words(),
            # The module side a space belongs to (a modular board; interpreter/assembly.py).
            "module": NAME,
            "side": NAME,
            "at": AT,
        },
        ["name", "features", "exhausts", "triggers", "holds", "at"],
    )


_PATH_REQUIRED = ["from", "to", "oneway", "boots", "monsters", "requires", "features", "at"]


def _path_props() -> dict[str, Any]:
    """What a path and a modular board's join share."""
    return {
        "oneway": {"type": "boolean"},
        # The price in the way's resource (boots for a tunnel, the default way).
        "boots": {"type": "integer", "minimum": 1},
        "way": NAME,
        "monsters": {"type": "integer", "minimum": 0},
        "requires": _words(),
        "features": _words(),
        "triggers": _of("trigger"),
        # Tokens laid on the path at setup (from the supply).
        "holds": _list(_hold()),
        # Open only while a switch of the board is in one of these states.
        "switch": closed(
            {
                "name": NAME,
                "states": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            },
            ["name", "states"],
        ),
        "at": AT,
        "from_at": AT,
        "to_at": AT,
    }


def _path() -> dict[str, Any]:
    """`path A -- B { ... }` (`to` is null for a path off the board)."""
    return closed(
        {
            "from": NAME,
            "to": {"type": ["string", "null"]},
            **_path_props(),
            "module": NAME,
            "side": NAME,
        },
        _PATH_REQUIRED,
    )


def _modular_parts() -> dict[str, Any]:
    """A modular board (dsl/modules.py): positions, joins between their connection points,
    and the modules' sides with the space at each point."""
    end = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
    choice = closed({"module": NAME, "side": NAME}, ["module", "side"])
    side = closed(
        {
            "name": NAME,
            "points": {"type": "object", "additionalProperties": {"type": "string"}},
            "at": AT,
        },
        ["name", "points", "at"],
    )
    return {
        "positions": _list(
            closed({"name": NAME, "choices": _list(choice), "at": AT}, ["name", "choices", "at"])
        ),
        "joins": _list(closed({"from": end, "to": end, **_path_props()}, _PATH_REQUIRED)),
        "modules": _list(
            closed(
                {
                    "name": NAME,
                    "points": _words(),
                    "sides": {"type": "array", "items": side, "minItems": 1},
                    "at": AT,
                },
                ["name", "points", "sides", "at"],
            )
        ),
    }


def _board() -> dict[str, Any]:
    """A board: its spaces, paths and groups, and a modular board's parts."""
    group = closed({"name": NAME, "kind": {"type": "string"}, "at": AT}, ["name", "kind", "at"])
    return closed(
        {
            "name": NAME,
            "spaces": _list(_space()),
            "paths": _list(_path()),
            "groups": _list(group),
            **_modular_parts(),
            "at": AT,
        },
        ["name", "spaces", "paths", "groups", "at"],
    )
