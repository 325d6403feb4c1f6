"""cypher-system: rules CY-1..CY-4, restated from the Cypher System Reference Document
(Monte Cook Games, Cypher System Open License). A d20 against three times the task's
difficulty after easing (skills, assets, Effort) and hindering (inability); eased to 0 it is
routine, no roll. Exact odds against a count of the d20's faces written here; examples
replayed with given faces."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

TASK = R.load("cypher-system").check("task")
SKILL_STEPS = {"inability": -1, "practiced": 0, "trained": 1, "specialized": 2}


def by_hand(difficulty: int, skill: str = "practiced", assets: int = 0, effort: int = 0, other: int = 0):
    final = min(10, difficulty - SKILL_STEPS[skill] - min(assets, 2) - effort - other)
    if final <= 0:
        return {"routine": F(1)}
    hits = sum(1 for face in range(1, 21) if face >= 3 * final)
    return {"success": F(hits, 20), "failure": F(20 - hits, 20)}


def nonzero(d):
    return {k: v for k, v in d.items() if v}


@pytest.mark.parametrize("difficulty", range(0, 11))
@pytest.mark.parametrize("skill", list(SKILL_STEPS))
def test_cy1_cy2_target_is_three_times_the_eased_difficulty(difficulty, skill):
    odds = TASK.odds({"difficulty": difficulty, "skill": skill})
    assert nonzero(odds.outcomes) == nonzero(by_hand(difficulty, skill))


@pytest.mark.parametrize("assets, effort, other", [(1, 0, 0), (2, 1, 0), (5, 0, 0), (0, 3, -2), (3, 2, 1)])
def test_cy2_assets_count_for_two_steps_at_most_and_effort_eases_one_step_per_level(assets, effort, other):
    inputs = {"difficulty": 6, "skill": "trained", "assets": assets, "effort": effort, "other_steps": other}
    assert nonzero(TASK.odds(inputs).outcomes) == nonzero(by_hand(6, "trained", assets, effort, other))


def test_cy1_seven_or_more_cannot_be_reached_not_even_by_a_20():
    assert TASK.odds({"difficulty": 7}).success == 0
    assert TASK.roll({"difficulty": 7}, faces=[20]).outcome == "failure"


def test_cy3_eased_to_zero_is_routine_without_a_roll():
    r = TASK.roll({"difficulty": 2, "skill": "specialized"})
    assert r.outcome == "routine" and r.dice == () and r.values["target"] == 0


def test_cy4_special_rolls():
    tags = {face: TASK.roll({"difficulty": 3}, faces=[face]).tags for face in (1, 2, 17, 18, 19, 20)}
    assert tags == {1: ("gm_intrusion",), 2: (), 17: ("plus_1_damage",), 18: ("plus_2_damage",),
                    19: ("minor_effect",), 20: ("major_effect",)}
    odds = TASK.odds({"difficulty": 3})
    assert odds.tags == {"gm_intrusion": F(1, 20), "plus_1_damage": F(1, 20), "plus_2_damage": F(1, 20),
                         "minor_effect": F(1, 20), "major_effect": F(1, 20)}


def test_cy_example_a_trained_climber():
    """A difficulty 4 climb, trained: eased to 3, target 9; a 9 succeeds, an 8 fails."""
    assert TASK.roll({"difficulty": 4, "skill": "trained"}, faces=[9]).outcome == "success"
    assert TASK.roll({"difficulty": 4, "skill": "trained"}, faces=[8]).outcome == "failure"
