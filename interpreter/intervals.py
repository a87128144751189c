"""Intervals and figures of the simulation reports: Wilson intervals of rates, normal
intervals of means, Newcombe intervals of differences, and how a figure is rounded.

Every function takes whole-number counts and sums (or floats for split shares), so the
intervals of a run do not depend on how its games were split between processes.
"""

from __future__ import annotations

import math

# The z of a two-sided 95 % interval.
Z95 = 1.959963984540054


def num(x: float) -> float | int:
    """A figure for the report: whole numbers stay whole, others get 3 decimals."""
    return int(x) if float(x).is_integer() else round(x, 3)


def rate(part: float, whole: int) -> float | int:
    """``part / whole`` as a figure (0 when ``whole`` is 0)."""
    return num(part / whole) if whole else 0


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95 % by default); (0, 1) with no trial."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # Exact at the ends: 0 of n cannot be below 0, n of n not above 1 (no rounding crumbs).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def mean_interval(total: int, squares: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The normal 95 % interval of a mean from its count, sum and sum of squares.

    Whole-number sums keep it exact for any split of the run; fewer than 2 values give the
    mean itself (there is no spread to measure).
    """
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, mean
    variance = (n * squares - total * total) / (n * (n - 1))
    half = z * math.sqrt(max(variance, 0.0) / n)
    return mean - half, mean + half


def difference_interval(s1: int, n1: int, s2: int, n2: int) -> tuple[float, float]:
    """The 95 % interval of the difference of two rates, ``s1/n1 - s2/n2``.

    Newcombe's hybrid score interval, built from the two rates' Wilson intervals: the normal
    approximation of the difference, but one that stays inside -1..1 and does not shrink to a
    point when a rate is 0 or 1. (-1, 1) when either side counted nothing.
    """
    if n1 <= 0 or n2 <= 0:
        return -1.0, 1.0
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1)
    l2, u2 = wilson(s2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def mean_difference_interval(
    a: tuple[int, int, int], b: tuple[int, int, int], z: float = Z95
) -> tuple[float, float]:
    """The normal 95 % interval of the difference of two means, each given as (count, sum,
    sum of squares): ``mean(a) - mean(b)``."""
    (na, ta, qa), (nb, tb, qb) = a, b
    if na <= 0 or nb <= 0:
        return 0.0, 0.0
    d = ta / na - tb / nb

    def var_of_mean(n: int, t: int, q: int) -> float:
        return max((n * q - t * t) / (n * (n - 1)), 0.0) / n if n > 1 else 0.0

    half = z * math.sqrt(var_of_mean(na, ta, qa) + var_of_mean(nb, tb, qb))
    return d - half, d + half


def ci(interval: tuple[float, float]) -> dict[str, float]:
    """An interval as the reports write it: ``{"low": .., "high": ..}``, 4 decimals."""
    low, high = interval
    return {"low": round(low, 4), "high": round(high, 4)}


def rate_ci(part: float, whole: int) -> dict[str, float]:
    """The Wilson interval of ``part / whole`` as the reports write it."""
    return ci(wilson(part, whole))


def half_width(successes: int, trials: int) -> float:
    """Half the width of the Wilson interval of a rate: what ``--until-ci`` compares."""
    low, high = wilson(successes, trials)
    return (high - low) / 2
