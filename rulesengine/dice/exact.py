"""The exact driver: values are :class:`~rulesengine.dice.dist.Dist` distributions; a dice
term is its exact distribution and an operator applies to every combination of its
operands' outcomes. Every dice term appears once in an expression, so its operands are
independent and the product is exact. The compiler (:mod:`.evaluate`) decides what
everything means; this decides only how values flow."""

from __future__ import annotations

from ..records import replace
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from ..cache import POOL_DISTS, weights_size
from ..limits import Limits
from . import ast
from .context import Compiled, Context, check_count, dynamic_spec, eval_error, too_big, unknown_name
from .dist import NO_TAIL, Budget, BudgetExceeded, Dist, add, combine, combine2, mixture, with_tails
from .functions import ARITHMETIC, COMPARISONS, OpError, keep_sum, logic_and, logic_or, negate
from .beyond import CutBelow
from .builtins import extreme
from .pool import PoolSpec
from .die_odds import die_dist
from .pool_odds import pool_dist, sums_whole

if TYPE_CHECKING:  # followed forever only where dice explode: imported there (start-up, issue 33)
    from .open_ended import OpenLaw


class Exact:
    """Exact distributions; every operation is checked against ``ctx.budget``."""

    def const(self, value: Any) -> Compiled:
        d = Dist.point(value)
        return lambda ctx: d

    def known(self, value: Dist) -> Any:
        """A value that must be known before dice are rolled (a die's condition): the one
        value of its distribution, else OpError."""
        if not value.is_point():
            raise OpError("a die's condition must be known before the dice are rolled",
                          "work it out from inputs and values known before rolling")
        return next(iter(value.weights))

    def name(self, node: ast.Name) -> Compiled:
        key = node.name

        def run(ctx: Context) -> Dist:
            try:
                value = ctx.env[key]
            except KeyError:
                raise unknown_name(ctx, node) from None
            return value if isinstance(value, Dist) else Dist.point(value)

        return run

    def lift(self, fn: Callable[..., Any], parts: list[Compiled], node: ast.Node) -> Compiled:
        def run(ctx: Context) -> Dist:
            return _apply(ctx, node, fn, [p(ctx) for p in parts])

        return run

    def set_keep(self, node: ast.SetKeep, parts: list[Compiled], keeps: tuple) -> Compiled:
        """A set's value for every combination of its items' values: independent rolls, so
        their joint is exact."""
        return self.lift(keep_sum(keeps), parts, node)

    def lazy_logic(self, op: str, left: Compiled, right: Compiled, node: ast.Node) -> Compiled:
        fn = logic_and if op == "and" else logic_or
        decides = op == "or"

        def run(ctx: Context) -> Dist:
            a = left(ctx)
            if a.is_point() and next(iter(a.weights)) is decides:
                return a
            # Combine the left side already worked out: working it out again would double
            # the work at every link of `a and b and c …` (2^n steps for n links).
            return _apply(ctx, node, fn, [a, right(ctx)])

        return run

    def lazy_if(self, cond: Compiled, then: Compiled, other: Compiled, node: ast.Node) -> Compiled:
        def run(ctx: Context) -> Dist:
            c = cond(ctx)
            parts = []
            for value, w in c.weights.items():
                if value is True:
                    parts.append((then(ctx), w))
                elif value is False:
                    parts.append((other(ctx), w))
                else:
                    raise eval_error(ctx, node.span, OpError(f"if() needs a yes/no value first, not {value!r}",
                                                        "compare it first, e.g. if(x >= 10, a, b)"))
            if len(parts) == 1 and c.is_point():
                return parts[0][0]
            return _mix(ctx, node, parts, c.denom)

        return run

    def dice(self, node: ast.Dice, spec: PoolSpec | None, count: Compiled,
             sides: Compiled | None) -> Compiled:
        def run(ctx: Context) -> Dist:
            side_dist = sides(ctx) if spec is None else None  # type: ignore[misc]
            counts = count(ctx)
            dist = dice_term_dist(ctx, node, spec, counts, side_dist,
                                  lambda rule, n: self._pool(ctx, node, rule, n))
            if spec is not None and dist.tail and counts.is_point():
                from .open_ended import OpenLaw, plain_chain

                chain, n = plain_chain(spec), next(iter(counts.weights))
                if chain is not None and type(n) is int and n > 0:  # NdS!: known for ever, added to or taken from
                    return replace(dist, open_ended=OpenLaw.dice(chain, n))
            return dist

        return run

    def _pool(self, ctx: Context, node: ast.Dice, spec: PoolSpec, n: int) -> Dist:
        """A dice term's distribution, from the process-wide cache when it is there. A
        cached one is charged the steps it cost to work out: a computation must be
        refused at the same point whether or not an earlier call left work behind."""
        key = (spec, n, ctx.limits)
        budget: Budget = ctx.budget  # type: ignore[assignment]
        try:
            # A count worked out (a push's ``(count(pool, 6))d6``) asks for many counts: their
            # sums are made one die at a time, once. A count written out asks for its own.
            summed = None if isinstance(node.count, ast.Num) else sums_of_dice(spec, n, ctx.limits, budget)
            if summed is not None:
                return summed
            cached = POOL_DISTS.get(key)
            if cached is not None:
                dist, steps = cached
                budget.spend(steps)
                return dist
            before = budget.used
            dist = pool_dist(spec, n, ctx.limits, budget)
        except BudgetExceeded:
            raise too_big(ctx, node) from None
        POOL_DISTS.put(key, (dist, budget.used - before), weights_size(len(dist.weights), dist.denom.bit_length()))
        return dist


