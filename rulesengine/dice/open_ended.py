"""Exact odds of sums and differences of open-ended dice, followed forever (issue #34).

One die ``dS!`` that explodes on its top face S (and nothing else) ends on q·S + r (0 < r < S)
after q tops, with probability (1/S)^(q+1): its generating function is rational,
(z + … + z^(S−1))/S over 1 − z^S/S. So is that of a sum X of such dice plus any independent
number known exactly (a plain die, a constant): P(X = n) and P(X > n) are, from some n on,
sums of terms β^n times polynomials in n, each β a root of β^S = 1/S, of degree less than
the number of dice of size S.

A difference X − Y of two such sums (an :class:`OpenLaw`) is at least t with probability

    Σ_y P(Y = y) · P(X > y + t − 1),

a series whose terms are, from some y on, products of two such sequences: terms γ^y with
γ = α·β, α of Y's and β of X's. Every such γ is a root of

    C(z) = Π over X's sizes S and Y's sizes T of (1 − (1/S)^(L/S) (1/T)^(L/T) z^L)^(m_S + m_T − 1)

(L = lcm(S, T), m the number of dice of each size; a root two pairs share is counted in
both, so the power is always enough), so the terms satisfy the linear recurrence C defines,
and their sum is N(1)/C(1), N the numerator their first deg C terms give: a finite sum,
exact. Every comparison of X − Y with a number, and each value's probability, follows.

Where the work would be too big for :data:`MAX_INDEX` (a comparison with a huge number),
:func:`cost` says so and the caller keeps the depth's answer, with its leftover.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from . import ast
from .pool import PoolSpec

MAX_INDEX = 20_000
"""The furthest value of a sum the closed form works out term by term; beyond, the depth's answer."""

MAX_REST = 4_096
"""The most values of the exactly known part of a law (a plain die, a constant, added in)."""


def open_chain(spec: PoolSpec, count: int) -> int | None:
    """The size S of ``spec`` rolled ``count`` times where that is one standard dS that
    explodes on its top face alone and has no other modifier (``1d6!``, ``d10!``,
    ``1d8!!``: compounding adds the same faces); None for anything else."""
    return plain_size(spec) if count == 1 else None


def plain_size(spec: PoolSpec) -> int | None:
    """The size S where each die of ``spec`` is a standard dS exploding on its top face
    alone, with no other modifier (its sum is the sum of so many such dice); else None."""
    die = spec.die
    if die.sides is None or die.sides < 2 or die.custom is not None or die.symbols is not None:
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


@dataclass(frozen=True, slots=True)
class OpenLaw:
    """X − Y + R, followed forever: X the sum of plain exploding dice of sizes ``plus``, Y of
    ``minus``, R an independent whole number known exactly (``rest``: (value, chance),
    ascending). Sizes are sorted, so equal laws compare equal."""

    plus: tuple[int, ...]
    minus: tuple[int, ...]
    rest: tuple[tuple[int, Fraction], ...] = ((0, Fraction(1)),)

    @staticmethod
    def dice(size: int, count: int) -> OpenLaw:
        return OpenLaw((size,) * count, ())

    @staticmethod
    def number(weights: dict[int, int], denom: int) -> OpenLaw | None:
        """A whole number known exactly (a plain die, a constant); None where it has too many values."""
        if len(weights) > MAX_REST:
            return None
        return OpenLaw((), (), tuple(sorted((v, Fraction(w, denom)) for v, w in weights.items() if w)))

    @property
    def crosses(self) -> bool:
        """Dice on both sides: what no bound of a cut path decides (one side alone is a bound)."""
        return bool(self.plus) and bool(self.minus)

    @property
    def open(self) -> bool:
        return bool(self.plus) or bool(self.minus)

    def __neg__(self) -> OpenLaw:
        return OpenLaw(self.minus, self.plus, tuple((-v, p) for v, p in reversed(self.rest)))

    def plus_law(self, other: OpenLaw) -> OpenLaw | None:
        """The law of the sum of two independent values; None where the known part grows too big."""
        rest: dict[int, Fraction] = {}
        if len(self.rest) * len(other.rest) > MAX_REST * 4:
            return None
        for a, p in self.rest:
            for b, q in other.rest:
                rest[a + b] = rest.get(a + b, Fraction(0)) + p * q
        if len(rest) > MAX_REST:
            return None
        return OpenLaw(tuple(sorted(self.plus + other.plus)), tuple(sorted(self.minus + other.minus)),
                       tuple(sorted(rest.items())))


