"""blades-in-the-dark: rules BD-1..BD-5, restated from the Blades in the Dark SRD (One Seven
Design, CC BY 3.0; bladesinthedark.com/core-system). Every roll reads the single highest
d6 of a pool (6 full, 4-5 partial, 1-3 bad, two 6s a critical; with zero dice, the lower
of two and no critical). The exact odds are compared with a brute force over every face of
every die (itertools), written here from the rules, and the rules' examples are replayed
with given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("blades-in-the-dark")


def read_pool(dice: int) -> list[tuple[int, bool, F]]:
    """(the die read, critical, probability) for every roll of a pool of ``dice`` d6."""
    n = max(dice, 2) if dice <= 0 else dice
    out = []
    for faces in itertools.product(range(1, 7), repeat=n):
        if dice <= 0:
            out.append((min(faces), False, F(1, 6 ** n)))
        else:
            out.append((max(faces), faces.count(6) >= 2, F(1, 6 ** n)))
    return out


def bands(dice: int, names: tuple[str, str, str, str]) -> dict[str, F]:
    crit, six, mid, low = names
    out: dict[str, F] = defaultdict(F)
    for best, critical, p in read_pool(dice):
        out[crit if critical else six if best == 6 else mid if best >= 4 else low] += p
    return dict(out)


def nonzero(d):
    return {k: v for k, v in d.items() if v}


# ---- BD-1, BD-2: the action roll ---------------------------------------------------------

@pytest.mark.parametrize("rating, bonus", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (2, 1), (4, 3), (0, 1)])
def test_bd1_bd2_action_roll_odds_match_every_roll_of_the_pool(rating, bonus):
    want = bands(rating + bonus, ("critical", "full_success", "partial_success", "bad_outcome"))
    odds = RS.check("action").odds({"rating": rating, "bonus_dice": bonus})
    assert nonzero(odds.outcomes) == nonzero(want)
    assert odds.success == 1 - want.get("bad_outcome", 0)


def test_bd1_the_highest_die_is_read():
    r = RS.check("action").roll({"rating": 3}, faces=[2, 4, 1])
    assert (r.result, r.outcome) == (4, "partial_success")
    assert RS.check("action").roll({"rating": 3}, faces=[6, 1, 3]).outcome == "full_success"
    assert RS.check("action").roll({"rating": 2}, faces=[3, 1]).outcome == "bad_outcome"


def test_bd1_two_sixes_are_a_critical_that_raises_the_effect_one_level():
    r = RS.check("action").roll({"rating": 2, "effect": "standard"}, faces=[6, 6])
    assert r.outcome == "critical" and r.values["effect_achieved"] == "great"
    r = RS.check("action").roll({"rating": 2, "effect": "extreme"}, faces=[6, 6])
    assert r.values["effect_achieved"] == "extreme"  # no level above extreme
    r = RS.check("action").roll({"rating": 2, "effect": "limited"}, faces=[6, 5])
    assert r.outcome == "full_success" and r.values["effect_achieved"] == "limited"


def test_bd1_zero_dice_roll_two_and_read_the_lowest_with_no_critical():
    r = RS.check("action").roll({"rating": 0}, faces=[6, 6])
    assert (r.result, r.outcome) == (6, "full_success")
    r = RS.check("action").roll({"rating": 0}, faces=[6, 2])
    assert (r.result, r.outcome) == (2, "bad_outcome")
    assert RS.check("action").odds({"rating": 0}).outcomes["critical"] == 0


def test_bd2_position_and_effect_change_no_odds_and_are_reported():
    plain = RS.check("action").odds({"rating": 2})
    for position in ("controlled", "risky", "desperate"):
        odds = RS.check("action").odds({"rating": 2, "position": position, "effect": "great"})
        assert odds.outcomes == plain.outcomes
        # every declared value listed, in the order written, 0 where it can't happen
        assert odds.values["position"] == {p: F(p == position) for p in ("controlled", "risky", "desperate")}
        assert list(odds.values["position"]) == ["controlled", "risky", "desperate"]
    effect = RS.check("action").odds({"rating": 3, "effect": "great"}).values["effect_achieved"]
    critical = bands(3, ("c", "s", "m", "l"))["c"]
    assert effect == {"zero": 0, "limited": 0, "standard": 0, "great": 1 - critical, "extreme": critical}
    assert list(effect) == ["zero", "limited", "standard", "great", "extreme"]


# ---- BD-3: the resistance roll -----------------------------------------------------------

@pytest.mark.parametrize("attribute", [0, 1, 2, 3, 4])
def test_bd3_resistance_costs_six_minus_the_highest_die_and_a_critical_clears_one(attribute):
    want: dict[int, F] = defaultdict(F)
    for best, critical, p in read_pool(attribute):
        want[-1 if critical else 6 - best] += p
    odds = RS.check("resistance").odds({"attribute": attribute})
    assert odds.result_distribution == dict(sorted(want.items()))
    assert odds.success == 1  # resisting always works; the roll sets its cost


def test_bd3_resistance_examples():
    assert RS.check("resistance").roll({"attribute": 2}, faces=[5, 2]).result == 1
    assert RS.check("resistance").roll({"attribute": 3}, faces=[6, 6, 2]).result == -1
    assert RS.check("resistance").roll({"attribute": 0}, faces=[5, 3]).result == 3  # the lower of two


# ---- BD-4, BD-5: fortune and engagement rolls ------------------------------------------------

@pytest.mark.parametrize("trait", [0, 1, 2, 3, 6])
def test_bd4_fortune_roll_reads_the_pool_the_same_way(trait):
    want = bands(trait, ("critical", "good", "mixed", "poor"))
    assert nonzero(RS.check("fortune").odds({"trait": trait}).outcomes) == nonzero(want)


@pytest.mark.parametrize("modifiers", [-3, -1, 0, 1, 3])
def test_bd5_engagement_starts_at_one_die_plus_or_minus_modifiers(modifiers):
    want = bands(1 + modifiers, ("critical", "controlled", "risky", "desperate"))
    assert nonzero(RS.check("engagement").odds({"modifiers": modifiers}).outcomes) == nonzero(want)


def test_bd_published_odds_of_a_two_die_action_roll():
    """The SRD's reading on 2d6: a 6 on either die 11/36 (a critical 1/36 of it), the best
    4-5 16/36, 1-3 on both 9/36."""
    odds = RS.check("action").odds({"rating": 2})
    assert odds.outcomes == {"critical": F(1, 36), "full_success": F(10, 36), "partial_success": F(16, 36),
                             "bad_outcome": F(9, 36)}


# ---- BD-6: group actions -------------------------------------------------------------------------

@pytest.mark.parametrize("ratings", [(2, 1), (0, 3), (1, 1, 2)])
def test_bd6_group_action_the_best_roll_counts_and_the_leader_takes_stress_per_bad_roll(ratings):
    outcomes: dict[str, F] = defaultdict(F)
    stress: dict[int, F] = defaultdict(F)
    pools = [read_pool(r) for r in ratings]
    for combo in itertools.product(*pools):
        p = F(1)
        for _, _, q in combo:
            p *= q
        best_key = max((int(crit), best) for best, crit, _ in combo)
        crit, best = best_key
        outcomes["critical" if crit else "full_success" if best == 6 else
                 "partial_success" if best >= 4 else "bad_outcome"] += p
        stress[sum(1 for best, _, _ in combo if best <= 3)] += p
    odds = RS.procedure("group_action").odds(parties=[{"rating": r} for r in ratings])
    assert nonzero(odds.outcomes) == dict(outcomes)
    assert odds.report["leader_stress"] == dict(sorted(stress.items()))


def test_bd6_group_action_example():
    r = RS.procedure("group_action").roll(parties=[{"rating": 2}, {"rating": 1}, {"rating": 1}],
                                          faces=[5, 2, 1, 3])
    assert (r.outcome, r.best, r.report) == ("partial_success", 0, {"leader_stress": 2})
