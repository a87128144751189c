"""Where a line acts: the space it is about, and what lies there (no records here, so any
effect module may import it without changing the order records register in)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


def space_of(game: Any, ctx: Any) -> int:
    """The space a line is about: the space that carries it (a space's trigger or action,
    also when it is asked before the player arrives), else the player's own."""
    index = getattr(ctx.source, "index", None)
    if isinstance(index, int) and getattr(ctx.source, "holds", None) is not None:
        return index
    return ctx.player.pos


def lying_here(game: Any, space: int, what: str) -> bool:
    """Whether a token matching ``what`` (kind, type or name) lies on ``space``."""
    want = what.lower()
    # A loop, not `any` of a generator: asked for every space action a bot looks at.
    for t in game.space_tokens[space]:  # noqa: SIM110
        if want in t.match:
            return True
    return False


# Words a sentence adds after a feature's name ("a flooded room", "forest spaces").
_PLACE_NOUNS = (" rooms", " room", " spaces", " space")


@lru_cache(maxsize=1024)
def feature_stem(feature: str) -> str:
    """The feature a sentence names, without the noun it puts after it: "flooded room" →
    "flooded" (a space with `feature flooded` is "a flooded room")."""
    low = feature.lower()
    for noun in _PLACE_NOUNS:
        if low.endswith(noun) and len(low) > len(noun):
            return low[: -len(noun)]
    return low


def has_feature(features: frozenset[str] | set[str], feature: str) -> bool:
    """Whether a space's features include ``feature``, written as the feature's name or
    with a noun after it ("flooded room" for a space with `feature flooded`)."""
    low, stem = _feature_words(feature)
    return low in features or stem in features


@lru_cache(maxsize=1024)
def _feature_words(feature: str) -> tuple[str, str]:
    """``feature`` in lower case, and its stem: worked out once a name (a card's `only in`
    is asked of each card of the row at every action decision)."""
    return feature.lower(), feature_stem(feature)
