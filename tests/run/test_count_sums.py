"""Counts of one roll that the rules only add together are read as one number (issue 33,
item 1): ``count(roll, 7, 10) + count(roll, double, 10)`` (successes, faces from ``double``
up counting twice) is one sum each die adds 0, 1 or 2 to, not a pair of counts. A pool of
30 d10s then has some sixty readings where the pair had hundreds, and the threshold may be
an input, a number written out or chosen by an ``if()`` on an input: all read alike.

Every figure is checked against every face of small pools, enumerated here; the work is
counted in the joint values the resolver resolves, never a clock.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

POOLS = """
ruleset: sums
name: Sums of counts
version: "1"
source: tests
checks:
  doubles:
    inputs:
      pool: {type: integer, default: 3, min: 1, max: 40}
      double: {type: integer, default: 9, min: 7, max: 11}
    roll: (pool)d10
    let:
      successes: count(roll, 7, 10) + count(roll, double, 10)
    result: successes
    outcomes:
      - {name: botch, when: "successes == 0 and count(roll, 1) >= 1", success: false}
      - {name: success, when: "successes >= 1", success: true}
      - {name: failure, success: false}
  doubles_if:
    inputs:
      pool: {type: integer, default: 3, min: 1, max: 40}
      double: {type: integer, default: 9, min: 7, max: 11}
    roll: (pool)d10
    let:
      successes: "count(roll, 7, 10) + if(double <= 10, count(roll, double, 10), 0)"
    result: successes
    outcomes:
      - {name: botch, when: "successes == 0 and count(roll, 1) >= 1", success: false}
      - {name: success, when: "successes >= 1", success: true}
      - {name: failure, success: false}
  net:
    inputs:
      pool: {type: integer, default: 3, min: 1, max: 40}
      bonus: {type: integer, default: 1, min: 0, max: 3}
    roll: (pool)d6
    result: "2 * count(roll, 6) + count(roll, 4, 5) - count(roll, 1) + bonus"
    outcomes:
      - {name: great, when: "result >= 5 and highest(roll) == 6", success: true}
      - {name: fine, when: "result >= 2", success: true}
      - {name: poor, success: false}
"""


@pytest.fixture(scope="module")
def rs():
    return loads(POOLS, "sums.yaml")


def doubles_by_hand(n: int, double: int) -> tuple[dict, dict]:
    outcomes: dict = defaultdict(F)
    results: dict = defaultdict(F)
    for faces in itertools.product(range(1, 11), repeat=n):
        hits = sum(f >= 7 for f in faces) + sum(double <= f <= 10 for f in faces)
        name = "botch" if hits == 0 and 1 in faces else "success" if hits else "failure"
        outcomes[name] += F(1, 10 ** n)
        results[hits] += F(1, 10 ** n)
    return dict(outcomes), dict(sorted(results.items()))


@pytest.mark.parametrize("check", ["doubles", "doubles_if"])
@pytest.mark.parametrize("n, double", [(1, 9), (3, 7), (3, 8), (3, 10), (3, 11), (4, 9)])
def test_counts_added_together_are_read_as_every_face_says(rs, check, n, double):
    want_outcomes, want_result = doubles_by_hand(n, double)
    odds = rs.check(check).odds({"pool": n, "double": double})
    assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes
    assert odds.result_distribution == want_result
    assert odds.truncated == 0


def test_weighted_counts_and_a_known_number_are_read_as_every_face_says(rs):
    for n, bonus in [(1, 0), (3, 1), (4, 3)]:
        outcomes: dict = defaultdict(F)
        for faces in itertools.product(range(1, 7), repeat=n):
            value = 2 * faces.count(6) + sum(4 <= f <= 5 for f in faces) - faces.count(1) + bonus
            name = "great" if value >= 5 and max(faces) == 6 else "fine" if value >= 2 else "poor"
            outcomes[name] += F(1, 6 ** n)
        odds = rs.check("net").odds({"pool": n, "bonus": bonus})
        assert {k: v for k, v in odds.outcomes.items() if v} == dict(outcomes)


@pytest.mark.parametrize("check", ["doubles", "doubles_if"])
def test_thirty_dice_with_a_threshold_from_an_input_resolve_one_value_per_sum(rs, resolved, check):
    """30 d10s, faces from 9 up counting twice: each die adds 0, 1 or 2 to the sum, the 1s
    are read only against 1 (as 0, 1 or more: one past the number compared with), so at
    most 61 × 3 joint values, where the pair of counts and the 1s made over a thousand. The botch has its closed form: no 7+, not all 2..6."""
    odds = rs.check(check).odds({"pool": 30, "double": 9})
    assert 0 < resolved[0] <= 61 * 3
    assert odds.outcomes["botch"] == F(6, 10) ** 30 - F(5, 10) ** 30
    assert odds.outcomes["failure"] == F(5, 10) ** 30
    assert odds.result_distribution[60] == F(2, 10) ** 30  # every die 9 or 10
