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
from rulesengine.validate import validate_text

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


CHAIN = """\
ruleset: zero-branch-chain
name: Zero branch at the end of a chain
version: "1"
source: tests
checks:
  c:
    inputs:
      die: {type: choice, choices: [none, d8, d10], default: none}
    rolls:
      artifact: if(die == 'd8', 1d8, if(die == 'd10', 1d10, 0))
    result: count(artifact, 6, 7) + 2 * count(artifact, 8, 9) + 3 * count(artifact, 10) + 100 * count(artifact)
    outcomes:
      - {name: any, success: true}
"""


def chain_brute_force(die: str) -> dict[int, Fraction]:
    """The artifact die's result by listing its faces (no die at all for ``none``)."""
    faces = {"none": [], "d8": range(1, 9), "d10": range(1, 11)}[die]
    throws = [(f,) for f in faces] or [()]
    tally = Counter(sum((6 <= f <= 7) + 2 * (8 <= f <= 9) + 3 * (f == 10) + 100 for f in t) for t in throws)
    return {v: Fraction(n, len(throws)) for v, n in tally.items()}


@pytest.mark.parametrize("die", ["none", "d8", "d10"])
def test_the_zero_at_the_end_of_a_chain_of_ifs_is_a_roll_of_no_dice(die):
    """``if(a, 1d8, if(b, 1d10, 0))``: the ``0`` of the inner ``if()`` is a roll of no dice
    too, in exact odds and when rolled (it was the number 0 there, and count() failed)."""
    check = loads(CHAIN).check("c")
    assert dict(check.odds({"die": die}).result_distribution) == chain_brute_force(die)
    for seed in range(20):
        assert check.roll({"die": die}, seed=seed).result in chain_brute_force(die)


def test_rolling_the_chain_without_a_die_reads_no_dice():
    assert loads(CHAIN).check("c").roll({"die": "none"}, seed=1).result == 0


EARLIER = """\
ruleset: zero-or-earlier
name: An earlier roll or none
version: "1"
source: tests
checks:
  c:
    inputs:
      keep: {type: boolean, default: false}
    rolls:
      first: 2d6
      kept: if(keep, first, 0)
    result: count(kept, 6) + 10 * count(kept)
    outcomes:
      - {name: any, success: true}
"""


def test_a_zero_beside_an_earlier_roll_is_a_roll_of_no_dice():
    """``if(keep, first, 0)``: no dice are rolled for ``kept`` either way, so the dice can't
    tell the branch; the value tells it: 0 is no dice, the earlier roll keeps its dice."""
    check = loads(EARLIER).check("c")
    assert check.roll({"keep": False}, seed=3).result == 0
    assert dict(check.odds({"keep": False}).result_distribution) == {0: Fraction(1)}
    assert check.roll({"keep": True}, faces=[6, 2]).result == 1 + 10 * 2
    assert dict(check.odds({"keep": True}).result_distribution) == {
        20: Fraction(25, 36), 21: Fraction(10, 36), 22: Fraction(1, 36)}


@pytest.mark.parametrize("text", [CHAIN, EARLIER])
def test_validate_accepts_a_zero_branch_read_as_dice(text):
    """validate rolls these files at every input: before the fix it found the E201 that
    rolling met (so the promise held), and refused the files as written."""
    assert validate_text(text, "zero.yaml").diagnostics == ()
