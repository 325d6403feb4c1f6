"""A roll's ``0`` branch is a roll of no dice (issue #34): ``extra: if(flag, 2d6, 0)`` read by
``count()``, ``initial()`` or ``largest_die()`` is an empty roll when the flag is off, rolled
and in exact odds alike; any other number in such a branch is refused when the file is read."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import loads
from rulesengine.errors import RulesEngineError

RULESET = """\
ruleset: zero-branch
name: Zero branch
version: "1"
source: tests
checks:
  c:
    inputs:
      flag: {type: boolean, default: false}
    rolls:
      extra: if(flag, 3d6, 0)
    result: count(extra, 6) + 10 * count(initial(extra), 1, 2) + 100 * count(extra)
    outcomes:
      - {name: any, success: true}
"""


def brute_force(flag: bool) -> dict[int, Fraction]:
    """The result by enumerating the three dice (no dice at all when the flag is off)."""
    throws = list(itertools.product(range(1, 7), repeat=3)) if flag else [()]
    tally = Counter(sum(f == 6 for f in t) + 10 * sum(f <= 2 for f in t) + 100 * len(t) for t in throws)
    return {v: Fraction(n, len(throws)) for v, n in tally.items()}


@pytest.mark.parametrize("flag", [False, True])
def test_the_zero_branch_of_a_roll_is_a_roll_of_no_dice_in_exact_odds(flag):
    odds = loads(RULESET).check("c").odds({"flag": flag})
    assert dict(odds.result_distribution) == brute_force(flag)


def test_rolling_the_zero_branch_reads_no_dice():
    rolled = loads(RULESET).check("c").roll({"flag": False}, seed=1)
    assert rolled.result == 0


def test_rolling_the_dice_branch_reads_the_dice_thrown():
    rolled = loads(RULESET).check("c").roll({"flag": True}, faces=[6, 2, 5])
    assert rolled.result == 1 + 10 * 1 + 100 * 3


def test_largest_die_of_the_zero_branch_says_there_are_no_dice():
    text = RULESET.replace("result: count(extra, 6) + 10 * count(initial(extra), 1, 2) + 100 * count(extra)",
                           "result: largest_die(extra)")
    with pytest.raises(RulesEngineError, match="largest_die\\(\\) of no dice"):
        loads(text).check("c").odds({"flag": False})


@pytest.mark.parametrize("branch", ["3", "bonus", "-1"])
def test_a_roll_branch_that_is_another_number_is_refused_where_its_dice_are_read(branch):
    text = RULESET.replace("flag: {type: boolean, default: false}",
                           "flag: {type: boolean, default: false}\n      bonus: {type: integer, default: 2}")
    text = text.replace("if(flag, 3d6, 0)", f"if(flag, 3d6, {branch})")
    with pytest.raises(RulesEngineError) as caught:
        loads(text)
    assert caught.value.code == "E523" and "a roll of no dice" in (caught.value.hint or "")


def test_a_number_branch_is_fine_where_the_roll_is_read_only_as_a_number():
    text = RULESET.replace("if(flag, 3d6, 0)", "if(flag, 3d6, 3)").replace(
        "result: count(extra, 6) + 10 * count(initial(extra), 1, 2) + 100 * count(extra)", "result: extra")
    assert dict(loads(text).check("c").odds({"flag": False}).result_distribution) == {3: Fraction(1)}
