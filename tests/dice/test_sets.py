"""Sets of expressions with keeps, and keeps after a kept pool (issue 20): `(1d4, 2+2,
3d6kl1)kh1` keeps the best of several different rolls; `((10d6kh5)kl2)kh1` keeps from the
dice a keep left. Checked against brute forces written here (itertools), for exact odds and
rolling alike, and nothing written before changes meaning."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine import dice
from rulesengine.dice import ast
from rulesengine.errors import RulesEngineError


def dist(values_and_weights) -> dict[int, F]:
    out: dict[int, F] = defaultdict(F)
    for v, p in values_and_weights:
        out[v] += p
    return dict(out)


def keep(values: list[int], keeps: list[tuple[str, int]]) -> int:
    """The keeps restated: highest first, equal values in the order listed."""
    kept = sorted(range(len(values)), key=lambda i: (-values[i], i))
    for kind, n in keeps:
        kept = {"kh": kept[:n], "kl": kept[max(0, len(kept) - n):], "dh": kept[n:],
                "dl": kept[:max(0, len(kept) - n)]}[kind]
    return sum(values[i] for i in kept)


def d(sides: int):
    return [(f, F(1, sides)) for f in range(1, sides + 1)]


def test_the_best_of_several_different_rolls():
    """(1d4, 2+2, 3d6kl1)kh1: a d4, a fixed 4 and the lowest of 3d6; the highest counts."""
    lowest = dist((min(f), F(1, 216)) for f in itertools.product(range(1, 7), repeat=3))
    want = dist((keep([a, 4, b], [("kh", 1)]), pa * pb) for a, pa in d(4) for b, pb in lowest.items())
    assert dice.parse("(1d4, 2+2, 3d6kl1)kh1").odds().distribution == dict(sorted(want.items()))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([4, 6, 8]), min_size=1, max_size=3),
       st.lists(st.tuples(st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 3)), max_size=2))
def test_a_set_of_dice_with_any_keeps_matches_every_roll(sides, keeps):
    keeps = [(k, n) for k, n in keeps if not (k[0] == "k" and n == 0)]
    text = "(" + ", ".join(f"1d{s}" for s in sides) + ("," if len(sides) == 1 else "") + ")" + \
        "".join(f"{k}{n}" for k, n in keeps)
    n = 1
    for s in sides:
        n *= s
    want = dist((keep(list(faces), keeps), F(1, n)) for faces in itertools.product(*(range(1, s + 1) for s in sides)))
    assert dice.parse(text).odds().distribution == dict(sorted(want.items()))
    rolled = dice.parse(text).roll(seed=len(text))
    assert rolled.total in want


def test_a_set_without_keeps_adds_its_items_and_a_one_item_set_needs_its_comma():
    assert dice.parse("(1, 2, 3)").roll(seed=1).total == 6
    assert dice.parse("(5,)").roll(seed=1).total == 5
    assert dice.parse("(5)").roll(seed=1).total == 5  # a group, as before


@pytest.mark.parametrize("nested, flat", [("((10d6kh5)kl2)kh1", "10d6kh5kl2kh1"), ("(4d6)kh3", "4d6kh3"),
                                          ("((4d6))dl1", "4d6dl1"), ("(3d6!)kh2", "3d6!kh2")])
def test_keeping_from_a_kept_pool_is_the_same_as_writing_the_keeps_in_turn(nested, flat):
    assert dice.parse(nested).odds().distribution == dice.parse(flat).odds().distribution
    assert dice.parse(nested).roll(seed=7).total == dice.parse(flat).roll(seed=7).total


def test_the_trace_shows_each_item_and_which_were_kept():
    r = dice.parse("(1d4, 2+2, 1d6)kh1").roll(faces=[3, 5])
    assert r.total == 5
    assert r.trace == "(1d4, 2+2, 1d6)kh1 → ([3], 2 + 2, [5])kh1[~~3~~, ~~4~~, 5] = 5"


def test_a_set_item_must_be_a_number():
    with pytest.raises(RulesEngineError, match="a set needs a number, not the yes/no value"):
        dice.parse("(1d6 > 3, 2)kh1").roll(seed=1)


@pytest.mark.parametrize("text", ["(1d6 + 2) * 3", "(2)d6", "max(1d6, 3)", "(1d20 + 5 >= 15)"])
def test_what_was_written_before_keeps_its_meaning(text):
    assert not any(isinstance(n, ast.SetKeep) for n in ast.walk(dice.parse(text).tree))


# ---- keeps after parentheses that are not a set (issue 29, 3) -------------------------------


@pytest.mark.parametrize("text, column, hint", [
    ("(2d20+5)kh1", 9, "(2d20, 5)kh1; to keep dice of a pool put the keep on its term: 2d20kh1 + 5"),
    ("(4d6+3d8)kh4", 10, "(4d6, 3d8)kh1; to keep dice of a pool put the keep on its term: 4d6kh4 + 3d8"),
    ("1 + (x)dl1", 8, "write a set with commas: (2d20, 5)kh1"),
    ("(1d20[attack])kh1", 15, "write a set with commas"),
])
def test_a_keep_after_parentheses_holding_one_value_is_refused_with_the_set_and_the_pool(text, column, hint):
    """(2d20+5)kh1 was a set of one roll (the keep changed nothing, mean 26) and
    (4d6+3d8)kh4 added all seven dice: a keep there has nothing to keep from."""
    from rulesengine.errors import DiceSyntaxError

    with pytest.raises(DiceSyntaxError) as err:
        dice.parse(text)
    assert err.value.code == "E103" and err.value.location.column == column
    assert "nothing to keep from" in err.value.message and hint in err.value.hint


def test_keeps_after_a_kept_set_keep_from_the_rolls_it_kept():
    """((1d4, 1d6, 1d8)kh2)kl1: the lower of the two highest, i.e. the middle of three."""
    want = dist((sorted((a, b, c))[1], pa * pb * pc) for (a, pa), (b, pb), (c, pc)
                in itertools.product(d(4), d(6), d(8)))
    assert dice.parse("((1d4, 1d6, 1d8)kh2)kl1").odds().distribution == want
    assert dice.parse("((1d4, 1d6, 1d8)kh2)kl1").roll(faces=[3, 5, 1]).total == 3
