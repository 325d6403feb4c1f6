"""Exploding dice read through counts that can't grow for ever are followed for ever (issue 34):
"none of the dice shows a 5" on `3d6!`, a chain of skill dice that shows no strife (8/11 a
die), a count compared with a number. A die that explodes is then a small absorbing chain
over what the rules read of it, and its odds are exact, with nothing truncated.

The oracles are written here apart from the engine: closed forms (a die ends without a 5
with (4/6) / (1 − 1/6) = 4/5: it ends on 1 to 4, after any number of 6s), and for any small
view a linear system over the readings a chain can be at, solved by Gaussian elimination
(:func:`chain_by_elimination`), read with this file's own meaning of a count."""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulesengine.dice import parse
from rulesengine.dice.dist import Budget
from rulesengine.dice.pool import PoolSpec
from rulesengine.dice.pool_odds import PoolView, view_dist
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

CHECKS = """
ruleset: chains
name: Counts of exploding dice
version: "1"
source: tests
checks:
  no_fives:
    inputs:
      n: {type: integer, default: 3, min: 1, max: 6}
    roll: (n)d6!
    outcomes:
      - {name: clean, when: "count(roll, 5) == 0", success: true}
      - {name: marked, success: false}
  no_strife:
    roll: 1d12!>=11
    outcomes:   # strife on 9, 10 and 12 (12 explodes too); 11 explodes without strife
      - {name: calm, when: "count(roll, 9, 10) == 0 and count(roll, 12) == 0", success: true}
      - {name: strife, success: false}
  two_high:
    roll: 3d6!
    outcomes:
      - {name: two, when: "count(roll, 5, 6) >= 2", success: true}
      - {name: fewer, success: false}
"""


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_none_of_the_dice_shows_a_five_is_four_fifths_a_die(n):
    """A d6! ends without a 5 when it ends on 1 to 4 after any number of 6s: Σ (1/6)^k (4/6)
    = 4/5; the dice are independent."""
    odds = loads(CHECKS, "chains.yaml").check("no_fives").odds({"n": n})
    assert odds.truncated == 0
    assert odds.outcomes["clean"] == F(4, 5) ** n


def test_a_chain_of_skill_dice_with_no_strife_is_eight_elevenths():
    """The issue's figure: a d12 exploding on 11 and 12 shows no strife (on 9, 10, 12) when it
    ends on 1 to 8 after any number of 11s: (8/12) / (1 − 1/12) = 8/11, exactly."""
    odds = loads(CHECKS, "chains.yaml").check("no_strife").odds({})
    assert odds.truncated == 0 and odds.outcomes["calm"] == F(8, 11)


def test_two_dice_of_five_or_six_among_exploding_dice():
    """`count(roll, 5, 6) >= 2` on 3d6! by elimination: each die's count of 5s and 6s, read as
    at most 2, then the three dice added (capped)."""
    one = chain_by_elimination("d6!", (5, 6), 2)
    three: dict[int, F] = defaultdict(F)
    for (a, p), (b, q), (c, r) in itertools.product(one.items(), repeat=3):
        three[min(a + b + c, 2)] += p * q * r
    odds = loads(CHECKS, "chains.yaml").check("two_high").odds({})
    assert odds.truncated == 0 and odds.outcomes["two"] == three[2]


def spec_of(text: str) -> PoolSpec:
    from rulesengine.dice import ast

    node = next(n for n in ast.walk(parse(text).tree) if isinstance(n, ast.Dice))
    return PoolSpec.of(node)


