"""The symbols exploding symbol dice show have their mean and variance in closed form, as a
count of faces does: each die a chain worth the named symbols on each face it shows
(Legend of the Five Rings: the successes of the ring dice a kept explosion rolls, which
explode again). An outside author's L5R result was labelled "of the mass worked out".

Oracle, written apart: a chain of k explosions (each with chance 1/6) shows the exploding
face's symbols k times and then one face that doesn't explode, so its successes are
2·K + V with K geometric (P(K = k) = (1/6)^k · 5/6) and V a face of the five others."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from rulesengine.ruleset import loads

DIE = "[[], [opportunity, strife], [opportunity], [success, strife], [success], [success, success, strife]]"
TEXT = f"""\
ruleset: symbols
name: Symbols of exploding dice
version: "1"
source: tests
dice:
  ring:
    faces: {DIE}
checks:
  burst:
    inputs:
      n: {{type: integer, min: 0, max: 6}}
    roll: (n)d{{ring}}!=6
    result: symbols(roll, 'success')
    outcomes:
      - {{name: any, success: true}}
  both:
    inputs:
      n: {{type: integer, min: 0, max: 6}}
    roll: (n)d{{ring}}!=6
    result: symbols(roll, 'success', 'opportunity')
    outcomes:
      - {{name: any, success: true}}
  keep:
    inputs:
      ring: {{type: integer, min: 1, max: 3}}
      extra: {{type: integer, min: 0, max: 2}}
    rolls:
      dice: (ring + extra)d{{ring}}
      more: (bursts)d{{ring}}!=6
    choose:
      from: dice
      pick: ring
      values:
        kept: symbols(chosen, 'success')
        bursts: count(chosen, 6)
      order: [kept, bursts]
    result: kept + symbols(more, 'success')
    outcomes:
      - {{name: any, success: true}}
"""
FACES = [(0, 0), (0, 1), (0, 1), (1, 0), (1, 0), (2, 0)]  # (successes, opportunities) on places 1 to 6
GEOMETRIC_MEAN, GEOMETRIC_VARIANCE = F(1, 5), F(6, 25)  # K: p/(1 - p), p/(1 - p)² for p = 1/6


def chain(worth: list[int]) -> tuple[F, F]:
    """Mean and variance of one die's chain: ``worth`` of places 1 to 6, the 6th exploding."""
    last = [F(w) for w in worth[:5]]  # the face that ends the chain: one of the five others
    v_mean = sum(last) / 5
    v_var = sum(x * x for x in last) / 5 - v_mean ** 2
    top = worth[5]
    return top * GEOMETRIC_MEAN + v_mean, top * top * GEOMETRIC_VARIANCE + v_var


def test_the_successes_of_exploding_symbol_dice_are_exact():
    one_mean, one_var = chain([s for s, _ in FACES])
    assert (one_mean, one_var) == (F(4, 5), F(6, 5))
    for n in range(0, 5):
        odds = loads(TEXT, "s.yaml").check("burst").odds({"n": n})
        stats = odds.to_dict()["stats"]["result"]
        assert (F(stats["mean_exact"]), stats["mean_kind"]) == (n * one_mean, "exact"), n
        assert (F(stats["variance_exact"]), stats["variance_kind"]) == (n * one_var, "exact"), n


def test_two_symbols_counted_together_are_exact():
    mean, var = chain([s + o for s, o in FACES])
    stats = loads(TEXT, "s.yaml").check("both").odds({"n": 3}).to_dict()["stats"]["result"]
    assert (F(stats["mean_exact"]), F(stats["variance_exact"])) == (3 * mean, 3 * var)
    assert stats["mean_kind"] == stats["variance_kind"] == "exact"


def test_kept_dice_whose_explosions_roll_again_have_exact_moments():
    """Keep ``ring`` of ``ring + extra`` dice by successes, then by 6s; each kept 6 rolls a
    die that explodes on 6: every throw listed, each kept 6 a chain of the oracle's."""
    chain_mean, chain_var = chain([s for s, _ in FACES])
    for ring, extra in ((1, 0), (1, 1), (2, 1)):
        mean = second = F(0)
        throws = list(itertools.product(range(1, 7), repeat=ring + extra))
        for throw in throws:
            kept = sorted(throw, key=lambda place: (FACES[place - 1][0], place == 6), reverse=True)[:ring]
            base = sum(FACES[p - 1][0] for p in kept)
            bursts = kept.count(6)
            m, v = base + bursts * chain_mean, bursts * chain_var
            mean += m
            second += v + m * m
        mean, second = mean / len(throws), second / len(throws)
        stats = loads(TEXT, "s.yaml").check("keep").odds({"ring": ring, "extra": extra}).to_dict()["stats"]["result"]
        assert (F(stats["mean_exact"]), stats["mean_kind"]) == (mean, "exact"), (ring, extra)
        assert (F(stats["variance_exact"]), stats["variance_kind"]) == (second - mean * mean, "exact"), (ring, extra)
