"""The effect ops, conditions and counts. Importing this package registers every record."""

# Registration order is the order of the language reference and of phrase matching: the
# base ops first, then the ops added for later packs (one module each).
from . import conditions, dragon, player, resources, structure  # noqa: F401, I001
from . import reserve_cards, row_replacement, token_counts, turn_modifiers  # noqa: F401
from .registry import CONDITIONS, COUNTS, EFFECTS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "Record", "Registry"]
