"""The effect ops, conditions and counts. Importing this package registers every record."""

from . import (  # noqa: F401
    conditions,
    dragon,
    player,
    reserve_cards,
    resources,
    row_replacement,
    structure,
    token_counts,
    turn_modifiers,
)
from .registry import CONDITIONS, COUNTS, EFFECTS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "Record", "Registry"]
