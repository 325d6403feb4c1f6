"""Rolling a check again remembers what it can, and nobody can tell.

A check is a pure function of its inputs and its roll values, so ``CheckRunner``'s memo
(:mod:`rulesengine.run.memo`) keeps the coerced inputs and the values known before the roll
per set of given inputs (``prepare``), and the resolution per set of roll values
(``PreRoll.resolved``). These
tests pin that the memory is invisible: the same answers as a runner that remembers
nothing, no leaks between inputs that compare equal but are not the same input, and no
way for a caller to change what is remembered.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesengine.run import check as check_module
from rulesengine.run import memo as memo_module
from rulesengine.errors import InputError
from rulesengine.ruleset import load, loads

SEED_CHECKS = [
    ("gurps-4e", "success_roll", {"skill": 12}),
    ("rps", "skill_check", {"skill": 8, "attribute": 6}),
    ("cyberpunk-3d6", "skill_test", {"characteristic": 6, "skill": 5, "dn": "average"}),
    ("spycraft-2e", "skill_check", {"bonus": 8, "ranks": 5, "dc": 15, "action_dice": 1}),
    ("spycraft-2e", "skill_check", {"bonus": 8, "ranks": 5, "dc": 15, "take": "take_10"}),
    ("mudd", "action", {"pool": "d8/d4/d4", "precision_target": 8, "impact_target": 2}),
]


def _fresh(rid: str, name: str):
    """A check whose runner remembers nothing: every roll is worked out from scratch."""
    chk = load(rid).check(name)
    runner = chk.runner

    def roll(inputs, rng):
        values = runner.coerce_inputs(inputs)
        return runner.finish(values, runner.sample(values, check_module.RandomSource(rng)))

    return roll


@pytest.mark.parametrize("rid,name,inputs", SEED_CHECKS)
def test_a_remembered_resolution_is_the_one_worked_out_afresh(rid, name, inputs):
    chk = load(rid).check(name)
    afresh = _fresh(rid, name)
    a, b = random.Random(7), random.Random(7)
    for _ in range(300):
        got, want = chk.roll(inputs, rng=a), afresh(inputs, b)
        assert got.to_dict() == want.to_dict()
        assert got.env == want.env


def test_changing_a_result_does_not_change_the_next_roll():
    chk = load("gurps-4e").check("success_roll")
    first = chk.roll({"skill": 12}, faces=[3, 4, 5])
    first.values["margin"] = "changed"
    first.env["outcome"] = "changed"
    first.inputs["skill"] = 99
    again = chk.roll({"skill": 12}, faces=[3, 4, 5])
    assert again.to_dict() == chk.roll({"skill": 12}, faces=[3, 4, 5]).to_dict()
    assert again.inputs["skill"] == 12
    assert again.env["outcome"] != "changed"
    assert "changed" not in again.values.values()


def test_inputs_that_compare_equal_are_still_checked_by_type():
    # True == 1 == 1.0 in Python, but only 1 is a whole number input.
    chk = load("gurps-4e").check("success_roll")
    chk.roll({"skill": 1}, seed=1)
    for bad in (True, 1.0):
        with pytest.raises(InputError):
            chk.roll({"skill": bad}, seed=1)


def test_unhashable_inputs_are_checked_as_always():
    chk = load("gurps-4e").check("success_roll")
    with pytest.raises(InputError):
        chk.roll({"skill": [12]}, seed=1)


def test_a_players_choice_is_part_of_what_is_remembered():
    chk = load("mudd").check("action")
    inputs = {"pool": "d8/d4/d4", "precision_target": 8, "impact_target": 2}
    own_pick = load("mudd").check("action").roll(inputs, faces=[8, 4, 1]).chosen.faces
    assert own_pick != (4, 1)  # else this test would not tell the two apart
    assert chk.roll(inputs, faces=[8, 4, 1], choose=[4, 1]).chosen.faces == (4, 1)
    assert chk.roll(inputs, faces=[8, 4, 1]).chosen.faces == own_pick
    assert chk.roll(inputs, faces=[8, 4, 1], choose=[4, 1]).chosen.faces == (4, 1)


def test_errors_are_not_remembered():
    # A roll whose rules fail for some dice keeps failing; the others keep working.
    rs = loads("""
ruleset: memo-errors
name: Memo errors
version: "1"
source: tests
checks:
  divide:
    inputs:
      n: {type: integer}
    roll: 1d2
    result: floor(n / (roll - 1))
    outcomes:
      - {name: done, success: true}
""", "memo.yaml")
    chk = rs.check("divide")
    for _ in range(2):
        with pytest.raises(Exception) as info:
            chk.roll({"n": 4}, faces=[1])
        assert "division by zero" in str(info.value)
        assert chk.roll({"n": 4}, faces=[2]).result == 4


def test_what_is_remembered_is_bounded(monkeypatch):
    monkeypatch.setattr(memo_module, "PREPARED_INPUTS", 4)
    monkeypatch.setattr(memo_module, "RESOLVED_PER_INPUTS", 3)
    monkeypatch.setattr(memo_module, "RESOLVED_IN_ALL", 7)
    path = Path(__file__).resolve().parents[2] / "rulesets" / "gurps-4e.yaml"
    chk = loads(path.read_text(encoding="utf-8"), "gurps-4e.yaml").check("success_roll")  # not shared
    runner = chk.runner
    seen_full = False
    for skill in range(3, 20):
        for total_faces in ([1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [6, 6, 6]):
            chk.roll({"skill": skill}, faces=total_faces)
            memo = runner.remembered()
            assert memo.inputs <= 4
            assert memo.most_resolved_per_inputs <= 3
            assert memo.resolved <= 7
            seen_full = seen_full or memo.resolved == 7
    assert seen_full  # the bound was reached, not merely never approached


def test_a_choice_that_is_not_faces_is_an_input_error_not_a_crash():
    chk = load("mudd").check("action")
    inputs = {"pool": "d8/d4/d4", "precision_target": 8, "impact_target": 2}
    with pytest.raises(InputError):
        chk.roll(inputs, faces=[8, 4, 1], choose=[[8], [1]])
