"""Counts of a pool at thresholds given as inputs (issue 33, item 1): once the inputs are
given, ``count(roll, double, 10)`` reads the pool as ``count(roll, 8, 10)`` does for
double = 8, and an ``if()`` whose condition reads only inputs reads only its taken branch.
Exact odds at table sizes (20 dice) are then worked out within the default work budget,
equal to the same check with the numbers written in (an independent spelling, whose odds
the engine already works out by bands) and, at 4 dice, to a brute force over every throw."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesengine.ruleset import loads

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
"""

# `double`: the face from which a success counts twice (11: none does).
BY_INPUT = HEAD + """  attack:
    inputs:
      pool: {type: integer, min: 1, max: 30}
      double: {type: integer, min: 7, max: 11}
    roll: (pool)d10
    result: count(roll, 7, 10) + count(roll, double, 10)
    outcomes:
      - {name: overwhelming, success: true, when: result >= 12}
      - {name: hit, success: true, when: result >= 8}
      - {name: miss, success: false}
"""


def written(double: int) -> str:
    """BY_INPUT with ``double`` written in as a number: no input left to read."""
    return BY_INPUT.replace("      double: {type: integer, min: 7, max: 11}\n", "") \
        .replace("count(roll, double, 10)", f"count(roll, {double}, 10)")


def _nest(name: str, values: list[int], last: str) -> str:
    text = last
    for v in reversed(values):
        text = f"if({name} == {v}, count(roll, {v}, 10), {text})"
    return text


# The docs' spelling: a written-out count for each value of an input, chosen by if(); two
# inputs (a threshold and a "counts double" face), seven bands of faces in all if every
# branch were read.
BY_IF = HEAD + f"""  attack:
    inputs:
      pool: {{type: integer, min: 1, max: 30}}
      tn: {{type: integer, min: 5, max: 9}}
      double: {{type: integer, min: 7, max: 11}}
    roll: (pool)d10
    result: {_nest("tn", [5, 6, 7, 8], "count(roll, 9, 10)")} + {_nest("double", [7, 8, 9, 10], "0")}
    outcomes:
      - {{name: overwhelming, success: true, when: result >= 12}}
      - {{name: hit, success: true, when: result >= 8}}
      - {{name: miss, success: false}}
"""


def written_if(tn: int, double: int) -> str:
    """BY_IF as one sum of written-out counts for these values of its inputs."""
    extra = f"count(roll, {double}, 10)" if double <= 10 else "0"
    return HEAD + f"""  attack:
    inputs:
      pool: {{type: integer, min: 1, max: 30}}
    roll: (pool)d10
    result: count(roll, {tn}, 10) + {extra}
    outcomes:
      - {{name: overwhelming, success: true, when: result >= 12}}
      - {{name: hit, success: true, when: result >= 8}}
      - {{name: miss, success: false}}
"""


def brute(n: int, tn: int, double: int) -> dict[str, Fraction]:
    """Every throw of n d10, counted by hand."""
    out = {"overwhelming": Fraction(0), "hit": Fraction(0), "miss": Fraction(0)}
    for faces in itertools.product(range(1, 11), repeat=n):
        result = sum(f >= tn for f in faces) + sum(f >= double for f in faces)
        name = "overwhelming" if result >= 12 else "hit" if result >= 8 else "miss"
        out[name] += Fraction(1, 10 ** n)
    return out


def outcomes(odds) -> dict[str, Fraction]:
    return {o: odds.outcomes.get(o, Fraction(0)) for o in ("overwhelming", "hit", "miss")}


@pytest.mark.parametrize("double", [7, 8, 10, 11])
def test_a_count_at_an_input_threshold_matches_a_brute_force(double):
    odds = loads(BY_INPUT, "t.yaml").check("attack").odds({"pool": 4, "double": double})
    assert outcomes(odds) == brute(4, 7, double)


@pytest.mark.parametrize("double", [8, 9])
def test_a_count_at_an_input_threshold_is_read_like_a_written_one_at_twenty_dice(double):
    # Refused (E210, "use fewer dice") when the input's count could not be told in advance.
    odds = loads(BY_INPUT, "t.yaml").check("attack").odds({"pool": 20, "double": double})
    want = loads(written(double), "t.yaml").check("attack").odds({"pool": 20})
    assert outcomes(odds) == outcomes(want)
    assert odds.result_distribution == want.result_distribution
    assert sum(outcomes(odds).values()) == 1


@pytest.mark.parametrize(("tn", "double"), [(6, 8), (9, 11)])
def test_an_if_on_inputs_matches_a_brute_force(tn, double):
    odds = loads(BY_IF, "t.yaml").check("attack").odds({"pool": 4, "tn": tn, "double": double})
    assert outcomes(odds) == brute(4, tn, double)


@pytest.mark.parametrize(("tn", "double"), [(6, 8), (5, 10)])
def test_an_if_on_inputs_reads_only_its_taken_branch_at_twenty_dice(tn, double):
    # Refused when every branch's count was read: seven bands of faces over 20 dice.
    odds = loads(BY_IF, "t.yaml").check("attack").odds({"pool": 20, "tn": tn, "double": double})
    want = loads(written_if(tn, double), "t.yaml").check("attack").odds({"pool": 20})
    assert outcomes(odds) == outcomes(want)
    assert odds.result_distribution == want.result_distribution


