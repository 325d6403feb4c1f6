"""A pool of mixed dice read only by choosing the dice of highest rank from it keeps, of each
throw, the dice that may be chosen, and of the others only how many they are and their
largest size (run/ranked_pool.py): step dice, the 1s set aside, the best two kept and the
largest die left the effect. Six such dice were refused (149,760 throws); each throw was
resolved with its choice. Every figure here is checked against every throw of the dice,
listed and chosen from in this file."""

from __future__ import annotations

import functools
import math
import itertools
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine.dice.ast import Cond
from rulesengine.dice.dist import Budget
from rulesengine.dice.mixed_pool import RankedChoice, dice_pool_dist
from rulesengine.dice.values import DicePool
from rulesengine.errors import LimitError
from rulesengine.limits import Limits
from rulesengine.ruleset import loads

HEADER = """\
ruleset: t
name: T
version: "1"
source: test
checks:
"""

# The step-dice check: the best two dice, then the largest die left (at least a d4).
STEP = """\
  step:
    inputs:
      pool: {type: dice_pool}
      difficulty: {type: integer, min: 2, max: 30}
      pick: {type: integer, min: 1, max: 3, default: 2}
    roll: (pool)p1
    choose:
      from: roll
      pick: pick
      values:
        total: sum(chosen)
        effect: "if(count(rest) > 0, max(4, largest_die(rest)), 4)"
        spare: count(rest)
      order: [total, effect]
    result: total
    report: [effect, spare]
    outcomes:
      - {name: success, when: "result >= difficulty", success: true}
      - {name: failure, success: false}
"""


def every_throw(sizes: list[int], pick: int) -> Counter:
    """Each throw of dice of ``sizes`` with its chance: the 1s set aside, then the ``pick``
    dice of the best (total, largest die left), as (total, effect, dice left)."""
    return _every_throw(tuple(sizes), pick)


@functools.cache
def _every_throw(sizes: tuple[int, ...], pick: int) -> Counter:
    out: Counter = Counter()
    weight = F(1, 1)
    for s in sizes:
        weight /= s
    for faces in itertools.product(*[range(1, s + 1) for s in sizes]):
        kept = [(f, s) for f, s in zip(faces, sizes) if f != 1]
        ways = []
        for chosen in itertools.combinations(range(len(kept)), min(pick, len(kept))):
            rest = [kept[i][1] for i in range(len(kept)) if i not in chosen]
            ways.append((sum(kept[i][0] for i in chosen), max(4, *rest) if rest else 4, len(rest)))
        out[max(ways)] += weight
    return out


# The same without the number of dice left reported: the effect tells none left from some
# only (``count(rest) > 0``), so the dice set aside are kept as none, or one or more.
TOLD_APART = STEP.replace("  step:", "  told_apart:").replace("        spare: count(rest)\n", "").replace(
    "report: [effect, spare]", "report: [effect]")


def step_odds(pool: str, difficulty: int, pick: int = 2, check: str = "step", limits: Limits | None = None):
    ruleset = loads(HEADER + STEP + TOLD_APART, limits=limits) if limits else loads(HEADER + STEP + TOLD_APART)
    return ruleset.check(check).odds({"pool": pool, "difficulty": difficulty, "pick": pick})


@pytest.mark.parametrize("pool", ["d12/d10/d8/d6", "d8/d6/d6/d4", "d6/d6/d4", "d10/d4"])
@pytest.mark.parametrize("pick", [1, 2, 3])
@pytest.mark.parametrize("check", ["step", "told_apart"])
def test_the_best_dice_and_the_effect_match_every_throw(pool, pick, check):
    sizes = [int(d[1:]) for d in pool.split("/")]
    throws = every_throw(sizes, pick)
    odds = step_odds(pool, 9, pick, check)
    assert odds.outcomes["success"] == sum((p for (t, _, _), p in throws.items() if t >= 9), F(0))
    effect: Counter = Counter()
    spare: Counter = Counter()
    for (_, e, n), p in throws.items():
        effect[e] += p
        spare[n] += p
    assert odds.values["effect"] == dict(effect)
    if check == "step":
        assert odds.values["spare"] == dict(spare)  # how many dice are left: kept exactly
    assert odds.truncated == 0


