"""Many alike dice read through sums, and counts read as "none or some" (issue 33: item 8's
forty exploding d10s with a botch on their first throw's 1s; item 1's thirty d10s with a
botch): one die's readings raised to the power of their number by Miller's recurrence
(rulesengine/dice/power_fold.py), not added one at a time. Checked against every throw of
the readings, against closed forms of whole checks, and the fold die by die must agree."""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulesengine.dice import view_fold
from rulesengine.dice.dist import Budget, BudgetExceeded
from rulesengine.dice.power_fold import power_cost, power_fold
from rulesengine.dice.view_fold import PoolView, fold_dice
from rulesengine.ruleset import loads

N = 4  # parts of a reading here: two sums, then two counts


def read(dice: dict, tops: list) -> tuple:
    """The reading of a state's counted dice (each rep here is its own reading): parts add,
    a part read as none or some (top 1) is read as at most 1."""
    total = [sum(c * rep[j] for rep, c in dice.items()) for j in range(N)]
    return tuple(t if top is None else min(t, top) for t, top in zip(total, tops, strict=True))


def every_throw(items: list, count: int, tops: list) -> dict:
    """The oracle: each of len(items) ** count throws read and weighed."""
    out: Counter = Counter()
    for throw in itertools.product(items, repeat=count):
        out[read(Counter(rep for _, _, rep in throw), tops)] += math.prod(w for _, w, _ in throw)
    return dict(out)


def as_readings(states: list, tops: list, count: int) -> dict:
    out: Counter = Counter()
    for w, dice in states:
        assert sum(dice.values()) == count  # each state's roll holds every die
        assert w > 0
        out[read(dice, tops)] += w
    return dict(out)


# One sum that moves (from -2 to 3), a part that never does, two counts (0 to 2, 0 to 1).
READING = st.tuples(st.integers(-2, 3), st.just(0), st.integers(0, 2), st.integers(0, 1))
TOPS = st.sampled_from([[None, None, 1, 1], [None, None, 1, "zero"], [None, None, "zero", "zero"]])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(READING, st.integers(1, 7)), min_size=1, max_size=5), st.integers(2, 5), TOPS)
def test_dice_raised_to_a_power_weigh_what_every_throw_weighs(readings, count, tops):
    """Random readings (a sum that goes below 0, counts above 1 read as none or some, parts
    read whole that stay 0): one state per distinct reading, each weighing what every throw
    that reads so weighs together, its roll reading so."""
    zero = [j for j, t in enumerate(tops) if t == "zero"]
    tops = [None if t == "zero" else t for t in tops]
    items = list({tuple(0 if j in zero else x for j, x in enumerate(k)): (w, k) for k, w in readings}.items())
    items = [(k, w, k) for k, (w, _) in items]
    cost = power_cost(items, count, N, tops, 8)
    assert cost is not None
    got = power_fold(items, count, N, tops, 8, Budget(cost))
    want = every_throw(items, count, tops)
    assert as_readings(got, tops, count) == want
    assert len(got) == len(want)


def test_a_count_capped_above_one_is_left_to_the_fold():
    """Only counts read as none or some are worked out by inclusion and exclusion; a count
    read up to 2 (a pair of 10s) is not, nor four such counts (sixteen powers), nor two
    sums that move (the plane of their values costs more than the fold die by die)."""
    items = [((0, 1), 1, "a"), ((1, 0), 2, "b")]
    assert power_cost(items, 10, 2, [None, 2], 8) is None
    assert power_cost([((0, 1, 1, 1, 1), 1, "a")], 10, 5, [None, 1, 1, 1, 1], 8) is None
    assert power_cost(items, 10, 2, [None, None], 8) is None
    assert power_cost(items, 10, 2, [None, 1], 8) is not None


def test_the_power_is_charged_before_the_work(monkeypatch):
    """Charged in two stages, each before its work: the levels of reachable sums, then every
    sum they reach (known only after the levels), at most the estimate the choice is made
    on. A budget one step short of the whole is refused before any weight is made."""
    from rulesengine.dice import power_fold as module

    items = [((0, 1), 1, "a"), ((1, 0), 2, "b"), ((2, 0), 3, "c")]
    estimate = power_cost(items, 30, 2, [None, 1], 8)
    assert estimate is not None
    budget = Budget(10 ** 9)
    power_fold(items, 30, 2, [None, 1], 8, budget)
    assert 0 < budget.used <= estimate
    powers: list = []
    real = module._power
    monkeypatch.setattr(module, "_power", lambda *args: powers.append(args) or real(*args))
    with pytest.raises(BudgetExceeded):
        power_fold(items, 30, 2, [None, 1], 8, Budget(budget.used - 1))
    assert powers == []  # no weight made
    power_fold(items, 30, 2, [None, 1], 8, Budget(budget.used))
    assert powers


