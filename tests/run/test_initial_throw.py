"""initial(roll): the dice of the first throw, told apart from those explosions added (issue
14, gap 2: "some games judge a botch on the first throw only"). Exact odds against an
enumeration of every die's chain of explosions, written here; rolls with given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

YAML = """
ruleset: first-throw
name: First throw
version: "1"
source: tests
checks:
  pool:
    roll: 2d4!
    result: roll
    outcomes:
      - {name: first_one, when: "count(initial(roll), 1) > 0", success: false}
      - {name: later_one, when: "count(roll, 1) > 0", success: false}
      - {name: no_one, success: true}
  kept:
    roll: 3d6kh2
    result: roll
    outcomes:
      - {name: any, when: "count(initial(roll), 1) >= 0", success: true}
"""


def chains():
    """(first face, an added die shows 1, cut, probability) for one 1d4! die, explosions
    followed to the engine's depth; a chain of fours that reaches it is cut (more dice to come,
    whose faces are unknown)."""
    depth = DEFAULT_LIMITS.explode_depth
    for k in range(depth + 1):  # k fours, then a face that stops
        for last in (1, 2, 3):
            first = 4 if k else last
            yield first, bool(k) and last == 1, False, F(1, 4) ** k * F(1, 4)
    yield 4, False, True, F(1, 4) ** (depth + 1)


def test_a_one_on_the_first_throw_is_told_from_a_one_an_explosion_added():
    """A pair with a cut chain is decided where the depth can't change the outcome: a 1 on
    the first throw, or a 1 the other die's explosions added; else it stays truncated."""
    want: dict[str, F] = defaultdict(F)
    for (f1, a1, c1, p1), (f2, a2, c2, p2) in itertools.product(list(chains()), repeat=2):
        if 1 in (f1, f2):
            want["first_one"] += p1 * p2
        elif a1 or a2:
            want["later_one"] += p1 * p2
        elif not (c1 or c2):
            want["no_one"] += p1 * p2
    odds = loads(YAML, "first.yaml").check("pool").odds({})
    assert odds.outcomes == dict(want)
    assert odds.outcomes["first_one"] == 1 - F(3, 4) ** 2  # the first throw alone decides it
    assert odds.truncated == 1 - sum(want.values())


def test_rolls_read_the_first_throw():
    rs = loads(YAML, "first.yaml")
    # Faces are read as the dice come: both dice of the first throw, then what the 4 added.
    assert rs.check("pool").roll(faces=[4, 2, 1]).outcome == "later_one"   # the 1 came from the explosion
    assert rs.check("pool").roll(faces=[4, 1, 3]).outcome == "first_one"
    assert rs.check("pool").roll(faces=[1, 3]).outcome == "first_one"
    assert rs.check("pool").roll(faces=[2, 3]).outcome == "no_one"


def test_initial_needs_a_roll_that_keeps_every_die():
    rs = loads(YAML, "first.yaml")
    with pytest.raises(RulesEngineError, match="initial\\(\\) of a roll that keeps or drops dice"):
        rs.check("kept").roll(seed=1)


def test_a_condition_may_read_the_first_throw_of_a_check_that_does_not():
    text = YAML + """  plain:
    roll: 2d4!
    result: roll
    outcomes:
      - {name: high, when: "result >= 6", success: true}
      - {name: low, success: false}
"""
    odds = loads(text, "first.yaml").check("plain").odds({}, given="count(initial(roll), 1) > 0")
    # Chains followed 40 deep; one cut there (41 fours: a total of 164 or more, a first throw
    # of 4) lies wholly inside "high", so the sums below are exact however deep dice go.
    depth = 40
    dice = [(4 * k + last, 4 if k else last, F(1, 4) ** (k + 1)) for k in range(depth + 1) for last in (1, 2, 3)]
    dice.append((4 * (depth + 1), 4, F(1, 4) ** (depth + 1)))
    held = high = F(0)
    for (t1, f1, p1), (t2, f2, p2) in itertools.product(dice, repeat=2):
        if 1 in (f1, f2):
            held += p1 * p2
            high += p1 * p2 if t1 + t2 >= 6 else 0
    # A 1 among the two dice first thrown: 7/16, whatever explosions past the depth do.
    assert held == F(7, 16) and odds.given_probability == held
    assert odds.outcomes["high"] == high / held and odds.truncated == 0
