"""The format of a campaign file's lines (tools/campaign.py) and their JSON Schema, as
`clankwork schema --write` writes it to schemas/campaign.schema.json."""

from __future__ import annotations

import json
from typing import Any

FORMAT = "clankwork-campaign/2"
# Files of format 1 kept one rival's track under a fixed name; format 2 keeps an X count
# for each campaign track the pack declares. A file of format 1 is refused, with why.
OLD_FORMATS = ("clankwork-campaign/1",)


def campaign_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a campaign file."""
    seq = {"type": "integer", "minimum": 1}
    check = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
    game_no = {"type": "integer", "minimum": 1}
    ints = {"type": "array", "items": {"type": "integer"}}
    marks = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}

    def event(t: str, props: dict[str, Any], optional: dict[str, Any] | None = None) -> dict:
        return {
            "type": "object",
            "properties": {
                "type": {"const": t},
                "seq": seq,
                "check": check,
                **props,
                **(optional or {}),
            },
            "required": ["type", "seq", "check", *props],
            "additionalProperties": False,
        }

    reading = {
        "type": "object",
        "properties": {
            "read": {
                "type": "array",
                "items": {
                    "type": "array",
                    "prefixItems": [{"type": "integer"}, {"type": ["integer", "null"]}],
                    "minItems": 2,
                    "maxItems": 2,
                },
            },
            "stickers": {"type": "array", "items": {"type": "string"}},
            "checkmarks": {"type": "integer", "minimum": 0},
            # X on each campaign track, by the track's name in the pack.
            "marks": marks,
            "fetched": ints,
            "destroyed": {"type": "array", "items": {"type": "string"}},
            "contracts": {"type": "array", "items": {"type": "string"}},
            "patron": {"type": "string"},
            "board": {"type": "string"},
            # The seat the passages were directed at, who made their choices.
            "by": {"type": "integer", "minimum": 0},
        },
        "required": [
            "read",
            "stickers",
            "checkmarks",
            "marks",
            "fetched",
            "destroyed",
            "contracts",
        ],
        "additionalProperties": False,
    }

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://clankwork.invalid/schemas/campaign.schema.json",
        "title": "One line (event) of a Clankwork campaign file",
        "oneOf": [
            event(
                "campaign",
                {
                    "format": {"const": FORMAT},
                    "pack": {"type": "string"},
                    "pack_name": {"type": "string"},
                    "players": {"type": "integer", "minimum": 1, "maximum": 8},
                    "names": {"type": "array", "items": {"type": "string"}},
                    "seed": {"type": "integer", "minimum": 0},
                    "bots": {"type": "array", "items": {"type": "string"}},
                },
                # `pack` is a bundled pack's name (else a path relative to the file).
                {"bundled": {"type": "boolean"}},
            ),
            event(
                "game",
                {
                    "game": game_no,
                    "seed": {"type": "integer", "minimum": 0},
                    "scores": ints,
                    "winners": ints,
                    "status": {"type": "array", "items": {"type": "string"}},
                    "rounds": {"type": "integer", "minimum": 0},
                    "end": {"type": "string"},
                    "review": {
                        "type": "object",
                        "properties": {
                            "checkmarks": {
                                "type": "array",
                                "items": {"type": "array", "items": {"type": "string"}},
                            },
                            "promotions": {
                                "type": "array",
                                "items": {
                                    "type": "array",
                                    "prefixItems": [{"type": "integer"}, {"type": "string"}],
                                    "minItems": 2,
                                    "maxItems": 2,
                                },
                            },
                        },
                        "required": ["checkmarks", "promotions"],
                        "additionalProperties": False,
                    },
                    "death": {"type": "boolean"},
                    "stickers": {"type": "array", "items": {"type": "string"}},
                },
                {
                    "prologue": reading,
                    "epilogue": reading,
                    "contracts_completed": {
                        "type": "array",
                        "items": {
                            "type": "array",
                            "prefixItems": [{"type": "string"}, {"type": "integer"}],
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    },
                    # Passages read during the game, as they happened (a waypoint entered,
                    # a contract completed), with the choices made then.
                    "during": {"type": "array", "items": reading},
                    "contract_passages": {"type": "array", "items": reading},
                    # What the post-game steps read: promotions' entries, the campaign
                    # tracks' numbered spaces, `read N` of the game's rules (a death's passage).
                    "reads": {"type": "array", "items": reading},
                    # X the game itself added to each campaign track, by track name (a death,
                    # its rules' `add an X to the TRACK track`).
                    "marks": marks,
                    # Boxes of personal goals each player filled this game.
                    "goals": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": {"type": "integer", "minimum": 1},
                        },
                    },
                    "patron": {"type": "string"},
                    "board": {"type": "string"},
                    # The bots that played it (`play --bots` may change them for a game).
                    "bots": {"type": "array", "items": {"type": "string"}},
                    # A digest of a bot game's log (a recorded game has none).
                    "log": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
                    # A game played at the table and recorded (`campaign record`): its
                    # players' score parts, and what the game told them to do for the
                    # campaign (stickers, cards fetched and destroyed), as a reading.
                    "recorded": {"const": True},
                    "parts": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": {"type": "integer", "minimum": 0},
                        },
                    },
                    "table": reading,
                },
            ),
            event("sticker", {"name": {"type": "string"}, "before_game": game_no}),
            # `undoes`: the event taken back (the last one standing), `what` its type, with
            # its `game` number or sticker `name`; files from before undo took back any
            # event have only `game` (the last game standing with that number).
            event(
                "undo",
                {},
                {
                    "undoes": seq,
                    "what": {"enum": ["game", "sticker"]},
                    "game": game_no,
                    "name": {"type": "string"},
                },
            ),
        ],
    }


def campaign_schema_text() -> str:
    """The campaign line schema as written to schemas/campaign.schema.json."""
    return json.dumps(campaign_schema(), indent=2, sort_keys=True) + "\n"