def test_a_sweep_over_the_input_threshold_reads_each_value_through_its_own_bands():
    check = loads(BY_INPUT, "t.yaml").check("attack")
    for double in (7, 9, 11):
        odds = check.odds({"pool": 20, "double": double})
        assert outcomes(odds) == outcomes(loads(written(double), "t.yaml").check("attack").odds({"pool": 20}))


def test_a_rolled_count_at_an_input_threshold_reads_the_input():
    check = loads(BY_INPUT, "t.yaml").check("attack")
    faces = [7, 8, 9, 10] * 2 + [1] * 4
    assert check.roll({"pool": 12, "double": 8}, faces=faces).result == 8 + 6
    assert check.roll({"pool": 12, "double": 11}, faces=faces).result == 8


# A bound from a let of inputs, in parentheses or negated: known before the roll all the same.
BY_LET = HEAD + """  attack:
    inputs:
      pool: {type: integer, min: 1, max: 30}
      hard: {type: boolean, default: false}
      shift: {type: integer, min: -3, max: 0}
    let:
      face: if(hard, 9, 7)
    roll: (pool)d10
    result: count(roll, (face), 10) + count(roll, -(shift) + 8, 10) - count(roll, 1, -shift)
    outcomes:
      - {name: overwhelming, success: true, when: result >= 12}
      - {name: hit, success: true, when: result >= 8}
      - {name: miss, success: false}
"""


def brute_let(n: int, hard: bool, shift: int) -> dict[str, Fraction]:
    face = 9 if hard else 7
    out = {"overwhelming": Fraction(0), "hit": Fraction(0), "miss": Fraction(0)}
    for faces in itertools.product(range(1, 11), repeat=n):
        result = sum(f >= face for f in faces) + sum(f >= 8 - shift for f in faces) - sum(f <= -shift for f in faces)
        name = "overwhelming" if result >= 12 else "hit" if result >= 8 else "miss"
        out[name] += Fraction(1, 10 ** n)
    return out


@pytest.mark.parametrize(("hard", "shift"), [(False, 0), (True, -2)])
def test_bounds_from_lets_of_inputs_match_a_brute_force(hard, shift):
    odds = loads(BY_LET, "t.yaml").check("attack").odds({"pool": 4, "hard": hard, "shift": shift})
    assert outcomes(odds) == brute_let(4, hard, shift)


def test_bounds_from_lets_of_inputs_are_read_like_written_ones_at_twenty_dice():
    odds = loads(BY_LET, "t.yaml").check("attack").odds({"pool": 20, "hard": True, "shift": -2})
    text = BY_LET.replace("count(roll, (face), 10) + count(roll, -(shift) + 8, 10) - count(roll, 1, -shift)",
                          "count(roll, 9, 10) + count(roll, 10, 10) - count(roll, 1, 2)")
    want = loads(text, "t.yaml").check("attack").odds({"pool": 20, "hard": True, "shift": -2})
    assert odds.result_distribution == want.result_distribution


def test_a_condition_given_to_the_odds_reads_an_input_threshold_like_a_written_one():
    # P(outcome | at least 3 dice show `double` or more), at 4 dice by hand and at 20 dice
    # against the same condition with the number written in.
    check = loads(BY_INPUT, "t.yaml").check("attack")
    odds = check.odds({"pool": 4, "double": 8}, given="count(roll, double, 10) >= 3")
    throws = [t for t in itertools.product(range(1, 11), repeat=4) if sum(f >= 8 for f in t) >= 3]
    assert odds.given_probability == Fraction(len(throws), 10 ** 4)
    hits = [t for t in throws if 8 <= sum(f >= 7 for f in t) + sum(f >= 8 for f in t) < 12]
    assert odds.outcomes["hit"] == Fraction(len(hits), len(throws))
    odds = check.odds({"pool": 20, "double": 8}, given="count(roll, double, 10) >= 3 and count(roll, 1) == 0")
    want = loads(written(8), "t.yaml").check("attack").odds({"pool": 20},
                                                             given="count(roll, 8, 10) >= 3 and count(roll, 1) == 0")
    assert odds.given_probability == want.given_probability
    assert outcomes(odds) == outcomes(want)


# An input chooses how the roll is read: whole (its total, the sum of the dice) or by a
# count; only the way taken is read, and the other way's reads leave no trace in the odds.
BY_MODE = HEAD + """  attack:
    inputs:
      pool: {type: integer, min: 1, max: 30}
      mode: {type: integer, min: 1, max: 3}
    roll: (pool)d6
    result: "if(mode == 1, roll, if(mode == 2, count(roll, 5, 6) * 4, highest(roll) * 3))"
    outcomes:
      - {name: hit, success: true, when: result >= 12}
      - {name: miss, success: false}
"""


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_an_if_on_an_input_choosing_how_a_roll_is_read_matches_a_brute_force(mode):
    odds = loads(BY_MODE, "t.yaml").check("attack").odds({"pool": 4, "mode": mode})
    want: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        result = sum(faces) if mode == 1 else sum(f >= 5 for f in faces) * 4 if mode == 2 else max(faces) * 3
        want[result] = want.get(result, Fraction(0)) + Fraction(1, 6 ** 4)
    assert odds.result_distribution == want
    assert odds.outcomes["hit"] == sum(p for r, p in want.items() if r >= 12)
