"""Settling what validate cannot decide (issue 32): a check's `examples:` are tests the file
carries, run by validate (a mismatch is an error at the example, E527; an example that reaches
an outcome settles W503 for it), and `allow: {CODE: reason}` on an outcome rule acknowledges
a warning there (a reason is required; an acknowledgement that answers no warning is W505)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from oracle import product_dist
from rulesengine import load
from rulesengine.cli import main
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.validate import validate_file

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
"""

TRAIT_AND_WILD = """    inputs:
      target: {type: integer, min: 2, max: 30}
    roll: max(1d8!, 1d6!)
    outcomes:
      - {name: raise, success: true, when: roll >= target + 4}
      - {name: success, success: true, when: roll >= target}
      - {name: failure, success: false}
"""

# A budget too small for the odds of two exploding dice: validate cannot decide any outcome.
SMALL = replace(DEFAULT_LIMITS, max_states=3000)


def report(tmp_path, body: str, limits=DEFAULT_LIMITS):
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return validate_file(str(path), limits)


def found(tmp_path, body: str, limits=DEFAULT_LIMITS) -> list[tuple[str, int, str]]:
    return [(d.code, d.location.line, d.message) for d in report(tmp_path, body, limits).diagnostics]


def line_of(body: str, text: str) -> int:
    """The file line (1-based, HEAD included) of the body's line holding ``text``."""
    lines = (HEAD + body).splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_an_example_with_faces_settles_could_not_decide_for_the_outcome_it_reaches(tmp_path):
    """An 8 exploding into a 3 (11) beside a 2 is a raise at target 4: the search, on a budget
    too small for the odds, could not decide 'raise'; the example shows it, the others stay."""
    assert max(8 + 3, 2) >= 4 + 4  # what the example's dice make, by hand
    without = {(c, m.split("'")[1]) for c, _, m in found(tmp_path, TRAIT_AND_WILD, SMALL)}
    assert without == {("W503", "raise"), ("W503", "success"), ("W503", "failure")}
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 4}, faces: [8, 3, 2], outcome: raise}
"""
    with_example = {(c, m.split("'")[1]) for c, _, m in found(tmp_path, body, SMALL)}
    assert with_example == {("W503", "success"), ("W503", "failure")}


def test_examples_reaching_every_outcome_make_a_check_pass_strict(tmp_path, capsys):
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 4}, faces: [8, 3, 2], outcome: raise}
      - {inputs: {target: 4}, faces: [5, 1], outcome: success}
      - {inputs: {target: 4}, faces: [2, 3], outcome: failure}
"""
    assert found(tmp_path, body, SMALL) == []
    assert main(["validate", "--strict", str(tmp_path / "t.yaml")]) == 0


def test_an_example_whose_faces_give_another_outcome_is_an_error_at_its_line(tmp_path):
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 4}, faces: [5, 1], outcome: raise}
"""
    (code, line, message), = found(tmp_path, body)
    assert (code, line) == ("E527", line_of(body, "faces: [5, 1]"))
    assert "give 'success', not 'raise'" in message
    diag, = report(tmp_path, body).diagnostics
    assert diag.severity == "error" and "--faces 5,1" in diag.hint


def test_an_example_without_faces_holds_when_its_outcome_has_a_chance_with_its_inputs(tmp_path):
    body = """    roll: 3d6
    outcomes:
      - {name: top, success: true, when: roll == 18}
      - {name: other, success: false}
    examples:
      - {outcome: top}
"""
    assert product_dist([range(1, 7)] * 3, lambda a, b, c: a + b + c == 18)[True] == Fraction(1, 216)
    assert found(tmp_path, body) == []


def test_an_example_of_an_outcome_its_inputs_can_never_give_is_an_error(tmp_path):
    """Against a target of 18 on 3d6, `roll > target` has no chance (brute force below)."""
    body = """    inputs:
      target: {type: integer, default: 10, min: 3, max: 18}
    roll: 3d6
    outcomes:
      - {name: beaten, success: true, when: roll > target}
      - {name: held, success: false}
    examples:
      - {inputs: {target: 18}, outcome: beaten}
"""
    assert True not in product_dist([range(1, 7)] * 3, lambda a, b, c: a + b + c > 18)
    (code, line, message), = found(tmp_path, body)
    assert (code, line) == ("E527", line_of(body, "target: 18}, outcome"))
    assert "'beaten' can never happen with target=18" in message


def test_an_example_too_big_for_the_odds_must_give_its_faces(tmp_path):
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 4}, outcome: raise}
"""
    diag = next(d for d in report(tmp_path, body, SMALL).diagnostics if d.code == "E527")
    assert "cannot be checked" in diag.message and "faces" in diag.hint


