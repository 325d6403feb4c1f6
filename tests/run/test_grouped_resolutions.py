"""One call's odds resolve alike the joint values its rules can't tell apart (issue 33,
items 2 and 7): the rules read the rolls only through parts worked out from rolls alone
(``value`` of a d100 and its penalty dice; ``count(pool_dice, 5, 6) + again`` of a push), so
the joint values on which the parts agree are resolved once, their weights added up. A
value explosions cut is keyed by its bound: cut paths whose parts are cut alike resolve
alike, and what the depth can't decide stays truncated.

Figures are checked against every throw enumerated here, or the closed form of one
exploding d6 (P(v) = (1/6)^(q+1) for v = 6q + r, 0 < r < 6); the work is counted in
resolutions, never a clock.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

RULES = """
ruleset: grouped
name: Grouped
version: "1"
source: tests
checks:
  percentile:
    inputs:
      skill: {type: integer, default: 50, min: 1, max: 100}
    rolls:
      ones: d{0,1,2,3,4,5,6,7,8,9}
      tens: d{0,1,2,3,4,5,6,7,8,9}
      penalty1: d{0,1,2,3,4,5,6,7,8,9}
      penalty2: d{0,1,2,3,4,5,6,7,8,9}
    let:
      raw: 10 * max(tens, penalty1, penalty2) + ones
      value: if(raw == 0, 100, raw)
    result: value
    outcomes:
      - {name: fumble, when: "value == 100 or (skill < 50 and value >= 96)", success: false}
      - {name: extreme, when: "value <= skill / 5", success: true}
      - {name: hard, when: "value <= skill / 2", success: true}
      - {name: regular, when: "value <= skill", success: true}
      - {name: failure, success: false}
  sum_of_explosions:
    inputs:
      need: {type: integer, default: 15, min: 2, max: 40}
    rolls:
      a: 1d6!
      b: 1d6!
      c: 1d20
    result: a + b + c
    outcomes:
      - {name: hit, when: "result >= need", success: true}
      - {name: miss, success: false}
  dominant:
    # four pools (Don't Rest Your Head): 1-3 succeed; the pool with the most 6s dominates,
    # ties going to pain, then discipline, exhaustion, madness
    inputs:
      discipline: {type: integer, default: 2, min: 1, max: 6}
      exhaustion: {type: integer, default: 1, min: 0, max: 6}
      madness: {type: integer, default: 1, min: 0, max: 6}
      pain: {type: integer, default: 2, min: 1, max: 15}
    rolls:
      d: (discipline)d6
      e: (exhaustion)d6
      m: (madness)d6
      p: (pain)d6
    let:
      mine: count(d, 1, 3) + count(e, 1, 3) + count(m, 1, 3)
      theirs: count(p, 1, 3)
      sixes_d: count(d, 6)
      sixes_e: count(e, 6)
      sixes_m: count(m, 6)
      sixes_p: count(p, 6)
      top: max(sixes_d, sixes_e, sixes_m, sixes_p)
      dominant: "if(sixes_p == top, 0, if(sixes_d == top, 1, if(sixes_e == top, 2, 3)))"
    result: mine - theirs
    report: [dominant]
    outcomes:
      - {name: win, when: "mine >= theirs", success: true}
      - {name: lose, success: false}
  feat:
    # The One Ring: a feat die (11 the Eye, 0; 12 the rune, a success whatever the total),
    # two of them kept better or worse, and success dice that count 0 on 1-3 when weary
    inputs:
      skill: {type: integer, default: 3, min: 0, max: 6}
      tn: {type: integer, default: 14, min: 10, max: 20}
      weary: {type: boolean, default: false}
      favoured: {type: integer, default: 0, min: -1, max: 1}
    rolls:
      feat1: d12
      feat2: d12
      dice: (skill)d6
    let:
      rank1: if(feat1 == 11, 0, if(feat1 == 12, 99, feat1))
      rank2: if(feat2 == 11, 0, if(feat2 == 12, 99, feat2))
      kept: if(favoured > 0, max(rank1, rank2), if(favoured < 0, min(rank1, rank2), rank1))
      shown: if(weary, sum(dice) - count(dice, 1) - 2 * count(dice, 2) - 3 * count(dice, 3), sum(dice))
      total: if(kept == 99, 0, kept) + shown
      tengwar: count(dice, 6)
    result: total
    report: [tengwar]
    outcomes:
      - {name: great, when: "(kept == 99 or total >= tn) and tengwar >= 1", success: true}
      - {name: success, when: "kept == 99 or total >= tn", success: true}
      - {name: eye, when: "kept == 0", success: false}
      - {name: failure, success: false}
