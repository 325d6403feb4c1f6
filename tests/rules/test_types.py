"""Static types of expressions (rulesengine/rules/types.py, issue 13 part 1 and 2): what would
fail, or silently never match, at the table is an error when the file is read — and nothing
that works is refused. Each test names the rule it checks; the corpus (tests/corpus/broken/
E52x_*.yaml) has one realistic file per code."""

from __future__ import annotations

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads
from rulesengine.validate import validate_file

HEAD = """ruleset: t
name: T
version: "1"
source: tests
"""


def codes(tmp_path, body: str) -> list[str]:
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return [d.code for d in validate_file(str(path)).diagnostics if d.severity == "error"]


CHECK = """checks:
  c:
    inputs:
      skill: {type: integer, min: 1, max: 20}
      edge: {type: choice, choices: [normal, advantage], default: normal}
      braced: {type: boolean, default: false}
      pool: {type: dice_pool, default: d8/d6}
    roll: 3d6
    result: %(result)s
    outcomes:
      - {name: crit, success: true, when: "%(when)s"}
      - {name: ok, success: true, when: result >= 0}
      - {name: fail, success: false}
    tags:
      - {name: t, when: "%(tag)s"}
"""


def check(result: str = "skill - roll", when: str = "roll <= 4", tag: str = "outcome == 'crit'") -> str:
    return CHECK % {"result": result, "when": when, "tag": tag}


@pytest.mark.parametrize("result, when, tag", [
    ("skill - roll", "roll <= 4", "outcome == 'crit'"),
    ("if(braced, skill + 2, skill) - roll", "count(roll, 1) >= 2 or highest(roll) == 1", "not success"),
    ("max(1, skill) - roll + count(pool)", "edge == 'advantage' and roll <= 5", "outcome != 'not_allowed'"),
    ("skill - roll", "given(skill) and braced", "result >= 3 and outcome == 'ok'"),
])
def test_well_typed_checks_are_clean(tmp_path, result, when, tag):
    assert codes(tmp_path, check(result, when, tag)) == []


@pytest.mark.parametrize("when, code", [
    ("skill - roll", "E520"),       # a number where a condition belongs
    ("'crit'", "E520"),             # text where a condition belongs
    ("not skill", "E523"),          # not on a number
    ("roll <= 4 and skill", "E523"),  # and on a number
    ("edge > 2", "E523"),           # ordering text
    ("edge == 2", "E523"),          # text compared with a number
    ("braced == 1", "E523"),        # yes/no compared with a number
    ("edge == 'advantge'", "E524"),  # a choice it never has
    ("if(skill, true, false)", "E520"),  # if()'s condition
])
def test_a_condition_that_would_fail_or_never_match_is_an_error(tmp_path, when, code):
    assert code in codes(tmp_path, check(when=when))


@pytest.mark.parametrize("result, code", [
    ("roll <= skill", "E521"),                  # a result that is yes/no
    ("if(braced, roll <= skill, skill - roll)", "E522"),  # branches of different kinds
    ("skill - roll + braced", "E523"),          # arithmetic on yes/no
    ("skill - roll + edge", "E523"),            # arithmetic on text
    ("-braced", "E523"),                        # negating yes/no
])
def test_a_result_that_is_not_a_number_is_an_error(tmp_path, result, code):
    assert code in codes(tmp_path, check(result=result))


def test_an_outcome_name_compared_in_a_tag_must_exist(tmp_path):
    found = codes(tmp_path, check(tag="outcome == 'critical'"))
    assert found == ["E524"]


def test_not_allowed_is_an_outcome_every_check_can_compare_with(tmp_path):
    assert codes(tmp_path, check(tag="outcome == 'not_allowed'")) == []


def test_a_type_error_refuses_the_file_in_load_too():
    with pytest.raises(RulesEngineError) as info:
        loads(HEAD + check(when="skill - roll"), "t.yaml")
    assert info.value.code == "E520"


def test_the_error_points_at_the_offending_part_of_the_expression(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + check(result="skill - roll + braced"), encoding="utf-8")
    (diag,) = [d for d in validate_file(str(path)).diagnostics if d.severity == "error"]
    line = diag.location.source_line
    assert line[diag.location.column - 1:].startswith("braced"), (line, diag.location.column)


