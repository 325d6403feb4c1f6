"""A contest too big to work out exactly says why: how many results of each party's check it
compares and the line-ups they make, and a fix that fits (an outside author's Sorcerer, two
pools of four d10 read as one number each: the hint said "use fewer parties" of a contest of
two, the fewest it allows)."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from rulesengine.errors import LimitError
from rulesengine.ruleset import loads

TEXT = """\
ruleset: pools
name: Opposed pools
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, min: 1, max: 8}
    roll: (dice)d10
    let:
      key: "highest(roll) * 1000 + lowest(roll) * 100 + roll"
    result: key
    outcomes:
      - {name: rolled, success: true}
procedures:
  opposed:
    kind: contest
    check: pool
    parties: {min: 2, max: 3}
    rank_by: [result]
    ties: stand
"""


def _refusal(parties: int) -> LimitError:
    with pytest.raises(LimitError) as info:
        loads(TEXT, "pools.yaml").procedure("opposed").odds({}, parties=[{"dice": 8}] * parties)
    return info.value


def test_a_two_party_contest_too_big_counts_its_line_ups_and_asks_for_fewer_dice():
    err = _refusal(2)
    results = len({max(t) * 1000 + min(t) * 100 + sum(t) for t in combinations_with_replacement(range(1, 11), 8)})
    assert err.limit == "max_states"
    assert f"{results:,} × {results:,} different results" in err.message
    assert f"make {results * results:,} line-ups" in err.message
    assert "fewer dice" in err.hint and "parties" not in err.hint


def test_a_contest_of_more_parties_than_the_fewest_may_drop_one():
    assert "fewer parties" in _refusal(3).hint
