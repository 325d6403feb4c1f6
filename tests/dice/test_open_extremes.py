"""The highest or lowest of exploding dice in a difference is followed for ever (issue 34):
``max(1d8!, 1d6!) - max(1d6!, 1d6!) >= 0``, Savage Worlds' opposed rolls with wild dice, has
``truncated`` 0.

Oracle, written apart from the engine: P(X − Y ≥ t) = Σ_y P(Y = y)·P(X ≥ y + t), each term
from closed forms (one dS! on its top face is at least m with (1/S)^a·(S − r)/S, m − 1 = a·S +
r; the highest of several is at least m unless each is below it, the lowest when each is; a
sum of dice by ``oracle.chain_sums``). The series' terms satisfy a linear recurrence no longer
than the product of the two sides' (the tail of X has one no longer than its denominator's
degree plus 1, Y's chances one no longer than its): its shortest one is found from the terms
by Berlekamp–Massey (``oracle.shortest_recurrence``), checked on every term listed, and the
series summed as a rational function at 1.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from oracle import (chain_sums, degree, extreme_at_least, extreme_minus_extreme, extreme_minus_sum, series_sum)
from rulesengine import dice


def test_the_oracles_sum_is_the_series_cut_far_out():
    """max(d8!, d6!) − d6! ≥ 1 summed by hand to y = 300: within what that leaves out."""
    exact = extreme_minus_sum((8, 6), True, (6,), 1)
    py = chain_sums(((6, (6,)),), 400)
    hand = sum((py[y] * extreme_at_least((8, 6), True, y + 1) for y in range(300)), F(0))
    assert 0 <= exact - hand <= 1 - sum(py[:300], F(0))


@pytest.mark.parametrize("expression, sizes, highest, minus", [
    ("max(1d8!, 1d6!) - 1d6!", (8, 6), True, (6,)),
    ("max(1d6!, 1d6!) - 1d8!", (6, 6), True, (8,)),
    ("min(1d6!, 1d6!) - 1d4!", (6, 6), False, (4,)),
    ("max(1d4!, 1d6!, 1d6!) - 1d4!", (4, 6, 6), True, (4,)),
    ("min(1d10!, 1d8!) - 1d6!", (10, 8), False, (6,)),
])
@pytest.mark.parametrize("t", [-3, 0, 1, 4])
def test_the_highest_or_lowest_of_exploding_dice_less_a_sum_is_exact(expression, sizes, highest, minus, t):
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == extreme_minus_sum(sizes, highest, minus, t)


@pytest.mark.parametrize("t", [-2, 0, 1, 3])
def test_opposed_wild_dice_are_exact(t):
    """Savage Worlds: a trait die and a wild die against another pair, each the better."""
    odds = dice.odds(f"max(1d4!, 1d6!) - max(1d4!, 1d4!) >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == extreme_minus_extreme((4, 6), True, (4, 4), True, t)


def test_each_value_of_such_a_difference_has_its_exact_probability():
    odds = dice.odds("max(1d8!, 1d6!) - 1d6!")
    for v in (-7, -1, 0, 2, 6):
        want = extreme_minus_sum((8, 6), True, (6,), v) - extreme_minus_sum((8, 6), True, (6,), v + 1)
        assert odds.probability(v) == want, v
    assert sum(odds.distribution.values()) + odds.truncated == 1


def test_a_check_rolling_a_wild_die_against_an_exploding_defense_is_exact():
    """The roll written as one expression (rolls named apart and read through ``max`` are
    joined value by value, cut at the depth)."""
    from rulesengine.ruleset import loads
    rs = loads("""
ruleset: wild
name: Wild die
version: "1"
source: tests
checks:
  opposed:
    roll: max(1d8!, 1d6!) - 1d6!
    result: roll
    outcomes:
      - {name: raise, when: "result >= 4", success: true}
      - {name: success, when: "result >= 0", success: true}
      - {name: failure, success: false}
""", "wild.yaml")
    odds = rs.check("opposed").odds({})
    assert odds.truncated == 0
    ok, great = extreme_minus_sum((8, 6), True, (6,), 0), extreme_minus_sum((8, 6), True, (6,), 4)
    assert odds.outcomes == {"raise": great, "success": ok - great, "failure": 1 - ok}


def test_two_wild_cards_opposed_are_exact_and_even():
    """max(d8!, d6!) against the same: a tie or better has the chance of a loss or better
    (P(≥ 0) + P(≥ 1) = 1, the two sides alike), and P(≥ 1) lies within a hand sum to 300
    and what it leaves out."""
    win = dice.odds("max(1d8!, 1d6!) - max(1d8!, 1d6!) >= 1")
    tie_or_win = dice.odds("max(1d8!, 1d6!) - max(1d8!, 1d6!) >= 0")
    assert win.truncated == tie_or_win.truncated == 0
    assert win.probability(True) + tie_or_win.probability(True) == 1
    cap = 300
    p_y = [extreme_at_least((8, 6), True, y) - extreme_at_least((8, 6), True, y + 1) for y in range(cap)]
    hand = sum((p_y[y] * extreme_at_least((8, 6), True, y + 1) for y in range(1, cap)), F(0))
    assert hand <= win.probability(True) <= hand + extreme_at_least((8, 6), True, cap)


@pytest.mark.parametrize("expression, sizes, highest, minus", [
    ("max(1d8!, 1d6!) - 1d6!", (8, 6), True, (6,)),
    ("min(1d6!, 1d4!) - 1d4!", (6, 4), False, (4,)),
])
@pytest.mark.parametrize("t", [-31, -14, 9, 19, 40])
def test_far_thresholds_scale_from_the_window_worked_out(expression, sizes, highest, minus, t):
    """Past a pair's window the chance repeats, times ρ, every block (above), or its
    complement does (below): each figure still the oracle's."""
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == extreme_minus_sum(sizes, highest, minus, t)


