"""Step-dice pools (issue 14, gap 6): a pool of mixed dice (d10/d8/d6/d4) keeps each die's
size beside its face, `choose` names the dice left over (`rest`), and `largest_die()` reads the
largest size: "keep two for the total, the largest die left is the effect (a d4 if none)".
Checked against every roll of the dice."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

RULESET = """
ruleset: steps
name: Step dice
version: "1"
source: tests
checks:
  check:
    inputs:
      pool: {type: dice_pool, default: d8/d6/d6}
      difficulty: {type: integer, default: 8, min: 2, max: 30}
    roll: pool
    choose:
      from: roll
      pick: 2
      values:
        total: sum(chosen)
        effect: "if(count(rest) > 0, max(4, largest_die(rest)), 4)"
      order: [total, effect]
    result: total
    outcomes:
      - {name: success, when: "result >= difficulty", success: true}
      - {name: failure, success: false}
    report: [effect]
  biggest:
    inputs:
      pool: {type: dice_pool, default: d8/d6}
    roll: pool
    result: largest_die(pool) + largest_die(roll)
    outcomes: [{name: any, success: true}]
"""


@pytest.fixture(scope="module")
def rs():
    return loads(RULESET, "steps.yaml")


def best(faces: tuple[int, ...], sizes: tuple[int, ...]) -> tuple[int, int]:
    """(total, effect) of the best pick: the highest total, then the largest effect."""
    out = []
    for pick in itertools.combinations(range(len(faces)), min(2, len(faces))):
        rest = [sizes[i] for i in range(len(faces)) if i not in pick]
        out.append((sum(faces[i] for i in pick), max([4] + rest)))
    return max(out)


@pytest.mark.parametrize("pool", [(10, 8, 6, 4), (8, 6, 6), (12, 4), (6,)])
def test_the_effect_die_is_the_largest_die_left_after_the_best_total(rs, pool):
    results: dict = defaultdict(F)
    effects: dict = defaultdict(F)
    n = 1
    for s in pool:
        n *= s
    for faces in itertools.product(*(range(1, s + 1) for s in pool)):
        total, effect = best(faces, pool)
        results[total] += F(1, n)
        effects[effect] += F(1, n)
    odds = rs.check("check").odds({"pool": "/".join(f"d{s}" for s in pool)})
    assert odds.result_distribution == dict(sorted(results.items()))
    assert odds.values["effect"] == dict(sorted(effects.items()))


def test_a_roll_shows_each_die_with_its_size_and_what_was_left(rs):
    r = rs.check("check").roll({"pool": "d10/d8/d6/d4"}, faces=[4, 3, 3, 4])
    assert r.trace.splitlines()[0] == "roll: d10/d8/d6/d4 → [d10:4, d8:3, d6:3, d4:4] = 14"
    assert (r.result, r.values["effect"]) == (8, 8)  # 4 + 4 from the d10 and the d4; the d8 is left
    data = r.to_dict()
    assert data["chosen"] == {"faces": [4, 4], "values": {"total": 8, "effect": 8}, "preferred": False,
                              "sides": [10, 4]}
    # The same faces on other dice are another choice: the player may take the d10 and the d8.
    r2 = rs.check("check").roll({"pool": "d10/d8/d6/d4"}, faces=[4, 3, 3, 4], choose=[4, 3])
    assert (r2.result, r2.values["effect"]) == (7, 10)  # of the four 4+3s, the best: the d10 and d6 left


def test_sides_reads_a_pool_and_its_roll(rs):
    assert rs.check("biggest").odds({"pool": "d12/d4"}).result_distribution == {24: F(1)}
    assert rs.check("biggest").roll({"pool": "d6/d10"}, seed=1).result == 20


def test_sides_of_dice_of_one_unknown_size_is_an_error_that_says_what_to_use():
    with pytest.raises(RulesEngineError, match="largest_die\\(\\) of dice whose sizes are not known"):
        loads(RULESET.replace("roll: pool\n    result: largest_die(pool) + largest_die(roll)",
                              "roll: 2d6\n    result: largest_die(roll)"), "steps.yaml").check("biggest").roll(seed=1)
