"""`odds` as text folds the runs of rows at the ends of a distribution that are below
0.005 % each into one "rest" row with their total, as `dice --odds` does: twelve exploding
d10s have results from 0 to 132, most of them below 10^-6, and the table printed them all.
The exact figures stay in `--exact`, `--csv` and JSON."""

from __future__ import annotations

from fractions import Fraction

from rulesengine.present.dice_table import REST_BELOW, pct
from rulesengine.present.text import format_odds
from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      dice: {type: integer, min: 1, max: 40}
    roll: (dice)d10!cs>=8
    result: roll
    outcomes:
      - {name: hit, when: "result >= 3", success: true}
      - {name: miss, success: false}
"""


def result_rows(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("result ") and "at least" in line)
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or not (line.strip()[0].isdigit()):
            break
        rows.append(line)
    return rows


def test_the_tails_below_the_rest_line_are_one_row_each_with_their_total():
    odds = loads(RULESET).check("c").odds({"dice": 12})
    dist = odds.result_distribution
    rows = result_rows(format_odds(odds))
    values = sorted(dist)
    shown = [v for v in values if dist[v] >= REST_BELOW]
    lead = [v for v in values if v < shown[0]]
    trail = [v for v in values if v > shown[-1]]
    assert len(trail) > 100  # the case this is for: results to 132, nearly all of them tiny
    assert len(rows) == len(shown) + bool(len(lead) >= 2) + bool(len(trail) >= 2)
    last = rows[-1].split()
    assert last[0] == f"{trail[0]}..{trail[-1]}"
    assert last[1] == pct(sum((dist[v] for v in trail), Fraction(0)))
    assert f"({len(trail)} values under 0.005% each)" in rows[-1]
    # every row between is one value, in order
    middle = rows[1:-1] if len(lead) >= 2 else rows[:-1]
    assert [int(r.split()[0]) for r in middle] == shown


def test_the_exact_table_keeps_every_row():
    odds = loads(RULESET).check("c").odds({"dice": 12})
    rows = result_rows(format_odds(odds, exact=True))
    assert [int(r.split()[0]) for r in rows] == sorted(odds.result_distribution)


def test_a_table_with_no_tiny_tail_is_as_it_was():
    odds = loads(RULESET.replace("d10!cs", "d10cs")).check("c").odds({"dice": 3})
    rows = result_rows(format_odds(odds))
    assert [int(r.split()[0]) for r in rows] == sorted(odds.result_distribution)
