"""At least what reading a dice term through a view costs, before it is worked out (issue
33, item 3): :func:`view_floor`, what a roll that reads earlier rolls (a push) is charged for
each of its distributions before any of them is made (``run.readings``)."""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from .alike_fold import SHARE_COST, shares
from .power_fold import work_cost
from .die_odds import die_dist
from .dist import Budget, BudgetExceeded, step_cost
from .pool import PoolSpec
from .pool_odds import PoolView, few_readings, view_reading
from ..limits import Limits


class ViewFloor(NamedTuple):
    """At least what ``view_dist`` makes and charges for one dice term, known before it
    is worked out: ``values`` distinct rolls (not counting those the depth cut) and ``steps``
    charged to the budget."""

    values: int
    steps: int


FLOOR_BITS = 1 << 22
"""The widest set of readings :func:`view_floor` counts (as the bits of one integer):
past it, a term's readings are not counted before it is worked out (its floor is 1)."""

FLOOR_FACES = 10_000
"""Faces (and chains of explosions) of one die past which :func:`view_floor` does not read
the die before it is worked out: its floor is then what reading its faces is charged."""


def view_floor(spec: PoolSpec, count: int, view: PoolView, limits: Limits) -> ViewFloor:
    """At least how many distinct rolls ``view_dist`` gives ``count`` dice of ``spec``
    read through ``view``, and at least how many steps it charges, without working it out:
    what a roll that reads earlier rolls (a push) is charged for before any of its
    distributions is made, so that a request too big is refused at once.

    Sums, counts and sums of symbols add from die to die, so the readings of ``count`` dice
    are the ``count``-fold sums of one die's readings: a multinomial over the die's distinct
    readings, counted exactly as the bits of one integer (each reading a shift, each sum of
    readings an OR of shifted copies). Highest and lowest are left out, and chains the depth
    cuts too: fewer readings, never more. The steps are those of the fold that does without
    the cut chains (``view_fold.fold``, or :mod:`.alike_fold` or :mod:`.power_fold` where the
    view reads sums and counts alone; then flattening each state): the least of the ways
    ``view_dist`` may take."""
    if count == 0:
        return ViewFloor(1, 0)
    if spec.keeps and spec.kept_range(count) != (0, count) or spec.by_face or spec.reroll_rank:
        return ViewFloor(1, 0)  # worked out die by die over every face (faces_dist), not floored here
    if view.face_by_face:
        if spec.explode is None:
            return ViewFloor(1, 0)  # read face by face (dice.face_fold): far less than die by die
        view = view.spread()
    first = spec.die.size * view.reads
    if spec.die.size > FLOOR_FACES or few_readings(spec, view, Budget(FLOOR_FACES * 8)):
        return ViewFloor(1, first)  # too big to read first, or followed for ever: not floored here
    sizes, items, more, bits = _view_sumsets(spec, view, limits, count)
    if not sizes:
        return ViewFloor(1, first)
    # view_dist's charges: reading the die's faces and chains, one fold step per die after
    # the first (the states so far, each with each reading of one more die), flattening.
    steps = first + more * view.reads
    folding = sum(sizes[i - 2] * items * step_cost(i * bits) for i in range(2, len(sizes) + 1))
    if not (view.highest or view.lowest):  # or the dice shared out among the readings at once,
        # or one die's readings raised to the power (charged at least for each sum it reaches)
        folding = min(folding, SHARE_COST * shares(count, items) * step_cost(count * bits),
                      work_cost(sizes[-1], items, count, bits))
    return ViewFloor(sizes[-1], steps + folding + sizes[-1] * count)


@functools.lru_cache(maxsize=64)
def _one_die_readings(spec: PoolSpec, view: PoolView, limits: Limits) -> tuple[tuple[tuple, ...], int, int, int] | None:
    """One die of ``spec`` read through ``view``, as ``view_dist`` reads it: its
    distinct readings without highest and lowest (those the depth cuts left out), how many
    distinct readings :func:`.view_fold.fold` steps over, how many outcomes past its faces explosions
    add, and its weights' bits. None when reading the die is itself too much work."""
    try:
        d = die_dist(spec, "chain" if view.initial else "values", limits, Budget(FLOOR_FACES * 8))
    except BudgetExceeded:
        return None
    reading = view_reading(spec, view)
    full = {reading(v) for v in d.weights}
    parts = view.parts
    # A capped count (PoolView.caps) does not add from die to die: left out, the sums counted
    # are those of the other parts, never more than the readings there are.
    caps = [None, *view.count_caps()]
    kept = [j for j in range(parts) if j >= len(caps) or caps[j] is None]
    summed = tuple(sorted({tuple(r[j] for j in kept) for r in full}))
    return summed, len(full), max(0, len(d.weights) - spec.die.size), d.denom.bit_length()


def _view_sumsets(spec: PoolSpec, view: PoolView, limits: Limits, count: int) -> tuple[list[int], int, int, int]:
    """The number of distinct sums of 1, 2, … ``count`` dice's readings (:func:`view_floor`),
    with one die's distinct readings, the outcomes explosions add and the weights' bits; no
    sizes where they are too many to count."""
    one = _one_die_readings(spec, view, limits)
    if one is None:
        return [], 0, 0, 0
    summed, items, more, bits = one
    if not summed:
        return [], 0, 0, 0
    parts = len(summed[0])
    lows = [min(r[j] for r in summed) for j in range(parts)]
    widths = [count * (max(r[j] for r in summed) - lows[j]) + 1 for j in range(parts)]
    if math.prod(widths) > FLOOR_BITS or len(summed) * count * math.prod(widths) > FLOOR_BITS * 64:
        return [], 0, 0, 0
    places = [math.prod(widths[:j]) for j in range(parts)]
    shifts = [sum((r[j] - lows[j]) * places[j] for j in range(parts)) for r in summed]
    sizes: list[int] = []
    mask = 1  # the sums of no dice: 0
    for _ in range(count):
        nxt = 0
        for s in shifts:
            nxt |= mask << s
        mask = nxt
        sizes.append(mask.bit_count())
    return sizes, items, more, bits
