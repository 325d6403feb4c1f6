"""Many alike dice read through counts (issue 33: "a pool read through k thresholds is a
multinomial over k + 1 bands"): the dice are shared out among one die's readings at once
(rulesengine/dice/alike_fold.py), not added one at a time. Checked against every throw of
the readings and against the multinomial written out, and the fold die by die must agree."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulesengine.dice.alike_fold import SHARE_COST, fold_alike, shares, worth_it
from rulesengine.dice.dist import Budget, BudgetExceeded, step_cost
from rulesengine.dice import ast
from rulesengine.dice.parser import parse
from rulesengine.dice.pool import PoolSpec
from rulesengine.dice.pool_odds import view_dist
from rulesengine.dice.view_fold import PoolView, fold_dice
from rulesengine.limits import DEFAULT_LIMITS

N = 3  # parts of a reading here: a sum and two counts


def read(dice: dict, caps: list) -> tuple:
    """The reading of a state's counted dice (each rep here is its own reading): parts add,
    a capped part is read as at most its cap."""
    total = [sum(c * rep[j] for rep, c in dice.items()) for j in range(N)]
    return tuple(t if cap is None else min(t, cap) for t, cap in zip(total, caps, strict=True))


def every_throw(items: list, count: int, caps: list) -> dict:
    """The oracle: each of len(items) ** count throws read and weighed."""
    out: Counter = Counter()
    for throw in itertools.product(items, repeat=count):
        out[read(Counter(rep for _, _, rep in throw), caps)] += math.prod(w for _, w, _ in throw)
    return dict(out)


def as_readings(states: list, caps: list) -> dict:
    out: Counter = Counter()
    for w, dice in states:
        assert sum(dice.values()) == len_of(dice)
        out[read(dice, caps)] += w
    return dict(out)


def len_of(dice: dict) -> int:
    return sum(dice.values())


READING = st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 1))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(READING, st.integers(1, 5)), min_size=2, max_size=5, unique_by=lambda r: r[0]),
       st.integers(2, 5), st.sampled_from([[None, None, None], [None, 1, None], [None, 2, 1], [3, None, None]]))
def test_dice_shared_out_at_once_weigh_what_every_throw_weighs(readings, count, caps):
    items = [(k, w, k) for k, w in readings]
    got = fold_alike(items, count, N, caps, 8, Budget(10 ** 9))
    assert all(len_of(dice) == count for _, dice in got)
    assert as_readings(got, caps) == every_throw(items, count, caps)
    assert len(got) == len(every_throw(items, count, caps))  # one state per distinct reading


def test_thirty_d10s_read_by_three_bands_are_the_multinomial_written_out():
    """30d10: the 1s, 2-3 and 4-6 counted (the rest is the fourth band): each of the
    C(33, 3) = 5,456 ways to share the dice among the bands is a state, weighing
    30! / (a! b! c! d!) · 1^a 2^b 3^c 4^d over 10^30."""
    spec = PoolSpec.of(next(n for n in ast.walk(parse("30d10")) if isinstance(n, ast.Dice)))
    dist = view_dist(spec, 30, PoolView(counts=((1, 1), (2, 3), (4, 6))), DEFAULT_LIMITS, Budget(10 ** 6))
    assert dist is not None and len(dist.weights) == shares(30, 4) == 5456
    for rolled, w in dist.weights.items():
        a, b, c = (sum(lo <= f <= hi for f in rolled.faces) for lo, hi in ((1, 1), (2, 3), (4, 6)))
        d = 30 - a - b - c
        want = F(math.factorial(30), math.factorial(a) * math.factorial(b) * math.factorial(c) * math.factorial(d)) \
            * F(1, 10) ** a * F(2, 10) ** b * F(3, 10) ** c * F(4, 10) ** d
        assert F(w, dist.denom) == want



def test_shared_out_where_counts_stand_apart_and_added_die_by_die_where_they_add_alike():
    """Counts of bands apart: a state per share, so sharing out is far cheaper than
    meeting every state with every reading 30 times over. A sum of faces: 10 readings a
    die add up to 271 totals for 30 dice, but C(39, 9) shares; a count capped at 2 (a
    botch's 1s) beside a sum also gathers many shares into few states: die by die."""
    bands = [((0, 1, 0, 0), 1, "a"), ((0, 0, 1, 0), 2, "b"), ((0, 0, 0, 1), 3, "c"), ((0, 0, 0, 0), 4, "d")]
    assert worth_it(bands, 30, 4, [None] * 4)
    faces = [((f, 0), 1, f) for f in range(1, 11)]
    assert not worth_it(faces, 30, 2, [None, None])
    botch = [((0, 1, 0), 1, 1), ((0, 0, 0), 5, 2), ((0, 0, 1), 2, 7), ((0, 0, 2), 2, 10)]
    assert not worth_it(botch, 30, 3, [None, 2, None])


def test_either_way_alike_dice_come_out_the_same():
    """fold_dice takes either way: forced each way, the same states and weights."""
    from rulesengine.dice import view_fold

    view = PoolView(counts=((1, 1), (2, 3), (4, 6)))
    items = [((0, 1, 0, 0, 0, 0), 1, "a"), ((0, 0, 1, 0, 0, 0), 2, "b"), ((0, 0, 0, 1, 0, 0), 3, "c"),
             ((0, 0, 0, 0, 0, 0), 4, "d")]
    shared = fold_dice(items, 12, view, 8, Budget(10 ** 9))
    saved = view_fold.worth_it, view_fold.power_cost
    view_fold.worth_it, view_fold.power_cost = (lambda *args: False), (lambda *args: None)
    try:
        by_die = fold_dice(items, 12, view, 8, Budget(10 ** 9))
    finally:
        view_fold.worth_it, view_fold.power_cost = saved
    key = lambda states: sorted((w, sorted(dice.items())) for w, dice in states)  # noqa: E731
    assert key(shared) == key(by_die)


def test_sharing_out_is_charged_every_share_before_the_work():
    """The charge is every share, each SHARE_COST multiply-adds of the weights' size (a
    share multiplies its weight by a binomial and two powers): a budget one step short is
    refused, one that holds it is not."""
    items = [((0, 1, 0), 1, "a"), ((0, 0, 1), 2, "b"), ((0, 0, 0), 3, "c")]
    cost = SHARE_COST * shares(40, 3) * step_cost(40 * 8)
    with pytest.raises(BudgetExceeded):
        fold_alike(items, 40, 3, [None] * 3, 8, Budget(cost - 1))
    budget = Budget(cost)
    assert len(fold_alike(items, 40, 3, [None] * 3, 8, budget)) == shares(40, 3)
    assert budget.used == cost


def test_a_die_of_many_readings_is_folded_die_by_die():
    """2d1000 read by its total and its 1000s: a thousand readings a die. Sharing two dice
    among them (500,500 shares, a level of recursion a reading) costs more than meeting
    1,000 states with 1,000 readings once, and past MAX_KINDS readings it is never tried:
    the odds answer (an earlier estimate that took it recursed too deeply)."""
    from rulesengine.dice.alike_fold import MAX_KINDS

    thousand = [((f, int(f == 1000)), 1, f) for f in range(1, 1001)]
    assert not worth_it(thousand, 2, 2, [None, None])
    many = [((f, 0), 1, f) for f in range(MAX_KINDS + 1)]
    assert not worth_it(many, 2, 2, [None, None])
    spec = PoolSpec.of(next(n for n in ast.walk(parse("2d1000")) if isinstance(n, ast.Dice)))
    dist = view_dist(spec, 2, PoolView(total=True, counts=((1000, 1000),)), DEFAULT_LIMITS, Budget(10 ** 7))
    assert dist is not None
    top = sum(F(w, dist.denom) for rolled, w in dist.weights.items() if 1000 in rolled.faces)
    assert top == F(1999, 1000 ** 2)
