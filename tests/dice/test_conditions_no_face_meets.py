"""One rule for a condition no face meets (issue 29, 4 and 5): a reroll, an explosion, a
keep by face or a count whose condition no face the die can show at that point meets is
refused with one located error (E103) and a hint, where some were refused and some silently
did nothing (`d6!>6`, `4d6max3k=5`, `3d6cs>=8`); and an explosion on every face the rerolls
leave (`d6r<=5!`) is refused as `d1!` is, where it rolled forever. "The faces it can show"
follow docs/dice-language.md, "Order of modifiers": rerolls until take faces away before an
explosion reads them, clamps change the values keeps and counts read. The faces listed in
each case are worked out here by hand from that order, not read from the engine."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine import dice
from rulesengine.errors import DiceSyntaxError, RulesEngineError


@pytest.mark.parametrize("text, column, message", [
    # an explosion on every face the rerolls leave: forever
    ("d6r<=5!", 7, "'!' explodes on every face d6 can show after 'r<=5' (6), forever"),
    ("2d6r1r<=5!!", 10, "'!!' explodes on every face d6 can show after 'r1' and 'r<=5' (6), forever"),
    ("d6r<=4!>=5", 7, "'!>=5' explodes on every face d6 can show after 'r<=4' (5, 6), forever"),
])
def test_an_explosion_on_every_face_the_rerolls_leave_is_refused_like_d1(text, column, message):
    with pytest.raises(DiceSyntaxError) as err:
        dice.parse(text)
    assert err.value.code == "E103" and err.value.location.column == column
    assert err.value.message == message and "reroll fewer faces" in err.value.hint


@pytest.mark.parametrize("text, column, message, hint", [
    ("d6!9..10", 3, "'!9..10' meets no face of d6: it can show 1 to 6", "!=6"),
    ("d6!>6", 3, "'!>6' meets no face of d6: it can show 1 to 6", "!=6"),
    ("d6r6!", 5, "'!' meets no face of d6 after 'r6': it can show 1 to 5", "!=5"),  # 6, the top face, rerolled away
    ("3d6r7", 4, "'r7' meets no face of d6: it can show 1 to 6", "r1"),
    ("3d6ro>6", 4, "'ro>6' meets no face of d6: it can show 1 to 6", "ro1"),
    ("4d6max3k=5", 8, "'k=5' meets no face of d6 after 'max3': it can show 1 to 3", "k=3"),
    ("4d6k=7", 4, "'k=7' meets no face of d6: it can show 1 to 6", "k=6"),
    ("4d6min3p<3", 8, "'p<3' meets no face of d6 after 'min3': it can show 3 to 6", "p=6"),
    ("4d6r1k=1", 6, "'k=1' meets no face of d6 after 'r1': it can show 2 to 6", "k=6"),
    ("4d6!!max10k=20", 11, "'k=20' meets no face of d6 after '!!' and 'max10': it can show 1 to 10", "k=10"),
])
def test_a_condition_no_face_can_meet_is_refused_where_it_is_written(text, column, message, hint):
    with pytest.raises(DiceSyntaxError) as err:
        dice.parse(text)
    assert err.value.code == "E103" and err.value.location.column == column
    assert err.value.message == message
    assert err.value.hint.startswith(f"write a condition one of them meets, e.g. {hint}")


def test_a_condition_from_a_name_is_held_to_the_same_rule_once_its_number_is_known():
    """docs/dice-language.md: a rule refused with a written number is refused when the number
    is known; with a number some face meets, the term keeps as written."""
    with pytest.raises(RulesEngineError) as err:
        dice.roll("5d10k>=(tn)", env={"tn": 11}, seed=1)
    assert err.value.code == "E103" and err.value.location.column == 5
    assert "(>=11 here) meets no face of d10" in err.value.message
    want: dict = defaultdict(F)
    for faces in itertools.product(range(1, 11), repeat=2):
        want[sum(f for f in faces if f >= 10)] += F(1, 100)
    assert dict(dice.parse("2d10k>=(tn)").odds({"tn": 10}).distribution) == dict(want)


@pytest.mark.parametrize("text, env", [("3d6cs>=8", {}), ("4d6r1cf1", {}), ("d{-1,0,1}cs>1", {}),
                                       ("5d10cs>=(tn)", {"tn": 11}), ("3d6cs>=(tn)cf<=(low)", {"tn": 7, "low": 0})])
def test_a_count_no_face_meets_is_zero_as_in_0_1_0(text, env):
    """A count is a number with a meaning where no face meets it (a target past the die: no
    success); files of 0.1.0 relied on it, so counts are not held to the rule (CHANGELOG)."""
    assert dict(dice.parse(text).odds(env).distribution) == {0: F(1)}
    assert dice.roll(text, env=env, seed=3).total == 0


def brute(n: int, value) -> dict:
    out: dict = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=n):
        out[value(faces)] += F(1, 6 ** n)
    return dict(out)


@pytest.mark.parametrize("text, value", [
    # a clamp makes the face the condition reads: every die below 2 counts as a 2
    ("3d6min2cs=2", lambda fs: sum(max(f, 2) == 2 for f in fs)),
    ("3d6max4k=4", lambda fs: sum(min(f, 4) for f in fs if min(f, 4) == 4)),
    # rerolled once, a 1 may come back: the reroll takes no face away
    ("2d6ro1cs=1", None),
])
def test_a_condition_met_only_through_the_clamps_or_a_reroll_once_is_read(text, value):
    expr = dice.parse(text)
    if value is not None:
        assert dict(expr.odds().distribution) == brute(3, value)
    else:  # each die: a 1 (1/6) rerolled to a 1 (1/6): 1/36 a die
        p = F(1, 36)
        assert dict(expr.odds().distribution) == {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p * p}


@pytest.mark.parametrize("text", ["d6ro<=5!", "2d6!!k>=7", "4d6!pk=0", "d6r<=4!6"])
def test_what_a_face_can_still_show_is_not_refused(text):
    """Rerolled once, a face may come back (d6ro<=5! explodes on 6s); compounded, a die
    reaches 7 and more; an added die of !p is worth one less than its face, 0 for a 1;
    d6r<=4 leaves 5 and 6, and !6 explodes on one of them."""
    dice.parse(text)
