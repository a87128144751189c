"""The JSON Schema (Draft 2020-12) of a compiled pack, generated from the op registry.

`schemas/pack.schema.json` is this output; tests/interpreter/test_schema.py fails when the
committed file is stale. Regenerate it with `clankwork schema --write`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .effects import CONDITIONS, COUNTS, EFFECTS, Registry
from .rules import rules_schema

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
            "on": {"enum": ["play", "acquire", "arrive", "defeat", "use", "reveal", "enter"]},
            "if": {"$ref": "#/$defs/condition"},
            "effects": {"$ref": "#/$defs/effects"},
            "at": at,
        },
        ["on", "effects", "at"],
    )
    points_per = _closed(
        {"points": {"type": "integer"}, "per": {"$ref": "#/$defs/count"}}, ["points", "per"]
    )
    name = {"type": "string", "minLength": 1}
    card = _closed(
        {
            "name": name,
            "deck": {"enum": ["starting", "adventure", "reserve"]},
            "type": {"enum": ["acquire", "monster", "event"]},
            "copies": {"type": "integer", "minimum": 1},
            "cost": {"type": "integer", "minimum": 0},
            "fight": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": points_per,
            "tags": {"type": "array", "items": {"type": "string"}},
            "dragon": {"type": "boolean"},
            "danger": {"type": "boolean"},
            "only_in": {"type": "string"},
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "at": at,
        },
        ["name", "deck", "type", "copies", "points", "tags", "dragon", "danger", "triggers", "at"],
    )
    token = _closed(
        {
            "name": name,
            "kind": {"enum": ["major", "minor", "market", "artifact", "mug", "fruit", "other"]},
            "count": {"type": "integer", "minimum": 1},
            "points": {"type": "integer"},
            "points_per": points_per,
            "gold": {"type": "integer", "minimum": 0},
            "type": {"type": "string"},
            "grants": {"type": "array", "items": {"type": "string"}},
            "returns": {"type": "boolean"},
            "triggers": {"type": "array", "items": {"$ref": "#/$defs/trigger"}},
            "at": at,
        },
        ["name", "kind", "count", "points", "gold", "type", "grants", "returns", "triggers", "at"],
    )
    reward = _closed(
        {
            "kind": {"enum": ["gold", "minor secret", "major secret", "fruit", "draw", "heal"]},
            "n": {"type": "integer", "minimum": 1},
            "at": at,
        },
        ["kind", "n", "at"],
    )
    space = _closed(
        {
            "name": name,
            "features": {"type": "array", "items": {"type": "string"}},
            "exhausts": {"type": "boolean"},
            "rewards": {"type": "array", "items": reward},
            "coach": {"type": "integer", "minimum": 0},
            "waypoint": {"type": "integer", "minimum": 1},
            "artifact": {"type": "integer", "minimum": 1},
            "pos": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "group": {"type": "string"},
            "at": at,
        },
        ["name", "features", "exhausts", "rewards", "at"],
    )
    path = _closed(
        {
            "from": name,
            "to": {"type": ["string", "null"]},
            "oneway": {"type": "boolean"},
            "boots": {"type": "integer", "minimum": 1},
            "monsters": {"type": "integer", "minimum": 0},
            "requires": {"type": "array", "items": {"type": "string"}},
            "features": {"type": "array", "items": {"type": "string"}},
            "at": at,
            "from_at": at,
            "to_at": at,
        },
        ["from", "to", "oneway", "boots", "monsters", "requires", "features", "at"],
    )
    group = _closed({"name": name, "kind": {"type": "string"}, "at": at}, ["name", "kind", "at"])
    board = _closed(
        {
            "name": name,
            "spaces": {"type": "array", "items": space},
            "paths": {"type": "array", "items": path},
            "groups": {"type": "array", "items": group},
            "at": at,
        },
        ["name", "spaces", "paths", "groups", "at"],
    )
    line = _closed(
        {"text": {"type": "string"}, "effects": {"type": "string"}, "at": at}, ["text", "at"]
    )
    campaign_entry = _closed(
        {"name": {"type": "string"}, "lines": {"type": "array", "items": line}, "at": at},
        ["name", "lines", "at"],
    )
    pack = _closed(
        {
            "name": name,
            "version": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "extends": {"type": "array", "items": {"type": "string"}},
            "at": at,
        },
        ["name", "version", "extends"],
    )
    entries = {"type": "array", "items": {"$ref": "#/$defs/campaign_entry"}}
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
                "stickers": entries,
                "passages": entries,
                "contracts": entries,
            },
            [
                "format",
                "pack",
                "rules",
                "cards",
                "tokens",
                "boards",
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
            "card": card,
            "token": token,
            "rules": rules_schema(),
            "campaign_entry": campaign_entry,
        },
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(pack_schema(), indent=2, sort_keys=False) + "\n"


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(pack_schema())


def validate_ir(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors of an IR document as (JSON path, message) pairs; empty when valid.

    Every document is checked in full against the whole schema, whether it was just compiled
    or read from a `.json` file someone else wrote. A valid document (the usual case) is
    confirmed by the schema compiled to Python closures (`fast_validator`), which checks
    100,000 cards in a second or two where jsonschema takes minutes; only a document it
    rejects goes through jsonschema, which has the final word and the precise messages."""
    fast = fast_validator()
    if fast is not None and fast(ir):
        return []
    return reference_errors(ir)


