"""`and` and `or` whose left side reads only inputs are settled before the odds choose what to
read of a roll, as an `if()` on inputs is (found by an outside author's Chronicles of
Darkness chance die: `when: "dice == 0 and pool == 1"` read the pool's total beside its
counts for every pool, and twenty exploding d10s were refused, E210, where the same written
`if(dice == 0, pool == 1, false)` answered in 0.1 s). Evaluation skips the right side where
the left decides, so the odds need not read it."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      dice: {type: integer, min: 0, max: 20}
    roll: if(dice == 0, 1d10, (dice)d10!)
    result: if(dice == 0, count(roll, 10), count(roll, 8, 10))
    outcomes:
      - {name: dramatic, when: "WHEN", success: false}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""


@pytest.mark.parametrize("when", ["dice == 0 and roll == 1", "not (dice != 0 or roll != 1)"])
@pytest.mark.parametrize("dice", [0, 3, 20])
def test_a_chance_die_on_an_input_is_read_only_where_the_input_says(when, dice):
    """No success is no die 8 or more on its first throw: (7/10)^dice (a 10 explodes, but is
    a success itself); the chance die (dice=0) is one d10: a 1 is dramatic, a 10 a success."""
    odds = loads(RULESET.replace("WHEN", when)).check("c").odds({"dice": dice})
    assert odds.truncated == 0
    if dice == 0:
        assert odds.outcomes == {"dramatic": F(1, 10), "success": F(1, 10), "failure": F(8, 10)}
    else:
        assert odds.outcomes == {"dramatic": 0, "success": 1 - F(7, 10) ** dice, "failure": F(7, 10) ** dice}
