"""A die's condition may take its number from an expression in parentheses (issue 14, "conditions
and thresholds must be literal numbers"): `d10!>=(again)`, `cs>=(tn)`. The term then means
exactly the term with that number written in — checked for rolling, traces, physical faces
and exact odds — and nothing written before changes meaning."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine import dice
from rulesengine.dice import ast
from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

OPS = ["", "=", "==", "!=", "<", "<=", ">", ">="]


@pytest.mark.parametrize("text, kind, op, source", [
    ("4d10!>=(again)", ast.Explode, ">=", "again"),
    ("4d10!!==(a + 1)", ast.Explode, "==", "a + 1"),
    ("4d10!p>(a)", ast.Explode, ">", "a"),
    ("5d10cs>=(tn)", ast.CountDice, ">=", "tn"),
    ("5d10cf(1)", ast.CountDice, "=", "1"),
    ("4d6r(worst)", ast.Reroll, "=", "worst"),
    ("4d6ro<=(worst)", ast.Reroll, "<=", "worst"),
])
def test_a_condition_in_parentheses_is_an_expression(text, kind, op, source):
    tree = dice.parse(text).tree
    (mod,) = tree.modifiers
    assert isinstance(mod, kind) and isinstance(mod.cond, ast.CondExpr)
    assert (mod.cond.op, mod.cond.source) == (op, source)
    assert ast.names(tree) == ast.names(mod.cond.expr)  # its names are the term's: checked like any


@pytest.mark.parametrize("text", ["3d6 != (4)", "3d6 >= (x)", "2d6 - (1)", "(3)d6", "d(6)"])
def test_what_was_written_before_keeps_its_meaning(text):
    """A comparison or arithmetic after a spaced term, a count and d(expr) are not conditions."""
    for node in ast.walk(dice.parse(text).tree):
        for m in getattr(node, "modifiers", ()):
            assert not isinstance(getattr(m, "cond", None), ast.CondExpr)


TEMPLATES = ["3d6cs{op}{n}", "2d6!{op}{n}", "2d4!!{op}{n}", "3d6r{op}{n}", "3d6ro{op}{n}kh2", "3d4cs>=3cf{op}{n}"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(TEMPLATES), st.sampled_from(OPS), st.integers(1, 6))
def test_a_condition_from_an_expression_means_the_term_with_its_number_written_in(template, op, n):
    if op == "" and "!!" in template:
        op = "=="  # `!!N` and `!!==N` compound on N; the bare form is covered by the others
    written = template.format(op=op, n=n)
    try:
        want = dice.parse(written).odds()
    except RulesEngineError as exc:  # a rule refused with the number written is refused when known
        with pytest.raises(RulesEngineError) as info:
            dice.parse(template.format(op=op, n="(x)")).odds({"x": n})
        assert info.value.code == exc.code
        return
    got = dice.parse(template.format(op=op, n="(x)")).odds({"x": n})
    assert got.distribution == want.distribution and got.truncated == want.truncated
    rolled_written = dice.parse(written).roll(seed=n)
    rolled_expr = dice.parse(template.format(op=op, n="(x)")).roll({"x": n}, seed=n)
    assert rolled_expr.total == rolled_written.total


def test_the_trace_and_physical_faces_read_the_term_as_written():
    expr = dice.parse("5d10cs>=(tn)")
    rolled = expr.roll({"tn": 7}, faces=[3, 10, 2, 7, 2])
    assert rolled.total == 2
    assert rolled.trace == "5d10cs>=(tn) → [3, 10+, 2, 7+, 2] = 2"


@pytest.mark.parametrize("text, env, code, words", [
    ("5d10cs>=(1d4)", {}, "E103", "cannot roll dice"),
    ("4d6!!=(x)", {"x": 3}, "E103", "'!!=(…)'"),
    ("5d10cs>=(tn)", {"tn": True}, "E201", "whole number, not the yes/no value true"),
    ("4d10!>=(again)", {"again": 1}, "E103", "explodes on every face"),
    ("4d6r>=(x)", {"x": 1}, "E103", "every face"),
])
def test_a_condition_expression_that_cannot_work_is_a_located_error(text, env, code, words):
    with pytest.raises(RulesEngineError) as info:
        dice.parse(text).odds(env)
    assert info.value.code == code and words in info.value.message
    assert info.value.location.column is not None


RULESET = """
ruleset: thresholds
name: Thresholds
version: "1"
source: tests
checks:
  pool:
    inputs:
      tn: {type: integer, default: 8, min: 2, max: 10}
      again: {type: integer, default: 10, min: 8, max: 10}
    roll: 3d10!>=(again)cs>=(tn)
    result: roll
    outcomes:
      - {name: botch, when: "result == 0 and count(roll, 1) > 0", success: false}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""


def test_a_ruleset_threshold_from_an_input_matches_every_roll_of_its_dice():
    """Explosions (on 10s, successes for every tn here) never change the outcome: it
    depends on the first throw alone."""
    rs = loads(RULESET, "thresholds.yaml")
    for tn in (2, 6, 9):
        want: dict = {"botch": F(0), "success": F(0), "failure": F(0)}
        for faces in itertools.product(range(1, 11), repeat=3):
            hits = sum(f >= tn for f in faces)
            name = "botch" if hits == 0 and 1 in faces else "success" if hits else "failure"
            want[name] += F(1, 1000)
        odds = rs.check("pool").odds({"tn": tn})
        # Explosion paths cut at the depth limit all began with a 10, a success: their
        # mass is reported as truncated.
        assert odds.outcomes["botch"] == want["botch"] and odds.outcomes["failure"] == want["failure"]
        assert odds.outcomes["success"] + odds.truncated == want["success"]


@pytest.mark.parametrize("roll, code", [("3d10cs>=(tm)", "E502"), ("3d10cs>=(label)", "E523")])
def test_a_ruleset_threshold_is_checked_when_the_file_is_loaded(roll, code):
    text = RULESET.replace("roll: 3d10!>=(again)cs>=(tn)", f"roll: {roll}").replace(
        "      again:", "      label: {type: choice, choices: [a, b], default: a}\n      again:")
    with pytest.raises(RulesEngineError) as info:
        loads(text, "thresholds.yaml")
    assert info.value.code == code and info.value.location.line is not None


@pytest.mark.parametrize("template", ["4d6kh{n}", "4d6kl{n}", "5d6dh{n}", "5d6dl{n}", "3d6!dl{n}", "5d10kh{n}cs>=8"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 6])
def test_how_many_dice_to_keep_may_come_from_an_expression(template, n):
    written, spoken = template.format(n=n), template.format(n="(k)")
    try:
        want = dice.parse(written).odds()
    except RulesEngineError as exc:  # kh0 keeps no dice: refused either way
        with pytest.raises(RulesEngineError) as info:
            dice.parse(spoken).odds({"k": n})
        assert info.value.code == exc.code
        return
    got = dice.parse(spoken).odds({"k": n})
    assert got.distribution == want.distribution and got.truncated == want.truncated
    assert dice.parse(spoken).roll({"k": n}, seed=n).total == dice.parse(written).roll(seed=n).total
