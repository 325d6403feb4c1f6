"""A roll made after seeing an earlier one, written as ``if()`` on it (``again: if(highest(first)
== lowest(first), 2d6!, 0)``: doubles roll over), has the closed-form mean
P(c)·E[a] + (1 − P(c))·E[b] where its branches roll dice of their own and read no roll: the
chance of the condition read on every value of the earlier rolls, each branch's mean by its
explosion's geometric series (an outside author's Tunnels & Trolls: "of the mass worked
out", 8.39999996, for 42/5). The value is correlated with the rolls the condition read, so
the variance stays the mass worked out's.

Oracles written here: P(c) by listing every face of the earlier dice, and the mean of n
exploding dS! as n · ((S + 1)/2) · S/(S − 1) (each die's chain: E[C] = E[face] / (1 − 1/S))."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

HEAD = 'ruleset: t\nname: T\nversion: "1"\nsource: tests\nchecks:\n  test:\n'
TAIL = """\
    outcomes:
      - {name: success, when: "result >= 12", success: true}
      - {name: failure, success: false}
"""


def exploding(n: int, sides: int) -> F:
    """The mean of n dS!, followed forever."""
    return n * F(sides + 1, 2) * F(sides, sides - 1)


def chance(sides: tuple[int, ...], holds) -> F:
    """P(holds(faces)) over every throw of dice of these sides."""
    throws = list(itertools.product(*(range(1, s + 1) for s in sides)))
    return F(sum(1 for t in throws if holds(t)), len(throws))


def summary(rolls: str) -> dict:
    text = HEAD + rolls + TAIL
    return loads(text, "t.yaml").check("test").odds({}).to_dict()["stats"]["result"]


def test_doubles_roll_over_have_the_exact_mean():
    found = summary("    rolls: {first: 2d6, again: 'if(highest(first) == lowest(first), 2d6!, 0)'}\n"
                    "    result: first + again\n")
    doubles = chance((6, 6), lambda t: t[0] == t[1])
    assert found["mean_kind"] == "exact"
    assert F(found["mean_exact"]) == 7 + doubles * exploding(2, 6) == F(42, 5)
    assert found["variance_kind"] == "of_mass_worked_out"  # correlated with first: not claimed


def test_a_condition_on_two_earlier_rolls_mixes_the_branches_by_its_chance():
    found = summary("    rolls:\n      a: 1d6\n      b: 1d4\n      extra: 'if(a > b, 1d8!, 1d6!)'\n"
                    "    result: a + b + extra\n")
    p = chance((6, 4), lambda t: t[0] > t[1])
    assert found["mean_kind"] == "exact"
    assert F(found["mean_exact"]) == F(7, 2) + F(5, 2) + p * exploding(1, 8) + (1 - p) * exploding(1, 6)


@pytest.mark.parametrize("rolls", [
    # a branch that reads the roll the condition reads: its mean given the condition is not its own
    "    rolls: {first: 1d6, again: 'if(first >= 4, first + 1d6!, 0)'}\n    result: first + again\n",
    # a condition on an exploding roll: its outcomes are cut by the depth
    "    rolls: {wild: 1d6!, again: 'if(wild == 1, 1d6!, 0)'}\n    result: wild + again\n",
])
def test_no_closed_form_is_claimed_where_the_branches_or_the_condition_do_not_allow_one(rolls):
    found = summary(rolls)
    assert found["mean_kind"] == "of_mass_worked_out"
