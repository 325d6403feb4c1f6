"""validate's search over a check's inputs (rulesengine/run/reach.py, issue 13 part 3): outcome
rules that can fall through are an error with the inputs that show it, a warning only when
the search could not prove they can't, and nothing when it proved it; an outcome nobody
reached is claimed "never" only for input combinations actually worked out."""

from __future__ import annotations

from rulesengine.validate import validate_file

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
"""


def found(tmp_path, body: str) -> list[tuple[str, str]]:
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return [(d.code, d.message) for d in validate_file(str(path)).diagnostics]


def test_rules_that_cover_every_roll_of_bounded_inputs_are_proven_complete(tmp_path):
    """skill 3..18 against 3d6: `roll <= skill` or `roll > skill` covers every roll; all 16
    input values are worked out, so no catch-all is needed and nothing is said."""
    body = """    inputs:
      skill: {type: integer, min: 3, max: 18}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false, when: roll > skill}
"""
    assert found(tmp_path, body) == []


def test_rules_that_miss_a_roll_for_some_input_are_an_error_naming_the_inputs(tmp_path):
    """The gap: a 17 or 18 at skill 17 or more matches neither rule."""
    body = """    inputs:
      skill: {type: integer, min: 3, max: 20}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill and roll <= 16}
      - {name: failure, success: false, when: roll > skill}
"""
    (code, message), = [(c, m) for c, m in found(tmp_path, body) if c.startswith("E")]
    assert code == "E512"
    assert "with skill=" in message


def test_rules_over_an_unbounded_input_get_a_warning_not_a_claim(tmp_path):
    body = """    inputs:
      skill: {type: integer}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false, when: roll > skill}
"""
    assert [c for c, _ in found(tmp_path, body)] == ["W502"]


def test_an_outcome_that_no_input_can_reach_is_said_to_be_impossible_only_after_all_were_tried(tmp_path):
    body = """    inputs:
      bonus: {type: integer, min: 0, max: 2}
    roll: 3d6
    result: roll + bonus
    outcomes:
      - {name: legendary, success: true, when: result > 20}
      - {name: normal, success: true}
"""
    (code, message), = found(tmp_path, body)
    assert code == "W503" and "can never happen" in message and "all 3 worked out" in message


def test_combinations_that_could_not_be_worked_out_make_the_warning_undecided(tmp_path):
    """A pool of 60 dice is too big for the search's small budget at every input: the
    search cannot tell, and says so instead of claiming the outcome never happens."""
    body = """    inputs:
      dice: {type: integer, min: 59, max: 60}
    roll: (dice)d6
    result: roll
    outcomes:
      - {name: many_sixes, success: true, when: "count(roll, 6) >= 30"}
      - {name: other, success: false}
"""
    messages = [m for c, m in found(tmp_path, body) if c == "W503"]
    assert messages and all(m.startswith("could not decide") for m in messages), messages
