"""Bad dice input: one clear error with a column and a hint, quickly, never a crash."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fuzz_support import case_time_limit

from rulesengine import dice
from rulesengine.errors import LimitError, RulesEngineError


def error_of(text, **kwargs):
    with pytest.raises(RulesEngineError) as info:
        e = dice.parse(text)
        e.odds(kwargs.get("env"))
        e.roll(kwargs.get("env"), seed=1)
    return info.value


@pytest.mark.parametrize("text,code,column,message,hint", [
    ("3d6kk3", "E103", 4, "unknown modifier 'kk'", "did you mean 'kh'?"),
    ("4d6kh0", "E103", 4, "keeps no dice", "keep at least one die"),
    ("d0", "E102", 1, "a die needs at least one side", "d1 or more"),
    ("d{}", "E102", 1, "a custom die needs at least one face", None),
    ("d1!", "E103", 3, "explodes on every face", None),
    ("d6r<=6", "E103", 3, "the rerolls match every face", None),
    ("d6ro1r2", "E103", 6, "mixing 'ro'", None),
    ("3d6!=10", "E103", 4, "'!=10' meets no face of d6", "3d6 != 10"),
    ("d6!!p", "E103", None, None, None),
    ("2d6min5max3", "E103", None, "'min' is above 'max'", None),
    ("1 < 2 < 3", "E104", 7, "comparisons do not chain", "and"),
    ("3d6 +", "E101", 5, "expression ends too early", "a number"),
    ("(3d6", "E101", 4, "expression ends too early", "')'"),
    ("3d6)", "E101", 4, "unexpected ')'", "no matching '('"),
    ("3d6 4", "E101", 5, "unexpected '4'", None),
    ("", "E101", 1, "empty expression", "3d6+2"),  # issue 19: had no column
    ("   ", "E101", 1, "empty expression", "3d6+2"),
    ("1\x002", "E105", 2, "unexpected character '\\x00'", "control character"),
    ("４d6", "E105", 1, "unexpected character '４'", "ASCII 0-9"),
    ("3d6 × 2", "E105", 5, "unexpected character '×'", "use * and /"),
    # An outside author's spellings of a threshold from an input (issue 33, pools not seen before).
    ("count(3d10, x..10)", "E105", 14, "unexpected character '.'", "count(roll, 7, 10)"),
    ("(3)d10cs>=x", "E103", 7, "'cs' needs a condition", "cs>=(x)"),
    ("1/0", "E202", 1, "division by zero", None),
    ("10/(1d6-1d6)", "E202", 1, "division by zero", None),
    ("foo(1)", "E205", 1, "unknown function 'foo'", None),
    ("abs(1, 2)", "E201", 1, "abs() takes 1 argument", None),
    ("skil + 1", "E203", 1, "unknown name 'skil'", None),
    ("3d6 + (1 < 2)", "E201", 1, "'+' needs a number, not the yes/no value true", "cs>="),
    ("not 3", "E201", 1, "'not' needs a yes/no value", None),
    ("1 == true", "E201", 1, "cannot compare", None),
    ("(0-1)d6", "E206", 1, "number of dice must be a whole number 0 or more", None),
])
def test_bad_expressions_get_one_clear_error(text, code, column, message, hint):
    err = error_of(text)
    assert err.code == code
    if column is not None:
        assert err.location.column == column
    if message is not None:
        assert message in err.message
    if hint is not None:
        assert hint in (err.hint or "")
    assert "\n" not in str(err)


# Issue 32: a typo's hint names the spelling meant, not a neighbour it only looks like.
# (text, code, column, what the hint must say, what it must no longer say)
MEANT = [
    ("3d6!0", "E103", 4, "to explode once write '!o', with the letter o: d6!o", "comparison"),
    ("d1!0", "E103", 3, "to explode once write '!o', with the letter o: d1!o", "leave the explosion out"),
    ("4d6rl1", "E103", 4, "did you mean 'rol1'? It rerolls the lowest die once", "'kl'"),
    ("4d6rh2kh3", "E103", 4, "did you mean 'roh2'? It rerolls the 2 highest dice once", "'kh'"),
    ("3d6 =< 10", "E105", 5, "write <= for 'at most'", "=="),
    ("3d6=<10", "E105", 4, "write <= for 'at most'", "=="),
    ("3d6 => 10", "E105", 5, "write >= for 'at least'", None),
    ("3d6 =! 10", "E105", 5, "write != for 'is not'", "=="),
    ("3d6 ≤ 10", "E105", 5, "write <= for 'at most'", "docs/"),
    ("1d20 >= 10 && 1d6 > 3", "E105", 12, "write 'and' to join conditions", "docs/"),
    ("1d20 >= 10 & 1d6 > 3", "E105", 12, "write 'and' to join conditions", "docs/"),
    ("1d20 >= 10 || 1d6 > 3", "E105", 12, "write 'or' for either condition", "docs/"),
    ("3d6 <> 10", "E101", 5, "write != for 'is not'", "chain"),
    ("!flag", "E101", 1, "write 'not' to negate: not x", "expected"),
    ("count(3d10, >=8)", "E101", 13, "count(roll, 8, 10) counts the dice showing 8 to 10", "chain"),
    ("max(>= 3, 2)", "E101", 5, "write the value it compares first", "chain"),
    ("highest(4d6, 2)", "E201", 1, "4d6kh2", None),
    ("sum(4d6, 8, 10)", "E201", 1, "count(roll, 8, 10)", None),
    ("1d20 > 3 and !flag", "E105", 14, "write 'not' to negate: not x", "docs/"),
]


@pytest.mark.parametrize("text,code,column,hint,not_hint", MEANT, ids=[m[0] for m in MEANT])
def test_a_typo_gets_the_hint_of_the_spelling_it_was_meant_to_be(text, code, column, hint, not_hint):
    err = error_of(text, env={"flag": True})
    assert (err.code, err.location.column) == (code, column)
    assert hint in err.hint
    if not_hint is not None:
        assert not_hint not in err.hint


def test_the_digit_0_after_an_explosion_mark_is_still_a_face_on_a_die_that_shows_0():
    """``!0`` is only hinted at as ``!o`` where no face meets it: on dF it explodes on the blank."""
    assert dice.parse("dF!0").odds().mean == dice.parse("dF!=0").odds().mean


def test_unknown_name_suggests_the_nearest_known_name():
    err = error_of("skil + 1", env={"skill": 3})
    assert err.hint == "did you mean 'skill'?"


@pytest.mark.parametrize("text,limit", [
    ("1000000000d6", "max_dice"),
    ("d10000000", "max_sides"),
    ("9" * 30, "max_magnitude"),
    ("(" * 100 + "1" + ")" * 100, "max_nesting_depth"),
    ("-" * 200 + "1", "max_nesting_depth"),
    ("1+" * 600 + "1", "max_expression_length"),
    ("(" * 20000 + "1" + ")" * 20000, "max_expression_length"),
    ("1000000*1000000*1000000*1000000", "max_magnitude"),
    ("100d100kh50", "max_states"),
    ("10000d6!", "max_states"),
    ("(1000000)d6", "max_dice"),
])
def test_limits_end_in_a_named_error_not_a_hang(text, limit):
    """The engine refuses by what it counts (length, nesting, magnitude, states, dice), so the
    same input is refused with the same limit on any machine; the clock only guards a hang."""
    with case_time_limit(text), pytest.raises(LimitError) as info:
        e = dice.parse(text)
        e.odds()
        for seed in range(20):
            e.roll(seed=seed)
    assert info.value.limit == limit


# ---- nesting and flat chains -----------------------------------------------------------------


def test_a_flat_chain_of_one_precedence_level_is_not_nesting():
    """`1+1+…` leans left in the parsed tree, as deep as it is long, but a reader sees no
    nesting: 65 terms or 200 (the old count refused 65 as "nests more than 64 levels")."""
    assert dice.roll("1+" * 64 + "1").total == 65
    assert dice.odds("1+" * 199 + "1").distribution == {200: 1}
    assert dice.roll("10-" * 99 + "10").total == -980  # still left to right: ((10-10)-10)-…
    assert dice.roll("2*" * 39 + "2").total == 2**40
    assert dice.roll(" and ".join(["x"] * 100), env={"x": True}).total is True
    assert dice.odds(" or ".join(["d2<2"] * 100)).probability(False) == Fraction(1, 2**100)
    sum_of_dice = dice.parse("1d6+" * 149 + "1d6")
    assert sum_of_dice.odds().mean == Fraction(525) and 150 <= sum_of_dice.roll(seed=1).total <= 900


def test_real_nesting_is_still_bounded_by_max_nesting_depth():
    """Parentheses, signs, calls and operators of another precedence level each nest."""
    for text in ("(" * 65 + "1" + ")" * 65, "-" * 65 + "1", "not " * 65 + "true", "abs(" * 65 + "1" + ")" * 65,
                 "(" * 64 + "1" + ")" * 64):  # the leaf counts: 64 parentheses are 65 levels
        with pytest.raises(LimitError) as info:
            dice.parse(text)
        assert info.value.limit == "max_nesting_depth" and "nests more than 64 levels deep" in info.value.message
    dice.parse("(" * 62 + "1+" * 100 + "1" + ")" * 62)  # 62 parentheses, the chain, its terms: 64 levels


def _at_stack_depth(frames: int, fn):
    """``fn()`` called with ``frames`` more frames on the stack (a front end's own callers)."""
    return fn() if frames == 0 else _at_stack_depth(frames - 1, fn)


# The deepest trees the limits admit: 256 levels counting each operator of a chain (4 x
# max_nesting_depth), alone, in 250 dice (1,000 characters), and inside 62 nested calls.
DEEPEST = [
    ("1+" * 255 + "1", 256),
    ("1d6+" * 249 + "1d6", None),
    ("min(0, " * 62 + "1-" * 193 + "1" + ")" * 62, -192),
    ("abs(" * 62 + "1-" * 193 + "1" + ")" * 62, 192),
]


@pytest.mark.parametrize("text,total", DEEPEST, ids=["chain", "dice", "min", "abs"])
def test_the_deepest_expressions_the_limits_admit_roll_odds_and_trace_without_recursion_errors(text, total):
    """Compiling, rolling, exact odds, the trace and the JSON export all recurse over the tree:
    at the bound they do so safely, even under 200 frames of the caller's own."""
    import json

    from rulesengine.present.export import ast_json

    assert len(text) <= 1000

    def everything():
        e = dice.Expression(text)  # compiled afresh
        rolled = e.roll(seed=1)
        odds = e.odds()
        return rolled, odds, rolled.trace, json.dumps(ast_json(e.tree), indent=2)

    rolled, odds, trace, exported = _at_stack_depth(200, everything)
    if total is not None:
        assert rolled.total == total and odds.distribution == {total: 1}
    else:
        assert odds.mean == Fraction(875)
    assert trace.endswith(f"= {rolled.total}") and exported.startswith("{")


@pytest.mark.parametrize("text,column", [
    ("1+" * 256 + "1", 513),  # the 257th term
    ("1+" * 499 + "1", 513),  # the longest chain max_expression_length admits
    ("(" + "1+" * 200 + "1)" + "+1" * 60, 513),
])
def test_a_chain_deeper_than_the_evaluator_may_recurse_is_a_limit_error_at_its_column(text, column):
    """More than 256 levels counting each operator of a chain is refused (the evaluator recurses
    once per operator), at the term where the tree gets too deep: an error, never a crash."""
    with pytest.raises(LimitError) as info:
        _at_stack_depth(200, lambda: dice.parse(text).odds())
    err = info.value
    assert err.limit == "max_nesting_depth" and err.code == "E210" and err.location.column == column
    assert "more than 256" in err.message and "parentheses" in err.hint


def test_rerolls_and_explosions_count_toward_the_dice_limit():
    with pytest.raises(LimitError) as info:
        for seed in range(50):
            dice.roll("10000d6!", seed=seed)
    assert info.value.limit == "max_dice"
    assert "with its rerolls and explosions" in info.value.message


def test_limit_errors_name_the_term_that_is_too_big():
    with pytest.raises(LimitError) as info:
        dice.odds("1d6 + 100d100kh50")
    assert "'100d100kh50' is too big to work out exactly" in info.value.message
    assert info.value.location.column == 7


def test_limits_are_overridable_by_api_callers():
    import dataclasses

    from rulesengine.limits import DEFAULT_LIMITS

    generous = dataclasses.replace(DEFAULT_LIMITS, max_dice=20_000)
    assert dice.Expression("15000d2", generous).roll(seed=1).total >= 15000
    with pytest.raises(LimitError):
        dice.Expression("15000d2").roll(seed=1)


def test_caret_points_at_the_problem():
    err = error_of("3d6kk3")
    assert err.location.caret() == "3d6kk3\n   ^^"


@pytest.mark.parametrize("env", [{"x": "3" * 300}, {"x": 1.5}, {"x": None}, {"x": 10**30}, {3: 1}])
def test_bad_environment_values_are_input_errors(env):
    with pytest.raises(RulesEngineError) as info:
        dice.roll("x + 1", env=env)
    assert info.value.code == "E601"


def test_a_membership_test_says_there_is_no_in():
    """An outside author's Mothership doubles, `roll in (0, 11, 22, …)`: the hint said a '('
    was not closed; it says there is no `in`, and what to write."""
    err = error_of("1d100 in (11, 22)")
    assert err.message == "unexpected 'in'"
    assert err.hint.startswith("there is no 'in': compare each value (roll == 11 or roll == 22)")


def test_a_yes_no_value_added_as_a_number_is_counted_by_if():
    """`(1 + occupation + risk)d6` with yes/no inputs: the hint spoke of comparisons and `cs`
    only; it says how to count a yes/no value as a number."""
    err = error_of("(1 + x)d6", env={"x": True})
    assert err.message == "'+' needs a number, not the yes/no value true"
    assert "count it as one with if(x, 1, 0)" in err.hint
