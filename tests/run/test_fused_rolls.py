"""Rolls read only through one sum are worked out as that sum (issue 34, "a - b of two rolls
in a check's rules"). A swerve written as two rolls, ``good: 1d6!`` and ``bad: 1d6!``, read
as ``good - bad``, has the exact odds of the one roll ``1d6! - 1d6!``: nothing truncated.

Oracles: ``open_sum_at_least`` (tests/oracle.py: the series' own shortest recurrence found by
Berlekamp–Massey from terms listed by convolution, not the engine's formula) for exploding
dice; for plain dice, every face of every roll listed (``product_dist``) and the rules
applied by hand. The rolls that must not be fused (read alone, in two different sums, fixed
by a gate, read by a condition) are checked against those oracles too, so a wrong fusion
(the first roll holding the sum, the others 0) would show.
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from oracle import OpenSum, extreme_minus_sum, open_sum_at_least
from rulesengine.ruleset import loads
from rulesengine.run.fused import fused_rolls

D6 = (6, (6,))  # an exploding d6, as the oracle names it: sides, the faces it explodes on


def ruleset(checks: str):
    return loads(f'ruleset: fused\nname: Fused\nversion: "1"\nsource: tests\nchecks:\n{checks}', "fused.yaml")


SWERVE = """\
  swerve:
    inputs:
      edge: {type: integer, default: 0, min: -5, max: 5}
    rolls:
      good: 1d6!
      bad: 1d6!
    result: good - bad + edge
    outcomes:
      - {name: triumph, when: "result >= 4", success: true}
      - {name: success, when: "result >= 1", success: true}
      - {name: setback, success: false}
"""


def swerve_at_least(t: int, edge: int = 0, plus=(D6,), minus=(D6,)) -> F:
    return open_sum_at_least(OpenSum(tuple(plus), tuple(minus), ((edge, F(1)),)), t)


@pytest.mark.parametrize("edge", [-3, 0, 2, 5])
def test_two_exploding_rolls_read_as_their_difference_are_followed_for_ever(edge):
    odds = ruleset(SWERVE).check("swerve").odds({"edge": edge})
    assert odds.truncated == 0
    triumph, success = swerve_at_least(4, edge), swerve_at_least(1, edge)
    assert odds.outcomes == {"triumph": triumph, "success": success - triumph, "setback": 1 - success}


def test_the_two_rolled_swerve_has_the_odds_of_the_one_rolled():
    one = SWERVE.replace("swerve:", "one:").replace("    rolls:\n      good: 1d6!\n      bad: 1d6!\n",
                                                    "    roll: 1d6! - 1d6!\n").replace("good - bad", "roll")
    rs = ruleset(SWERVE + one)
    for edge in (-2, 1):
        two, single = rs.check("swerve").odds({"edge": edge}), rs.check("one").odds({"edge": edge})
        assert two.outcomes == single.outcomes and two.truncated == single.truncated == 0
        assert two.to_dict()["result"] == single.to_dict()["result"]


def test_rolling_still_rolls_and_shows_each_roll():
    result = ruleset(SWERVE).check("swerve").roll({"edge": 0}, seed=3)
    assert set(result.rolls) == {"good", "bad"} and result.result == result.rolls["good"] - result.rolls["bad"]


THREE = """\
  three:
    rolls:
      a: 1d6!
      b: 1d8!
      c: 1d10!
    result: a + b - c
    outcomes:
      - {name: big, when: "result >= 6", success: true}
      - {name: low, when: "c - a - b >= 2", success: false}
      - {name: even, success: false}
"""


def test_three_rolls_summed_with_signs_either_way_round_are_followed_for_ever():
    odds = ruleset(THREE).check("three").odds({})
    plus, minus = ((6, (6,)), (8, (8,))), ((10, (10,)),)
    big = open_sum_at_least(OpenSum(plus, minus), 6)
    low = 1 - open_sum_at_least(OpenSum(plus, minus), -1)  # c - a - b >= 2: a + b - c <= -2
    assert odds.truncated == 0
    assert odds.outcomes == {"big": big, "low": low, "even": 1 - big - low}


# ---- plain dice: the same rules by every face, fused or not ------------------------------------

PLAIN = {"a": (6, 6), "b": (8,), "c": (4,)}  # 2d6, 1d8, 1d4


def brute(rule, condition=None) -> dict[str, F]:
    """Each outcome's chance by every face of every die: ``rule(a, b, c)`` names it."""
    dice = [range(1, s + 1) for name in PLAIN for s in PLAIN[name]]
    counts: dict[str, int] = {}
    kept = 0
    for faces in product(*dice):
        a, b, c = faces[0] + faces[1], faces[2], faces[3]
        if condition is not None and not condition(a, b, c):
            continue
        kept += 1
        name = rule(a, b, c)
        counts[name] = counts.get(name, 0) + 1
    return {k: F(v, kept) for k, v in counts.items()}


