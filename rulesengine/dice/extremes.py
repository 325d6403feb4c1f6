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

import functools
import itertools
import math
from typing import NamedTuple
from fractions import Fraction

from .dist import Budget
from .open_ended import MAX_INDEX, OpenLaw, more_than, sparse_times

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


MAX_LAW_DEGREE = 256
"""The largest denominator a law of the highest or lowest is written with (the sum of the
blocks' lengths of its sets of dice); beyond, the depth's answer."""


class Extremes(NamedTuple):
    """The highest (``highest``) or lowest of one dS! for each S of ``sizes``, each exploding
    on its top face alone, its value times ``scale``: a term of an :class:`.open_ended.OpenLaw`,
    so that it is followed for ever in sums, differences and comparisons too
    (``max(1d8!, 1d6!) - max(1d6!, 1d6!)``, Savage Worlds' opposed rolls with wild dice).

    The lowest of a set T is at least m with Π_T P(dS! ≥ m), which repeats, times
    ρ_T = Π_T (1/S)^(L/S), every L = lcm(T) values from m = 1 on: its generating function is
    the first block's chances over 1 − ρ_T·z^L. The highest is, by inclusion and exclusion,
    the signed sum of the lowest of each set: its generating function is theirs added up,
    over the product of their distinct denominators (the sets alike share one)."""

    sizes: tuple[int, ...]
    highest: bool
    scale: int = 1

    @property
    def top(self) -> bool:
        return False  # no dS! alone: its pairs go by its factors (open_ended._binomial_pairs)

    @staticmethod
    def of(sizes: tuple[int, ...], highest: bool) -> Extremes | None:
        """The term, where its denominator is small enough to work with; else None."""
        if not 2 <= len(sizes) <= 6:
            return None
        ordered = tuple(sorted(sizes))
        # its denominator's degree is at most the sum of the blocks of its distinct sets: known
        # from whole numbers before any chance is worked out
        distinct = {subset for subset, _ in _sets(ordered, highest)}
        if sum(math.lcm(*subset) for subset in distinct) > MAX_LAW_DEGREE:
            return None
        return Extremes(ordered, highest)

    @property
    def degrees(self) -> tuple[int, int]:
        numerator, denominator = self.generating()
        return len(numerator) - 1, denominator[-1][0]

    @property
    def explodes(self) -> tuple[int, ...]:
        return tuple(p for p, _ in self.generating()[1][1:])  # one per term of the denominator

    def times(self, k: int) -> Extremes:
        return self._replace(scale=self.scale * k)

    def binomials(self) -> tuple[tuple[int, Fraction], ...]:
        return tuple((period * self.scale, rho) for period, rho in _blocks(self.sizes, self.highest))

    def sets(self) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
        """P(this ≥ m) as the signed sum of the lowest of each set's, sets alike added up
        (``max(1d6!, 1d6!)``: twice one d6!, less the lowest of the two); unscaled only."""
        if self.scale != 1:
            return None
        signs: dict[tuple[int, ...], int] = {}
        for subset, sign in _sets(self.sizes, self.highest):
            signs[subset] = signs.get(subset, 0) + sign
        return tuple((sign, subset) for subset, sign in signs.items() if sign)

    def generating(self) -> tuple[tuple[Fraction, ...], tuple[tuple[int, Fraction], ...]]:
        return _generating(self.sizes, self.highest, self.scale)


def _sets(sizes: tuple[int, ...], highest: bool) -> list[tuple[tuple[int, ...], int]]:
    """The sets of dice whose lowest make up the term, each with its sign."""
    if not highest:
        return [(sizes, 1)]
    return [(subset, 1 if k % 2 else -1) for k in range(1, len(sizes) + 1)
            for subset in itertools.combinations(sizes, k)]


