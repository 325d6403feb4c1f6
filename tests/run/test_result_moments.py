"""A check's result keeps the closed-form variance of its exploding dice (issue 34, "means
and variances in closed form"), as a dice expression does: where explosions were cut, the
result's mean and variance are those of the roll followed forever (``variance_kind``
"exact"), not of the mass worked out.

Oracle, written here: a dS! is S·K + Y, K geometric (P(K = k) = (1/S)^k (1 − 1/S)) and Y
uniform on 1..S−1, independent; Var = S²·p/(1 − p)² + ((S − 1)² − 1)/12 with p = 1/S.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads


def variance(s: int) -> F:
    p = F(1, s)
    return s * s * p / (1 - p) ** 2 + F((s - 1) ** 2 - 1, 12)


def mean(s: int) -> F:
    p = F(1, s)
    return s * p / (1 - p) + F(s, 2)


RULES = """
ruleset: moments
name: Moments
version: "1"
source: tests
checks:
  boom:
    roll: 1d6! + 2
    result: roll
    outcomes:
      - {name: hit, when: "result >= 7", success: true}
      - {name: miss, success: false}
  apart:
    rolls:
      a: 1d6!
      b: 1d8!
    result: 2 * a - b
    outcomes:
      - {name: hit, when: "result >= 1", success: true}
      - {name: miss, success: false}
"""


@pytest.mark.parametrize("check, want_mean, want_variance", [
    ("boom", mean(6) + 2, variance(6)),
    ("apart", 2 * mean(6) - mean(8), 4 * variance(6) + variance(8)),
])
def test_a_checks_result_has_the_variance_of_its_dice_followed_forever(check, want_mean, want_variance):
    odds = loads(RULES, "moments.yaml").check(check).odds({})
    assert odds.result_truncated > 0  # explosions were cut: the figures are the closed form's
    stats = odds.to_dict()["stats"]["result"]
    assert F(stats["mean_exact"]) == want_mean and stats["mean_kind"] == "exact"
    assert F(stats["variance_exact"]) == want_variance and stats["variance_kind"] == "exact"
