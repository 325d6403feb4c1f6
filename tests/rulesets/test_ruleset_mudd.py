"""Tests for rulesets/mudd.yaml: MuDD action rolls, Precision and Impact (MU-1..MU-7).

Source: MuDD, "Mechanics: Modifying Rolls" (muddgames.com, 2017), seed 002. The worked
examples (Frank's tennis match, the judges, the creek jump and the climb) are reproduced
with the faces the seed gives; the exact odds are checked against a brute force written
here, independently of the engine (every face of every die, every pair of dice).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from rulesengine.errors import InputError, RulesEngineError
from rulesengine.ruleset import analyse, load
from rulesengine.rules.document import load_file

PATH = Path(__file__).resolve().parents[2] / "rulesets" / "mudd.yaml"

# A face a dice pool cannot show: the project's own error (E204), as for a dice term.
BAD_FACE = RulesEngineError


@pytest.fixture(scope="module")
def action():
    return load(PATH).check("action")


def inputs(pool, pt, it, **more):
    return {"pool": pool, "precision_target": pt, "impact_target": it, **more}


# ---- the file --------------------------------------------------------------------------------


def test_file_validates_without_diagnostics():
    model, diags = analyse(load_file(PATH))
    assert diags == []
    assert model is not None and model.id == "mudd"


def test_file_header_rules_and_shipped_id():
    assert PATH.read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=../schemas/ruleset.schema.json\n")
    rs = load("mudd")
    assert rs.checks() == ["action"]
    check = rs.model.checks["action"]
    assert set(check.rules) == {f"MU-{i}" for i in range(1, 8)}
    assert check.report == ("precision", "impact")
    assert [o.name for o in check.outcomes] == ["success", "failure"]
    assert [i.name for i in check.inputs] == [
        "pool", "precision_target", "impact_target", "precision_bonus", "impact_bonus",
        "hindrance", "hindrances"]
    assert rs.model.source.year == 2017


# ---- MU-1 / MU-2 / MU-4: the seed's worked examples --------------------------------------------


def test_mu2_mu4_tennis_precision_6(action):
    """Seed 002, "Adding to or subtracting from the Precision": Power/Finesse d8/d4/d4 rolls
    4, 3, 1 (faces are read largest die first: the d8 shows 4); Frank keeps 4 and 1. His
    Tennis skill gives +2 and the loosened strings −1, a net +1 to Precision: 4 + 1 + 1 = 6.
    Impact is untouched: 4 − 1 = 3."""
    r = action.roll(inputs("d8/d4/d4", 6, 3, precision_bonus=2 - 1), faces=[4, 3, 1], choose=[4, 1])
    assert (r.values["precision"], r.values["impact"]) == (6, 3)
    assert r.result == 6  # the result is the Precision
    assert r.chosen.faces == (4, 1)
    assert [(d.face) for d in r.dice] == [4, 3, 1]
    assert r.to_dict()["dice"][0]["term"] == "d8/d4/d4"
    assert r.to_dict()["precision"] == 6 and r.to_dict()["impact"] == 3


def test_mu1_faces_are_read_largest_die_first(action):
    """MU-1: the pool d4/d8/d4 is the same pool as d8/d4/d4, and the first face is the d8's:
    a 7 can only be read as the d8, a 7 in second place is an impossible d4 face."""
    r = action.roll(inputs("d4/d8/d4", 0, 0), faces=[7, 4, 1])
    assert r.to_dict()["dice"][0]["term"] == "d8/d4/d4"
    with pytest.raises(BAD_FACE, match="cannot come up on a d4"):
        action.roll(inputs("d4/d8/d4", 0, 0), faces=[4, 7, 1])


def test_mu1_combined_pool_of_two_attributes(action):
    """Seed 002, creek jump: Power (d8/d4) and Quickness (d4) combine into d8/d4/d4."""
    a = action.odds(inputs("d8/d4+d4", 7, 2))
    b = action.odds(inputs("d8/d4/d4", 7, 2))
    assert a.outcomes == b.outcomes and a.values == b.values


def test_mu4_judges_impact_penalty(action):
    """Seed 002, "Adding to or subtracting from the Impact": Willpower/Charisma rolls 6, 4, 2;
    Frank keeps 6 and 2 (Impact 4); spinach in his teeth is −1 Impact: Precision 8, Impact 3.
    The seed does not name the pool; any pool that can show 6, 4, 2 in that order will do."""
    for pool in ("d6/d6/d4", "d8/d6/d4", "d6/d4/d4"):
        r = action.roll(inputs(pool, 8, 3, impact_bonus=-1), faces=[6, 4, 2], choose=[6, 2])
        assert (r.values["precision"], r.values["impact"]) == (8, 3)
        assert r.outcome == "success"
        # one more point of Impact asked for and the spinach costs him the check
        r = action.roll(inputs(pool, 8, 4, impact_bonus=-1), faces=[6, 4, 2], choose=[6, 2])
        assert r.outcome == "failure" and not r.success


def test_mu4_modifiers_apply_after_the_pair_is_chosen(action):
    """Seed 002: Precision and Impact modifiers are added after the dice are rolled and kept,
    so they change neither which pairs exist nor their faces, only the two numbers."""
    plain = action.roll(inputs("d8/d4/d4", 0, 0), faces=[4, 3, 1])
    moved = action.roll(inputs("d8/d4/d4", 0, 0, precision_bonus=5, impact_bonus=-2), faces=[4, 3, 1])
    assert [c.faces for c in plain.choices] == [c.faces for c in moved.choices]
    for a, b in zip(plain.choices, moved.choices):
        assert b.values["precision"] == a.values["precision"] + 5
        assert b.values["impact"] == a.values["impact"] - 2


# ---- MU-3: thresholds ------------------------------------------------------------------------


def test_mu3_both_thresholds_must_be_met_or_surpassed(action):
    """MU-3: success when Precision and Impact each reach the GM's threshold (≥)."""
    roll = dict(faces=[4, 3, 1], choose=[4, 1])  # Precision 5, Impact 3
    assert action.roll(inputs("d8/d4/d4", 5, 3), **roll).outcome == "success"
    assert action.roll(inputs("d8/d4/d4", 6, 3), **roll).outcome == "failure"
    assert action.roll(inputs("d8/d4/d4", 5, 4), **roll).outcome == "failure"
    assert action.roll(inputs("d8/d4/d4", 0, 0), **roll).success is True