def reference_errors(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """Schema errors found by jsonschema itself (the reference the fast validator must
    agree with; the test suite checks the bundled packs with it)."""
    out = []
    validator = _validator()
    for err in sorted(validator.iter_errors(ir), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path)
        out.append((path or "(root)", err.message))
    return out


# -- the schema compiled to closures -------------------------------------------------------
# jsonschema spends most of its time on machinery (a validator object per level, reference
# lookups, an if/then evaluated for each of the ~50 ops of every effect). The pack schema
# uses a dozen keywords, so it compiles to a tree of small functions that answer "valid or
# not" with plain dict and isinstance checks, and the op chains become one dict lookup.
# A keyword this compiler does not know makes it refuse the whole schema (validate_ir then
# uses jsonschema alone), so a schema change can make validation slower but never laxer.

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "title", "description", "default", "examples"}
)


class UnsupportedSchema(Exception):
    """The schema uses a keyword `compile_schema` does not implement."""


def _always(_x: Any) -> bool:
    return True


def _never(_x: Any) -> bool:
    return False


def _is_int(x: Any) -> bool:
    # JSON Schema's integer: not a bool (a Python int), a float only when integral.
    t = type(x)
    if t is int:
        return True
    if t is bool:
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_int,
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _all_of(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) and b(x)
    return lambda x: all(c(x) for c in checks)


