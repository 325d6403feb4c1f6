"""An outcome's success as a yes/no expression (issue 15): one rule whose success depends on
the roll, instead of one rule per case; checked against a brute force over 2d6."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

RULESET = """ruleset: t
name: T
version: "1"
source: tests
checks:
  parry:
    inputs:
      skill: {type: integer, min: 2, max: 12}
    roll: 2d6
    result: skill - roll
    outcomes:
      - name: clash
        success: result >= 0
        when: count(roll, 6) == 2 or count(roll, 1) == 2
        result: result * 2
      - {name: made, success: true, when: result >= 0}
      - {name: missed, success: false}
"""


@pytest.mark.parametrize("skill", [4, 7, 11])
def test_success_of_an_outcome_may_be_read_from_its_final_result(skill):
    want = Fraction(0)
    for a, b in itertools.product(range(1, 7), repeat=2):
        margin = skill - a - b
        if a == b and a in (1, 6):
            margin *= 2
        want += Fraction(1, 36) if margin >= 0 else 0
    odds = loads(RULESET, "t.yaml").check("parry").odds({"skill": skill})
    assert odds.success == want
    assert odds.outcome_success["clash"] is None and odds.outcome_success["made"] is True
    assert odds.to_dict()["outcomes"][0]["success"] is None


def test_a_rolled_clash_says_whether_it_counted():
    chk = loads(RULESET, "t.yaml").check("parry")
    assert chk.roll({"skill": 11}, faces=[1, 1]).success is True    # 11 - 2 = 9, doubled: 18
    assert chk.roll({"skill": 11}, faces=[6, 6]).success is False   # 11 - 12 = -1, doubled: -2


def test_a_success_expression_that_is_not_yes_no_is_refused():
    with pytest.raises(RulesEngineError) as info:
        loads(RULESET.replace("success: result >= 0", "success: result"), "t.yaml")
    assert info.value.code == "E520"
