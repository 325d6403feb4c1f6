"""The moments of the dice kept by rank of compounding dice (``5d10!!kh3``, roll and keep),
explosions followed for ever: the kept dice at least m are a binomial's count clipped to the
ranks kept, so the mean and the second moment are polynomials in P(one die ≥ m), summed
over m by blocks of the die's size, where those chances repeat scaled by 1/S."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from .dist import Budget

MOST_KEPT_DICE = 64
"""The most compounding dice whose kept ranks :func:`kept_ranks_mean` works out (its work
grows as the square of their number, in exact fractions)."""


def kept_ranks_mean(n: int, sides: int, lo: int, hi: int, budget: Budget) -> Fraction | None:
    """The mean of the dice ranked ``lo`` to ``hi`` − 1 (0 the highest) of ``n`` dS!!
    compounding on their top face, followed for ever (``5d10!!kh3``). The kept dice at least
    m are clip(N_m − lo, 0, hi − lo) of the N_m dice at least m, so the mean is the sum over m
    of E[clip(N_m − lo, 0, hi − lo)], N_m binomial with q = P(one die ≥ m): a polynomial in q
    with no constant term. A die is at least m = a·S + r + 1 with S^-a·(S − r)/S, so the sum
    over m of q^d is Σ_r ((S − r)/S)^d / (1 − S^-d). None past :data:`MOST_KEPT_DICE`."""
    if n > MOST_KEPT_DICE or hi <= lo:
        return None
    budget.spend(n * n + n * sides)
    return _summed_over_m(_binomial_by_power(n, lambda i: min(max(i - lo, 0), hi - lo)), sides)


def _binomial_by_power(n: int, weight: Callable[[int], int]) -> list[int]:
    """Σ_i weight(i)·C(n, i)·q^i·(1 − q)^(n − i), E[weight(N)] for N binomial (n, q), as its
    coefficients by power of q."""
    poly = [0] * (n + 1)
    for i in range(n + 1):
        w = weight(i)
        if w:
            for j in range(n - i + 1):
                poly[i + j] += w * math.comb(n, i) * math.comb(n - i, j) * (-1) ** j
    return poly


def _summed_over_m(poly: list[int], sides: int) -> Fraction:
    """Σ over m ≥ 1 of the polynomial ``poly`` (no constant term) at q = P(one dS!! ≥ m):
    q^d adds up to Σ_r ((S − r)/S)^d / (1 − S^-d) (see :func:`kept_ranks_mean`)."""
    return sum((c * _powers(sides, d) / (1 - Fraction(1, sides ** d)) for d, c in enumerate(poly) if d and c),
               Fraction(0))


def _powers(sides: int, d: int) -> Fraction:
    """G_d = Σ_r g_r^d, g_r = (S − r)/S: one block of S values of m, at q's power d."""
    return sum((Fraction(sides - r, sides) ** d for r in range(sides)), Fraction(0))


MOST_KEPT_DICE_SQUARED = 16
"""The most compounding dice whose kept ranks' second moment :func:`kept_ranks_square`
works out (its work grows as the fourth power of their number)."""


def kept_ranks_square(n: int, sides: int, lo: int, hi: int, budget: Budget) -> Fraction | None:
    """E[T²] for T the dice ranked ``lo`` to ``hi`` − 1 of ``n`` dS!! (see
    :func:`kept_ranks_mean`): T = Σ_m c(N_m), c(i) = clip(i − lo, 0, hi − lo), so E[T²] is
    Σ_m E[c(N_m)²] and twice Σ_{m < m'} E[c(N_m)·c(N_m')]. For m < m' each die is at least m'
    (chance q'), at least m and below m' (q − q'), or below m: a trinomial, so E[c·c'] is a
    polynomial in q and q' (each term at least q'¹: c(0) is 0). Summed over m < m' by blocks
    of S (m − 1 = a·S + r, q = S^-a·g_r, g_r = (S − r)/S): q^x·q'^y adds up to
    (Σ_{r < r'} g_r^x·g_r'^y + G_x·G_y·S^-y/(1 − S^-y)) / (1 − S^-(x+y)), G_x = Σ_r g_r^x.
    None past :data:`MOST_KEPT_DICE_SQUARED`."""
    if n > MOST_KEPT_DICE_SQUARED or hi <= lo:
        return None
    budget.spend(n ** 4 + n * n * sides)
    rho = Fraction(1, sides)
    g = [Fraction(sides - r, sides) for r in range(sides)]

    def clip(i: int) -> int:
        return min(max(i - lo, 0), hi - lo)

    square = _summed_over_m(_binomial_by_power(n, lambda i: clip(i) ** 2), sides)  # Σ_m E[c(N_m)²]
    pairs: dict[tuple[int, int], int] = {}  # E[c(N_m)·c(N_m')], m < m', by powers (of q, of q')
    for i in range(1, n + 1):
        for j in range(1, i + 1):
            w = clip(i) * clip(j)
            if not w:
                continue
            ways = math.comb(n, i) * math.comb(i, j)  # which dice are at least m, which of them at least m'
            for k in range(i - j + 1):  # (q − q')^(i − j)
                for m in range(n - i + 1):  # (1 − q)^(n − i)
                    key = (i - j - k + m, j + k)
                    pairs[key] = pairs.get(key, 0) + w * ways * math.comb(i - j, k) * math.comb(n - i, m) \
                        * (-1) ** (k + m)
    powers = {x: _powers(sides, x) for x in range(n + 1)}
    for (x, y), c in pairs.items():
        if not c:
            continue
        below, before = Fraction(0), Fraction(0)  # Σ_{r < t} g_r^x·g_t^y, the g_r^x before t added up
        for gt in g:
            below += before * gt ** y
            before += gt ** x
        later = powers[x] * powers[y] * rho ** y / (1 - rho ** y)
        square += 2 * c * (below + later) / (1 - rho ** (x + y))
    return square
