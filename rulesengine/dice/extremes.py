"""The mean and variance of the highest and the lowest of several open-ended dice, followed
forever (issue 34: ``max(1d6!, 1d8!)``, the better of two exploding dice).

One ``dS!`` that explodes on its top face alone is S·K + Y (K tops, then a last face Y of 1
to S − 1), so it is at least m (m ≥ 1) with chance (1/S)^a · (S − r)/S where m − 1 = a·S + r,
0 ≤ r < S. For a whole number X ≥ 0, E[X] = Σ_{m ≥ 1} P(X ≥ m) and E[X²] = Σ (2m − 1)·P(X ≥ m).
The lowest of independent dice is at least m when each is: the product of their chances. The
highest is at least m unless each is below it: by inclusion and exclusion, a signed sum of
such products over the sets of dice. Each product repeats, scaled, every L = lcm(S…) values
of m (each factor by (1/S)^(L/S)), so each series is geometric by blocks of L: its first
block over 1 − ρ, and for E[X²] a block's own term plus 2Lρ/(1 − ρ)² per value.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from .dist import Budget
from .open_ended import more_than

MAX_PERIOD = 100_000
"""The largest block (the sizes' least common multiple) summed here; beyond, no closed form."""


def at_least(s: int, m: int) -> Fraction:
    """P(one dS! ≥ m), followed forever (1 for m ≤ 1): more than m − 1 (:mod:`.open_ended`)."""
    return more_than(s, m - 1)


def _series(sizes: tuple[int, ...], budget: Budget) -> tuple[Fraction, Fraction]:
    """Σ_m f(m) and Σ_m (2m − 1)·f(m) over m ≥ 1, f(m) the product of P(dS! ≥ m) over ``sizes``."""
    period = math.lcm(*sizes)
    budget.spend(period * len(sizes))
    rho = math.prod((Fraction(1, s) ** (period // s) for s in sizes), start=Fraction(1))
    first = second = Fraction(0)
    for j in range(1, period + 1):
        f = math.prod((at_least(s, j) for s in sizes), start=Fraction(1))
        first += f
        second += f * ((2 * j - 1) / (1 - rho) + 2 * period * rho / (1 - rho) ** 2)
    return first / (1 - rho), second


def extreme_moments(sizes: tuple[int, ...], highest: bool, budget: Budget) -> tuple[Fraction, Fraction] | None:
    """The mean and variance of the highest (``highest``) or lowest of one dS! for each S in
    ``sizes``, each exploding on its top face alone; None where a block would be too long."""
    if len(sizes) < 1 or math.lcm(*sizes) > MAX_PERIOD or len(sizes) > 6:
        return None
    if not highest:
        mean, square = _series(sizes, budget)
        return mean, square - mean * mean
    mean = square = Fraction(0)
    for k in range(1, len(sizes) + 1):  # P(max ≥ m) = Σ over sets T, (−1)^(|T|+1) Π_T P(X ≥ m)
        for subset in itertools.combinations(sizes, k):
            one, two = _series(subset, budget)
            sign = 1 if k % 2 else -1
            mean, square = mean + sign * one, square + sign * two
    return mean, square - mean * mean
