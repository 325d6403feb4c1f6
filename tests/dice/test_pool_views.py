"""Exact odds of rules that read a pool's dice through counts, highest and lowest (issue 14,
"counting faces on a big pool is refused"): the roll is enumerated by its readings, not by
its multisets of faces (``view_dist``). Checked three ways: against the multiset
enumeration it replaces, on every small pool a generator makes (rerolls, explosions,
success counting included); against closed forms on pools far too big to enumerate; and
through whole checks against itertools."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import defaultdict
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesengine.dice.dist import Budget
from rulesengine.dice.parser import parse
from rulesengine.dice.pool import PoolSpec
from rulesengine.dice.pool_odds import PoolView, faces_dist, view_dist
from rulesengine.dice.view_floor import view_floor
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.rules.faces import CountFunction
from rulesengine.ruleset import loads


def spec_of(text: str) -> PoolSpec:
    from rulesengine.dice import ast

    node = next(n for n in ast.walk(parse(text)) if isinstance(n, ast.Dice))
    return PoolSpec.of(node)


def read(view: PoolView, rolled, spec: PoolSpec) -> tuple:
    """What ``view`` reads of a roll, restated here from the functions' meaning."""
    faces = rolled.faces
    firsts = rolled.initial or ()
    caps = dict(view.caps)  # a capped count reads as at most its cap

    def count(c, first: bool) -> int:
        dice = firsts if first else faces
        seen = len(dice) if c is None else sum(c[0] <= f <= c[1] for f in dice)
        return min(seen, caps[(first, c)]) if (first, c) in caps else seen

    return ((rolled.total if view.total else None),
            tuple(count(c, False) for c in view.counts),
            max(faces) if view.highest and faces else None, min(faces) if view.lowest and faces else None,
            tuple(count(c, True) for c in view.initial),
            tuple(symbol_capped(view, net, sum(sign * sum(spec.die.symbols_on(f).count(name) for f in faces)
                                               for name, sign in net)) for net in view.symbols),
            tuple(sum(weight * sum(1 for f in faces if c is None or c[0] <= f <= c[1]) for c, weight in read)
                  for read in view.sums),
            tuple(OPS[op](weight * (RESTATED[of.text] if of is not None else lambda k: k)(
                              seen if cap is None else min(seen, cap))
                          for c, cap, of, weight in terms for seen in [sum(c[0] <= f <= c[1] for f in faces)])
                  for op, terms in view.complete))


OPS = {"max": max, "min": min, "sum": sum}  # what each complete read makes of its terms' numbers


def symbol_capped(view: PoolView, net, value: int) -> int:
    """A sum of symbols read as at most its cap, where the view caps it."""
    caps = dict(view.symbol_caps)
    return min(value, caps[net]) if net in caps else value


def readings(dist, view: PoolView, spec: PoolSpec) -> dict:
    out: dict = defaultdict(F)
    for rolled, p in dist.probabilities().items():
        out[read(view, rolled, spec)] += p
    return dict(out)


def cut_readings(dist, view: PoolView, spec: PoolSpec) -> dict:
    """The rolls the explode depth cut (their dice so far, their total so far), read alike."""
    out: dict = defaultdict(F)
    for cut, w in dist.tail.items():
        out[read(view, SimpleNamespace(faces=cut.faces, initial=cut.initial, total=cut.low), spec)] += F(w, dist.denom)
    return dict(out)


TERMS = ["d6", "d4", "d6r1", "d6ro<2", "d6!", "d4!>=3", "d6!!", "d6!p", "d6cs>=5", "d6cs>=5cf1", "d{1,1,2,3}",
         "d6min2", "d4!cs4",
         # symbol dice: faces numbered by place; reads count symbols, some netted (a - b)
         "d{[], [a], [a, b], [b, b]}", "d{[], [a], [a, a]}!=3", "d{[a], [b], []}r3", "d{[b], [a, b], [a]}ro1"]
COUNTS = st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 4), st.integers(1, 7))), max_size=2).map(tuple)
NETS = st.lists(st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from([1, -1])), min_size=1, max_size=2,
                         unique_by=lambda x: x[0]).map(lambda r: tuple(sorted(r))), max_size=2).map(tuple)
# the last two: counts among the first throw's dice, symbols counted
SUMS = st.lists(st.lists(st.tuples(st.one_of(st.none(), st.tuples(st.integers(0, 4), st.integers(1, 7))),
                                   st.sampled_from([1, 2, -1, 3])), min_size=1, max_size=3,
                         unique_by=lambda x: x[0]).map(tuple), max_size=2).map(tuple)
