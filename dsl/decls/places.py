"""The parts of a board: its spaces and paths (and dead ends)."""

from __future__ import annotations

from .registry import part

SPACE_PROPS = (
    "coach",
    "waypoint",
    "artifact",
    "reward",
    "holds",
    "at",
    "feature",
    "action",
    "requires",
)
PATH_PROPS = (
    "boots",
    "footprints",
    "cost",
    "monsters",
    "water",
    "mountain",
    "lock",
    "requires",
    "switch",
    "holds",
    "way",
)

part(
    "space",
    inside="a `space` goes inside a `board NAME { ... }` (or `module`) block",
    doc="`space NAME { FLAGS; reward ...; holds ...; at X Y; action ...; TRIGGER: EFFECTS }` in "
    "a board or a module side: a space of the board.",
    properties=SPACE_PROPS,
    form='space "Whispering Wood" { forest; reward gold 2 }',
    writes=("boards",),
)
part(
    "path",
    inside="a `path` goes inside a `board NAME { ... }` (or `module`) block",
    doc="`path A -- B { boots N; ... }` (-> one-way) or `dead end A { ... }` in a board or a "
    "module side: a path between two spaces.",
    properties=PATH_PROPS,
    form='path HQ -- "Whispering Wood" { boots 2 }',
    writes=("boards",),
)
