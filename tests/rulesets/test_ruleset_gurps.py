"""gurps-4e: the seed's worked examples (seed 004) and its success/critical chances.

Odds are checked against a brute force written here from the rules (GU-1..GU-5), over
every 3d6 outcome, independent of the engine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

import rulesengine.ruleset as R
from rulesengine.errors import InputError
from rulesengine.rules.document import load_file

PATH = Path(__file__).resolve().parents[2] / "rulesets" / "gurps-4e.yaml"


@pytest.fixture(scope="module")
def rs():
    return R.load("gurps-4e")


def test_the_ruleset_validates_with_no_diagnostics():
    model, diagnostics = R.analyse(load_file(PATH))
    assert model is not None and diagnostics == []


def brute_force(effective: int) -> dict[str, Fraction]:
    """GU-1..GU-3 restated: 3d6 ≤ effective succeeds; 3–4 always succeed, 17–18 always
    fail; criticals by roll and effective skill."""
    counts = {"critical_success": 0, "success": 0, "failure": 0, "critical_failure": 0}
    for faces in itertools.product(range(1, 7), repeat=3):
        roll = sum(faces)
        crit_success = roll <= 4 or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16)
        crit_failure = roll == 18 or (roll == 17 and effective <= 15) or roll - effective >= 10
        if crit_success:
            counts["critical_success"] += 1
        elif crit_failure:
            counts["critical_failure"] += 1
        elif roll <= effective and roll <= 16:
            counts["success"] += 1
        else:
            counts["failure"] += 1
    return {k: Fraction(v, 216) for k, v in counts.items()}


@pytest.mark.parametrize("effective", range(3, 21))
def test_success_and_critical_chances_for_effective_skill_3_to_20(rs, effective):
    odds = rs.check("success_roll").odds({"skill": effective})
    want = brute_force(effective)
    assert odds.outcomes == want
    assert odds.success == want["critical_success"] + want["success"]


@pytest.mark.parametrize("skill,modifier,effective", [(9, 0, 9), (9, -5, 4), (9, 10, 19), (9, 5, 14)])
def test_lockpicking_modifiers_change_the_target_not_the_roll(rs, skill, modifier, effective):
    """Seed: Lockpicking 9; in the dark −5 → 4; a primitive lock +10 → 19; both → 14."""
    r = rs.check("success_roll").roll({"skill": skill, "modifier": modifier}, faces=[3, 3, 3])
    assert r.values["effective"] == effective
    assert r.result == effective - 9  # margin = effective skill − roll


def test_a_roll_of_3_or_4_always_succeeds_and_17_or_18_always_fails(rs):
    chk = rs.check("success_roll")
    assert chk.roll({"skill": 3}, faces=[1, 1, 2]).outcome == "critical_success"
    assert chk.roll({"skill": 25}, faces=[6, 6, 5]).outcome == "failure"
    assert chk.roll({"skill": 25}, faces=[6, 6, 6]).outcome == "critical_failure"
    assert chk.roll({"skill": 15}, faces=[6, 6, 5]).outcome == "critical_failure"


def test_margin_of_success_and_failure(rs):
    chk = rs.check("success_roll")
    assert chk.roll({"skill": 12}, faces=[3, 3, 2]).result == 4
    assert chk.roll({"skill": 12}, faces=[5, 5, 4]).result == -2


def test_no_roll_below_effective_skill_3_except_defense(rs):
    chk = rs.check("success_roll")
    r = chk.roll({"skill": 5, "modifier": -3}, seed=1)
    assert (r.outcome, r.success, r.skipped, r.dice) == ("not_allowed", False, True, ())
    assert "below 3" in r.reason
    assert chk.roll({"skill": 2, "defense": True}, faces=[1, 1, 1]).outcome == "critical_success"
    assert chk.odds({"skill": 2}).outcomes["not_allowed"] == 1


def test_interrogation_takes_the_best_default(rs):
    """Seed: IQ 12, Intimidation 14, Psychology 13 with IQ-5, Intimidation-3,
    Psychology-4 → defaults 7, 11 and 9: roll against 11."""
    r = rs.check("default_roll").roll(
        {"attribute": 12, "attribute_default": -5, "other_skill": 14, "other_skill_default": -3,
         "third_skill": 13, "third_skill_default": -4}, faces=[4, 4, 3])
    assert r.values == {"base": 11, "effective": 11}
    assert (r.outcome, r.result) == ("success", 0)


def test_rule_of_20_caps_attributes_for_defaults_only(rs):
    """Seed: IQ 25 → Lockpicking default (IQ-5) is 15, not 20; skill defaults are not capped."""
    chk = rs.check("default_roll")
    assert chk.roll({"attribute": 25, "attribute_default": -5}, seed=1).values["base"] == 15
    assert chk.roll({"other_skill": 25, "other_skill_default": -5}, seed=1).values["base"] == 20


def test_a_skill_with_no_default_cannot_be_tried(rs):
    r = rs.check("default_roll").roll({}, seed=1)
    assert r.outcome == "not_allowed" and "no default" in r.reason


def test_secret_rolls_are_marked_for_front_ends(rs):
    assert rs.check("success_roll").roll({"skill": 12, "secret": True}, seed=1).secret is True
    assert rs.check("success_roll").roll({"skill": 12}, seed=1).secret is False


def _success(effective):
    o = brute_force(effective)
    return o["critical_success"] + o["success"]


def test_quick_contest_success_beats_failure_then_margins(rs):
    proc = rs.procedure("quick_contest")
    r = proc.roll(parties=[{"skill": 12}, {"skill": 10}], faces=[3, 3, 3, 5, 5, 5])
    assert (r.winner, r.winner_result) == (0, 3 - (-5))
    tie = proc.roll(parties=[{"skill": 12}, {"skill": 10}], faces=[4, 4, 4, 3, 3, 4])
    assert tie.winner is None


def test_quick_contest_odds_match_brute_force(rs):
    odds = rs.procedure("quick_contest").odds(parties=[{"skill": 12}, {"skill": 10}])
    wins = [Fraction(0), Fraction(0)]
    tie = Fraction(0)
    for a in itertools.product(range(1, 7), repeat=3):
        for b in itertools.product(range(1, 7), repeat=3):
            ka = (_ok(12, sum(a)), 12 - sum(a))
            kb = (_ok(10, sum(b)), 10 - sum(b))
            p = Fraction(1, 216 * 216)
            if ka > kb:
                wins[0] += p
            elif kb > ka:
                wins[1] += p
            else:
                tie += p
    assert list(odds.wins) == wins and odds.tie == tie


def _ok(effective, roll):
    return roll <= 4 or (roll <= effective and roll <= 16)


def test_regular_contest_repeats_until_one_succeeds_and_the_other_fails(rs):
    odds = rs.procedure("regular_contest").odds(parties=[{"skill": 12}, {"skill": 10}])
    pa, pb = _success(12), _success(10)
    a_only, b_only = pa * (1 - pb), pb * (1 - pa)
    assert odds.wins == (a_only / (a_only + b_only), b_only / (a_only + b_only))
    assert odds.tie == 0


def test_inputs_are_checked_before_rolling(rs):
    chk = rs.check("success_roll")
    with pytest.raises(InputError, match="unknown input 'skil'") as info:
        chk.roll({"skil": 12})
    assert info.value.hint == "did you mean 'skill'?"
    with pytest.raises(InputError, match="missing input 'skill'"):
        chk.roll({})
    with pytest.raises(InputError, match="above its maximum"):
        chk.roll({"skill": 999})
    with pytest.raises(InputError, match="not true or false"):
        chk.roll({"skill": 12, "defense": "maybe"})
    with pytest.raises(InputError, match="faces given"):
        chk.roll({"skill": 12}, faces=[1, 2, 3, 4])


def test_every_rule_id_of_the_seed_is_cited_in_the_ruleset():
    text = PATH.read_text(encoding="utf-8")
    assert all(f"GU-{n}" in text for n in range(1, 9))


def test_a_default_below_effective_skill_3_allows_no_roll(rs):
    """GU-5 applies to defaults too: IQ 7 with IQ-5 gives 2."""
    r = rs.check("default_roll").roll({"attribute": 7, "attribute_default": -5}, seed=1)
    assert (r.outcome, r.values["effective"], r.dice) == ("not_allowed", 2, ())
    assert rs.check("default_roll").roll({"attribute": 7, "attribute_default": -5, "defense": True},
                                         faces=[1, 1, 1]).outcome == "critical_success"


def test_default_rolls_may_be_secret(rs):
    assert rs.check("default_roll").roll({"attribute": 12, "attribute_default": -5, "secret": True},
                                         seed=1).secret is True


def test_criticals_do_not_decide_a_quick_contest(rs):
    """GU-8: a critical success (skill 4 rolling 4, margin 0) against a plain success with the
    same margin (skill 10 rolling 10) is a tie."""
    r = rs.procedure("quick_contest").roll(parties=[{"skill": 4}, {"skill": 10}], faces=[1, 1, 2, 3, 3, 4])
    assert [p.outcome for p in r.parties] == ["critical_success", "success"]
    assert r.winner is None