# weighted sums of counts: `count(roll, 5, 6) + count(roll, 6)`, `2 * count(roll, 6) - count(roll, 1)`
# Numbers made of one count, as the rules write them (C: the count) and restated here.
COUNT_FUNCTIONS = {"floor(C / 2)": lambda k: k // 2, "if(C >= 2, 1, 0)": lambda k: int(k >= 2),
                   "min(C, 2) * 3 - 1": lambda k: min(k, 2) * 3 - 1}


def count_function(text: str | None, c: tuple[int, int]) -> CountFunction | None:
    """The rules' function ``text`` of the count of range ``c`` (read on a roll named roll)."""
    if text is None:
        return None
    written = text.replace("C", f"count(roll, {c[0]}, {c[1]})")
    RESTATED[written] = COUNT_FUNCTIONS[text]
    return CountFunction(parse(written), written, "roll", c[0])


RESTATED: dict = {}  # each function written for a range, restated


TERM = st.tuples(st.tuples(st.integers(0, 4), st.integers(1, 7)), st.one_of(st.none(), st.integers(0, 3)),
                 st.one_of(st.none(), st.sampled_from(sorted(COUNT_FUNCTIONS))), st.sampled_from([1, 2, -1])) \
    .map(lambda t: (t[0], t[1], count_function(t[2], t[0]), t[3]))
COMPLETE = st.lists(st.tuples(st.sampled_from(sorted(OPS)), st.lists(TERM, min_size=1, max_size=3).map(tuple)),
                    max_size=2).map(tuple)
# the largest, smallest or sum of numbers of one count: `max(count(roll, 1), count(roll, 2), count(roll,
# 3, 4))` (the widest set), `max(if(count(roll, 1) >= 2, 1, 0), …)`, `min(count(roll, 1), 1) +
# floor(count(roll, 2, 3) / 2) - count(roll, 6)`


@st.composite
def views(draw) -> PoolView:
    """A view, some of its counts capped (read as at most 1..3: counts only compared with numbers)."""
    view = draw(st.builds(PoolView, st.booleans(), COUNTS, st.booleans(), st.booleans(), COUNTS, NETS,
                          caps=st.just(()), sums=SUMS, complete=COMPLETE))
    keys = list(dict.fromkeys([(False, c) for c in view.counts] + [(True, c) for c in view.initial]))
    caps = tuple((k, draw(st.integers(1, 3))) for k in keys if draw(st.booleans()))
    # a sum of symbols that counts up (no sign −) may be capped too (compared with a number)
    symbol_caps = tuple((net, draw(st.integers(1, 3))) for net in dict.fromkeys(view.symbols)
                        if all(sign > 0 for _, sign in net) and draw(st.booleans()))
    return view._replace(caps=caps, symbol_caps=symbol_caps)


VIEWS = views()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TERMS), st.integers(0, 4), VIEWS)
def test_reading_a_pool_through_a_view_gives_the_same_odds_as_enumerating_its_faces(term, n, view):
    spec = spec_of(term)
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=3)
    whole = faces_dist(spec, n, limits, Budget(10 ** 9), initial=bool(view.initial))
    seen = view_dist(spec, n, view, limits, Budget(10 ** 9))
    assert seen is not None
    if whole.tail and not seen.tail:  # followed for ever (tests/dice/test_chains_followed.py)
        got, depth = readings(seen, view, spec), readings(whole, view, spec)
        cut = 1 - sum(depth.values(), F(0))
        assert all(got.get(r, F(0)) >= p for r, p in depth.items())  # the depth's, and more
        assert sum(got.values(), F(0)) == 1 and all(p - depth.get(r, F(0)) <= cut for r, p in got.items())
        return
    assert readings(seen, view, spec) == readings(whole, view, spec)
    assert cut_readings(seen, view, spec) == cut_readings(whole, view, spec)
    assert seen.denom == whole.denom or sum(seen.weights.values()) * whole.denom == \
        sum(whole.weights.values()) * seen.denom  # the same mass is truncated


def test_a_keep_that_drops_dice_is_left_to_the_enumeration_of_faces():
    assert view_dist(spec_of("4d6kh3"), 4, PoolView(counts=((6, 6),)), DEFAULT_LIMITS, Budget(10 ** 6)) is None
    assert view_dist(spec_of("3d6kh3"), 3, PoolView(counts=((6, 6),)), DEFAULT_LIMITS, Budget(10 ** 6)) is not None


