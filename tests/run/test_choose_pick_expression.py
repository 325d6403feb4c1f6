"""``choose``'s ``pick`` from an expression known before the roll (issue #34): roll ring +
skill dice, keep as many as the ring; one check for every ring value, rolled and in exact
odds by the one resolver, its bounds (1 to 10) found by validate at the inputs' bounds."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import loads
from rulesengine.errors import RulesEngineError
from rulesengine.validate import validate_text

RULESET = """\
ruleset: ring
name: Ring and skill
version: "1"
source: tests
checks:
  roll:
    inputs:
      ring: {type: integer, default: 2, min: 1, max: 4}
      skill: {type: integer, default: 1, min: 0, max: 2}
    roll: (ring + skill)d6
    choose:
      from: roll
      pick: PICK
      values:
        total: sum(chosen)
    result: total
    outcomes:
      - {name: any, success: true}
"""


def kept_best(ring: int, skill: int) -> dict[int, Fraction]:
    """The sum of the ``ring`` highest of ``ring + skill`` d6, every throw enumerated."""
    throws = list(itertools.product(range(1, 7), repeat=ring + skill))
    tally = Counter(sum(sorted(t, reverse=True)[:ring]) for t in throws)
    return {v: Fraction(n, len(throws)) for v, n in tally.items()}


@pytest.mark.parametrize("ring, skill", [(1, 0), (1, 2), (2, 1), (3, 0)])
def test_the_dice_kept_are_as_many_as_the_ring_in_exact_odds(ring, skill):
    odds = loads(RULESET.replace("PICK", "ring")).check("roll").odds({"ring": ring, "skill": skill})
    assert dict(odds.result_distribution) == kept_best(ring, skill)


def test_rolling_keeps_as_many_dice_as_the_ring():
    rolled = loads(RULESET.replace("PICK", "ring")).check("roll").roll({"ring": 2, "skill": 2}, faces=[2, 6, 3, 5])
    assert rolled.result == 6 + 5


def test_pick_may_be_any_expression_of_the_inputs():
    odds = loads(RULESET.replace("PICK", "max(1, ring - skill)")).check("roll").odds({"ring": 3, "skill": 1})
    # ring 3 less skill 1: the two highest of 3 + 1 dice, which kept_best(2, 2) enumerates
    assert dict(odds.result_distribution) == kept_best(2, 2)


def test_a_pick_an_input_allows_outside_1_to_10_is_found_by_validate_at_its_line():
    text = RULESET.replace("PICK", "ring - 1")
    report = validate_text(text, "ring.yaml")
    found = [(d.code, d.location.line) for d in report.diagnostics if d.severity == "error"]
    assert ("E509", 13) in found  # the line of pick
    with pytest.raises(RulesEngineError) as caught:  # and at the table, with ring 1
        loads(text).check("roll").odds({"ring": 1, "skill": 0})
    assert caught.value.code == "E509"


def test_a_pick_that_reads_the_roll_is_refused():
    with pytest.raises(RulesEngineError) as caught:
        loads(RULESET.replace("PICK", "roll"))
    assert caught.value.code == "E509" and "before the roll" in caught.value.message


def test_a_value_only_pick_reads_is_read_and_warns_nothing():
    """Found in review: a value read only by ``pick`` (``kept: min(ring, 3)``) was reported
    unread (W525), and the input it reads too (W521), though the odds change with it."""
    text = RULESET.replace("    roll: (ring", "    let:\n      kept: min(ring, 3)\n    roll: (ring").replace("PICK", "kept")
    report = validate_text(text, "ring.yaml")
    assert [(d.code, d.message) for d in report.diagnostics] == []
    odds = loads(text).check("roll").odds({"ring": 4, "skill": 1})
    assert dict(odds.result_distribution) == kept_best(3, 2)  # min(4, 3) of 4 + 1 dice


def test_a_tag_that_only_more_dice_picked_can_set_is_not_said_never_set():
    """Found in review: W523 said a tag on the chosen total "can never be set" because the
    tag search did not follow pick back to its input (with ring = 4 it is set 35/648)."""
    text = RULESET.replace("(ring + skill)d6", "4d6").replace("PICK", "ring").replace(
        "      - {name: any, success: true}\n", "      - {name: any, success: true}\n    tags:\n"
        "      - {name: high, when: \"total >= 20\"}\n").replace("default: 2, min: 1", "default: 1, min: 1")
    report = validate_text(text, "ring.yaml")
    assert [d.code for d in report.diagnostics if d.code == "W523"] == []
    # all four d6 kept at ring = 4: every throw counted here
    throws = list(itertools.product(range(1, 7), repeat=4))
    high = Fraction(sum(1 for t in throws if sum(t) >= 20), len(throws))
    odds = loads(text).check("roll").odds({"ring": 4, "skill": 0})
    assert dict(odds.view().named)["tags"] == {"high": high}