def _block(subset: tuple[int, ...]) -> tuple[int, Fraction]:
    period = math.lcm(*subset)
    return period, math.prod((Fraction(1, s) ** (period // s) for s in subset), start=Fraction(1))


@functools.lru_cache(maxsize=64)
def _blocks(sizes: tuple[int, ...], highest: bool) -> tuple[tuple[int, Fraction], ...]:
    """The distinct factors 1 − ρ·z^L of the term's denominator, as (L, ρ)."""
    return tuple(dict.fromkeys(_block(subset) for subset, _ in _sets(sizes, highest)))


def _lowest_at_least(sizes: tuple[int, ...], m: int) -> Fraction:
    """P(the lowest of one dS! for each of ``sizes`` ≥ m)."""
    return math.prod((at_least(s, m) for s in sizes), start=Fraction(1))


@functools.lru_cache(maxsize=64)
def _generating(sizes: tuple[int, ...], highest: bool, scale: int
                ) -> tuple[tuple[Fraction, ...], tuple[tuple[int, Fraction], ...]]:
    """The term's generating function: numerator (dense) and denominator (sparse, 1 first)."""
    groups: dict[tuple[int, Fraction], list[Fraction]] = {}
    for subset, sign in _sets(sizes, highest):
        period, rho = _block(subset)
        first = groups.setdefault((period, rho), [Fraction(0)] * (period + 1))
        for m in range(1, period + 1):  # the lowest of the set is m: at least m, not at least m + 1
            first[m] += sign * (_lowest_at_least(subset, m) - _lowest_at_least(subset, m + 1))
    numerator: list[Fraction] = [Fraction(0)]
    denominator: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    for (period, rho), first in groups.items():
        factor = [(0, Fraction(1)), (period, -rho)]
        numerator = _add(_times_sparse(numerator, factor), _times_sparse(first, denominator))
        denominator = sparse_times(denominator, factor)
    while len(numerator) > 1 and not numerator[-1]:
        numerator.pop()
    spread = [Fraction(0)] * ((len(numerator) - 1) * scale + 1)
    for i, c in enumerate(numerator):
        spread[i * scale] = c
    return tuple(spread), tuple((p * scale, c) for p, c in denominator)


def _times_sparse(dense: list[Fraction], sparse: list[tuple[int, Fraction]]) -> list[Fraction]:
    out = [Fraction(0)] * (len(dense) + sparse[-1][0])
    for i, a in enumerate(dense):
        if a:
            for p, c in sparse:
                out[i + p] += a * c
    return out


def _add(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * max(len(a), len(b))
    for i, x in enumerate(a):
        out[i] += x
    for i, x in enumerate(b):
        out[i] += x
    return out


# ---- a difference of two such terms, summed by blocks --------------------------------------

Sets = tuple[tuple[int, tuple[int, ...]], ...]


def blocks_apply(law: OpenLaw) -> tuple[Sets, Sets] | None:
    """The sets of X and of Y where ``law`` is X − Y + R with X and Y each one term whose
    chances are geometric by blocks (a dS! on its top face, or the highest or lowest of
    several, unscaled); else None."""
    if len(law.plus) != 1 or len(law.minus) != 1:
        return None
    x, y = law.plus[0].sets(), law.minus[0].sets()
    return None if x is None or y is None else (x, y)


def blocks_cost(law: OpenLaw, thresholds: list[int]) -> int | None:
    """Fraction operations :func:`blocks_at_least` takes: each pair of sets' window of values,
    then a few for each threshold and value of R; None where it does not apply, or where a
    threshold less R lies past :data:`.open_ended.MAX_INDEX` (as for the recurrence)."""
    found = blocks_apply(law)
    if found is None:
        return None
    lo, hi = law.rest[0][0], law.rest[-1][0]
    if any(abs(t - lo) > MAX_INDEX or abs(t - hi) > MAX_INDEX for t in thresholds):
        return None  # a chance ρ^k with k past MAX_INDEX / L: the depth's answer, as the recurrence's
    xs, ys = found
    window = 0
    for _, tx in xs:
        for _, ty in ys:
            lx, ly = math.lcm(*tx), math.lcm(*ty)
            window += (lx + ly) * math.lcm(lx, ly) * (len(tx) + len(ty))
    return window + 4 * len(thresholds) * len(law.rest) * len(xs) * len(ys)


def blocks_at_least(law: OpenLaw, thresholds: list[int]) -> dict[int, Fraction]:
    """P(X − Y + R ≥ t) for each t, X and Y as :func:`blocks_apply` finds them, followed for
    ever: Σ_r P(R = r)·P(X − Y ≥ t − r), P(X − Y ≥ t) the signed sum over pairs of sets of
    :class:`_Pair`'s."""
    found = blocks_apply(law)
    assert found is not None
    xs, ys = found
    pairs = [(sign_x * sign_y, _Pair(tx, ty)) for sign_x, tx in xs for sign_y, ty in ys]

    def difference(t: int) -> Fraction:
        return sum((sign * pair.at_least(t) for sign, pair in pairs), Fraction(0))

    return {t: sum((p * difference(t - r) for r, p in law.rest), Fraction(0)) for t in thresholds}


class _Pair:
    """f(t) = Σ_{y ≥ 1} P(lowest of U = y)·P(lowest of T ≥ y + t), H_T and H_U the chances
    the lowest of T, of U, is at least m (1 for m ≤ 1), each repeating times ρ every L values
    from m = 1 on. So f(t + L_T) = ρ_T·f(t) for t ≥ 1, and 1 − f(t − L_U) = ρ_U·(1 − f(t))
    for t ≤ 0 (there X is sure to pass Y's values below 1): f is worked out directly on the
    window −L_U < t ≤ L_T, and anywhere else from it."""

    def __init__(self, tx: tuple[int, ...], ty: tuple[int, ...]) -> None:
        self.tx, self.ty = tx, ty
        (self.lx, self.rx), (self.ly, self.ry) = _block(tx), _block(ty)
        self.window: dict[int, Fraction] = {}

    def at_least(self, t: int) -> Fraction:
        if t > self.lx:
            k = (t - 1) // self.lx  # t − k·L_T in 1..L_T
            return self.rx ** k * self._direct(t - k * self.lx)
        if t <= -self.ly:
            k = -t // self.ly  # t + k·L_U in −L_U + 1..0
            return 1 - self.ry ** k * (1 - self._direct(t + k * self.ly))
        return self._direct(t)

    def _direct(self, t: int) -> Fraction:
        """f(t): below y0 = max(1, 1 − t), X is sure to be at least y + t and Y's chances there
        add up to 1 − H_U(y0); from y0 on, each term times ρ = ρ_T^(M/L_T)·ρ_U^(M/L_U) is the
        term M = lcm(L_T, L_U) further on, so the rest is the first M terms over 1 − ρ."""
        found = self.window.get(t)
        if found is not None:
            return found
        y0 = max(1, 1 - t)
        step = math.lcm(self.lx, self.ly)
        rho = self.rx ** (step // self.lx) * self.ry ** (step // self.ly)
        tx, ty = self.tx, self.ty
        block = sum(((_lowest_at_least(ty, y) - _lowest_at_least(ty, y + 1)) * _lowest_at_least(tx, y + t)
                     for y in range(y0, y0 + step)), Fraction(0))
        found = self.window[t] = 1 - _lowest_at_least(ty, y0) + block / (1 - rho)
        return found
