"""A pool of mixed dice (a ``dice_pool`` input such as d12/d8/d6) that the rules read only
through counts, sums, its highest or lowest die is worked out die by die, each die's
readings joined (dice/mixed_pool.py, ``dice_pool_view_dist``), not as every throw's
multiset of faces and sizes: eight dice read by how many show 5 or more were refused
(E210), twenty answer at once. Where the rules read the dice's sizes (``largest_die``) or
choose among them, every throw is still listed.

The oracle lists every throw of the pool (each die's faces, a die showing a face set aside
by ``p1`` left out) and applies the rules written again in Python."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import given, strategies as st

from fuzz_support import fuzz_settings
from rulesengine import loads
from rulesengine.dice.dist import Budget
from rulesengine.dice.mixed_pool import dice_pool_view_dist
from rulesengine.dice.values import DicePool
from rulesengine.dice.view_fold import PoolView

RULESET = """\
ruleset: mixed
name: A mixed pool read through what the rules read
version: "1"
source: tests
checks:
  c:
    inputs:
      pool: {{type: dice_pool, default: d8/d6}}
      need: {{type: integer, min: 0, max: 10, default: 2}}
    roll: {roll}
    let:
      value: "{value}"
    result: value
    outcomes:
      - {{name: bust, when: "count(roll, 1) >= 2", success: false}}
      - {{name: made, when: "value >= need", success: true}}
      - {{name: missed, success: false}}
"""

# (the value as the rules write it, the same in Python over the dice left)
VALUES = [
    ("count(roll, 5, 12)", lambda d: sum(f >= 5 for f in d)),
    ("count(roll, 5, 12) + count(roll, 8, 12)", lambda d: sum(f >= 5 for f in d) + sum(f >= 8 for f in d)),
    ("sum(roll)", sum),
    ("if(count(roll) > 0, highest(roll), 0)", lambda d: max(d, default=0)),
    ("if(count(roll) > 0, lowest(roll), 0) + count(roll, 6)", lambda d: min(d, default=0) + d.count(6)),
    ("count(roll)", len),
]


def oracle(sides: list[int], drop_ones: bool, value) -> tuple[dict[str, F], dict[int, F]]:
    outcomes: dict[str, F] = {}
    results: dict[int, F] = {}
    every = list(itertools.product(*[range(1, s + 1) for s in sides]))
    for throw in every:
        ones = throw.count(1)
        dice = [f for f in throw if not (drop_ones and f == 1)]
        v = value(dice)
        o = "bust" if (0 if drop_ones else ones) >= 2 else "made" if v >= 2 else "missed"
        outcomes[o] = outcomes.get(o, F(0)) + F(1, len(every))
        results[v] = results.get(v, F(0)) + F(1, len(every))
    return outcomes, results


@fuzz_settings(40, 400)
@given(st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=4), st.booleans(),
       st.sampled_from(range(len(VALUES))))
def test_a_mixed_pool_read_through_a_view_gives_every_throws_odds(sides, drop_ones, which):
    text, value = VALUES[which]
    check = loads(RULESET.format(roll="(pool)p1" if drop_ones else "pool", value=text), "t.yaml").check("c")
    odds = check.odds({"pool": "/".join(f"d{s}" for s in sides)}).to_dict()
    outcomes, results = oracle(sides, drop_ones, value)
    assert {o["name"]: F(o["exact"]) for o in odds["outcomes"] if F(o["exact"])} == \
        {k: v for k, v in outcomes.items() if v}
    assert {r["value"]: F(r["exact"]) for r in odds["result"]} == results


def test_twenty_mixed_dice_read_by_counts_are_answered_in_few_steps():
    """Eight of them were refused; twenty read by how many show 5 or more and how many show 1
    take a few thousand steps: the states are the readings, a few hundred."""
    pool = DicePool.parse("/".join(["d6", "d8", "d10", "d12"] * 5))
    budget = Budget(2_000_000)
    view = PoolView(counts=((5, 12), (1, 1)))
    dist = dice_pool_view_dist(pool, view, budget)
    assert budget.used < 100_000
    # how many show 5 or more: the sum of each kind's binomial, by the product of the dice's chances
    want = {0: F(1)}
    for s in pool.sides:
        p = F(s - 4, s)
        nxt: dict[int, F] = {}
        for k, w in want.items():
            nxt[k + 1] = nxt.get(k + 1, F(0)) + w * p
            nxt[k] = nxt.get(k, F(0)) + w * (1 - p)
        want = nxt
    got: dict[int, F] = {}
    for rolled, w in dist.weights.items():
        k = sum(f >= 5 for f in rolled.faces)
        got[k] = got.get(k, F(0)) + F(w, dist.denom)
    assert got == want


def test_a_pool_read_by_its_dice_sizes_is_still_read_throw_by_throw():
    """``largest_die(roll)`` reads which die showed what: no view, every throw."""
    text = RULESET.format(roll="pool", value="if(count(roll, 5, 12) > 0, largest_die(roll, 5, 12), 0)")
    odds = loads(text, "t.yaml").check("c").odds({"pool": "d8/d6/d4"}).to_dict()
    every = list(itertools.product(range(1, 9), range(1, 7), range(1, 5)))
    want: dict[int, F] = {}
    for throw in every:
        v = max((s for f, s in zip(throw, (8, 6, 4), strict=True) if f >= 5), default=0)
        want[v] = want.get(v, F(0)) + F(1, len(every))
    assert {r["value"]: F(r["exact"]) for r in odds["result"]} == want


IRONCLAW = """\
ruleset: opposed-pools
name: Each die above the other side's highest
version: "1"
source: tests
checks:
  opposed:
    inputs:
      attack: {type: dice_pool, default: d8/d6/d6}
      defense: {type: dice_pool, default: d6/d4}
    rolls:
      a: attack
      d: defense
    let:
      successes: count(a, highest(d) + 1, 12)
    result: successes
    outcomes:
      - {name: botch, when: "count(a, 1) == count(a)", success: false}
      - {name: success, when: "successes >= 1", success: true}
      - {name: failure, success: false}
