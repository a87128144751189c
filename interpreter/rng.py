"""The game's random draws, made as `random.Random` makes them, in compiled code.

`random.Random.shuffle` and `randrange` are written in Python (CPython's ``random.py``): in a
game they cost more than any rule. These are the same algorithms over the same generator,
drawing the same bits in the same order (``getrandbits(n.bit_length())`` until below ``n``),
so a game deals exactly as it did with the methods (tests/interpreter/test_rng.py compares
them); compiled with the core they run as C loops.
"""

from __future__ import annotations

import random
from typing import Any


def below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` (``n > 0``), as ``rng.randrange(n)`` draws it."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle ``x`` in place, as ``rng.shuffle(x)`` does."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
