"""Writing out exact odds is work of the same budget as working them out (issue 30, item 3).

``Odds.to_dict()`` writes every value's exact fraction and its "at least" and "at most": for
odds of thousands of values with fractions of thousands of digits that was many times the
work of the odds themselves (``10000d2``: 0.9 s to work out, 18 s to write), outside the
work budget and a service's deadline. Every assertion here counts what the engine counts
(steps charged, bytes traced): never a clock.
"""

from __future__ import annotations

import dataclasses
import math
import time
from fractions import Fraction

import pytest

from rulesengine import dice
from rulesengine.dice.dist import Budget, shared_budget
from rulesengine.errors import LimitError
from rulesengine.limits import DEFAULT_LIMITS

N = 3000
"""``3000d2``: 3,001 values, each fraction's denominator up to 2**3000 (904 decimal digits)."""


def binomial_odds(n: int) -> dict[int, Fraction]:
    """The oracle of ``nd2``: k twos among n dice (value n + k) has C(n, k) / 2**n."""
    return {n + k: Fraction(math.comb(n, k), 2**n) for k in range(n + 1)}


class Charges:
    """Counts what every ``Budget`` of the dice API is charged (``spend``), by patching the
    class the API makes its budgets from."""

    def __init__(self, monkeypatch) -> None:
        import rulesengine.dice.api as api

        self.spent: list[int] = []
        spent = self.spent

        class Counting(Budget):
            __slots__ = ()

            def spend(self, amount: int) -> None:
                spent.append(amount)
                super().spend(amount)

        monkeypatch.setattr(api, "Budget", Counting)


def test_writing_odds_is_charged_at_least_a_step_for_each_value_written(monkeypatch):
    odds = dice.odds(dice.Expression("d1000 + d1000"))  # 1,999 values
    charges = Charges(monkeypatch)
    odds.to_dict()
    assert sum(charges.spent) >= 1999  # was: nothing, writing was outside the budget


def test_odds_too_big_to_write_are_refused_naming_max_states_before_they_are_written():
    import tracemalloc

    limits = dataclasses.replace(DEFAULT_LIMITS, max_states=50_000)
    odds = dice.odds(dice.Expression(f"{N}d2", limits))  # working them out fits the budget
    assert odds.distribution == binomial_odds(N)
    tracemalloc.start()
    try:
        with pytest.raises(LimitError) as info:
            odds.to_dict()  # was: written, 3,001 rows of two fractions of ~900 digits each
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.limit == "max_states"
    assert f"'{N}d2'" in info.value.message
    # Refused from the fractions' sizes before any was written: the exact texts alone would
    # be over 3,001 × 2 × 900 = 5.4 MB; what was made is a cost per row (a small int each).
    digits = len(str(2**N))
    assert peak < (N + 1) * 2 * digits // 10, peak


def test_odds_written_under_a_past_deadline_stop_while_being_written():
    odds = dice.odds(dice.Expression("d1000 + d1000"))
    with shared_budget(10**12, deadline=time.monotonic() - 1) as total:  # a service's request, overdue
        with pytest.raises(LimitError) as info:
            odds.to_dict()  # was: written whatever the deadline
    assert info.value.limit == "max_states"
    assert total.timed_out  # the service turns this into its time_limit answer (HTTP 503)


def test_writing_odds_in_a_shared_budget_charges_that_budget():
    odds = dice.odds(dice.Expression("d1000 + d1000"))
    with shared_budget(10**12) as total:
        odds.to_dict()
    assert total.used >= 1999


def test_the_written_odds_are_exact_and_their_cumulative_views_are_the_oracles():
    n = 300
    odds = dice.odds(f"{n}d2")
    oracle = binomial_odds(n)
    rows = odds.to_dict()["distribution"]
    values = sorted(oracle)
    assert [r["value"] for r in rows] == values
    for i, (r, table_row, row) in enumerate(zip(rows, odds.table(), odds.rows(), strict=True)):
        v = values[i]
        at_least = sum(oracle[u] for u in values[i:])
        at_most = sum(oracle[u] for u in values[:i + 1])
        assert Fraction(*map(int, r["exact"].split("/"))) == oracle[v]
        assert (r["at_least"], r["at_most"]) == (float(at_least), float(at_most))
        assert (table_row["at_least"], table_row["at_most"]) == (float(at_least), float(at_most))
        assert (row["at_least"], row["at_most"]) == (at_least, at_most)
        assert odds.at_least(v) == at_least and odds.at_most(v) == at_most
    # k twos among n dice is binomial(n, 1/2): the value n + k has mean 3n/2, variance n/4
    assert odds.summary.mean == Fraction(3 * n, 2) and odds.summary.variance == Fraction(n, 4)
