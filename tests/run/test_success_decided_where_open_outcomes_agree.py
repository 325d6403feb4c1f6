"""Where explosions past the depth leave a throw's outcome open only between outcomes that all
count as a success (a great success or a success), its chance of success is decided: P(success)
counts it in and is exact (``success_truncated`` 0), and the outcomes the cut mass may be are
listed (``truncated_outcomes``), so an outcome not listed is exact too. Before, P(success) left
that mass out as if it might fail (issue 33's "noticed": an outcome open only between two
successes left P(success) cut).

Oracles, written here: an exploding d6 followed for ever, P(X >= n) = Σ_{f<6} [f >= n]/6 +
P(X >= n - 6)/6; a d10 pool counting 8+ whose 10s explode, each die's successes S with
P(S = 0) = 7/10, P(S = 1) = 2/10 + P(S = 0)/10, P(S = k) = P(S = k - 1)/10 for k >= 2."""

from __future__ import annotations

from fractions import Fraction as F
from functools import cache

from rulesengine.limits import DEFAULT_LIMITS, Limits
from rulesengine.ruleset import loads

TEXT = """\
ruleset: two
name: Two successes
version: "1"
source: tests
checks:
  hit:
    inputs:
      need: {type: integer, min: 1, max: 40}
    roll: 1d6!
    result: roll
    outcomes:
      - {name: great, when: "result >= 2 * need", success: true}
      - {name: success, when: "result >= need", success: true}
      - {name: failure, success: false}
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 10}
      need: {type: integer, min: 1, max: 40}
    roll: (dice)d10!cs>=8
    result: roll
    outcomes:
      - {name: botch, when: "result == 0 and count(initial(roll), 1) > 0", success: false}
      - {name: critical, when: "result >= need + 5", success: true}
      - {name: success, when: "result >= need", success: true}
      - {name: failure, success: false}
"""


@cache
def d6_at_least(n: int) -> F:
    """P(an exploding d6 comes to n or more), followed for ever."""
    if n <= 1:
        return F(1)
    return sum((F(1, 6) for f in range(1, 6) if f >= n), F(0)) + d6_at_least(n - 6) / 6


def pool_at_most(dice: int, k: int) -> F:
    """P(``dice`` d10s counting 8+, 10s exploding, come to k successes or fewer)."""
    one = [F(7, 10), F(2, 10) + F(7, 100)]
    while len(one) <= k:
        one.append(one[-1] / 10)
    total = [F(1)] + [F(0)] * k
    for _ in range(dice):
        total = [sum((total[i] * one[j - i] for i in range(j + 1)), F(0)) for j in range(k + 1)]
    return sum(total, F(0))


def odds(check: str, depth: int, **inputs: int):
    return loads(TEXT, "two.yaml", Limits(explode_depth=depth)).check(check).odds(inputs)


def test_a_throw_cut_between_two_successes_counts_as_a_success():
    # depth 2: a third 6 is cut, at 18 or more: a success against 10, great only from 20
    o = odds("hit", 2, need=10)
    assert o.truncated == F(1, 216)
    assert o.success == d6_at_least(10) == F(1, 12)
    assert o.success_truncated == 0
    assert o.truncated_outcomes == ("great", "success")
    assert o.outcomes["failure"] == 1 - d6_at_least(10)  # not in the cut mass: exact
    # the rows of the outcomes it may be stay lower bounds
    assert o.outcomes["success"] + o.outcomes["great"] < d6_at_least(10)


def test_a_throw_cut_where_it_may_still_fail_leaves_success_a_bound():
    o = odds("hit", 2, need=19)  # cut at 18 or more: 18 fails
    assert o.success_truncated is None and o.truncated_outcomes is None
    assert o.success <= d6_at_least(19) <= o.success + o.truncated


def test_a_pool_cut_past_its_threshold_is_exact_in_success_and_failure():
    for dice, need in ((1, 1), (3, 3), (3, 6), (5, 4)):
        o = odds("pool", 2, dice=dice, need=need)
        truth = 1 - pool_at_most(dice, need - 1)
        assert o.truncated > 0
        if need <= 3:  # every throw cut has 3 successes or more so far: need met, critical open
            assert o.success == truth and o.success_truncated == 0
            assert o.truncated_outcomes == ("critical", "success")
            assert o.outcomes["failure"] + o.outcomes["botch"] == 1 - truth
        else:
            assert o.success <= truth <= o.success + (o.success_truncated or o.truncated)


def test_the_json_and_the_text_say_so():
    o = odds("hit", 2, need=10)
    data = o.to_dict()
    assert data["success_truncated"] == "0/1" and data["truncated_outcomes"] == ["great", "success"]
    from rulesengine.present.text import format_odds

    text = format_odds(o)
    assert "explosions past the depth: great or success" in text
    assert "exact: the outcomes the cut leaves open agree on it" in text


def test_at_the_default_depth_nothing_changes_where_no_outcome_is_open():
    o = odds("hit", DEFAULT_LIMITS.explode_depth, need=4)
    assert o.truncated == 0 and o.success_truncated is None and o.truncated_outcomes is None
    assert o.success == d6_at_least(4)
