"""Exact odds of a difference of two open-ended dice, followed forever (issue #34).

One die ``dS!`` that explodes on its top face S (and nothing else) ends on v = q·S + r after
q tops and a last face r (0 < r < S), with probability (1/S)^(q+1); so it is more than m
(m ≥ 0) with probability (S − m mod S)·(1/S)^(m div S + 1), nothing cut. A difference X − Y
of two such dice (sizes S and T) is at least t, for t ≥ 1, with probability

    Σ_{c ≥ 0} Σ_{e = 1}^{T−1} (1/T)^(c+1) · P(X > c·T + e + t − 1)

and the summand for c + p (p = S / gcd(S, T)) is the one for c times (1/T)^p (1/S)^(T/gcd):
the series is geometric over blocks of p, and sums in closed form to its first block over
1 − that ratio. For t ≤ 0, P(X − Y ≥ t) = 1 − P(Y − X ≥ 1 − t). Every yes/no comparison of
the difference with a number, and every value's own probability, follows.

Where the powers would be too big to work out within ``MAX_BITS`` (a comparison with a huge
number), :func:`cost` says so and the caller keeps the depth's answer, with its leftover.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from . import ast
from .pool import PoolSpec

MAX_BITS = 1 << 15
"""The largest power of a die size (in bits) worked out here; beyond, the depth's answer."""


def open_chain(spec: PoolSpec, count: int) -> int | None:
    """The size S of ``spec`` rolled ``count`` times where that is one standard dS that
    explodes on its top face alone and has no other modifier (``1d6!``, ``d10!``,
    ``1d8!!``: compounding adds the same faces); None for anything else."""
    die = spec.die
    if count != 1 or die.sides is None or die.sides < 2 or die.custom is not None or die.symbols is not None:
        return None
    if spec.explode not in ("explode", "compound") or not _top_face_only(spec.explode_conds, die.sides):
        return None
    plain = PoolSpec(die, explode=spec.explode, explode_conds=spec.explode_conds)
    return die.sides if spec == plain else None


def _top_face_only(conds: tuple[ast.Cond | None, ...], sides: int) -> bool:
    return bool(conds) and all(c is None or (c.op in ("=", "==", ">=") and c.value == sides) for c in conds)


def more_than(s: int, m: int) -> Fraction:
    """P(one dS! ends on more than m), followed forever."""
    if m < 0:
        return Fraction(1)
    return Fraction(s - m % s, s ** (m // s + 1))


def cost(s: int, t: int, threshold: int) -> int | None:
    """Terms :func:`at_least` adds up for X − Y ≥ ``threshold`` (X a dS!, Y a dT!); None
    where its powers would pass :data:`MAX_BITS`."""
    high = abs(threshold) + 2 * (s + t)
    if (high // min(s, t) + 2) * max(s, t).bit_length() > MAX_BITS:
        return None
    return (max(s, t) // gcd(s, t)) * max(s, t)


def at_least(s: int, t: int, threshold: int) -> Fraction:
    """P(X − Y ≥ threshold) for X a dS!, Y a dT!, independent, followed forever."""
    if threshold <= 0:
        return 1 - at_least(t, s, 1 - threshold)
    g = gcd(s, t)
    period = s // g
    first = Fraction(0)
    for c in range(period):
        for e in range(1, t):
            first += more_than(s, c * t + e + threshold - 1) / t ** (c + 1)
    ratio = Fraction(1, t ** period * s ** (t // g))
    return first / (1 - ratio)


def compare(s: int, t: int, op: str, k: int) -> Fraction:
    """P(X − Y op k) for a comparison ``op`` (``>=``, ``>``, ``<=``, ``<``, ``==``, ``!=``)."""
    if op == ">=":
        return at_least(s, t, k)
    if op == ">":
        return at_least(s, t, k + 1)
    if op == "<":
        return 1 - at_least(s, t, k)
    if op == "<=":
        return 1 - at_least(s, t, k + 1)
    equal = at_least(s, t, k) - at_least(s, t, k + 1)
    return equal if op == "==" else 1 - equal