def test_names_whose_kind_is_unknown_are_never_refused(tmp_path):
    """A procedure's state and party values are not typed: nothing about them is claimed."""
    body = check() + """procedures:
  long_task:
    kind: extended
    check: c
    state: {progress: 0, label: "'none'"}
    each_round:
      - when: success
        set: {progress: progress + result, label: "'some'"}
    succeed_when: progress >= 10 and label == 'some'
    fail_when: outcome == 'fail'
    max_rounds: 5
"""
    assert codes(tmp_path, body) == []


def long_task(when: str, succeed_when: str) -> str:
    return check() + f"""procedures:
  long_task:
    kind: extended
    check: c
    state: {{progress: 0}}
    each_round:
      - when: {when}
        set: {{progress: progress + result}}
    succeed_when: {succeed_when}
"""


def test_a_procedure_condition_that_is_a_number_is_an_error(tmp_path):
    body = long_task("success", "10 - progress") + """    fail_when: outcome == 'fial'
    max_rounds: 5
"""
    assert sorted(codes(tmp_path, body)) == ["E520", "E524"]


def test_an_expression_shared_by_an_alias_may_name_a_choice_only_some_checks_offer(tmp_path):
    """The same let (a YAML alias) in two checks: `kind == 'passive'` is fine where 'passive'
    is a choice; in a check that offers only 'secret' it is simply false (the shipped
    spycraft-2e ruleset does this)."""
    body = """checks:
  a:
    inputs:
      kind: {type: choice, choices: [active, passive], default: active}
    let: &lets
      spent: if(kind == 'passive', 0, 1)
    roll: 1d20
    result: roll + spent
    outcomes: [{name: ok, success: true}]
  b:
    inputs:
      kind: {type: choice, choices: [secret], default: secret}
    let: *lets
    roll: 1d20
    result: roll + spent
    outcomes: [{name: ok, success: true}]
"""
    assert codes(tmp_path, body) == []
    assert "E524" in codes(tmp_path, body.replace("kind == 'passive'", "kind == 'pasive'"))


def test_a_file_with_other_errors_is_not_type_checked_half_built(tmp_path):
    """Found by the mutation fuzzer: a procedure whose expression failed to build (None in
    its spec) crashed the type pass; types are worked out only on a fully built model."""
    body = long_task("sucess", "progress >= 10") + """    max_rounds: 5
"""
    assert codes(tmp_path, body) == ["E502"]


def test_the_reserved_result_keys_are_the_keys_a_rolled_check_writes():
    """RESULT_KEYS (rules layer) must name every key CheckResult.to_dict() writes besides the
    reported values, so that a reported value can never overwrite one (W504 warns of such a name)."""
    from rulesengine.rules.build import RESULT_KEYS
    from rulesengine.ruleset import load

    written: set[str] = set()
    rs = load("mudd")
    chk = rs.check("action")
    inputs = {"pool": "d8/d4/d4", "precision_target": 5, "impact_target": 2}
    for seed in range(20):
        result = chk.roll(inputs, seed=seed)
        written |= set(result.to_dict()) - set(result.values)
    gurps = load("gurps-4e").check("success_roll").roll({"skill": 2})  # not allowed: a reason
    written |= set(gurps.to_dict()) - set(gurps.values)
    assert written <= RESULT_KEYS, written - RESULT_KEYS
    assert {"dice", "inputs", "trace", "result", "outcome"} <= written


def test_arithmetic_on_the_result_of_a_check_that_defines_none_is_an_error(tmp_path):
    """Found by the promise fuzz: a check without `result:` (nor any rule setting one) has
    nothing as its result; a contest's winner_result computing with it failed every roll."""
    body = """checks:
  c:
    roll: 3d6
    outcomes:
      - {name: low, success: true, when: roll <= 10}
      - {name: high, success: false}
procedures:
  duel:
    kind: contest
    check: c
    rank_by: [roll]
    winner_result: result - runner_up
"""
    assert set(codes(tmp_path, body)) == {"E523"}  # result and runner_up: both nothing
    assert codes(tmp_path, body.replace("    roll: 3d6\n", "    roll: 3d6\n    result: roll\n")) == []