def test_a_throw_with_too_many_ways_to_choose_is_refused_as_before():
    """``max_choices`` refuses a throw of four dice that are not 1s (six ways to choose two),
    as it did when every throw was listed: four dice alike are all kept for choosing, and
    the number set aside is capped only where no throw of the pool could be refused."""
    with pytest.raises(LimitError, match="6 ways"):
        step_odds("d6/d6/d6/d6", 9, 2, "told_apart", Limits(max_choices=5))
    assert step_odds("d6/d6/d6", 9, 2, "told_apart", Limits(max_choices=3)).truncated == 0


def test_six_step_dice_are_answered():
    """Six dice were refused ('has 149,760 possible values'); here the effect's chance of a
    d12 with d12/d12/d10/d8/d6/d4 against the throws of the dice that may be chosen."""
    odds = step_odds("d12/d12/d10/d8/d6/d4", 15, check="told_apart")
    throws = every_throw([12, 12, 10, 8, 6, 4], 2)
    assert odds.outcomes["success"] == sum((p for (t, _, _), p in throws.items() if t >= 15), F(0))
    assert odds.values["effect"][12] == sum((p for (_, e, _), p in throws.items() if e == 12), F(0))


def test_the_dice_never_chosen_are_kept_by_size_and_number():
    """What the engine counts: six step dice are 11,279 states kept for choosing two (by
    hand: the dice with fewer than two ranked above, the largest size and number of the
    rest), where every multiset of faces and sizes is 149,760."""
    pool = DicePool((12, 12, 10, 8, 6, 4), drop_faces=(Cond("=", 1),), marks="p1")
    rank = {(f, s): (f,) for s in (12, 10, 8, 6, 4) for f in range(1, s + 1)}
    states = _states_by_hand([12, 12, 10, 8, 6, 4], 2)
    reduced = dice_pool_dist(pool, Budget(10**7), True, RankedChoice(2, rank))
    assert len(reduced.weights) <= states < 149_760
    assert len(dice_pool_dist(pool, Budget(10**7), True).weights) == 149_760


def _states_by_hand(sizes: list[int], k: int) -> int:
    """The states of the ranked fold counted apart: dice in the order given, a die set
    aside once k dice show more than it."""
    states = {((), 0, 0)}
    for s in sizes:
        nxt = set()
        for top, most, many in states:
            for f in range(1, s + 1):
                if f == 1:
                    nxt.add((top, most, many))
                    continue
                dice = top + ((f, s),)
                kept = tuple(sorted(d for d in dice if sum(e[0] > d[0] for e in dice) < k))
                out = [d for d in dice if d not in kept]
                nxt.add((kept, max([most] + [d[1] for d in out]), many + len(out)))
        states = nxt
    return len(states)


# The same rolls read otherwise: not only by choosing (nothing is set aside).
ALSO_READ = STEP.replace("  step:", "  also:").replace(
    "      - {name: failure, success: false}",
    "      - {name: failure, success: false}\n    tags:\n      - {name: twelve, when: 'count(roll, 12) > 0'}")
REST_FACES = STEP.replace("  step:", "  rest_faces:").replace("spare: count(rest)", "spare: sum(rest)")


def test_a_roll_read_elsewhere_is_kept_whole():
    """A tag reads the roll too: every throw is kept, and the tag's chance is every throw's."""
    odds = loads(HEADER + ALSO_READ).check("also").odds({"pool": "d12/d8/d6", "difficulty": 9})
    assert odds.tags["twelve"] == F(1, 12)
    throws = every_throw([12, 8, 6], 2)
    assert odds.outcomes["success"] == sum((p for (t, _, _), p in throws.items() if t >= 9), F(0))


