"""A sweep's work budget (issue 29, item 8): each value of a sweep gets the work budget a
single call gets (``max_states``), and the values together a cap of their own
(``max_sweep_states``), so a sweep of values that each fit is not refused, and a sweep of
many costly values still stops, at the same value every time."""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import pytest

from rulesengine import DEFAULT_LIMITS
from rulesengine.dice.dist import shared_budget
from rulesengine.errors import LimitError
from rulesengine.ruleset import loads
from rulesengine.run.sweep import sweep

POOLS = (Path(__file__).resolve().parents[1] / "rulesets" / "data" / "dice-pools.yaml").read_text(encoding="utf-8")
STEP_POOL = (10, 8, 6, 6)


def _fresh(**limits):
    """The test ruleset, loaded anew (no odds remembered) with these limits."""
    return loads(POOLS, limits=dataclasses.replace(DEFAULT_LIMITS, **limits))


def _steps(check, inputs) -> int:
    """The steps one call's odds take (measured by an outer budget the call charges)."""
    with shared_budget(10**12) as used:
        check.odds(inputs)
    return used.used


def _sweep_steps(check, inputs) -> int:
    """The steps a sweep's values take together (measured the same way)."""
    with shared_budget(10**12) as used:
        sweep(check, inputs, {})
    return used.used


def _first_and_rest(name: str = "step") -> tuple[int, int]:
    """The steps of a sweep's first value of ``difficulty``, and of each value after it: the
    roll (the pool, the same at every difficulty) is worked out and charged once, for the
    first (issue 33, item 5)."""
    first = _sweep_steps(_fresh().check(name), {"difficulty": "2"})
    rest = _sweep_steps(_fresh().check(name), {"difficulty": "2..3"}) - first
    assert _sweep_steps(_fresh().check(name), {"difficulty": "2..4"}) == first + 2 * rest  # each later value alike
    return first, rest


def _step_success_by_brute_force() -> dict[int, F]:
    """P(success) at each difficulty, over every throw of d10/d8/d6/d6: the pick puts a pair
    reaching the difficulty first, so a throw succeeds when its best pair, the two highest
    dice, reaches it."""
    size = 10 * 8 * 6 * 6
    best: dict[int, int] = defaultdict(int)
    for throw in itertools.product(*(range(1, s + 1) for s in STEP_POOL)):
        best[max(throw[i] + throw[j] for i, j in itertools.combinations(range(4), 2))] += 1
    return {d: F(sum(n for total, n in best.items() if total >= d), size) for d in range(2, 20)}


def test_each_value_of_a_sweep_over_step_dice_gets_the_budget_a_single_call_gets():
    """18 values of a step-dice pool, each fitting max_states alone but not all together:
    the sweep gives every value's odds (it was refused with E210 'a sweep of 18 values is
    too big'), each equal to a brute force over every throw."""
    one = _steps(_fresh().check("step"), {"difficulty": 2})
    rs = _fresh(max_states=one + one // 10)  # each value fits, 18 of them are far over
    swept = sweep(rs.check("step"), {"difficulty": "2..19"}, {})
    assert [values for values, _ in swept.rows] == [(d,) for d in range(2, 20)]
    success = _step_success_by_brute_force()
    for (difficulty,), odds in swept.rows:
        assert odds.outcomes["success"] == success[difficulty], difficulty
        assert odds.outcomes["failure"] == 1 - success[difficulty], difficulty


def test_each_value_of_a_sweep_over_a_push_pool_gets_the_budget_a_single_call_gets():
    """A 5-value sweep of a pool that pushes with a charm (its costliest value fits alone):
    every value's odds, the same as each single call's."""
    pools = {n: _steps(_fresh().check("push"), {"dice": n, "charm": True}) for n in range(6, 11)}
    biggest = max(pools.values())
    assert sum(pools.values()) > biggest + biggest // 10  # together they would not fit one budget
    rs = _fresh(max_states=biggest + biggest // 10)
    swept = sweep(rs.check("push"), {"dice": "6..10", "charm": "true"}, {})
    alone = _fresh().check("push")
    for (n,), odds in swept.rows:
        assert odds.outcomes == alone.odds({"dice": n, "charm": True}).outcomes


def test_a_sweep_stops_at_its_own_cap_at_the_same_value_every_time():
    """max_sweep_states bounds the values' work together: the sweep stops with a LimitError
    naming it, at the first value whose work goes past it, the same on every run."""
    first, rest = _first_and_rest()
    cap = first + 2 * rest + rest // 2
    stops = []
    for _ in range(2):
        with pytest.raises(LimitError) as info:
            sweep(_fresh(max_sweep_states=cap).check("step"), {"difficulty": "2..19"}, {})
        err = info.value
        assert err.limit == "max_sweep_states" and err.code == "E210" and err.hint == "sweep fewer values"
        assert err.message.startswith(f"a sweep of 18 values is too big to work out exactly: their odds "
                                      f"together need more than {cap:,} steps")
        stops.append(err.message)
    assert stops[0] == stops[1] and stops[0].endswith("(stopped at difficulty=5)")  # the 4th value


def test_a_value_too_big_alone_is_its_own_error_not_the_sweeps():
    """A value over max_states on its own keeps its own error, prefixed with the value (the
    first value's roll alone charges more than 1,000 steps: 2,880 throws)."""
    with pytest.raises(LimitError) as info:
        sweep(_fresh(max_states=1000).check("step"), {"difficulty": "2..19"}, {})
    assert info.value.limit == "max_states" and info.value.message.startswith("at difficulty=2: ")


def test_a_budget_around_the_sweep_that_runs_out_is_named_by_its_limit():
    """A service request's one budget (an outer shared budget) running out during a sweep:
    the sweep says it is too big for that budget, naming max_states."""
    first, rest = _first_and_rest()
    with shared_budget(first + rest + rest // 2), pytest.raises(LimitError) as info:
        sweep(_fresh().check("step"), {"difficulty": "2..19"}, {})
    assert info.value.limit == "max_states"
    assert info.value.message.endswith("(stopped at difficulty=4)"), info.value.message