def test_either_way_a_botch_pool_comes_out_the_same():
    """fold_dice takes the power for thirty d10s read by successes and "any 1": forced die
    by die, the same readings and weights."""
    view = PoolView(counts=((1, 1),), caps=(((False, (1, 1)), 1),), sums=((((7, 10), 1), ((10, 10), 1)),))
    items = [((0, 1, 0, 0, 0), 1, 1), ((0, 0, 0, 0, 0), 5, 2), ((0, 0, 1, 0, 0), 3, 7), ((0, 0, 2, 0, 0), 1, 10)]
    tops = [None, 1, None]
    assert (power_cost(items, 30, 3, tops, 0) or 0) < view_fold.fold_pairs(items, 30, 3, tops)
    powered = fold_dice(items, 30, view, 8, Budget(10 ** 9))
    saved = view_fold.power_cost, view_fold.worth_it
    view_fold.power_cost, view_fold.worth_it = (lambda *args: None), (lambda *args: False)
    try:
        by_die = fold_dice(items, 30, view, 8, Budget(10 ** 9))
    finally:
        view_fold.power_cost, view_fold.worth_it = saved
    read3 = lambda states: Counter({(sum(c * int(r == 1) for r, c in dice.items()) > 0,  # noqa: E731
                                     sum(c * ((r >= 7) + (r == 10)) for r, c in dice.items())): w
                                    for w, dice in states})
    assert read3(powered) == read3(by_die)
    assert len(powered) == len(by_die)


def added_up(die: dict, dice: int) -> dict:
    """The sum of ``dice`` independent dice each with the distribution ``die``, die by die."""
    total = {0: F(1)}
    for _ in range(dice):
        nxt: Counter = Counter()
        for s, p in total.items():
            for add, q in die.items():
                nxt[s + add] += p * q
        total = dict(nxt)
    return total


BOTCH_POOL = """
ruleset: botch
name: Botch pool
version: "1"
source: test
checks:
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 40}
    roll: (dice)d10
    let:
      successes: count(roll, 7, 10) + count(roll, 10, 10)
    result: successes
    outcomes:
      - {name: botch, when: "successes == 0 and count(roll, 1) >= 1", success: false}
      - {name: success, when: "successes >= 1", success: true}
      - {name: failure, success: false}
"""


def test_thirty_d10s_botch_as_the_closed_form_says():
    """Thirty d10s, 7+ a success and a 10 two, a botch on no success and a 1: no success
    is every die 1 to 6, (6/10)^30; a botch is that less every die 2 to 6, (5/10)^30. The
    successes: the sum of thirty dice of 0 (6 faces), 1 (3) and 2 (1), by a convolution
    written here."""
    check = loads(BOTCH_POOL).check("pool")
    odds = check.odds({"dice": 30})
    chances = odds.outcomes
    assert chances["botch"] == F(6, 10) ** 30 - F(5, 10) ** 30
    assert chances["failure"] == F(5, 10) ** 30
    assert chances["success"] == 1 - F(6, 10) ** 30
    assert odds.result_distribution == added_up({0: F(6, 10), 1: F(3, 10), 2: F(1, 10)}, 30)


EXPLODING = """
ruleset: exploding
name: Exploding botch
version: "1"
source: test
checks:
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 40}
    roll: (dice)d10!cs>=8
    result: roll
    outcomes:
      - {name: success, when: "result >= 3", success: true}
      - {name: botch, when: "result == 0 and count(initial(roll), 1) > 0", success: false}
      - {name: failure, success: false}
"""


def test_exploding_dice_botch_on_their_first_throw_as_the_closed_form_says():
    """Twelve d10s exploding on 10 (to the default depth), 8+ a success, a botch on no
    success and a first throw of 1. No success is no die 8+ at all: (7/10)^12; a botch is
    that less every die 2 to 7, (6/10)^12, whatever the depth; a failure is the rest of
    fewer than 3 successes. Each die's successes, followed by hand (a 10 adds a success and
    another die), added up die by die here; the chains the depth cuts are the mass the odds
    say they leave out."""
    check = loads(EXPLODING).check("pool")
    odds = check.odds({"dice": 12})
    chances = odds.outcomes
    assert chances["botch"] == F(7, 10) ** 12 - F(6, 10) ** 12
    depth = 10
    die: Counter = Counter()
    for tens in range(depth + 1):  # a chain of `tens` 10s, then a die that is not a 10
        reach = F(1, 10) ** tens
        die[tens] += reach * F(7, 10)
        die[tens + 1] += reach * F(2, 10)
    pool = added_up(die, 12)
    assert chances["failure"] == sum(pool[v] for v in range(3)) - chances["botch"]
    cut = 1 - (1 - F(1, 10) ** (depth + 1)) ** 12
    for value, p in odds.result_distribution.items():
        if value <= depth:  # below any cut chain's successes so far
            assert p == pool.get(value, 0), value
    assert odds.truncated == 0 and odds.result_truncated == cut  # a cut roll has 11 successes: a success


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_a_count_compared_with_a_number_answers_as_every_throw_does(op):
    """``count(roll, 1) >= 1`` tells 1 from 2 alike, so the odds read the count as at most
    1; ``== 1`` tells them apart, at most 2. For every operator, numbers from -1 to 4 and
    either side, 5d4's exact odds against every one of its 1,024 throws."""
    compare = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
               "!=": operator.ne}[op]
    throws = list(itertools.product(range(1, 5), repeat=5))
    for k in range(-1, 5):
        for when, ask in ((f"count(roll, 1) {op} {k}", lambda c: compare(c, k)),
                          (f"{k} {op} count(roll, 1)", lambda c: compare(k, c))):
            text = f"""
ruleset: compared
name: Compared
version: "1"
source: test
checks:
  c:
    roll: 5d4
    result: roll
    outcomes:
      - {{name: hit, when: "{when}", success: true}}
      - {{name: miss, success: false}}
"""
            odds = loads(text).check("c").odds({})
            want = F(sum(ask(t.count(1)) for t in throws), len(throws))
            assert odds.outcomes.get("hit", F(0)) == want, when
