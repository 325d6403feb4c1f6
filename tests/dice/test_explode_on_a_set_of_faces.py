"""A die explodes on a set of faces that isn't a range (issue 34): ``1d20!=10!=20`` (or
``1d20!10!20``) explodes on 10 and on 20, as several conditions of one reroll or keep
combine. Two kinds of explosion on one die are still refused, and so are conditions that
together meet every face (the die would explode for ever)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesengine import dice
from rulesengine.errors import DiceSyntaxError


def chains(sides: int, explode_on: set[int], depth: int) -> dict[int, Fraction]:
    """The oracle: every chain of a die that adds a die on ``explode_on``, followed
    ``depth`` explosions deep (the chains still going there are left out)."""
    out: dict[int, Fraction] = {}

    def walk(total: int, p: Fraction, left: int) -> None:
        for face in range(1, sides + 1):
            q = p / sides
            if face in explode_on:
                if left:
                    walk(total + face, q, left - 1)
            else:
                out[total + face] = out.get(total + face, Fraction(0)) + q

    walk(0, Fraction(1), depth)
    return out


@pytest.mark.parametrize("text, sides, faces", [
    ("1d20!=10!=20", 20, {10, 20}),
    ("1d20!10!20", 20, {10, 20}),
    ("1d6!1!6", 6, {1, 6}),
    ("1d8!<=2!=8", 8, {1, 2, 8}),
])
def test_each_value_below_the_cut_is_what_the_chains_of_the_set_give(text, sides, faces):
    odds = dice.odds(text)
    deep = chains(sides, faces, 11)  # deeper than the default depth (10): exact below the cut
    assert odds.cut_from is not None
    below = [v for v in deep if v < odds.cut_from]
    assert below and all(odds.probability(v) == deep[v] for v in below)


@pytest.mark.parametrize("text, sides, faces", [("1d20!=10!=20", 20, {10, 20}), ("1d6!1!6", 6, {1, 6})])
def test_the_mean_is_exact_in_closed_form(text, sides, faces):
    """A die that adds another on a set of faces with chance p: E = E[face] / (1 - p)."""
    face_mean = Fraction(sides + 1, 2)
    expected = face_mean / (1 - Fraction(len(faces), sides))
    summary = dice.odds(text).summary
    assert summary.mean == expected and summary.mean_kind == "exact"


@pytest.mark.parametrize("faces, total", [([10, 20, 3], 33), ([10, 5], 15), ([20, 1], 21), ([7], 7), ([19], 19)])
def test_a_roll_adds_a_die_on_each_face_of_the_set(faces, total):
    assert dice.parse("1d20!=10!=20").roll(faces=faces).total == total


@pytest.mark.parametrize("text, needle", [
    ("1d6!!6!p1", "a die can explode only one way"),
    ("d6!<=3!>=4", "together explode on every face d6 can show, forever"),
    ("1d20!=10!=25", "25"),
])
def test_what_cannot_be_meant_is_refused(text, needle):
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    assert needle in info.value.message and info.value.hint
