"""A check is held to the limits its rolls' own expressions are (issue 30, item 4).

``dice.odds("d1000000")`` is refused by ``max_outcomes`` once the die is made; a check
rolling ``d1000000`` went on to resolve each of the million values (37 s, 1.2 GB) and to
list them. Read whole (``count(roll, 6)``), ``d1000000 + d1000000`` read every face of
both dice before the budget was charged for it (8 s, 800 MB). Every assertion here counts
what the engine counts (resolutions made, limits named, bytes traced): never a clock.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from rulesengine import dice
from rulesengine.errors import LimitError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

HEAD = "ruleset: big\nname: Big\nversion: '1'\nsource: a test\nlicense: none\nchecks:\n"


def check_rolling(roll: str, reads_dice: bool = False, limits=DEFAULT_LIMITS):
    """A check of one roll, its result the roll's total (or, ``reads_dice``, its highest die,
    with an outcome counting sixes: the roll is then read die by die, as Blades reads it)."""
    result = "highest(roll)" if reads_dice else "roll"
    first = "count(roll, 6) >= 2" if reads_dice else "roll > 10"
    text = (HEAD + f"  go:\n    roll: {roll}\n    result: {result}\n    outcomes:\n"
            f"      - {{name: high, when: '{first}', success: true}}\n      - {{name: low, success: false}}\n")
    return loads(text, "big.yaml", limits).check("go")


def test_a_check_rolling_more_values_than_max_outcomes_is_refused_before_resolving_any(monkeypatch):
    from rulesengine.run.resolver import Resolver

    limits = dataclasses.replace(DEFAULT_LIMITS, max_outcomes=1000)
    within = check_rolling("d1000", limits=limits).odds({})  # 1,000 values: within the limit, answered
    assert len(within.result_distribution) == 1000 and within.outcomes["high"] == Fraction(990, 1000)
    with pytest.raises(LimitError) as bare:
        dice.odds("d5000", limits=limits)
    assert bare.value.limit == "max_outcomes"
    resolved = []
    real = Resolver.resolve
    monkeypatch.setattr(Resolver, "resolve", lambda self, *a, **k: resolved.append(1) or real(self, *a, **k))
    with pytest.raises(LimitError) as info:
        check_rolling("d5000", limits=limits).odds({})  # was: 5,000 values resolved and listed
    assert info.value.limit == "max_outcomes"
    assert "5,000 possible values" in info.value.message
    assert info.value.location.line == 8  # the roll's line in the file
    assert resolved == []


def test_a_check_rolling_a_million_sided_die_is_refused_like_the_bare_die():
    with pytest.raises(LimitError) as bare:
        dice.odds("d1000000")
    with pytest.raises(LimitError) as info:
        check_rolling("d1000000").odds({})  # was: a million resolutions, 37 s and 1.2 GB
    assert info.value.limit == bare.value.limit == "max_outcomes"


def test_a_roll_read_die_by_die_is_charged_for_reading_its_faces_before_the_die_is_made():
    import tracemalloc

    # the die's 100,000 faces read three ways each (the count of sixes, the highest, the
    # whole: 1 + 2 steps a face) are 300,000 steps, over this budget
    limits = dataclasses.replace(DEFAULT_LIMITS, max_states=200_000)
    check = check_rolling("d100000 + d100000", reads_dice=True, limits=limits)
    tracemalloc.start()
    try:
        with pytest.raises(LimitError) as info:
            check.odds({})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.limit == "max_states"
    # was: both dice made and every face read (a dict of 100,000 faces is over 5 MB, and
    # their readings more) before the budget said no
    assert peak < 100_000 * 20, peak
