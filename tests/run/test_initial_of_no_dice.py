"""``initial(roll)`` of a pool of no dice (``(n)d6!cs>=5`` at n = 0) is a first throw of no
dice, in exact odds as when rolled: found by the validate promise's long run (seed 2), where a
tag reading ``count(initial(a), 1)`` rolled at n = 0 but failed when its odds were asked."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesengine import loads

RULESET = """\
ruleset: first-throw
name: First throw
version: "1"
source: tests
checks:
  c:
    inputs:
      n: {type: integer, default: 3, min: 0, max: 4}
    rolls:
      a: (n)d6!cs>=5
    result: a
    outcomes:
      - {name: any, success: true}
    tags:
      - {name: ones, when: "count(initial(a), 1) > 0"}
"""


@pytest.mark.parametrize("n", range(0, 5))
def test_a_tag_on_the_first_throw_has_the_chance_that_one_of_n_dice_shows_a_one(n):
    odds = loads(RULESET).check("c").odds({"n": n})
    # the first throw's n dice: P(some die shows 1) = 1 - (5/6)^n; explosions add later dice only
    assert dict(odds.view().named)["tags"] == {"ones": 1 - Fraction(5, 6) ** n}


def test_rolling_no_dice_and_asking_their_odds_agree():
    check = loads(RULESET).check("c")
    rolled = check.roll({"n": 0}, seed=1)
    assert rolled.tags == () and dict(check.odds({"n": 0}).view().named)["tags"] == {"ones": Fraction(0)}