SUMS_MADE_UP_TO = 64
"""The most dice whose sums :func:`sums_of_dice` makes one die at a time (a push's pool)."""


def sums_of_dice(spec: PoolSpec, n: int, limits: Limits, budget: Budget) -> Dist | None:
    """The sum of ``n`` dice of ``spec``, one of the sums of 1, 2, … dice this computation
    makes one die at a time, each from the one before: a roll whose count is read from
    another (``(count(pool, 6))d6!cs>=5``, a push) asks for every count up to the pool's
    size, and each is one convolution more, where each alone would be its own few
    (charged, as a computation alone would be: a ladder of 30 exploding dice's sums ran
    past two million steps, whose work is some tens of thousands). Charged for its own
    convolutions only, once, to this computation (``Budget.made``), so its cost never
    depends on another call. None where the dice are not worth the sum of each alone, are
    too many, or are a die of two outcomes (its sums have a closed form, :func:`.dist.sum_of`)."""
    if not 2 <= n <= SUMS_MADE_UP_TO or not sums_whole(spec, n):
        return None
    made = budget.made.setdefault(("sums", spec, limits), [])
    if not made:
        die = die_dist(spec, "total", limits, budget)
        if len(die.weights) <= 2 and not die.tail:
            made.append(None)  # two outcomes: the closed form, each count on its own
        else:
            made += [Dist.point(0), die]
    if made[0] is None:
        return None
    while len(made) <= n:
        made.append(add(made[-1], made[1], budget).reduced())
    return made[n]


def dice_term_dist(ctx: Context, node: ast.Dice, spec: PoolSpec | None, counts: Dist, side_dist: Dist | None,
                   pool: Callable[[PoolSpec, int], Dist]) -> Dist:
    """The exact distribution of a dice term once the distributions of its count (and, for
    ``d(expr)``, of its sides) are known: one pool per (sides, count) pair, mixed. ``pool``
    gives one pool's distribution — its totals for the evaluator, its single dice for a
    check whose rules read them (``count(roll, 6)``) — so both readings check counts and
    sides, charge the budget and mix the same way."""
    if spec is None:
        assert side_dist is not None
        # One pool per (sides, count) pair: charge for the pairs before making them.
        _charge(ctx, node, len(side_dist.weights) * len(counts.weights))
        options = [(dynamic_spec(ctx, node, s), w) for s, w in side_dist.weights.items()]
        denom = side_dist.denom
    else:
        options, denom = [(spec, 1)], 1
    parts = [(pool(rule, check_count(ctx, node, n)), w * ws) for rule, ws in options
             for n, w in counts.weights.items()]
    if len(parts) == 1 and counts.is_point() and denom == 1:
        return parts[0][0]
    return _mix(ctx, node, parts, counts.denom * denom)


def _charge(ctx: Context, node: ast.Node, steps: int) -> None:
    """Charge work about to be done to the budget, as the error of ``node`` if it runs out."""
    try:
        ctx.budget.spend(steps)  # type: ignore[union-attr]
    except BudgetExceeded:
        raise too_big(ctx, node) from None


