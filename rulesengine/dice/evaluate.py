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

import functools
from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Mapping

from ..codes import E_EVAL, E_UNKNOWN_FUNCTION, E_UNKNOWN_VARIABLE
from ..errors import DiceEvalError
from . import ast
from .builtins import BUILTINS, FUNCTIONS, conditional, on_the_term
from .beyond import AtLeast, AtMost
from .functions import (ARITHMETIC, COMPARISONS, OpError, describe, division, logic_and, logic_not,
                        logic_or, negate, pool_to_keep)
from .context import Compiled, Context, eval_error
from .parser import check_modifiers, locate
from .exact import Exact
from ..limits import Limits
from .pool import PoolSpec
from .sampling import Sampling


def _checked_multiply(limit: int) -> Callable[[Any, Any], int]:
    mul = ARITHMETIC["*"]

    def multiply(a: Any, b: Any) -> int:
        r = mul(a, b)
        if isinstance(r, (AtLeast, AtMost)):  # a cut value times a number: a bound, checked
            if -limit <= (r.low if isinstance(r, AtLeast) else r.high) <= limit:
                return r
        elif -limit <= r <= limit:
            return r
        raise OpError(f"the product {str(r)[:24]}… is too large",
                      f"results are limited to ±{limit:,}", limit="max_magnitude")

    return multiply


def _unwrap(node: ast.Node) -> ast.Node:
    while isinstance(node, ast.Group):
        node = node.inner
    return node


