"""A sweep's answer writes a distribution its values share once (issue 33, items 5 and 7).

The values of a sweep over an input the dice do not read (a skill rolled under) have the same
result distribution: its rows are written at the first value and given again, the same
objects, at the others (``run.json_parts.Rendered``), charged to the work budget as if
written again. Two distributions are one only where they are written alike: the same values
of the same types in the same order, with equal Fractions. The oracles: a brute force over
every throw, and each value's odds written alone, with nothing shared.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine.dice.dist import Budget
from rulesengine.errors import LimitError
from rulesengine.ruleset import loads
from rulesengine.run.json_parts import Rendered, distribution_json, ranked_distribution_json
from rulesengine.run.sweep import sweep

PERCENTILE = """ruleset: writing
name: A sweep's answer
version: '1'
source: a test
license: none
checks:
  percentile:
    inputs:
      skill: {type: integer, min: 1, max: 100}
    rolls:
      ones: d{0,1,2,3,4,5,6,7,8,9}
      tens: d{0,1,2,3,4,5,6,7,8,9}
      penalty: d{0,1,2,3,4,5,6,7,8,9}
    let:
      raw: 10 * max(tens, penalty) + ones
      value: if(raw == 0, 100, raw)
    result: value
    outcomes:
      - {name: regular, when: "value <= skill", success: true}
      - {name: failure, success: false}
"""


def _brute_force() -> dict[int, Fraction]:
    """The d100 with one penalty die, every throw of the three d10s listed."""
    counts = Counter()
    for ones, tens, penalty in itertools.product(range(10), repeat=3):
        raw = 10 * max(tens, penalty) + ones
        counts[100 if raw == 0 else raw] += 1
    return {v: Fraction(n, 1000) for v, n in sorted(counts.items())}


def test_a_distribution_the_values_of_a_sweep_share_is_written_once_and_reads_as_every_throw_gives():
    check = loads(PERCENTILE).runnable("percentile")
    swept = sweep(check, {"skill": "10..14"}, {})
    rows = swept.to_dict()
    assert [r["sweep"]["skill"] for r in rows] == [10, 11, 12, 13, 14]
    assert all(r["result"] is rows[0]["result"] for r in rows)  # one list of rows for them all
    oracle = _brute_force()
    assert [r["value"] for r in rows[0]["result"]] == list(oracle)
    below = 0
    for row, (v, p) in zip(rows[0]["result"], oracle.items(), strict=True):
        assert row["value"] == v
        assert Fraction(row["exact"]) == p and row["probability"] == float(p)
        assert Fraction(row["at_most"]["exact"]) == below + p
        assert Fraction(row["at_least"]["exact"]) == 1 - below
        below += p
    for r in rows:
        skill = r["sweep"]["skill"]
        success = sum(p for v, p in oracle.items() if v <= skill)
        assert Fraction(r["success"]["exact"]) == success


def test_each_value_of_a_sweep_is_written_as_its_odds_alone_are():
    check = loads(PERCENTILE).runnable("percentile")
    swept = sweep(check, {"skill": "1..6"}, {})
    shared = json.dumps(swept.to_dict([5, 50]), indent=2)
    alone = [{**odds.to_dict(), "sweep": {"skill": values[0]}, "sweep_result": f.to_dict()}
             for (values, odds), f in zip(swept.rows, swept.figures([5, 50]), strict=True)]
    assert shared == json.dumps(alone, indent=2)


def _alone(dist, **kwargs):
    return distribution_json(dist, Budget(10**9), **kwargs)


@pytest.mark.parametrize("first, second", [
    ({0: Fraction(1, 2), 1: Fraction(1, 2)}, {False: Fraction(1, 2), True: Fraction(1, 2)}),  # equal dicts
    ({0: Fraction(1, 4), 1: Fraction(3, 4)}, {1: Fraction(3, 4), 0: Fraction(1, 4)}),  # another order
    ({0: Fraction(1, 4), 1: Fraction(3, 4)}, {0: Fraction(3, 4), 1: Fraction(1, 4)}),
    ({"a": Fraction(1, 3), "b": Fraction(2, 3)}, {"a": Fraction(1, 3), "c": Fraction(2, 3)}),
])
def test_distributions_written_apart_are_never_given_each_others_rows(first, second):
    rendered = Rendered()
    a = distribution_json(first, Budget(10**9), rendered=rendered)
    b = distribution_json(second, Budget(10**9), rendered=rendered)
    assert a is not b
    assert json.dumps(a) == json.dumps(_alone(first)) and json.dumps(b) == json.dumps(_alone(second))
    assert [row["value"] for row in b] == list(second)
    assert [type(row["value"]) for row in b] == [type(v) for v in second]


def test_an_equal_distribution_of_other_objects_is_given_the_same_rows():
    rendered = Rendered()
    a = distribution_json({1: Fraction(1, 6), 2: Fraction(5, 6)}, Budget(10**9), rendered=rendered)
    b = distribution_json({1: Fraction(2, 12), 2: Fraction(10, 12)}, Budget(10**9), rendered=rendered)
    assert b is a


def test_a_distribution_cut_elsewhere_is_written_with_its_own_at_least():
    dist = {1: Fraction(1, 2), 2: Fraction(1, 4)}  # a quarter cut by explosions, on 2 or above
    rendered = Rendered()
    plain = distribution_json(dist, Budget(10**9), rendered=rendered)
    cut = distribution_json(dist, Budget(10**9), rendered=rendered, cut_from=2, cut=Fraction(1, 4))
    assert [Fraction(r["at_least"]["exact"]) for r in plain] == [Fraction(3, 4), Fraction(1, 4)]
    assert [Fraction(r["at_least"]["exact"]) for r in cut] == [Fraction(1), Fraction(1, 2)]


@pytest.mark.parametrize("write", [
    lambda d, b, r: distribution_json(d, b, rendered=r),
    lambda d, b, r: ranked_distribution_json(d, b, r),
])
def test_rows_given_again_are_charged_as_if_written_again(write):
    dist = {v: Fraction(1, 20) for v in range(1, 21)}
    alone, shared, rendered = Budget(10**9), Budget(10**9), Rendered()
    for _ in range(3):
        write(dict(dist), alone, None)
        write(dict(dist), shared, rendered)
    assert shared.used == alone.used > 0
    once = alone.used // 3
    for budget_rendered in (None, Rendered()):
        budget = Budget(once * 2 + once // 2)  # two fit, the third does not
        write(dict(dist), budget, budget_rendered)
        write(dict(dist), budget, budget_rendered)
        with pytest.raises(LimitError):
            write(dict(dist), budget, budget_rendered)