def _mix(ctx: Context, node: ast.Node, parts: list[tuple[Dist, int]], denom: int) -> Dist:
    """:func:`dist.mixture`, charged to the budget as the error of ``node``."""
    try:
        return mixture(parts, denom, ctx.budget)  # type: ignore[arg-type]
    except BudgetExceeded:
        raise too_big(ctx, node) from None


def _apply(ctx: Context, node: ast.Node, fn: Callable[..., Any], dists: list[Dist]) -> Dist:
    """An operator applied to every combination of its operands' outcomes."""
    try:
        if len(dists) == 1:
            out = dists[0].map(fn)
        elif len(dists) == 2:
            out = combine2(fn, dists[0], dists[1], ctx.budget)  # type: ignore[arg-type]
        else:
            out = combine(fn, dists, ctx.budget)  # type: ignore[arg-type]
        # What explosions cut off, worked out where the operator decides it (.beyond).
        out = with_tails(fn, dists, out, ctx.budget, (OpError,))  # type: ignore[arg-type]
        highest = extreme(node)
        if highest is not None:  # max(), min(): of plain dS! each, a term followed for ever
            return _extremes(dists, out, highest)
        return _followed_forever(ctx, fn, dists, out, isinstance(node, ast.Binary) and node.op == "*")
    except OpError as exc:
        raise eval_error(ctx, node.span, exc) from None
    except BudgetExceeded:
        raise too_big(ctx, node) from None


_ADD = ARITHMETIC["+"]
_SUBTRACT = ARITHMETIC["-"]
_COMPARISON_OF = {fn: op for op, fn in COMPARISONS.items()}


def _law_of(d: Dist) -> OpenLaw | None:
    """What :mod:`.open_ended` knows of ``d`` followed forever: its law, or the law of a
    whole number known exactly (no cut path); None for anything else."""
    if d.open_ended is not None:
        return d.open_ended
    if d.tail or not all(type(v) is int for v in d.weights):
        return None
    from .open_ended import OpenLaw

    return OpenLaw.number(d.weights, d.denom)


def _followed_forever(ctx: Context, fn: Callable[..., Any], dists: list[Dist], out: Dist, product: bool = False
                      ) -> Dist:
    """``out`` made exact where :mod:`.open_ended` has the closed form: sums and differences
    of plain exploding dice and numbers known exactly, and those times a whole number
    (``product``: ``2 * 1d6!``), carry their law on; where dice are
    both added and taken away (``2d6! - 1d6!``), each value's probability is the closed
    form's (the values the depth reached are listed, the rest is ``truncated``, kept as
    bounds), and a comparison of two such values, or of one with a number, is exact
    (nothing truncated). Where the closed form would cost more than the budget has left,
    ``out`` as the depth gave it."""
    if len(dists) == 1:
        law = dists[0].open_ended
        return replace(out, open_ended=-law) if fn is negate and law is not None else out
    if len(dists) != 2 or (dists[0].open_ended is None and dists[1].open_ended is None):
        return out
    a, b = _law_of(dists[0]), _law_of(dists[1])
    if a is None or b is None:
        return out
    if product:
        law = _multiple(a, b) if dists[0].open_ended is not None else _multiple(b, a)
        if law is None:
            return out
        return _rows(ctx, law, out) if law.crosses else replace(out, open_ended=law)
    if fn is _ADD or fn is _SUBTRACT:
        law = a.plus_law(b if fn is _ADD else -b)
        if law is None:
            return out
        return _rows(ctx, law, out) if law.crosses else replace(out, open_ended=law)
    from . import open_ended

    op = _COMPARISON_OF.get(fn)
    law = None if op is None else a.plus_law(-b)  # a op b: a − b op 0
    if op is None or law is None or not law.crosses or not _afford(ctx, law, open_ended.thresholds_of(op, 0)):
        return out
    p = open_ended.compare(law, op, 0, _at_least)
    return _from_fractions({True: p, False: 1 - p})


