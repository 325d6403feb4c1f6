"""ONE evaluator for the expression language, with two drivers.

:func:`compile_expression` turns a syntax tree into nested closures once; everything
about meaning lives here and in the modules it calls (which function an operator is, the
order sub-expressions are evaluated in, how names resolve, how ``ceil(a / b)`` rounds,
what a dice term is). A *domain* decides only how values flow:

* :class:`Sampling` — values are plain ints and bools; each dice term is rolled from a
  dice source (a seeded ``random.Random`` or faces read off physical dice) and recorded
  for the trace.
* :class:`Exact` — values are :class:`~rulesengine.dice.dist.Dist` distributions; a dice term
  is its exact distribution and an operator applies to every combination of its
  operands' outcomes. Every dice term appears once in an expression, so its operands are
  independent and the product is exact.

Because both drivers run the same compiled tree and the same operator functions, a roll
can never do something the odds don't know about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Mapping

from ..cache import POOL_DISTS, weights_size
from ..codes import E_BAD_COUNT, E_EVAL, E_FACES, E_UNKNOWN_FUNCTION, E_UNKNOWN_VARIABLE
from .dist import Budget, BudgetExceeded, Dist, combine, combine2, mixture
from ..errors import DiceEvalError, LimitError, Location
from . import ast
from .functions import (ARITHMETIC, COMPARISONS, FUNCTIONS, OpError, division,
                             logic_and, logic_not, logic_or, negate)
from .parser import locate
from ..limits import Limits
from .pool import PoolRoll, PoolSpec, roll_plain, roll_pool
from .pool_odds import pool_dist
from .sources import DiceCounter, DiceLimitReached, DiceSource, FacesError


@dataclass(slots=True)
class Context:
    """The state of one evaluation. A sampling run always has a ``source`` and a ``counter``,
    an exact run a ``budget``; the sampling hot path reads them without a check (hence the
    two ``type: ignore[arg-type]`` there: a narrowing would cost a call per dice term)."""

    text: str
    env: Mapping[str, Any]
    limits: Limits
    source: DiceSource | None = None
    counter: DiceCounter | None = None
    budget: Budget | None = None
    pools: dict[int, PoolRoll] = field(default_factory=dict)

    def where(self, span: ast.Span) -> Location:
        return locate(self.text, *span)


Compiled = Callable[[Context], Any]


def _fail(ctx: Context, span: ast.Span, exc: OpError, code: str = E_EVAL) -> DiceEvalError | LimitError:
    if exc.limit is not None:
        return LimitError(exc.message, exc.limit, ctx.where(span), exc.hint)
    return DiceEvalError(exc.message, ctx.where(span), exc.hint, exc.code or code)


def _too_big(ctx: Context, node: ast.Node) -> LimitError:
    return LimitError(
        f"'{ctx.text[node.span[0]:node.span[1]]}' is too big to work out exactly",
        "max_states", ctx.where(node.span),
        f"it needs more than {ctx.limits.max_states:,} steps; use fewer dice, or roll it instead")


class Sampling:
    """Plain values; dice rolled from ``ctx.source``."""

    def const(self, value: Any) -> Compiled:
        return lambda ctx: value

    def name(self, node: ast.Name) -> Compiled:
        key = node.name

        def run(ctx: Context) -> Any:
            try:
                return ctx.env[key]
            except KeyError:
                raise _unknown_name(ctx, node) from None

        return run

    def lift(self, fn: Callable[..., Any], parts: list[Compiled], node: ast.Node) -> Compiled:
        if len(parts) == 1:
            (p,) = parts

            def run1(ctx: Context) -> Any:
                try:
                    return fn(p(ctx))
                except OpError as exc:
                    raise _fail(ctx, node.span, exc) from None

            return run1
        if len(parts) == 2:
            a, b = parts

            def run2(ctx: Context) -> Any:
                left, right = a(ctx), b(ctx)  # both sides are always evaluated, left first
                try:
                    return fn(left, right)
                except OpError as exc:
                    raise _fail(ctx, node.span, exc) from None

            return run2

        def run(ctx: Context) -> Any:
            values = [p(ctx) for p in parts]
            try:
                return fn(*values)
            except OpError as exc:
                raise _fail(ctx, node.span, exc) from None

        return run

    def lazy_logic(self, op: str, left: Compiled, right: Compiled, node: ast.Node) -> Compiled:
        fn = logic_and if op == "and" else logic_or
        decides = op == "or"  # `and` is decided by false, `or` by true

        def run(ctx: Context) -> Any:
            a = left(ctx)
            if a is decides:
                return a
            b = right(ctx)
            try:
                return fn(a, b)
            except OpError as exc:
                raise _fail(ctx, node.span, exc) from None

        return run

    def lazy_if(self, cond: Compiled, then: Compiled, other: Compiled, node: ast.Node) -> Compiled:
        def run(ctx: Context) -> Any:
            c = cond(ctx)
            if c is True:
                return then(ctx)
            if c is False:
                return other(ctx)
            raise _fail(ctx, node.span, OpError(f"if() needs a yes/no value first, not {c!r}",
                                                "compare it first, e.g. if(x >= 10, a, b)"))

        return run

    def dice(self, node: ast.Dice, spec: PoolSpec | None, count: Compiled,
             sides: Compiled | None) -> Compiled:
        static_text = _dice_text(node)
        key = id(node)

        dynamic_count = not isinstance(node.count, ast.Num)
        made: dict[int, tuple[PoolSpec, str]] = {}  # d(expr): the rules for each size seen

        if spec is not None and spec.plain and isinstance(node.count, ast.Num):
            # `3d6`, `1d20`: nothing to decide when rolling (count, die and rules are fixed).
            fixed_n, die = node.count.value, spec.die

            def run_plain(ctx: Context) -> int:
                if fixed_n > ctx.limits.max_dice:
                    check_count(ctx, node, fixed_n)
                try:
                    rolled = roll_plain(die, static_text, fixed_n, ctx.source, ctx.counter)  # type: ignore[arg-type]
                except (DiceLimitReached, FacesError) as exc:
                    raise _dice_failure(ctx, node, static_text, exc) from None
                ctx.pools[key] = rolled
                return rolled.total

            return run_plain

        def run(ctx: Context) -> int:
            n = check_count(ctx, node, count(ctx))
            rule, text = spec, static_text
            if rule is None:  # d(expr): the die is known now
                s = sides(ctx)  # type: ignore[misc]
                known = made.get(s) if type(s) is int and s <= ctx.limits.max_sides else None
                if known is None:
                    rule = dynamic_spec(ctx, node, s)
                    known = (rule, _dice_text(node, rule.die))
                    if len(made) < 64:
                        made[s] = known
                rule, text = known
            if dynamic_count:  # show the count that was rolled: (level)d6 → 3d6
                text = str(n) + text.removeprefix("(…)")
            try:
                rolled = roll_pool(rule, text, n, ctx.source, ctx.counter, ctx.limits)  # type: ignore[arg-type]
            except (DiceLimitReached, FacesError) as exc:
                raise _dice_failure(ctx, node, text, exc) from None
            ctx.pools[key] = rolled
            return rolled.total

        return run


class Exact:
    """Exact distributions; every operation is checked against ``ctx.budget``."""

    def const(self, value: Any) -> Compiled:
        d = Dist.point(value)
        return lambda ctx: d

    def name(self, node: ast.Name) -> Compiled:
        key = node.name

        def run(ctx: Context) -> Dist:
            try:
                value = ctx.env[key]
            except KeyError:
                raise _unknown_name(ctx, node) from None
            return value if isinstance(value, Dist) else Dist.point(value)

        return run

    def lift(self, fn: Callable[..., Any], parts: list[Compiled], node: ast.Node) -> Compiled:
        def run(ctx: Context) -> Dist:
            return _apply(ctx, node, fn, [p(ctx) for p in parts])

        return run

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
                    raise _fail(ctx, node.span, OpError(f"if() needs a yes/no value first, not {value!r}",
                                                        "compare it first, e.g. if(x >= 10, a, b)"))
            if len(parts) == 1 and c.is_point():
                return parts[0][0]
            return _mix(ctx, node, parts, c.denom)

        return run

    def dice(self, node: ast.Dice, spec: PoolSpec | None, count: Compiled,
             sides: Compiled | None) -> Compiled:
        def run(ctx: Context) -> Dist:
            side_dist = sides(ctx) if spec is None else None  # type: ignore[misc]
            return dice_term_dist(ctx, node, spec, count(ctx), side_dist,
                                  lambda rule, n: self._pool(ctx, node, rule, n))

        return run

    def _pool(self, ctx: Context, node: ast.Dice, spec: PoolSpec, n: int) -> Dist:
        """A dice term's distribution, from the process-wide cache when it is there. A
        cached one is charged the steps it cost to work out: a computation must be
        refused at the same point whether or not an earlier call left work behind."""
        key = (spec, n, ctx.limits)
        budget: Budget = ctx.budget  # type: ignore[assignment]
        try:
            cached = POOL_DISTS.get(key)
            if cached is not None:
                dist, steps = cached
                budget.spend(steps)
                return dist
            before = budget.used
            dist = pool_dist(spec, n, ctx.limits, budget)
        except BudgetExceeded:
            raise _too_big(ctx, node) from None
        POOL_DISTS.put(key, (dist, budget.used - before), weights_size(len(dist.weights), dist.denom.bit_length()))
        return dist


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
        raise _too_big(ctx, node) from None


def _mix(ctx: Context, node: ast.Node, parts: list[tuple[Dist, int]], denom: int) -> Dist:
    """:func:`dist.mixture`, charged to the budget as the error of ``node``."""
    try:
        return mixture(parts, denom, ctx.budget)  # type: ignore[arg-type]
    except BudgetExceeded:
        raise _too_big(ctx, node) from None


def _apply(ctx: Context, node: ast.Node, fn: Callable[..., Any], dists: list[Dist]) -> Dist:
    """An operator applied to every combination of its operands' outcomes."""
    try:
        if len(dists) == 1:
            return dists[0].map(fn)
        if len(dists) == 2:
            return combine2(fn, dists[0], dists[1], ctx.budget)  # type: ignore[arg-type]
        return combine(fn, dists, ctx.budget)  # type: ignore[arg-type]
    except OpError as exc:
        raise _fail(ctx, node.span, exc) from None
    except BudgetExceeded:
        raise _too_big(ctx, node) from None


