"""The effect ops, conditions and counts. Importing this package registers every record."""

# Registration order is the order of the language reference and of phrase matching: the
# base ops first, then the ops added for later packs (one module each).
from . import conditions, dragon, player, resources, structure  # noqa: F401, I001
from . import (  # noqa: F401
    components,
    places,
    reserve_cards,
    row_replacement,
    token_counts,
    tracks,
    triggers,
    turn_modifiers,
)

# Records added for expansion packs, one file each, named for what they do.
from . import after_action, take_elsewhere, token_presence  # noqa: F401, E402, I001
from . import defeat_here, entry_toll, face_down_deal, stay_in_play  # noqa: F401, E402
from . import cube_tokens, path_changes, placing  # noqa: F401, E402
from . import campaign  # noqa: F401, E402
from . import logic, ranking  # noqa: F401, E402
from . import prices, statuses  # noqa: F401, E402
from . import counted_amounts, random_outcome  # noqa: F401, E402
from .registry import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Record, Registry

__all__ = ["CONDITIONS", "COUNTS", "EFFECTS", "TRIGGERS", "Record", "Registry"]
