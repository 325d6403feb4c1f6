"""A condition may be a range of faces, written right after the mark: `r2..5`, `cs5..6`,
`!9..10` (issue 14's "push": re-roll every die that is neither a success nor a 1 is
`ro2..5`). Checked against brute forces written here and against the same rules written
out one face at a time."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine import dice
from rulesengine.errors import RulesEngineError
from oracle import replay_dist


@pytest.mark.parametrize("ranged, written_out", [("4d6r2..3", "4d6r2r3"), ("3d8ro1..3", "3d8ro1ro2ro3"),
                                                ("5d10cs8..10", "5d10cs>=8"), ("3d6cs5..6cf1..2", "3d6cs>=5cf<=2")])
def test_a_range_means_its_faces_one_by_one(ranged, written_out):
    assert dice.parse(ranged).odds().distribution == dice.parse(written_out).odds().distribution


def test_counting_a_range_in_the_middle_matches_every_roll():
    want: dict[int, F] = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=4):
        want[sum(2 <= f <= 3 for f in faces)] += F(1, 6 ** 4)
    assert dice.parse("4d6cs2..3").odds().distribution == dict(sorted(want.items()))


def test_a_push_rerolls_every_die_that_is_neither_a_six_nor_a_one():
    """Each die ends on a 6 with 1/6 + (4/6)(1/6) = 10/36."""
    odds = dice.parse("6d6ro2..5cs6").odds()
    per_die = F(10, 36)
    assert odds.probability(0) == (1 - per_die) ** 6
    rolled = dice.parse("3d6ro2..5").roll(faces=[6, 3, 1, 6])
    assert rolled.total == 13 and rolled.trace == "3d6ro2..5 → [6, ~~3~~ 6, 1] = 13"


def test_an_explosion_on_a_range_matches_every_path_of_the_roller():
    dist, truncated = replay_dist("1d6!5..6")
    odds = dice.parse("1d6!5..6").odds()
    assert odds.distribution == dict(dist) and odds.truncated == truncated


@pytest.mark.parametrize("text, words", [("3d6r>=2..5", "with no operator"), ("3d6r5..2", "holds no face"),
                                         ("3d6r1..6", "every face"), ("1d6!1..6", "every face")])
def test_a_range_that_cannot_work_is_refused_where_it_is_written(text, words):
    with pytest.raises(RulesEngineError) as info:
        dice.parse(text).odds()
    assert info.value.code == "E103" and words in info.value.message
