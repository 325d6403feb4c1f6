"""The odds views (rulesengine/dice/stats.py, issue 15): at least / at most, mean, variance,
min and max, each checked against a brute force over every face of the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rulesengine import dice
from rulesengine.dice.stats import cumulative, summarize
from rulesengine.ruleset import load


def brute(sides: list[int], fn) -> dict:
    out: dict = {}
    combos = list(itertools.product(*(range(1, s + 1) for s in sides)))
    for faces in combos:
        v = fn(*faces)
        out[v] = out.get(v, 0) + Fraction(1, len(combos))
    return out


@given(st.dictionaries(st.integers(-20, 20), st.integers(1, 50), min_size=1, max_size=8))
def test_mean_and_variance_are_the_textbook_sums(weights):
    total = sum(weights.values())
    dist = {v: Fraction(w, total) for v, w in weights.items()}
    s = summarize(dist)
    mean = sum(v * p for v, p in dist.items())
    assert s.mean == mean
    assert s.variance == sum(v * v * p for v, p in dist.items()) - mean * mean
    assert (s.minimum, s.maximum) == (min(dist), max(dist))


@given(st.dictionaries(st.integers(-20, 20), st.integers(1, 50), min_size=1, max_size=8))
def test_at_least_and_at_most_are_the_tails(weights):
    total = sum(weights.values())
    dist = {v: Fraction(w, total) for v, w in weights.items()}
    for v, p, ge, le in cumulative(dist):
        assert p == dist[v]
        assert ge == sum(q for u, q in dist.items() if u >= v)
        assert le == sum(q for u, q in dist.items() if u <= v)


def test_dice_odds_of_4d6_keep_3_match_a_brute_force():
    want = brute([6] * 4, lambda *f: sum(sorted(f)[1:]))
    odds = dice.odds("4d6kh3")
    mean = sum(v * p for v, p in want.items())
    assert odds.summary.mean == mean
    assert odds.summary.variance == sum((v - mean) ** 2 * p for v, p in want.items())
    for row in odds.rows():
        assert row["at_least"] == sum(p for v, p in want.items() if v >= row["value"])
        assert row["at_most"] == sum(p for v, p in want.items() if v <= row["value"])


def test_a_yes_no_expression_has_a_chance_of_true_not_a_mean():
    odds = dice.odds("1d20 >= 10")
    assert odds.mean is None and odds.summary.p_true == Fraction(11, 20)
    assert all(row["at_least"] is None for row in odds.rows())


def test_a_checks_result_has_at_least_at_most_and_its_statistics_in_json():
    """GURPS success roll at skill 12: the margin is 12 - 3d6."""
    data = load("gurps-4e").check("success_roll").odds({"skill": 12}).to_dict()
    want = brute([6, 6, 6], lambda a, b, c: 12 - (a + b + c))
    mean = sum(v * p for v, p in want.items())
    assert Fraction(data["stats"]["result"]["mean_exact"]) == mean
    assert Fraction(data["stats"]["result"]["variance_exact"]) == sum((v - mean) ** 2 * p for v, p in want.items())
    for row in data["result"]:
        assert Fraction(row["at_least"]["exact"]) == sum(p for v, p in want.items() if v >= row["value"])
        assert Fraction(row["at_most"]["exact"]) == sum(p for v, p in want.items() if v <= row["value"])
    assert data["stats"]["values"]["effective"]["mean_exact"] == "12/1"


def test_the_remainder_operator_matches_a_brute_force():
    """Issue 14 item 10: doubles on d100 are `roll % 11 == 0` (00 is 100 here, not a double)."""
    assert dice.odds("1d100 % 11 == 0").distribution[True] == Fraction(9, 100)
    want = brute([6, 6], lambda a, b: (a + b) % 3)
    assert dice.odds("2d6 % 3").distribution == want
    assert dice.roll("-7 % 3").total == 2 and dice.roll("7 % -3").total == -2


def test_if_rolls_only_the_branch_it_takes():
    """Issue 14 item 8: `if(edge, 3d6kh2, 2d6)` rolls three dice or two, never five; the
    trace shows the other branch as written, physical faces are asked only for the dice
    rolled, and exact odds mix the branches by the condition's chance."""
    expr = dice.parse("if(edge, 3d6kh2, 2d6)")
    r = expr.roll({"edge": False}, faces=[3, 4])
    assert r.total == 7 and len(r.dice) == 2
    assert r.trace == "if(edge, 3d6kh2, 2d6) → if(edge:false, 3d6kh2, [3, 4]) = 7"
    assert len(expr.roll({"edge": True}, faces=[1, 5, 6]).dice) == 3
    kh2 = brute([6] * 3, lambda *f: sum(sorted(f)[1:]))
    plain = brute([6, 6], lambda a, b: a + b)
    mixed = dice.odds("if(1d2 == 1, 3d6kh2, 2d6)").distribution
    assert mixed == {v: (kh2.get(v, 0) + plain.get(v, 0)) / 2 for v in set(kh2) | set(plain)}
