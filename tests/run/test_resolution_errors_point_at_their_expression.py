"""A resolution reads its lets, its result and its outcome rules in one evaluation context
(``Runtime.reading``, made once for them all: a sweep resolves tens of thousands of joint
values). An error in any of them still points at that expression's own line and column in
the file, rolled or worked out exactly, whichever was read before it."""

from __future__ import annotations

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

RULESET = """\
ruleset: errs
name: Errors in a resolution
version: "1"
source: a test
license: none
checks:
  c:
    inputs:
      d: {type: integer, min: 0, max: 3}
      where: {type: choice, choices: [let, result, second_rule, tag]}
    roll: 1d6
    let:
      a: "roll + 1"
      b: "if(where == 'let', a / d, a)"
    result: "if(where == 'result', b / d, b)"
    outcomes:
      - {name: big, when: "b >= 100", success: true}
      - {name: odd, when: "where == 'second_rule' and b / d >= 1", success: true}
      - {name: other, success: false}
    tags:
      - {name: t, when: "where == 'tag' and b / d >= 1"}
"""
# (where, the line of the file the error is in: the expression's own)
PLACES = [("let", "b: \"if(where == 'let', a / d, a)\""),
          ("result", "result: \"if(where == 'result', b / d, b)\""),
          ("second_rule", "- {name: odd, when: \"where == 'second_rule' and b / d >= 1\", success: true}"),
          ("tag", "- {name: t, when: \"where == 'tag' and b / d >= 1\"}")]


@pytest.mark.parametrize("where, text", PLACES)
@pytest.mark.parametrize("how", ["roll", "odds"])
def test_an_error_points_at_its_own_expression(where, text, how):
    check = loads(RULESET, path="errs.yaml").check("c")
    with pytest.raises(RulesEngineError) as info:
        if how == "roll":
            check.roll({"d": 0, "where": where}, seed=1)
        else:
            check.odds({"d": 0, "where": where})
    loc = info.value.location
    assert "division by zero" in info.value.message
    lines = [line.strip() for line in RULESET.splitlines()]
    assert (loc.path, loc.line) == ("errs.yaml", lines.index(text) + 1)
    source_line = RULESET.splitlines()[loc.line - 1]
    start = source_line.index(" / d")  # 1-based, the division's left side: "a / d" or "b / d"
    assert (loc.column, loc.length) == (start, 5)


def test_the_same_rules_resolve_without_error_where_nothing_divides_by_zero():
    check = loads(RULESET, path="errs.yaml").check("c")
    odds = check.odds({"d": 1, "where": "second_rule"})
    assert odds.outcomes["odd"] == 1
