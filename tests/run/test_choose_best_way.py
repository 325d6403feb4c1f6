"""Exact odds of a check that chooses dice read only the way the rules pick (issue 33, item 6):
the same way a roll picks among the choices it lists, found without listing them, each value
remembered by what it reads. Checked against every throw of the dice, the best way found by
the rules written out here: the ways where ``prefer`` holds first, then the largest by each
value of ``order`` in turn, and among ways equal by all of those the first, with the dice
sorted highest face first (the larger die first on equal faces) and the ways taken in the
order of ``itertools.combinations``."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads
from rulesengine.run.choosing import first_best

RULESET = """
ruleset: ways
name: The best way to choose
version: "1"
source: tests
checks:
  action:
    inputs:
      pool: {type: dice_pool, default: d8/d6/d4/d4}
      target: {type: integer, default: 7, min: 0, max: 30}
      bonus: {type: integer, default: 0, min: -5, max: 5}
    roll: pool
    let:
      ones: count(roll, 1)
    choose:
      from: roll
      pick: 2
      values:
        precision: sum(chosen) + bonus - ones
        impact: highest(chosen) - lowest(chosen)
        spare: if(count(rest) > 0, largest_die(rest), 0)
      prefer: precision >= target and impact >= 2
      order: [impact, precision]
    result: precision
    report: [impact, spare]
    outcomes:
      - {name: success, when: "precision >= target and impact >= 2", success: true}
      - {name: failure, success: false}
  step:
    inputs:
      pool: {type: dice_pool, default: d12/d10/d8/d6}
    roll: pool
    choose:
      from: roll
      pick: 2
      values:
        total: sum(chosen)
        effect: "if(count(rest) > 0, largest_die(rest), 4)"
        marked: total * 100 + roll
      order: [total]
    result: total
    report: [effect, marked]
    outcomes: [{name: any, success: true}]
  shaky:
    inputs:
      pool: {type: dice_pool, default: d4/d4/d4}
    roll: pool
    choose:
      from: roll
      pick: 2
      values:
        total: sum(chosen)
        odd: 12 / (sum(chosen) - 3)
      order: [total]
    result: total
    outcomes: [{name: any, success: true}]
"""


@pytest.fixture(scope="module")
def rs():
    return loads(RULESET, "ways.yaml")


def throws(sizes):
    """Every throw of dice of these sizes, each with its chance."""
    n = 1
    for s in sizes:
        n *= s
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        yield faces, F(1, n)


def ways(faces, sizes):
    """Every way to choose two of the dice, in the engine's listing order: (chosen, left)."""
    dice = sorted(zip(faces, sizes), reverse=True)
    for picked in itertools.combinations(range(len(dice)), 2):
        yield [dice[i] for i in picked], [d for i, d in enumerate(dice) if i not in picked]


def first_of_the_best(scored):
    """The first of the ways with the highest score: (score, what it gives)."""
    best = None
    for score, gives in scored:
        if best is None or score > best[0]:
            best = (score, gives)
    return best[1]


def tally(pairs):
    out = defaultdict(F)
    for value, p in pairs:
        out[value] += p
    return dict(sorted(out.items()))


@pytest.mark.parametrize(("pool", "target", "bonus"), [
    ((8, 6, 4, 4), 7, 0),
    ((8, 6, 4, 4), 9, 1),
    ((10, 8, 6), 5, -2),
    ((6, 6, 6), 8, 0),
    ((4,), 2, 0),  # one die: chosen alone, nothing left
])
def test_odds_take_the_preferred_way_then_the_largest_impact_then_precision(rs, pool, target, bonus):
    outcome, precision, impact, spare = [], [], [], []
    for faces, p in throws(pool):
        ones = faces.count(1)
        scored = []
        for chosen, left in ways(faces, pool) if len(pool) > 1 else [([(faces[0], pool[0])], [])]:
            pr = sum(f for f, _ in chosen) + bonus - ones
            im = max(f for f, _ in chosen) - min(f for f, _ in chosen)
            sp = max(s for _, s in left) if left else 0
            preferred = pr >= target and im >= 2
            scored.append(((preferred, im, pr), (preferred, pr, im, sp)))
        ok, pr, im, sp = first_of_the_best(scored)
        outcome.append(("success" if ok else "failure", p))
        precision.append((pr, p))
        impact.append((im, p))
        spare.append((sp, p))
    odds = rs.check("action").odds({"pool": "/".join(f"d{s}" for s in pool), "target": target, "bonus": bonus})
    assert {k: v for k, v in odds.outcomes.items() if v} == tally(outcome)
    assert odds.result_distribution == tally(precision)
    assert odds.values["impact"] == tally(impact)
    assert odds.values["spare"] == tally(spare)


