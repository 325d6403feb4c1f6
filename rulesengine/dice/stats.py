"""What people ask of a distribution besides its table: at least / at most, mean, spread,
smallest and largest value — exactly, from the probabilities.

One place for every odds view (dice expressions, a check's result and reported values,
procedures), so they can never disagree. A mean and a variance of whole numbers with
rational probabilities are rational and given exactly; the standard deviation is their
square root, a float (labelled so in JSON). Statistics are over the mass that was worked
out: when explosions were cut at a depth, they are conditioned on not being cut, and the
truncated mass is reported beside them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, NamedTuple


class Summary(NamedTuple):
    """The statistics of one distribution. ``kind``: "number" (whole numbers; rolls by their
    total), "yes/no" (then only ``p_true`` is meaningful) or "other" (text: none apply)."""

    kind: str
    mean: Fraction | None = None
    variance: Fraction | None = None
    minimum: int | None = None
    maximum: int | None = None
    p_true: Fraction | None = None

    @property
    def sd(self) -> float | None:
        return None if self.variance is None else math.sqrt(self.variance)


def kind_of(values: Any) -> str:
    values = list(values)
    if values and all(isinstance(v, bool) for v in values):
        return "yes/no"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "number"
    return "other"


def common_weights(items: Iterable[tuple[Any, Fraction]], *more: Fraction) -> tuple[int, list[int], list[int]]:
    """The probabilities of ``items`` (value, probability), and ``more``, as whole numbers over
    one common denominator: (denominator, each item's numerator, each of ``more``'s). Sums,
    cumulative sums and means are then integer additions, not a Fraction addition (two gcds
    of numbers as long as the fractions) per term; a distribution's fractions share a few
    denominators at most (each divides the one its weights were over), so finding the common
    one is cheap. Exact: a result made from these is the same Fraction."""
    probs = [p for _, p in items]
    denoms = {p.denominator for p in (*probs, *more)}
    common = max(denoms, default=1)
    if any(common % q for q in denoms):  # usually each divides the largest: no gcds needed
        common = math.lcm(*denoms)
    scale = {q: common // q for q in denoms}
    return common, [p.numerator * scale[p.denominator] for p in probs], \
        [p.numerator * scale[p.denominator] for p in more]


def summarize(dist: Mapping[Any, Fraction]) -> Summary:
    """The statistics of ``dist`` (value → probability), conditioned on its total mass."""
    return summarize_weights(list(dist), common_weights(dist.items())[1])


def summarize_weights(values: list[Any], weights: list[int]) -> Summary:
    """:func:`summarize` of values with whole-number weights over any common denominator
    (:func:`common_weights`): the mean is S1/M and the variance S2/M − (S1/M)² for M, S1, S2
    the sums of the weights, of value × weight and of value² × weight, the same Fractions
    as sums of the probabilities as Fractions would give."""
    kind = kind_of(values)
    mass = sum(weights)
    if kind == "yes/no":
        if not mass:
            return Summary(kind, p_true=Fraction(0))
        return Summary(kind, p_true=Fraction(sum(w for v, w in zip(values, weights, strict=True) if v), mass))
    if kind != "number" or not mass:
        return Summary(kind)
    s1 = sum(v * w for v, w in zip(values, weights, strict=True))
    s2 = sum(v * v * w for v, w in zip(values, weights, strict=True))
    mean = Fraction(s1, mass)
    variance = Fraction(s2 * mass - s1 * s1, mass * mass)
    reached = [v for v, w in zip(values, weights, strict=True) if w]
    return Summary(kind, mean, variance, min(reached), max(reached))


def cumulative(dist: Mapping[Any, Fraction]) -> list[tuple[Any, Fraction, Fraction, Fraction]]:
    """(value, P(value), P(at least value), P(at most value)) for each value of a distribution
    of numbers, in increasing order; empty for anything else."""
    if kind_of(dist) != "number":
        return []
    return ranked_cumulative(sorted(dist.items()))


def ranked_cumulative(ranked: list[tuple[Any, Fraction]]) -> list[tuple[Any, Fraction, Fraction, Fraction]]:
    """(value, P(value), P(that rank or higher), P(that rank or lower)) for values given lowest
    rank first: numbers in order, or any other ranking (signed results: -0 below +0). One
    running sum of whole numbers over a common denominator (:func:`common_weights`)."""
    common, weights, _ = common_weights(ranked)
    total = sum(weights)
    out, below = [], 0
    for (v, p), w in zip(ranked, weights, strict=True):
        out.append((v, p, Fraction(total - below, common), Fraction(below + w, common)))
        below += w
    return out


def summary_json(s: Summary, exact_text: Any) -> dict[str, Any]:
    """A Summary as results' JSON: floats for display and the exact fractions as text
    (``exact_text``: the project's fraction formatter)."""
    if s.kind == "yes/no":
        return {"kind": s.kind, "p_true": float(s.p_true or 0), "p_true_exact": exact_text(s.p_true or Fraction(0))}
    if s.kind != "number" or s.mean is None or s.variance is None:
        return {"kind": s.kind}
    return {"kind": s.kind, "mean": float(s.mean), "mean_exact": exact_text(s.mean),
            "variance_exact": exact_text(s.variance), "sd": s.sd, "min": s.minimum, "max": s.maximum}
