"""dnd-5e-srd: rules D5-1..D5-8, restated from the System Reference Document 5.1 (Wizards of
the Coast, CC BY 4.0). Exact odds against brute forces written here over every face
(itertools) and a walk of the death-saving-throw sequences; examples replayed with given
faces. The familiar published figure: a dying character stabilizes or revives about 59.5%
of the time."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("dnd-5e-srd")
D20 = range(1, 21)


def proficiency(level: int) -> int:
    return 2 + (level - 1) // 4


def naturals(edge: str) -> dict[int, F]:
    out: dict[int, F] = defaultdict(F)
    if edge == "none":
        for a in D20:
            out[a] += F(1, 20)
    else:
        for a, b in itertools.product(D20, D20):
            out[max(a, b) if edge == "advantage" else min(a, b)] += F(1, 400)
    return dict(out)


def modifier(ability: int, prof: str, level: int, bonus: int = 0) -> int:
    return ability + bonus + {"none": 0, "proficient": 1, "expertise": 2}[prof] * proficiency(level)


@pytest.mark.parametrize("ability, prof, level, dc", [(2, "none", 1, 12), (3, "proficient", 5, 15),
                                                      (1, "expertise", 9, 20), (-1, "proficient", 17, 18)])
@pytest.mark.parametrize("edge", ["none", "advantage", "disadvantage"])
@pytest.mark.parametrize("bonus_die", [False, True])
def test_d5_1_to_4_checks_and_saves_match_every_roll(ability, prof, level, dc, edge, bonus_die):
    m = modifier(ability, prof, level)
    success = F(0)
    extras = range(1, 5) if bonus_die else [0]
    for natural, p in naturals(edge).items():
        for extra in extras:
            if natural + extra + m >= dc:
                success += p / len(extras)
    odds = RS.check("check").odds({"ability_modifier": ability, "proficiency": prof, "level": level, "dc": dc,
                                   "edge": edge, "bonus_die": bonus_die})
    assert odds.success == success


def test_d5_2_no_natural_20_rule_on_checks_and_saves():
    assert RS.check("check").roll({"dc": 30}, faces=[20]).outcome == "failure"
    assert RS.check("check").roll({"ability_modifier": 10, "dc": 5}, faces=[1]).outcome == "success"


def test_d5_3_the_proficiency_bonus_by_level_or_given():
    r = RS.check("check").roll({"ability_modifier": 3, "proficiency": "expertise", "level": 13}, faces=[10])
    assert r.result == 10 + 3 + 10  # expertise doubles the +5 of level 13
    r = RS.check("check").roll({"proficiency": "proficient", "proficiency_bonus": 4}, faces=[10])
    assert r.result == 14


@pytest.mark.parametrize("ability, ac", [(3, 15), (5, 25), (-2, 5)])
@pytest.mark.parametrize("edge", ["none", "advantage", "disadvantage"])
def test_d5_5_attacks_natural_20_hits_critically_natural_1_misses(ability, ac, edge):
    m = modifier(ability, "proficient", 1)
    want: dict[str, F] = defaultdict(F)
    for natural, p in naturals(edge).items():
        want["critical_hit" if natural == 20 else "hit" if natural != 1 and natural + m >= ac else "miss"] += p
    odds = RS.check("attack").odds({"ability_modifier": ability, "armor_class": ac, "edge": edge})
    assert {k: v for k, v in odds.outcomes.items() if v} == {k: v for k, v in want.items() if v}


@pytest.mark.parametrize("dice, die, mod", [(1, 8, 3), (2, 6, 0), (1, 12, -1)])
def test_d5_6_a_critical_hit_rolls_the_damage_dice_twice_not_the_modifier(dice, die, mod):
    for critical in (False, True):
        n = dice * (2 if critical else 1)
        want: dict[int, F] = defaultdict(F)
        for faces in itertools.product(range(1, die + 1), repeat=n):
            want[max(0, sum(faces) + mod)] += F(1, die ** n)
        got = RS.check("damage").odds({"dice": dice, "die": die, "modifier": mod, "critical": critical})
        assert got.result_distribution == dict(sorted(want.items()))


def death_saves() -> dict[str, F]:
    """Every sequence of death saves, by the class of each d20: 20, 10-19, 2-9, 1."""
    classes = [("revived", F(1, 20)), ("success", F(10, 20)), ("failure", F(8, 20)), ("two", F(1, 20))]
    out: dict[str, F] = defaultdict(F)

    def walk(successes: int, failures: int, p: F, rounds: int) -> None:
        for name, q in classes:
            s, f = successes, failures
            if name == "revived":
                out["success"] += p * q
                out["revived"] += p * q
                continue
            if name == "success":
                s += 1
            else:
                f += 2 if name == "two" else 1
            if s >= 3:
                out["success"] += p * q
            elif f >= 3:
                out["failure"] += p * q
            else:
                assert rounds < 5, "three successes or three failures come within five saves"
                walk(s, f, p * q, rounds + 1)

    walk(0, 0, F(1), 1)
    return dict(out)


def test_d5_7_death_saves_stabilize_or_revive_about_59_5_percent_of_the_time():
    odds = RS.procedure("dying").odds({})
    want = death_saves()
    assert odds.outcomes["success"] == want["success"] == F(4761, 8000)
    assert odds.outcomes["failure"] == want["failure"]
    assert odds.outcomes["unfinished"] == 0
    assert odds.report["revived"] == {False: 1 - want["revived"], True: want["revived"]}


def test_d5_7_death_save_examples():
    r = RS.procedure("dying").roll({}, faces=[12, 1, 3])         # a success, two failures, a failure
    assert [s["failures"] for s in r.states] == [0, 2, 3] and r.outcome == "failure"
    r = RS.procedure("dying").roll({}, faces=[5, 14, 20])        # revived on the 20
    assert r.outcome == "success" and r.report == {"revived": True}
    r = RS.procedure("dying").roll({}, faces=[10, 11, 19])       # three successes: stable
    assert r.outcome == "success" and r.report == {"revived": False}


def test_d5_8_a_contest_tie_leaves_things_as_they_were():
    odds = RS.procedure("contest").odds(parties=[{"ability_modifier": 2}, {"ability_modifier": 2}])
    assert odds.tie == F(20, 400)  # equal d20s
    r = RS.procedure("contest").roll(parties=[{"ability_modifier": 3}, {"ability_modifier": 1}], faces=[8, 10])
    assert r.tie


@pytest.mark.parametrize("modifiers", [(2, 0), (2, 0, -1), (5, 5, 0, 0)])
def test_d5_9_a_group_check_succeeds_when_at_least_half_the_group_succeeds(modifiers):
    probs = [sum((p for n, p in naturals("none").items() if n + m >= 12), F(0)) for m in modifiers]
    want = F(0)
    for oks in itertools.product((True, False), repeat=len(modifiers)):
        p = F(1)
        for ok, q in zip(oks, probs, strict=True):
            p *= q if ok else 1 - q
        if 2 * sum(oks) >= len(modifiers):
            want += p
    odds = RS.procedure("group_check").odds({"dc": 12}, parties=[{"ability_modifier": m} for m in modifiers])
    assert odds.success == want
