"""A reported value of a roll that explodes keeps, like the result, the mass the depth cut
where it is known to lie: its "at least" rows count that mass in up to the least number it
lies on (``values_cut_from``), and are exact there. Before, the result's rows did and the
values' rows left it out (an outside author's Burning Wheel: the margin's "at least" at its
lowest value was 1 − 3e-8, not 1). The oracle: each open-ended die's successes in closed
form, P(total ≥ v) = 1 − P(total < v), a finite sum however deep the dice explode."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      dice: {type: integer, min: 1, max: 6}
      obstacle: {type: integer, min: 1, max: 6}
    roll: (dice)d6!
    let:
      successes: count(roll, 4, 6)
      margin: successes - obstacle
    result: successes
    report: [margin]
    outcomes:
      - {name: pass, when: "successes >= obstacle", success: true}
      - {name: fail, success: false}
"""


def one_die(k: int) -> Fraction:
    """P(an open-ended d6 gives k successes, 4+): j sixes, then a 4 or 5 (j + 1) or a 1 to 3 (j)."""
    p = Fraction(1, 6) ** k * Fraction(1, 2)
    return p + (Fraction(1, 6) ** (k - 1) * Fraction(1, 3) if k >= 1 else 0)


def below(dice: int, v: int) -> Fraction:
    """P(the dice's successes add up to less than v)."""
    dist = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for t, p in dist.items():
            for k in range(v - t):
                nxt[t + k] = nxt.get(t + k, 0) + p * one_die(k)
        dist = nxt
    return sum((p for t, p in dist.items() if t < v), Fraction(0))


@pytest.mark.parametrize("dice, obstacle", [(1, 1), (3, 2), (5, 4)])
def test_a_reported_values_at_least_counts_the_cut_mass_in_up_to_where_it_lies(dice, obstacle):
    odds = loads(RULESET).check("c").odds({"dice": dice, "obstacle": obstacle})
    data = odds.to_dict()
    cut_from = data["values_cut_from"]["margin"]
    assert cut_from == data["result_cut_from"] - obstacle  # the margin is the result less the obstacle
    rows = data["values"]["margin"]
    assert rows[0]["at_least"]["exact"] == "1/1"
    for row in rows:
        if row["value"] <= cut_from:
            want = 1 - below(dice, row["value"] + obstacle)
            assert Fraction(row["at_least"]["exact"]) == want, row["value"]
    # the same figures as the result's rows, shifted by the obstacle
    result = {r["value"]: r["at_least"]["exact"] for r in data["result"]}
    assert all(result[r["value"] + obstacle] == r["at_least"]["exact"] for r in rows if r["value"] <= cut_from)


def test_a_value_the_depth_does_not_cut_has_no_cut_from():
    plain = RULESET.replace("(dice)d6!", "(dice)d6")
    data = loads(plain).check("c").odds({"dice": 3, "obstacle": 2}).to_dict()
    assert "values_cut_from" not in data
    assert data["values"]["margin"][0]["at_least"]["exact"] == "1/1"