"""


@pytest.fixture(scope="module")
def rs():
    return loads(RULES, "grouped.yaml")


def percentile_by_hand(skill: int) -> tuple[dict, dict]:
    outcomes: dict = defaultdict(F)
    results: dict = defaultdict(F)
    for ones, tens, p1, p2 in itertools.product(range(10), repeat=4):
        raw = 10 * max(tens, p1, p2) + ones
        value = 100 if raw == 0 else raw
        if value == 100 or (skill < 50 and value >= 96):
            name = "fumble"
        elif value <= skill / 5:
            name = "extreme"
        elif value <= skill / 2:
            name = "hard"
        else:
            name = "regular" if value <= skill else "failure"
        outcomes[name] += F(1, 10 ** 4)
        results[value] += F(1, 10 ** 4)
    return dict(outcomes), dict(sorted(results.items()))


@pytest.mark.parametrize("skill", [1, 37, 50, 99])
def test_ten_thousand_throws_read_through_one_value_are_resolved_once_per_value(rs, resolved, skill):
    want_outcomes, want_result = percentile_by_hand(skill)
    odds = rs.check("percentile").odds({"skill": skill})
    assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes
    assert odds.result_distribution == want_result
    assert resolved[0] == 100  # one resolution for each value of `value`, not 10,000


def exploding_d6(v: int) -> F:
    q, r = divmod(v, 6)
    return F(1, 6) ** (q + 1) if r else F(0)


@pytest.mark.parametrize("need", [2, 15, 30])
def test_cut_paths_keyed_by_their_bound_decide_what_the_depth_cannot_change(rs, resolved, need):
    """a + b + c with two exploding d6s: the outcome is exact (a path cut at 66 or more is a
    hit for any need up to 40) and equals 1 − P(a + b + c < need), a finite sum."""
    miss = sum((exploding_d6(a) * exploding_d6(b) * F(1, 20)
                for a in range(1, need) for b in range(1, need) for c in range(1, 21) if a + b + c < need), F(0))
    odds = rs.check("sum_of_explosions").odds({"need": need})
    assert odds.truncated == 0
    assert odds.outcomes == {"hit": 1 - miss, "miss": miss}
    assert resolved[0] < 300  # the sums and the cut bounds, where the joint values are some 70,000


def pool_by_hand(dice: int) -> dict:
    """Every throw of ``dice`` d6s: the chance of each (dice showing 1-3, dice showing 6)."""
    out: dict = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=dice):
        out[(sum(f <= 3 for f in faces), faces.count(6))] += F(1, 6 ** dice)
    return out


def dominant_by_hand(discipline: int, exhaustion: int, madness: int, pain: int) -> tuple[dict, dict]:
    """Every throw of each of the four pools, the pools independent."""
    outcomes: dict = defaultdict(F)
    reported: dict = defaultdict(F)
    pools = [pool_by_hand(n).items() for n in (discipline, exhaustion, madness, pain)]
    for ((low_d, six_d), pd), ((low_e, six_e), pe), ((low_m, six_m), pm), ((low_p, six_p), pp) in \
            itertools.product(*pools):
        p = pd * pe * pm * pp
        top = max(six_d, six_e, six_m, six_p)
        dominant = next(i for i, k in ((0, six_p), (1, six_d), (2, six_e), (3, six_m)) if k == top)
        outcomes["win" if low_d + low_e + low_m >= low_p else "lose"] += p
        reported[dominant] += p
    return dict(outcomes), dict(reported)


def test_lets_of_rolls_are_worked_out_once_for_each_value_they_read(rs, lets_worked, resolved):
    """The groups of joint values work out each let once for each set of values it reads:
    ``sixes_d`` once for each reading of ``d``, not once for each of the 3,600 joint values
    of the four pools (each pool read as its 1-3s and its 6s); every figure is every throw's."""
    inputs = {"discipline": 3, "exhaustion": 2, "madness": 2, "pain": 3}
    want_outcomes, want_dominant = dominant_by_hand(**inputs)
    odds = rs.check("dominant").odds(inputs)
    assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes
    assert {k: v for k, v in odds.values["dominant"].items() if v} == want_dominant
    assert resolved[0] < 3600  # grouped: the joint values the rules tell apart resolved once each
    # worked out one by one, the eight lets of 3,600 joint values would be 28,800
    assert lets_worked[0] < 3600


def feat_by_hand(skill: int, tn: int, weary: bool, favoured: int) -> tuple[dict, dict]:
    """Every throw of the two feat dice and the success dice."""
    outcomes: dict = defaultdict(F)
    results: dict = defaultdict(F)
    p = F(1, 144 * 6 ** skill)
    for f1, f2, *dice in itertools.product(range(1, 13), range(1, 13), *[range(1, 7)] * skill):
        r1, r2 = ({11: 0, 12: 99}.get(f, f) for f in (f1, f2))
        kept = max(r1, r2) if favoured > 0 else min(r1, r2) if favoured < 0 else r1
        total = (0 if kept == 99 else kept) + sum(0 if weary and d <= 3 else d for d in dice)
        made = kept == 99 or total >= tn
        name = "great" if made and 6 in dice else "success" if made else "eye" if kept == 0 else "failure"
        outcomes[name] += p
        results[total] += p
    return dict(outcomes), dict(results)


@pytest.mark.parametrize("inputs", [{"skill": 3, "tn": 14, "weary": False, "favoured": 1},
                                    {"skill": 3, "tn": 12, "weary": True, "favoured": -1},
                                    {"skill": 2, "tn": 20, "weary": False, "favoured": 0}])
def test_lets_of_lets_and_inputs_grouped_give_every_throws_figures(rs, resolved, inputs):
    """Lets reading lets (``kept`` reads ``rank1`` and ``rank2``) and inputs (``favoured``,
    ``weary``), parts reading lets (``kept == 99``): each worked out once for each set of
    values it reads, the figures every throw's."""
    want_outcomes, want_result = feat_by_hand(**inputs)
    odds = rs.check("feat").odds(inputs)
    assert {k: v for k, v in odds.outcomes.items() if v} == want_outcomes
    assert {k: v for k, v in odds.result_distribution.items() if v} == want_result
    # thousands of joint values; the feat dice read only through ``kept`` (13 values, not 144)
    # before the success dice are joined to them (groups.retire), then grouped or resolved
    assert resolved[0] < 1000
