"""The exact mean of exploding rolls (issue 14, gap 3: "the mean of an exploding count is
printed approximately (2.14274 where the exact value is 15/7)"). The closed form is checked
against the same expression worked out exactly with explosions followed 40 deep, whose mean
it must match to far below any printed digit, and against hand-summed series."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine import dice
from rulesengine.dice.dist import Budget
from rulesengine.dice.expectation import exact_mean as exact_mean_within


def exact_mean(tree, env):
    return exact_mean_within(tree, env, Budget(2_000_000))


def deep_mean(text: str, env=None) -> F:
    odds = dice.parse(text).odds(env, explode_depth=40)
    mass = sum(odds.distribution.values(), F(0))
    return sum((v * p for v, p in odds.distribution.items()), F(0)) / mass


@pytest.mark.parametrize("text", ["1d6!", "3d6!", "2d10!>=9", "1d6!p", "2d6!!", "1d4!!==4", "6d10!cs>=8",
                                  "5d10!>=10cs>=8cf1", "2d6! + 1d4 - 3", "2 * 1d8! + n", "4d6!r1", "1d6!min2",
                                  "d6!p>=5", "3d6!!kh3", "1d6!!min2", "d(n + 4)!", "2d6!!max9cs>=8",
                                  "if(n > 1, 1d6!, 2d4)"])
def test_the_closed_form_is_the_limit_of_ever_deeper_explosions(text):
    exact = exact_mean(dice.parse(text).tree, {"n": 2})
    assert exact is not None
    assert abs(exact - deep_mean(text, {"n": 2})) < F(1, 10 ** 12)


def test_hand_summed_series():
    assert exact_mean(dice.parse("1d6!").tree, {}) == F(21, 5)        # 3.5 / (1 - 1/6)
    assert exact_mean(dice.parse("1d6!p").tree, {}) == F(4)           # 3.5 + (1/6)(2.5)/(5/6)
    assert exact_mean(dice.parse("d6!p!=1").tree, {}) == F(16)        # 3.5 + (5/6)(2.5)/(1/6)
    # a success on 8+ where a 10 explodes: (3/10) / (9/10) per die
    assert exact_mean(dice.parse("5d10!cs>=8").tree, {}) == F(5, 3)


@pytest.mark.parametrize("text", ["4d6!kh3", "3d6!kh3", "1d6! >= 4", "max(1d6!, 3)", "1d6! * 1d6!",
                                  "(1d6!, 1d6)kh1", "if(1d6! > 3, 1, 0)", "(1d6!)d6kh1"])
def test_no_closed_form_where_the_value_is_not_linear_in_the_dice(text):
    assert exact_mean(dice.parse(text).tree, {"n": 6}) is None


def test_odds_report_the_exact_mean_where_explosions_were_truncated():
    odds = dice.parse("3d6cs>=5!>=6").odds()
    assert odds.truncated > 0 and odds.mean == F(6, 5)
    assert odds.to_dict()["stats"]["mean_exact"] == "6/5"
    plain = dice.parse("3d6").odds()
    assert plain.mean == F(21, 2) and plain.unbounded_mean is None


def test_a_mean_over_the_budget_is_left_to_the_odds_worked_out():
    """Listing the faces of a huge die is charged to the budget: over it, no closed form."""
    assert exact_mean_within(dice.parse("1d1000000!").tree, {}, Budget(10)) is None


CHECK = """
ruleset: expl
name: Exploding counts
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, default: 5, min: 1, max: 10}
      bonus: {type: integer, default: 0, min: 0, max: 5}
    roll: (dice)d10!>=8cs>=8
    result: roll + bonus
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
  capped:
    roll: 2d6!
    result: roll
    outcomes:
      - {name: big, when: "result >= 10", success: true, result: 10}
      - {name: small, success: false}
"""


def test_a_checks_result_gets_the_exact_mean_where_it_is_a_sum_of_its_rolls():
    """The issue's figure: 5 dice, 8+ a success and exploding, mean 15/7 (printed 2.14274
    before, the mean of the mass worked out)."""
    from rulesengine.ruleset import loads

    rs = loads(CHECK, "expl.yaml")
    odds = rs.check("pool").odds({"dice": 5, "bonus": 2})
    assert odds.result_truncated > 0 and odds.summary.mean == F(15, 7) + 2
    assert odds.truncated == 0  # success (at least 1) is decided however deep the dice explode
    assert odds.to_dict()["stats"]["result"]["mean_exact"] == "29/7"
    capped = rs.check("capped").odds({})  # an outcome rewrites the result: no closed form needed,
    assert capped.unbounded_mean is None  # as every result is known: 10 from 10 up, the roll below
    assert capped.truncated == capped.result_truncated == 0
