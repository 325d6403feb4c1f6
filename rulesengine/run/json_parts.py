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
from ..exact_text import fraction_cost, ratio_text, text_cost


def jsonable(v: Any) -> Any:
    """A value as results' JSON carries it: a roll by its total, a dice pool by its text."""
    if isinstance(v, Rolled):
        return v.total
    if isinstance(v, DicePool):
        return v.text()
    return v


def probability_json(p: Fraction) -> dict[str, Any]:
    """A probability in results' JSON: a float for display and the exact fraction as text."""
    n, d = p.as_integer_ratio()
    # float(p) of a Fraction is this same true division of its two integers
    return {"probability": n / d if type(p) is Fraction else float(p), "exact": ratio_text(n, d)}


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


def writing_cost(dist: Mapping[Any, Fraction], cumulative: bool = True, rendered: Rendered | None = None) -> int:
    """Steps charged for writing ``dist`` as :func:`distribution_json` writes it: each row's
    exact fraction by its length (``exact_text.fraction_cost``), and where the values are
    numbers (``cumulative``) its "at least" and "at most", fractions over the common
    denominator (their lengths bounded by its), and the sums behind them as multiply-adds
    of that size (``dist.step_cost``). Known from the fractions' sizes before anything is
    written (once for each distribution of ``rendered``'s odds)."""
    return sum(_row_costs(dist, cumulative, rendered))


def _row_costs(dist: Mapping[Any, Fraction], cumulative: bool = True, rendered: Rendered | None = None) -> list[int]:
    known = rendered.known(dist) if rendered is not None else None
    if known is not None:
        costs = known.costs.get(cumulative)
        if costs is not None:
            return costs
    bits = max((p.denominator.bit_length() for p in dist.values()), default=1)
    per_row = 4 * step_cost(bits) + 4 * text_cost(bits) if cumulative else 1
    costs = [fraction_cost(p) + per_row for p in dist.values()]
    if known is not None:
        known.costs[cumulative] = costs
    return costs


def _charged_rows(dist: Mapping[Any, Fraction], budget: Budget, cumulative: bool = True,
                  rendered: Rendered | None = None) -> list[int]:
    """Each row's cost, the whole of it afforded by ``budget`` first (refused there if it
    does not fit)."""
    costs = _row_costs(dist, cumulative, rendered)
    try:
        budget.afford(sum(costs))
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    return costs


def _spent_again(costs: list[int], budget: Budget) -> None:
    """Rows written before (:class:`Rendered`) charged as if written again, row by row."""
    try:
        for cost in costs:
            budget.spend(cost)
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None


def _writing_budget(budget: Budget | None) -> Budget:
    """``budget``, or where none is given one without a limit of its own, which still
    charges a shared budget in force (a service's request, with its deadline)."""
    return budget if budget is not None else Budget(UNLIMITED)


def _too_big_to_write(rows: int) -> LimitError:
    return LimitError(f"the odds are too big to write out: {rows:,} values need more than the work budget allows",
                      "max_states", hint="ask for odds with fewer values (fewer dice), or roll it instead")


def distribution_json(dist: Mapping[Any, Fraction], budget: Budget | None = None,
                      views: Mapping[Any, tuple[Fraction, Fraction]] | None = None,
                      rendered: Rendered | None = None, cut_from: int | None = None,
                      cut: Fraction = Fraction(0)) -> list[dict[str, Any]]:
    """A distribution in results' JSON: each value with its probability and, for numbers, the
    chance of that value or more (``at_least``) and of that value or less (``at_most``);
    ``views``: those two chances where the caller knows more, else as :func:`cut_cumulative`
    gives them with ``cut_from`` and ``cut``. Charged to ``budget`` (see
    :func:`writing_cost`): the whole before, each row as it is written, so that a deadline
    is looked at meanwhile; a LimitError naming ``max_states`` where it does not fit. With
    ``rendered``, rows written before for the same distribution, views and cut are given
    again (the same objects), charged as if written again."""
    numbers = kind_of(dist) == "number"
    budget = _writing_budget(budget)
    costs = _charged_rows(dist, budget, numbers, rendered)
    known = rendered.known(dist) if rendered is not None else None
    how = (views, cut_from, cut)
    if known is not None:
        for seen, rows in known.rows:
            # views given are known by identity; else the cut decides them (with the rows)
            if seen[0] is views and seen[1] == cut_from and seen[2] == cut:
                _spent_again(costs, budget)
                return rows
    shown = cut_cumulative(dist, cut_from, cut) if views is None else views
    out = []
    prob = probability_json
    try:
        for (v, p), cost in zip(dist.items(), costs, strict=True):
            budget.spend(cost)
            row = dict(value=jsonable(v), **prob(p))
            if v in shown:
                ge, le = shown[v]
                row["at_least"], row["at_most"] = prob(ge), prob(le)
            out.append(row)
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    if known is not None:
        known.rows.append((how, out))
    return out


