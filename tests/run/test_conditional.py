"""Conditional odds (issue 15): a check's odds given a yes/no expression over its names, checked
against a brute force over the dice; the condition's own probability is reported too."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesengine.errors import InputError
from rulesengine.ruleset import load, loads


def gurps_brute(skill: int) -> list[tuple[str, int, Fraction]]:
    """(outcome, margin, probability) of every 3d6 roll of a GURPS success roll (seed GU-1..5)."""
    out = []
    for faces in itertools.product(range(1, 7), repeat=3):
        roll = sum(faces)
        if roll <= 4 or (roll == 5 and skill >= 15) or (roll == 6 and skill >= 16):
            name = "critical_success"
        elif roll == 18 or (roll == 17 and skill <= 15) or roll >= skill + 10:
            name = "critical_failure"
        elif roll <= 16 and roll <= skill:
            name = "success"
        else:
            name = "failure"
        out.append((name, skill - roll, Fraction(1, 216)))
    return out


@pytest.mark.parametrize("skill", [6, 12, 16])
def test_given_a_success_the_chance_of_a_critical_is_the_ratio_of_their_chances(skill):
    rows = gurps_brute(skill)
    succeeded = sum(p for n, _, p in rows if n in ("success", "critical_success"))
    crit = sum(p for n, _, p in rows if n == "critical_success")
    odds = load("gurps-4e").check("success_roll").odds({"skill": skill}, given="success")
    assert odds.given_probability == succeeded
    assert odds.outcomes["critical_success"] == crit / succeeded
    assert odds.success == 1


def test_given_a_margin_the_result_distribution_is_renormalised():
    rows = gurps_brute(12)
    kept = [(m, p) for _, m, p in rows if m >= 3]
    total = sum(p for _, p in kept)
    odds = load("gurps-4e").check("success_roll").odds({"skill": 12}, given="result >= 3")
    want: dict[int, Fraction] = {}
    for m, p in kept:
        want[m] = want.get(m, 0) + p / total
    assert odds.result_distribution == want
    assert odds.to_dict()["given"]["exact"] == f"{total.numerator}/{total.denominator}"


def test_a_condition_that_never_holds_is_an_input_error():
    with pytest.raises(InputError, match="never holds"):
        load("gurps-4e").check("success_roll").odds({"skill": 12}, given="roll > 18")


@pytest.mark.parametrize("given, hint", [("sucess", "did you mean 'success'?"), ("1d6 > 3", "rolls instead"),
                                         ("roll >", None)])
def test_a_mistake_in_the_condition_is_an_input_error_with_a_hint(given, hint):
    with pytest.raises(InputError) as info:
        load("gurps-4e").check("success_roll").odds({"skill": 12}, given=given)
    if hint:
        assert hint in (info.value.hint or "")


def test_the_condition_reads_the_checks_tables_and_values():
    rs = loads("""ruleset: t
name: T
version: "1"
source: tests
tables:
  bonus: {ladder: {small: 1, big: 3}}
checks:
  c:
    let:
      edge: bonus('big')
    roll: 2d6
    result: roll + edge
    outcomes: [{name: any, success: true}]
""", "t.yaml")
    odds = rs.check("c").odds(given="result >= edge + bonus('big') + 6")  # roll >= 9
    assert odds.given_probability == Fraction(10, 36)


# ---- a condition the explode depth leaves open (found by tests/run/test_check_claims_oracle.py)

EXPLODING = """
ruleset: given-open
name: A condition the depth leaves open
version: "1"
source: tests
checks:
  c:
    roll: 2d6!cs>=5
    result: roll
    outcomes:
      - {name: great, when: "result >= 4", success: true}
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
"""


def _successes(j: int) -> Fraction:
    """P(one d6 exploding on 6 and counting 5+ gives j successes), followed forever: j − 1
    sixes then a 5, or j sixes then a 1–4."""
    if j == 0:
        return Fraction(4, 6)
    return Fraction(1, 6) ** (j - 1) * Fraction(1, 6) + Fraction(1, 6) ** j * Fraction(4, 6)


def test_odds_given_a_condition_the_depth_leaves_open_claim_no_result_exact():
    """At explode depth 1 a die cut after two sixes has 2 successes or more, so for some cut
    paths "great" (4+) is open, and so is the condition "success" (an outcome must be
    known). The chance of the condition is then not known exactly, nor is anything divided
    by it: no result is claimed exact given it (it was: result_cut_from 4, with P(2 | success)
    over the mass worked out). Where one is claimed, it is the closed form's."""
    from dataclasses import replace as dc_replace
    from rulesengine.limits import DEFAULT_LIMITS

    check = loads(EXPLODING, limits=dc_replace(DEFAULT_LIMITS, explode_depth=1)).check("c")
    odds = check.odds({}, given="success")
    assert odds.truncated > 0  # the condition is open on some cut paths
    p = {s: sum((_successes(a) * _successes(s - a) for a in range(s + 1)), Fraction(0)) for s in range(4)}
    succeeded = 1 - p[0] - p[1]
    truth = {2: p[2] / succeeded, 3: p[3] / succeeded}
    if odds.result_cut_from is not None:
        for v, q in odds.result_distribution.items():
            if v < odds.result_cut_from:
                assert q == truth[v], v
