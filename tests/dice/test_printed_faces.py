"""Faces entered as they are printed on physical dice (issue 14, gap 9): a d10's 0 is its
10, a percentile die's 00 its 100, a Fate die shows +, - and blank."""

from __future__ import annotations

import pytest

from rulesengine import dice
from rulesengine.cli import main
from rulesengine.errors import DiceEvalError
from rulesengine.ruleset import load


def test_a_d10s_zero_is_its_ten():
    assert dice.roll("1d10", faces=[0]).total == 10
    assert dice.roll("2d10", faces=["0", 7]).total == 17
    assert dice.roll("1d10!", faces=[0, 3]).total == 13  # the printed 0 explodes like a 10


@pytest.mark.parametrize("face", [0, "0", "00", 100])
def test_a_percentile_dies_double_zero_is_its_hundred(face):
    assert dice.roll("d%", faces=[face]).total == 100
    assert dice.roll("1d100", faces=[face]).total == 100


def test_a_fate_die_reads_plus_minus_and_blank():
    assert dice.roll("4dF", faces=["+", "-", "blank", "+"]).total == 1
    assert dice.roll("4dF", faces=["\u2212", "-", "0", -1]).total == -3


def test_a_die_with_a_zero_face_keeps_its_zero_and_other_dice_refuse_it():
    assert dice.roll("1d{0,1,2}", faces=[0]).total == 0
    for text, face in (("1d6", 0), ("1d20", "00"), ("1d6", "+"), ("1d10", "blank")):
        with pytest.raises(DiceEvalError) as err:
            dice.roll(text, faces=[face])
        assert err.value.code == "E204"


def test_the_cli_and_a_shipped_check_take_printed_faces(capsys):
    """Fate Core's 4dF + skill against the ladder with the faces a table reads out."""
    assert main(["dice", "1d10 + 4dF", "--faces", "0,+,-,blank,+"]) == 0
    assert capsys.readouterr().out.strip() == "1d10 + 4dF → [10] + [1, -1, 0, 1] = 11"
    action = load("fate-core").check("action")
    printed = action.roll({"skill": 2, "difficulty": 3}, faces=["+", "+", "blank", "-"])
    assert (printed.result, printed.outcome) == (0, "tie")  # +1 on the dice, +2, against 3
    assert main(["dice", "4dF", "--faces", "+,+,x,1"]) == 1  # a word the die doesn't have printed on it