# ---- MU-5: hindrances ------------------------------------------------------------------------


def test_mu5_creek_jump_minor_hindrance(action):
    """Seed 002, the creek jump: Minorly Hindered, so one d4 leaves d8/d4/d4 before the roll;
    he rolls 5 and 4: Precision 9, Impact 1, short of the 2 the two-meter gap asks for. The
    seed gives no Precision threshold ("his aim is not a problem"): any up to 9 fails too."""
    for pt in range(0, 10):
        for how in ({"hindrance": "minor"}, {"hindrances": 1}):
            r = action.roll(inputs("d8/d4/d4", pt, 2, **how), faces=[5, 4])
            assert (r.values["precision"], r.values["impact"]) == (9, 1)
            assert r.outcome == "failure"
            assert r.to_dict()["dice"][0]["term"] == "d8/d4"
            assert len(r.dice) == 2


def test_mu5_climb_two_hindrances_are_major(action):
    """Seed 002, the climb: the mud and the princess are two Minor hindrances, so the climb is
    Majorly Hindered: the d8 leaves d8/d4/d4 and he rolls just two d4s."""
    r = action.roll(inputs("d8/d4/d4", 5, 2, hindrance="minor", hindrances=2), faces=[4, 1])
    assert r.to_dict()["dice"][0]["term"] == "d4/d4"
    assert (r.values["precision"], r.values["impact"]) == (5, 3)
    assert r.outcome == "success"
    with pytest.raises(BAD_FACE, match="cannot come up on a d4"):  # no d8 left to show a 5
        action.roll(inputs("d8/d4/d4", 5, 2, hindrances=2), faces=[5, 1])
    climb = action.odds(inputs("d8/d4/d4", 5, 2, hindrances=2))
    assert climb.outcomes == action.odds(inputs("d4/d4", 5, 2)).outcomes
    assert climb.values == action.odds(inputs("d8/d4/d4", 5, 2, hindrance="major")).values


