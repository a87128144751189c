"""The effect ops, conditions and counts. Importing this package registers every record."""

from . import conditions, dragon, places, player, resources, structure, triggers  # noqa: F401
from .registry import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "TRIGGERS", "Record", "Registry"]
