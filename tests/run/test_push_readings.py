"""A roll that reads earlier rolls is worked out once for each value of what it reads of
them (issue 33, item 2).

A push re-rolls the dice that failed: ``(count(pool_dice, 6))d6cs>=5`` reads only how many
6s the first throw shows, not each reading of the faces the rules look at (1s, 5s, 6s, the
rest); a push of every die that is neither a 6 nor a 1, taken when the first throw shows
no 6 and no 1 (``highest``/``lowest``), reads one yes/no and one count. Figures come from
a brute force over every throw; the work is counted in distributions built, never a clock.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from rulesengine.ruleset import loads

HEAD = """ruleset: push
name: A push
version: '1'
source: a test
license: none
checks:
"""

SIXES = HEAD + """  sixes:
    inputs:
      pool: {type: integer, min: 1, max: 40}
    rolls:
      pool_dice: (pool)d6
      again: (count(pool_dice, 6))d6cs>=5
    result: count(pool_dice, 5, 6) + again
    outcomes:
      - {name: botch, when: "result == 0 and count(pool_dice, 1) >= 1", success: false}
      - {name: great, when: "result >= 3", success: true}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""

CALM = "highest(b) < 6 and highest(s) < 6 and lowest(b) > 1 and lowest(s) > 1"
BASE_AND_STRESS = HEAD + f"""  push:
    inputs:
      base: {{type: integer, min: 1, max: 20}}
      stress: {{type: integer, min: 1, max: 20}}
    rolls:
      b: (base)d6
      s: (stress)d6
      pb: "if({CALM}, (count(b, 2, 5))d6, 0d6)"
      ps: "if({CALM}, (count(s, 2, 5))d6, 0d6)"
    result: count(b, 6) + count(s, 6) + count(pb, 6) + count(ps, 6)
    outcomes:
      - {{name: panic, when: "result == 0 and count(s, 1) + count(ps, 1) >= 1", success: false}}
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def sixes_oracle(pool: int) -> dict[str, Fraction]:
    odds = dict.fromkeys(["botch", "great", "success", "failure"], Fraction(0))
    for first in itertools.product(range(1, 7), repeat=pool):
        sixes = first.count(6)
        for second in itertools.product(range(1, 7), repeat=sixes):
            p = Fraction(1, 6 ** (pool + sixes))
            result = sum(1 for f in first if f >= 5) + sum(1 for f in second if f >= 5)
            name = ("botch" if result == 0 and 1 in first else "great" if result >= 3
                    else "success" if result >= 1 else "failure")
            odds[name] += p
    return odds


def push_oracle(base: int, stress: int) -> dict[str, Fraction]:
    odds = dict.fromkeys(["panic", "success", "failure"], Fraction(0))
    for b in itertools.product(range(1, 7), repeat=base):
        for s in itertools.product(range(1, 7), repeat=stress):
            calm = max(b + s) < 6 and min(b + s) > 1
            again_b = sum(1 for f in b if 2 <= f <= 5) if calm else 0
            again_s = sum(1 for f in s if 2 <= f <= 5) if calm else 0
            for pb in itertools.product(range(1, 7), repeat=again_b):
                for ps in itertools.product(range(1, 7), repeat=again_s):
                    p = Fraction(1, 6 ** (base + stress + again_b + again_s))
                    result = (b + s + pb + ps).count(6)
                    name = ("panic" if result == 0 and (s + ps).count(1) >= 1
                            else "success" if result >= 1 else "failure")
                    odds[name] += p
    return odds


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
def test_a_push_of_the_sixes_is_answered_as_every_throw_says(pool):
    odds = loads(SIXES, "push.yaml").check("sixes").odds({"pool": pool})
    assert odds.outcomes == sixes_oracle(pool)


@pytest.mark.parametrize(("base", "stress"), [(1, 1), (2, 1), (2, 2)])
def test_a_push_of_base_and_stress_dice_is_answered_as_every_throw_says(base, stress):
    odds = loads(BASE_AND_STRESS, "push.yaml").check("push").odds({"base": base, "stress": stress})
    assert odds.outcomes == push_oracle(base, stress)


def test_a_push_of_the_sixes_is_worked_out_once_for_each_count_of_sixes(builds):
    # The rules read the first throw's 1s, its 5s and 6s, and again its 6s: four bands
    # of faces, so 12 dice come in C(15, 3) readings; the push reads only how many 6s.
    readings = math.comb(12 + 3, 3)
    assert readings == 455
    loads(SIXES, "push.yaml").check("sixes").odds({"pool": 12})
    assert builds[0] == 1 + 13  # the first throw, then one push for each count of 6s 0..12


def test_a_push_taken_on_a_calm_throw_is_worked_out_once_for_each_count_it_rerolls(builds):
    loads(BASE_AND_STRESS, "push.yaml").check("push").odds({"base": 5, "stress": 10})
    # b and s; then each push is worked out for each value of what it reads: whether the
    # throw is calm (then every die is 2..5: all 5 or 10 re-rolled), and, when it is not, each
    # count of 2..5 its branch not taken reads (0..5, 0..10). Not each of the 21 x 66
    # readings of b and s through their bands (1, 2..5, 6).
    assert builds[0] == 2 + (1 + 6) + (1 + 11)
