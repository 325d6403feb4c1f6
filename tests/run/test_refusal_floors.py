"""A push too big is refused before any of its distributions is worked out (issue 33, item 3).

Before a roll that reads earlier rolls is worked out, the exact driver charges at least what
working it out will charge: the joint values of the rolls up to it, and for each push, its
readings and at least the rolls and steps of its distributions (``run.readings``). These
are floors, so nothing that is answered is refused; a refusal names what is too big. The
work done before a refusal is counted in distributions built (``builds``), never a clock;
each figure comes from an enumeration written here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesengine.errors import LimitError
from rulesengine.ruleset import loads

HEAD = """ruleset: push
name: A push
version: '1'
source: a test
license: none
checks:
"""

# Three pools, each pushed on its own: the 2..5 of base and gear dice, every skill die but a 6.
APART = HEAD + """  push:
    inputs:
      base: {type: integer, min: 1, max: 12}
      skill: {type: integer, min: 0, max: 12}
      gear: {type: integer, min: 0, max: 12}
    rolls:
      b: (base)d6
      s: (skill)d6
      g: (gear)d6
      pb: (count(b, 2, 5))d6
      ps: (count(s, 1, 5))d6
      pg: (count(g, 2, 5))d6
    result: count(b, 6) + count(s, 6) + count(g, 6) + count(pb, 6) + count(ps, 6) + count(pg, 6)
    outcomes:
      - {name: banes, when: "result == 0 and count(b, 1) + count(pb, 1) >= 1", success: false}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""

# A push of the 6s that explode, its 5s and 6s counted and a botch on the 1s of both throws.
BOTCH = HEAD + """  push:
    inputs:
      pool: {type: integer, min: 1, max: 40}
    rolls:
      pool_dice: (pool)d6
      again: (count(pool_dice, 6))d6!cs>=5
    result: count(pool_dice, 5, 6) + count(again, 5, 6)
    outcomes:
      - {name: botch, when: "result == 0 and count(pool_dice, 1) + count(again, 1) >= 1", success: false}
      - {name: great, when: "result >= 8", success: true}
      - {name: success, when: "result >= 3", success: true}
      - {name: failure, success: false}
"""


def splits(dice: int, bands: int) -> list[tuple[int, ...]]:
    """Every way ``dice`` dice fall into ``bands`` bands of faces (how many in each)."""
    return [s for s in itertools.product(range(dice + 1), repeat=bands) if sum(s) == dice]


def apart_oracle(base: int, skill: int, gear: int) -> dict[str, Fraction]:
    odds = dict.fromkeys(["banes", "success", "failure"], Fraction(0))
    for b, s, g in itertools.product(*(itertools.product(range(1, 7), repeat=n) for n in (base, skill, gear))):
        again = [sum(1 for f in b if 2 <= f <= 5), sum(1 for f in s if f <= 5), sum(1 for f in g if 2 <= f <= 5)]
        for pb, ps, pg in itertools.product(*(itertools.product(range(1, 7), repeat=n) for n in again)):
            p = Fraction(1, 6 ** (base + skill + gear + sum(again)))
            result = (b + s + g + pb + ps + pg).count(6)
            ones = (b + pb).count(1)
            odds["banes" if result == 0 and ones else "success" if result else "failure"] += p
    return odds


@pytest.mark.parametrize(("base", "skill", "gear"), [(1, 0, 0), (1, 1, 1), (2, 1, 1)])
def test_pools_pushed_apart_are_answered_as_every_throw_says(base, skill, gear):
    odds = loads(APART, "push.yaml").check("push").odds({"base": base, "skill": skill, "gear": gear})
    assert odds.outcomes == apart_oracle(base, skill, gear)


def test_pools_pushed_apart_at_their_maximum_are_refused_before_any_push_is_worked_out(builds):
    # The rules read base and gear dice by three bands (1, 2..5, 6) and skill dice by two
    # (6, the rest). The push of the base dice reads how many show 2..5 (13 ways it rolls),
    # and k dice pushed are read by their 1s and 6s (C(k + 2, 2) ways): with it, the joint
    # values number
    base = sum(len(splits(k25, 3)) for _, k25, _ in splits(12, 3))  # each reading of b, with its push's
    joint = base * len(splits(12, 2)) * len(splits(12, 3))
    assert joint == 2_153_060  # past the budget of 2,000,000 steps
    with pytest.raises(LimitError) as refused:
        loads(APART, "push.yaml").check("push").odds({"base": 12, "skill": 12, "gear": 12})
    assert refused.value.limit == "max_states"
    message = str(refused.value)
    assert f"'pb' (13 ways, for {len(splits(12, 3))} readings of b): at least {joint:,} joint values" in message
    assert "max_states is 2,000,000" in message
    assert builds[0] == 3  # the three first throws: not one push


def test_an_exploding_push_at_its_maximum_is_refused_before_any_push_is_worked_out(builds):
    # 40 dice read by four bands (1, 2..4, 5, 6); the push reads how many 6s: 41 ways.
    readings = len(splits(40, 4))
    assert readings == 12_341
    with pytest.raises(LimitError) as refused:
        loads(BOTCH, "push.yaml").check("push").odds({"pool": 40})
    assert refused.value.limit == "max_states"
    assert f"'again' (41 ways, for {readings:,} readings of pool_dice): at least" in str(refused.value)
    assert builds[0] == 1  # the first throw only


@pytest.mark.parametrize("pool", [1, 2, 3])
def test_an_exploding_push_within_the_budget_is_answered_as_every_throw_says(pool):
    # Oracle: every first throw, and every push it makes, the 6s exploding (each 6 adds a
    # die) up to the depth the engine follows, 10 more dice a die. A die still exploding
    # there has shown 11 sixes already: a great success whatever it goes on to.
    from rulesengine.limits import DEFAULT_LIMITS

    depth = DEFAULT_LIMITS.explode_depth
    die: dict[tuple[int, ...], Fraction] = {}  # one exploding die's faces (ending in 6: cut there)

    def chains(prefix: tuple[int, ...], p: Fraction) -> None:
        for f in range(1, 7):
            c, q = prefix + (f,), p / 6
            if f == 6 and len(c) <= depth:
                chains(c, q)
            else:
                die[c] = q

    chains((), Fraction(1))
    odds = dict.fromkeys(["botch", "great", "success", "failure"], Fraction(0))
    for first in itertools.product(range(1, 7), repeat=pool):
        for again in itertools.product(die.items(), repeat=first.count(6)):
            p = Fraction(1, 6 ** pool)
            faces = [f for c, _ in again for f in c]
            for _, q in again:
                p *= q
            result = sum(f >= 5 for f in first) + sum(f >= 5 for f in faces)
            ones = first.count(1) + faces.count(1)
            odds["botch" if result == 0 and ones else "great" if result >= 8 else
                 "success" if result >= 3 else "failure"] += p
    got = loads(BOTCH, "push.yaml").check("push").odds({"pool": pool})
    assert got.outcomes == odds
