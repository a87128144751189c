"""The compiler's declaration records (`registry.py`), one module per concern.

`arrange` lists the modules in the order of their declaration keywords (`DECL_KINDS`): the
order hints, completion and the docs list them in.
"""

from . import (
    board_modules,
    boards,
    campaign,
    cards,
    edits,
    on_board,
    pack,
    places,
    resources,
    rules,
    tokens,
)
from .registry import (
    DECL_KINDS,
    DECLARATIONS,
    INSIDE,
    PROPERTIES,
    Declaration,
    arrange,
    declaration,
)

arrange(
    [
        m.__name__
        for m in (
            pack,
            cards,
            tokens,
            boards,
            board_modules,
            places,
            rules,
            resources,
            campaign,
            edits,
            on_board,
        )
    ]
)

__all__ = [
    "DECLARATIONS",
    "DECL_KINDS",
    "INSIDE",
    "PROPERTIES",
    "Declaration",
    "declaration",
]