def test_the_faces_of_the_dice_left_read_keep_every_throw():
    """``sum(rest)`` reads the faces of the dice left: nothing is set aside."""
    odds = loads(HEADER + REST_FACES).check("rest_faces").odds({"pool": "d8/d6/d4", "difficulty": 9})
    spare: Counter = Counter()
    for faces in itertools.product(range(1, 9), range(1, 7), range(1, 5)):
        kept = sorted(((f, s) for f, s in zip(faces, (8, 6, 4)) if f != 1), reverse=True)
        best = max((sum(kept[i][0] for i in c), max([4] + [kept[i][1] for i in range(len(kept)) if i not in c]),
                    sum(kept[i][0] for i in range(len(kept)) if i not in c))
                   for c in itertools.combinations(range(len(kept)), min(2, len(kept))))
        spare[best[2]] += F(1, 8 * 6 * 4)
    assert odds.values["spare"] == dict(spare)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([4, 6, 8, 10]), min_size=1, max_size=4), st.integers(1, 3), st.integers(2, 20),
       st.sampled_from(["step", "told_apart"]))
def test_any_small_pool_matches_every_throw(sizes, pick, difficulty, check):
    sizes = sorted(sizes, reverse=True)
    odds = step_odds("/".join(f"d{s}" for s in sizes), difficulty, pick, check)
    throws = every_throw(sizes, pick)
    assert odds.outcomes["success"] == sum((p for (t, _, _), p in throws.items() if t >= difficulty), F(0))
    effect: Counter = Counter()
    for (_, e, _), p in throws.items():
        effect[e] += p
    assert odds.values["effect"] == dict(effect)


def test_the_recipe_with_its_hitches_is_answered_at_six_dice():
    """The cookbook's recipe also counts the hitches, ``count(pool) - count(roll)``: the
    roll is read by how many dice it keeps, which the dice set aside keep (six dice were
    refused). Against every throw: the chance of two hitches and of the effect's d12."""
    recipe = STEP.replace("  step:", "  recipe:").replace(
        "    roll: (pool)p1\n", "    roll: (pool)p1\n    let:\n      hitches: count(pool) - count(roll)\n").replace(
        "report: [effect, spare]", "report: [effect, hitches]")
    sizes = [12, 12, 10, 8, 6, 4]
    odds = loads(HEADER + recipe).check("recipe").odds({"pool": "d12/d12/d10/d8/d6/d4", "difficulty": 15})
    two = F(0)
    for faces in itertools.product(*[range(1, s + 1) for s in sizes]):
        if faces.count(1) == 2:
            two += F(1, 12 * 12 * 10 * 8 * 6 * 4)
    assert odds.values["hitches"][2] == two
    throws = every_throw(sizes, 2)
    assert odds.values["effect"][12] == sum((p for (_, e, _), p in throws.items() if e == 12), F(0))


def test_a_condition_given_reads_the_kept_dice_as_the_rules_do():
    """Conditional odds (``--given``) on a value of the choice: the cookbook's figure, the
    effect's chance of a d6 from five dice, 211/2304, against every throw."""
    odds = loads(HEADER + TOLD_APART).check("told_apart").odds({"pool": "d12/d8/d8/d6/d4", "difficulty": 8},
                                                               given="effect == 6")
    throws = every_throw([12, 8, 8, 6, 4], 2)
    assert odds.given_probability == sum((p for (_, e, _), p in throws.items() if e == 6), F(0)) == F(211, 2304)


# Dogs in the Vineyard's raise: the best two dice of a pool of mixed dice, by their total
# alone (no die's size read: the throws are listed by their faces).
BEST_TWO = """\
  best_two:
    inputs:
      pool: {type: dice_pool}
      see: {type: integer, min: 2, max: 40}
    roll: pool
    choose:
      from: roll
      pick: 2
      values:
        total: sum(chosen)
      order: [total]
    result: total
    outcomes:
      - {name: reverse, when: "result >= see + see", success: true}
      - {name: block, when: "result >= see", success: true}
      - {name: take, success: false}
"""