def test_mu5_two_or_more_hindrances_make_it_major(action):
    """MU-5: being hindered more than once, by either kind, is one Major hindrance."""
    major = action.odds(inputs("d10/d8/d6/d4", 8, 3, hindrance="major"))
    assert major.values == action.odds(inputs("d8/d6/d4", 8, 3)).values
    for how in ({"hindrances": 2}, {"hindrances": 5}, {"hindrance": "minor", "hindrances": 2},
                {"hindrance": "major", "hindrances": 3}):
        assert action.odds(inputs("d10/d8/d6/d4", 8, 3, **how)).values == major.values


def test_mu5_only_one_hindrance_applies(action):
    """MU-5: however many hindrances there are, exactly one die leaves the pool."""
    for how in ({"hindrances": 2}, {"hindrances": 20}, {"hindrance": "major", "hindrances": 4}):
        r = action.roll(inputs("d8/d4/d4", 0, 0, **how), faces=[3, 2])
        assert r.to_dict()["dice"][0]["term"] == "d4/d4"
    r = action.roll(inputs("d10/d8/d6/d4", 0, 0, hindrance="minor", hindrances=1), faces=[9, 7, 5])
    assert r.to_dict()["dice"][0]["term"] == "d10/d8/d6"  # one effect: still Minor


def test_mu5_ties_remove_a_single_die(action):
    """MU-5: when several dice tie for smallest (or largest), only one of them leaves."""
    assert action.roll(inputs("d6/d6/d6", 0, 0, hindrance="minor"), faces=[1, 2]).to_dict()["dice"][0]["term"] == "d6/d6"
    assert action.roll(inputs("d8/d8/d4", 0, 0, hindrance="major"), faces=[7, 2]).to_dict()["dice"][0]["term"] == "d8/d4"


def test_mu5_bad_hindrance_is_a_clear_error(action):
    with pytest.raises(InputError, match="minor"):
        action.roll(inputs("d8/d4/d4", 5, 2, hindrance="minr"), seed=1)
    with pytest.raises(InputError, match="hindrances"):
        action.roll(inputs("d8/d4/d4", 5, 2, hindrances=-1), seed=1)


# ---- MU-6: a single die ------------------------------------------------------------------------


def test_mu6_single_die_fails_without_an_impact_modifier(action):
    """Seed 002, "Modifying the dice pool": a pool down to one die has Impact 0 (its highest and
    lowest die are the same die), and the roll fails unless something lifts Impact above 0,
    even when the GM asks for Impact 0. Precision is that die's face."""
    r = action.roll(inputs("d8/d4", 0, 0, hindrance="minor"), faces=[7])
    assert r.to_dict()["dice"][0]["term"] == "d8"
    assert (r.values["precision"], r.values["impact"]) == (7, 0)
    assert r.outcome == "failure" and "single_die" in r.tags
    assert [c.faces for c in r.choices] == [(7,)] and r.chosen.faces == (7,)
    r = action.roll(inputs("d8/d4", 0, 0, hindrance="minor", impact_bonus=-1), faces=[7])
    assert r.outcome == "failure"
    r = action.roll(inputs("d8/d4", 7, 1, hindrance="major", impact_bonus=1), faces=[4])
    assert (r.values["precision"], r.values["impact"]) == (4, 1)
    assert r.outcome == "failure"  # Impact lifted, but Precision 4 is short of 7
    r = action.roll(inputs("d8/d4", 4, 1, hindrance="major", impact_bonus=1, precision_bonus=0), faces=[4])
    assert r.outcome == "success" and "single_die" in r.tags


def test_mu6_a_pair_of_equal_dice_is_not_a_single_die(action):
    """MU-6 is about a pool of one die: a pair showing the same face has Impact 0, which meets
    an Impact threshold of 0."""
    r = action.roll(inputs("d6/d6", 6, 0), faces=[3, 3])
    assert (r.values["precision"], r.values["impact"]) == (6, 0)
    assert r.outcome == "success" and r.tags == ()


def test_mu6_single_die_odds(action):
    """MU-6 exact odds: d8 alone, Impact lifted to 1, Precision ≥ 5: the faces 5..8."""
    o = action.odds(inputs("d8", 5, 0, impact_bonus=1))
    assert o.success == Fraction(1, 2)
    assert action.odds(inputs("d8", 0, 0)).success == 0
    assert action.odds(inputs("d12", 0, 0)).values["impact"] == {0: Fraction(1)}


# ---- MU-7: the player's choice and the engine's policy ------------------------------------------


