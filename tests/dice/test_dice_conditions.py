"""Die conditions and the marks they follow (docs/dice-language.md, "Conditions").

The rule under test: a condition is written right after its mark, with no space, as an
operator and a number or a bare number that is never negative; after an explosion mark
(`!`, `!!`, `!p`), whose condition is optional, a space or a `-` ends the modifier, so what
follows is a comparison or arithmetic; `!!=N` is refused as ambiguous. Every condition
operator means what it says (issue 19: `==` meant "not equal").
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest

from oracle import CONDITION_MEANING as MEANING
from rulesengine import dice
from rulesengine.errors import DiceSyntaxError
from rulesengine.dice import ast

GRAMMAR = Path(dice.__file__).with_name("grammar.lark").read_text(encoding="utf-8")

EXPLOSION_MARKS = ("!", "!!", "!p")
CONDITION_MARKS = ("r", "ro", "cs", "cf")  # a condition is required after these
ARITHMETIC = ("+", "-", "*", "/")


def grammar_condition_operators() -> set[str]:
    """The operators the grammar's modifier tokens accept in a condition."""
    found = set()
    for name in ("EXPLODE", "REROLL", "COUNT"):
        line = re.search(rf"^{name}(\.\d+)?: /(.*)/$", GRAMMAR, re.M).group(2)
        alternation = re.search(r"\(\?:(==\|[^)]*)\)", line).group(1)
        found |= set(alternation.split("|"))
    return found


def modifier_of(text: str):
    """The one modifier of the one dice term ``text`` parses to."""
    tree = dice.parse(text).tree
    assert isinstance(tree, ast.Dice) and len(tree.modifiers) == 1, tree
    return tree.modifiers[0]


def syntax_error(text: str) -> DiceSyntaxError:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    return info.value


# ---- every operator means what it says ---------------------------------------------------


def test_the_condition_table_has_exactly_the_operators_the_grammar_accepts():
    assert grammar_condition_operators() == set(ast.CONDITION_TESTS) == set(MEANING)


def test_a_condition_with_an_operator_missing_from_the_table_cannot_be_made():
    with pytest.raises(ValueError, match="no test"):
        ast.Cond("=<", 3)


@pytest.mark.parametrize("op", sorted(MEANING))
@pytest.mark.parametrize("mark", CONDITION_MARKS)
def test_every_condition_operator_selects_the_faces_it_names(mark, op):
    """`d6cs>=3` counts 3..6, `d6r==1` rerolls 1s only, and so on for every operator."""
    modifier = modifier_of(f"d6{mark}{op}3")
    assert modifier.cond.op == op and modifier.cond.value == 3
    assert [f for f in range(1, 7) if modifier.cond(f)] == [f for f in range(1, 7) if MEANING[op](f, 3)]


def test_double_equals_counts_equal_dice():
    """Issue 19: `10d10cs==10` had mean 9 (it counted dice that were *not* 10)."""
    assert dice.odds("10d10cs==10").mean == 1
    assert dice.roll("3d6cs==6", faces=[6, 6, 1]).total == 2


def test_double_equals_rerolls_and_explodes_on_that_face_only():
    """Issue 19: `4d6r==1` was always 4, `d20!==20` exploded on 1-19."""
    assert dice.odds("4d6r==1").distribution == dice.odds("4d{2,3,4,5,6}").distribution
    assert dice.roll("d20!==20", faces=[19]).total == 19
    assert dice.roll("d20!==20", faces=[20, 3]).total == 23


# ---- what follows an explosion mark ------------------------------------------------------


def shifted(text: str, by: int) -> dict:
    return {v + by: p for v, p in dice.odds(text).distribution.items()}


def test_a_comparison_after_a_space_compares_the_exploded_total():
    """Issue 19: `1d6! >= 5` exploded on 5+ and gave numbers; it is a yes/no with P = 1/3
    (the chains cut at the explode depth are all totals of 7 or more, so they count)."""
    odds = dice.odds("1d6! >= 5")
    assert set(odds.distribution) == {True, False}
    assert odds.probability(True) + odds.truncated == Fraction(1, 3)


@pytest.mark.parametrize("text", ["dF! - 1", "dF!-1", "1d6! - 1", "1d6!-1", "1d6!!-1", "1d6!p-1"])
def test_a_minus_after_an_explosion_mark_subtracts(text):
    """Issue 19: `dF! - 1` exploded on -1, `1d6! - 1` failed with E103."""
    base = text.split("-")[0].strip()
    assert dice.odds(text).distribution == shifted(base, -1)


def test_compound_then_single_equals_is_refused_as_ambiguous():
    """Issue 19: `d6!!=1` silently meant "compound on 1" though it reads as `!` `!=1` too."""
    err = syntax_error("d6!!=1")
    assert err.code == "E103" and err.location.column == 3 and "ambiguous" in err.message
    assert "!!==1" in err.hint
    compound_on_one = modifier_of("d6!!==1")
    assert compound_on_one.kind == "compound" and compound_on_one.cond == ast.Cond("==", 1)


