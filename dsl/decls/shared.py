"""What the declaration records share, below them all: the words of flags, kinds and
rewards that several declarations (and the editor) read, and small span helpers."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, Span
from ..parser import Atom, Stmt

# How a trigger line starts (a Franchise Board sticker's abilities are trigger lines).
TRIGGER_WORDS = ("when", "whenever", "at", "once", "after")
CARD_FLAGS = {
    "companion": "companion",
    "gem": "gem",
    "device": "device",
}
# What becomes of a token lying on a path when someone crosses it (`removed when crossed`).
CROSSED = {
    "stays": "stays",
    "remains": "stays",
    "removed": "removed",
    "discarded": "removed",
    "returned": "removed",
    "taken": "taken",
}
TOKEN_KINDS = {
    ("major", "secret"): "major",
    ("minor", "secret"): "minor",
    ("market",): "market",
    ("artifact",): "artifact",
    ("mug",): "mug",
    ("fruit",): "fruit",
    ("mystic", "fruit"): "fruit",
    ("cube",): "cube",
    ("token",): "other",
}
SPACE_FLAGS = {
    ("hq",): ("hq", False),
    ("forest",): ("forest", True),
    ("mushroom", "forest"): ("forest", True),
    ("crystal", "cave"): ("crystal cave", True),
    ("security", "checkpoint"): ("security checkpoint", True),
    ("town",): ("town", False),
    ("market",): ("town", False),
    ("magic", "circle"): ("magic circle", False),
    ("danger", "zone"): ("danger zone", False),
    ("depths",): ("danger zone", False),
    ("exhausts",): (None, True),
}
# A feature named by one of its space-flag words ("depths", "market", "mushroom forest")
# means the feature that flag gives, wherever a card's `only in` or a condition names it.
FEATURE_WORDS = {" ".join(k): v[0] for k, v in SPACE_FLAGS.items() if v[0] is not None}


def feature_name(words: str) -> str:
    """The feature a space flag's words give, else the words themselves; a leading "the"
    is the sentence's, not the feature's ("you are in the depths")."""
    if words[:4].lower() == "the " and len(words) > 4:
        words = words[4:]
    return FEATURE_WORDS.get(words.lower(), words)


REWARDS = {
    ("gold",): ("gold", True),
    ("minor", "secret"): ("minor secret", False),
    ("major", "secret"): ("major secret", False),
    ("mystic", "fruit"): ("fruit", False),
    ("fruit",): ("fruit", False),
    ("draw",): ("draw", True),
    ("card", "draw"): ("draw", True),
    ("heal",): ("heal", True),
    ("healing",): ("heal", True),
}


def first_words(words: tuple[str, ...] | list[str]) -> list[str]:
    """The first word of each property (what a did-you-mean compares a typed word with)."""
    return [w.split()[0] for w in words]


def _track_line(st: Stmt) -> str | None:
    """The track a passage line `mark the TRACK track` (or `add an X to the TRACK track`)
    marks, or None when the line is something else."""
    w, h = st.words, st.head
    if len(h) == 4 and w[:2] == ["mark", "the"] and w[3] == "track":
        named = h[2]
    elif len(h) == 7 and w[:5] == ["add", "an", "x", "to", "the"] and w[6] == "track":
        named = h[5]
    else:
        return None
    return named.text if named.kind in ("word", "string") else None


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def _join(a: Span, b: Span) -> Span:
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _phrase_span(atoms: list[Atom]) -> Span:
    return _join(atoms[0].span, atoms[-1].span)


def _new_only(diags: list[Diagnostic], first: int, start: int) -> list[Diagnostic]:
    """The diagnostics from ``start`` on that are not among those from ``first`` to it."""
    seen = set(diags[first:start])
    return [d for d in diags[start:] if d not in seen]


def _match_words(words: list[str], table: dict[tuple[str, ...], Any]) -> tuple[Any, int] | None:
    """Longest key of ``table`` that ``words`` start with, and its length."""
    best = None
    for key, value in table.items():
        if tuple(words[: len(key)]) == key and (best is None or len(key) > best[1]):
            best = (value, len(key))
    return best


def is_path_head(head: list[Atom]) -> bool:
    """Whether a line's head names a path by its two spaces: `path A -- B` (or `->`)."""
    return (
        len(head) == 4
        and head[2].kind in ("link", "arrow")
        and all(a.kind in ("word", "string") for a in (head[1], head[3]))
    )
