"""The sums of 1, 2, … n dice of one kind are made one die at a time, once per computation
(issue 33, item 2): a push of the 6s, ``(count(pool_dice, 6))d6!cs>=5``, asks for the sum
of every count of 6s up to the pool's size, and each is one convolution more than the one
before. Each computation is charged for its own convolutions only, so what it is charged
never depends on what another call left in the process's caches; a push of 40 exploding 6s,
refused before (its ladder of sums charged as forty separate pools), is answered.

Oracles: every sequence of faces walked (``oracle.replay_dist``) for small pools; the work
is counted in steps charged, never a clock.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from oracle import replay_dist
from rulesengine import cache, dice
from rulesengine.dice.dist import shared_budget
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

SHALLOW = dataclasses.replace(DEFAULT_LIMITS, explode_depth=1)


@pytest.mark.parametrize("text", ["2d6!cs>=5", "3d6!cs>=5", "3d4!", "2d{0,1,1,3}!=3"])
def test_the_sum_of_a_few_exploding_dice_is_every_sequence_of_faces(text):
    want, truncated = replay_dist(text, limits=SHALLOW)
    odds = dice.parse(text).odds(explode_depth=1)
    assert odds.distribution == {v: p for v, p in sorted(want.items()) if p}
    assert odds.truncated == truncated


PUSH = """ruleset: push
name: A push of the sixes
version: '1'
source: a test
checks:
  push:
    inputs:
      pool: {type: integer, min: 1, max: 40}
    rolls:
      pool_dice: (pool)d6
      again: (count(pool_dice, 6))d6!cs>=5
    result: count(pool_dice, 5, 6) + again
    outcomes:
      - {name: great, when: "result >= 8", success: true}
      - {name: success, when: "result >= 3", success: true}
      - {name: failure, success: false}
"""


def charged(pool: int) -> tuple[int, Fraction]:
    """The steps one computation of the push's odds is charged, and its P(success)."""
    check = loads(PUSH, "push.yaml").check("push")
    with shared_budget(10 ** 12) as total:
        odds = check.odds({"pool": pool})
    return total.used, odds.success


def test_a_push_of_forty_exploding_sixes_is_answered_within_the_budget():
    used, success = charged(40)
    assert used <= DEFAULT_LIMITS.max_states
    assert 0 < success < 1


def test_what_a_computation_is_charged_does_not_depend_on_the_caches_left_behind():
    for c in (cache.POOL_DISTS, cache.ODDS, cache.CHECK_ODDS):
        c.clear()
    cold = charged(12)
    warm = charged(12)  # a new ruleset object: its odds are worked out again, the caches filled
    assert cold == warm