def test_penetrate_on_any_face_but_one():
    """Issue 19: `d6!p!=2` failed; it penetrates on every face but 2."""
    modifier = modifier_of("d6!p!=2")
    assert modifier.kind == "penetrate" and modifier.cond == ast.Cond("!=", 2)
    assert dice.roll("d6!p!=2", faces=[2]).total == 2
    assert dice.roll("d6!p!=2", faces=[3, 2]).total == 3 + (2 - 1)


def test_a_compound_condition_is_written_back_in_a_form_that_reads_the_same():
    """Traces write a term's modifiers back out: compound on 1 becomes `!!==1`, never the
    ambiguous `!!=1`, and that text parses to the same modifier."""
    compound = modifier_of("d6!!1")
    assert compound.text() == "!!==1"
    again = modifier_of("d6" + compound.text())
    assert (again.kind, again.cond.is_equality, again.cond.value) == ("compound", True, 1)


# ---- every mark x every following operator, with and without spaces ----------------------

SPACINGS = {  # how a mark, an operator and the number 3 are put together
    "glued": "{mark}{op}3",
    "space before the operator": "{mark} {op}3",
    "space after the operator": "{mark}{op} 3",
    "spaces around the operator": "{mark} {op} 3",
}


def expected_reading(mark: str, op: str, spacing: str) -> str:
    """The documented rule, written out: 'condition', 'comparison', 'arithmetic' or 'error'."""
    glued_mark = not spacing.startswith("space before") and not spacing.startswith("spaces")
    if mark in CONDITION_MARKS:
        # The condition is required and must be one word with the mark; a `-` is a sign
        # only after an operator; a space anywhere inside is refused with what to write.
        return "condition" if spacing == "glued" and op in MEANING else "error"
    if op in ARITHMETIC:
        return "arithmetic"  # a space or a `-` ends an explosion's modifier
    if glued_mark:
        if spacing != "glued":
            return "error"  # `!>= 3`: a condition split by a space
        written = mark + op  # `!!=3` is `!!` then `=3` or `!` then `!=3`: refused either way
        return "error" if written.startswith("!!=") and not written.startswith("!!==") else "condition"
    return "error" if op == "=" else "comparison"  # `=` alone is no comparison


PAIRS = [(mark, op, spacing) for mark, op, spacing in itertools.product(
    EXPLOSION_MARKS + CONDITION_MARKS, sorted(MEANING) + list(ARITHMETIC), SPACINGS)]


@pytest.mark.parametrize("mark, op, spacing", PAIRS, ids=[f"{m}|{o}|{s}" for m, o, s in PAIRS])
def test_every_mark_followed_by_every_operator_reads_one_documented_way(mark, op, spacing):
    text = "2d6" + SPACINGS[spacing].format(mark=mark, op=op)
    reading = expected_reading(mark, op, spacing)
    if reading == "error":
        err = syntax_error(text)
        assert err.location is not None and err.location.column is not None
        assert err.hint and "\n" not in err.message
        return
    tree = dice.parse(text).tree
    if reading == "condition":
        assert isinstance(tree, ast.Dice)
        (modifier,) = tree.modifiers
        assert modifier.cond == ast.Cond(op, 3)
        return
    assert isinstance(tree, ast.Compare if reading == "comparison" else ast.Binary)
    assert (tree.op, tree.right) == (op, ast.Num(3, tree.right.span))
    (modifier,) = tree.left.modifiers
    assert modifier.cond is None


@pytest.mark.parametrize("text, hint", [
    ("dFr-1", "r=-1"),
    ("dFcs-1", "cs=-1"),
    ("4d6r 1", "r1"),
    ("3d6cs >= 5", "cs>=5"),
    ("d6!>= 5", "'! >= 5' to compare"),
    ("d6!>=x", "'! >= x'"),
    ("1d6! 6", "'!6'"),
    ("4d6r", "r1"),
])
def test_a_condition_torn_from_its_mark_says_what_to_write(text, hint):
    err = syntax_error(text)
    assert err.code == "E103" and hint in err.hint


def test_a_negative_face_is_written_after_an_operator():
    assert dice.odds("dFr=-1").distribution == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert modifier_of("dF!=-1").cond == ast.Cond("=", -1)


def test_a_comparison_after_a_space_is_still_a_comparison():
    """Unchanged: `3d6 != 10` compares, `3d6!=6` explodes on 6, `3d6!=10` is refused."""
    assert isinstance(dice.parse("3d6 != 10").tree, ast.Compare)
    assert modifier_of("3d6!=6").cond == ast.Cond("=", 6)
    assert "put a space" in syntax_error("3d6!=10").hint