def _dice_failure(ctx: Context, node: ast.Dice, text: str,
                  exc: DiceLimitReached | FacesError) -> LimitError | DiceEvalError:
    if isinstance(exc, FacesError):
        return DiceEvalError(exc.message, ctx.where(node.span), exc.hint, E_FACES)
    return LimitError(f"'{text}' rolls more than {ctx.limits.max_dice:,} dice with its rerolls and explosions",
                      "max_dice", ctx.where(node.span), "use fewer dice or a lower explosion depth")


def _unknown_name(ctx: Context, node: ast.Name) -> DiceEvalError:
    from .parser import closest

    known = sorted(ctx.env)
    near = closest(node.name, known)
    if near:
        hint = f"did you mean '{near}'?"
    elif known:
        hint = "known names: " + ", ".join(known[:12])
    else:
        hint = f"give '{node.name}' a value (e.g. {node.name}=3)"
    return DiceEvalError(f"unknown name '{node.name}'", ctx.where(node.span), hint, E_UNKNOWN_VARIABLE)


def check_count(ctx: Context, node: ast.Dice, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise DiceEvalError(f"the number of dice must be a whole number 0 or more, not {n!r}",
                            ctx.where(node.count.span), None, E_BAD_COUNT)
    if n > ctx.limits.max_dice:
        raise LimitError(f"{n:,} dice is more than one roll may use", "max_dice",
                         ctx.where(node.count.span),
                         f"a roll may use at most {ctx.limits.max_dice:,} dice")
    return n


def dynamic_spec(ctx: Context, node: ast.Dice, sides: Any) -> PoolSpec:
    """The rules of a ``d(expr)`` term once its number of sides is known."""
    from .parser import check_modifiers

    where = node.sides.span if node.sides is not None else node.span
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise DiceEvalError(f"a die needs a whole number of sides, 1 or more, not {sides!r}",
                            ctx.where(where), None, E_BAD_COUNT)
    if sides > ctx.limits.max_sides:
        raise LimitError(f"a die with {sides:,} sides is too large", "max_sides", ctx.where(where),
                         f"dice may have at most {ctx.limits.max_sides:,} sides")
    die = ast.Die(sides=sides, text=f"d{sides}")
    check_modifiers(die, node.modifiers, ctx.text)
    return PoolSpec.of(node, die)


def _dice_text(node: ast.Dice, die: ast.Die | None = None) -> str:
    """The dice term as written in canonical form, for traces (``4d6kh3``)."""
    die = die or node.die
    count = node.count
    head = "" if isinstance(count, ast.Num) and count.span[0] == count.span[1] else (
        str(count.value) if isinstance(count, ast.Num) else "(…)")
    mods = []
    for m in node.modifiers:
        if isinstance(m, ast.Keep):
            mods.append(f"{m.kind}{m.n}")
        elif isinstance(m, ast.Explode):
            mods.append(m.text())
        elif isinstance(m, ast.Reroll):
            mods.append(("ro" if m.once else "r") + m.cond.text())
        elif isinstance(m, ast.CountDice):
            mods.append(("cf" if m.failures else "cs") + m.cond.text())
        else:
            mods.append(f"{m.kind}{m.n}")
    return head + (die.text if die is not None else "d(…)") + "".join(mods)


def _checked_multiply(limit: int) -> Callable[[Any, Any], int]:
    mul = ARITHMETIC["*"]

    def multiply(a: Any, b: Any) -> int:
        r = mul(a, b)
        if -limit <= r <= limit:
            return r
        raise OpError(f"the product {str(r)[:24]}… is too large",
                      f"results are limited to ±{limit:,}", limit="max_magnitude")

    return multiply


def _has_dice(node: ast.Node) -> bool:
    return any(isinstance(x, ast.Dice) for x in ast.walk(node))


def _unwrap(node: ast.Node) -> ast.Node:
    while isinstance(node, ast.Group):
        node = node.inner
    return node


Functions = Mapping[str, tuple[Callable[..., Any], int, "int | None"]]


def compile_expression(node: ast.Node, domain: Sampling | Exact, limits: Limits,
                       text: str, functions: Functions = FUNCTIONS) -> Compiled:
    """Compile a tree into one closure over a Context. The tree's depth is bounded by
    ``limits.max_nesting_depth`` (checked by the parser), so recursion here is safe.

    ``functions`` is the table of callable names: the built-ins, plus (in a ruleset) one
    function per table."""
    return _Compiler(domain, functions, text, _checked_multiply(limits.max_magnitude)).build(node)


class _Compiler:
    """One compilation: what every node kind's compiling method needs, and the table from
    node type to that method (:data:`_COMPILE`), so adding a node kind adds one entry."""

    __slots__ = ("domain", "functions", "text", "multiply")

    def __init__(self, domain: Sampling | Exact, functions: Functions, text: str,
                 multiply: Callable[[Any, Any], int]) -> None:
        self.domain, self.functions, self.text, self.multiply = domain, functions, text, multiply

    def build(self, n: ast.Node) -> Compiled:
        return _COMPILE[type(n)](self, n)

    def const(self, n: ast.Num | ast.Str | ast.Bool) -> Compiled:
        return self.domain.const(n.value)

    def name(self, n: ast.Name) -> Compiled:
        return self.domain.name(n)

    def inner(self, n: ast.Group | ast.Labeled) -> Compiled:
        return self.build(n.inner)

    def binary(self, n: ast.Binary) -> Compiled:
        fn = self.multiply if n.op == "*" else ARITHMETIC[n.op]
        return self.domain.lift(fn, [self.build(n.left), self.build(n.right)], n)

    def neg(self, n: ast.Neg) -> Compiled:
        return self.domain.lift(negate, [self.build(n.operand)], n)

    def compare(self, n: ast.Compare) -> Compiled:
        return self.domain.lift(COMPARISONS[n.op], [self.build(n.left), self.build(n.right)], n)

    def logic(self, n: ast.Logic) -> Compiled:
        if not _has_dice(n.right):
            # Skipping an operand without dice changes no roll: `given(x) and y <= x`.
            return self.domain.lazy_logic(n.op, self.build(n.left), self.build(n.right), n)
        fn = logic_and if n.op == "and" else logic_or
        return self.domain.lift(fn, [self.build(n.left), self.build(n.right)], n)

    def not_(self, n: ast.Not) -> Compiled:
        return self.domain.lift(logic_not, [self.build(n.operand)], n)

    def dice(self, n: ast.Dice) -> Compiled:
        if n.die is None:
            return self.domain.dice(n, None, self.build(n.count), self.build(n.sides))  # type: ignore[arg-type]
        return self.domain.dice(n, PoolSpec.of(n), self.build(n.count), None)

    def call(self, n: ast.Call) -> Compiled:
        fn = self.function(n)
        build = self.build
        if n.name == "if" and not _has_dice(n.args[1]) and not _has_dice(n.args[2]):
            return self.domain.lazy_if(build(n.args[0]), build(n.args[1]), build(n.args[2]), n)
        div = _unwrap(n.args[0]) if n.name in ("floor", "ceil", "round") else None
        if isinstance(div, ast.Binary) and div.op == "/":
            return self.domain.lift(division(n.name), [build(div.left), build(div.right)], div)
        return self.domain.lift(fn, [build(a) for a in n.args], n)

    def function(self, n: ast.Call) -> Callable[..., Any]:
        """The function a call names, its argument count checked."""
        functions, text = self.functions, self.text
        entry = functions.get(n.name)
        if entry is None:
            from .parser import closest

            near = closest(n.name, sorted(functions))
            raise DiceEvalError(f"unknown function '{n.name}'", locate(text, *n.span),
                                f"did you mean '{near}'?" if near else
                                "functions: " + ", ".join(sorted(functions)), E_UNKNOWN_FUNCTION)
        fn, fewest, most = entry
        if len(n.args) < fewest or (most is not None and len(n.args) > most):
            want = str(fewest) if fewest == most else f"at least {fewest}"
            raise DiceEvalError(f"{n.name}() takes {want} argument{'s' if want != '1' else ''}, "
                                f"not {len(n.args)}", locate(text, *n.span), None, E_EVAL)
        return fn


_COMPILE: Mapping[type, Callable[[_Compiler, Any], Compiled]] = MappingProxyType({
    ast.Num: _Compiler.const,
    ast.Str: _Compiler.const,
    ast.Bool: _Compiler.const,
    ast.Name: _Compiler.name,
    ast.Group: _Compiler.inner,
    ast.Labeled: _Compiler.inner,
    ast.Binary: _Compiler.binary,
    ast.Neg: _Compiler.neg,
    ast.Compare: _Compiler.compare,
    ast.Logic: _Compiler.logic,
    ast.Not: _Compiler.not_,
    ast.Call: _Compiler.call,
    ast.Dice: _Compiler.dice,
})
