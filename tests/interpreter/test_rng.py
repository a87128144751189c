"""The engine's draws (interpreter/rng.py) are `random.Random`'s own: same results, same state
after, for every length and many seeds."""

from __future__ import annotations

import random

from clankwork.interpreter import rng


def test_shuffle_deals_as_random_shuffle_does() -> None:
    for seed in range(60):
        for n in (0, 1, 2, 3, 7, 10, 16, 17, 33, 64, 65, 200):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            rng.shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b, (seed, n)
            assert ours.getstate() == theirs.getstate()


def test_below_draws_as_randrange_does() -> None:
    ours, theirs = random.Random(5), random.Random(5)
    for n in [1, 2, 3, 5, 8, 9, 31, 32, 33, 1000, 2**40 + 3] * 50:
        assert rng.below(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
