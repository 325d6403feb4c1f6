"""Faces given (``--faces``) that run out in a procedure's roll say whose check was rolling:
every party reads the same faces in turn, so the roll's line alone doesn't say which ran
short (an outside author's Riddle of Steel exchange: "only 5 faces given, but the roll
needs more", at the check's roll, and it was party 2's)."""

from __future__ import annotations

import pytest

from rulesengine import load
from rulesengine.errors import DiceEvalError


@pytest.mark.parametrize("faces, who", [([3, 4], "party 1's check"), ([3, 4, 5, 6, 6], "party 2's check")])
def test_a_contest_says_which_party_ran_out_of_faces(faces, who):
    contest = load("gurps-4e").procedure("quick_contest")  # each party rolls 3d6
    with pytest.raises(DiceEvalError) as info:
        contest.roll({}, parties=[{"skill": 12}, {"skill": 10}], faces=faces)
    assert info.value.code == "E204"
    assert info.value.message.endswith(f"(next: a d6), rolling {who}")


def test_faces_enough_for_every_party_roll_as_given():
    result = load("gurps-4e").procedure("quick_contest").roll({}, parties=[{"skill": 12}, {"skill": 10}],
                                                              faces=[1, 2, 3, 6, 6, 6])
    assert [p.result for p in result.parties] == [12 - (1 + 2 + 3), 10 - 18]  # the margin: skill less the roll
