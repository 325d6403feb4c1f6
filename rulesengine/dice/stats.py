"""What people ask of a distribution besides its table: at least / at most, mean, spread,
smallest and largest value — exactly, from the probabilities.

One place for every odds view (dice expressions, a check's result and reported values,
procedures), so they can never disagree. A mean and a variance of whole numbers with
rational probabilities are rational and given exactly; the standard deviation is their
square root, a float (labelled so in JSON). Statistics are over the mass that was worked
out: when explosions were cut at a depth, they are conditioned on not being cut, and the
truncated mass is reported beside them (``mass_left_out``). The mean then says which it
is (``mean_kind``): ``exact``, the mean of the roll followed forever (nothing was cut, or
:mod:`.expectation` has its closed form), or ``of_mass_worked_out``, the mean of what was
worked out, which is not the roll's mean (issue 29). The variance says so too
(``variance_kind``, issue 34), and the standard deviation, its square root, is of the same
kind: a figure labelled exact is the roll's own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, NamedTuple


MEAN_EXACT = "exact"
MEAN_OF_MASS_WORKED_OUT = "of_mass_worked_out"


class Summary(NamedTuple):
    """The statistics of one distribution. ``kind``: "number" (whole numbers; rolls by their
    total), "yes/no" (then only ``p_true`` is meaningful) or "other" (text: none apply).
    ``left_out``: the probability explosions cut off, which the statistics leave out;
    ``mean_followed``, ``variance_followed``: the mean, the variance is nonetheless the
    roll's own, followed forever (a closed form, :mod:`.expectation`)."""

    kind: str
    mean: Fraction | None = None
    variance: Fraction | None = None
    minimum: int | None = None
    maximum: int | None = None
    p_true: Fraction | None = None
    left_out: Fraction = Fraction(0)
    mean_followed: bool = False
    variance_followed: bool = False
    # The share of the mass with no value (a value only some rolls give: a margin on a
    # success); the statistics are of the rest, given that it has a value.
    no_value: Fraction = Fraction(0)

    @property
    def mean_kind(self) -> str | None:
        """"exact" where the mean is the roll's own, "of_mass_worked_out" where it is only the
        mean of the mass worked out (explosions were cut and there is no closed form)."""
        if self.mean is None:
            return None
        return MEAN_EXACT if self.mean_followed or not self.left_out else MEAN_OF_MASS_WORKED_OUT

    @property
    def variance_kind(self) -> str | None:
        """As :attr:`mean_kind`, of the variance (and of ``sd``, its square root): "exact" where
        it is the roll's own, "of_mass_worked_out" where it is only the variance of the mass
        worked out (explosions were cut and there is no closed form)."""
        if self.variance is None:
            return None
        return MEAN_EXACT if self.variance_followed or not self.left_out else MEAN_OF_MASS_WORKED_OUT

    def with_mean(self, mean: Fraction | None, variance: Fraction | None = None) -> Summary:
        """These statistics with the roll's own mean (followed forever), where it is known, and
        its own variance, where that is known too."""
        if mean is None:
            return self
        followed = self._replace(mean=mean, mean_followed=True)
        if variance is None or self.variance is None:
            return followed
        return followed._replace(variance=variance, variance_followed=True)

    @property
    def sd(self) -> float | None:
        return None if self.variance is None else math.sqrt(self.variance)


def value_order(v: Any) -> tuple:
    """Sort key of a distribution's values, which may mix kinds: numbers in order, then
    yes/no values (false first), then text (``True`` is never taken for ``1``)."""
    if isinstance(v, bool):
        return (1, int(v), "")
    if isinstance(v, int):
        return (0, v, "")
    return (2, 0, str(v))


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


def summarize(dist: Mapping[Any, Fraction], left_out: Fraction = Fraction(0)) -> Summary:
    """The statistics of ``dist`` (value → probability), conditioned on its total mass;
    ``left_out``: the probability explosions cut off, not in ``dist`` (then its mean is
    only the mean of the mass worked out)."""
    return summarize_weights(list(dist), common_weights(dist.items())[1], left_out)


def summarize_weights(values: list[Any], weights: list[int], left_out: Fraction = Fraction(0)) -> Summary:
    """:func:`summarize` of values with whole-number weights over any common denominator
    (:func:`common_weights`): the mean is S1/M and the variance S2/M − (S1/M)² for M, S1, S2
    the sums of the weights, of value × weight and of value² × weight, the same Fractions
    as sums of the probabilities as Fractions would give."""
    if None in values:  # numbers where they are given: their statistics, and how often none is
        given = [(v, w) for v, w in zip(values, weights, strict=True) if v is not None]
        mass = sum(weights)
        if given and mass and kind_of(v for v, _ in given) == "number":
            inner = summarize_weights([v for v, _ in given], [w for _, w in given], left_out)
            return inner._replace(no_value=Fraction(mass - sum(w for _, w in given), mass))
    kind = kind_of(values)
    mass = sum(weights)
    if kind == "yes/no":
        if not mass:
            return Summary(kind, p_true=Fraction(0), left_out=left_out)
        return Summary(kind, p_true=Fraction(sum(w for v, w in zip(values, weights, strict=True) if v), mass),
                       left_out=left_out)
    if kind != "number" or not mass:
        return Summary(kind, left_out=left_out)
    s1 = sum(v * w for v, w in zip(values, weights, strict=True))
    s2 = sum(v * v * w for v, w in zip(values, weights, strict=True))
    mean = Fraction(s1, mass)
    variance = Fraction(s2 * mass - s1 * s1, mass * mass)
    reached = [v for v, w in zip(values, weights, strict=True) if w]
    return Summary(kind, mean, variance, min(reached), max(reached), left_out=left_out)


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
    (``exact_text``: the project's fraction formatter). ``mean_kind`` and ``variance_kind``
    say whether the mean and the variance (and ``sd``) are the roll's own; ``mass_left_out``,
    there only where explosions were cut, what the statistics leave out."""
    cut = {"mass_left_out": exact_text(s.left_out)} if s.left_out else {}
    if s.kind == "yes/no":
        p_true = s.p_true or Fraction(0)
        return {"kind": s.kind, "p_true": float(p_true), "p_true_exact": exact_text(p_true)} | cut
    if s.kind != "number" or s.mean is None or s.variance is None:
        return {"kind": s.kind} | cut
    none = {"no_value": exact_text(s.no_value)} if s.no_value else {}
    return {"kind": s.kind, "mean": float(s.mean), "mean_exact": exact_text(s.mean), "mean_kind": s.mean_kind,
            "variance_exact": exact_text(s.variance), "variance_kind": s.variance_kind,
            "sd": s.sd, "min": s.minimum, "max": s.maximum} | none | cut


def stats_json(dist: Mapping[Any, Fraction], left_out: Fraction, exact_text: Any) -> dict[str, Any]:
    """The statistics of ``dist`` as results' JSON, ``left_out`` the probability explosions
    cut off (see :func:`summarize`, :func:`summary_json`)."""
    return summary_json(summarize(dist, left_out), exact_text)