def _extremes(dists: list[Dist], out: Dist, highest: bool) -> Dist:
    """``max``/``min`` of two to six dice, each one dS! exploding on its top face alone and
    nothing added: ``out`` with the law of their highest or lowest (:class:`.Extremes`), so
    a difference or comparison with it is followed for ever too; ``out`` as it is otherwise."""
    if any(d.open_ended is None for d in dists):
        return out
    from .extremes import Extremes
    from .open_ended import Chain, OpenLaw

    sizes = []
    for d in dists:
        law = d.open_ended
        if law is None or law.minus or law.rest != ((0, Fraction(1)),) or len(law.plus) != 1:
            return out
        (term,) = law.plus
        if not isinstance(term, Chain) or not term.top:
            return out
        sizes.append(term.sides)
    found = Extremes.of(tuple(sizes), highest)
    return out if found is None else replace(out, open_ended=OpenLaw.dice(found, 1))


def _multiple(law: OpenLaw, k: OpenLaw) -> OpenLaw | None:
    """``law`` times ``k`` where ``k`` is a number known for sure, not 0; None for anything
    else (a product of two rolls has no law)."""
    if k.plus or k.minus or len(k.rest) != 1 or not k.rest[0][0]:
        return None
    return law.times(k.rest[0][0])


def _rows(ctx: Context, law: OpenLaw, out: Dist) -> Dist:
    """Every value from the least to the greatest the depth reached, each with its
    probability followed forever; the values above kept as a lower bound (as a cut path's,
    :mod:`.beyond`), those below as an upper one (:class:`CutBelow`), so every comparison
    the cut values can't change is decided."""
    from .open_ended import MAX_INDEX

    if not out.weights or not all(type(v) is int for v in out.weights):
        return replace(out, open_ended=law)
    low, high = min(out.weights), max(out.weights)
    if high - low >= MAX_INDEX:  # a multiple spreads its values far apart (1000 * 1d6! - 1d6!)
        return replace(out, open_ended=law)  # the depth's rows; a comparison is still exact where affordable
    values = list(range(low, high + 1))
    if not _afford(ctx, law, [*values, values[-1] + 1]):
        return replace(out, open_ended=law)  # the depth's rows; a comparison is still exact
    at_least = _at_least(law, [*values, values[-1] + 1])
    exact = {v: at_least[v] - at_least[v + 1] for v in values}
    above, below = (values[-1] + 1, at_least[values[-1] + 1]), (values[0] - 1, 1 - at_least[values[0]])
    return _from_fractions(exact, law, above, below)


def _afford(ctx: Context, law: OpenLaw, thresholds: list[int]) -> bool:
    """Charge the closed form's work for ``thresholds`` where it fits in half the budget left
    (the depth's answer stands otherwise); False where it doesn't."""
    from . import open_ended
    from .extremes import blocks_apply, blocks_cost

    cost = blocks_cost(law, thresholds) if blocks_apply(law) else open_ended.cost(law, thresholds)
    if cost is None:
        return False
    # an operation on Fractions is several multiply-adds of the budget's kind
    steps = 16 * cost
    budget = ctx.budget
    assert budget is not None
    if steps > (budget.limit - budget.used) // 2:
        return False
    budget.spend(steps)  # a shared budget it charges may still refuse: as for any other work
    return True


def _at_least(law: OpenLaw, thresholds: list[int]) -> dict[int, Fraction]:
    """P(law ≥ t) for each t, followed for ever: summed by blocks where both sides are one
    term geometric by blocks (:func:`.extremes.blocks_at_least`: a few dozen terms where the
    recurrence would take hundreds), else by the recurrence (:func:`.open_ended.at_least`)."""
    from . import open_ended
    from .extremes import blocks_apply, blocks_at_least

    return blocks_at_least(law, thresholds) if blocks_apply(law) else open_ended.at_least(law, thresholds)


def _from_fractions(probabilities: dict[Any, Fraction], law: OpenLaw | None = None,
                    above: tuple[int, Fraction] | None = None, below: tuple[int, Fraction] | None = None) -> Dist:
    """A distribution over a common denominator, values of probability 0 left out; ``above``:
    (a bound, the mass of the values from it up), ``below``: (a bound, the mass of the values
    from it down), kept as its tail."""
    bounds: list[tuple[Any, Fraction]] = []
    if above and above[1]:
        bounds.append(above)
    if below and below[1]:
        bounds.append((CutBelow(below[0]), below[1]))
    chances = [*probabilities.values(), *(p for _, p in bounds)]
    denom = lcm(*(p.denominator for p in chances))
    tail = {key: p.numerator * (denom // p.denominator) for key, p in bounds} or NO_TAIL
    return Dist({v: p.numerator * (denom // p.denominator) for v, p in probabilities.items() if p},
                denom, tail, open_ended=law)
