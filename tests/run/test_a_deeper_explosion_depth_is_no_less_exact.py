"""A deeper explosion depth answers at least as exactly as a shallower one, as far as the
budget goes (found by an outside author: thirty exploding d6s read by their hits and a
glitch on the first throw's 1s were exact at depth 10 and cut at depth 11, where following
the cut rolls took 57 % of the budget, more than the half a roll may take where work may
follow it). A check of one roll has nothing to follow but holding its values: it may take
three quarters. Against a closed form of each die followed forever."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.limits import Limits
from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  test:
    inputs:
      dice: {type: integer, min: 1, max: 40}
      threshold: {type: integer, min: 1, max: 12}
    roll: (dice)d6!
    let:
      hits: count(roll, 5, 6)
      glitch: count(initial(roll), 1) * 2 > dice
    result: hits
    outcomes:
      - {name: critical_glitch, success: false, when: "glitch and hits == 0"}
      - {name: glitch_success, success: true, when: "glitch and hits >= threshold"}
      - {name: glitch_failure, success: false, when: "glitch"}
      - {name: success, success: true, when: "hits >= threshold"}
      - {name: failure, success: false}
"""


def one_die(cap: int) -> dict[tuple[int, int], F]:
    """One exploding d6 followed forever: its hits (5s and 6s, capped at ``cap``) and whether
    its first throw is a 1. After a 6 the dice it adds hit k more times with (1/6)^k * 10/6
    (k >= 1; none with 4/6): k - 1 sixes then a 5, or k sixes then 1 to 4."""
    after_six = {0: F(4, 6)}
    for k in range(1, cap + 1):
        after_six[k] = F(1, 6) ** k * F(10, 6)
    out: dict[tuple[int, int], F] = defaultdict(F)
    out[(0, 1)] += F(1, 6)
    out[(0, 0)] += F(3, 6)
    out[(1, 0)] += F(1, 6)
    for k, p in after_six.items():
        out[(min(1 + k, cap), 0)] += F(1, 6) * p
    out[(cap, 0)] += F(1, 6) * (1 - sum(after_six.values()))  # the rest of the chain: cap or more
    return dict(out)


def outcomes(dice: int, threshold: int) -> dict[str, F]:
    die = one_die(threshold)
    glitch_at = dice // 2 + 1  # more than half the dice
    states: dict[tuple[int, int], F] = {(0, 0): F(1)}
    for _ in range(dice):
        nxt: dict[tuple[int, int], F] = defaultdict(F)
        for (h, ones), p in states.items():
            for (dh, d1), q in die.items():
                nxt[(min(h + dh, threshold), min(ones + d1, glitch_at))] += p * q
        states = nxt
    out: dict[str, F] = defaultdict(F)
    for (h, ones), p in states.items():
        glitch = ones >= glitch_at
        name = ("critical_glitch" if h == 0 else "glitch_success" if h >= threshold else "glitch_failure") \
            if glitch else "success" if h >= threshold else "failure"
        out[name] += p
    return dict(out)


@pytest.mark.parametrize("depth", [11, 12])
def test_thirty_exploding_dice_are_exact_at_depth_eleven_and_twelve(depth):
    odds = loads(RULESET, limits=Limits(explode_depth=depth)).check("test").odds({"dice": 30, "threshold": 12})
    assert odds.truncated == 0
    expected = outcomes(30, 12)
    assert {k: v for k, v in odds.outcomes.items() if v} == {k: v for k, v in expected.items() if v}
