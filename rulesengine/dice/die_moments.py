"""What one die of a dice term adds, explosions followed forever: its first and second
moments in closed form (a geometric series for ``!``, ``!p`` and ``!o``; a compounded die's
chain of partial sums worked back from where clamping and scoring no longer change). The
parts :mod:`.expectation` builds an expression's mean and variance from."""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Callable, Mapping

from .dist import Budget
from .pool import PoolSpec
from .die_odds import face_dist

# The most work (partial sums times faces) on one compounded die's partial sums, one by one
# (a ``max`` or a success number far above the faces): beyond it, no closed form, the mean
# of the mass worked out instead (a mean is a nicety, not worth a second of exact sums).
MAX_CHAIN_WORK = 20_000


def die_moments(spec: PoolSpec, budget: Budget, value_of: Callable[[int], int] | None = None
                ) -> tuple[Fraction, Fraction] | None:
    """What one die of the term adds: its first and second moments (E[W], E[W²]),
    explosions followed forever (with no keep by rank: every die counts); None where they
    have no closed form here. ``value_of``: what a die showing each face adds, where that is
    not what the term adds (the symbols it shows: ``symbols(roll, 'success')``), for a die
    that explodes (``!``, ``!o``) or not.

    A chain of dice each worth v (its face's worth), going on where the face explodes (with
    chance p), is C = v + [explodes]·C' for C' a fresh chain: E[C] = E[v]/(1 − p) and
    E[C²] = (E[v²] + 2·E[v·[explodes]]·E[C])/(1 − p). ``!`` is that chain; ``!p`` its first
    die and, where that explodes, a chain of dice worth one less; ``!o`` its first die and,
    where that explodes, one die that doesn't."""
    faces = face_dist(spec, budget).probabilities()
    p = sum((q for f, q in faces.items() if spec.explodes(f)), Fraction(0))
    if p >= 1:
        return None  # it never stops exploding
    if value_of is not None and spec.explode in ("compound", "penetrate"):
        return None  # the faces a chain shows are not the faces it adds up
    if spec.explode == "compound":
        return _compound_moments(spec, faces, p, budget)
    of = value_of if value_of is not None else spec.worth

    def sums(shift: int) -> tuple[Fraction, Fraction, Fraction]:
        """E[v], E[v²] and E[v·[explodes]] of a die worth its face less ``shift``."""
        one, two, going = Fraction(0), Fraction(0), Fraction(0)
        for f, q in faces.items():
            v = of(spec.clamp(f - shift))
            one, two = one + q * v, two + q * v * v
            if spec.explodes(f):
                going += q * v
        return one, two, going

    def chain(shift: int) -> tuple[Fraction, Fraction]:
        one, two, going = sums(shift)
        mean = one / (1 - p)
        return mean, (two + 2 * going * mean) / (1 - p)

    worth, square, going = sums(0)
    if spec.explode is None:
        return worth, square
    if spec.explode == "penetrate":
        after = chain(1)
    elif spec.explode == "once":  # a die that explodes adds one more, which doesn't
        after = (worth, square)
    else:
        return chain(0)
    # the first die, and where it explodes (E[v·[explodes]] of it: ``going``) what it adds
    return worth + p * after[0], square + 2 * going * after[0] + p * after[1]


def _settled_from(spec: PoolSpec, smallest: int) -> int:
    """The value from which a compounded die's worth no longer changes as its chain grows:
    one past every condition's number and clamp (the first face, where there are none)."""
    marks = [c.high if c.high is not None else c.value
             for c in (*spec.successes, *spec.failures, *spec.keep_faces, *spec.drop_faces)]
    marks += [v for v in (spec.low, spec.high) if v is not None]
    return max(marks) + 1 if marks else smallest  # no marks: the worth is the value itself


def _compound_moments(spec: PoolSpec, faces: Mapping[int, Fraction], p: Fraction, budget: Budget
                      ) -> tuple[Fraction, Fraction] | None:
    """The mean and second moment of one compounded die's worth: its chain of faces summed,
    then clamped and scored. g(s), the mean worth of a die whose chain so far sums to s, is
    the chance of each face times the worth where it stops, or g(s + face) where it goes on;
    h(s), the mean of the worth squared, likewise. Past a threshold T the worth of a value
    x ≥ T no longer changes (past a ``max``, or past every condition's number: a constant)
    or is x itself, and from there g is that constant or s + μ (μ the mean of a whole chain,
    (Σ q·face)/(1 − p)), h that constant squared or s² + 2sμ + E[C²] (E[C²] a whole chain's
    second moment, (Σ q·face² + 2·μ·Σ_exploding q·face)/(1 − p)). Below it the sums are worked
    out one by one, largest first, each exploding face at least 1 so each sum needs only
    larger ones."""
    exploding = [f for f in faces if spec.explodes(f)]
    if any(f < 1 for f in exploding):
        return None  # the chain's sum would not grow: no end to work back from
    smallest = min(faces)
    threshold = _settled_from(spec, smallest)
    tail_value = spec.worth(spec.clamp(threshold))
    identity = spec.high is None and not spec.counting and spec.in_play(threshold)
    mu = sum((q * f for f, q in faces.items()), Fraction(0)) / (1 - p)
    going = sum((q * f for f, q in faces.items() if spec.explodes(f)), Fraction(0))
    mu2 = (sum((q * f * f for f, q in faces.items()), Fraction(0)) + 2 * going * mu) / (1 - p)
    start = threshold - smallest  # from a sum of this on, every value it ends on is past T

    def tail(s: int) -> tuple[Fraction, Fraction]:
        if identity:
            return s + mu, s * s + 2 * s * mu + mu2
        return Fraction(tail_value), Fraction(tail_value * tail_value)

    if start <= 0:
        return tail(0)
    if start * len(faces) > MAX_CHAIN_WORK:
        return None
    budget.spend(start * len(faces))
    stops = [(f, q) for f, q in faces.items() if not spec.explodes(f)]
    goes_on = [(f, q) for f, q in faces.items() if spec.explodes(f)]
    g: list[tuple[Fraction, Fraction]] = [(Fraction(0), Fraction(0))] * start
    for s in range(start - 1, -1, -1):
        one, two = Fraction(0), Fraction(0)
        for f, q in stops:
            v = spec.worth(spec.clamp(s + f))
            one, two = one + q * v, two + q * v * v
        for f, q in goes_on:
            a, b = g[s + f] if s + f < start else tail(s + f)
            one, two = one + q * a, two + q * b
        g[s] = (one, two)
    return g[0]
