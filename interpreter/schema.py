"""The JSON Schema (Draft 2020-12) of a compiled pack, generated from the op registry.

`schemas/pack.schema.json` is this output; tests/interpreter/test_schema.py fails when the
committed file is stale. Regenerate it with `clankwork schema --write`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Registry
from .effects.ranking import TIES
from .effects.registry import RESOURCES
from .rules import RULE_PARAMS, rules_schema

SCHEMA_ID = "https://clankwork.invalid/schemas/pack.schema.json"


def _closed(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _chain(registry: Registry, key: str) -> dict[str, Any]:
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


def pack_schema() -> dict[str, Any]:
    """The whole pack IR schema."""
    span = _closed(
        {
            "file": {"type": "string"},
            "line": {"type": "integer", "minimum": 1},
            "col": {"type": "integer", "minimum": 1},
            "end_line": {"type": "integer", "minimum": 1},
            "end_col": {"type": "integer", "minimum": 1},
        },
        ["file", "line", "col", "end_line", "end_col"],
    )
    at = {"$ref": "#/$defs/span"}
    trigger = _closed(
        {
            "on": {"enum": TRIGGERS.names()},
            "if": {"$ref": "#/$defs/condition"},
            "limit": {"enum": ["turn", "game"]},
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot bound to this moment (`slot R13 whenever you heal`), and the
            # sticker filling it.
            "slot": {"type": "string", "minLength": 1},
            "sticker": {"type": "string", "minLength": 1},
            "at": at,
        },
        ["on", "effects", "at"],
    )
    points_per = _closed(
        {"points": {"type": "integer"}, "per": {"$ref": "#/$defs/count"}}, ["points", "per"]
    )
    name = {"type": "string", "minLength": 1}
    # `action [NAME] [once per turn|game|module] [if COND]: [PRICE ->] EFFECTS` on a space
    # or token.
    action = _closed(
        {
            "name": name,
            "limit": {"enum": ["turn", "game", "module"]},
            "if": {"$ref": "#/$defs/condition"},
            "cost": {"$ref": "#/$defs/effects"},
            "effects": {"$ref": "#/$defs/effects"},
            "at": at,
        },
        ["cost", "effects", "at"],
    )
    actions = {"type": "array", "items": {"$ref": "#/$defs/action"}}
    resource = _closed(
        {
            "name": name,
            "keep": {"enum": ["turn", "game"]},
            "words": {"type": "array", "items": {"type": "string"}},
            "at": at,
        },
        ["name", "keep", "words", "at"],
    )
    way = _closed(
        {
            "name": name,
            "paid_in": name,
            "requires": {"type": "array", "items": {"type": "string"}},
            "exhausts": {"type": "boolean"},
            "while_exhausted": {"type": "boolean"},
            "teleport": {"type": "boolean"},
            "within": {"type": "array", "items": {"type": "string"}},
            # The price of a `within` move (default 1), and tokens that close the way where
            # they lie.
            "cost": {"type": "integer", "minimum": 0, "maximum": 100},
            "blocked_by": {"type": "array", "items": {"type": "string"}},
            "at": at,
        },
        ["name", "paid_in", "requires", "exhausts", "while_exhausted", "teleport", "at"],
    )
    card = _closed(
        {
            "name": name,
            "deck": {"enum": ["starting", "adventure", "reserve", "cardporium"]},
            "cardporium": {"type": "integer", "minimum": 1},
            "type": {"enum": ["acquire", "monster", "event"]},
            "copies": {"type": "integer", "minimum": 1},
            "cost": {"type": "integer", "minimum": 0},
            "fight": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": points_per,
            "tags": {"type": "array", "items": {"type": "string"}},
            "dragon": {"type": "boolean"},
            "danger": {"type": "boolean"},
            # A reserve monster out of play until an effect flips it in.
            "aside": {"type": "boolean"},
            "only_in": {"type": "string"},
            "not_in": {"type": "string"},
            # The card's picture: a path inside the pack folder (`art "art/goblin.png"`).
            "art": {"type": "string", "minLength": 1},
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "at": at,
        },
        ["name", "deck", "type", "copies", "points", "tags", "dragon", "danger", "triggers", "at"],
    )
    token = _closed(
        {
            "name": name,
            "kind": {
                "enum": ["major", "minor", "market", "artifact", "mug", "fruit", "cube", "other"]
            },
            "count": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": points_per,
            "gold": {"type": "integer", "minimum": 0},
            "type": {"type": "string"},
            "grants": {"type": "array", "items": {"type": "string"}},
            "returns": {"type": "boolean"},
            # Lying on a path: what becomes of it when someone crosses, the boots it adds.
            "crossed": {"enum": ["stays", "removed", "taken"]},
            "extra_boots": {"type": "integer", "minimum": 0, "maximum": 100},
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "actions": actions,
            "at": at,
        },
        ["name", "kind", "count", "points", "gold", "type", "grants", "returns", "triggers", "at"],
    )
    step_name = {"type": "string", "minLength": 1, "maxLength": 200}
    step = _closed(
        {
            "change": {"enum": ["insert", "replace", "remove"]},
            "step": step_name,
            "before": step_name,
            "after": step_name,
            "replaces": step_name,
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot (`slot R10 after setup.players`) and the sticker filling it; the
            # engine step a slot covers (`slot R21 covers end_of_turn.dragon_attack`).
            "slot": name,
            "sticker": name,
            "covers": step_name,
            "at": at,
        },
        ["change", "step", "at"],
    )
    step_do = {
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
            "name": name,
            "track": name,
            "card": {"type": "integer", "minimum": 1},
            "passage": {"type": "integer", "minimum": 1},
            "at": at,
        },
        "required": ["do", "at"],
        "additionalProperties": False,
    }
    passage = _closed(
        {
            "number": {"type": "integer", "minimum": 1},
            "text": {"type": "string"},
            "prologue": {"type": "integer", "minimum": 1},
            "epilogue": {"type": "integer", "minimum": 1},
            "do": {"type": "array", "items": step_do},
            "choices": {
                "type": "array",
                "items": _closed(
                    {"label": {"type": "string"}, "read": {"type": "integer"}, "at": at},
                    ["label", "read", "at"],
                ),
            },
            "at": at,
        },
        ["number", "text", "do", "at"],
    )
    patron = _closed(
        {
            "name": name,
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "at": at,
        },
        ["name", "triggers", "at"],
    )
    contract = _closed(
        {
            "name": name,
            "if": {"$ref": "#/$defs/condition"},
            "effects": {"$ref": "#/$defs/effects"},
            # Instructions for the start of the game and for its end (post-game).
            "start": {"$ref": "#/$defs/effects"},
            "end": {"$ref": "#/$defs/effects"},
            "passage": {"type": "integer", "minimum": 1},
            "at": at,
        },
        ["name", "effects", "at"],
    )
    goal = _closed(
        {
            "name": name,
            "player": {"type": "integer", "minimum": 1},
            "boxes": {"type": "integer", "minimum": 1, "maximum": 20},
            "trigger": {"$ref": "#/$defs/trigger"},
            "at": at,
        },
        ["name", "player", "boxes", "trigger", "at"],
    )
    rule_slot = _closed(
        {"slot": name, "rule": {"type": "string"}, "at": at},
        ["slot", "rule", "at"],
    )
    passage_no = {"type": "integer", "minimum": 1}
    campaign = _closed(
        {
            "statuses": {
                "type": "array",
                "items": _closed(
                    {"name": name, "checkmark": passage_no, "reads": passage_no, "at": at},
                    ["name", "checkmark", "reads", "at"],
                ),
            },
            # The pack's own tracks (`track NAME { spaces N; space K reads P }`), in order.
            "tracks": {
                "type": "array",
                "items": _closed(
                    {
                        "name": name,
                        "spaces": {"type": "integer", "minimum": 0},
                        "reads": {"type": "object", "additionalProperties": passage_no},
                        "at": at,
                    },
                    ["name", "spaces", "reads", "at"],
                ),
            },
            # A player death (`death marks TRACK reads P`): the track it marks, the passage.
            "death": _closed({"marks": name, "reads": passage_no, "at": at}, ["at"]),
            "at": at,
        },
        ["statuses", "tracks", "at"],
    )
    edits = {
        "type": "array",
        "items": _closed(
            {
                "verb": {"enum": ["change", "replace", "remove"]},
                "kind": {"type": "string"},
                "name": {"type": "string"},
                "board": {"type": "string"},
                "item": {"type": "object"},
                "fields": {"type": "array", "items": {"type": "string"}},
                "ends": {"type": "array", "maxItems": 3},
                "at": at,
                "name_at": at,
            },
            ["verb", "kind", "name", "at", "name_at"],
        ),
    }
    sticker = _closed(
        {
            "name": name,
            "fills": name,
            "fills_at": at,
            "effects": {"$ref": "#/$defs/effects"},
            # A rule slot bound to a rule parameter takes rule values (`market price 5`).
            "rules": {"type": "object"},
            # A Franchise Board sticker's permanent abilities (rules triggers).
            "abilities": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            # Spaces and paths a board sticker adds to a board (each a board of the pack's).
            "boards": {"type": "array", "items": {"type": "object"}},
            # Board and card stickers: extension edits (dsl/extends.py edit_to_ir).
            "edits": edits,
            "at": at,
        },
        ["name", "at"],
    )
    award = _closed(
        {
            "count": {"$ref": "#/$defs/count"},
            "fewest": {"type": "boolean"},
            "points": {
                "type": "array",
                "items": {"type": "integer", "minimum": -100, "maximum": 1000},
                "minItems": 1,
            },
            "ties": {"enum": list(TIES)},
            "at": at,
        },
        ["count", "fewest", "points", "ties"],
    )
    counter = _closed(
        {"name": name, "max": {"type": "integer", "minimum": 1, "maximum": 1000}, "at": at},
        ["name", "max", "at"],
    )
    on_board = _closed(
        {
            "board": name,
            "at": at,
            "board_at": at,
            # The rule values the board changes, as the `rules` object writes them.
            "rules": {
                "type": "object",
                "propertyNames": {"enum": [*(p.key for p in RULE_PARAMS), "at"]},
            },
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "steps": {"type": "array", "items": step},
            "counters": {"type": "array", "items": counter},
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
            "tokens": {"type": "array", "items": {"$ref": "#/$defs/token"}},
            "edits": edits,
            "dragon": {"$ref": "#/$defs/dragon"},
        },
        ["board", "at", "board_at"],
    )
    hold = _closed(
        {
            "what": {"type": "string", "minLength": 1},
            "n": {"type": "integer", "minimum": 1},
            "at": at,
        },
        ["what", "n", "at"],
    )
    space = _closed(
        {
            "name": name,
            "features": {"type": "array", "items": {"type": "string"}},
            "exhausts": {"type": "boolean"},
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "holds": {"type": "array", "items": hold},
            "coach": {"type": "integer", "minimum": 0},
            "waypoint": {"type": "integer", "minimum": 1},
            "artifact": {"type": "integer", "minimum": 1},
            "pos": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "group": {"type": "string"},
            "actions": actions,
            # Words a held token must grant to enter the space (`requires WORD`).
            "requires": {"type": "array", "items": {"type": "string"}},
            # The module side a space belongs to (a modular board; interpreter/assembly.py).
            "module": name,
            "side": name,
            "at": at,
        },
        ["name", "features", "exhausts", "triggers", "holds", "at"],
    )
    path_props: dict[str, Any] = {
        "oneway": {"type": "boolean"},
        # The price in the way's resource (boots for a tunnel, the default way).
        "boots": {"type": "integer", "minimum": 1},
        "way": name,
        "monsters": {"type": "integer", "minimum": 0},
        "requires": {"type": "array", "items": {"type": "string"}},
        "features": {"type": "array", "items": {"type": "string"}},
        "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
        # Tokens laid on the path at setup (from the supply).
        "holds": {"type": "array", "items": hold},
        # Open only while a switch of the board is in one of these states.
        "switch": _closed(
            {
                "name": name,
                "states": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            },
            ["name", "states"],
        ),
        "at": at,
        "from_at": at,
        "to_at": at,
    }
    path_required = ["from", "to", "oneway", "boots", "monsters", "requires", "features", "at"]
    path = _closed(
        {
            "from": name,
            "to": {"type": ["string", "null"]},
            **path_props,
            "module": name,
            "side": name,
        },
        path_required,
    )
    # A modular board (dsl/modules.py): positions, joins between their connection points,
    # and the modules' sides with the space at each point.
    end = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
    join = _closed({"from": end, "to": end, **path_props}, path_required)
    choice = _closed({"module": name, "side": name}, ["module", "side"])
    position = _closed(
        {"name": name, "choices": {"type": "array", "items": choice}, "at": at},
        ["name", "choices", "at"],
    )
    side = _closed(
        {
            "name": name,
            "points": {"type": "object", "additionalProperties": {"type": "string"}},
            "at": at,
        },
        ["name", "points", "at"],
    )
    module = _closed(
        {
            "name": name,
            "points": {"type": "array", "items": {"type": "string"}},
            "sides": {"type": "array", "items": side, "minItems": 1},
            "at": at,
        },
        ["name", "points", "sides", "at"],
    )
    group = _closed({"name": name, "kind": {"type": "string"}, "at": at}, ["name", "kind", "at"])
    board = _closed(
        {
            "name": name,
            "spaces": {"type": "array", "items": space},
            "paths": {"type": "array", "items": path},
            "groups": {"type": "array", "items": group},
            "positions": {"type": "array", "items": position},
            "joins": {"type": "array", "items": join},
            "modules": {"type": "array", "items": module},
            "at": at,
        },
        ["name", "spaces", "paths", "groups", "at"],
    )
    pack = _closed(
        {
            "name": name,
            "version": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            # The bases the pack is built on, its own base first (dsl/extends.py).
            "extends": {
                "type": "array",
                "items": _closed(
                    {
                        "name": name,
                        "version": {"type": "string"},
                        "ref": {"type": "string"},
                        "at": at,
                    },
                    ["name", "version", "ref"],
                ),
            },
            "at": at,
        },
        ["name", "version", "extends"],
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Clankwork compiled pack (IR)",
        "description": "Generated from the op registry by clankwork.interpreter.schema.",
        **_closed(
            {
                "format": {"const": "clankwork-ir/1"},
                "pack": pack,
                "rules": {"$ref": "#/$defs/rules"},
                "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                "tokens": {"type": "array", "items": {"$ref": "#/$defs/token"}},
                "boards": {"type": "array", "items": board},
                "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
                "steps": {"type": "array", "items": step},
                "counters": {"type": "array", "items": counter},
                # Ranked awards at the end of the game (`most veins: 7 points, ...`).
                "awards": {"type": "array", "items": award},
                "resources": {"type": "array", "items": resource},
                # Other words for a base resource (`resource gold { word credits }`): a
                # compile-time name an extension of the pack may use too.
                "resource_aliases": {
                    "type": "object",
                    "additionalProperties": {"enum": sorted(set(RESOURCES))},
                },
                "ways": {"type": "array", "items": way},
                # What the pack calls the antagonist who attacks (`dragon { name "..."; word
                # WORD }`): display only, "the dragon" and "dragon" when absent.
                "dragon": {"$ref": "#/$defs/dragon"},
                "stickers": {"type": "array", "items": sticker},
                "passages": {"type": "array", "items": passage},
                "contracts": {"type": "array", "items": contract},
                "patrons": {"type": "array", "items": patron},
                "goals": {"type": "array", "items": goal},
                "rule_slots": {"type": "array", "items": rule_slot},
                "campaign": campaign,
                # What differs on one board (`on board NAME { ... }`), laid over the pack
                # when a game is set up on it (interpreter/on_board.py).
                "on_board": {"type": "array", "items": on_board},
                # A campaign game: passages are read as they happen (dsl/stickers.py).
                "campaign_game": {"type": "boolean"},
                # The contracts open in the Contracts row (a campaign's, dsl/stickers.py).
                "open_contracts": {"type": "array", "items": name},
            },
            [
                "format",
                "pack",
                "rules",
                "cards",
                "tokens",
                "boards",
                "triggers",
                "steps",
                "counters",
                "stickers",
                "passages",
                "contracts",
            ],
        ),
        "$defs": {
            "span": span,
            "effect": _chain(EFFECTS, "op"),
            "effects": {"type": "array", "items": {"$ref": "#/$defs/effect"}},
            "condition": _chain(CONDITIONS, "cond"),
            "count": _chain(COUNTS, "count"),
            "trigger": trigger,
            "action": action,
            "card": card,
            "token": token,
            "rules": rules_schema(),
            "dragon": _closed(
                {
                    "name": {"type": "string", "minLength": 1},
                    "word": {"type": "string", "minLength": 1},
                    "at": at,
                },
                ["name", "word"],
            ),
        },
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(pack_schema(), indent=2, sort_keys=False) + "\n"


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(pack_schema())


@lru_cache(maxsize=1)
def fast_validator() -> Any:
    """The pack schema compiled by jsonschema-rs (a Rust validator of the same Draft 2020-12
    schema): it confirms 100,000 cards in well under a second, where jsonschema takes minutes.
    """
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(pack_schema())


def validate_ir(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors of an IR document as (JSON path, message) pairs; empty when valid.

    Every document is checked in full against the whole schema, whether it was just compiled
    or read from a `.json` file someone else wrote. A valid document (the usual case) is
    confirmed by `fast_validator`; only a document it rejects goes through jsonschema, which
    has the final word and the messages the rest of Clankwork quotes."""
    if fast_validator().is_valid(ir):
        return resource_errors(ir)
    return reference_errors(ir) or resource_errors(ir)


