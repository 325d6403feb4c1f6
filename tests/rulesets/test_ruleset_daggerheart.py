"""daggerheart: rules DH-1..DH-5, restated from the Daggerheart SRD 1.0 (Darrington Press,
"Making Moves & Taking Action"). Two d12 — Hope and Fear — plus modifiers against a
Difficulty; the higher die colours the result; matching dice are a critical success.
Exact odds against a brute force over every face (itertools); examples replayed with
given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("daggerheart")
D12 = range(1, 13)


def edge_faces(edge: str) -> list[int]:
    return {"none": [0], "advantage": [1, 2, 3, 4, 5, 6], "disadvantage": [-1, -2, -3, -4, -5, -6]}[edge]


def action_by_hand(trait: int, modifier: int, difficulty: int, edge: str) -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    edges = edge_faces(edge)
    for hope, fear, e in itertools.product(D12, D12, edges):
        total = hope + fear + e + trait + modifier
        p = F(1, 144 * len(edges))
        if hope == fear:
            out["critical_success"] += p
        elif total >= difficulty:
            out["success_with_hope" if hope > fear else "success_with_fear"] += p
        else:
            out["failure_with_hope" if hope > fear else "failure_with_fear"] += p
    return dict(out)


def reaction_success(trait: int, difficulty: int = 15) -> F:
    return sum((F(1, 144) for hope, fear in itertools.product(D12, D12)
                if hope == fear or hope + fear + trait >= difficulty), F(0))


def nonzero(d):
    return {k: v for k, v in d.items() if v}


@pytest.mark.parametrize("trait, difficulty", [(0, 10), (2, 15), (-1, 20), (4, 25)])
@pytest.mark.parametrize("edge", ["none", "advantage", "disadvantage"])
def test_dh1_dh2_dh3_action_roll_matches_every_roll_of_the_duality_dice(trait, difficulty, edge):
    odds = RS.check("action").odds({"trait": trait, "difficulty": difficulty, "edge": edge})
    assert nonzero(odds.outcomes) == nonzero(action_by_hand(trait, 0, difficulty, edge))


def test_dh1_matching_dice_are_a_critical_success_whatever_the_total():
    assert RS.check("action").odds({"trait": -3, "difficulty": 40}).outcomes["critical_success"] == F(1, 12)
    r = RS.check("action").roll({"trait": 0, "difficulty": 30}, faces=[2, 2])
    assert r.outcome == "critical_success" and "with_hope" in r.tags


def test_dh1_examples():
    r = RS.check("action").roll({"trait": 1}, faces=[9, 4])          # 14 against 15
    assert (r.result, r.outcome, r.tags) == (14, "failure_with_hope", ("with_hope",))
    r = RS.check("action").roll({"trait": 2}, faces=[5, 11])         # 18 against 15
    assert (r.result, r.outcome, r.tags) == (18, "success_with_fear", ("with_fear",))
    r = RS.check("action").roll({"trait": 0, "modifier": 2, "edge": "advantage"}, faces=[7, 3, 4])
    assert (r.result, r.outcome) == (16, "success_with_hope")      # 7 + 3 + d6 4 + Experience 2


@pytest.mark.parametrize("trait", [-1, 1, 3])
def test_dh4_reaction_rolls_succeed_or_fail_without_hope_or_fear(trait):
    odds = RS.check("reaction").odds({"trait": trait})
    assert odds.outcomes["critical_success"] == F(1, 12)
    assert odds.success == reaction_success(trait)
    assert not odds.tags


@pytest.mark.parametrize("helpers", [[1], [0, 2], [3, -1, 1]])
def test_dh5_group_action_adds_one_per_reaction_that_succeeded_and_takes_one_per_failure(helpers):
    want: dict[str, F] = defaultdict(F)
    probs = [reaction_success(t) for t in helpers]
    for results in itertools.product([True, False], repeat=len(helpers)):
        p = F(1)
        for ok, q in zip(results, probs, strict=True):
            p *= q if ok else 1 - q
        net = sum(1 if ok else -1 for ok in results)
        for name, q in action_by_hand(2, net, 15, "none").items():
            want[name] += p * q
    odds = RS.procedure("group_action").odds(parties=[{"trait": 2}] + [{"trait": t} for t in helpers])
    assert nonzero(odds.outcomes) == nonzero(want)