def _term_given(fn: Callable[..., Any], call: ast.Call, text: str) -> Callable[..., Any]:
    """``fn``, a built-in that reads dice, given a dice term written inline (``count(4d6,
    6)``): the term is its total, which ``fn`` refuses; the refusal's hint then says how to
    read the term's dice (``4d6cs6``, :func:`.builtins.on_the_term`)."""
    term = ast.bare(call.args[0])
    spelled = on_the_term(call, text[term.span[0]:term.span[1]])
    hint = (f"a dice term given to {call.name}() is its total: " + (f"write {spelled} to read its dice; " if spelled
                                                                     else "")
            + "in a ruleset, make the dice a roll of their own and pass the roll's name")

    def refused_with_hint(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except OpError as exc:
            raise OpError(exc.message, hint, exc.limit, exc.code) from None

    return refused_with_hint


Functions = Mapping[str, tuple[Callable[..., Any], int, "int | None"]]


def compile_expression(node: ast.Node, domain: Sampling | Exact, limits: Limits,
                       text: str, functions: Functions = FUNCTIONS) -> Compiled:
    """Compile a tree into one closure over a Context. The tree's depth is bounded by
    ``limits.max_nesting_depth`` (checked by the parser), so recursion here is safe.

    ``functions`` is the table of callable names: the built-ins, plus (in a ruleset) one
    function per table."""
    return _Compiler(domain, functions, text, _checked_multiply(limits.max_magnitude),
                     limits.max_magnitude).build(node)


def compile_conditions(node: ast.Dice, domain: Sampling | Exact, limits: Limits, text: str,
                       functions: Functions = FUNCTIONS) -> Callable[[Context], ast.Dice]:
    """A dice term whose conditions (or keeps) take their numbers from expressions
    (``cs>=(tn)``), as a function of the context giving the term with those numbers
    written in: what the evaluator compiles, and what a check's exact driver reads a roll's
    faces with. The numbers must be known before the roll and whole; the term is then
    checked like one written with them."""
    compiler = _Compiler(domain, functions, text, _checked_multiply(limits.max_magnitude), limits.max_magnitude)
    exprs = ast.condition_exprs(node)
    return compiler.written_in(node, exprs, [compiler.build(e) for e in exprs])


class _Compiler:
    """One compilation: what every node kind's compiling method needs, and the table from
    node type to that method (:data:`_COMPILE`), so adding a node kind adds one entry."""

    __slots__ = ("domain", "functions", "text", "multiply", "magnitude")

    def __init__(self, domain: Sampling | Exact, functions: Functions, text: str,
                 multiply: Callable[[Any, Any], int], magnitude: int) -> None:
        self.domain, self.functions, self.text, self.multiply = domain, functions, text, multiply
        self.magnitude = magnitude  # the largest size a result may have (max_magnitude)

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
        if not ast.has_dice(n.right):
            # Skipping an operand without dice changes no roll: `given(x) and y <= x`.
            return self.domain.lazy_logic(n.op, self.build(n.left), self.build(n.right), n)
        fn = logic_and if n.op == "and" else logic_or
        return self.domain.lift(fn, [self.build(n.left), self.build(n.right)], n)

    def not_(self, n: ast.Not) -> Compiled:
        return self.domain.lift(logic_not, [self.build(n.operand)], n)

    def dice(self, n: ast.Dice) -> Compiled:
        if n.die is not None and not n.die.declared:
            raise DiceEvalError(f"unknown die {n.die.text}", locate(self.text, *n.span),
                                "a die named in braces is declared under dice: in a ruleset; "
                                "elsewhere write its faces, e.g. d{[], [hit], [hit, hit]}", E_UNKNOWN_VARIABLE)
        exprs = ast.condition_exprs(n)
        if exprs:
            return self.conditioned_dice(n, exprs)
        if n.die is None:
            return self.domain.dice(n, None, self.build(n.count), self.build(n.sides))  # type: ignore[arg-type]
        return self.domain.dice(n, PoolSpec.of(n), self.build(n.count), None)

    def written_in(self, n: ast.Dice, exprs: tuple[ast.Node, ...], parts: list[Compiled]
                   ) -> Callable[[Context], ast.Dice]:
        """The term ``n`` with its conditions' numbers (``exprs``, compiled as ``parts``)
        worked out and written in (see :func:`compile_conditions`); one term per set of
        numbers met, so the same numbers give the same node."""
        domain = self.domain
        made: dict[tuple, ast.Dice] = {}

        def number(ctx: Context, value: Any, e: ast.Node) -> int:
            try:
                v = domain.known(value)
            except OpError as exc:
                raise eval_error(ctx, e.span, exc) from None
            if isinstance(v, bool) or not isinstance(v, int):
                raise eval_error(ctx, e.span, OpError(f"a die's condition needs a whole number, not {describe(v)}",
                                                      "give the condition a number, e.g. cs>=(tn)"))
            return v

        def run(ctx: Context) -> ast.Dice:
            values = tuple(number(ctx, p(ctx), e) for p, e in zip(parts, exprs, strict=True))
            resolved = made.get(values)
            if resolved is None:
                resolved = ast.with_conditions(n, values)
                if resolved.die is not None:
                    check_modifiers(resolved.die, resolved.modifiers, ctx.text)
                if len(made) >= 256:  # one entry per set of numbers met: bounded all the same
                    made.clear()
                made[values] = resolved
            return resolved

        return run

    def conditioned_dice(self, n: ast.Dice, exprs: tuple[ast.Node, ...]) -> Compiled:
        """A dice term whose conditions have numbers from expressions (``cs>=(tn)``): the
        term with the numbers written in, compiled once per term, its dice recorded under
        the term as written (the trace finds them there)."""
        resolve = self.written_in(n, exprs, [self.build(e) for e in exprs])
        compiled: dict[int, Compiled] = {}

        def run(ctx: Context) -> Any:
            resolved = resolve(ctx)
            term = compiled.get(id(resolved))
            if term is None:
                if len(compiled) >= 256:
                    compiled.clear()
                term = compiled[id(resolved)] = self.dice(resolved)
            out = term(ctx)
            if id(resolved) in ctx.pools:
                ctx.pools[id(n)] = ctx.pools.pop(id(resolved))
            return out

        return run

    def set_keep(self, n: ast.SetKeep) -> Compiled:
        keeps = tuple((k.kind, k.n) for k in n.keeps)
        return self.domain.set_keep(n, [self.build(i) for i in n.items], keeps)

    def pool_keep(self, n: ast.PoolKeep) -> Compiled:
        """``(pool)p1``: the pool of mixed dice with keeps by face, their numbers worked out
        (``(pool)k>=(tn)``) and checked as a dice term's are, on the pool's largest die (a
        keep no die can meet is refused); the dice are set aside when the pool is rolled."""
        exprs = ast.keep_exprs(n)
        text = self.text
        marks = text[n.keeps[0].span[0]:n.keeps[-1].span[1]]
        checked: set[tuple] = set()

        def keep(value: Any, *numbers: Any) -> Any:
            pool = pool_to_keep(value, marks)
            for v in numbers:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise OpError(f"a die's condition needs a whole number, not {describe(v)}",
                                  "give the condition a number, e.g. (pool)k>=(tn)")
            keeps = ast.with_keep_numbers(n.keeps, tuple(numbers))
            key = (pool.sides[0], keeps)
            if key not in checked:
                largest = ast.Die(sides=pool.sides[0], text="/".join(f"d{s}" for s in dict.fromkeys(pool.sides)))
                check_modifiers(largest, keeps, text)
                if len(checked) >= 256:
                    checked.clear()
                checked.add(key)
            return pool.kept_by_face(keeps)

        return self.domain.lift(keep, [self.build(n.inner)] + [self.build(e) for e in exprs], n)

    def call(self, n: ast.Call) -> Compiled:
        fn = self.function(n)
        build = self.build
        parts = conditional(n)
        if parts is not None:
            # Only the branch taken is worked out: its dice alone are rolled (and asked for
            # as physical faces); exact odds mix the two branches by the condition's chance,
            # which is exact because every dice term is its own independent roll.
            cond, then, other = parts
            return self.domain.lazy_if(build(cond), build(then), build(other), n)
        builtin = BUILTINS.get(n.name)
        rounding = builtin.rounding if builtin is not None else None
        div = _unwrap(n.args[0]) if rounding is not None else None
        if isinstance(div, ast.Binary) and div.op == "/" and rounding is not None:
            return self.domain.lift(division(rounding), [build(div.left), build(div.right)], div)
        if builtin is not None and builtin.limited:
            fn = functools.partial(fn, limit=self.magnitude)
        if builtin is not None and builtin.reads is not None and n.args and isinstance(ast.bare(n.args[0]), ast.Dice):
            fn = _term_given(fn, n, self.text)
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
            builtin = BUILTINS.get(n.name)
            hint = builtin.too_many if builtin is not None and len(n.args) > fewest else None
            raise DiceEvalError(f"{n.name}() takes {want} argument{'s' if want != '1' else ''}, "
                                f"not {len(n.args)}", locate(text, *n.span), hint, E_EVAL)
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
    ast.SetKeep: _Compiler.set_keep,
    ast.PoolKeep: _Compiler.pool_keep,
})
