"""mothership: rules MS-1..MS-5, restated from the Mothership 1e Player's Survival Guide
(Tuesday Knight Games). Percentile dice read 00-99 under a stat, 90-99 always failing,
doubles critical, advantage as the better of two sets; panic checks on a d20 over Stress.
Exact odds against a brute force over every pair of percentile dice (itertools)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("mothership")
CHECK = RS.check("check")
BONUS = {"none": 0, "trained": 10, "expert": 15, "master": 20}


def read(reading: int, target: int) -> str:
    made = reading < target and reading < 90
    doubles = reading // 10 == reading % 10
    return ("critical_success" if doubles and made else "critical_failure" if doubles else
            "success" if made else "failure")


def by_hand(stat: int, skill: str, edge: str) -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    target = stat + BONUS[skill]
    if edge == "none":
        for r in range(100):
            out[read(r, target)] += F(1, 100)
    else:
        for a, b in itertools.product(range(100), repeat=2):
            out[read(min(a, b) if edge == "advantage" else max(a, b), target)] += F(1, 10000)
    return dict(out)


@pytest.mark.parametrize("stat, skill", [(45, "none"), (30, "trained"), (85, "master"), (0, "none"), (99, "none")])
@pytest.mark.parametrize("edge", ["none", "advantage", "disadvantage"])
def test_ms1_to_ms4_percentile_checks_match_every_roll(stat, skill, edge):
    got = {k: v for k, v in CHECK.odds({"stat": stat, "skill": skill, "edge": edge}).outcomes.items() if v}
    assert got == {k: v for k, v in by_hand(stat, skill, edge).items() if v}


def test_ms2_ninety_and_over_always_fail_and_doubles_are_critical():
    assert CHECK.roll({"stat": 99}, faces=[9, 5]).outcome == "failure"          # 95
    assert CHECK.roll({"stat": 99}, faces=[9, 9]).outcome == "critical_failure"  # 99
    assert CHECK.roll({"stat": 40}, faces=[3, 3]).outcome == "critical_success"  # 33
    assert CHECK.roll({"stat": 40}, faces=[4, 4]).outcome == "critical_failure"  # 44
    assert CHECK.roll({"stat": 40}, faces=[4, 0]).outcome == "failure"           # 40: not under
    assert CHECK.roll({"stat": 40}, faces=[0, 0]).outcome == "critical_success"  # 00


def test_ms3_a_skill_raises_the_target():
    assert CHECK.roll({"stat": 35, "skill": "expert"}, faces=[4, 8]).outcome == "success"  # 48 under 50


def test_ms4_advantage_keeps_the_lower_set():
    r = CHECK.roll({"stat": 40, "edge": "advantage"}, faces=[7, 2, 2, 2])
    assert (r.result, r.outcome) == (22, "critical_success")
    r = CHECK.roll({"stat": 40, "edge": "disadvantage"}, faces=[1, 5, 6, 0])
    assert (r.result, r.outcome) == (60, "failure")


@pytest.mark.parametrize("stress", [0, 2, 7, 19, 20])
def test_ms5_a_panic_check_must_roll_over_stress(stress):
    odds = RS.check("panic").odds({"stress": stress})
    assert odds.outcomes["keeps_it_together"] == F(sum(1 for r in range(1, 21) if r > stress), 20)
