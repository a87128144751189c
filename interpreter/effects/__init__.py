"""The effect ops, conditions and counts. Importing this package registers every record."""

from . import (  # noqa: F401
    components,
    conditions,
    dragon,
    places,
    player,
    resources,
    structure,
    tracks,
    triggers,
)
from .registry import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "TRIGGERS", "Record", "Registry"]
