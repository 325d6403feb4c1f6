"""A dice term written inside a function that reads dice (``count(3d6, 6)``, ``highest(4d6)``)
is the term's total, which such a function refuses (E201): the dice language reads a term's
dice with modifiers, a ruleset with a roll's name. The refusal's hint says how, and the
spelling it gives reads the dice as the call meant: checked here against every throw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import dice
from rulesengine.errors import RulesEngineError


def throws(n: int, sides: int):
    return itertools.product(range(1, sides + 1), repeat=n)


def brute(n: int, sides: int, read) -> dict[int, Fraction]:
    seen = Counter(read(t) for t in throws(n, sides))
    total = sides ** n
    return {v: Fraction(w, total) for v, w in seen.items()}


# (the call, what it means on the term's dice, the spelling the hint gives)
CASES = [
    ("count(3d6, 6)", lambda t: t.count(6), "3d6cs6", (3, 6)),
    ("count(4d10, 8, 10)", lambda t: sum(8 <= f <= 10 for f in t), "4d10cs>=8", (4, 10)),
    ("count(4d10, 1, 2)", lambda t: sum(f <= 2 for f in t), "4d10cs<=2", (4, 10)),
    ("count(3d6, 5, 9)", lambda t: sum(f >= 5 for f in t), "3d6cs>=5", (3, 6)),
    ("highest(4d6)", max, "4d6kh1", (4, 6)),
    ("lowest(3d8)", min, "3d8kl1", (3, 8)),
    ("count(4dF, 1)", lambda t: t.count(3), "4dFcs1", (4, 3)),  # dF's faces -1, 0, 1 as 1, 2, 3
]


@pytest.mark.parametrize("call, meaning, spelled, dice_", CASES)
def test_the_hint_names_the_spelling_that_reads_the_dice(call, meaning, spelled, dice_):
    with pytest.raises(RulesEngineError) as info:
        dice.roll(call, seed=1)
    assert info.value.code == "E201"
    assert f"write {spelled} to read its dice" in info.value.hint
    got = {int(v): p for v, p in dice.odds(spelled).distribution.items()}
    assert got == brute(*dice_, meaning)


@pytest.mark.parametrize("call", ["count(3d6, 3, 4)", "initial(3d6!)", "count(4d6kh3, 6)", "largest_die(2d6)",
                                  "count(4dF, 0, 1)", "count(4dF, -1)", "count(3d{1,3,5}, 1, 3)"])
def test_where_no_modifier_says_it_the_hint_says_to_name_a_roll(call):
    with pytest.raises(RulesEngineError) as info:
        dice.roll(call, seed=1)
    assert "write" not in info.value.hint
    assert "a roll of their own" in info.value.hint


def test_exact_odds_refuse_it_with_the_same_hint():
    with pytest.raises(RulesEngineError) as info:
        dice.odds("count(3d6, 6) >= 1")
    assert "write 3d6cs6 to read its dice" in info.value.hint


def test_a_rolls_name_is_read_as_before():
    """Only a term written inline gets the new hint; a number given by name keeps its own."""
    with pytest.raises(RulesEngineError) as info:
        dice.roll("count(x, 6)", env={"x": 3}, seed=1)
    assert info.value.hint == "pass the name of a roll, e.g. count(roll, 1)"
