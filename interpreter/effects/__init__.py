"""The effect ops, conditions and counts. Importing this package registers every record."""

from . import conditions, dragon, player, resources, structure  # noqa: F401
from .registry import CONDITIONS, COUNTS, EFFECTS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "Record", "Registry"]
