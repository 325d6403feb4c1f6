"""An exploding die's chain is followed as the multiset of the dice it added, not as every
sequence of them: two paths that rolled 8 then 9 and 9 then 8 are one state. Counting a band
of faces of an exploding pool (``(20)d10!>=8`` read by ``count(roll, 8, 10)``, Chronicles of
Darkness' 8-again) took 1.8 s and 190 MB, the chains of one die to the depth being 3^10
sequences; it is now a few hundred states.

Oracles, written apart from the engine: each die of ``nd10!>=8`` shows j dice of 8 to 10
(each a 3 in 10) then one of 1 to 7, so ``count(roll, 8, 10)`` is a sum of n geometric
counts, negative binomial: P(k) = C(k + n − 1, n − 1) · 0.3^k · 0.7^n. With the first throw's
count i beside it, the i dice that exploded each add a geometric count of their own:
P(i, t) = C(n, i) · 0.7^(n−i) · 0.3^i · C(t − 1, i − 1) · 0.3^(t−i) · 0.7^i (t ≥ i ≥ 1).
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from rulesengine import loads
from rulesengine.dice.dist import shared_budget

P, Q = F(3, 10), F(7, 10)

RULESET = """\
ruleset: eight-again
name: Eight again
version: "1"
source: tests
checks:
  band:
    inputs:
      dice: {type: integer, min: 1, max: 30}
    roll: (dice)d10!>=8
    result: count(roll, 8, 10)
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
  first_and_all:
    inputs:
      dice: {type: integer, min: 1, max: 30}
    roll: (dice)d10!>=8
    result: 100 * count(roll, 8, 10) + count(initial(roll), 8, 10)
    outcomes:
      - {name: any, success: true}
"""


def negative_binomial(n: int, k: int) -> F:
    return comb(k + n - 1, n - 1) * P ** k * Q ** n


def first_and_all(n: int, i: int, t: int) -> F:
    if i == 0:
        return Q ** n if t == 0 else F(0)
    if t < i:
        return F(0)
    return comb(n, i) * Q ** (n - i) * P ** i * comb(t - 1, i - 1) * P ** (t - i) * Q ** i


@pytest.mark.parametrize("n", [1, 3, 20])
def test_a_band_of_an_exploding_pool_is_a_negative_binomial_below_the_cut(n):
    odds = loads(RULESET).check("band").odds({"dice": n})
    cut = odds.to_dict()["result_cut_from"]
    assert cut is not None and cut >= 11  # the depth (10 dice added to a die) decides only past it
    got = dict(odds.result_distribution)
    for k in range(cut):
        assert got.get(k, 0) == negative_binomial(n, k), k
    assert odds.outcomes["failure"] == Q ** n  # no die of 8 or more: exact, nothing cut


@pytest.mark.parametrize("n", [2, 6])
def test_the_first_throw_read_beside_the_chains_is_exact_below_the_cut(n):
    odds = loads(RULESET).check("first_and_all").odds({"dice": n})
    cut = odds.to_dict()["result_cut_from"]
    got = dict(odds.result_distribution)
    for t in range(11):
        for i in range(n + 1):
            if 100 * t + i < cut:
                assert got.get(100 * t + i, 0) == first_and_all(n, i, t), (i, t)


def test_the_chains_of_twenty_eight_again_dice_are_a_small_work():
    """Measured by what the engine counts: the whole odds of 20 dice under 100,000 steps
    (1,234,626 when each sequence of exploding faces was its own state)."""
    with shared_budget(10**12) as outer:
        loads(RULESET).check("band").odds({"dice": 20})
    assert outer.used < 100_000
