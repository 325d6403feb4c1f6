"""pathfinder-2e: rules PF-1..PF-5, restated from Pathfinder Player Core (Paizo, ORC
License). Four degrees of success at ±10 around the DC, a natural 20 or 1 shifting one step,
fortune and misfortune, the multiple attack penalty and secret checks. Exact odds against a
brute force over every face (itertools); examples replayed with given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("pathfinder-2e")
NAMES = ["critical_failure", "failure", "success", "critical_success"]


def degree(natural: int, modifier: int, dc: int) -> str:
    total = natural + modifier
    base = 3 if total >= dc + 10 else 2 if total >= dc else 1 if total > dc - 10 else 0
    base += (natural == 20) - (natural == 1)
    return NAMES[max(0, min(3, base))]


def by_hand(modifier: int, dc: int, roll_twice: str = "none") -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    if roll_twice == "none":
        for n in range(1, 21):
            out[degree(n, modifier, dc)] += F(1, 20)
    else:
        for a, b in itertools.product(range(1, 21), repeat=2):
            out[degree(max(a, b) if roll_twice == "fortune" else min(a, b), modifier, dc)] += F(1, 400)
    return {k: v for k, v in out.items() if v}


def nonzero(d):
    return {k: v for k, v in d.items() if v}


@pytest.mark.parametrize("modifier, dc", [(10, 20), (0, 15), (25, 15), (-5, 30), (18, 20), (5, 5)])
@pytest.mark.parametrize("roll_twice", ["none", "fortune", "misfortune"])
def test_pf1_pf2_pf3_four_degrees_shifted_by_natural_20_and_1(modifier, dc, roll_twice):
    odds = RS.check("check").odds({"modifier": modifier, "dc": dc, "roll_twice": roll_twice})
    assert nonzero(odds.outcomes) == by_hand(modifier, dc, roll_twice)


def test_pf2_examples():
    check = RS.check("check")
    assert check.roll({"modifier": 10, "dc": 20}, faces=[20]).outcome == "critical_success"  # 30: crit anyway
    assert check.roll({"modifier": 0, "dc": 25}, faces=[20]).outcome == "success"  # 20 misses by 5: up a step
    assert check.roll({"modifier": 0, "dc": 31}, faces=[20]).outcome == "failure"  # 11 under: critical, up a step
    assert check.roll({"modifier": 15, "dc": 10}, faces=[1]).outcome == "failure"  # 16 succeeds: down a step
    assert check.roll({"modifier": 25, "dc": 10}, faces=[1]).outcome == "success"  # 26, a critical: down a step
    assert check.roll({"modifier": 0, "dc": 15}, faces=[1]).outcome == "critical_failure"


@pytest.mark.parametrize("number, agile, penalty", [(1, False, 0), (2, False, 5), (3, False, 10), (5, False, 10),
                                                     (2, True, 4), (3, True, 8)])
def test_pf4_the_multiple_attack_penalty(number, agile, penalty):
    odds = RS.check("strike").odds({"attack_modifier": 12, "armor_class": 20, "attack_number": number,
                                    "agile": agile})
    assert nonzero(odds.outcomes) == by_hand(12 - penalty, 20)


def test_pf5_a_secret_check_is_marked_for_the_gm():
    r = RS.check("check").roll({"modifier": 5, "secret": True}, seed=1)
    assert r.secret and r.to_dict()["secret"] is True
    assert not RS.check("check").roll({"modifier": 5}, seed=1).secret
