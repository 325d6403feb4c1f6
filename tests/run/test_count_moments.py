"""The mean and variance of ``count(roll, lo, hi)`` of an exploding roll, followed for ever
(issue 34: "means and variances of all of the above in closed form"). Oracle, written apart
from the engine's chain formula: a chain of dS! is K top faces (P(K = k) = S^-k·(S − 1)/S,
mean 1/(S − 1), variance S/(S − 1)²) and then a last face uniform on 1..S − 1, apart from K;
the count is K·[S counted] + [the last face counted]."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine import loads


def ruleset(roll: str, result: str, more: str = "") -> str:
    return f"""\
ruleset: counts
name: counts of exploding dice
version: "1"
source: tests
checks:
  check:
    rolls:
      roll: {roll}
{more}    result: {result}
    outcomes:
      - {{name: any, success: true}}
"""


def chain_count(s: int, lo: int, hi: int) -> tuple[F, F]:
    top = F(1 if lo <= s <= hi else 0)
    last = F(len([f for f in range(1, s) if lo <= f <= hi]), s - 1)
    k_mean, k_var = F(1, s - 1), F(s, (s - 1) ** 2)
    return top * k_mean + last, top * top * k_var + last * (1 - last)


@pytest.mark.parametrize("n, s, lo, hi", [(3, 6, 5, 6), (3, 6, 5, 5), (2, 10, 8, 10), (4, 8, 1, 3), (1, 6, 6, 6)])
def test_a_count_of_an_exploding_roll_has_an_exact_mean_and_variance(n, s, lo, hi):
    odds = loads(ruleset(f"{n}d{s}!", f"count(roll, {lo}, {hi})")).check("check").odds()
    mean, variance = chain_count(s, lo, hi)
    stats = odds.to_dict()["stats"]["result"]
    assert (stats["mean_kind"], stats["variance_kind"]) == ("exact", "exact")
    assert (F(stats["mean_exact"]), F(stats["variance_exact"])) == (n * mean, n * variance)


def test_a_count_read_beside_the_roll_itself_has_its_mean_and_no_variance_claimed():
    """``roll + count(roll, 6)``: the two are correlated, so only the mean is exact (4.2 + 0.2
    per d6!): the variance is labelled of the mass worked out."""
    odds = loads(ruleset("2d6!", "roll + count(roll, 6)")).check("check").odds()
    stats = odds.to_dict()["stats"]["result"]
    assert stats["mean_kind"] == "exact" and F(stats["mean_exact"]) == 2 * (F(21, 5) + F(1, 5))
    assert stats["variance_kind"] != "exact"


def test_a_count_of_a_roll_a_later_roll_reads_claims_no_variance():
    odds = loads(ruleset("2d6!", "count(roll, 6) + more", "      more: (roll)d2\n")).check("check").odds()
    stats = odds.to_dict()["stats"]["result"]
    assert stats["mean_kind"] == "exact" and F(stats["mean_exact"]) == 2 * F(1, 5) + 2 * F(21, 5) * F(3, 2)
    assert stats["variance_kind"] != "exact"


def test_a_roll_read_die_by_die_is_its_total_where_it_counts_dice():
    """``more: (roll)d2`` beside ``count(roll, 3)``: the roll is seen whole (its dice read),
    and as a number of dice it is its total (was E206 "not Rolled(…)"). Every throw listed."""
    from itertools import product

    check = loads(ruleset("2d3", "count(roll, 3) + more", "      more: (roll)d2\n")).check("check")
    want: dict[int, F] = {}
    for a, b in product(range(1, 4), repeat=2):
        for twos in product(range(1, 3), repeat=a + b):
            v = (a == 3) + (b == 3) + sum(twos)
            want[v] = want.get(v, F(0)) + F(1, 9) * F(1, 2 ** (a + b))
    assert dict(check.odds().result_distribution) == want
    assert check.roll(faces=[3, 1, 2, 2, 1, 1]).result == 1 + 6


def test_a_roll_that_counts_an_earlier_rolls_faces_is_read_beside_it():
    """`again: count(first, 6) + 1d6!` and `result: first + again`: the count is correlated with
    `first`'s total, so the result's variance has no closed form here (it was called exact,
    3769/225, for 4144/225: the count taken for independent of the roll it counts). The mean
    stays exact. Oracle: every throw of 2d6, and the exploding d6's own moments (21/5, 266/25)."""
    from itertools import product

    from rulesengine.ruleset import loads

    text = """\
ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
    rolls:
      first: 2d6
      again: count(first, 6) + 1d6!
    result: first + again
    outcomes:
      - {name: hit, when: "result >= 8", success: true}
      - {name: miss, success: false}
"""
    summary = loads(text, "t.yaml").check("c").odds({}).to_dict()["stats"]["result"]
    values = [a + b + (a == 6) + (b == 6) for a, b in product(range(1, 7), repeat=2)]
    mean = F(sum(values), 36) + F(21, 5)
    assert summary["mean_kind"] == "exact" and F(summary["mean_exact"]) == mean
    variance = F(sum(v * v for v in values), 36) - F(sum(values), 36) ** 2 + F(266, 25)
    assert variance == F(4144, 225)
    assert summary["variance_kind"] == "of_mass_worked_out"  # no closed form claimed