def plain_check(outcomes: str, extra: str = "") -> str:
    return f"""\
  plain:
    rolls:
      a: 2d6
      b: 1d8
      c: 1d4
{extra}    outcomes:
{outcomes}"""


CASES = {
    # fused: read only through a - b + c (or its negation)
    "one sum": ("""      - {name: hit, when: "a - b + c >= 4", success: true}
      - {name: near, when: "b - a - c <= -1", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if a - b + c >= 4 else "near" if b - a - c <= -1 else "miss", ("a", "b", "c")),
    # a read alone too: only b and c could be fused, but b is read in a sum with a: nothing fused
    "one read alone": ("""      - {name: hit, when: "a - b + c >= 4 and a >= 10", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if a - b + c >= 4 and a >= 10 else "miss", ()),
    # two different sums of the same rolls
    "two sums": ("""      - {name: hit, when: "a - b >= 2", success: true}
      - {name: tie, when: "a + b == 9", success: false}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if a - b >= 2 else "tie" if a + b == 9 else "miss", ()),
    # a multiple written out is part of the sum: b, whose factor is -1, carries it (turned
    # round, a = 0); c is read alone
    "a multiple": ("""      - {name: hit, when: "2 * a - b >= 10", success: true}
      - {name: miss, when: "c >= 3", success: false}
      - {name: graze, success: false}
""", lambda a, b, c: "hit" if 2 * a - b >= 10 else "miss" if c >= 3 else "graze", ("b", "a")),
    # the same sum, and twice it the other way round: one sum
    "a sum and its multiple": ("""      - {name: hit, when: "a - c >= 7", success: true}
      - {name: near, when: "(c - a) * 2 >= -6", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if a - c >= 7 else "near" if (c - a) * 2 >= -6 else "miss", ("a", "c")),
    # no factor of 1: nothing can carry the sum's value alone
    "no unit factor": ("""      - {name: hit, when: "2 * a - 3 * b >= 0", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if 2 * a - 3 * b >= 0 else "miss", ()),
    # a product of two rolls is no sum
    "a product": ("""      - {name: hit, when: "a * b - c >= 20", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if a * b - c >= 20 else "miss", ()),
    # a sum inside a function and a table-like if(): still the one sum
    "inside calls": ("""      - {name: hit, when: "max(a - b, 0) + if(a - b > 3, 2, 0) >= 4", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if max(a - b, 0) + (2 if a - b > 3 else 0) >= 4 else "miss", ("a", "b")),
    # a roll summed away (a - a + b - c) is read there, but not as +1 or -1: nothing fused
    "summed away": ("""      - {name: hit, when: "a - a + b - c >= 2", success: true}
      - {name: miss, success: false}
""", lambda a, b, c: "hit" if b - c >= 2 else "miss", ()),
}


@pytest.mark.parametrize("case", list(CASES))
def test_plain_rolls_have_every_faces_odds_fused_or_not(case):
    outcomes, rule, fused = CASES[case]
    rs = ruleset(plain_check(outcomes))
    check = rs.model.checks["plain"]
    found = fused_rolls(check, (), frozenset(), rs.limits, rs.functions)
    assert [m for f in found for m in f.members] == list(fused)
    odds = rs.check("plain").odds({})
    assert odds.truncated == 0
    assert {k: v for k, v in odds.outcomes.items() if v} == brute(rule)


def test_a_roll_fixed_by_a_gate_is_not_summed_away():
    """Take 5 on ``a`` when ``steady``: the rules read a - b + c with a = 5, not the sum's
    value held by a with b and c at 0."""
    extra = """    inputs:
      steady: {type: boolean, default: false}
    gates:
      - {when: steady, rolls: {a: 5}}
"""
    outcomes, rule, _ = CASES["one sum"]
    rs = ruleset(plain_check(outcomes, extra))
    want = {}
    for b, c in product(range(1, 9), range(1, 5)):
        name = rule(5, b, c)
        want[name] = want.get(name, 0) + F(1, 32)
    assert rs.check("plain").odds({"steady": True}).outcomes == {k: want.get(k, 0) for k in ("hit", "near", "miss")}
    assert {k: v for k, v in rs.check("plain").odds({"steady": False}).outcomes.items() if v} == brute(rule)


def test_a_condition_that_reads_one_roll_alone_turns_the_fusion_off():
    outcomes, rule, _ = CASES["one sum"]
    rs = ruleset(plain_check(outcomes))
    odds = rs.check("plain").odds({}, given="a >= 9")
    assert {k: v for k, v in odds.outcomes.items() if v} == brute(rule, lambda a, b, c: a >= 9)
    odds = rs.check("plain").odds({}, given="a - b + c >= 2")  # read through the sum: still fused
    assert {k: v for k, v in odds.outcomes.items() if v} == brute(rule, lambda a, b, c: a - b + c >= 2)


def test_a_multiple_of_an_exploding_roll_in_the_sum_is_followed_for_ever():
    """``2 * good - bad``: the oracle takes good's total twice (its chain's values spread)."""
    rs = ruleset(SWERVE.replace("good - bad + edge", "2 * good - bad + edge"))
    for edge in (-3, 0):
        odds = rs.check("swerve").odds({"edge": edge})
        plus, minus = ((6, (6,), 2),), (D6,)
        triumph, success = swerve_at_least(4, edge, plus, minus), swerve_at_least(1, edge, plus, minus)
        assert odds.truncated == 0
        assert odds.outcomes == {"triumph": triumph, "success": success - triumph, "setback": 1 - success}


# ---- a term that is the highest or lowest of rolls: a wild die against an exploding defense ----

WILD = """\
  wild:
    inputs:
      edge: {type: integer, default: 0, min: -5, max: 5}
    rolls:
      trait: 1d8!
      wild: 1d6!
      defense: 1d6!
    result: RESULT
    outcomes:
      - {name: raise, when: "result >= 4", success: true}
      - {name: hit, when: "result >= 0", success: true}
      - {name: miss, success: false}
"""


@pytest.mark.parametrize("edge", [-3, 0, 2])
def test_the_better_of_a_trait_and_a_wild_die_less_a_defense_is_followed_for_ever(edge):
    """``max(trait, wild) - defense``, three rolls named apart, has the odds of the one roll
    ``max(1d8!, 1d6!) - 1d6!``: the oracle's series, nothing truncated."""
    odds = ruleset(WILD.replace("RESULT", "max(trait, wild) - defense + edge")).check("wild").odds({"edge": edge})
    raised = extreme_minus_sum((8, 6), True, (6,), 4 - edge)
    hit = extreme_minus_sum((8, 6), True, (6,), -edge)
    assert odds.truncated == 0
    assert odds.outcomes == {"raise": raised, "hit": hit - raised, "miss": 1 - hit}


def test_the_lowest_and_a_sum_turned_round_are_followed_for_ever():
    """``defense - min(wild, trait)`` read as ``<= -4`` is ``min(…) - defense >= 4`` turned round."""
    odds = ruleset(WILD.replace("RESULT", "defense - min(wild, trait)").replace("result >= 4", "result <= -4")
                   .replace("result >= 0", "result <= 0")).check("wild").odds()
    raised = extreme_minus_sum((8, 6), False, (6,), 4)
    hit = extreme_minus_sum((8, 6), False, (6,), 0)
    assert odds.truncated == 0
    assert odds.outcomes == {"raise": raised, "hit": hit - raised, "miss": 1 - hit}


def test_a_roll_of_the_highest_also_read_alone_is_not_fused_and_is_bounded():
    """A tag reading the trait die alone: the rolls are joined value by value (cut at the
    explosion depth), and the odds stay within what the cut leaves of the oracle's figure."""
    text = WILD.replace("RESULT", "max(trait, wild) - defense") + \
        "    tags:\n      - {name: big_trait, when: \"trait >= 8\"}\n"
    check = ruleset(text).check("wild")
    odds = check.odds()
    hit = extreme_minus_sum((8, 6), True, (6,), 0)
    assert odds.truncated > 0
    assert odds.outcomes["raise"] + odds.outcomes["hit"] <= hit <= \
        odds.outcomes["raise"] + odds.outcomes["hit"] + odds.truncated
    assert fused_rolls(check.model, (), frozenset(), check.runner.limits, check.runner.functions) == ()


def test_rolling_the_fused_highest_still_rolls_each_die():
    check = ruleset(WILD.replace("RESULT", "max(trait, wild) - defense")).check("wild")
    rolled = check.roll(faces=[3, 6, 2, 4])  # trait 3; wild 6, exploding into 2; defense 4
    assert rolled.result == 8 - 4
    assert [line.split(":")[0] for line in rolled.trace.splitlines()] == ["trait", "wild", "defense"]


@pytest.mark.parametrize("result", ["max(trait, wild) - defense", "min(trait, wild) + edge",
                                    "2 * defense - max(trait, wild)", "max(trait, wild, defense)"])
def test_plain_dice_read_through_the_highest_have_every_faces_odds(result):
    """Plain dice, fused or not: every face of every roll listed and the rules applied by hand."""
    text = WILD.replace("1d8!", "1d4").replace("1d6!", "1d3").replace("RESULT", result)
    odds = ruleset(text).check("wild").odds({"edge": 1})
    counts = {"raise": F(0), "hit": F(0), "miss": F(0)}
    for trait, wild, defense in product(range(1, 5), range(1, 4), range(1, 4)):
        value = {"max(trait, wild) - defense": max(trait, wild) - defense, "min(trait, wild) + edge": min(trait, wild) + 1,
                 "2 * defense - max(trait, wild)": 2 * defense - max(trait, wild),
                 "max(trait, wild, defense)": max(trait, wild, defense)}[result]
        counts["raise" if value >= 4 else "hit" if value >= 0 else "miss"] += F(1, 36)
    assert odds.outcomes == counts
