"""The compiler's declaration records (`registry.py`), one module per concern.

The modules are imported in the order of the declaration keywords (`DECL_KINDS`): the order
files list them in hints, completion and the docs.
"""

# isort: off
from . import pack, cards, tokens, boards, board_modules, places, rules, resources
from . import campaign, edits, on_board

# isort: on
from .registry import DECL_KINDS, DECLARATIONS, INSIDE, PROPERTIES, Declaration, declaration

__all__ = [
    "DECLARATIONS",
    "DECL_KINDS",
    "INSIDE",
    "PROPERTIES",
    "Declaration",
    "declaration",
    "pack",
    "cards",
    "tokens",
    "boards",
    "board_modules",
    "places",
    "rules",
    "resources",
    "campaign",
    "edits",
    "on_board",
]
