"""An extended check's odds report each state value's distribution at the end (issue 15): the
task succeeded, failed, or is still going after the last round. Checked against walking
every sequence of rolls by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rulesengine.ruleset import loads

RULESET = """ruleset: t
name: T
version: "1"
source: tests
checks:
  dig:
    roll: 1d3
    result: roll
    outcomes: [{name: done, success: true}]
procedures:
  tunnel:
    kind: extended
    check: dig
    state: {depth: 0, tired: 0}
    each_round:
      - when: result == 1
        set: {tired: tired + 1}
      - set: {depth: depth + result}
    succeed_when: depth >= 5
    fail_when: tired >= 2
    max_rounds: 4
"""


def by_hand() -> dict[str, dict[int, Fraction]]:
    ends: dict[str, dict[int, Fraction]] = {"depth": {}, "tired": {}}
    for rolls in itertools.product((1, 2, 3), repeat=4):
        depth = tired = 0
        for r in rolls:  # the first matching round rule applies, then succeed_when, fail_when
            if r == 1:
                tired += 1
            else:
                depth += r
            if depth >= 5 or tired >= 2:
                break
        for name, v in (("depth", depth), ("tired", tired)):
            ends[name][v] = ends[name].get(v, 0) + Fraction(1, 81)
    return ends


def test_each_state_values_distribution_at_the_end_matches_walking_every_roll():
    odds = loads(RULESET, "t.yaml").procedure("tunnel").odds({})
    assert odds.end_state == {k: dict(sorted(v.items())) for k, v in by_hand().items()}
    data = odds.to_dict()
    assert set(data["end_state"]) == {"depth", "tired"}
    assert data["by_round"][0]["failed_exact"] == "0/1"