def test_two_counts_on_thirty_dice_match_the_multinomial():
    """Successes (5-6) and ones on 30d6 jointly: the multinomial law, where the multisets of
    faces would number C(35, 5) = 324,632."""
    view = PoolView(counts=((5, 6), (1, 1)))
    dist = view_dist(spec_of("30d6"), 30, view, DEFAULT_LIMITS, Budget(DEFAULT_LIMITS.max_states))
    got = readings(dist, view, spec_of("30d6"))
    assert len(got) == 31 * 32 // 2
    for (_, (hits, ones), _, _, _, _, _, _), p in got.items():
        rest = 30 - hits - ones
        want = F(math.factorial(30), math.factorial(hits) * math.factorial(ones) * math.factorial(rest)) \
            * F(2, 6) ** hits * F(1, 6) ** ones * F(3, 6) ** rest
        assert p == want


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TERMS), st.integers(0, 6), VIEWS)
def test_the_floor_of_a_view_is_never_more_than_it_makes_and_charges(term, n, view):
    """What a push is charged before it is worked out (issue 33, item 3) is a floor: the
    rolls a view gives (those the depth cut aside) and the steps it charges are never fewer."""
    spec = spec_of(term)
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=3)
    budget = Budget(10 ** 9)
    seen = view_dist(spec, n, view, limits, budget)
    assert seen is not None
    floor = view_floor(spec, n, view, limits)
    assert 1 <= floor.values <= len(seen.weights) or (floor.values == 1 and not seen.weights)
    assert floor.steps <= budget.used


@pytest.mark.parametrize("n", [1, 5, 12, 40])
def test_the_floor_of_dice_read_by_bands_is_every_way_they_fall_into_the_bands(n):
    # 1s, 2..4, 5 and 6 on d6: the floor counts the readings exactly, as splitting n dice
    # among four bands does (by enumeration here).
    ways = sum(1 for split in itertools.product(range(n + 1), repeat=3) if sum(split) <= n)
    floor = view_floor(spec_of("d6"), n, PoolView(counts=((1, 1), (5, 5), (6, 6))), DEFAULT_LIMITS)
    assert floor.values == ways


def test_the_floor_of_symbols_counted_is_every_sum_of_the_symbols_shown():
    # Each die shows -1, 0, +1 or +2 of a net and 0 or 1 of another symbol: the sums of
    # five dice, by enumeration.
    spec = spec_of("d{[], [a], [a, a], [b], [c, b]}")
    view = PoolView(symbols=((("a", 1), ("c", -1)), (("b", 1),)))
    one = [(0, 0), (1, 0), (2, 0), (0, 1), (-1, 1)]
    sums = {tuple(map(sum, zip(*dice, strict=True))) for dice in itertools.product(one, repeat=5)}
    assert view_floor(spec, 5, view, DEFAULT_LIMITS).values == len(sums)


POOL = """
ruleset: views
name: Views
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, default: 4, min: 1, max: 60}
    roll: (dice)d6
    let:
      hits: count(roll, 5, 6)
      ones: count(roll, 1)
    result: hits
    outcomes:
      - {name: botch, when: "hits == 0 and ones > 0", success: false}
      - {name: critical, when: "highest(roll) == 6 and hits >= 3", success: true}
      - {name: success, when: "hits >= 2", success: true}
      - {name: failure, success: false}
    report: [hits, ones]
  flurry:
    roll: 2d4!
    result: count(roll, 3, 4)
    outcomes:
      - {name: wild, when: "count(roll) > 3", success: true}
      - {name: plain, success: true}
  total:
    roll: 4d6
    result: roll + count(roll, 6)
    outcomes: [{name: any, success: true}]
"""


def by_hand(faces: tuple[int, ...]) -> str:
    hits = sum(f >= 5 for f in faces)
    if hits == 0 and 1 in faces:
        return "botch"
    if max(faces) == 6 and hits >= 3:
        return "critical"
    return "success" if hits >= 2 else "failure"


@pytest.fixture(scope="module")
def rs():
    return loads(POOL, "views.yaml")