def ranked_views(dist: Mapping[Any, Fraction], cut_through: int = 0,
                 cut: Fraction = Fraction(0)) -> dict[Any, tuple[Fraction, Fraction]]:
    """Each value of a distribution already in rank order with its chance of that rank or
    higher and of that rank or lower, the cut mass counted in the first of the lowest
    ``cut_through`` ranks (see :func:`ranked_distribution_json`): what the JSON and the text
    table of signed results show."""
    return {v: (ge + cut if i < cut_through else ge, le)
            for i, (v, _, ge, le) in enumerate(ranked_cumulative(list(dist.items())))}


def ranked_distribution_json(dist: Mapping[Any, Fraction], budget: Budget | None = None,
                             rendered: Rendered | None = None, cut_through: int = 0,
                             cut: Fraction = Fraction(0)) -> list[dict[str, Any]]:
    """A distribution already in rank order (signed results): each value with its probability
    and the chance of that rank or higher (``at_least``) and of that rank or lower (``at_most``).
    ``cut`` (mass cut by the explode depth) is known to lie above the first ``cut_through``
    ranks: their "at least" counts it in (exact there), as :func:`cut_cumulative` does for
    numbers. Charged as :func:`distribution_json` is, and given again as it gives them."""
    budget = _writing_budget(budget)
    costs = _charged_rows(dist, budget, True, rendered)
    known = rendered.known(dist) if rendered is not None else None
    how = (cut_through, cut)
    if known is not None and known.ranked is not None and known.ranked[0] == how:
        _spent_again(costs, budget)
        return known.ranked[1]
    out = []
    try:
        views = ranked_views(dist, cut_through, cut)
        for (v, p), cost in zip(dist.items(), costs, strict=True):
            budget.spend(cost)
            out.append(dict(value=v, **probability_json(p), at_least=probability_json(views[v][0]),
                            at_most=probability_json(views[v][1])))
    except BudgetExceeded:
        raise _too_big_to_write(len(costs)) from None
    if known is not None:
        known.ranked = (how, out)
    return out


_PLAIN_VALUES = frozenset({int, bool, str, type(None)})
_FRACTIONS = frozenset({Fraction})


def written_as(dist: Mapping[Any, Fraction]) -> tuple[Any, ...] | None:
    """What ``dist``'s rows are written from, exactly: its values in order with their types
    (``1`` and ``True`` are equal but written apart) and each probability as a pair of whole
    numbers. Two distributions with the same are written the same. None where a value is not
    written as it is (a roll, a pool: only whole numbers, yes/no, text and none are) or a
    probability is not a Fraction."""
    values = tuple(dist)
    types = tuple(map(type, values))
    if not _PLAIN_VALUES.issuperset(types) or not _FRACTIONS.issuperset(map(type, dist.values())):
        return None
    return values, types, tuple(map(Fraction.as_integer_ratio, dist.values()))


class Known:
    """What has been worked out for writing one distribution: each row's cost (by whether
    "at least" and "at most" are charged), its rows with each ``views`` they were written
    with, and its rows in rank order."""

    __slots__ = ("costs", "rows", "ranked")

    def __init__(self) -> None:
        self.costs: dict[bool, list[int]] = {}
        self.rows: list[tuple[tuple[Any, int | None, Fraction], list[dict[str, Any]]]] = []
        self.ranked: tuple[tuple[int, Fraction], list[dict[str, Any]]] | None = None


class Rendered:
    """Distributions written once for all the odds of one answer (a sweep's values, whose
    results are often the same distribution: a d100's for every skill), so that writing
    the answer costs what writing its distinct distributions costs.

    Two distributions are one where :func:`written_as` gives the same: the values, their
    types and the numerators and denominators themselves, compared as a dict compares keys
    (a hash only says which are compared: two that collide are still told apart). Each
    distribution looked up is kept, so that its identity stands for it while this lives and
    a second look-up of the same object costs one dict look-up. The rows given again are the
    same objects: written as JSON, never changed."""

    __slots__ = ("_by_identity", "_by_content")

    def __init__(self) -> None:
        self._by_identity: dict[int, tuple[Mapping[Any, Fraction], Known]] = {}
        self._by_content: dict[tuple[Any, ...], Known] = {}

    def known(self, dist: Mapping[Any, Fraction]) -> Known:
        seen = self._by_identity.get(id(dist))
        if seen is not None and seen[0] is dist:
            return seen[1]
        content = written_as(dist)
        known = self._by_content.get(content) if content is not None else None
        if known is None:
            known = Known()
            if content is not None:
                self._by_content[content] = known
        self._by_identity[id(dist)] = (dist, known)
        return known