def chain_by_elimination(term: str, band: tuple[int, int], cap: int) -> dict[int, F]:
    """One die of ``term``'s chain, its count of faces in ``band`` read as at most ``cap``:
    x_c (the chance of each end count from a chain at count c, before its next die) solves
    x_c = Σ_f p_f [f ends] e(c_f) + Σ_f p_f [f explodes] x(c_f), c_f = min(c + [f in band], cap),
    one unknown vector per c: (I − Q) X = B, by Gaussian elimination over the fractions. A
    penetrating die's added dice count their face less one (`!p`); each explodes on its face."""
    spec = spec_of(term)
    less = 1 if spec.explode == "penetrate" else 0
    faces = list(range(1, spec.die.size + 1))
    p = F(1, len(faces))
    states = list(range(cap + 1))
    n = len(states)
    matrix = [[F(int(i == j)) for j in range(n)] + [F(0)] * n for i in range(n)]  # [I − Q | B]
    for c in states:
        for f in faces:
            nxt = min(c + (band[0] <= f - less <= band[1]), cap)
            if spec.explodes(f):
                matrix[c][nxt] -= p
            else:
                matrix[c][n + nxt] += p
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        matrix[col] = [x / lead for x in matrix[col]]
        for r in range(n):
            if r != col and matrix[r][col] != 0:
                k = matrix[r][col]
                matrix[r] = [x - k * y for x, y in zip(matrix[r], matrix[col], strict=True)]
    x = {c: matrix[c][n:] for c in states}  # x[c][e]: from count c, ending at count e
    first: dict[int, F] = defaultdict(F)
    for f in faces:  # the first die starts the chain from a count of 0
        c = min(int(band[0] <= f <= band[1]), cap)
        if spec.explodes(f):
            for e in states:
                first[e] += p * x[c][e]
        else:
            first[c] += p
    return dict(first)


TERMS = ["d6!", "d4!", "d6!>=5", "d4!=1", "d8!p", "d6!=2!=6"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TERMS), st.integers(1, 4), st.integers(1, 8), st.integers(1, 3))
def test_one_exploding_die_read_by_a_capped_count_is_its_chains_linear_system(term, lo, width, cap):
    """Any small exploding die, one count of a band of faces read as at most a cap: the
    engine's readings are the elimination's, nothing truncated."""
    band = (lo, lo + width - 1)
    view = PoolView(counts=(band,), caps=(((False, band), cap),))
    spec = spec_of(term)
    seen = view_dist(spec, 1, view, dataclasses.replace(DEFAULT_LIMITS, explode_depth=3), Budget(10 ** 7))
    assert seen is not None and not seen.tail
    got: dict[int, F] = defaultdict(F)
    for rolled, q in seen.probabilities().items():
        got[min(sum(band[0] <= f <= band[1] for f in rolled.faces), cap)] += q
    want = chain_by_elimination(term, band, cap)
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}


def test_a_count_that_every_explosion_raises_is_still_followed_to_the_depth():
    """`count(roll, 6)` read whole on 3d6!: each 6 adds one and explodes, so the counts are
    unbounded: the depth's answer, with what it cut reported."""
    view = PoolView(counts=((6, 6),))
    seen = view_dist(spec_of("3d6!"), 3, view, DEFAULT_LIMITS, Budget(10 ** 7))
    assert seen is not None and seen.tail


SYMBOLS = """
ruleset: skill-dice
name: Symbol dice whose explosive faces roll again
version: "1"
source: tests
dice:   # places 11 and 12 are explosive; strife on 9, 10 and 12
  skill: {faces: [[], [], [opportunity], [opportunity], [opportunity], [success, opportunity], [success],
                  [success], [success, strife], [success, strife], [success, explosive],
                  [success, strife, explosive]]}
checks:
  calm:
    inputs:
      n: {type: integer, default: 1, min: 1, max: 4}
    roll: (n)d{skill}!=11!=12
    outcomes:
      - {name: calm, when: "symbols(roll, 'strife') == 0", success: true}
      - {name: strained, success: false}
"""


@pytest.mark.parametrize("n", [1, 2, 4])
def test_a_chain_of_symbol_dice_with_no_strife_is_eight_elevenths_a_die(n):
    """The issue's figure with symbols: a skill die shows no strife when it ends on places 1
    to 8 after any number of 11s (an explosive face without strife): (8/12) / (1 − 1/12)."""
    odds = loads(SYMBOLS, "skill-dice.yaml").check("calm").odds({"n": n})
    assert odds.truncated == 0
    assert odds.outcomes["calm"] == F(8, 11) ** n
