"""The exact mean of an expression whose explosions are unbounded, where it is a rational
number whatever the depth. Exact odds follow each explosion to a depth and report the rest
as truncated, so the mean over the mass they worked out is a little short; the mean of the
unbounded roll is a geometric series, summed here in closed form (issue 14, gap 3). Where
there is no closed form here the odds keep the mean of the mass worked out and say so
(``mean_kind``, :mod:`.stats`): never a figure called exact that isn't (issue 29).

A die that explodes with chance p on a face adds another die that may explode again: the
expected number of dice one die becomes is 1/(1 − p), each worth the same on average. So
``!`` is m/(1 − p) (m the mean value or score of one die), ``!p`` is m + p·m'/(1 − p) (m'
the mean of a die worth one less), ``!o`` is m·(1 + p). A compounded die (``!!``) is one
value, the sum of its chain, clamped and scored only then: its mean is worked out over the
chain's partial sums up to where clamping and scoring no longer change (past a ``max``, or
past every condition's number), the geometric tail from there on in closed form.

What else is covered, each by linearity of expectation and the independence of every dice
term's roll:

* a part of the expression that nothing truncates (no dice that explode without end, no
  roll read by name) is worked out by the one exact evaluator, so numbers, inputs, keeps,
  comparisons and functions there have their exact mean, and a condition in parentheses
  (``!>=(x)``, ``cs>=(tn)``) or a dice count known once the inputs are bound is a number
  as if written;
* ``a + b``, ``a − b``, ``c·a`` (c a number known before rolling);
* ``if(c, a, b)`` where the condition is worked out exactly: P(c)·E[a] + (1 − P(c))·E[b];
* a dice count that is itself a roll (``(1d4)d6!``, or an earlier roll of a check): E[n]
  times the mean of one die, where the count is known never to be below 0 and the term
  has no keep by rank.

Anything else (a keep over a pool that explosions grow, a product of two rolls, a
comparison or function of an exploding roll) has no closed form here: None."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple
from collections.abc import Mapping

from . import ast
from .context import Context, dynamic_spec
from .dist import Budget, BudgetExceeded, Dist
from .evaluate import Functions, compile_expression
from .exact import Exact
from .builtins import FUNCTIONS, conditional
from .pool import PoolSpec
from .die_odds import face_dist
from ..errors import RulesEngineError
from ..limits import DEFAULT_LIMITS, Limits

# The most work (partial sums times faces) on one compounded die's partial sums, one by one
# (a ``max`` or a success number far above the faces): beyond it, no closed form, the mean
# of the mass worked out instead (a mean is a nicety, not worth a second of exact sums).
MAX_CHAIN_WORK = 20_000


class RollMean(NamedTuple):
    """What is known of a roll that an expression reads by name (a check's earlier roll):
    its mean, explosions followed forever, and a number it is never below (None: unknown)."""

    mean: Fraction
    lowest: int | None


def exact_mean(tree: ast.Node, env: Mapping[str, Any], budget: Budget, *,
               rolls: Mapping[str, RollMean] | None = None, limits: Limits = DEFAULT_LIMITS,
               text: str = "", functions: Functions = FUNCTIONS) -> Fraction | None:
    """The mean of ``tree``'s value, explosions followed forever; None where it has no
    closed form here (see the module), or where working it out would go over ``budget``
    (a mean is a nicety: then the odds keep the mean of what they worked out, labelled so).

    ``env``: the values known before rolling (inputs); ``rolls``: rolls read by name, by
    their means (never mistaken for numbers known before rolling); ``text``, ``functions``:
    the expression as written and the functions it may call (a ruleset's tables)."""
    found = roll_mean(tree, env, budget, rolls=rolls, limits=limits, text=text, functions=functions)
    return None if found is None else found.mean


def roll_mean(tree: ast.Node, env: Mapping[str, Any], budget: Budget, *,
              rolls: Mapping[str, RollMean] | None = None, limits: Limits = DEFAULT_LIMITS,
              text: str = "", functions: Functions = FUNCTIONS) -> RollMean | None:
    """:func:`exact_mean` with a number the value is never below, where one is known: what a
    check keeps of each of its rolls for the rolls and the result that read it."""
    means = _Means(env, rolls or {}, budget, limits, text, functions)
    try:
        mean = means.mean(tree)
        return None if mean is None else RollMean(mean, means.lowest(tree))
    except BudgetExceeded:
        return None


class _Means:
    """One working out of a mean: what it reads, and the exact evaluator for the parts that
    nothing truncates."""

    def __init__(self, env: Mapping[str, Any], rolls: Mapping[str, RollMean], budget: Budget,
                 limits: Limits, text: str, functions: Functions) -> None:
        self.env, self.rolls, self.budget = env, rolls, budget
        self.limits, self.text, self.functions = limits, text, functions

    # ---- parts worked out exactly -----------------------------------------------------
    def settled(self, node: ast.Node) -> bool:
        """Nothing in ``node`` is cut by the depth or read from a roll by name: the exact
        evaluator works out its whole distribution."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.name in self.rolls:
                return False
            if isinstance(n, ast.Dice) and any(isinstance(m, ast.Explode) and m.kind != "once"
                                               for m in n.modifiers):
                return False
        return True

    def dist(self, node: ast.Node) -> dict[Any, Fraction] | None:
        """The exact distribution of a settled part, None where it can't be worked out here
        (an error, a name not known before rolling, over the budget) or something was cut."""
        try:
            run = compile_expression(node, Exact(), self.limits, self.text, self.functions)
            d: Dist = run(Context(self.text, self.env, self.limits, budget=self.budget))
        except (RulesEngineError, BudgetExceeded):
            return None
        if d.truncated:
            return None
        return d.probabilities()

    def numbers(self, node: ast.Node) -> dict[int, Fraction] | None:
        """A settled part's distribution where every value is a whole number."""
        d = self.dist(node)
        if d is None or not all(type(v) is int for v in d):
            return None
        return d

    def number(self, node: ast.Node) -> int | None:
        """A settled part's one value, where it is a whole number known before rolling."""
        d = self.numbers(node) if self.settled(node) else None
        return next(iter(d)) if d is not None and len(d) == 1 else None

    # ---- the mean -----------------------------------------------------------------------
    def mean(self, node: ast.Node) -> Fraction | None:
        if self.settled(node):
            d = self.numbers(node)
            return None if d is None else sum((v * p for v, p in d.items()), Fraction(0))
        if isinstance(node, (ast.Group, ast.Labeled)):
            return self.mean(node.inner)
        if isinstance(node, ast.Name):
            return self.rolls[node.name].mean  # settled unless it names a roll
        if isinstance(node, ast.Neg):
            inner = self.mean(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            left, right = self.mean(node.left), self.mean(node.right)
            if left is None or right is None:
                return None
            return left + right if node.op == "+" else left - right
        if isinstance(node, ast.Binary) and node.op == "*":
            # linear only where one side is a number known before rolling
            for const, other in ((node.left, node.right), (node.right, node.left)):
                c = self.number(const)
                if c is not None:
                    m = self.mean(other)
                    return None if m is None else c * m
            return None
        parts = conditional(node)
        if parts is not None:
            return self.if_mean(*parts)
        if isinstance(node, ast.Dice):
            return self.term_mean(node)
        return None

    def if_mean(self, cond: ast.Node, then: ast.Node, other: ast.Node) -> Fraction | None:
        """``if(c, a, b)``: the branches' means mixed by the chance of the condition (its dice
        are rolls of their own, independent of the branches'); only a branch that may be
        taken is read."""
        if not self.settled(cond):
            return None
        d = self.dist(cond)
        if d is None or not all(isinstance(v, bool) for v in d):
            return None
        total = Fraction(0)
        for value, p in d.items():
            if not p:
                continue
            m = self.mean(then if value else other)
            if m is None:
                return None
            total += p * m
        return total

    def term_mean(self, node: ast.Dice) -> Fraction | None:
        """One dice term that explodes without end (or reads a roll by name)."""
        exprs = ast.condition_exprs(node)
        if exprs:  # `!>=(x)`, `cs>=(tn)`: known before rolling, then as if written
            numbers = [self.number(e) for e in exprs]
            if any(n is None for n in numbers):
                return None
            node = ast.with_conditions(node, tuple(n for n in numbers if n is not None))
        specs = self.specs(node)
        if specs is None:
            return None
        per_die = Fraction(0)
        for spec, w in specs:
            if spec.reroll_rank is not None or (spec.keeps and not self.keeps_all(spec, node.count)):
                return None  # which dice count depends on them all (and on the pool explosions grow)
            m = die_mean(spec, self.budget)
            if m is None:
                return None
            per_die += w * m
        count = self.count_mean(node.count)
        return None if count is None else count * per_die

    def keeps_all(self, spec: PoolSpec, count: ast.Node) -> bool:
        """The keeps by rank keep every die: a number of dice known before rolling that no
        explosion adds to and no keep by face thins (``3d6!!kh3``)."""
        n = self.number(count)
        return (n is not None and spec.explode in (None, "compound") and not spec.by_face
                and spec.kept_range(n) == (0, n))

    def specs(self, node: ast.Dice) -> list[tuple[PoolSpec, Fraction]] | None:
        """The term's rules with the chance of each: one, or for ``d(expr)`` one per number of
        sides (worked out before rolling, independently of the count)."""
        try:
            if node.die is not None:
                return [(PoolSpec.of(node), Fraction(1))]
            assert node.sides is not None
            sides = self.numbers(node.sides) if self.settled(node.sides) else None
            if sides is None:
                return None
            ctx = Context(self.text, self.env, self.limits, budget=self.budget)
            return [(dynamic_spec(ctx, node, s), p) for s, p in sides.items()]
        except (RulesEngineError, ValueError):
            return None

    def count_mean(self, count: ast.Node) -> Fraction | None:
        """The mean number of dice: E[n] (Wald: n is rolled apart from the dice it counts), for
        a count never below 0."""
        if self.settled(count):
            d = self.numbers(count)
            if d is None or min(d) < 0:
                return None
            return sum((v * p for v, p in d.items()), Fraction(0))
        low = self.lowest(count)
        if low is None or low < 0:
            return None
        return self.mean(count)

    # ---- a number the value is never below ---------------------------------------------
    def lowest(self, node: ast.Node) -> int | None:
        """A number ``node``'s value is never below, explosions followed forever; None where
        none is known here."""
        if self.settled(node):
            d = self.numbers(node)
            return None if d is None else min(d)
        if isinstance(node, (ast.Group, ast.Labeled)):
            return self.lowest(node.inner)
        if isinstance(node, ast.Name):
            return self.rolls[node.name].lowest
        if isinstance(node, ast.Binary) and node.op == "+":
            left, right = self.lowest(node.left), self.lowest(node.right)
            return None if left is None or right is None else left + right
        if isinstance(node, ast.Dice) and node.die is not None and not ast.condition_exprs(node):
            return 0 if self.lowest(node.count) is not None and _dice_never_below_zero(PoolSpec.of(node)) else None
        return None


def _dice_never_below_zero(spec: PoolSpec) -> bool:
    """Every die of the term adds 0 or more, however it explodes."""
    faces = spec.die.faces
    if spec.counting:
        return not spec.failures
    smallest = min(faces) - (1 if spec.explode == "penetrate" else 0)
    if spec.low is not None:
        smallest = max(smallest, spec.low)
    if spec.high is not None:
        smallest = min(smallest, spec.high)
    return smallest >= 0


def die_mean(spec: PoolSpec, budget: Budget) -> Fraction | None:
    """What one die of the term adds on average, explosions followed forever (with no keep
    by rank: every die counts); None where it has no closed form here."""
    faces = face_dist(spec, budget).probabilities()
    p = sum((q for f, q in faces.items() if spec.explodes(f)), Fraction(0))
    if p >= 1:
        return None  # it never stops exploding
    if spec.explode == "compound":
        return _compound_mean(spec, faces, p, budget)
    worth = sum((q * spec.worth(spec.clamp(f)) for f, q in faces.items()), Fraction(0))
    if spec.explode is None:
        return worth
    if spec.explode == "penetrate":
        less = sum((q * spec.worth(spec.clamp(f - 1)) for f, q in faces.items()), Fraction(0))
        return worth + p * less / (1 - p)
    if spec.explode == "once":  # a die that explodes adds one more, which doesn't
        return worth * (1 + p)
    return worth / (1 - p)


def _compound_mean(spec: PoolSpec, faces: Mapping[int, Fraction], p: Fraction, budget: Budget) -> Fraction | None:
    """The mean of one compounded die's worth: its chain of faces summed, then clamped and
    scored. g(s), the mean worth of a die whose chain so far sums to s, is the chance of each
    face times the worth where it stops, or g(s + face) where it goes on. Past a threshold T
    the worth of a value x ≥ T no longer changes (past a ``max``, or past every condition's
    number: a constant) or is x itself, and from there g is that constant or s + μ (μ the
    mean of a whole chain, (Σ q·face)/(1 − p)). Below it the sums are worked out one by one,
    largest first, each exploding face at least 1 so each sum needs only larger ones."""
    exploding = [f for f in faces if spec.explodes(f)]
    if any(f < 1 for f in exploding):
        return None  # the chain's sum would not grow: no end to work back from
    marks = [c.high if c.high is not None else c.value
             for c in (*spec.successes, *spec.failures, *spec.keep_faces, *spec.drop_faces)]
    marks += [v for v in (spec.low, spec.high) if v is not None]
    smallest = min(faces)
    if not marks:
        threshold = smallest  # worth is the value itself from the first face on
    else:
        threshold = max(marks) + 1
    tail_value = spec.worth(spec.clamp(threshold))
    identity = spec.high is None and not spec.counting and spec.in_play(threshold)
    mu = sum((q * f for f, q in faces.items()), Fraction(0)) / (1 - p)
    start = threshold - smallest  # from a sum of this on, every value it ends on is past T

    def tail(s: int) -> Fraction:
        return s + mu if identity else Fraction(tail_value)

    if start <= 0:
        return tail(0)
    if start * len(faces) > MAX_CHAIN_WORK:
        return None
    budget.spend(start * len(faces))
    stops = [(f, q) for f, q in faces.items() if not spec.explodes(f)]
    goes_on = [(f, q) for f, q in faces.items() if spec.explodes(f)]
    g: list[Fraction] = [Fraction(0)] * start
    for s in range(start - 1, -1, -1):
        total = sum((q * spec.worth(spec.clamp(s + f)) for f, q in stops), Fraction(0))
        for f, q in goes_on:
            total += q * (g[s + f] if s + f < start else tail(s + f))
        g[s] = total
    return g[0]
