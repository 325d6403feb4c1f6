"""The mean and variance of the highest and the lowest of open-ended dice, followed forever
(issue 34: "means and variances of all of the above in closed form", ``max``/``min``).

Two oracles written here, apart from the engine's block-geometric sums
(rulesengine/dice/extremes.py): the series E[X] = Σ P(X ≥ m), E[X²] = Σ (2m − 1)·P(X ≥ m)
summed term by term to m = 700 (what is left is below 10^-90), and every pair of chains
enumerated to 25 tops each (all of whose terms are positive, so it stays below the exact
figure, by less than the left-out mass can add).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesengine import dice


def p_at_least(s: int, m: int) -> F:
    """P(one dS! ≥ m), from its chain: at least m iff the tops a = (m − 1) // s all come up
    and then the last face reaches the rest."""
    if m <= 1:
        return F(1)
    tops, rest = divmod(m - 1, s)
    return F(1, s) ** tops * F(s - rest, s)


def term_by_term(sizes: tuple[int, ...], highest: bool, upto: int = 700) -> tuple[F, F]:
    mean = square = F(0)
    for m in range(1, upto + 1):
        below = [1 - p_at_least(s, m) for s in sizes]
        if highest:
            p = 1 - _product(below)
        else:
            p = _product([1 - b for b in below])
        mean += p
        square += (2 * m - 1) * p
    return mean, square - mean * mean


def _product(xs: list[F]) -> F:
    out = F(1)
    for x in xs:
        out *= x
    return out


def chains(s: int, tops: int = 25) -> list[tuple[int, F]]:
    """Each value of one dS! with at most ``tops`` tops, with its chance."""
    return [(q * s + r, F(1, s) ** (q + 1)) for q in range(tops + 1) for r in range(1, s)]


CASES = [("max(1d6!, 1d6!)", (6, 6), True), ("min(1d6!, 1d8!)", (6, 8), False),
         ("max(1d4!, 1d6!, 1d8!)", (4, 6, 8), True), ("min(d6!, d6!, d6!)", (6, 6, 6), False),
         ("max(1d10!, 1d10!)", (10, 10), True)]


@pytest.mark.parametrize("text, sizes, highest", CASES, ids=[c[0] for c in CASES])
def test_the_highest_and_lowest_of_open_ended_dice_have_their_mean_and_variance_in_closed_form(text, sizes, highest):
    odds = dice.odds(text)
    assert odds.truncated > 0  # the rows are cut at the depth; the mean and variance are not
    stats = odds.to_dict()["stats"]
    mean, variance = F(stats["mean_exact"]), F(stats["variance_exact"])
    assert (stats["mean_kind"], stats["variance_kind"]) == ("exact", "exact")
    want_mean, want_variance = term_by_term(sizes, highest)
    assert abs(mean - want_mean) < F(1, 10 ** 60)
    assert abs(variance - want_variance) < F(1, 10 ** 60)


@pytest.mark.parametrize("text, sizes, highest", CASES[:2], ids=[c[0] for c in CASES[:2]])
def test_every_pair_of_chains_enumerated_comes_to_just_under_the_closed_form(text, sizes, highest):
    pick = max if highest else min
    low_mean = low_square = F(0)
    for (x, px), (y, py) in itertools.product(chains(sizes[0]), chains(sizes[1])):
        v = pick(x, y)
        low_mean += px * py * v
        low_square += px * py * v * v
    stats = dice.odds(text).to_dict()["stats"]
    mean, square = F(stats["mean_exact"]), F(stats["variance_exact"]) + F(stats["mean_exact"]) ** 2
    assert 0 <= mean - low_mean < F(1, 10 ** 12)
    assert 0 <= square - low_square < F(1, 10 ** 10)


def test_the_best_of_two_exploding_d6_is_the_sum_less_the_worst():
    """E[max] + E[min] = E[X] + E[Y] = 2 · 21/5, the single die's mean in closed form."""
    best, worst = dice.odds("max(1d6!, 1d6!)").mean, dice.odds("min(1d6!, 1d6!)").mean
    assert best + worst == 2 * F(21, 5)
    assert worst == F(13, 5)  # Σ_m P(X ≥ m)²: the first six terms 91/36, over 1 − 1/36


def test_what_has_no_closed_form_here_says_so():
    stats = dice.odds("max(1d6!, 3)").to_dict()["stats"]
    assert (stats["mean_kind"], stats["variance_kind"]) == ("of_mass_worked_out", "of_mass_worked_out")
