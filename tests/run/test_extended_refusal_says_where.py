"""An extended check too big to work out exactly says where its walk got to: the round that
did not fit and how many states were still going (an outside author's Ten Candles pool, whose
state kept a count of the rolls won only to report it, was refused "over 41 rounds" at 40 that
fit, and the hint said nothing of what grew). The round said is the first that does not fit:
one round fewer is answered under the same budget."""

from __future__ import annotations

import re

import pytest

from rulesengine.errors import LimitError
from rulesengine.limits import Limits
from rulesengine.ruleset import loads

TEXT = """\
ruleset: candles
name: Candles
version: "1"
source: tests
checks:
  roll:
    inputs:
      dice: {type: integer, min: 1, max: 10}
    roll: (dice)d6
    let:
      ones: count(roll, 1)
    result: count(roll, 6)
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
    report: [ones]
procedures:
  dwindle:
    kind: extended
    check: roll
    inputs:
      limit: {type: integer, min: 1, max: 100}
    state: {pool: 6, won: 0}
    round_inputs:
      dice: pool
    each_round:
      - when: success
        set: {pool: pool - ones, won: won + 1}
      - set: {pool: pool - ones}
    succeed_when: pool == 0
    max_rounds: limit
    report:
      rolls_won: won
"""


def test_the_refusal_names_the_first_round_that_does_not_fit():
    rs = loads(TEXT, "candles.yaml", Limits(max_states=200_000))
    with pytest.raises(LimitError) as info:
        rs.procedure("dwindle").odds({"limit": 60})
    found = re.search(r"round (\d+) of 60, with ([\d,]+) states still going", info.value.message)
    assert found, info.value.message
    stopped = int(found.group(1))
    assert 1 < stopped <= 60 and int(found.group(2).replace(",", "")) > 1
    assert "fewer values in the state" in info.value.hint
    fits = rs.procedure("dwindle").odds({"limit": stopped - 1})
    assert fits.to_dict()["outcomes"]
