"""A roll written as ``if()`` on an input (``if(push, (dice)d6!, (dice)d6)``) is, once the inputs
are given, the branch taken: its result's mean and variance have the closed form that branch
has (an outside author: the same pool written without the if() was exact, with it "of the
mass worked out").

Oracle, per die of ``d6!`` counting 5s and 6s (a 6 rolls again): H = h + [6]·H', so
E[H] = (1/3) / (5/6) = 2/5 and E[H²] = (1/3 + 2 · (1/6) · (2/5)) / (5/6) = 14/25, Var = 2/5;
a plain d6: a hit with 1/3, Var = 2/9."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

TEXT = """\
ruleset: sr
name: SR
version: "1"
source: tests
checks:
  test:
    inputs:
      dice: {type: integer, default: 6, min: 1, max: 20}
      push: {type: boolean, default: false}
    roll: "if(push, (dice)d6!, (dice)d6)"
    result: count(roll, 5, 6)
    outcomes:
      - {name: success, when: "result >= 2", success: true}
      - {name: failure, success: false}
"""


@pytest.mark.parametrize("dice, push, mean, variance", [
    (6, True, F(12, 5), F(12, 5)), (1, True, F(2, 5), F(2, 5)), (6, False, F(2), F(4, 3)),
])
def test_the_branch_an_input_takes_has_its_closed_form(dice, push, mean, variance):
    summary = loads(TEXT, "sr.yaml").check("test").odds({"dice": dice, "push": push}).to_dict()["stats"]["result"]
    assert summary["mean_kind"] == "exact" and F(summary["mean_exact"]) == mean
    assert summary["variance_kind"] == "exact" and F(summary["variance_exact"]) == variance