def best_two_totals(sizes: list[int]) -> dict[int, F]:
    """The total of the two highest dice, die by die: a state is the two highest so far."""
    states = {(0, 0): F(1)}
    for s in sizes:
        nxt: Counter = Counter()
        for (a, b), p in states.items():
            for f in range(1, s + 1):
                nxt[tuple(sorted((a, b, f), reverse=True)[:2])] += p / s
        states = dict(nxt)
    totals: Counter = Counter()
    for (a, b), p in states.items():
        totals[a + b] += p
    return dict(totals)


@pytest.mark.parametrize("pool", ["d10/d8/d8/d6/d4", "d10/d10/d8/d8/d6/d6/d4/d4/d10/d8/d6/d4"])
def test_the_best_two_by_faces_alone(pool):
    """Twelve dice were refused (every multiset of their faces listed); against the two
    highest dice followed die by die."""
    sizes = [int(d[1:]) for d in pool.split("/")]
    odds = loads(HEADER + BEST_TWO).check("best_two").odds({"pool": pool, "see": 9})
    assert odds.result_distribution == best_two_totals(sizes)
    assert odds.outcomes["reverse"] == sum((p for t, p in best_two_totals(sizes).items() if t >= 18), F(0))


# Random shapes of the same kind of rule: which dice stay (the 1s set aside, only 3 and up, all),
# how many are chosen, and how the dice left are read (their largest size, whether two or more
# are left, nothing), each against every throw.
KEEPS = {"p1": lambda f: f != 1, "k>=3": lambda f: f >= 3, "": lambda f: True}
LEFT = {
    "largest": ("if(count(rest) > 0, max(4, largest_die(rest)), 4)", lambda sizes: max(4, *sizes) if sizes else 4),
    "two_left": ("count(rest) >= 2", lambda sizes: len(sizes) >= 2),
    "none": (None, None),
}


def shaped(keep: str, left: str) -> str:
    expr = LEFT[left][0]
    values = "        total: sum(chosen)\n" + (f"        effect: \"{expr}\"\n" if expr else "")
    order = "[total, effect]" if expr else "[total]"
    report = "    report: [effect]\n" if expr else ""
    return HEADER + f"""\
  shaped:
    inputs:
      pool: {{type: dice_pool}}
      pick: {{type: integer, min: 1, max: 3}}
    roll: {"(pool)" + keep if keep else "pool"}
    choose:
      from: roll
      pick: pick
      values:
{values}      order: {order}
    result: total
{report}    outcomes:
      - {{name: high, when: "result >= 9", success: true}}
      - {{name: low, success: false}}
"""


def shaped_oracle(sizes: list[int], pick: int, keep: str, left: str) -> tuple[dict, dict]:
    """The totals and the effects of every throw, the best way by (total, effect)."""
    stays, read = KEEPS[keep], LEFT[left][1]
    totals: Counter = Counter()
    effects: Counter = Counter()
    weight = F(1, math.prod(sizes))
    for faces in itertools.product(*[range(1, s + 1) for s in sizes]):
        kept = [(f, s) for f, s in zip(faces, sizes) if stays(f)]
        ways = []
        for chosen in itertools.combinations(range(len(kept)), min(pick, len(kept))):
            rest = [kept[i][1] for i in range(len(kept)) if i not in chosen]
            ways.append((sum(kept[i][0] for i in chosen), read(rest) if read else 0))
        total, effect = max(ways)
        totals[total] += weight
        effects[effect] += weight
    return dict(totals), dict(effects)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([4, 6, 8, 10]), min_size=1, max_size=4), st.integers(1, 3),
       st.sampled_from(sorted(KEEPS)), st.sampled_from(sorted(LEFT)))
def test_random_shapes_match_every_throw(sizes, pick, keep, left):
    sizes = sorted(sizes, reverse=True)
    odds = loads(shaped(keep, left)).check("shaped").odds({"pool": "/".join(f"d{s}" for s in sizes), "pick": pick})
    totals, effects = shaped_oracle(sizes, pick, keep, left)
    assert odds.result_distribution == totals
    if LEFT[left][0]:
        assert odds.values["effect"] == effects
