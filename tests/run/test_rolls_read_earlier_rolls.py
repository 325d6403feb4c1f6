"""A roll may read the rolls listed before it (issue 14, the re-roll step for a whole throw):
Fate's "invoke to reroll" when the first roll would fail, written as
`kept: if(... first ..., 4dF, first)`. Exact odds are checked against a brute force over
both throws written here; rolling reads physical faces for the second throw only when it
is made; names of later rolls stay unknown."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.errors import RulesetError
from rulesengine.ruleset import loads

RULESET = """
ruleset: reroll-when-failing
name: Reroll the whole throw when it would fail
version: "1"
source: tests
checks:
  action:
    inputs:
      skill: {type: integer, default: 0, min: -2, max: 8}
      difficulty: {type: integer, default: 2, min: -4, max: 10}
      reroll: {type: choice, choices: [never, when_failing], default: when_failing}
    rolls:
      first: 4dF
      kept: "if(reroll == 'when_failing' and first + skill < difficulty, 4dF, first)"
    let:
      shifts: kept + skill - difficulty
      minuses: count(kept, -1)
    result: shifts
    outcomes:
      - {name: succeed, when: "shifts >= 0", success: true}
      - {name: fail, success: false}
"""

FATE = (-1, 0, 1)


def brute(skill: int, difficulty: int, reroll: bool, value) -> dict:
    out: dict = defaultdict(F)
    for first in itertools.product(FATE, repeat=4):
        if reroll and sum(first) + skill < difficulty:
            for second in itertools.product(FATE, repeat=4):
                out[value(second)] += F(1, 3 ** 8)
        else:
            out[value(first)] += F(1, 3 ** 4)
    return dict(out)


@pytest.fixture(scope="module")
def check():
    return loads(RULESET, "reroll.yaml").check("action")


@pytest.mark.parametrize("skill, difficulty", [(0, 2), (2, 2), (-2, 4), (8, -4), (1, 0)])
def test_the_odds_of_a_reroll_when_failing_match_both_throws(check, skill, difficulty):
    for reroll in (False, True):
        inputs = {"skill": skill, "difficulty": difficulty, "reroll": "when_failing" if reroll else "never"}
        want = brute(skill, difficulty, reroll, lambda faces: sum(faces) + skill - difficulty >= 0)
        assert check.odds(inputs).success == want.get(True, 0)


def test_fate_against_fair_with_and_without_the_reroll(check):
    """Skill 0 against Fair (+2): 5/27 on one throw; 5/27 + (22/27)(5/27) = 245/729 with it."""
    assert check.odds({"difficulty": 2, "reroll": "never"}).success == F(5, 27)
    assert check.odds({"difficulty": 2}).success == F(245, 729)


def test_the_rules_read_the_dice_of_whichever_throw_stands(check):
    """count(kept, -1): the minuses of the first throw when it stands, of the second when
    it was made; each count's chance, as a condition's probability."""
    want = brute(0, 2, True, lambda faces: faces.count(-1))
    for n, p in want.items():
        assert check.odds({"difficulty": 2}, given=f"minuses == {n}").given_probability == p


def test_the_second_throw_is_rolled_and_asked_for_only_when_it_is_made(check):
    stays = check.roll({"difficulty": 2}, faces=["+", "+", "0", "+"])
    assert stays.result == 1 and "kept: " in stays.trace and "4dF, first:3" in stays.trace
    again = check.roll({"difficulty": 2}, faces=["-", "-", "0", "+", "+", "+", "0", "0"])
    assert again.result == 0 and again.outcome == "succeed"
    assert "[1, 1, 0, 0]" in again.trace


def test_a_roll_cannot_read_a_roll_listed_after_it():
    bad = RULESET.replace("""      first: 4dF
      kept: "if(reroll == 'when_failing' and first + skill < difficulty, 4dF, first)\"""",
                          """      kept: "if(first < 0, 4dF, first)"
      first: 4dF""")
    with pytest.raises(RulesetError) as info:
        loads(bad, "bad.yaml")
    assert "unknown name 'first'" in info.value.message
