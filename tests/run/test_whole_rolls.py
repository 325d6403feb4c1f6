"""A roll that is an ``if()`` between dice terms is seen whole, like a dice term alone:
``roll: if(advantage, 3d6kh2, 2d6)`` then ``count(roll, 6)`` reads the dice of the branch
taken (issue 17's trap "dice in every branch of an if()": only that branch is rolled, asked
for as physical faces and shown). Checked against every roll of the dice."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

RULESET = """
ruleset: whole
name: Whole rolls
version: "1"
source: tests
checks:
  attack:
    inputs:
      bonus: {type: integer, default: 0, min: -5, max: 10}
      edge: {type: choice, choices: [none, advantage, disadvantage], default: none}
    roll: if(edge == 'advantage', 3d6kh2, if(edge == 'disadvantage', 3d6kl2, 2d6))
    result: roll + bonus
    outcomes:
      - {name: critical, when: "count(roll, 6) >= 2", success: true}
      - {name: fumble, when: "highest(roll) == 1", success: false}
      - {name: hit, when: "result >= 8", success: true}
      - {name: miss, success: false}
"""


def by_hand(kept: list[int], bonus: int) -> str:
    if kept.count(6) >= 2:
        return "critical"
    if max(kept) == 1:
        return "fumble"
    return "hit" if sum(kept) + bonus >= 8 else "miss"


@pytest.fixture(scope="module")
def rs():
    return loads(RULESET, "whole.yaml")


@pytest.mark.parametrize("edge, dice, keep", [("none", 2, lambda f: list(f)),
                                              ("advantage", 3, lambda f: sorted(f)[1:]),
                                              ("disadvantage", 3, lambda f: sorted(f)[:2])])
def test_the_dice_of_the_branch_taken_are_read_by_the_rules(rs, edge, dice, keep):
    want: dict = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=dice):
        want[by_hand(keep(faces), 1)] += F(1, 6 ** dice)
    odds = rs.check("attack").odds({"bonus": 1, "edge": edge})
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(want)


def test_only_the_branch_taken_is_rolled_and_asked_for(rs):
    r = rs.check("attack").roll({"edge": "advantage"}, faces=[6, 2, 6])
    assert r.outcome == "critical" and r.result == 12
    assert [d.face for d in r.dice] == [6, 2, 6]
    r = rs.check("attack").roll({"edge": "none"}, faces=[1, 1])
    assert r.outcome == "fumble"
    with pytest.raises(Exception, match="faces"):
        rs.check("attack").roll({"edge": "none"}, faces=[1, 1, 1])  # a third die is never rolled