def test_a_check_counting_two_face_sets_matches_every_roll_of_its_dice(rs):
    want: dict = defaultdict(F)
    hits: dict = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=4):
        want[by_hand(faces)] += F(1, 6 ** 4)
        hits[sum(f >= 5 for f in faces)] += F(1, 6 ** 4)
    odds = rs.check("pool").odds({"dice": 4})
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(want)
    assert odds.values["hits"] == dict(sorted(hits.items()))


def test_a_check_counting_on_a_big_pool_is_exact_and_affordable(rs):
    """30d6 is refused by an enumeration of faces; through its readings it is a few hundred
    states. The botch is 'no hits and at least one 1': (3/6)^30... restated in closed form."""
    odds = rs.check("pool").odds({"dice": 30})
    no_hits = F(4, 6) ** 30
    no_hits_no_ones = F(3, 6) ** 30
    assert odds.outcomes["botch"] == no_hits - no_hits_no_ones
    fewer_than_two = F(4, 6) ** 30 + 30 * F(2, 6) * F(4, 6) ** 29
    assert odds.success == 1 - fewer_than_two
    assert odds.truncated == 0


def test_counting_every_die_of_an_exploding_pool_matches_walking_its_explosions(rs):
    """A count on 2d4!: the dice rolled, explosions included (depth-limited, the cut mass
    reported as truncated in the result), against the roller's every sequence of faces. The
    outcome reads how many dice there are: a cut roll has more than 3, so the outcomes are
    exact (more than 3 dice unless the two chains explode at most once between them)."""
    from oracle import replay_dist  # every sequence of faces, the roller's own path

    odds = rs.check("flurry").odds({})
    dist, truncated = replay_dist("2d4!cs>=3")  # a count of 3-4 on the same pool
    result = {v: p for v, p in odds.result_distribution.items()}
    assert result == {v: p for v, p in dist.items()}
    assert odds.result_truncated == truncated and odds.truncated == 0
    at_most_one = F(3, 4) ** 2 + 2 * F(1, 4) * F(3, 4) * F(3, 4)
    assert odds.outcomes == {"wild": 1 - at_most_one, "plain": at_most_one}


def test_a_roll_read_both_as_a_number_and_by_its_dice_keeps_its_total(rs):
    want: dict = defaultdict(F)
    for faces in itertools.product(range(1, 7), repeat=4):
        want[sum(faces) + faces.count(6)] += F(1, 6 ** 4)
    assert rs.check("total").odds({}).result_distribution == dict(sorted(want.items()))


@pytest.mark.parametrize("given, holds", [
    ("count(roll, 6) >= 2", lambda f: f.count(6) >= 2),
    ("lowest(roll) >= 3", lambda f: min(f) >= 3),
    ("count(roll, 2, 3) == 1", lambda f: sum(2 <= x <= 3 for x in f) == 1),
])
def test_conditional_odds_may_read_dice_the_check_itself_does_not(rs, given, holds):
    kept = [f for f in itertools.product(range(1, 7), repeat=4) if holds(f)]
    want: dict = defaultdict(F)
    for faces in kept:
        want[by_hand(faces)] += F(1, len(kept))
    odds = rs.check("pool").odds({"dice": 4}, given=given)
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(want)
    assert odds.given_probability == F(len(kept), 6 ** 4)


@given(st.lists(st.tuples(st.lists(st.integers(1, 12), min_size=1, max_size=6), st.booleans()), min_size=1, max_size=30))
def test_a_state_of_many_alike_dice_is_flattened_as_its_values_sorted_one_by_one(dice):
    """A state of the fold holds each die as a chain of values (a cut one as a CutChain),
    the same few chains many times over, counted: the roll written from the counted chains
    is the one the values sorted one by one give (every value, each die's first, the
    total, the cut)."""
    from rulesengine.dice.pool_odds import _flattened, _Scores
    from rulesengine.dice.view_fold import CutChain

    counted: dict = {}
    for values, cut in dice:  # alike dice: each chain three times over
        key = CutChain(values) if cut else tuple(values)
        counted[key] = counted.get(key, 0) + 3
    chains = [tuple(key) for key, m in counted.items() for _ in range(m)]
    score = {f: f * f - 3 for f in range(1, 13)}
    faces, initial, total, cut = _flattened(counted, _Scores(score.__getitem__))
    every = sorted((f for c in chains for f in c), reverse=True)
    assert faces == tuple(every)
    assert initial == tuple(sorted((c[0] for c in chains), reverse=True))
    assert total == sum(score[f] for f in every)
    assert cut == any(type(key) is CutChain for key in counted)
