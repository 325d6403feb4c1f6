"""A roll of several dice terms read through its highest or lowest die (``lowest(roll)`` of
``(a)d6 + 2d4``) is worked out term by term, each term's readings joined. A term of no dice
(``a`` = 0) has no lowest: it was read as 0, so every joined roll's lowest was 0 and
P(lowest = 1) came out 0 where it is 7/16. The oracle lists every throw."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesengine import loads

RULESET = """\
ruleset: joined
name: Joined rolls with a term of no dice
version: "1"
source: tests
checks:
  c:
    inputs:
      a: {{type: integer, min: 0, max: 2}}
    roll: {roll}
    let:
      read: {read}(roll)
    result: read
    outcomes:
      - {{name: hit, when: "read >= 1", success: true}}
      - {{name: miss, success: false}}
"""

FUDGE = (-1, 0, 1)


def throws(a: int, first: tuple[int, ...], second: tuple[int, ...], n: int):
    return itertools.product(*([first] * a + [second] * n))


@pytest.mark.parametrize("a", [0, 1, 2])
@pytest.mark.parametrize(("roll", "read", "first", "second", "pick"), [
    ("(a)d6 + 2d4", "lowest", tuple(range(1, 7)), tuple(range(1, 5)), min),
    ("(a)d6 + 2d4", "highest", tuple(range(1, 7)), tuple(range(1, 5)), max),
    ("(a)dF + 2dF", "highest", FUDGE, FUDGE, max),  # every face below 0 but one: a no-dice 0 would win
    ("(a)dF + 2dF", "lowest", FUDGE, FUDGE, min),
])
def test_a_term_of_no_dice_adds_no_highest_or_lowest(a, roll, read, first, second, pick):
    every = list(throws(a, first, second, 2))
    want: dict[int, F] = {}
    for t in every:
        want[pick(t)] = want.get(pick(t), F(0)) + F(1, len(every))
    odds = loads(RULESET.format(roll=roll, read=read), "t.yaml").check("c").odds({"a": a}).to_dict()
    assert {r["value"]: F(r["exact"]) for r in odds["result"]} == want
