"""A procedure's report value reads the report values listed above it, as a let reads the lets
above it (an outside author's Sorcerer: the victories read the loser's highest die, itself a
report value, and got "unknown name" once for every use, 19 errors for two names). One named
as a name the report may read already leaves that name as it was, so no file that loaded
before reads otherwise.

Oracle: every throw of the two pools, the contest's winner and runner-up taken by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from rulesengine.ruleset import loads
from rulesengine.validate import validate_text

TEXT = """\
ruleset: reports
name: Reports that read reports
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 3}
    roll: (dice)d6
    result: roll
    outcomes:
      - {name: rolled, success: true}
procedures:
  opposed:
    kind: contest
    check: pool
    parties: {min: 2, max: 2}
    rank_by: [result]
    ties: stand
    report:
      top: result
      margin: top - runner_up
      big: "if(margin >= 3, margin * 2, 0)"
"""


def oracle() -> tuple[dict[str, Counter], int]:
    """Each report value's weight over every throw of 2d6 against 1d6 (a tie has none)."""
    out: dict[str, Counter] = {"top": Counter(), "margin": Counter(), "big": Counter()}
    throws = 0
    for a, b, c in itertools.product(range(1, 7), repeat=3):
        throws += 1
        one, two = a + b, c
        if one == two:
            continue
        top, margin = max(one, two), abs(one - two)
        for name, v in (("top", top), ("margin", margin), ("big", margin * 2 if margin >= 3 else 0)):
            out[name][v] += 1
    return out, throws


def test_a_report_value_reads_the_values_above_it():
    proc = loads(TEXT, "reports.yaml").procedure("opposed")
    odds = proc.odds({}, parties=[{"dice": 2}, {"dice": 1}])
    weights, throws = oracle()
    for name, counts in weights.items():
        assert dict(odds.report[name]) == {v: Fraction(n, throws) for v, n in counts.items()}, name
    for seed in range(20):  # rolled: the same values from the parties' results
        rolled = proc.roll({}, parties=[{"dice": 2}, {"dice": 1}], seed=seed).to_dict()
        results = [p["result"] for p in rolled["parties"]]
        if rolled["tie"]:
            assert rolled["report"] == {}
            continue
        margin = max(results) - min(results)
        assert rolled["report"] == {"top": max(results), "margin": margin, "big": 2 * margin if margin >= 3 else 0}


def test_a_value_listed_below_is_said_to_be_below_once():
    text = TEXT.replace("top: result\n      margin: top - runner_up", "margin: top - runner_up + top\n      top: result")
    report = validate_text(text, "reports.yaml")
    unknown = [d for d in report.diagnostics if d.code == "E502"]
    assert len(unknown) == 1  # 'top' twice in one expression: said once, at its first use
    assert unknown[0].message == "unknown name 'top' in report 'margin'"
    assert unknown[0].hint == "'top' is a report value listed below 'margin': a report value reads those above it"


def test_a_report_value_named_as_a_name_it_may_read_leaves_that_name_as_it_was():
    text = TEXT.replace("top: result\n", "result: result * 10\n      top: result\n")
    odds = loads(text, "reports.yaml").procedure("opposed").odds({}, parties=[{"dice": 2}, {"dice": 1}])
    weights, throws = oracle()
    assert dict(odds.report["top"]) == {v: Fraction(n, throws) for v, n in weights["top"].items()}
    assert set(odds.report["result"]) == {10 * v for v in weights["top"]}