def test_mu7_every_pair_is_offered(action):
    """MU-7: a front end gets every distinct pair with its Precision and Impact."""
    r = action.roll(inputs("d8/d4/d4", 5, 2), faces=[4, 3, 1])
    offered = {c.faces: (c.values["precision"], c.values["impact"], c.preferred) for c in r.choices}
    assert offered == {(4, 3): (7, 1, False), (4, 1): (5, 3, True), (3, 1): (4, 2, False)}
    d = r.to_dict()
    assert [c["faces"] for c in d["choices"]] == [[4, 3], [4, 1], [3, 1]]
    assert d["chosen"]["faces"] == [4, 1]
    # equal faces give one pair, not two
    r = action.roll(inputs("d8/d4/d4", 5, 2), faces=[4, 4, 1])
    assert sorted(c.faces for c in r.choices) == [(4, 1), (4, 4)]


def test_mu7_policy_prefers_a_pair_that_succeeds(action):
    """MU-7: a pair meeting both thresholds is picked over a wider one that does not."""
    r = action.roll(inputs("d8/d4/d4", 7, 1), faces=[4, 3, 1])
    assert r.chosen.faces == (4, 3) and r.outcome == "success"
    assert [c.faces for c in r.choices if c.preferred] == [(4, 3)]


def test_mu7_policy_order_largest_impact_then_precision(action):
    """MU-7, the declared order: among pairs that all succeed (or all fail) the largest Impact,
    then the largest Precision. With no threshold reachable the engine keeps 4 and 1 from
    4, 3, 1, as Frank did in the seed's tennis example."""
    r = action.roll(inputs("d8/d4/d4", 4, 0), faces=[4, 3, 1])  # all three succeed
    assert r.chosen.faces == (4, 1)
    r = action.roll(inputs("d8/d4/d4", 30, 0), faces=[4, 3, 1])  # none succeeds
    assert r.chosen.faces == (4, 1) and r.outcome == "failure"
    r = action.roll(inputs("d10/d8/d6/d4", 0, 0), faces=[9, 5, 5, 1])
    assert r.chosen.faces == (9, 1)
    # 8, 6, 4, 2 with Precision 11 asked for: only 8+6 (Impact 2) and 8+4 (Impact 4)
    # succeed; the policy takes 8+4, not the wider but failing 8+2 (Impact 6).
    r = action.roll(inputs("d10/d8/d6/d4", 11, 0), faces=[8, 6, 4, 2])
    assert r.chosen.faces == (8, 4) and r.outcome == "success"
    assert {c.faces for c in r.choices if c.preferred} == {(8, 6), (8, 4)}


def test_mu7_player_choice_overrides_the_policy(action):
    """MU-7: the player may keep any pair, even one that fails when another would succeed."""
    r = action.roll(inputs("d8/d4/d4", 5, 2), faces=[4, 3, 1], choose=[3, 4])
    assert r.chosen.faces == (4, 3)
    assert (r.values["precision"], r.values["impact"], r.outcome) == (7, 1, "failure")
    assert any(c.preferred for c in r.choices)
    with pytest.raises(InputError, match="cannot choose"):
        action.roll(inputs("d8/d4/d4", 5, 2), faces=[4, 3, 1], choose=[4, 4])
    with pytest.raises(InputError):
        action.roll(inputs("d8/d4/d4", 5, 2), faces=[4, 3, 1], choose=[4])


def test_mu7_seeded_rolls_always_keep_the_best_pair(action):
    """MU-7: whatever is rolled, the engine's pick succeeds whenever some pair would."""
    for seed in range(200):
        r = action.roll(inputs("d10/d8/d6/d4", 9, 3, hindrance="minor"), seed=seed)
        assert r.success == any(c.preferred for c in r.choices)
        assert r.chosen in r.choices


# ---- exact odds against an independent brute force --------------------------------------------


