"""Many alike dice read through counts and sums at once: a multinomial over one die's
readings, not a fold die by die.

Thirty d10s read by three counts (7+, a 10, the 1s) have 4 readings a die; the fold of
:mod:`.view_fold` adds the dice one at a time, meeting about 30 × 4 × (the states so far)
pairs. Which die shows which reading does not matter to the view, so a state is how many
dice show each reading: C(30 + 3, 3) = 5,456 of them, each weighing its multinomial
coefficient times the readings' weights to the power of their numbers. That is cheaper
wherever the readings rarely add up alike (counts of ranges apart); where they often do (a
sum of faces: 10 readings a die, 271 totals for 30 dice, but C(39, 9) ways to share the
dice among the readings) the fold is, and :func:`worth_it` decides before either is made.
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Callable, Mapping

from .dist import Budget, step_cost

Readings = list[tuple[Any, int, Any]]
"""One part's readings (a die's, or a whole roll's): (a reading, its weight, what reads so)."""
SHARE_COST = 4
"""A share costs about as much as this many pairs the fold meets (measured: 2 to 4.4, for
counts of d10s and sums of d6s, 3 to 40 dice)."""
MAX_KINDS = 64
"""At most this many readings a die are shared out (one level of :func:`fold_alike` each);
more are folded die by die (2d1000 read by its total and its 1000s: 1,000 readings)."""
Counted = Mapping[Any, int]
"""A state's dice: each part (a die's outcome, as the readings give it) with how many dice show it."""


def shares(count: int, kinds: int) -> int:
    """The ways ``count`` alike dice share out among ``kinds`` readings: C(count + kinds - 1, kinds - 1)."""
    return math.comb(count + kinds - 1, kinds - 1)


def fold_pairs(items: Readings, count: int, n: int, caps: list[int | None]) -> int:
    """About how many pairs the fold die by die meets for ``count`` dice with the readings
    ``items`` (each read by its first ``n`` parts, sums and counts; ``caps`` by position,
    None where read whole): for each die added, each state so far with each reading; its
    states after ``i`` dice are at most the shares of ``i`` dice and at most the readings'
    ranges times ``i`` (capped where capped)."""
    kinds = len(items)
    spans = [max(k[j] for k, _, _ in items) - min(k[j] for k, _, _ in items) for j in range(n)]
    fold = 0
    for i in range(1, count):  # the states of i dice, each met with each reading of one more
        reach = 1
        for span, cap in zip(spans, caps, strict=True):
            reach *= (i * span if cap is None else min(i * span, cap)) + 1
        fold += min(shares(i, kinds), reach) * kinds
    return fold


def worth_it(items: Readings, count: int, n: int, caps: list[int | None]) -> bool:
    """Whether sharing ``count`` dice among the readings ``items`` costs less than the fold
    die by die (:func:`fold_pairs`); a share costs ``SHARE_COST`` pairs. Counts alone,
    decided before the work, so the same dice take the same path."""
    kinds = len(items)
    if count < 2 or not 2 <= kinds <= MAX_KINDS:
        return False
    return SHARE_COST * shares(count, kinds) <= fold_pairs(items, count, n, caps)


def settle_capped(capped: list[tuple[int, int, int | None]]) -> Callable[[int], int]:
    """What takes a reading packed into one whole number back to its caps: ``capped`` holds
    each capped digit's place, cap and width (None for the top digit, which has no width);
    a digit past its cap is set to it. Shared by this module and :mod:`.view_fold`."""

    def settle(k: int) -> int:
        for place, cap, width in capped:
            d = k // place if width is None else k // place % width
            if d > cap:
                k -= (d - cap) * place
        return k

    return settle


def fold_alike(items: Readings, count: int, n: int, caps: list[int | None], bits: int, budget: Budget
               ) -> list[tuple[int, Counted]]:
    """The readings of ``count`` alike dice, each with the readings ``items`` ((reading,
    weight, what reads so): its first ``n`` parts sums and counts, which add), read
    together: (weight, each part with the number of dice showing it) for each distinct
    reading. ``caps`` (by position, None for a part read whole): a capped part is read as
    at most its cap. Charged before the work: every share, as ``SHARE_COST`` multiply-adds
    (the binomial rows and powers made on the way are fewer than the shares they serve)."""
    kinds = len(items)
    budget.spend(SHARE_COST * shares(count, kinds) * step_cost(count * bits))  # a share: several multiplies
    # A capped part counts up from 0 (a count, or a sum of symbols that only counts up).
    lows = [min(k[j] for k, _, _ in items) if caps[j] is None else 0 for j in range(n)]
    places = [1]
    for j in range(n - 1):  # each part wide enough for every die's at its highest
        places.append(places[-1] * (count * (max(k[j] for k, _, _ in items) - lows[j]) + 1))
    keys = [sum((k[j] - lows[j]) * places[j] for j in range(n)) for k, _, _ in items]
    capped = [(places[j], cap, places[j + 1] // places[j] if j + 1 < n else None)
              for j, cap in enumerate(caps) if cap is not None]
    powers = [[1] * (count + 1) for _ in items]  # each reading's weight to the power of its number
    for power, (_, w, _) in zip(powers, items, strict=True):
        for c in range(1, count + 1):
            power[c] = power[c - 1] * w
    binomials: dict[int, list[int]] = {}  # C(m, ·) for each m the shares reach (only m = count for two readings)
    states: dict[int, list] = {}
    shared = [0] * kinds
    last = kinds - 1

    settled = settle_capped(capped)

    def share(j: int, left: int, key: int, weight: int) -> None:
        kj, pj, ways = keys[j], powers[j], binomials.get(left)
        if ways is None:
            ways = binomials[left] = [math.comb(left, c) for c in range(left + 1)]
        if j < last - 1:
            for c in range(left + 1):
                shared[j] = c
                share(j + 1, left - c, key + kj * c, weight * ways[c] * pj[c])
            return
        kl, pl = keys[last], powers[last]  # the last reading takes the dice left
        for c in range(left + 1):
            k = key + kj * c + kl * (left - c)
            if capped:
                k = settled(k)
            w = weight * ways[c] * pj[c] * pl[left - c]
            entry = states.get(k)
            if entry is None:
                shared[j], shared[last] = c, left - c
                states[k] = [w, tuple(shared)]
            else:
                entry[0] += w

    share(0, count, 0, 1)
    reps = [rep for _, _, rep in items]
    return [(w, {rep: c for rep, c in zip(reps, numbers, strict=True) if c}) for w, numbers in states.values()]
