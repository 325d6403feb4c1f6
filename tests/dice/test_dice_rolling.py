"""Rolling: seeds, injected generators, faces from physical dice, and the trace."""

from __future__ import annotations

import random

import pytest

from rulesengine import dice
from rulesengine.errors import DiceEvalError, InputError


def test_the_same_seed_gives_the_same_roll_on_every_machine():
    # Pinned values: faces come from Mersenne Twister's getrandbits, which is specified,
    # so these hold on any platform and Python version.
    assert dice.roll("4d6kh3", seed=1).trace == "4d6kh3 → [2, 5, ~~1~~, 3] = 10"
    assert dice.roll("4d6kh3", seed=7).trace == "4d6kh3 → [3, ~~2~~, 4, 6] = 13"
    assert dice.roll("10d10!cs>=8cf=1", seed=1).trace == (
        "10d10!cs>=8cf=1 → [3, 10!+, 2, 5, 2, 8+, 8+, 8+, 7, 4, 2] = 4")


def test_an_injected_generator_is_used_and_advanced():
    rng = random.Random(5)
    first = dice.roll("3d6", rng=rng).total
    second = dice.roll("3d6", rng=rng).total
    again = random.Random(5)
    assert [dice.roll("3d6", rng=again).total, dice.roll("3d6", rng=again).total] == [first, second]


def test_string_seeds_are_stable_too():
    assert dice.roll("1d100", seed="session-12").total == dice.roll("1d100", seed="session-12").total


def test_rng_and_seed_together_is_an_error():
    with pytest.raises(InputError):
        dice.roll("1d6", rng=random.Random(1), seed=1)


def test_keep_highest_trace_strikes_the_dropped_die():
    r = dice.roll("4d6kh3", faces=[6, 5, 4, 2])
    assert r.trace == "4d6kh3 → [6, 5, 4, ~~2~~] = 15"
    assert r.total == 15
    assert [d.kept for d in r.dice] == [True, True, True, False]


def test_among_equal_dice_the_later_one_is_dropped():
    r = dice.roll("3d6kh2", faces=[4, 4, 4])
    assert [d.kept for d in r.dice] == [True, True, False]


def test_faces_are_read_pool_first_then_rerolls_then_explosions():
    # 2d6ro1!: the two dice (1, 6); the reroll of the 1 (3); the 6's extra die (2).
    r = dice.roll("2d6ro1!", faces=[1, 6, 3, 2])
    assert r.trace == "2d6ro1! → [~~1~~ 3, 6!, 2] = 11"
    assert r.dice[0].rerolled == (1,)
    assert r.dice[2].added


def test_compounding_adds_to_the_same_die():
    r = dice.roll("d6!!", faces=[6, 6, 2])
    assert r.total == 14
    assert r.trace == "d6!! → [14 (6+6+2)] = 14"
    assert len(r.dice) == 1


def test_penetrating_dice_are_worth_one_less():
    r = dice.roll("d6!p", faces=[6, 6, 3])
    assert [d.value for d in r.dice] == [6, 5, 2]
    assert r.total == 13


def test_reroll_until_keeps_rolling():
    r = dice.roll("d6r<=2", faces=[1, 2, 2, 5])
    assert r.total == 5
    assert r.dice[0].rerolled == (1, 2, 2)


def test_counting_marks_successes_and_failures():
    r = dice.roll("4d10cs>=8cf=1", faces=[8, 1, 10, 5])
    assert r.total == 1
    assert r.trace == "4d10cs>=8cf=1 → [8+, 1-, 10+, 5] = 1"


def test_clamped_dice_show_face_and_value():
    r = dice.roll("2d6min3", faces=[1, 5])
    assert r.trace == "2d6min3 → [1→3, 5] = 8"


def test_trace_renders_arithmetic_names_functions_and_labels():
    r = dice.roll("max(1d6, 1d8)[best] + bonus", env={"bonus": 2}, faces=[3, 7])
    assert r.trace == "max(1d6, 1d8)[best] + bonus → max([3], [7]) best + bonus:2 = 9"
    r = dice.roll("3d6 >= 10", faces=[3, 3, 3])
    assert r.total is False
    assert r.trace.endswith("= false")


def test_a_branch_not_taken_shows_its_number_and_size_of_dice_with_the_names_they_read():
    """Its dice were not rolled: the term as written, a number of dice worked out shown by the
    names it reads (an outside author saw ``(…)d6kh1`` where the rule wrote ``(banes)d6kh1``)."""
    r = dice.roll("if(banes > 0, (banes)d6kh1, 0)", env={"banes": 0})
    assert r.trace == "if(banes > 0, (banes)d6kh1, 0) → if(banes:0 > 0, (banes:0)d6kh1, 0) = 0"
    r = dice.roll("if(x > 0, 2d6, (x + 1)d(y))", env={"x": 1, "y": 6}, faces=[2, 5])
    assert r.trace == "if(x > 0, 2d6, (x + 1)d(y)) → if(x:1 > 0, [2, 5], (x:1 + 1)d(y:6)) = 7"

def test_roll_to_dict_is_json_ready():
    d = dice.roll("2d6kh1", faces=[2, 5]).to_dict()
    assert d == {
        "expression": "2d6kh1",
        "total": 5,
        "dice": [{"term": "2d6kh1", "face": 2, "value": 2, "kept": False},
                 {"term": "2d6kh1", "face": 5, "value": 5, "kept": True}],
        "trace": "2d6kh1 → [~~2~~, 5] = 5",
    }


@pytest.mark.parametrize("faces,message", [
    ([6, 5], "only 2 faces given, but the roll needs more"),
    ([6, 5, 4, 2, 1], "5 faces given, but the roll used only 4"),
    ([6, 5, 7, 2], "face 7 (number 3 given) cannot come up on a d6"),
    ([6, 5, 0, 2], "face 0"),
])
def test_wrong_faces_are_a_clear_error(faces, message):
    with pytest.raises(DiceEvalError) as info:
        dice.roll("4d6kh3", faces=faces)
    assert message in str(info.value)
    assert info.value.code == "E204"


def test_faces_on_custom_dice_must_be_faces_of_that_die():
    assert dice.roll("2dF", faces=[-1, 1]).total == 0
    with pytest.raises(DiceEvalError):
        dice.roll("dF", faces=[2])


def test_a_parsed_expression_rolls_many_times_without_reparsing():
    e = dice.parse("1d20 + bonus")
    assert e is dice.parse("1d20 + bonus")
    rng = random.Random(3)
    totals = {e.roll({"bonus": 5}, rng=rng).total for _ in range(500)}
    assert totals == set(range(6, 26))
    assert e.names == {"bonus"}