def brute_force(pool_sides, pt, it, pb=0, ib=0, hindrance="none", hindrances=0):
    """Independent model of MU-1..MU-7: returns (P(success), precision dist, impact dist) for
    the policy 'a succeeding pair if any, then largest Impact, then largest Precision'."""
    sides = sorted(pool_sides, reverse=True)
    level = "major" if hindrance == "major" or hindrances >= 2 else \
        "minor" if hindrance == "minor" or hindrances == 1 else "none"
    if len(sides) > 1 and level == "major":
        sides = sides[1:]
    elif len(sides) > 1 and level == "minor":
        sides = sides[:-1]
    total = 0
    wins = 0
    prec, imp = defaultdict(int), defaultdict(int)
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        total += 1
        if len(faces) == 1:
            options = [(faces[0] + pb, 0 + ib, faces[0] + pb >= pt and ib >= it and ib > 0)]
        else:
            options = []
            for a, b in itertools.combinations(faces, 2):
                p, i = a + b + pb, abs(a - b) + ib
                options.append((p, i, p >= pt and i >= it))
        if any(ok for _, _, ok in options):
            wins += 1
        p, i, _ = max(options, key=lambda o: (o[2], o[1], o[0]))
        prec[p] += 1
        imp[i] += 1
    return (Fraction(wins, total),
            {k: Fraction(v, total) for k, v in prec.items()},
            {k: Fraction(v, total) for k, v in imp.items()})


POOLS = ["d8/d4/d4", "d6/d6", "d10/d8/d6/d4", "d8", "d4/d4", "d12/d6"]
THRESHOLDS = [(0, 0), (5, 2), (9, 3), (12, 1), (4, 5), (16, 0)]
MODIFIERS = [
    {},
    {"precision_bonus": 2},
    {"impact_bonus": -1},
    {"precision_bonus": -1, "impact_bonus": 1},
    {"hindrance": "minor"},
    {"hindrance": "major", "precision_bonus": 1},
    {"hindrances": 2, "impact_bonus": 2},
    {"hindrance": "minor", "hindrances": 1, "impact_bonus": 1},
]


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("mods", MODIFIERS, ids=lambda m: ",".join(f"{k}={v}" for k, v in m.items()) or "plain")
def test_mu3_mu7_exact_odds_match_brute_force(action, pool, mods):
    """MU-2..MU-7: the chance that SOME pair meets both thresholds (the chance the engine's
    pick succeeds), and the Precision and Impact of the pick, match the brute force."""
    sides = [int(p[1:]) for p in pool.split("/")]
    for pt, it in THRESHOLDS:
        o = action.odds(inputs(pool, pt, it, **mods))
        win, prec, imp = brute_force(sides, pt, it, mods.get("precision_bonus", 0),
                                     mods.get("impact_bonus", 0), mods.get("hindrance", "none"),
                                     mods.get("hindrances", 0))
        assert o.success == win, (pool, pt, it, mods)
        assert o.outcomes["success"] == win
        assert o.outcomes["failure"] == 1 - win
        assert o.values["precision"] == prec
        assert o.values["impact"] == imp
        assert o.result_distribution == prec  # the result is the Precision
        assert o.truncated == 0


def test_exact_odds_single_die_against_brute_force(action):
    """MU-6 in exact odds, hindered down to one die and not."""
    for pool, mods in [("d8", {"impact_bonus": 1}), ("d8/d4", {"hindrance": "minor", "impact_bonus": 2}),
                       ("d8/d4", {"hindrances": 3, "impact_bonus": 1, "precision_bonus": 3}),
                       ("d6", {})]:
        sides = [int(p[1:]) for p in pool.split("/")]
        for pt, it in [(0, 0), (3, 1), (6, 2), (9, 0)]:
            o = action.odds(inputs(pool, pt, it, **mods))
            win, prec, imp = brute_force(sides, pt, it, mods.get("precision_bonus", 0),
                                         mods.get("impact_bonus", 0), mods.get("hindrance", "none"),
                                         mods.get("hindrances", 0))
            assert (o.success, o.values["precision"], o.values["impact"]) == (win, prec, imp)
            assert o.tags["single_die"] == 1


def test_creek_jump_odds(action):
    """The creek jump as odds: d8/d4 (Minorly Hindered), Impact 2 needed. Pairs (a, b) with
    |a − b| ≥ 2: 32 − 4 (equal) − 7 (one apart) = 21 of 32."""
    o = action.odds(inputs("d8/d4/d4", 0, 2, hindrance="minor"))
    assert o.success == Fraction(21, 32)


def test_bad_pool_face_is_a_rulesengine_error(action):
    with pytest.raises(RulesEngineError) as info:
        action.roll(inputs("d8/d4/d4", 0, 0), faces=[7, 7, 1])
    assert info.value.code == "E204"
    assert info.value.location.line is not None  # points at the roll in mudd.yaml
