"""Every mistake the ruleset builder reports says what to do (the house's promise: errors at
file:line:col that name the fix). Each site that reports an error passes a hint, checked in
the source, and a file with each mistake gets its hint, checked by loading it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulesengine.validate import validate_text

RULES = Path(__file__).resolve().parents[2] / "rulesengine" / "rules"


def test_every_error_the_builder_reports_passes_a_hint():
    bare = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "error" \
                    and len(node.args) <= 3 and "hint" not in {k.arg for k in node.keywords}:
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


HEAD = 'ruleset: m\nname: M\nversion: "1"\nsource: tests\n'
CHECK = """checks:
  c:
{inputs}    roll: 1d20
    result: roll
{extra}    outcomes:
      - {{name: ok, success: true, when: "roll >= 10"}}
      - {{name: fail, success: false}}
"""


def check(inputs: str = "", extra: str = "") -> str:
    return CHECK.format(inputs=inputs, extra=extra)


@pytest.mark.parametrize(("text", "hint"), [
    (HEAD + "tables:\n  t:\n    ranges:\n      - {min: 5, max: 3, value: 1}\n" + check(), "min: 3, max: 5"),
    (HEAD + "tables:\n  t:\n    grid:\n      columns: [a, a]\n      rows:\n        r: [1, 2]\n" + check(),
     "repeated: a"),
    (HEAD + "tables:\n  t:\n    grid:\n      columns: [a, b]\n      rows:\n        r: [1]\n" + check(),
     "one value for each column, in order: a, b"),
    (HEAD + "tables:\n  t:\n    tiers:\n      - {min: 5, label: good}\n      - {min: 1, label: ok}\n" + check(),
     "ok (min 1), good (min 5)"),
    (HEAD + "tables:\n  t:\n    tiers:\n      - {min: 1, label: ok}\n      - {min: 5, label: ok}\n" + check(),
     "its own label"),
    (HEAD + check("    inputs:\n      n: {type: integer, min: 9, max: 2}\n"), "min: 2, max: 9"),
    (HEAD + check("    inputs:\n      n: {type: integer, min: 1, max: 5, default: 7}\n"), "widen the bounds"),
    (HEAD + check("    inputs:\n      n: {type: integer, default: high}\n"), "whole number without quotes"),
    (HEAD + "tables:\n  d:\n    ladder: {easy: 2, hard: -2}\n"
     + check("    inputs:\n      n: {type: integer, default: medium, labels: d}\n"), "steps: easy, hard"),
    (HEAD + "tables:\n  d:\n    ranges:\n      - {min: 1, max: 2, value: 1}\n"
     + check("    inputs:\n      n: {type: integer, labels: d}\n"), "name a ladder table"),
    (HEAD + check(extra="    tiers: nope\n"), "declare a tiers table"),
    (HEAD + check(extra="    secret: roll >= 5\n"), "values that read no roll"),
    (HEAD + check("    inputs:\n      result: {type: integer}\n"), "rename the input"),
    (HEAD + check(extra="    let:\n      roll: 1\n"), "rename the value"),
    (HEAD + "checks:\n  c:\n    roll: 1d20\n    result: roll\n    outcomes:\n"
     "      - {name: ok, success: true, when: \"roll >= 10\"}\n      - {name: ok, success: false}\n", "its own name"),
])
def test_each_mistake_is_told_with_its_fix(text, hint):
    errors = [d for d in validate_text(text, "m.yaml").diagnostics if d.severity == "error"]
    assert errors, text
    assert any(d.hint and hint in d.hint for d in errors), [(d.code, d.message, d.hint) for d in errors]


@pytest.mark.parametrize("part, shape", [
    # tags as a mapping of name to condition (an outside author's first try): each tag a line
    ("    tags:\n      glitched: roll >= 17\n",
     "write a list, one item a line starting with '- ', e.g. - {name: threat, when: \"natural >= threat_range"),
    # a check's report as a mapping: a list of names
    ("    report: {doubles: roll}\n", "write a list, e.g. ["),
    # a choice input's choices as one word
    ("", "write a list, e.g. [none, minor, major]"),
])
def test_a_list_written_otherwise_gets_a_hint_with_the_lists_shape(part, shape):
    inputs = "    inputs:\n      x: {type: choice, choices: a}\n" if not part else ""
    text = HEAD + f"checks:\n  c:\n{inputs}    roll: 3d6\n    result: roll\n" \
        + "    outcomes:\n      - {name: ok, success: true}\n" + part
    (found,) = [d for d in validate_text(text, "t.yaml").diagnostics if d.code == "E401"]
    assert found.message.startswith("expected a list")
    assert found.hint.startswith(shape), found.hint
