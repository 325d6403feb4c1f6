"""Exact odds of sums and differences of open-ended dice, followed forever (issue #34).

One die that explodes on some of its faces (and has no other modifier) ends its chain on n
with probability [z^n] of A(z) / (1 − B(z)): A the faces that end the chain, B those that
explode, each z^face / S (:class:`Chain`; a dS! exploding on its top face alone ends on q·S + r,
0 < r < S, with probability (1/S)^(q+1)). So a sum X of such dice plus any independent
number known exactly (a plain die, a constant) has a rational generating function too:
P(X = n) and P(X > n) are, from some n on, sums of terms β^n times polynomials in n, each β
a root of a die's x^M − b_1 x^(M−1) − … (its B read backwards), of degree less than the
number of such dice.

A difference X − Y of two such sums (an :class:`OpenLaw`) is at least t with probability

    Σ_y P(Y = y) · P(X > y + t − 1),

a series whose terms are, from some y on, products of two such sequences: terms γ^y with
γ = α·β, α of Y's and β of X's. Every such γ is a root of

    C(z) = Π over X's dice x and Y's dice y of F_xy(z)^(m_x + m_y − 1)

with F_xy(z) the polynomial whose reciprocal roots are the products α·β of x's and y's roots
(for a dS! and a dT!, 1 − (1/S)^(L/S) (1/T)^(L/T) z^L with L = lcm(S, T); otherwise found
from power sums: those of the products are the products of the power sums, and Newton's
identities turn them into coefficients), m the number of dice of each kind: a root two
pairs share is counted in both, so the power is always enough. So the terms satisfy the
linear recurrence C defines, and their sum is N(1)/C(1), N the numerator their first deg C
terms give: a finite sum, exact. Every comparison of X − Y with a number, and each value's
probability, follows.

Where the work would be too big for :data:`MAX_INDEX` (a comparison with a huge number),
:func:`cost` says so and the caller keeps the depth's answer, with its leftover.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from typing import NamedTuple, Protocol
from collections.abc import Callable, Iterable

from . import ast
from .pool import PoolSpec, face_weights
from ..records import Record

MAX_INDEX = 20_000
"""The furthest value of a sum the closed form works out term by term; beyond, the depth's answer."""

MAX_REST = 4_096
"""The most values of the exactly known part of a law (a plain die, a constant, added in)."""


class Chain(NamedTuple):
    """One standard die that explodes on some of its faces (``explodes``), with no modifier
    but rerolls, and the dice its explosions add, its total times ``scale`` (``3 * 1d6!``):
    that ends on n with probability [z^n] of A(z^k) / (1 − B(z^k)/z^p), A the faces that end
    the chain, B those that explode, each z^face times its chance (1/S, or ``law``'s where
    rerolls weigh the faces), k the scale, and p the ``penalty`` of each die an explosion
    adds: 1 for ``!p``, whose added dice are worth one less (a die that stops on f adds
    f − 1, one that explodes again f − 1 and goes on), 0 otherwise."""

    sides: int
    explodes: tuple[int, ...]
    scale: int = 1
    penalty: int = 0
    law: tuple[Fraction, ...] = ()  # each face's chance after rerolls, faces 1..S; () for 1/S each

    def chance(self, face: int) -> Fraction:
        return self.law[face - 1] if self.law else Fraction(1, self.sides)

    @property
    def top(self) -> bool:
        """It explodes on its top face alone (a dS!), unscaled: its pairs have a closed form."""
        return self.explodes == (self.sides,) and self.scale == 1 and not self.penalty and not self.law

    @property
    def degrees(self) -> tuple[int, int]:
        """The degrees of A(z^k) and of 1 − B(z^k)/z^p."""
        ends = [f for f in range(self.sides, 0, -1) if f not in self.explodes and self.chance(f)]
        return ends[0] * self.scale, (max(self.explodes) - self.penalty) * self.scale

    def times(self, k: int) -> Chain:
        """This chain's total times ``k`` (a whole number above 0)."""
        return self._replace(scale=self.scale * k)

    def generating(self) -> Generating:
        return _chain_generating(self)

    def binomials(self) -> tuple[tuple[int, Fraction], ...] | None:
        """Its denominator as factors 1 − ρ·z^L, (L, ρ): a dS! on its top face alone is one."""
        if self.explodes == (self.sides,) and not self.penalty and not self.law:
            return ((self.sides * self.scale, Fraction(1, self.sides)),)
        return None

    def sets(self) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
        """P(this ≥ m) as a signed sum of the chances that the lowest of sets of dS! is ≥ m
        (:func:`.extremes.blocks_at_least`): a dS! alone, unscaled, is its own."""
        return ((1, (self.sides,)),) if self.top else None


