"""The dice language's public API: parse once, then roll (with a trace) or get exact odds.

>>> from rulesengine import dice
>>> dice.roll("4d6kh3", seed=7).trace          # doctest: +SKIP
'4d6kh3 → [6, 5, 4, ~~2~~] = 15'
>>> dice.odds("2d6").probability(7)
Fraction(1, 6)

Both :meth:`Expression.roll` and :meth:`Expression.odds` run the same compiled evaluator
(:mod:`rulesengine.dice.evaluate`); only the driver differs.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from typing import Any
from collections.abc import Iterable, Mapping

from ..cache import ODDS, fractions_size
from .dist import Budget, BudgetExceeded, Dist, step_cost
from ..errors import DiceEvalError, InputError, LimitError, Location, RulesEngineError
from ..exact_text import decimal_digits, fraction_cost, fraction_text
from ..codes import E_FACES
from .context import Compiled, Context
from .evaluate import compile_expression
from .exact import Exact
from .sampling import Sampling
from . import ast
from .dialects import translate
from .parser import parse as parse_tree
from ..limits import DEFAULT_LIMITS, MAX_TEXT_VALUE_CHARS, Limits
from ..records import Record, field, replace
from .pool import DieRoll, PoolRoll
from .expectation import exact_moments
from .stats import Summary, common_weights, kind_of, summarize, summarize_weights, summary_json, value_order
from .sources import DiceCounter, dice_source
from .trace import trace
from .values import DicePool, Rolled, merged_symbols, symbols_text

__all__ = ["Expression", "RollResult", "Odds", "parse", "roll", "odds"]

Value = int | bool | str


class RollResult:
    """One roll: its total, every dice term rolled, and a readable trace.

    The trace is rendered when first read: rolling many times and reading only totals
    (a simulation, a bot's batch) doesn't pay for strings it never shows.
    """

    __slots__ = ("expression", "total", "pools", "_trace", "_render")

    def __init__(self, expression: str, total: Value, pools: tuple[PoolRoll, ...], render) -> None:
        self.expression = expression
        self.total = total
        self.pools = pools
        self._trace: str | None = None
        self._render = render

    @property
    def trace(self) -> str:
        if self._trace is None:
            self._trace = self._render()
        return self._trace

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(d for p in self.pools for d in p.dice)

    def __repr__(self) -> str:
        return f"RollResult({self.expression!r}, total={self.total!r})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "total": self.total,
            "dice": [dict(term=p.text, **p.die_dict(d)) for p in self.pools for d in p.dice],
            "trace": self.trace,
        }


class Odds(Record):
    """The exact distribution of an expression's value.

    ``distribution`` maps each value to its probability, in increasing order of value.
    ``truncated`` is the probability that was cut off where a mechanic is unbounded
    (explosions deeper than ``explode_depth``): the probabilities sum to 1 − truncated.
    ``cut_from``: where every cut path is known to end on a number of at least this, so
    the probability of each value below it is exact, and so is "at least" up to it (which
    counts the truncated mass in); None where nothing was cut or that isn't known.

    ``max_states`` and ``work``: the work budget the odds were worked out under and the
    steps they took; writing them out (:meth:`to_dict`) is charged to what is left of it.
    """

    expression: str
    distribution: dict[Value, Fraction]
    truncated: Fraction = Fraction(0)
    explode_depth: int = DEFAULT_LIMITS.explode_depth
    unbounded_mean: Fraction | None = None  # with truncation: the mean of the roll followed forever
    unbounded_variance: Fraction | None = None  # and its variance, where it has a closed form too
    cut_from: int | None = None
    max_states: int = field(default=DEFAULT_LIMITS.max_states, compare=False, repr=False)
    work: int = field(default=0, compare=False, repr=False)

    @staticmethod
    def from_dist(expression: str, d: Dist, explode_depth: int, limits: Limits = DEFAULT_LIMITS,
                  work: int = 0) -> Odds:
        if len(d.weights) > limits.max_outcomes:
            raise LimitError(f"'{expression}' has {len(d.weights):,} possible values, too many to list",
                             "max_outcomes", Location(column=1, source_line=expression),
                             f"at most {limits.max_outcomes:,}; roll it instead, or use fewer sides")
        probs = d.reduced().probabilities()
        ordered = dict(sorted(probs.items(), key=lambda kv: value_order(kv[0])))
        return Odds(expression, ordered, d.truncated, explode_depth, cut_from=d.cut_from,
                    max_states=limits.max_states, work=work)

    def probability(self, value: Value) -> Fraction:
        return self.distribution.get(value, Fraction(0))

    def at_least(self, value: int) -> Fraction:
        """The chance of a number ``value`` or more (text values are never counted); exact,
        truncated mass included, up to ``cut_from``."""
        cut = self.truncated if self.cut_from is not None and value <= self.cut_from else Fraction(0)
        return self._sum_where(lambda v: v >= value, cut)

    def at_most(self, value: int) -> Fraction:
        """The chance of a number ``value`` or less (text values are never counted)."""
        return self._sum_where(lambda v: v <= value, Fraction(0))

    def _sum_where(self, keep: Any, extra: Fraction) -> Fraction:
        """``extra`` plus the probabilities of the numbers ``keep`` admits, added as whole
        numbers over a common denominator (:func:`.stats.common_weights`)."""
        items = [(v, p) for v, p in self.distribution.items() if not isinstance(v, str) and keep(v)]
        common, weights, (more,) = common_weights(items, extra)
        return Fraction(sum(weights) + more, common)

    @property
    def is_boolean(self) -> bool:
        return all(isinstance(v, bool) for v in self.distribution)

    @property
    def summary(self) -> Summary:
        """Mean, variance, min and max (numbers), or the chance of true (yes/no), over the
        mass that was not truncated (see :mod:`.stats`); the mean is the exact mean of the
        roll followed forever where explosions were truncated and it has a closed form
        (:mod:`.expectation`), else the mean of the mass worked out (``summary.mean_kind``
        says which); the variance likewise (``summary.variance_kind``)."""
        return summarize(self.distribution, self.truncated).with_mean(self.unbounded_mean, self.unbounded_variance)

    @property
    def mean(self) -> Fraction | None:
        """The expected value: the roll's own where nothing was truncated or it has a closed
        form, else over the mass that was not truncated (``mean_kind`` says which); None
        when the values are not numbers (yes/no: see ``summary.p_true``; text from a table)."""
        return self.summary.mean

    @property
    def mean_kind(self) -> str | None:
        """"exact" (the roll's own mean) or "of_mass_worked_out" (explosions were cut and the
        mean has no closed form here: the mean of what was worked out); None with no mean."""
        return self.summary.mean_kind

    @property
    def variance_kind(self) -> str | None:
        """As :attr:`mean_kind`, of the variance (and the standard deviation)."""
        return self.summary.variance_kind

    def _cumulative(self, weighed: tuple[int, list[int], list[int]] | None = None
                    ) -> tuple[int, dict[Any, tuple[int, int]]]:
        """A common denominator and, for each number, the numerators over it of "at least"
        (the truncated mass counted in up to ``cut_from``) and "at most": one running sum of
        whole numbers (:func:`.stats.common_weights`; ``weighed``: its answer for these odds,
        when already worked out). Empty when the values are not numbers."""
        if kind_of(self.distribution) != "number":
            return 1, {}
        common, weights, (cut,) = weighed or common_weights(self.distribution.items(), self.truncated)
        cut_from = self.cut_from
        total, below = sum(weights), 0
        views: dict[Any, tuple[int, int]] = {}
        weight: dict[Any, int] = dict(zip(self.distribution, weights, strict=True))  # numbers only
        for v in sorted(weight):
            views[v] = (total - below + (cut if cut_from is not None and v <= cut_from else 0), below + weight[v])
            below += weight[v]
        return common, views

    def rows(self) -> list[dict[str, Any]]:
        """One row per value: probability, at least, at most (AnyDice's three views); the
        cumulative columns only for numbers (None otherwise)."""
        common, views = self._cumulative()
        return [{"value": v, "probability": p,
                 "at_least": Fraction(views[v][0], common) if v in views else None,
                 "at_most": Fraction(views[v][1], common) if v in views else None}
                for v, p in self.distribution.items()]

    def table(self) -> list[dict[str, Any]]:
        """:meth:`rows` for a table people read: "at least" and "at most" as floats, each the
        float of the exact Fraction, without making the Fraction (a gcd of numbers as long as
        the fractions, per row); the Fraction only where it is not 0 and its float is."""
        common, views = self._cumulative()

        def view(n: int) -> float | Fraction:
            x = n / common  # a whole-number division is correctly rounded: the float of the Fraction
            return x if x or not n else Fraction(n, common)  # too small for a float: still not 0

        return [{"value": v, "probability": p,
                 "at_least": view(views[v][0]) if v in views else None,
                 "at_most": view(views[v][1]) if v in views else None}
                for v, p in self.distribution.items()]

    def to_dict(self) -> dict[str, Any]:
        """The odds as JSON. Writing them is charged to the work budget they were worked out
        under (what is left of ``max_states``, and a service's request budget with its
        deadline): each row's exact fraction by its length (``exact_text.fraction_cost``),
        its sums and floats as multiply-adds of the common denominator's size. The whole
        cost is known from the fractions' sizes before anything is written, so odds too big
        to write are refused (a LimitError naming ``max_states``) before the work; each row
        is charged as it is written, so a deadline is looked at meanwhile."""
        budget = Budget(self.max_states)
        budget.used = self.work
        items = list(self.distribution.items())
        bits = max((p.denominator.bit_length() for _, p in items), default=1) + self.truncated.denominator.bit_length()
        per_row = 8 * step_cost(bits)  # the common weights, mean and variance sums, cumulative sums, floats
        costs = [fraction_cost(p) + per_row for _, p in items]
        try:
            budget.afford(sum(costs))
            weighed = common_weights(items, self.truncated)
            summary = summarize_weights(list(self.distribution), weighed[1], self.truncated
                                        ).with_mean(self.unbounded_mean, self.unbounded_variance)
            common, views = self._cumulative(weighed)
            distribution = []
            for (v, p), cost in zip(items, costs, strict=True):
                budget.spend(cost)
                view = views.get(v)
                distribution.append(
                    {"value": v if isinstance(v, (int, str)) else str(v),
                     "probability": float(p),
                     "exact": fraction_text(p),
                     # a whole-number division is correctly rounded: the float of the Fraction
                     "at_least": None if view is None else view[0] / common,
                     "at_most": None if view is None else view[1] / common})
        except BudgetExceeded:
            digits = decimal_digits(2 ** bits)
            raise LimitError(f"the odds of '{self.expression}' are too big to write out: {len(items):,} values "
                             f"with fractions of up to {digits:,} digits need more than {self.max_states:,} steps",
                             "max_states", Location(column=1, source_line=self.expression),
                             "ask for fewer values or shorter fractions (fewer dice), or roll it instead") from None
        mean = summary.mean
        return {
            "expression": self.expression,
            "distribution": distribution,
            "mean": None if mean is None else float(mean),
            "mean_exact": None if mean is None else fraction_text(mean),
            "mean_kind": summary.mean_kind,
            "stats": summary_json(summary, fraction_text),
            "truncated": fraction_text(self.truncated),
            "cut_from": self.cut_from,
            "explode_depth": self.explode_depth,
        }


def _env_order(item: tuple[str, Any]) -> str:
    return item[0]


def _check_env(env: Mapping[str, Any] | None, limits: Limits) -> dict[str, Value | DicePool | Rolled]:
    if env is None:
        return {}
    if not isinstance(env, Mapping):
        raise InputError("env must be a mapping of names to numbers or true/false")
    out: dict[str, Value | DicePool | Rolled] = {}
    for key, value in env.items():
        if not isinstance(key, str):
            raise InputError(f"name {key!r} must be text")
        if isinstance(value, bool) or (isinstance(value, int) and abs(value) <= limits.max_magnitude):
            out[key] = value
        elif isinstance(value, int):
            raise InputError(f"{key}={value} is too large", hint=f"limit: ±{limits.max_magnitude:,}")
        elif isinstance(value, str) and len(value) <= MAX_TEXT_VALUE_CHARS:
            out[key] = value
        elif isinstance(value, (DicePool, Rolled)):
            out[key] = value
        else:
            raise InputError(f"{key} must be a whole number, true/false or text, not {value!r}")
    return out


class Expression:
    """A parsed expression, compiled once for each driver on first use."""

    __slots__ = ("text", "tree", "limits", "_sampler", "_exact", "_exact_domain",
                 "__weakref__")

    def __init__(self, text: str, limits: Limits = DEFAULT_LIMITS, dialect: str | None = None) -> None:
        """``dialect``: read ``text`` with another tool's spellings (see :mod:`.dialects`);
        ``text`` is then this language's reading of it, what traces and odds show."""
        if dialect is not None:
            translation = translate(text, dialect)
            text = translation.native
            try:
                self.tree: ast.Node = parse_tree(text, limits)
            except RulesEngineError as exc:
                raise translation.relocate(exc) from None
        else:
            self.tree = parse_tree(text, limits)
        self.text = text
        self.limits = limits
        self._sampler: Compiled | None = None
        self._exact: Compiled | None = None
        self._exact_domain: Exact | None = None

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    @property
    def names(self) -> frozenset[str]:
        """The names the expression needs from its environment."""
        return ast.names(self.tree)

    def roll(self, env: Mapping[str, Any] | None = None, *, rng: random.Random | None = None,
             seed: int | str | None = None, faces: Iterable[int] | None = None) -> RollResult:
        """Roll once. Faces come from ``faces`` (read off physical dice, in order), else
        from ``rng``, else from a generator seeded with ``seed`` (same seed, same roll on
        every machine), else from a fresh unseeded generator."""
        if self._sampler is None:
            self._sampler = compile_expression(self.tree, Sampling(), self.limits, self.text)
        values = _check_env(env, self.limits)
        source: Any = dice_source(rng=rng, seed=seed, faces=faces)
        ctx = Context(self.text, values, self.limits, source=source, counter=DiceCounter(self.limits))
        total = self._sampler(ctx)
        if faces is not None and source.used < len(source.faces):
            raise DiceEvalError(
                f"{len(source.faces)} faces given, but the roll used only {source.used}",
                Location(column=1, source_line=self.text), "give one face per die rolled", E_FACES)
        pools = tuple(ctx.pools.values())
        text, tree, by_node = self.text, self.tree, ctx.pools
        return RollResult(text, total, pools,
                          lambda: trace(text, tree, by_node, values, total, _symbols_shown(tree, pools)))

    def odds(self, env: Mapping[str, Any] | None = None, *, explode_depth: int | None = None) -> Odds:
        """The exact distribution of the value. Explosions are followed to ``explode_depth``
        extra dice per die (default ``limits.explode_depth``); the rest is ``truncated``."""
        values = _check_env(env, self.limits)
        limits = self.limits
        if explode_depth is not None:
            if isinstance(explode_depth, bool) or not isinstance(explode_depth, int) or explode_depth < 0:
                raise InputError(f"explode_depth must be a whole number 0 or more, not {explode_depth!r}")
            limits = replace(limits, explode_depth=explode_depth)
        # the type too: 1 and true are equal as keys, not as inputs
        key = (self.text, self.limits, tuple((k, type(v), v) for k, v in sorted(values.items(), key=_env_order)),
               limits)
        cached = ODDS.get(key)
        if cached is not None:
            return cached
        if self._exact is None:
            self._exact_domain = Exact()
            self._exact = compile_expression(self.tree, self._exact_domain, self.limits, self.text)
        budget = Budget(limits.max_states)
        ctx = Context(self.text, values, limits, budget=budget)
        result = Odds.from_dist(self.text, self._exact(ctx), limits.explode_depth, limits, budget.used)
        if result.truncated:
            mean_budget = Budget(limits.max_states)
            mean, variance = exact_moments(self.tree, values, mean_budget, limits=limits, text=self.text)
            result = replace(result, work=result.work + mean_budget.used)
            if mean is not None:
                result = replace(result, unbounded_mean=mean, unbounded_variance=variance)
        ODDS.put(key, result, fractions_size(result.distribution.values()))
        return result


@functools.lru_cache(maxsize=1024)
def parse(text: str, limits: Limits = DEFAULT_LIMITS, dialect: str | None = None) -> Expression:
    """Parse (and cache) an expression, written in this language or in ``dialect``
    (``"foundry"``, ``"roll20"``, ``"d20"``: see docs/dice-language.md). Raises
    DiceSyntaxError or LimitError."""
    return Expression(text, limits, dialect)


def _symbols_shown(tree: ast.Node, pools: tuple[PoolRoll, ...]) -> str | None:
    """What a roll of symbol dice showed, for its trace (``2 hit``), where the expression is
    nothing but symbol dice added up; None otherwise (its value is then the number)."""
    if not pools or not all(p.die is not None and p.die.symbols is not None for p in pools):
        return None
    stack = [tree]
    while stack:
        node = ast.bare(stack.pop())
        if isinstance(node, ast.Binary) and node.op == "+":
            stack += [node.left, node.right]
        elif not isinstance(node, ast.Dice):
            return None
    return symbols_text(merged_symbols(p.kept_symbols() for p in pools))


def roll(expr: str | Expression, rng: random.Random | None = None, seed: int | str | None = None,
         env: Mapping[str, Any] | None = None, faces: Iterable[int] | None = None,
         limits: Limits = DEFAULT_LIMITS, dialect: str | None = None) -> RollResult:
    """Roll a dice expression once; see :meth:`Expression.roll` (``dialect``: :func:`parse`)."""
    e = expr if isinstance(expr, Expression) else parse(expr, limits, dialect)
    return e.roll(env, rng=rng, seed=seed, faces=faces)


def odds(expr: str | Expression, env: Mapping[str, Any] | None = None,
         explode_depth: int | None = None, limits: Limits = DEFAULT_LIMITS, dialect: str | None = None) -> Odds:
    """The exact distribution of a dice expression; see :meth:`Expression.odds` (``dialect``:
    :func:`parse`)."""
    e = expr if isinstance(expr, Expression) else parse(expr, limits, dialect)
    return e.odds(env, explode_depth=explode_depth)

