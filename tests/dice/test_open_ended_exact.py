"""Open-ended dice beyond the truncation (issue #34): the constructions the explode depth can't
change are exact, with nothing truncated — the best or the worst of any number of exploding
terms against a number, and an exploding term times a positive number — and one dS! minus
one dT! is followed forever in closed form: each of its values' probabilities, and any
comparison of it with a number (nothing truncated).

Oracles are written here from the dice, apart from the engine: one ``dN!`` (exploding on its
top face N) ends on v = q·N + r (0 < r < N) after q tops and a last face r, with probability
(1/N)^(q+1), so P(dN! < x) is a finite sum (:func:`below`). Each closed form is also checked
against a deep enumeration (:func:`enumerated`: the chain rolled die by die, 40 explosions
deep, by dynamic programming): the two differ by no more than the mass that enumeration left
out. The difference's oracle is a double geometric series over both dice's tops, summed by
hand (oracle.open_difference_at_least, and :func:`tie` below)."""

from __future__ import annotations

from fractions import Fraction as F
from math import prod

import pytest
from hypothesis import given, settings, strategies as st

from oracle import open_difference_at_least
from rulesengine import dice
from rulesengine.ruleset import loads

DEEP = 40


def below(n: int, x: int) -> F:
    """P(one dN! shows less than x), followed forever: the chain values below x, each
    q·N + r with 0 < r < N, each (1/N)^(q+1)."""
    return sum((F(1, n) ** (v // n + 1) for v in range(1, x) if v % n), F(0))


def enumerated(n: int, depth: int = DEEP) -> tuple[dict[int, F], F]:
    """One dN! rolled die by die, at most ``depth`` explosions: the values of the chains that
    ended, and the mass of those still exploding at the end (left out)."""
    ended: dict[int, F] = {}
    going = {0: F(1)}  # running total -> chance, chains whose last die showed N
    for _ in range(depth + 1):
        nxt: dict[int, F] = {}
        for total, p in going.items():
            for face in range(1, n + 1):
                if face == n:
                    nxt[total + face] = nxt.get(total + face, F(0)) + p / n
                else:
                    ended[total + face] = ended.get(total + face, F(0)) + p / n
        going = nxt
    return ended, sum(going.values(), F(0))


def best_at_least(sizes: list[int], x: int) -> F:
    """P(max of one dN! per size >= x): not all of them below x."""
    return 1 - prod((below(n, x) for n in sizes), start=F(1))


def worst_at_least(sizes: list[int], x: int) -> F:
    """P(min of one dN! per size >= x): every one at x or more."""
    return prod((1 - below(n, x) for n in sizes), start=F(1))


def times_at_least(k: int, n: int, x: int) -> F:
    """P(k · dN! >= x) for k > 0: the die at least ceil(x / k)."""
    return 1 - below(n, -(-x // k))


def terms(sizes: list[int]) -> str:
    return ", ".join(f"1d{n}!" for n in sizes)


@pytest.mark.parametrize("sizes", [[6, 6, 6], [8, 6, 4], [4, 4, 4, 4]])
@pytest.mark.parametrize("x", [2, 5, 7, 13, 30])
def test_the_best_and_the_worst_of_three_or_more_exploding_dice_are_exact_against_a_number(sizes, x):
    """max()/min() of three or more exploding terms decided for cut paths the way two are:
    a cut die is at least its bound (44 and up here), above every threshold asked, so it
    decides max >= x alone, and min >= x with the others decided."""
    best = dice.odds(f"max({terms(sizes)}) >= {x}")
    assert best.truncated == 0 and best.probability(True) == best_at_least(sizes, x)
    worst = dice.odds(f"min({terms(sizes)}) >= {x}")
    assert worst.truncated == 0 and worst.probability(True) == worst_at_least(sizes, x)


def test_the_best_of_three_is_as_exact_as_three_yes_no_questions_joined_by_or():
    """`max(a, b, c) >= 7` and `a >= 7 or b >= 7 or c >= 7` ask the same: both exact."""
    by_max = dice.odds("max(1d6!, 1d6!, 1d6!) >= 7")
    by_or = dice.odds("1d6! >= 7 or 1d6! >= 7 or 1d6! >= 7")
    assert by_max.truncated == by_or.truncated == 0
    assert by_max.probability(True) == by_or.probability(True) == 1 - (F(5, 6)) ** 3


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("x", [1, 4, 12, 20, 45])
def test_an_exploding_die_times_a_positive_number_is_exact_against_a_number(k, x):
    """`k * 1d6! >= x` (either way round): a cut path is k times its bound, at least
    k · 66 here, above every x asked."""
    for text in (f"{k} * 1d6! >= {x}", f"1d6! * {k} >= {x}"):
        odds = dice.odds(text)
        assert odds.truncated == 0 and odds.probability(True) == times_at_least(k, 6, x)


def test_a_product_keeps_the_bound_of_the_cut_paths_for_the_rows_below_it():
    """`3 * 1d6!` as a distribution: the cut paths (three times 66 or more) are reported as
    at least 198, and every value below has the closed form's chance."""
    odds = dice.odds("3 * 1d6!")
    assert odds.cut_from == 198
    assert odds.truncated == F(1, 6) ** 11
    for v in (3, 18, 21, 195):
        assert odds.probability(v) == (F(1, 6) ** (v // 3 // 6 + 1) if (v // 3) % 6 else 0)


@pytest.mark.parametrize("sizes, x", [([6, 6, 6], 7), ([8, 6, 4], 13), ([4, 4, 4], 5)])
def test_the_closed_forms_agree_with_a_deep_enumeration_within_its_leftover_mass(sizes, x):
    """The oracles themselves: the same chance out of chains rolled 40 explosions deep
    differs from the closed form by at most the mass those chains left out."""
    chains = [enumerated(n) for n in sizes]
    left_out = 1 - prod((1 - rest for _, rest in chains), start=F(1))
    some_below = prod((sum((p for v, p in ended.items() if v < x), F(0)) for ended, _ in chains), start=F(1))
    all_at_least = prod((sum((p for v, p in ended.items() if v >= x), F(0)) for ended, _ in chains), start=F(1))
    assert left_out > 0
    assert abs(best_at_least(sizes, x) - (1 - some_below)) <= left_out
    assert abs(worst_at_least(sizes, x) - all_at_least) <= left_out
    ended, rest = enumerated(6)
    assert abs(times_at_least(3, 6, 20) - sum((p for v, p in ended.items() if 3 * v >= 20), F(0))) <= rest


def tie(n: int) -> F:
    """P(dN! − dN! = 0): both end on the same q·N + r, Σ_q (N − 1)·(1/N)^(2q+2) = 1/(N + 1)."""
    return (n - 1) * F(1, n * n) / (1 - F(1, n * n))


def difference_at_least(s: int, t: int, k: int) -> F:
    return open_difference_at_least(s, t, k)


@pytest.mark.parametrize("n", [4, 6, 10])
def test_a_tie_of_two_open_ended_dice_of_one_size_is_one_in_n_plus_one(n):
    odds = dice.odds(f"1d{n}! - 1d{n}! == 0")
    assert odds.truncated == 0 and odds.probability(True) == tie(n) == F(1, n + 1)
    assert difference_at_least(n, n, 0) - difference_at_least(n, n, 1) == tie(n)


@pytest.mark.parametrize("s, t", [(6, 6), (6, 4), (4, 10), (8, 6), (20, 6)])
@pytest.mark.parametrize("k", [-30, -7, -1, 0, 1, 2, 5, 13, 70])
def test_a_difference_of_two_open_ended_dice_against_a_number_is_exact(s, t, k):
    """`1dS! - 1dT! OP k`, every comparison, either way round: nothing truncated, even where
    k is beyond what the depth reaches (70)."""
    ge = difference_at_least(s, t, k)
    gt = difference_at_least(s, t, k + 1)
    expected = {">=": ge, ">": gt, "<": 1 - ge, "<=": 1 - gt, "==": ge - gt, "!=": 1 - ge + gt}
    flipped = {">=": "<=", ">": "<", "<": ">", "<=": ">=", "==": "==", "!=": "!="}
    for op, p in expected.items():
        for text in (f"1d{s}! - 1d{t}! {op} {k}", f"{k} {flipped[op]} 1d{s}! - 1d{t}!"):
            odds = dice.odds(text)
            assert odds.truncated == 0, text
            assert odds.probability(True) == p, text


def test_each_value_of_a_difference_of_open_ended_dice_has_its_exact_probability():
    """`1d6! - 1d6!` as a distribution: every value the depth reaches has the closed form's
    probability; what is left, `truncated`, is exactly the mass of the values beyond."""
    odds = dice.odds("1d6! - 1d6!")
    listed = sorted(odds.distribution)
    for v in listed:
        assert odds.probability(v) == difference_at_least(6, 6, v) - difference_at_least(6, 6, v + 1)
    beyond = difference_at_least(6, 6, listed[-1] + 1) + 1 - difference_at_least(6, 6, listed[0])
    assert odds.truncated == beyond > 0
    assert odds.probability(0) == F(1, 7)
    # the depth reaches no further, and the truncated mass shrinks with it
    deeper = dice.parse("1d6! - 1d6!").odds(explode_depth=12)
    assert deeper.truncated < odds.truncated


@pytest.mark.parametrize("s, t, k", [(6, 6, 2), (6, 4, -3), (4, 10, 1), (8, 6, 9)])
def test_the_difference_closed_form_agrees_with_a_deep_enumeration_within_its_leftover_mass(s, t, k):
    (xs, x_rest), (ys, y_rest) = enumerated(s), enumerated(t)
    counted = sum((px * py for x, px in xs.items() for y, py in ys.items() if x - y >= k), F(0))
    left_out = 1 - (1 - x_rest) * (1 - y_rest)
    assert abs(difference_at_least(s, t, k) - counted) <= left_out


def test_rows_too_costly_for_the_budget_keep_the_depths_answer_and_comparisons_stay_exact():
    """`1d25! - 1d24!`: working out every row in closed form would take more than half the
    budget, so the rows are the depth's (each at most the closed form's); one comparison
    is cheap and exact."""
    rows = dice.odds("1d25! - 1d24!")
    assert rows.truncated > 0
    assert rows.probability(0) < difference_at_least(25, 24, 0) - difference_at_least(25, 24, 1)
    odds = dice.odds("1d25! - 1d24! >= 3")
    assert odds.truncated == 0 and odds.probability(True) == difference_at_least(25, 24, 3)


def test_a_difference_of_dice_that_are_not_plain_open_ended_keeps_the_depths_answer():
    """A keep, a clamp, a penetrating die that may add 0 for ever: no closed form here, the
    cut mass is still reported as before (dice exploding on any faces, penetrating or
    rerolled, are: tests/dice/test_open_differences.py)."""
    for text in ("1d6!min2 - 1d6! >= 2", "1d6!p=1 - 1d6! >= 2", "1d6!cs>=5 - 1d6! >= 1"):
        assert dice.odds(text).truncated > 0, text


def test_a_keep_of_dice_exploding_on_a_range_less_an_exploding_die_is_exact():
    """``3d6!>=5kh2`` is at most 12 and has nothing cut (tests/dice/test_kept_compounding.py):
    less a d6!, which is y with (1/6)^a·(1/6) for y = 6a + r, r = 1..5, it is 2 or more with
    Σ_y P(d6! = y)·P(kept ≥ y + 2), y up to 10."""
    kept = dice.odds("3d6!>=5kh2")
    assert kept.truncated == 0

    def d6_is(y: int) -> F:
        a, r = divmod(y, 6)
        return F(1, 6 ** (a + 1)) if r else F(0)

    want = sum((d6_is(y) * sum((p for v, p in kept.distribution.items() if v >= y + 2), F(0))
                for y in range(1, 11)), F(0))
    odds = dice.odds("3d6!>=5kh2 - 1d6! >= 2")
    assert odds.truncated == 0 and odds.probability(True) == want


CHECKS = """
ruleset: open-ended
name: Open-ended dice read by a check
version: "1"
source: tests
checks:
  tripled:
    inputs:
      target: {type: integer, default: 12, min: 1, max: 60}
    roll: 1d6!
    result: roll * 3
    outcomes:
      - {name: hit, when: "result >= target", success: true}
      - {name: miss, success: false}
  best_of_three:
    inputs:
      target: {type: integer, default: 7, min: 1, max: 60}
    rolls:
      a: 1d8!
      b: 1d6!
      c: 1d4!
    result: max(a, b, c)
    outcomes:
      - {name: hit, when: "result >= target", success: true}
      - {name: miss, success: false}
"""


@pytest.mark.parametrize("target", [1, 7, 13, 40])
def test_a_checks_outcomes_on_a_product_or_the_best_of_three_are_exact(target):
    rules = loads(CHECKS, "open-ended.yaml")
    tripled = rules.check("tripled").odds({"target": target})
    assert tripled.truncated == 0 and tripled.outcomes["hit"] == times_at_least(3, 6, target)
    best = rules.check("best_of_three").odds({"target": target})
    assert best.truncated == 0 and best.outcomes["hit"] == best_at_least([8, 6, 4], target)


_SIZES = st.lists(st.sampled_from([4, 6, 8]), min_size=1, max_size=3)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["max", "min", "times", "minus"]), _SIZES, st.integers(1, 4), st.integers(-20, 30))
def test_any_best_worst_multiple_or_difference_of_exploding_dice_is_exact(kind, sizes, k, x):
    """One to three exploding terms, combined by max(), min() or a positive multiple, asked
    against a number below every cut bound, or one minus another against any number:
    nothing truncated, the closed form's chance."""
    if kind == "times":
        text, oracle = f"{k} * 1d{sizes[0]}! >= {x}", times_at_least(k, sizes[0], x)
    elif kind == "minus":
        t = sizes[-1] if len(sizes) > 1 else 10
        text, oracle = f"1d{sizes[0]}! - 1d{t}! >= {x}", difference_at_least(sizes[0], t, x)
    else:
        text = f"{kind}({terms(sizes)}) >= {x}"
        oracle = best_at_least(sizes, x) if kind == "max" else worst_at_least(sizes, x)
    odds = dice.odds(text)
    assert odds.truncated == 0
    assert odds.probability(True) == oracle
