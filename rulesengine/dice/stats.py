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
worked out, which is not the roll's mean (issue 29).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple


MEAN_EXACT = "exact"
MEAN_OF_MASS_WORKED_OUT = "of_mass_worked_out"


class Summary(NamedTuple):
    """The statistics of one distribution. ``kind``: "number" (whole numbers; rolls by their
    total), "yes/no" (then only ``p_true`` is meaningful) or "other" (text: none apply).
    ``left_out``: the probability explosions cut off, which the statistics leave out;
    ``mean_followed``: the mean is nonetheless the roll's own, followed forever (a closed
    form, :mod:`.expectation`)."""

    kind: str
    mean: Fraction | None = None
    variance: Fraction | None = None
    minimum: int | None = None
    maximum: int | None = None
    p_true: Fraction | None = None
    left_out: Fraction = Fraction(0)
    mean_followed: bool = False

    @property
    def mean_kind(self) -> str | None:
        """"exact" where the mean is the roll's own, "of_mass_worked_out" where it is only the
        mean of the mass worked out (explosions were cut and there is no closed form)."""
        if self.mean is None:
            return None
        return MEAN_EXACT if self.mean_followed or not self.left_out else MEAN_OF_MASS_WORKED_OUT

    def with_mean(self, mean: Fraction | None) -> Summary:
        """These statistics with the roll's own mean (followed forever), where it is known."""
        return self if mean is None else self._replace(mean=mean, mean_followed=True)

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


def summarize(dist: Mapping[Any, Fraction], left_out: Fraction = Fraction(0)) -> Summary:
    """The statistics of ``dist`` (value → probability), conditioned on its total mass;
    ``left_out``: the probability explosions cut off, not in ``dist`` (then its mean is
    only the mean of the mass worked out)."""
    kind = kind_of(dist)
    mass = sum(dist.values(), Fraction(0))
    if kind == "yes/no":
        return Summary(kind, p_true=dist.get(True, Fraction(0)) / mass if mass else Fraction(0), left_out=left_out)
    if kind != "number" or not mass:
        return Summary(kind, left_out=left_out)
    mean = sum((v * p for v, p in dist.items()), Fraction(0)) / mass
    variance = sum(((v - mean) ** 2 * p for v, p in dist.items()), Fraction(0)) / mass
    reached = [v for v, p in dist.items() if p]
    return Summary(kind, mean, variance, min(reached), max(reached), left_out=left_out)


def cumulative(dist: Mapping[Any, Fraction]) -> list[tuple[Any, Fraction, Fraction, Fraction]]:
    """(value, P(value), P(at least value), P(at most value)) for each value of a distribution
    of numbers, in increasing order; empty for anything else."""
    if kind_of(dist) != "number":
        return []
    return ranked_cumulative(sorted(dist.items()))


def ranked_cumulative(ranked: list[tuple[Any, Fraction]]) -> list[tuple[Any, Fraction, Fraction, Fraction]]:
    """(value, P(value), P(that rank or higher), P(that rank or lower)) for values given lowest
    rank first: numbers in order, or any other ranking (signed results: -0 below +0)."""
    total = sum((p for _, p in ranked), Fraction(0))
    out, below = [], Fraction(0)
    for v, p in ranked:
        out.append((v, p, total - below, below + p))
        below += p
    return out


def summary_json(s: Summary, exact_text: Any) -> dict[str, Any]:
    """A Summary as results' JSON: floats for display and the exact fractions as text
    (``exact_text``: the project's fraction formatter). ``mean_kind`` says whether the mean
    is the roll's own; ``mass_left_out``, there only where explosions were cut, what the
    statistics leave out."""
    cut = {"mass_left_out": exact_text(s.left_out)} if s.left_out else {}
    if s.kind == "yes/no":
        p_true = s.p_true or Fraction(0)
        return {"kind": s.kind, "p_true": float(p_true), "p_true_exact": exact_text(p_true)} | cut
    if s.kind != "number" or s.mean is None or s.variance is None:
        return {"kind": s.kind} | cut
    return {"kind": s.kind, "mean": float(s.mean), "mean_exact": exact_text(s.mean), "mean_kind": s.mean_kind,
            "variance_exact": exact_text(s.variance), "sd": s.sd, "min": s.minimum, "max": s.maximum} | cut


def stats_json(dist: Mapping[Any, Fraction], left_out: Fraction, exact_text: Any) -> dict[str, Any]:
    """The statistics of ``dist`` as results' JSON, ``left_out`` the probability explosions
    cut off (see :func:`summarize`, :func:`summary_json`)."""
    return summary_json(summarize(dist, left_out), exact_text)
