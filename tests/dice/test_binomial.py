"""Sums of many two-outcome dice (counting successes) in closed form, issue 18: the same
distribution as convolving the dice one by one."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine import dice
from rulesengine.dice.dist import Dist, add, sum_of


def one_by_one(d: Dist, n: int) -> Dist:
    out = Dist.point(0)
    for _ in range(n):
        out = add(out, d).reduced()
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(-3, 5), st.integers(1, 6), st.integers(1, 9), st.integers(1, 9), st.integers(1, 40))
def test_the_binomial_sum_equals_convolving_die_by_die(lo, step, w_lo, w_hi, n):
    d = Dist({lo: w_lo, lo + step: w_hi}, w_lo + w_hi)
    assert sum_of(d, n).probabilities() == one_by_one(d, n).probabilities()


def test_counting_successes_on_many_dice_is_the_binomial():
    """P(exactly k of 300 d10 show 8+) = C(300, k) (3/10)^k (7/10)^(300-k)."""
    from math import comb

    odds = dice.odds("300d10cs>=8")
    for k in (0, 1, 90, 150, 300):
        assert odds.probability(k) == comb(300, k) * F(3, 10) ** k * F(7, 10) ** (300 - k)
