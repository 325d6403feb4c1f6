"""A roll that reads earlier rolls is refused before it is worked out (issue 33, item 3).

A push (the dice that failed are rolled again when the first throw shows no success and
no bane) is a second roll whose dice count reads the first ones. It was worked out once
for every joint reading of the rolls it reads, and only then was the budget charged for
the joint values it made: at its inputs' maximum (12 + 12 + 12 dice) the refusal came
after minutes. The number of readings is known before any of them is worked out, and is
charged first. Every assertion here counts what the engine counts (distributions built,
the limit named): never a clock.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from rulesengine.errors import LimitError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

FIRST = "count(b, 6) + count(s, 6) + count(g, 6) == 0 and count(b, 1) + count(g, 1) == 0"
PUSH = f"""ruleset: push
name: A push
version: '1'
source: a test
license: none
checks:
  push:
    inputs:
      base: {{type: integer, min: 1, max: 12, default: 3}}
      skill: {{type: integer, min: 0, max: 12, default: 2}}
      gear: {{type: integer, min: 0, max: 12, default: 1}}
    rolls:
      b: (base)d6
      s: (skill)d6
      g: (gear)d6
      again: "if({FIRST}, (count(b, 2, 5) + count(s, 1, 5) + count(g, 2, 5))d6, 0d6)"
    result: "if({FIRST}, count(again, 6), count(b, 6) + count(s, 6) + count(g, 6))"
    outcomes:
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def push_check(limits=DEFAULT_LIMITS):
    return loads(PUSH, "push.yaml", limits).check("push")


def readings(dice: int, bands: int) -> int:
    """How many ways ``dice`` dice fall into ``bands`` bands of faces, by enumeration."""
    return sum(1 for split in itertools.product(range(dice + 1), repeat=bands) if sum(split) == dice)


def test_a_push_within_the_budget_is_answered_as_enumerating_every_throw_says():
    # Oracle: every face of one base, one skill and one gear die; a push re-rolls all three.
    success = Fraction(0)
    for b, s, g in itertools.product(range(1, 7), repeat=3):
        p = Fraction(1, 216)
        if 6 in (b, s, g):
            success += p
        elif b != 1 and g != 1:
            success += p * (1 - Fraction(5, 6) ** 3)
    odds = push_check().odds({"base": 1, "skill": 1, "gear": 1})
    assert odds.outcomes["success"] == success


def test_a_push_reading_more_than_the_budget_is_refused_before_its_second_roll_is_worked_out(builds):
    # 8 base and 8 gear dice each fall into three bands (6, 1, 2..5), 8 skill dice into two:
    # the push is worked out for each joint reading, at least one value each.
    count = readings(8, 3) * readings(8, 2) * readings(8, 3)
    assert count == 18_225
    limits = dataclasses.replace(DEFAULT_LIMITS, max_states=40_000)  # under twice the readings
    with pytest.raises(LimitError) as refused:
        push_check(limits).odds({"base": 8, "skill": 8, "gear": 8})
    assert refused.value.limit == "max_states"
    assert f"'again' is worked out for each of {count:,} readings of b, g, s" in str(refused.value)
    assert builds[0] == 3  # the three first throws; not one of the pushes (the old code built ~9,800)


def test_a_push_at_its_inputs_maximum_is_refused_before_its_joint_values_are_made(builds):
    import tracemalloc

    # Stress dice whose 1s are banes too: each pool of 12 dice falls into three bands.
    text = PUSH.replace("count(b, 1) + count(g, 1) == 0", "count(b, 1) + count(s, 1) + count(g, 1) == 0")
    text = text.replace("count(s, 1, 5)", "count(s, 2, 5)")
    count = readings(12, 3) ** 3
    assert count == 753_571
    check = loads(text, "push.yaml").check("push")
    tracemalloc.start()
    try:
        with pytest.raises(LimitError) as refused:
            check.odds({"base": 12, "skill": 12, "gear": 12})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert refused.value.limit == "max_states"
    assert f"{count:,} readings of b, g, s" in str(refused.value)
    assert builds[0] == 3
    # The old code made every joint value of the three first throws (a dict each, ~370 MB)
    # before it was refused, after building hundreds of thousands of pushes.
    assert peak < 20_000_000


PRODUCT = """ruleset: product
name: A product of two big dice
version: '1'
source: a test
checks:
  product:
    rolls:
      a: 1d1500
      b: 1d1000
    result: a * b
    outcomes:
      - {name: high, when: "result >= 500000", success: true}
      - {name: low, success: false}
"""


def test_joint_values_past_the_budget_are_refused_saying_what_was_spent_before_them():
    """1,500,000 joint values are under max_states (2,000,000) alone: the refusal says what
    working the rolls out spent first, and what keeping them adds, so the numbers add up."""
    with pytest.raises(LimitError) as info:
        loads(PRODUCT, "product.yaml").check("product").odds({})
    message = str(info.value)
    assert info.value.limit == "max_states"
    assert "1,504,000 steps working the rolls out, then 1,500,000 joint values to resolve and keep " \
           "(3,000,000 more): past max_states (2,000,000)" in message
