"""The pieces the JSON of results and odds is written with: a probability as a float and
its exact fraction, a distribution's rows with "at least" and "at most", and what writing
them costs, charged to the work budget before and while they are written (issue 30: the
whole answer, to its last byte, is inside the budget and a service's deadline)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from ..dice.dist import UNLIMITED, Budget, BudgetExceeded, step_cost
from ..dice.stats import kind_of, ranked_cumulative
from ..dice.values import DicePool, Rolled
from ..errors import LimitError
from ..exact_text import fraction_cost, fraction_text, text_cost


def jsonable(v: Any) -> Any:
    """A value as results' JSON carries it: a roll by its total, a dice pool by its text."""
    if isinstance(v, Rolled):
        return v.total
    if isinstance(v, DicePool):
        return v.text()
    return v


def probability_json(p: Fraction) -> dict[str, Any]:
    """A probability in results' JSON: a float for display and the exact fraction as text."""
    return {"probability": float(p), "exact": fraction_text(p)}


def cut_cumulative(dist: Mapping[Any, Fraction], cut_from: int | None = None,
                   cut: Fraction = Fraction(0)) -> dict[Any, tuple[Fraction, Fraction]]:
    """Each number of ``dist`` with its chance of that or more and of that or less, where
    ``cut`` (mass cut by the explode depth) is known to lie on ``cut_from`` or above: "at
    least v" counts it in for every v up to ``cut_from`` (exact there), and nowhere else.
    Empty when the values are not numbers."""
    if kind_of(dist) != "number":
        return {}
    return {v: (ge + cut if cut_from is not None and v <= cut_from else ge, le)
            for v, _, ge, le in ranked_cumulative(sorted(dist.items()))}


def writing_cost(dist: Mapping[Any, Fraction], cumulative: bool = True) -> int:
    """Steps charged for writing ``dist`` as :func:`distribution_json` writes it: each row's
    exact fraction by its length (``exact_text.fraction_cost``), and where the values are
    numbers (``cumulative``) its "at least" and "at most", fractions over the common
    denominator (their lengths bounded by its), and the sums behind them as multiply-adds
    of that size (``dist.step_cost``). Known from the fractions' sizes before anything is
    written."""
    return sum(_row_costs(dist, cumulative))


def _row_costs(dist: Mapping[Any, Fraction], cumulative: bool = True) -> list[int]:
    bits = max((p.denominator.bit_length() for p in dist.values()), default=1)
    per_row = 4 * step_cost(bits) + 4 * text_cost(bits) if cumulative else 1
    return [fraction_cost(p) + per_row for p in dist.values()]


def _charged_rows(dist: Mapping[Any, Fraction], budget: Budget, cumulative: bool = True) -> list[int]:
    """Each row's cost, the whole of it afforded by ``budget`` first (refused there if it
    does not fit)."""
    costs = _row_costs(dist, cumulative)
    try:
        budget.afford(sum(costs))
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    return costs


def _writing_budget(budget: Budget | None) -> Budget:
    """``budget``, or where none is given one without a limit of its own, which still
    charges a shared budget in force (a service's request, with its deadline)."""
    return budget if budget is not None else Budget(UNLIMITED)


def _too_big_to_write(rows: int) -> LimitError:
    return LimitError(f"the odds are too big to write out: {rows:,} values need more than the work budget allows",
                      "max_states", hint="ask for odds with fewer values (fewer dice), or roll it instead")


def distribution_json(dist: Mapping[Any, Fraction], budget: Budget | None = None,
                      views: Mapping[Any, tuple[Fraction, Fraction]] | None = None) -> list[dict[str, Any]]:
    """A distribution in results' JSON: each value with its probability and, for numbers, the
    chance of that value or more (``at_least``) and of that value or less (``at_most``);
    ``views``: those two chances where the caller knows more (:func:`cut_cumulative`).
    Charged to ``budget`` (see :func:`writing_cost`): the whole before, each row as it is
    written, so that a deadline is looked at meanwhile; a LimitError naming ``max_states``
    where it does not fit."""
    numbers = kind_of(dist) == "number"
    budget = _writing_budget(budget)
    costs = _charged_rows(dist, budget, numbers)
    if views is None:
        views = cut_cumulative(dist)
    out = []
    try:
        for (v, p), cost in zip(dist.items(), costs, strict=True):
            budget.spend(cost)
            row = dict(value=jsonable(v), **probability_json(p))
            if v in views:
                row["at_least"], row["at_most"] = probability_json(views[v][0]), probability_json(views[v][1])
            out.append(row)
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    return out


def ranked_distribution_json(dist: Mapping[Any, Fraction], budget: Budget | None = None) -> list[dict[str, Any]]:
    """A distribution already in rank order (signed results): each value with its probability
    and the chance of that rank or higher (``at_least``) and of that rank or lower (``at_most``).
    Charged as :func:`distribution_json` is."""
    budget = _writing_budget(budget)
    costs = _charged_rows(dist, budget)
    out = []
    try:
        for (v, p, ge, le), cost in zip(ranked_cumulative(list(dist.items())), costs, strict=True):
            budget.spend(cost)
            out.append(dict(value=v, **probability_json(p), at_least=probability_json(ge),
                            at_most=probability_json(le)))
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    return out
