"""A sweep whose first value a gate decides (no dice: not allowed) still shows the result's
mean and its `--at-least` chances in the other rows, "-" in that one (an outside author's
Mouse Guard swept skill=0..6: the mean column was left out of every row, and `--at-least`
refused "for a result that is a number")."""

from __future__ import annotations

from fractions import Fraction

from rulesengine.present.sweep_table import format_sweep
from rulesengine.ruleset import loads
from rulesengine.run.sweep import sweep

TEXT = """\
ruleset: gated
name: Gated
version: "1"
source: tests
checks:
  test:
    inputs:
      skill: {type: integer, min: 0, max: 3}
    gates:
      - {when: "skill < 1", outcome: not_allowed, reason: no dice to roll}
    roll: (skill)d6
    result: count(roll, 4, 6)
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""


def test_the_mean_and_at_least_columns_stay_with_a_dash_where_a_gate_decides():
    swept = sweep(loads(TEXT, "g.yaml").check("test"), {"skill": "0..3"}, {})
    assert swept.numeric()
    lines = format_sweep(swept, at_least=[2]).splitlines()
    assert "mean result" in lines[0] and "result >= 2" in lines[0]
    assert lines[1].split()[-2:] == ["-", "-"]
    for skill, line in zip(range(1, 4), lines[2:], strict=True):  # successes of skill d6 at 4+: skill/2
        mean, at_least = line.split()[-2:]
        assert float(mean) == skill / 2
        two_or_more = 1 - Fraction(1, 2 ** skill) - skill * Fraction(1, 2 ** skill)
        assert at_least == f"{round(two_or_more * 1000) / 10:.1f}%"