class _SchemaCompiler:
    """Compiles one root schema; `$ref`s to `#/...` are compiled once and shared."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, pointer: str) -> Check:
        if pointer in self.refs:
            return self.refs[pointer]
        if not pointer.startswith("#/"):
            raise UnsupportedSchema(f"$ref {pointer!r}")
        target: Any = self.root
        for part in pointer[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        cell: list[Check] = []

        def deferred(x: Any) -> bool:  # a recursive ref (effects hold effects)
            return cell[0](x)

        self.refs[pointer] = deferred
        cell.append(self.compile(target))
        self.refs[pointer] = cell[0]
        return deferred

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise UnsupportedSchema(repr(schema))
        s = {k: v for k, v in schema.items() if k not in _ANNOTATIONS and k != "$defs"}
        checks: list[Check] = []
        obj_keys = {"properties", "required", "additionalProperties", "propertyNames"}
        types = s.pop("type", None)
        if isinstance(types, str):
            types = [types]
        if types == ["object"] or obj_keys & s.keys():
            checks.append(self._object(s, require_object=types == ["object"]))
            if types == ["object"]:
                types = None
        if types is not None:
            tests = [_TYPES[t] for t in types]
            checks.insert(0, tests[0] if len(tests) == 1 else lambda x: any(t(x) for t in tests))
        if "if" in s:
            cond, then = self.compile(s.pop("if")), self.compile(s.pop("then", True))
            other = self.compile(s.pop("else", True))
            checks.append(lambda x: then(x) if cond(x) else other(x))
        s.pop("then", None)  # without "if", "then" and "else" do nothing
        s.pop("else", None)
        for key, value in s.items():
            checks.append(self._keyword(key, value))
        return _all_of(checks)

    def _keyword(self, key: str, v: Any) -> Check:
        if key == "$ref":
            return self.ref(v)
        if key == "const":
            return self._enum([v])
        if key == "enum":
            return self._enum(list(v))
        if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            return _bound(key, v)
        if key == "minLength":
            return lambda x: not isinstance(x, str) or len(x) >= v
        if key == "maxLength":
            return lambda x: not isinstance(x, str) or len(x) <= v
        if key == "pattern":
            search = re.compile(v).search
            return lambda x: not isinstance(x, str) or search(x) is not None
        if key == "minItems":
            return lambda x: not isinstance(x, list) or len(x) >= v
        if key == "maxItems":
            return lambda x: not isinstance(x, list) or len(x) <= v
        if key == "items":
            item = self.compile(v)
            return lambda x: not isinstance(x, list) or all(item(i) for i in x)
        if key == "allOf":
            return self._all_of(v)
        raise UnsupportedSchema(key)

    def _enum(self, values: list[Any]) -> Check:
        if all(isinstance(v, str) for v in values):
            allowed = frozenset(values)
            if len(allowed) == 1:
                (only,) = allowed
                return lambda x: isinstance(x, str) and x == only
            return lambda x: isinstance(x, str) and x in allowed
        from jsonschema._utils import equal

        return lambda x: any(equal(x, v) for v in values)

    def _all_of(self, members: list[Any]) -> Check:
        dispatch = _discriminated(members)
        if dispatch is None:
            return _all_of([self.compile(m) for m in members])
        key, thens = dispatch
        table = {name: self.compile(then) for name, then in thens.items()}
        every = list(table.values())

        def chain(x: Any) -> bool:
            if isinstance(x, dict):
                tag = x.get(key)
                if isinstance(tag, str):
                    branch = table.get(tag)
                    return branch is None or branch(x)
                return True  # no "if" holds: the discriminator is missing or not a string
            return all(c(x) for c in every)  # "if" holds vacuously for a non-object

        return chain

    def _object(self, s: dict[str, Any], require_object: bool) -> Check:
        props = {k: self.compile(v) for k, v in s.pop("properties", {}).items()}
        required = tuple(s.pop("required", ()))
        extra = s.pop("additionalProperties", True)
        names = s.pop("propertyNames", None)
        extra_check = None if extra is False else self.compile(extra)
        names_check = None if names is None else self.compile(names)
        get = props.get

        def check(x: Any) -> bool:
            if not isinstance(x, dict):
                return not require_object
            for k in required:
                if k not in x:
                    return False
            for k, v in x.items():
                f = get(k)
                if f is None:
                    if extra_check is None or not extra_check(v):
                        return False
                elif not f(v):
                    return False
                if names_check is not None and not names_check(k):
                    return False
            return True

        return check


def _bound(key: str, limit: Any) -> Check:
    if key == "minimum":
        return lambda x: not _is_number(x) or x >= limit
    if key == "maximum":
        return lambda x: not _is_number(x) or x <= limit
    if key == "exclusiveMinimum":
        return lambda x: not _is_number(x) or x > limit
    return lambda x: not _is_number(x) or x < limit


def _discriminated(members: list[Any]) -> tuple[str, dict[str, Any]] | None:
    """``allOf`` of ``{if: {properties: {K: {const: NAME}}, required: [K]}, then: S}`` with
    one K and distinct string NAMEs (the shape `_chain` writes), as (K, {NAME: S})."""
    key = None
    thens: dict[str, Any] = {}
    for m in members:
        if not isinstance(m, dict) or set(m) != {"if", "then"}:
            return None
        cond = m["if"]
        if not isinstance(cond, dict) or set(cond) != {"properties", "required"}:
            return None
        props = cond["properties"]
        if not isinstance(props, dict) or len(props) != 1:
            return None
        ((k, sub),) = props.items()
        if cond["required"] != [k] or not isinstance(sub, dict) or set(sub) != {"const"}:
            return None
        name = sub["const"]
        if not isinstance(name, str) or name in thens or (key is not None and k != key):
            return None
        key = k
        thens[name] = m["then"]
    if key is None:
        return None
    return key, thens


def compile_schema(schema: dict[str, Any]) -> Check:
    """``schema`` as one function: True when a document is valid. Raises UnsupportedSchema
    when the schema uses a keyword this does not implement."""
    return _SchemaCompiler(schema).compile(schema)


@lru_cache(maxsize=1)
def fast_validator() -> Check | None:
    """The pack schema compiled by `compile_schema`, or None if it cannot be."""
    try:
        return compile_schema(pack_schema())
    except UnsupportedSchema:
        return None
