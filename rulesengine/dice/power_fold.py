"""Many alike dice read through sums (and counts read only as "none or some") at once: one
die's readings raised to the power of their number, not a fold die by die.

Forty exploding d10s read by their successes (0 to 11 a die) and whether a first throw
shows a 1, the depth's cut beside: the fold of :mod:`.view_fold` adds the dice one at a
time, meeting each state so far with each of a die's readings, some 300,000 pairs of big
weights. Which die shows which reading does not matter, so the pool is one die's readings
raised to the power 40: with each reading's sums packed into one exponent (as the fold
packs them, a digit each, wide enough for every die), that is a polynomial in one variable,
and J. C. P. Miller's recurrence gives each coefficient of its power from the ones below it
(from P · (Pⁿ)′ = n · P′ · Pⁿ): 441 × 14 multiply-adds here, each division exact.

A count read as at most 1 (``count(initial(roll), 1) > 0``; the flag of a cut die) does not
add up: the rolls where it is 0 are the power of the readings where it is 0, all rolls the
power of all readings, and "1 or more" their difference; over several such counts,
inclusion and exclusion over which of them are 0. Counts capped higher are left to the
fold.

The rules read one roll of each state, so each state's dice are found after: which sums
``k`` dice of the readings can reach is a bit set (Python integers, a bit per packed sum,
each level from the last by shifts), and a state's dice are taken greedily, each choice
checked against the level below, so none is a dead end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .alike_fold import Counted, Readings
from .dist import Budget, step_cost

MAX_CAPPED = 3
"""At most this many counts read as "none or some" (2 ** 3 powers); more are folded."""


class _Kind(NamedTuple):
    """One die's readings alike in what the power reads: its sums packed into ``key``, the
    capped counts above 0 as bits of ``mask``; their weight, and the first outcome that reads so."""

    key: int
    mask: int
    weight: int
    rep: Any


class _Layout(NamedTuple):
    """Where each part of a reading goes: the sums' digits (place and lowest value), the
    capped counts' bits, and how many packed sums ``count`` dice can reach at most."""

    sums: tuple[tuple[int, int, int], ...]  # (part, place, lowest)
    capped: tuple[int, ...]  # the parts read as none or some, a bit each
    space: int


def _layout(items: Readings, count: int, n: int, tops: Sequence[int | None]) -> _Layout | None:
    """The packing of ``count`` dice's readings, or None where the power does not apply (a
    count capped above 1, too many capped, a capped part below 0, two sums that move)."""
    capped = tuple(j for j in range(n) if tops[j] is not None)
    if any(tops[j] != 1 for j in capped) or len(capped) > MAX_CAPPED:
        return None
    if any(k[j] < 0 for k, _, _ in items for j in capped):
        return None
    sums = []
    place = 1
    for j in range(n):
        if tops[j] is None:
            low = min(k[j] for k, _, _ in items)
            sums.append((j, place, low))
            place *= count * (max(k[j] for k, _, _ in items) - low) + 1
    if sum(1 for j, _, low in sums if max(k[j] for k, _, _ in items) > low) > 1:
        # Two sums that move (successes and a count of 1s read whole): the packed sums are a
        # plane the recurrence walks all of, more than the fold die by die meets (measured:
        # 40 exploding d10s read by successes and first-throw 1s, 1.3 times its time).
        return None
    return _Layout(tuple(sums), capped, place)


def _kinds(items: Readings, layout: _Layout) -> list[_Kind]:
    """The readings grouped by packed sums and capped counts above 0."""
    out: dict[tuple[int, int], list] = {}
    for k, w, rep in items:
        key = sum((k[j] - low) * place for j, place, low in layout.sums)
        mask = sum(1 << b for b, j in enumerate(layout.capped) if k[j] > 0)
        have = out.get((key, mask))
        if have is None:
            out[(key, mask)] = [w, rep]
        else:
            have[0] += w
    return [_Kind(key, mask, w, rep) for (key, mask), (w, rep) in out.items()]


def power_cost(items: Readings, count: int, n: int, tops: Sequence[int | None], bits: int) -> int | None:
    """About the steps :func:`power_fold` is charged for ``count`` dice with the readings
    ``items``, from counts alone (to choose it over the fold die by die); None where it does
    not apply. :func:`_levels_cost`, then :func:`work_cost` of every packed sum the dice
    may reach, for each set of capped counts held at 0."""
    layout = _layout(items, count, n, tops) if count >= 2 else None
    if layout is None:
        return None
    sets, kinds = 1 << len(layout.capped), len(items)
    return _levels_cost(count, kinds, sets, layout.space) + work_cost(layout.space * sets, kinds, count, bits)


def _levels_cost(count: int, kinds: int, sets: int, space: int) -> int:
    """Making the levels of reachable sums: for each die, each reading, each set of counts
    above 0, a shift of a bit set of ``space`` bits."""
    return count * kinds * sets * step_cost(space)


def work_cost(reached: int, kinds: int, count: int, bits: int) -> int:
    """For each sum reached (for each set of counts held at 0), the recurrence's term of
    each reading (a multiply-add of weights of ``count * bits`` bits) and a state's dice
    found (each reading tried once): measured at a third to a quarter of the time the
    fold's pairs take for the same charge, so never charged more than the fold would be
    where it is chosen."""
    return reached * kinds * (step_cost(count * bits) + 1)


