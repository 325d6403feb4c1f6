"""cepheus-engine: rules CE-1..CE-6, restated from the Cepheus Engine SRD (Samardan Press,
OGL 1.0a). 2d6 + DMs against 8, the effect's six bands, and task chains. Exact odds against
a brute force over every face (itertools); examples replayed with given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("cepheus-engine")
TASK = RS.check("task")
DIFFICULTY = {"simple": 6, "easy": 4, "routine": 2, "average": 0, "difficult": -2, "very_difficult": -4,
              "formidable": -6}


def char_dm(score: int) -> int:
    return -3 if score == 0 else -2 if score <= 2 else -1 if score <= 5 else 0 if score <= 8 else \
        1 if score <= 11 else 2 if score <= 14 else 3


def band(effect: int) -> str:
    return ("exceptional_success" if effect >= 6 else "average_success" if effect >= 1 else
            "marginal_success" if effect == 0 else "marginal_failure" if effect == -1 else
            "average_failure" if effect >= -5 else "exceptional_failure")


def chain_dm(effect: int) -> int:
    return -3 if effect <= -6 else -2 if effect <= -2 else -1 if effect == -1 else 1 if effect == 0 else \
        2 if effect <= 5 else 3


def throws(edge: str = "none"):
    n = 2 if edge == "none" else 3
    for faces in itertools.product(range(1, 7), repeat=n):
        kept = sorted(faces)[1:] if edge == "boon" else sorted(faces)[:2] if edge == "bane" else faces
        yield sum(kept), F(1, 6 ** n)


def dm(char: int, skill: int | None, difficulty: int, modifier: int = 0, chain: int = 0) -> int:
    return char_dm(char) + (skill if skill is not None else -3) + difficulty + modifier + chain


@pytest.mark.parametrize("char, skill, difficulty", [(7, 1, 0), (0, None, 0), (15, 3, -6), (10, 0, 4), (4, 2, -2)])
@pytest.mark.parametrize("edge", ["none", "boon", "bane"])
def test_ce1_to_ce4_bands_of_the_effect_match_every_throw(char, skill, difficulty, edge):
    want: dict[str, F] = defaultdict(F)
    for total, p in throws(edge):
        want[band(total + dm(char, skill, difficulty) - 8)] += p
    inputs = {"characteristic": char, "difficulty": difficulty, "edge": edge}
    if skill is not None:
        inputs["skill"] = skill
    got = {k: v for k, v in TASK.odds(inputs).outcomes.items() if v}
    assert got == dict(want)


@pytest.mark.parametrize("score", range(0, 16))
def test_ce2_characteristic_modifiers(score):
    r = TASK.roll({"characteristic": score, "skill": 0}, faces=[4, 4])
    assert r.result == char_dm(score)


def test_ce3_difficulty_words_and_unskilled_attempts():
    for word, number in DIFFICULTY.items():
        assert TASK.odds({"difficulty": word, "skill": 1}).outcomes == TASK.odds({"difficulty": number, "skill": 1}).outcomes
    assert TASK.roll({"characteristic": 7}, faces=[6, 5]).result == 0  # 11 - 3 unskilled - 8


def test_ce5_examples():
    r = TASK.roll({"characteristic": 9, "skill": 2, "difficulty": "difficult"}, faces=[5, 4])
    assert (r.result, r.outcome, r.values["next_dm"]) == (2, "average_success", 2)   # 9 + 1 + 2 - 2
    r = TASK.roll({"characteristic": 3, "skill": 0, "difficulty": "formidable"}, faces=[1, 2])
    assert (r.result, r.outcome, r.values["next_dm"]) == (-12, "exceptional_failure", -3)


@pytest.mark.parametrize("steps", [2, 3])
def test_ce6_a_task_chain_passes_each_effect_on_as_a_dm(steps):
    base = dm(7, 1, 0)
    outcome: dict[str, F] = defaultdict(F)

    def walk(step: int, chain: int, p: F) -> None:
        for total, q in throws():
            effect = total + base + chain - 8
            if step == steps:
                outcome["success" if effect >= 0 else "failure"] += p * q
            else:
                walk(step + 1, chain_dm(effect), p * q)

    walk(1, 0, F(1))
    odds = RS.procedure("task_chain").odds({"characteristic": 7, "skill": 1, "steps": steps})
    assert odds.outcomes["success"] == outcome["success"] and odds.outcomes["failure"] == outcome["failure"]
