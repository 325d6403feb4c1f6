"""A cut roll whose outcome the depth leaves open still has a result known to be at least
a number (found by an outside author's Earthdawn step dice: with a target number past the
cut, the result's "at least" column dropped the cut mass, P(result >= 1) 215/216 on a d6!
at depth 2, and `result_cut_from` went missing, though the result's rows are the same at
every target number). The result's rows and "at least" read that bound, as they do where
the outcome is decided; the outcome's chance stays truncated."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine.limits import Limits
from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      need: {type: integer, min: 1, max: 60}
    roll: 2d6!
    result: roll
    outcomes:
      - {name: hit, when: "result >= need", success: true}
      - {name: miss, success: false}
"""


def below(v: int, depth: int) -> F:
    """P(2d6! < v), each die followed for ever, written apart: a d6! is 6k + r (r in 1..5)
    with chance (1/6)^(k+1), and the depth cuts no value below 6 (depth + 1)."""
    die = {6 * k + r: F(1, 6) ** (k + 1) for k in range(depth + 1) for r in range(1, 6)}
    return sum((p * q for a, p in die.items() for b, q in die.items() if a + b < v), F(0))


@pytest.mark.parametrize("need", [5, 13, 40])
def test_the_results_at_least_counts_the_cut_mass_whatever_the_outcome(need):
    """Depth 1: a cut die showed 6, 6 and more to come, so a cut roll is 13 or more (the other
    die at least 1). need=40: the outcome is open on the cut rolls (truncated), yet "at
    least v" for v up to 13 is exactly 1 - P(2d6! < v), as it is at need=5."""
    odds = loads(RULESET, limits=Limits(explode_depth=1)).check("c").odds({"need": need})
    assert odds.result_cut_from == 13
    data = odds.to_dict()
    rows = {r["value"]: F(r["at_least"]["exact"]) for r in data["result"]}
    assert rows[min(rows)] == 1
    for v, at_least in rows.items():
        if v <= 13:
            assert at_least == 1 - below(v, 1), v
    assert (odds.truncated > 0) == (need > 13)  # the outcome itself is open past the bound
    assert odds.result_truncated == 1 - (1 - F(1, 36)) ** 2  # a cut die: two 6s in a row


def test_a_result_an_open_outcome_sets_is_not_known():
    """An outcome rule with a result of its own: where the outcome is open, so is the result,
    and nothing is said of where the cut mass lies."""
    text = RULESET.replace('{name: hit, when: "result >= need", success: true}',
                           '{name: hit, when: "result >= need", success: true, result: "result * 2"}')
    odds = loads(text, limits=Limits(explode_depth=1)).check("c").odds({"need": 40})
    assert odds.truncated > 0
    assert odds.result_cut_from is None
    assert odds.result_truncated == odds.truncated