"""


def test_a_mixed_pool_whose_sizes_nothing_reads_is_read_by_its_faces_alone():
    """``count(a, highest(d) + 1, 12)``: a bound from another roll, so no view of ``a``; its
    sizes are read nowhere, so throws alike in their faces are one (five dice of sizes 12 to
    6 took 3.2 s, now 0.5 s). The oracle lists both pools' every throw."""
    check = loads(IRONCLAW, "t.yaml").check("opposed")
    assert check.model.sizes_needed == frozenset()
    odds = check.odds({}).to_dict()
    want: dict[str, F] = {}
    every = list(itertools.product(range(1, 9), range(1, 7), range(1, 7), range(1, 7), range(1, 5)))
    for *a, d1, d2 in every:
        hits = sum(f > max(d1, d2) for f in a)
        o = "botch" if a.count(1) == len(a) else "success" if hits else "failure"
        want[o] = want.get(o, F(0)) + F(1, len(every))
    assert {o["name"]: F(o["exact"]) for o in odds["outcomes"] if F(o["exact"])} == want


def test_a_condition_that_reads_the_dice_sizes_keeps_them():
    """The check's rules read no size of ``a``, the condition of conditional odds does:
    ``largest_die(a, 7, 8) == 8``, the d8 showing 7 or 8: 1/4."""
    check = loads(IRONCLAW, "t.yaml").check("opposed")
    given = check.odds({}, given="count(a, 7, 8) > 0 and largest_die(a, 7, 8) == 8").to_dict()
    assert F(given["given"]["exact"]) == F(1, 4)
    # given that: a 7 or 8 on the d8 beats every defense die (d6, d4), so a success
    assert {o["name"]: F(o["exact"]) for o in given["outcomes"]}["success"] == 1


RAISE = """\
ruleset: raise
name: The best two dice of a mixed pool
version: "1"
source: tests
checks:
  c:
    inputs:
      pool: {type: dice_pool, default: d10/d8/d8/d6/d4}
    roll: pool
    choose:
      from: roll
      pick: 2
      values:
        best: sum(chosen)
        {more}
      order: [best]
    result: best
    outcomes:
      - {name: high, when: "best >= 14", success: true}
      - {name: low, success: false}
"""


def test_a_choice_whose_values_read_no_sizes_lists_the_pool_by_its_faces():
    """``sum(chosen)`` of the best two reads no die's size: which of a d8's 5 and a d6's 5 is
    kept changes nothing, so the pool is listed by its faces (eight dice d10 to d4 were
    refused; they answer). The oracle lists every throw."""
    check = loads(RAISE.replace("{more}", ""), "t.yaml").check("c")
    assert check.model.sizes_needed == frozenset()
    every = list(itertools.product(range(1, 11), range(1, 9), range(1, 9), range(1, 7), range(1, 5)))
    want: dict[int, F] = {}
    for throw in every:
        best = sum(sorted(throw)[-2:])
        want[best] = want.get(best, F(0)) + F(1, len(every))
    assert {r["value"]: F(r["exact"]) for r in check.odds({}).to_dict()["result"]} == want
    sized = loads(RAISE.replace("{more}", "effect: \"if(count(rest) > 0, largest_die(rest), 4)\""), "t.yaml").check("c")
    assert sized.model.sizes_needed == frozenset({"roll"})