def step_odds(pool, pick_first=True):
    """The effect and the marked value over every throw, ties on the total going to the
    first way (or, to show the test tells them apart, the last)."""
    effect, marked = [], []
    for faces, p in throws(pool):
        scored = []
        for chosen, left in ways(faces, pool):
            total = sum(f for f, _ in chosen)
            gives = (max(s for _, s in left) if left else 4, total * 100 + sum(faces))
            scored.append(((total,), gives))
        eff, mark = first_of_the_best(scored if pick_first else scored[::-1])
        effect.append((eff, p))
        marked.append((mark, p))
    return tally(effect), tally(marked)


def test_ties_on_every_value_of_order_go_to_the_first_way_as_before(rs):
    # d12/d10/d8/d6: 5,760 throws; `marked` reads the whole roll, a new thing nearly every
    # throw (so it is not remembered past its trial), and a tie on the total leaves
    # different dice for the effect (d12:5 + d8:3 or d10:5 + d6:3).
    pool = (12, 10, 8, 6)
    effect, marked = step_odds(pool)
    assert effect != step_odds(pool, pick_first=False)[0]  # which of the tied ways wins shows
    odds = rs.check("step").odds({"pool": "d12/d10/d8/d6"})
    assert odds.values["effect"] == effect
    assert odds.values["marked"] == marked


def test_a_roll_takes_the_same_first_way_among_ties(rs):
    # faces in the pool's order (d12, d10, d8, d6): three ways of 4 + 4, leaving the d8, the
    # d10 or the d12 as the largest die left; listed highest first, the d12 and the d10 come first
    r = rs.check("step").roll({"pool": "d12/d10/d8/d6"}, faces=[4, 4, 4, 1])
    listed = sorted([(4, 12), (4, 10), (4, 8), (1, 6)], reverse=True)
    assert r.to_dict()["chosen"]["sides"] == [listed[0][1], listed[1][1]] == [12, 10]
    assert (r.result, r.values["effect"]) == (8, 8)
    assert r.to_dict()["chosen"] == first_way_of(r.to_dict()["choices"])


def first_way_of(choices):
    """The first of the choices listed with the highest total (the only value of order)."""
    best = None
    for c in choices:
        if best is None or c["values"]["total"] > best["values"]["total"]:
            best = c
    return best


def test_an_error_of_a_way_not_picked_is_still_raised_by_exact_odds(rs):
    # 4, 2, 1: the best way is 4 + 2, but 2 + 1 divides by 0; a roll of it fails, so do the odds
    with pytest.raises(RulesEngineError, match="division by zero") as rolled:
        rs.check("shaky").roll({"pool": "d4/d4/d4"}, faces=[4, 2, 1])
    with pytest.raises(RulesEngineError, match="division by zero") as odds:
        rs.check("shaky").odds({"pool": "d4/d4/d4"})
    assert odds.value.code == rolled.value.code
    assert odds.value.location.column == rolled.value.location.column


def test_the_first_best_way_is_what_max_picks_among_the_offers_listed():
    # Ways whose values differ in kind alone (true and 1) offer the same to the player: a
    # roll lists the first; max then picks among those listed.
    rng = random.Random(33)
    for _ in range(500):
        ways_ = []
        for _ in range(rng.randint(1, 8)):
            faces = tuple(sorted((rng.randint(1, 3), rng.randint(1, 3)), reverse=True))
            v = rng.choice([0, 1, 2, True, False])
            ways_.append((tuple((f, 0, ()) for f in faces), {"v": v, "w": rng.randint(0, 1)}, rng.random() < 0.3))

        def offer(way):
            combo, values, preferred = way
            return tuple(f for f, _, _ in combo), tuple(values.items()), preferred

        def rank(way):
            order = [(1, int(x)) if isinstance(x, bool) else (0, x) for x in (way[1]["v"], way[1]["w"])]
            return (way[2], *order)

        listed, seen = [], []
        for way in ways_:
            if offer(way) not in seen:
                seen.append(offer(way))
                listed.append(way)
        picked = first_best(iter(ways_), rank)
        assert picked is max(listed, key=rank)
