"""A let that is an `if()` on inputs holds only its taken branch's roll (found by an outside
author's The One Ring "weary": `dice_value: if(weary, 4 * count(sd, 4) + 5 * count(sd, 5) +
6 * count(sd, 6), sd)`, where weary, the success dice showing 1 to 3 count 0). The odds read
the pool's total beside its counts even where weary was given true, as if the let might hold
the roll: twenty dice took 2.2 s, where the same without the `if()` took 0.2 s. Tested by
what the engine counts: the work budget a weary roll fits in, against a closed form."""

from __future__ import annotations

from collections import Counter
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
  c:
    inputs:
      dice: {type: integer, min: 1, max: 20}
      weary: {type: boolean, default: false}
      tn: {type: integer, min: 1, max: 120}
    roll: (dice)d6
    let:
      value: if(weary, 4 * count(roll, 4) + 5 * count(roll, 5) + 6 * count(roll, 6), roll)
    result: value
    outcomes:
      - {name: pass, when: "result >= tn", success: true}
      - {name: fail, success: false}
"""


def at_least(dice: int, tn: int, weary: bool) -> F:
    """P(the dice's value >= tn), each die 1 to 6 (weary: 1 to 3 count 0), added up here."""
    die = {0: F(1, 2), 4: F(1, 6), 5: F(1, 6), 6: F(1, 6)} if weary else {f: F(1, 6) for f in range(1, 7)}
    total = {0: F(1)}
    for _ in range(dice):
        nxt: Counter = Counter()
        for a, p in total.items():
            for b, q in die.items():
                nxt[a + b] += p * q
        total = dict(nxt)
    return sum((p for v, p in total.items() if v >= tn), F(0))


@pytest.mark.parametrize("weary", [True, False])
def test_the_let_reads_the_roll_as_its_input_says(weary):
    odds = loads(RULESET).check("c").odds({"dice": 12, "weary": weary, "tn": 40})
    assert odds.outcomes["pass"] == at_least(12, 40, weary)


def test_a_weary_pool_is_read_by_its_counts_alone():
    """Twenty weary dice read by three counts fit 20,000 steps; read with their total as
    well (0 to 120 beside the counts) they did not fit 100,000."""
    odds = loads(RULESET, limits=Limits(max_states=20_000)).check("c").odds({"dice": 20, "weary": True, "tn": 40})
    assert odds.outcomes["pass"] == at_least(20, 40, True)
