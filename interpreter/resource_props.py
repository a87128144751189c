"""The properties of a declared resource, one registered record each.

    resource favour { kept; word favours }

A `ResourceProperty` carries everything about one property: the words that write it, how its
value compiles, its IR key and default, its schema fragment and its doc. The compiler
(dsl/declarations.py decl_resource), the schema (schema_sections.py) and the IR reader
(pools.py `Resource`) read these records, so a new property is a record here and the engine
module that acts on it (docs/extending.md).

A property is written one of two ways:

- as a phrase that sets a value (`per turn`, `kept`): ``phrases`` maps each phrase's words
  to the IR value it writes;
- as a head word followed by words (`word W...`, `limit 5`): ``heads`` names the head words
  and ``value`` turns the words after it into the IR value (raising ValueError with the
  message to show when they are wrong). ``names`` marks the property whose words are other
  names of the resource (`word`): the compiler checks them against every resource's names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResourceProperty:
    """One property of `resource NAME { ... }`."""

    key: str  # its key in the resource's IR object
    doc: str
    schema: dict[str, Any]
    # What the resource's IR holds when the property is not written; None: nothing (the key
    # is then optional in the schema).
    default: Any = None
    phrases: dict[tuple[str, ...], Any] = field(default_factory=dict)
    heads: tuple[str, ...] = ()
    value: Callable[[list[str]], Any] | None = None
    names: bool = False
    # What a did-you-mean and completion offer for it, and how the hint of an unknown
    # property shows it.
    shown: tuple[str, ...] = ()
    usage: str = ""

    def compile(self, words: list[str]) -> Any:
        """The IR value of the property written as ``words`` (after the head word, for a
        property with ``heads``); ValueError says what is wrong."""
        if self.value is None:
            return self.phrases[tuple(words)]
        return self.value(words)

    def matches(self, words: list[str]) -> bool:
        """True when a statement's words write this property."""
        if tuple(words) in self.phrases:
            return True
        return bool(self.heads) and len(words) > 1 and words[0] in self.heads

    def read(self, ir: dict[str, Any]) -> Any:
        """The property's value in a resource's IR object (its default when absent)."""
        return ir.get(self.key, self.default)


RESOURCE_PROPERTIES: dict[str, ResourceProperty] = {}


def register(prop: ResourceProperty) -> ResourceProperty:
    """Add a property (after the registered ones: its key follows theirs in the IR)."""
    if prop.key in RESOURCE_PROPERTIES or prop.key in ("name", "at"):
        raise ValueError(f"resource property {prop.key!r} is registered twice")
    RESOURCE_PROPERTIES[prop.key] = prop
    return prop


def unregister(key: str) -> None:
    """Remove a property (a test's, when it is done)."""
    del RESOURCE_PROPERTIES[key]


def shown_words() -> tuple[str, ...]:
    """Every property's words as a designer writes them (`per turn`, `kept`, `word`)."""
    return tuple(w for p in RESOURCE_PROPERTIES.values() for w in p.shown)


def usage() -> str:
    """How the properties are written, for the hint of an unknown one."""
    shown = [p.usage for p in RESOURCE_PROPERTIES.values() if p.usage]
    return (
        "a resource takes "
        + (", ".join(shown[:-1]) + " and " if len(shown) > 1 else "")
        + shown[-1]
    )


def defaults() -> dict[str, Any]:
    """The IR keys every resource has, with their values when its block does not set them."""
    return {p.key: _fresh(p.default) for p in RESOURCE_PROPERTIES.values() if p.default is not None}


def _fresh(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def resource_schema(name: dict[str, Any], at: dict[str, Any]) -> dict[str, Any]:
    """The schema of a declared resource's IR object: its name, each property, its span."""
    props = {p.key: p.schema for p in RESOURCE_PROPERTIES.values()}
    required = [p.key for p in RESOURCE_PROPERTIES.values() if p.default is not None]
    return {
        "type": "object",
        "properties": {"name": name, **props, "at": at},
        "required": ["name", *required, "at"],
        "additionalProperties": False,
    }


register(
    ResourceProperty(
        key="keep",
        doc="Whether the resource is lost at the end of each turn, like boots (`per turn`, "
        "the default), or kept across turns, like gold (`kept`).",
        schema={"enum": ["turn", "game"]},
        default="turn",
        phrases={
            ("per", "turn"): "turn",
            ("lost", "at", "end", "of", "turn"): "turn",
            ("kept",): "game",
            ("kept", "across", "turns"): "game",
            ("kept", "like", "gold"): "game",
        },
        shown=("per turn", "kept"),
        usage="`per turn` (the default), `kept`",
    )
)
register(
    ResourceProperty(
        key="words",
        doc="Other words effects may call the resource by (`word special move`).",
        schema={"type": "array", "items": {"type": "string"}},
        default=[],
        heads=("word", "words"),
        value=lambda words: words,
        names=True,
        shown=("word",),
        usage="`word WORD`",
    )
)
