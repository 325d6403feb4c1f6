"""The text table gives a line for every reported value: numbers their statistics, and text
(a rank's name read from a table) its values with their percents, the likeliest first; an
outside author's Marvel rank (`report: [row]`) printed nothing but in `--json`."""

from __future__ import annotations

from fractions import Fraction

from rulesengine.present.text import VALUES_SHOWN, format_odds
from rulesengine.ruleset import loads

TEXT = """\
ruleset: grades
name: Grades
version: "1"
source: tests
tables:
  grade:
    ranges:
      - {max: 2, value: poor}
      - {min: 3, max: 4, value: fair}
      - {min: 5, max: 5, value: good}
      - {min: 6, value: great}
  letter:
    ranges:
      - {max: 1, value: a}
      - {min: 2, max: 2, value: b}
      - {min: 3, max: 3, value: c}
      - {min: 4, max: 4, value: d}
      - {min: 5, max: 5, value: e}
      - {min: 6, max: 6, value: f}
      - {min: 7, max: 7, value: g}
      - {min: 8, max: 8, value: h}
      - {min: 9, max: 9, value: i}
      - {min: 10, value: j}
checks:
  grade:
    roll: 1d6
    let:
      mark: grade(roll)
    result: roll
    outcomes:
      - {name: done, success: true}
    report: [mark]
  letters:
    roll: 1d10
    let:
      mark: letter(roll)
    result: roll
    outcomes:
      - {name: done, success: true}
    report: [mark]
"""


def test_a_text_value_is_listed_likeliest_first_with_its_percent():
    odds = loads(TEXT, "g.yaml").check("grade").odds({})
    assert dict(odds.values["mark"]) == {"poor": Fraction(1, 3), "fair": Fraction(1, 3), "good": Fraction(1, 6),
                                         "great": Fraction(1, 6)}
    line = next(x for x in format_odds(odds).splitlines() if x.startswith("mark:"))
    assert line == "mark: poor 33.33%, fair 33.33%, good 16.67%, great 16.67%"


def test_many_text_values_are_cut_to_a_line():
    odds = loads(TEXT, "g.yaml").check("letters").odds({})
    line = next(x for x in format_odds(odds).splitlines() if x.startswith("mark:"))
    assert line.count("10.00%") == VALUES_SHOWN and line.endswith(f"… ({10 - VALUES_SHOWN} more)")