def _series(numerator: list[Fraction], denominator: list[tuple[int, Fraction]], length: int) -> list[Fraction]:
    """The first ``length`` coefficients of numerator(z) / denominator(z), the denominator
    given by its nonzero terms (power, coefficient), its constant term 1."""
    out: list[Fraction] = []
    steps = [(j, c) for j, c in denominator if j]
    for n in range(length):
        a = numerator[n] if n < len(numerator) else Fraction(0)
        for j, c in steps:
            if j <= n:
                a -= c * out[n - j]
        out.append(a)
    return out


def _times(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _sparse_power(factor: list[tuple[int, Fraction]], times: int) -> list[tuple[int, Fraction]]:
    """A sparse polynomial (power, coefficient) raised to ``times``, as sparse terms."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(times):
        nxt: dict[int, Fraction] = {}
        for i, x in out.items():
            for j, y in factor:
                nxt[i + j] = nxt.get(i + j, Fraction(0)) + x * y
        out = nxt
    return sorted((p, c) for p, c in out.items() if c)


def _sparse_times(a: list[tuple[int, Fraction]], b: list[tuple[int, Fraction]]) -> list[tuple[int, Fraction]]:
    out: dict[int, Fraction] = {}
    for i, x in a:
        for j, y in b:
            out[i + j] = out.get(i + j, Fraction(0)) + x * y
    return sorted((p, c) for p, c in out.items() if c)


def _sum_generating(sizes: tuple[int, ...]) -> tuple[list[Fraction], list[tuple[int, Fraction]]]:
    """The generating function of a sum of plain exploding dice: its numerator (dense) and
    denominator (sparse), Π (z + … + z^(S−1))/S over Π (1 − z^S/S)."""
    numerator = [Fraction(1)]
    denominator: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    for s, m in Counter(sizes).items():
        face = [Fraction(0)] + [Fraction(1, s)] * (s - 1)
        for _ in range(m):
            numerator = _times(numerator, face)
        denominator = _sparse_times(denominator, _sparse_power([(0, Fraction(1)), (s, Fraction(-1, s))], m))
    return numerator, denominator


def _recurrence(plus: tuple[int, ...], minus: tuple[int, ...]) -> list[Fraction]:
    """C(z) of the module's docstring, dense: the recurrence every product of a sequence of
    Y's and one of X's satisfies."""
    out: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    for s, ms in Counter(plus).items():
        for t, mt in Counter(minus).items():
            step = lcm(s, t)
            c = Fraction(1, s ** (step // s) * t ** (step // t))
            out = _sparse_times(out, _sparse_power([(0, Fraction(1)), (step, -c)], ms + mt - 1))
    dense = [Fraction(0)] * (out[-1][0] + 1)
    for p, c in out:
        dense[p] = c
    return dense


def _order(law: OpenLaw) -> int:
    return sum(lcm(s, t) * (ms + mt - 1) for s, ms in Counter(law.plus).items()
               for t, mt in Counter(law.minus).items())


def _start(law: OpenLaw, t: int) -> int:
    """The first y from which the terms of P(X − Y + R ≥ t) are in the recurrence's reach:
    P(X + R > y + t − 1) is past R's values."""
    hi = law.rest[-1][0]
    return max(0, hi - t + 1)


def _sides(law: OpenLaw, thresholds: list[int]) -> tuple[list[int], list[int]]:
    """``thresholds`` split into those worked out on ``law`` and those on its mirror (by
    P(V ≥ t) = 1 − P(−V ≥ 1 − t), as the mirror's ``1 − t``), whichever starts sooner."""
    mirror = -law
    direct, mirrored = [], []
    for t in thresholds:
        if _start(law, t) <= _start(mirror, 1 - t):
            direct.append(t)
        else:
            mirrored.append(1 - t)
    return direct, mirrored


def _reach(law: OpenLaw, thresholds: list[int]) -> tuple[int, int, int]:
    """How far the sequences of Y and of X must be worked out for ``thresholds``, and the
    terms added up for all of them."""
    lo = law.rest[0][0]
    order = _order(law)
    ys = xs = terms = 0
    for t in thresholds:
        start = _start(law, t)
        ys = max(ys, start + order)
        xs = max(xs, start + order + t - lo)
        terms += start + order
    return ys, xs, terms


def cost(law: OpenLaw, thresholds: list[int]) -> int | None:
    """Fraction operations :func:`at_least` takes for ``thresholds``; None where a sequence
    would run past :data:`MAX_INDEX`."""
    if not law.crosses or not thresholds:
        return None
    total = _order(law) * len(Counter(law.plus)) * len(Counter(law.minus))  # the recurrence, factor by factor
    for side, ts in zip((law, -law), _sides(law, thresholds), strict=True):
        if not ts:
            continue
        ys, xs, terms = _reach(side, ts)
        if max(ys, xs) > MAX_INDEX:
            return None
        dens = 1
        for m in (*Counter(side.plus).values(), *Counter(side.minus).values()):
            dens *= m + 1
        total += (ys + xs) * (dens + len(side.rest)) + terms
    return total


def at_least(law: OpenLaw, thresholds: list[int]) -> dict[int, Fraction]:
    """P(X − Y + R ≥ t) for each t of ``thresholds``, followed forever (``law.crosses``)."""
    assert law.crosses
    direct, mirrored = _sides(law, thresholds)
    out = _at_least(law, direct) if direct else {}
    if mirrored:
        out.update({1 - t: 1 - p for t, p in _at_least(-law, mirrored).items()})
    return out


def _at_least(law: OpenLaw, thresholds: list[int]) -> dict[int, Fraction]:
    lo, width = law.rest[0][0], law.rest[-1][0] - law.rest[0][0]
    ys, xs, _ = _reach(law, thresholds)
    num_y, den_y = _sum_generating(law.minus)
    p_y = _series(num_y, den_y, ys)
    num_x, den_x = _sum_generating(law.plus)
    rest = [Fraction(0)] * (width + 1)
    for v, p in law.rest:
        rest[v - lo] = p
    p_x = _series(_times(num_x, rest), den_x, xs)
    more: list[Fraction] = []  # P(X + R − lo > m), m = 0, 1, …
    left = Fraction(1)
    for p in p_x:
        left -= p
        more.append(left)
    c = _recurrence(law.plus, law.minus)
    order = len(c) - 1
    prefix = []  # Σ_{j ≤ i} c_j
    running = Fraction(0)
    for x in c:
        running += x
        prefix.append(running)
    out: dict[int, Fraction] = {}
    for t in thresholds:
        tau = t - lo
        start = _start(law, t)  # from here on every term is in the recurrence's reach
        total = Fraction(0)
        for y in range(start):
            m = y + tau - 1
            total += p_y[y] * (more[m] if m >= 0 else 1)
        numerator = Fraction(0)
        for k in range(order):
            y = start + k
            numerator += p_y[y] * more[y + tau - 1] * prefix[order - 1 - k]
        out[t] = total + numerator / running
    return out


def compare(law: OpenLaw, op: str, k: int) -> Fraction:
    """P(X − Y + R op k) for a comparison ``op`` (``>=``, ``>``, ``<=``, ``<``, ``==``, ``!=``)."""
    if op in (">=", "<"):
        p = at_least(law, [k])[k]
        return p if op == ">=" else 1 - p
    if op in (">", "<="):
        p = at_least(law, [k + 1])[k + 1]
        return p if op == ">" else 1 - p
    both = at_least(law, [k, k + 1])
    equal = both[k] - both[k + 1]
    return equal if op == "==" else 1 - equal


def thresholds_of(op: str, k: int) -> list[int]:
    """The thresholds :func:`compare` asks for."""
    return [k] if op in (">=", "<") else [k + 1] if op in (">", "<=") else [k, k + 1]
