"""A comparison or sum whose side is a name or a number written out reads that side in place
(rulesengine/dice/sampling.py, ``_lift2``), not through a call of its own: a sweep's
resolutions evaluate tens of thousands of conditions like ``value <= skill``. Reading in
place must change nothing a user sees: the same value as Python's own arithmetic and
comparison (the oracle), the left side read first, and the same error at the same place."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine import dice
from rulesengine.errors import RulesEngineError

PYTHON = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
          "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
          "!=": operator.ne}
# Each shape read in place, and the general one beside them: (text, values of a and b).
SHAPES = ["a {op} {n}", "a {op} b", "a {op} (b + 0)", "(a + 0) {op} {n}", "(a + 0) {op} (b + 0)", "(a) {op} ({n})"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PYTHON)), st.sampled_from(SHAPES), st.integers(-50, 50), st.integers(-50, 50))
def test_a_side_read_in_place_gives_what_python_gives(op, shape, a, n):
    b = n
    if op in "/%" and n == 0:
        n = b = 7
    text = shape.format(op=op, n=n if n >= 0 else f"({n})")
    got = dice.roll(text, env={"a": a, "b": b}, seed=1).total
    assert got == PYTHON[op](a, n)


@pytest.mark.parametrize("text, name", [
    ("a <= b", "b"),  # two names: the right one unknown
    ("b <= a", "b"),  # two names: the left one unknown
    ("b >= 3", "b"),  # a name and a number
    ("b >= a + 1", "b"),  # a name, then anything
])
def test_an_unknown_name_is_named_at_its_place(text, name):
    with pytest.raises(RulesEngineError) as info:
        dice.roll(text, env={"a": 1}, seed=1)
    assert f"'{name}'" in info.value.message
    assert info.value.location.column == text.index(name) + 1


def test_the_left_side_is_read_first():
    """Both names unknown: the error names the left one, as the general path does."""
    with pytest.raises(RulesEngineError) as info:
        dice.roll("x < y", env={}, seed=1)
    assert "'x'" in info.value.message


@pytest.mark.parametrize("text", ["a / 0", "a / b", "a % b", "(a + 1) / 0"])
def test_a_division_by_zero_points_at_the_division(text):
    with pytest.raises(RulesEngineError) as info:
        dice.roll(text, env={"a": 5, "b": 0}, seed=1)
    assert "division by zero" in info.value.message
    assert info.value.location.column == 1


@pytest.mark.parametrize("text", ["a < 3", "a < b", "flag + 1", "3 + flag"])
def test_a_value_of_the_wrong_kind_is_refused_as_before(text):
    with pytest.raises(RulesEngineError) as info:
        dice.roll(text, env={"a": "hard", "b": 2, "flag": True}, seed=1)
    assert "needs a number" in info.value.message or "cannot compare" in info.value.message
