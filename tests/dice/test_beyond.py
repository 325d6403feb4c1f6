"""What explosions cut off is answered exactly where the depth can't change the answer
(issue 14, gap 3; the mission's "answer exactly whatever the depth can't change").

Brute forces here are closed forms written from the dice, independently of the engine: a
d10 that explodes on 10 and counts 8+ gives j successes with probability
0.1^j·0.7 + 0.1^(j−1)·0.2 (j ≥ 1; 0 successes 0.7), the count of a chain of tens ended by
a miss or by an 8–9."""

from __future__ import annotations

import operator
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulesengine import dice
from rulesengine.dice.beyond import AtLeast, AtMost, highest_of, lowest_of, try_value
from rulesengine.ruleset import loads


def wod_die(j: int) -> F:
    """P(one exploding d10 counting 8+ gives j successes), followed forever."""
    if j == 0:
        return F(7, 10)
    return F(1, 10) ** j * F(7, 10) + F(1, 10) ** (j - 1) * F(2, 10)


def pool_at_most(n: int, k: int) -> F:
    """P(n such dice give k successes or fewer): a finite convolution (only counts 0..k)."""
    dist = {0: F(1)}
    for _ in range(n):
        nxt: dict[int, F] = {}
        for s, p in dist.items():
            for j in range(0, k - s + 1):
                nxt[s + j] = nxt.get(s + j, F(0)) + p * wod_die(j)
        dist = nxt
    return sum(dist.values(), F(0))


@pytest.mark.parametrize("n, need", [(1, 1), (3, 2), (5, 3), (5, 5), (10, 8), (20, 11)])
def test_a_success_count_against_a_threshold_is_exact_on_an_exploding_pool(n, need):
    """`Nd10!cs>=8 >= need`: nothing truncated, the probability the closed form's."""
    odds = dice.odds(f"{n}d10!cs>=8 >= {need}")
    assert odds.truncated == 0
    assert odds.probability(True) == 1 - pool_at_most(n, need - 1)


def test_a_threshold_beyond_the_depth_stays_truncated_and_names_its_mass():
    """At depth 10 one die may be cut at 11 successes: whether 12 are reached depends on the
    depth, so that mass is reported, and the rest is still exact."""
    odds = dice.odds("1d10!cs>=8 >= 12")
    assert odds.truncated == F(1, 10) ** 11  # eleven tens in a row: 11 successes or more
    # Worked out: every count up to 11 that was not cut (eleven tens and then a miss was)
    assert odds.probability(False) == pool_at_most(1, 11) - F(1, 10) ** 11 * F(7, 10)
    assert odds.probability(True) <= 1 - pool_at_most(1, 11) <= odds.probability(True) + odds.truncated
    deeper = dice.parse("1d10!cs>=8 >= 12").odds(explode_depth=11)  # deep enough to answer it
    assert deeper.truncated == 0 and deeper.probability(True) == 1 - pool_at_most(1, 11)


def test_every_value_below_cut_from_is_exact_and_so_is_at_least_up_to_it():
    """`1d6!` at depth 10 cuts eleven sixes in a row: 66 or more. Below 66 each value has
    its exact probability; "at least 66" is exactly 6^-11 (it takes eleven sixes)."""
    odds = dice.odds("1d6!")
    assert odds.cut_from == 66 and odds.truncated == F(1, 6 ** 11)
    for v in (1, 6, 7, 12, 65):
        sixes, last = divmod(v, 6)
        want = F(0) if last == 0 else F(1, 6) ** (sixes + 1)
        assert odds.probability(v) == want, v
    assert odds.at_least(66) == F(1, 6 ** 11)
    assert odds.at_least(7) == F(1, 6)
    rows = {r["value"]: r for r in odds.rows()}
    assert rows[65]["at_least"] == F(1, 6) ** 11 + odds.probability(65)
    assert odds.to_dict()["cut_from"] == 66


def test_sums_and_comparisons_carry_the_bound():
    """`1d6! + 2 >= 30`: 28 or more on the die takes four sixes and then 4+ (1/6^4 · 1/2)."""
    odds = dice.odds("1d6! + 2 >= 30")
    assert odds.truncated == 0 and odds.probability(True) == F(1, 2592)
    assert dice.odds("max(1d6!, 3) >= 4").truncated == 0
    assert dice.odds("1d6! - 2 > 0").truncated == 0


def test_what_really_depends_on_the_depth_stays_truncated():
    for text in ("1d6! == 70", "(10 - 1d6!) % 3 == 0", "1d6! % 2 == 0", "3d6!!>=5kh2 - 1d6! - 1d6! > 0"):
        assert dice.odds(text).truncated > 0, text


def test_dice_that_can_take_away_keep_their_cut_mass_truncated():
    """A face below 0 (or failures counted against successes) can lower a cut path: no bound."""
    assert dice.odds("1d{-1,0,2}!>=2 >= 1").truncated > 0
    assert dice.odds("3d10!cs>=8cf1 >= 1").truncated > 0


CHECK = """
ruleset: beyond
name: Exploding pools in a check
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, default: 5, min: 1, max: 60}
      need: {type: integer, default: 3, min: 1, max: 40}
    roll: (dice)d10!cs>=8
    result: roll
    outcomes:
      - {name: exceptional, when: "roll >= 5", success: true}
      - {name: success, when: "roll >= need", success: true}
      - {name: failure, success: false}
"""