def resource_errors(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Effect nodes and ways naming a resource that is neither a base one nor one of the
    pack's `resources`, negative gains of anything but Clank! (CW131), and paths naming an
    undeclared way (a schema cannot tie them together), as (JSON path, message)."""
    known = set(RESOURCES) | {r.get("name") for r in ir.get("resources", ()) if isinstance(r, dict)}
    out: list[tuple[str, str]] = []

    # The JSON path is the keys walked so far, joined only for an error: formatting it at
    # every node was most of the time of checking a big pack's IR.
    at: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            res = node.get("resource") if "op" in node else None
            if isinstance(res, str) and res not in known:
                out.append(("/".join([*at, "resource"]), f"{res!r} is not a resource of the pack"))
            amount = node.get("amount")
            if (
                node.get("op") in ("gain", "bonus_on_gain")
                and isinstance(amount, int)
                and amount < 0
                and res != "clank"
            ):
                out.append(
                    (
                        "/".join([*at, "amount"]),
                        f"a negative gain of {res!r} takes what the pool may not hold: write "
                        "a price (`spend`) or a status (`forbid`) (CW131)",
                    )
                )
            items: Any = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            return
        for k, v in items:
            if isinstance(v, (dict, list)):
                at.append(str(k))
                walk(v)
                at.pop()

    for key in ("cards", "tokens", "boards"):
        at[:] = [key]
        walk(ir.get(key))
    ways = {w.get("name") for w in ir.get("ways", ()) if isinstance(w, dict)}
    for b, board in enumerate(ir.get("boards", ())):
        for k, p in enumerate(board.get("paths", ()) if isinstance(board, dict) else ()):
            if isinstance(p, dict) and "way" in p and p["way"] not in ways:
                out.append((f"boards/{b}/paths/{k}/way", f"{p['way']!r} is not a way of the pack"))
    for i, way in enumerate(ir.get("ways", ())):
        if isinstance(way, dict) and way.get("paid_in") not in known:
            out.append(
                (f"ways/{i}/paid_in", f"{way.get('paid_in')!r} is not a resource of the pack")
            )
    return out


def reference_errors(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors found by jsonschema itself (the reference the fast validator must
    agree with; the test suite checks the bundled packs with it)."""
    out = []
    validator = _validator()
    for err in sorted(validator.iter_errors(ir), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path)
        out.append((path or "(root)", err.message))
    return out