Generating = tuple[tuple[Fraction, ...], tuple[tuple[int, Fraction], ...]]
"""A term's generating function: its numerator, dense, and its denominator, sparse (power,
coefficient), the constant term 1 first."""


class Term(Protocol):
    """One open-ended term of a law: a die's :class:`Chain`, or the highest or lowest of
    several dS! (:class:`.extremes.Extremes`); each a generating function whose series is
    the term's probability of each value."""

    @property
    def top(self) -> bool: ...

    @property
    def degrees(self) -> tuple[int, int]: ...

    @property
    def explodes(self) -> tuple[int, ...]: ...

    def times(self, k: int) -> Term: ...

    def generating(self) -> Generating: ...

    def binomials(self) -> tuple[tuple[int, Fraction], ...] | None: ...

    def sets(self) -> tuple[tuple[int, tuple[int, ...]], ...] | None: ...


def _in_order(terms: Iterable[Term]) -> tuple[Term, ...]:
    """Terms in one order whatever their kinds, so equal laws compare equal."""
    return tuple(sorted(terms, key=lambda t: (type(t).__name__, repr(t))))


MAX_CHAIN_SIDES = 1_000
"""The largest die whose explosions on faces other than its top are followed forever."""


def plain_chain(spec: PoolSpec) -> Chain | None:
    """The :class:`Chain` of each die of ``spec`` where it is a standard die exploding on
    some (not all) of its faces, ``!!`` compounding (it adds the same faces) or ``!p``
    penetrating on faces of 2 or more, with no other modifier but rerolls of single faces
    (``r1``, ``ro<3``: each face's chance after them, as one die rolls it); None for anything else."""
    die = spec.die
    if die.sides is None or die.sides < 2 or die.custom is not None or die.symbols is not None:
        return None
    if spec.explode not in ("explode", "compound", "penetrate"):
        return None
    plain = PoolSpec(die, rerolls=spec.rerolls, reroll_once=spec.reroll_once, explode=spec.explode,
                     explode_conds=spec.explode_conds)
    if spec != plain:
        return None
    penalty = 1 if spec.explode == "penetrate" else 0
    law = _face_law(spec) if spec.rerolls else ()
    if law is None:
        return None
    if not law and not penalty and _top_face_only(spec.explode_conds, die.sides):
        return Chain(die.sides, (die.sides,))
    if die.sides > MAX_CHAIN_SIDES:
        return None
    explodes = tuple(f for f in range(1, die.sides + 1) if spec.explodes(f) and (not law or law[f - 1]))
    ends = [f for f in range(1, die.sides + 1) if not spec.explodes(f) and (not law or law[f - 1])]
    if not explodes or not ends or min(explodes) <= penalty:
        return None  # never explodes, always does, or a penetrating die that may add 0 for ever
    return Chain(die.sides, explodes, 1, penalty, law)


def _face_law(spec: PoolSpec) -> tuple[Fraction, ...] | None:
    """Each face's chance after ``spec``'s rerolls, faces 1..S (as one die rolls it,
    :func:`.pool.face_weights`); None where every face is rerolled."""
    weights, denom = face_weights(spec)
    if not weights:
        return None
    return tuple(Fraction(weights.get(f, 0), denom) for f in range(1, spec.die.size + 1))


def _top_face_only(conds: tuple[ast.Cond | None, ...], sides: int) -> bool:
    return bool(conds) and all(c is None or (c.op in ("=", "==", ">=") and c.value == sides) for c in conds)


