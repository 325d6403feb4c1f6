"""One order for the values of every distribution (issue 31, part 3): the odds of a dice
expression and the odds and results of a ruleset list mixed values the same way, numbers in
order, then yes/no (no first), then text; ``True`` is never taken for ``1``. The run layer
used to keep an order of its own, which put yes/no among the text by how it is spelt."""

from __future__ import annotations

from fractions import Fraction as F

from rulesengine.dice import stats
from rulesengine.run import results


def test_results_and_dice_odds_share_one_value_order():
    assert results.value_order is stats.value_order


def test_mixed_values_list_numbers_then_yes_no_then_text():
    values = ["Apple", True, 3, None, False, "zebra", -1]
    want = [-1, 3, False, True, "Apple", "None", "zebra"]  # None is listed by its text
    ordered = sorted(values, key=results.value_order)
    assert [("None" if v is None else v) for v in ordered] == want
    assert [type(v) for v in ordered[2:4]] == [bool, bool]


def test_a_distribution_lists_declared_text_first_then_the_rest_in_that_order():
    dist = {True: F(1, 4), "Zed": F(1, 4), 2: F(1, 4), "Able": F(1, 4)}
    listed = results.with_declared(dist, declared=("Zed", "Never"))
    assert list(listed) == ["Zed", "Never", 2, True, "Able"]
    assert listed["Never"] == 0 and sum(listed.values()) == 1
