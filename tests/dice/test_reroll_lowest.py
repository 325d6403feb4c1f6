"""Rerolling the lowest or highest dice once, `rolN` / `rohN` (issue 14's "a reroll of the
lowest die"; the d20 library's `ro` with an `l`/`h` selector): the N lowest (highest) dice
of the throw are rolled again and the new faces stay. Checked against a brute force over
every throw and every reroll written here, and rolling against exact odds on every path."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from oracle import replay_dist
from rulesengine import dice
from rulesengine.errors import RulesEngineError


def brute(n: int, sides: int, k: int, lowest: bool, value) -> dict:
    out: dict = defaultdict(F)
    for throw in itertools.product(range(1, sides + 1), repeat=n):
        order = sorted(range(n), key=throw.__getitem__, reverse=not lowest)
        chosen = order[:k]
        for new in itertools.product(range(1, sides + 1), repeat=k):
            faces = list(throw)
            for i, f in zip(sorted(chosen), new, strict=True):
                faces[i] = f
            out[value(faces)] += F(1, sides ** (n + k))
    return dict(sorted(out.items()))


@pytest.mark.parametrize("text, n, sides, k, lowest, value", [
    ("3d6rol1", 3, 6, 1, True, sum),
    ("4d4rol2", 4, 4, 2, True, sum),
    ("3d6roh1", 3, 6, 1, False, sum),
    ("4d6rol1kh3", 4, 6, 1, True, lambda f: sum(sorted(f)[1:])),
    ("5d6rol2cs>=5", 5, 6, 2, True, lambda f: sum(x >= 5 for x in f)),
    ("4d6rol1p1", 4, 6, 1, True, lambda f: sum(x for x in f if x != 1)),
    ("2d8rol3", 2, 8, 2, True, sum),  # more than the pool: every die
])
def test_rerolling_the_lowest_dice_matches_every_throw(text, n, sides, k, lowest, value):
    assert dict(dice.parse(text).odds().distribution) == brute(n, sides, k, lowest, value)


@pytest.mark.parametrize("text", ["3d6rol1", "4d4roh2kh2", "3d6rol1min2", "3d6rol1 >= 12"])
def test_rolling_and_exact_odds_agree_on_every_path(text):
    dist, truncated = replay_dist(text)
    assert dict(dice.parse(text).odds().distribution) == dict(sorted(dist.items())) and truncated == 0


def test_the_trace_strikes_the_rerolled_face_and_faces_are_read_in_order():
    """The throw first, then the new faces, die by die."""
    rolled = dice.roll("4d6rol1", faces=[3, 1, 5, 2, 6])
    assert rolled.total == 16 and rolled.trace == "4d6rol1 → [3, ~~1~~ 6, 5, 2] = 16"
    assert dice.roll("3d6rol1", faces=[4, 2, 2, 5]).trace == "3d6rol1 → [4, ~~2~~ 5, 2] = 11"  # first of equals


RULESET = """
ruleset: reroll-lowest
name: Reroll the lowest die
version: "1"
source: tests
checks:
  sixes:
    roll: 3d6rol1
    result: count(roll, 6)
    outcomes:
      - {name: boxcars, when: "result == 3", success: true}
      - {name: other, success: false}
"""


def test_a_check_reads_the_dice_after_the_reroll():
    from rulesengine.ruleset import loads

    sixes = brute(3, 6, 1, True, lambda f: sum(x == 6 for x in f))
    check = loads(RULESET, "rl.yaml").check("sixes")
    assert check.odds({}).success == sixes[3]
    assert check.roll({}, faces=[6, 1, 6, 6]).outcome == "boxcars"


@pytest.mark.parametrize("text, words", [("4d6rol0", "rerolls no dice"), ("4d6rol1!", "explosion"),
                                         ("4d6rol1r1", "another reroll"), ("4d6rol1roh1", "once")])
def test_a_reroll_of_ranked_dice_that_cannot_work_is_refused(text, words):
    with pytest.raises(RulesEngineError) as info:
        dice.parse(text)
    assert info.value.code == "E103" and words in info.value.message


def test_the_d20_dialect_reads_its_own_spelling():
    assert dice.parse("4d6rol1", dialect="d20").text == "4d6rol1"