def more_than(s: int, m: int) -> Fraction:
    """P(one dS! ends on more than m), followed forever."""
    if m < 0:
        return Fraction(1)
    return Fraction(s - m % s, s ** (m // s + 1))


class OpenLaw(Record):
    """X − Y + R, followed forever: X the sum of the exploding dice ``plus``, Y of ``minus``,
    R an independent whole number known exactly (``rest``: (value, chance), ascending). The
    dice are sorted, so equal laws compare equal."""

    plus: tuple[Term, ...]
    minus: tuple[Term, ...]
    rest: tuple[tuple[int, Fraction], ...] = ((0, Fraction(1)),)

    @staticmethod
    def dice(chain: Term, count: int) -> OpenLaw:
        return OpenLaw((chain,) * count, ())

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

    def __neg__(self) -> OpenLaw:
        return OpenLaw(self.minus, self.plus, tuple((-v, p) for v, p in reversed(self.rest)))

    def times(self, k: int) -> OpenLaw:
        """The law of this value times the whole number ``k`` (not 0)."""
        if k < 0:
            return (-self).times(-k)
        return OpenLaw(_in_order(c.times(k) for c in self.plus), _in_order(c.times(k) for c in self.minus),
                       tuple((v * k, p) for v, p in self.rest))

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
        return OpenLaw(_in_order(self.plus + other.plus), _in_order(self.minus + other.minus),
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


def sparse_times(a: list[tuple[int, Fraction]], b: list[tuple[int, Fraction]]) -> list[tuple[int, Fraction]]:
    """The product of two polynomials each given by its nonzero terms (power, coefficient)."""
    out: dict[int, Fraction] = {}
    for i, x in a:
        for j, y in b:
            out[i + j] = out.get(i + j, Fraction(0)) + x * y
    return sorted((p, c) for p, c in out.items() if c)


@lru_cache(maxsize=256)
def _chain_generating(chain: Chain) -> Generating:
    """A chain's generating function: A (dense) and 1 − B (sparse), see :class:`Chain`."""
    s, k, p = chain.sides, chain.scale, chain.penalty
    ends = [Fraction(0)] * (chain.degrees[0] + 1)
    for f in range(1, s + 1):
        if f not in chain.explodes and f * k < len(ends):
            ends[f * k] = chain.chance(f)
    return tuple(ends), ((0, Fraction(1)), *(((f - p) * k, -chain.chance(f)) for f in chain.explodes))


def _sum_generating(chains: tuple[Term, ...]) -> tuple[list[Fraction], list[tuple[int, Fraction]]]:
    """The generating function of a sum of chains: its numerator (dense) and denominator
    (sparse), the products of theirs."""
    numerator = [Fraction(1)]
    denominator: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    for chain, m in Counter(chains).items():
        ends, explodes = chain.generating()
        for _ in range(m):
            numerator = _times(numerator, list(ends))
        denominator = sparse_times(denominator, _sparse_power(list(explodes), m))
    return numerator, denominator


def _power_sums(denominator: tuple[tuple[int, Fraction], ...], count: int) -> list[Fraction]:
    """Σ β^j for j = 1 … ``count``, over the roots β (with multiplicity) of the polynomial
    x^M + c_1 x^(M−1) + … + c_M whose c_k are ``denominator``'s (1 + c_1 z + … + c_M z^M):
    Newton's identities."""
    degree = denominator[-1][0]
    c = [Fraction(0)] * (degree + 1)
    for k, x in denominator:
        c[k] = x
    sums: list[Fraction] = [Fraction(0)]
    for j in range(1, count + 1):
        total = -j * c[j] if j <= degree else Fraction(0)
        for k in range(1, min(j - 1, degree) + 1):
            if c[k]:
                total -= c[k] * sums[j - k]
        sums.append(total)
    return sums[1:]


def _pair_factor(x: Term, y: Term) -> list[tuple[int, Fraction]]:
    """1 + e_1 z + … whose reciprocal roots are the products α·β of a root of ``x``'s
    denominator and one of ``y``'s (each pair once): for two dS! a closed form,
    1 − (1/S)^(L/S) (1/T)^(L/T) z^L; for denominators made of factors 1 − ρ·z^L (the highest
    or lowest of several dS!, :func:`_binomial_pairs`) a closed form per pair of factors;
    otherwise from power sums (those of the products are the products of the power sums),
    by Newton's identities."""
    if isinstance(x, Chain) and isinstance(y, Chain) and x.top and y.top:
        s, t = x.sides, y.sides
        step = lcm(s, t)
        return [(0, Fraction(1)), (step, -Fraction(1, s ** (step // s) * t ** (step // t)))]
    pairs = _binomial_pairs(x, y)
    if pairs is not None:
        out: list[tuple[int, Fraction]] = [(0, Fraction(1))]
        for step, c, power in pairs:
            out = sparse_times(out, _sparse_power([(0, Fraction(1)), (step, -c)], power))
        return out
    degree = x.degrees[1] * y.degrees[1]
    px = _power_sums(x.generating()[1], degree)
    py = _power_sums(y.generating()[1], degree)
    r = [a * b for a, b in zip(px, py, strict=True)]
    e = [Fraction(1)]
    for k in range(1, degree + 1):
        e.append(-(r[k - 1] + sum((e[i] * r[k - 1 - i] for i in range(1, k)), Fraction(0))) / k)
    return [(k, x) for k, x in enumerate(e) if x]


def _binomial_pairs(x: Term, y: Term) -> list[tuple[int, Fraction, int]] | None:
    """Where a term is no single die's chain and both denominators are products of factors
    1 − ρ·z^L: for each pair of factors (L1, ρ1), (L2, ρ2), the products of their roots, each
    of the M = lcm(L1, L2)-th roots of c = ρ1^(M/L1)·ρ2^(M/L2) gcd(L1, L2) times, as
    (M, c, gcd); else None."""
    if isinstance(x, Chain) and isinstance(y, Chain):
        return None
    bx, by = x.binomials(), y.binomials()
    if bx is None or by is None:
        return None
    return [(lcm(l1, l2), r1 ** (lcm(l1, l2) // l1) * r2 ** (lcm(l1, l2) // l2), gcd(l1, l2))
            for l1, r1 in bx for l2, r2 in by]


def _pair_degree(x: Term, y: Term) -> int:
    if isinstance(x, Chain) and isinstance(y, Chain) and x.top and y.top:
        return lcm(x.sides, y.sides)
    return x.degrees[1] * y.degrees[1]


def _by_power_sums(x: Term, y: Term) -> bool:
    """Whether :func:`_pair_factor` finds this pair's factor by Newton's identities."""
    return not (isinstance(x, Chain) and isinstance(y, Chain) and x.top and y.top) and _binomial_pairs(x, y) is None


def _recurrence(plus: tuple[Term, ...], minus: tuple[Term, ...]) -> list[Fraction]:
    """C(z) of the module's docstring, dense: the recurrence every product of a sequence of
    Y's and one of X's satisfies. A root shared by several pairs, or a die rolled m times (its
    roots m-fold), is counted in each pair's power, m_X + m_Y − 1, which is always enough."""
    out: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    for x, mx in Counter(plus).items():
        for y, my in Counter(minus).items():
            out = sparse_times(out, _sparse_power(_pair_factor(x, y), mx + my - 1))
    dense = [Fraction(0)] * (out[-1][0] + 1)
    for p, c in out:
        dense[p] = c
    return dense


def _order(law: OpenLaw) -> int:
    return sum(_pair_degree(x, y) * (mx + my - 1) for x, mx in Counter(law.plus).items()
               for y, my in Counter(law.minus).items())


def _newton_cost(law: OpenLaw) -> int:
    """Operations :func:`_pair_factor` takes by power sums (none for two dS!)."""
    return sum(_pair_degree(x, y) ** 2 for x in set(law.plus) for y in set(law.minus) if _by_power_sums(x, y))


def _start(law: OpenLaw, t: int) -> int:
    """The first y from which the terms of P(X − Y + R ≥ t) = Σ_y P(Y = y) P(X + R > y + t − 1)
    are in the recurrence's reach: P(Y = y) is, from y past its numerator's degree less its
    denominator's; P(X + R > m) from m at least that of X + R (R's width added), and at least 0."""
    num_y = sum(c.degrees[0] for c in law.minus)
    den_y = sum(c.degrees[1] for c in law.minus)
    num_x = sum(c.degrees[0] for c in law.plus) + law.rest[-1][0] - law.rest[0][0]
    den_x = sum(c.degrees[1] for c in law.plus)
    tau = t - law.rest[0][0]
    return max(0, num_y - den_y + 1, max(num_x - den_x, 0) - tau + 1)


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
    # the recurrence, factor by factor, and its factors from power sums
    total = _order(law) * len(Counter(law.plus)) * len(Counter(law.minus)) + _newton_cost(law)
    for side, ts in zip((law, -law), _sides(law, thresholds), strict=True):
        if not ts:
            continue
        ys, xs, terms = _reach(side, ts)
        if max(ys, xs) > MAX_INDEX:
            return None
        dens = 1
        for chain, m in (*Counter(side.plus).items(), *Counter(side.minus).items()):
            dens *= m + 1 if chain.top else min((len(chain.explodes) + 1) ** m, m * chain.degrees[1] + 1)
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


def compare(law: OpenLaw, op: str, k: int,
            worked: Callable[[OpenLaw, list[int]], dict[int, Fraction]] | None = None) -> Fraction:
    """P(X − Y + R op k) for a comparison ``op`` (``>=``, ``>``, ``<=``, ``<``, ``==``, ``!=``),
    from ``worked`` (:func:`at_least` unless given)."""
    found = worked or at_least
    if op in (">=", "<"):
        p = found(law, [k])[k]
        return p if op == ">=" else 1 - p
    if op in (">", "<="):
        p = found(law, [k + 1])[k + 1]
        return p if op == ">" else 1 - p
    both = found(law, [k, k + 1])
    equal = both[k] - both[k + 1]
    return equal if op == "==" else 1 - equal


def thresholds_of(op: str, k: int) -> list[int]:
    """The thresholds :func:`compare` asks for."""
    return [k] if op in (">=", "<") else [k + 1] if op in (">", "<=") else [k, k + 1]