def test_an_example_naming_no_outcome_of_the_check_gets_the_nearest(tmp_path):
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 4}, faces: [8, 3, 2], outcome: rise}
"""
    diag = next(d for d in report(tmp_path, body).diagnostics if d.severity == "error")
    assert diag.code == "E503" and diag.hint == "did you mean 'raise'?"
    assert diag.location.line == line_of(body, "outcome: rise")


def test_an_example_the_check_refuses_is_that_error_at_the_example(tmp_path):
    """Inputs out of bounds, too few faces: the engine's own error, at the example's line."""
    body = TRAIT_AND_WILD + """    examples:
      - {inputs: {target: 40}, outcome: raise}
      - {inputs: {target: 4}, faces: [8], outcome: raise}
"""
    got = [(c, line) for c, line, _ in found(tmp_path, body) if c.startswith("E")]
    assert got == [("E601", line_of(body, "target: 40")), ("E204", line_of(body, "faces: [8]"))]


EXPLOSION = """    roll: 1d6!
    outcomes:
      - {name: legend, success: true, when: roll > 100%s}
      - {name: other, success: false}
"""


def test_an_acknowledged_warning_is_not_reported_and_strict_passes(tmp_path, capsys):
    """Over 100 on 1d6! takes seventeen 6s: past the explosions the odds follow, so validate
    cannot decide it; the author says why it is there, and --strict passes."""
    assert [c for c, _, _ in found(tmp_path, EXPLOSION % "")] == ["W503"]
    body = EXPLOSION % ', allow: {W503: "seventeen 6s in a row: rare on purpose"}'
    assert found(tmp_path, body) == []
    assert main(["validate", "--strict", str(tmp_path / "t.yaml")]) == 0


def test_acknowledging_a_warning_that_does_not_fire_is_a_warning_at_its_code(tmp_path):
    body = """    roll: 3d6
    outcomes:
      - {name: top, success: true, when: roll == 18, allow: {W503: "rare"}}
      - {name: other, success: false}
"""
    diag, = report(tmp_path, body).diagnostics
    assert (diag.code, diag.severity, diag.location.line) == ("W505", "warning", line_of(body, "allow:"))
    assert diag.location.column == (HEAD + body).splitlines()[diag.location.line - 1].index("W503") + 1
    assert "does not report W503 there" in diag.message and "remove 'W503'" in diag.hint


def test_acknowledging_a_code_that_is_no_warning_is_a_warning_with_the_nearest(tmp_path):
    body = EXPLOSION % ', allow: {W530: "typo"}'
    codes = sorted(c for c, _, _ in found(tmp_path, body))
    assert codes == ["W503", "W505"]
    diag = next(d for d in report(tmp_path, body).diagnostics if d.code == "W505")
    assert "no warning code" in diag.message and diag.hint.startswith("did you mean W5")


def test_an_acknowledgement_needs_a_reason_and_only_warnings_can_be_acknowledged(tmp_path):
    for allow, hint in (('{W503: ""}', "the reason"), ('{W503: "  "}', "the reason"),
                        ('{E512: "it falls through, fine"}', "only warnings can be acknowledged"),
                        ("{}", None)):
        diags = report(tmp_path, EXPLOSION % f", allow: {allow}").diagnostics
        assert [d.code for d in diags] in (["E404"], ["E401"]), (allow, diags)
        assert hint is None or hint in (diags[0].hint or ""), (allow, diags[0].hint)


def test_examples_and_acknowledgements_change_nothing_the_file_answers(tmp_path):
    body = TRAIT_AND_WILD.replace("when: roll >= target}", 'when: roll >= target, allow: {W503: "why"}}') + \
        """    examples:
      - {inputs: {target: 4}, faces: [8, 3, 2], outcome: raise}
"""
    plain, settled = tmp_path / "plain.yaml", tmp_path / "settled.yaml"
    plain.write_text(HEAD + TRAIT_AND_WILD, encoding="utf-8")
    settled.write_text(HEAD + body, encoding="utf-8")
    a, b = load(str(plain)).check("c"), load(str(settled)).check("c")
    assert a.odds({"target": 6}).outcomes == b.odds({"target": 6}).outcomes
    assert b.roll({"target": 4}, faces=[8, 3, 2]).outcome == "raise"


def test_an_example_a_gate_decides_rolls_no_dice(tmp_path):
    body = """    inputs:
      skill: {type: integer, default: 10, min: 0, max: 20}
    gates:
      - {when: skill < 3, outcome: not_allowed, reason: too low}
    roll: 3d6
    outcomes:
      - {name: success, success: true, when: roll <= skill}
      - {name: failure, success: false}
    examples:
      - {inputs: {skill: 2}, faces: [], outcome: not_allowed}
      - {inputs: {skill: 2}, outcome: not_allowed}
      - {inputs: {skill: 3}, faces: [], outcome: not_allowed}
"""
    (code, line, _), = found(tmp_path, body)
    assert (code, line) == ("E204", line_of(body, "skill: 3}, faces: []"))