@pytest.mark.parametrize("n, need", [(1, 1), (5, 3), (8, 2)])
def test_a_checks_outcomes_are_exact_where_the_depth_cant_change_them(n, need):
    """The outcome rules read the count through comparisons: every outcome is decided for the
    cut paths too (`truncated` 0), while the result's distribution stays open at the top
    (`result_truncated`, what the depth leaves out of it)."""
    odds = loads(CHECK, "beyond.yaml").check("pool").odds({"dice": n, "need": need})
    assert odds.truncated == 0
    assert odds.outcomes["exceptional"] == 1 - pool_at_most(n, 4)
    assert odds.success == 1 - pool_at_most(n, min(need, 5) - 1)
    assert odds.outcomes["failure"] == pool_at_most(n, min(need, 5) - 1)
    assert 0 < odds.result_truncated == 1 - sum(odds.result_distribution.values())
    assert odds.to_dict()["truncated"] == "0/1"


def test_counting_successes_on_sixty_exploding_d10_is_exact_where_the_question_is_bounded():
    """The issue's acceptance case: 60 dice, success explodes; the chance of at least 20.
    One die cut at depth 10 has 11 successes or more, so at the default depth the mass where
    the other 59 dice give fewer than 9 is truncated (whether that die reaches 20 depends on
    the depth); followed 19 deep, nothing is."""
    assert dice.odds("60d10!>=8cs>=8 >= 11").truncated == 0
    assert 0 < dice.odds("60d10!>=8cs>=8 >= 20").truncated < F(1, 10 ** 6)
    odds = dice.parse("60d10!>=8cs>=8 >= 20").odds(explode_depth=19)
    assert odds.truncated == 0
    # Here every success explodes: a die's count is geometric, P(j) = 0.3^j · 0.7.
    dist = {0: F(1)}
    for _ in range(60):
        nxt: dict[int, F] = {}
        for s, p in dist.items():
            for j in range(0, 20 - s):
                nxt[s + j] = nxt.get(s + j, F(0)) + p * F(3, 10) ** j * F(7, 10)
        dist = nxt
    assert odds.probability(True) == 1 - sum(dist.values(), F(0))


OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
       ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
       "==": operator.eq, "!=": operator.ne, "max": max, "min": min}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(OPS)), st.integers(-20, 40), st.integers(-30, 60), st.booleans())
def test_a_cut_value_never_answers_what_some_value_above_its_bound_would_not(op, low, k, flipped):
    """Soundness of AtLeast: wherever it gives an answer, every whole number from its bound
    up (a long stretch of them) gives the same one; a number answer stands for its own bound."""
    fn = OPS[op]
    args = (k, AtLeast(low)) if flipped else (AtLeast(low), k)
    known, value = try_value(fn, *args)
    if not known:
        return
    for v in range(low, low + 120):
        concrete = fn(k, v) if flipped else fn(v, k)
        if isinstance(value, AtLeast):
            assert concrete >= value.low
        elif isinstance(value, AtMost):  # a difference or a negative multiple: an upper bound
            assert concrete <= value.high
        else:
            assert concrete == value, (op, low, k, v)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(OPS)), st.integers(-40, 20), st.integers(-30, 60), st.booleans(), st.booleans())
def test_an_upper_bound_never_answers_what_some_value_below_it_would_not(op, high, k, flipped, bounded):
    """Soundness of AtMost, the mirror: wherever it gives an answer, every whole number from
    its bound down gives the same one (or one within the bound it gives). ``bounded``: the
    other operand a lower bound, as in a difference of two cut values."""
    fn = OPS[op]
    other: object = AtLeast(k) if bounded else k
    args = (other, AtMost(high)) if flipped else (AtMost(high), other)
    known, value = try_value(fn, *args)
    if not known:
        return
    for v in range(high - 120, high + 1):
        for w in (range(k, k + 40, 7) if bounded else (k,)):
            concrete = fn(w, v) if flipped else fn(v, w)
            if isinstance(value, AtLeast):
                assert concrete >= value.low, (op, high, k, v, w)
            elif isinstance(value, AtMost):
                assert concrete <= value.high, (op, high, k, v, w)
            else:
                assert concrete == value, (op, high, k, v, w)


def below(n: int, x: int) -> F:
    """P(one dN! shows less than x), followed forever: v = k·N + r (0 < r < N) has (1/N)^(k+1)."""
    return sum((F(1, n) ** (v // n + 1) for v in range(1, x) if v % n), F(0))


@pytest.mark.parametrize("x", [2, 4, 9, 30, 66])
def test_the_best_and_the_worst_of_two_exploding_dice_are_exact_against_a_threshold(x):
    """Both dice cut (88+ and 66+) is a path of max() and min() at least 66: every threshold up
    to there is decided, none of the mass truncated (issue 29, item 4)."""
    best = dice.odds(f"max(1d8!, 1d6!) >= {x}")
    assert best.truncated == 0 and best.probability(True) == 1 - below(8, x) * below(6, x)
    worst = dice.odds(f"min(1d8!, 1d6!) >= {x}")
    assert worst.truncated == 0 and worst.probability(True) == (1 - below(8, x)) * (1 - below(6, x))
    assert dice.odds("max(1d8!, 1d6!)").cut_from == 66


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(-10, 30), st.integers(-10, 30).map(AtLeast)), min_size=1, max_size=4)
       .filter(lambda vs: any(isinstance(v, AtLeast) for v in vs)), st.lists(st.integers(0, 40), min_size=4, max_size=4))
def test_max_and_min_of_cut_values_hold_for_every_value_they_stand_for(values, lifts):
    """highest_of / lowest_of: a number where every value the cut ones stand for gives it, else
    a bound every such value respects (each cut value lifted by any amount)."""
    concrete = [v.low + lift if isinstance(v, AtLeast) else v for v, lift in zip(values, lifts)]
    for fn, plain in ((highest_of, max), (lowest_of, min)):
        got = fn(values)
        if isinstance(got, AtLeast):
            assert plain(concrete) >= got.low
        else:
            assert plain(concrete) == got
