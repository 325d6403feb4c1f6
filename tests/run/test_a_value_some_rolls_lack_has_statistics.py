"""A reported value that only some rolls give (a margin, given on a success) has statistics:
the mean, variance, min and max of the rolls that give it, and how often none is given
(``no_value``). An outside author's Storypath margin had ``{"kind": "other"}`` and no line
in the text table, though it is a number wherever it is given.

Oracle: every throw of the pool, the margin worked out by hand where the check succeeds."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rulesengine.present.text import format_odds
from rulesengine.ruleset import loads

TEXT = """\
ruleset: margins
name: Margins
version: "1"
source: tests
checks:
  action:
    inputs:
      dice: {type: integer, min: 1, max: 6}
      difficulty: {type: integer, min: 1, max: 6}
    roll: (dice)d10
    let:
      successes: count(roll, 8, 10)
      margin:
        best_of:
          - {value: successes - difficulty, when: successes >= difficulty}
    result: successes
    outcomes:
      - {name: success, when: "successes >= difficulty", success: true}
      - {name: failure, success: false}
    report: [margin]
"""


def margins(dice: int, difficulty: int) -> dict[int | None, Fraction]:
    out: dict[int | None, Fraction] = {}
    for throw in itertools.product(range(1, 11), repeat=dice):
        s = sum(f >= 8 for f in throw)
        m = s - difficulty if s >= difficulty else None
        out[m] = out.get(m, Fraction(0)) + Fraction(1, 10 ** dice)
    return out


def test_a_margin_given_on_a_success_has_the_statistics_of_the_successes():
    odds = loads(TEXT, "margins.yaml").check("action").odds({"dice": 4, "difficulty": 2})
    truth = margins(4, 2)
    assert dict(odds.values["margin"]) == truth  # the distribution keeps its null, as before
    given = {m: p for m, p in truth.items() if m is not None}
    mass = sum(given.values())
    mean = sum(m * p for m, p in given.items()) / mass
    variance = sum(m * m * p for m, p in given.items()) / mass - mean ** 2
    stats = odds.to_dict()["stats"]["values"]["margin"]
    assert stats["kind"] == "number" and Fraction(stats["mean_exact"]) == mean
    assert Fraction(stats["variance_exact"]) == variance and (stats["min"], stats["max"]) == (0, 2)
    assert Fraction(stats["no_value"]) == truth[None] == 1 - mass
    line = next(x for x in format_odds(odds).splitlines() if x.startswith("margin:"))
    assert line.endswith(f"(of the {float(mass) * 100:.2f}% with a value)")


def test_a_value_every_roll_gives_says_nothing_of_no_value():
    odds = loads(TEXT.replace("report: [margin]", "report: [successes]"), "m.yaml").check("action").odds(
        {"dice": 2, "difficulty": 1})
    assert "no_value" not in odds.to_dict()["stats"]["values"]["successes"]