def power_fold(items: Readings, count: int, n: int, tops: Sequence[int | None], bits: int, budget: Budget
               ) -> list[tuple[int, Counted]]:
    """The readings of ``count`` alike dice, each with the readings ``items`` ((reading,
    weight, what reads so): its first ``n`` parts sums and counts, which add), read
    together: (weight, each part with the number of dice showing it) for each distinct
    reading, as :func:`.view_fold.fold` gives them. ``tops`` (by position): None for a part
    read whole, 1 for one read as none or some. Charged before each stage of the work: the
    levels of reachable sums, then the sums they reach (:func:`work_cost`); call only where
    :func:`power_cost` is not None."""
    layout = _layout(items, count, n, tops) if count >= 2 else None
    if layout is None:
        raise ValueError("power_fold: readings it does not apply to")
    kinds = _kinds(items, layout)
    full = (1 << len(layout.capped)) - 1
    budget.spend(_levels_cost(count, len(items), full + 1, layout.space))
    levels = _levels(kinds, count)
    reaches = {}
    for held in range(full + 1):  # the counts in ``held`` may be above 0, the rest are 0
        reach = 0
        for covered, found in levels[count].items():
            if covered & ~held == 0:
                reach |= found
        reaches[held] = reach
    budget.spend(work_cost(sum(bin(r).count("1") for r in reaches.values()), len(items), count, bits))
    powers = {held: _power([kind for kind in kinds if kind.mask & ~held == 0], count, reach)
              for held, reach in reaches.items()}
    order = sorted(kinds, key=lambda kind: -kind.key)  # the largest first: few kinds a state
    out: list[tuple[int, Counted]] = []
    for held in range(full + 1):
        members = [kind for kind in order if kind.mask & ~held == 0]
        subsets = [(sub, (-1) ** bin(held ^ sub).count("1")) for sub in range(held + 1) if sub & ~held == 0]
        for key in powers[held]:
            # Exactly the counts in ``held`` above 0: inclusion and exclusion over those held at 0.
            weight = sum(sign * powers[sub].get(key, 0) for sub, sign in subsets)
            if weight:
                out.append((weight, _dice(members, held, key, count, levels)))
    return out


def _levels(kinds: list[_Kind], count: int) -> list[dict[int, int]]:
    """For each number of dice from 0 to ``count`` and each set of capped counts, the packed
    sums those dice can reach with exactly those counts above 0, as the bits of one whole
    number."""
    by_mask: dict[int, set[int]] = {}
    for kind in kinds:
        by_mask.setdefault(kind.mask, set()).add(kind.key)
    levels = [{0: 1}]
    for _ in range(count):
        reach: dict[int, int] = {}
        for covered, bits in levels[-1].items():
            for mask, keys in by_mask.items():
                both = covered | mask
                acc = reach.get(both, 0)
                for key in keys:
                    acc |= bits << key
                reach[both] = acc
        levels.append(reach)
    return levels


def _power(members: list[_Kind], count: int, reach: int) -> dict[int, int]:
    """The weight of each packed sum of ``count`` dice of the readings ``members`` (the
    sums ``reach`` holds): the coefficients of P^count, P the readings' polynomial in one
    variable, by Miller's recurrence. With P's lowest term at 0 (the exponents shifted
    down by ``low``) and a_m the coefficient of x^m of P^count:
    m · p_0 · a_m = Σ_{j ≥ 1} ((count + 1) · j − m) · p_j · a_{m − j}, exactly divisible."""
    if not members:
        return {}
    poly: dict[int, int] = {}
    for kind in members:
        poly[kind.key] = poly.get(kind.key, 0) + kind.weight
    low = min(poly)
    p0 = poly[low]
    terms = [(key - low, w, (count + 1) * (key - low)) for key, w in sorted(poly.items()) if key != low]
    a: dict[int, int] = {0: p0 ** count}
    base = count * low
    text = bin(reach)[:1:-1]  # bit i at position i
    at = text.find("1", base + 1)
    while at != -1:
        m = at - base
        total = 0
        for j, pj, scaled in terms:
            if j > m:
                break
            prior = a.get(m - j)
            if prior is not None:
                total += (scaled - m) * pj * prior
        if total:
            a[m] = total // (m * p0)
        at = text.find("1", at + 1)
    return {m + base: w for m, w in a.items()}


def _dice(members: list[_Kind], held: int, key: int, count: int, levels: list[dict[int, int]]) -> Counted:
    """``count`` dice of the readings ``members`` whose sums reach ``key`` and whose capped
    counts above 0 are those of ``held``: taken greedily, the largest reading first, as
    many of it as leave a sum and counts the dice left can reach (``levels``), so that no
    choice is a dead end."""
    picked: dict[Any, int] = {}
    need, left = held, count
    while left:
        for kind in members:
            if kind.key > key:
                continue
            first = _rest_covered(levels[left - 1], need, kind, key - kind.key)
            if first is None:
                continue
            # As many more of it as still leave a reachable rest: one does; the most found by
            # halving (any number found leaves no dead end).
            most = left if kind.key == 0 else min(left, key // kind.key)
            good, bad, covered = 1, most + 1, first
            while bad - good > 1:
                mid = (good + bad) // 2
                found = _rest_covered(levels[left - mid], need, kind, key - mid * kind.key)
                if found is None:
                    bad = mid
                else:
                    good, covered = mid, found
            picked[kind.rep] = picked.get(kind.rep, 0) + good
            key, left, need = key - good * kind.key, left - good, covered
            break
        else:  # a state with weight is reached by some dice: not reached here
            raise AssertionError("power_fold: no dice reach a state of weight")
    return picked


def _rest_covered(level: dict[int, int], need: int, kind: _Kind, rest: int) -> int | None:
    """Which capped counts the dice left must have above 0 (with ``kind``'s, ``need``) to
    reach ``rest`` at this ``level``; None where none do."""
    for covered, bits in level.items():
        if covered | kind.mask == need and bits >> rest & 1:
            return covered
    return None
