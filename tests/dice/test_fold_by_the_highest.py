"""A pool read through its highest die (or its lowest) and sums or counts is folded once per
value the highest may take, its dice below that value read by the sums and counts alone
(dice/view_fold.py, ``_fold_by_extreme``): Deadlands' trait test, the highest of eight
compounding d12s with the 1s of the first throw counted, has 9 states a step, not 961.

Oracle, written apart from the engine: one compounding ``dS!!`` is worth S·Q + R (Q the top
faces before another, chance (1/S)^Q·(S−1)/S; R uniform on 1..S−1), so P(X ≥ m) =
(1/S)^(q+1)·(1 + S − max(r, 1)) for m = q·S + r. A die shows 1 (on its first throw) exactly
when it is worth 1. So with j dice at 1 and the highest M ≥ 2 of n:
P = C(n, j)·(1/S)^j·(F(M)^(n−j) − F(M − 1)^(n−j)), F(M) = P(2 ≤ X ≤ M); and M = 1 only
with j = n.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from rulesengine import loads
from rulesengine.dice.dist import shared_budget

RULESET = """\
ruleset: trait
name: Trait test
version: "1"
source: tests
checks:
  trait:
    inputs:
      dice: {type: integer, min: 1, max: 10}
    roll: (dice)d12!!
    result: 10 * highest(roll) + count(initial(roll), 1)
    outcomes:
      - {name: bust, when: "count(initial(roll), 1) * 2 >= dice and highest(roll) < 5", success: false}
      - {name: success, when: "highest(roll) >= 5", success: true}
      - {name: failure, success: false}
  lowest:
    inputs:
      dice: {type: integer, min: 1, max: 10}
    roll: (dice)d12
    result: 100 * lowest(roll) + count(roll, 12)
    outcomes:
      - {name: any, success: true}
"""

S = 12


def at_least(m: int) -> F:
    if m <= 1:
        return F(1)
    q, r = divmod(m, S)
    return F(1, S ** (q + 1)) * (1 + S - max(r, 1))


def up_to(m: int) -> F:
    """P(2 <= X <= m) for one d12!!."""
    return at_least(2) - at_least(m + 1)


def joint(n: int, ones: int, highest: int) -> F:
    if highest == 1:
        return F(1, S ** n) if ones == n else F(0)
    if ones >= n:
        return F(0)
    return comb(n, ones) * F(1, S) ** ones * (up_to(highest) ** (n - ones) - up_to(highest - 1) ** (n - ones))


@pytest.mark.parametrize("n", [1, 3, 8])
def test_the_highest_compounding_die_with_the_ones_counted_below_the_cut(n):
    odds = loads(RULESET).check("trait").odds({"dice": n})
    cut = odds.to_dict()["result_cut_from"]
    got = dict(odds.result_distribution)
    checked = 0
    for highest in range(1, 60):
        for ones in range(n + 1):
            value = 10 * highest + ones
            if cut is None or value < cut:
                assert got.get(value, 0) == joint(n, ones, highest), (highest, ones)
                checked += 1
    assert checked > 100


def test_the_lowest_with_a_count_is_every_throw_of_three_dice():
    from itertools import product

    want: dict[int, F] = {}
    for faces in product(range(1, 13), repeat=3):
        v = 100 * min(faces) + faces.count(12)
        want[v] = want.get(v, 0) + F(1, 12 ** 3)
    assert dict(loads(RULESET).check("lowest").odds({"dice": 3}).result_distribution) == want


def test_eight_compounding_dice_read_by_their_highest_are_a_small_work():
    """Counted by the engine: the whole odds under 100,000 steps (35,333 now; 420,172 when the
    highest and the count of 1s were one state together)."""
    with shared_budget(10**12) as outer:
        loads(RULESET).check("trait").odds({"dice": 8})
    assert outer.used < 100_000


HUGE = """\
ruleset: huge
name: Highest of a hundred big dice
version: "1"
source: tests
checks:
  c:
    inputs:
      n: {type: integer, min: 1, max: 100}
      sides: {type: integer, min: 2, max: 100000}
    roll: (n)d(sides)
    result: highest(roll) + 1000000 * count(roll, 1)
    outcomes:
      - {name: any, success: true}
"""


def test_a_fold_by_the_highest_too_big_is_refused_before_any_reading_is_sorted(monkeypatch):
    """A hundred d20000s read by their highest and their 1s: 20,000 values the highest may take,
    each sorting 20,000 readings. The whole work is charged first, so the refusal (E210)
    comes before any of it (here counted: no part's readings packed or sorted)."""
    from rulesengine.dice import view_fold
    from rulesengine.errors import LimitError

    done: list[str] = []
    for name in ("_below_and_at", "_packed"):
        real = getattr(view_fold, name)
        monkeypatch.setattr(view_fold, name, lambda *a, _real=real, _name=name: done.append(_name) or _real(*a))
    with pytest.raises(LimitError) as refused:
        loads(HUGE).check("c").odds({"n": 100, "sides": 20000})
    assert refused.value.code == "E210"
    assert done == []