def test_a_law_too_big_is_refused_from_its_sizes_before_any_chance_is_worked_out(monkeypatch):
    """Its denominator's degree is bounded by the blocks of its sets, whole numbers: five
    dice of sizes 7 to 13 (blocks up to 90,090) are refused before a chance is worked out
    (``extremes.at_least``, each die's chance of reaching a value, is never asked)."""
    from rulesengine.dice import extremes
    asked = []
    monkeypatch.setattr(extremes, "at_least", lambda s, m: asked.append((s, m)) or F(1))
    assert extremes.Extremes.of((9, 11, 13, 7, 10), True) is None
    assert extremes.Extremes.of((6,) * 6, True) is not None  # six alike: six distinct sets
    assert asked == []


@pytest.mark.parametrize("text", ["1d6! - 1d8! >= 1000000000", "max(1d8!, 1d6!) - 1d6! >= 1000000000",
                                  "1d6! - max(1d6!, 1d4!) <= -100000"])
def test_a_threshold_past_the_closed_forms_reach_keeps_the_depths_answer(text):
    """A chance ρ^k with k in the hundreds of millions would take for ever to write: past
    ``open_ended.MAX_INDEX`` the sum by blocks, like the recurrence, is not tried, and the
    depth's answer stands with its cut mass (the answer these gave before the blocks)."""
    from rulesengine.dice import extremes
    from rulesengine.dice.open_ended import OpenLaw

    odds = dice.odds(text)
    assert odds.truncated > 0
    far = OpenLaw((extremes.Extremes((6, 8), True),), ())  # and the cost says so, by counts alone
    assert extremes.blocks_cost(far.plus_law(-OpenLaw.dice(_top(6), 1)), [10 ** 9]) is None


def _top(s: int):
    from rulesengine.dice.open_ended import Chain
    return Chain(s, (s,))


def test_a_multiple_of_the_highest_and_a_plain_die_added_are_exact():
    """2·max(d6!, d4!) − d6! (its law times 2: by the recurrence) and max(d6!, d4!) + d4 − d8!
    (a number known exactly added: by blocks, each value of the d4 in turn)."""
    doubled = dice.odds("2 * max(1d6!, 1d4!) - 1d6! >= 3")
    bound = (degree((6, 4), True) * 2 + 2) * 7
    py = chain_sums(((6, (6,)),), 2 * bound + 80)
    assert doubled.truncated == 0
    assert doubled.probability(True) == series_sum(
        lambda y: py[y] * extreme_at_least((6, 4), True, -(-(y + 3) // 2)), bound)
    added = dice.odds("max(1d6!, 1d4!) + 1d4 - 1d8! >= 0")
    bound = (degree((6, 4), True) + 5) * 9
    py = chain_sums(((8, (8,)),), 2 * bound + 80)
    assert added.truncated == 0
    assert added.probability(True) == series_sum(
        lambda y: py[y] * sum((F(1, 4) * extreme_at_least((6, 4), True, y - r) for r in range(1, 5)), F(0)), bound)


from hypothesis import given, strategies as st  # noqa: E402

from fuzz_support import fuzz_settings  # noqa: E402


@fuzz_settings(fast=8, long=300)
@given(st.lists(st.sampled_from([4, 6, 8]), min_size=2, max_size=2), st.booleans(),
       st.lists(st.sampled_from([4, 6]), min_size=1, max_size=2), st.integers(-6, 8))
def test_any_highest_or_lowest_of_exploding_dice_less_a_sum_is_exact(sizes, highest, minus, t):
    """The highest or lowest of two dS! less a sum of one or two, against any
    number: nothing truncated where the engine follows it for ever (a law too big for the
    budget keeps the depth's answer, and then the oracle bounds it), and the oracle's figure."""
    fn = "max" if highest else "min"
    text = f"{fn}({', '.join(f'1d{s}!' for s in sizes)}) - " + " - ".join(f"1d{s}!" for s in minus)
    odds = dice.odds(f"{text} >= {t}")
    want = extreme_minus_sum(tuple(sizes), highest, tuple(minus), t)
    if odds.truncated:  # past half the budget: the depth's answer, bounded by what it cut
        assert odds.probability(True) <= want <= odds.probability(True) + odds.truncated
    else:
        assert odds.probability(True) == want
