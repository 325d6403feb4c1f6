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
  and where it reads a check's earlier rolls whose outcomes are exact and the branches read
  no roll (:mod:`.condition_chances`): the mean alone;
* a dice count that is itself a roll (``(1d4)d6!``, or an earlier roll of a check): E[n]
  times the mean of one die, where the count is known never to be below 0 and the term
  has no keep by rank;
* ``max``/``min`` of plain open-ended dice, one ``dS!`` each exploding on its top face
  alone (``max(1d6!, 1d8!)``), mean and variance: :mod:`.extremes`.

Anything else (a keep over a pool that explosions grow, a product of two rolls, a
comparison or another function of an exploding roll) has no closed form here: None.

The variance beside the mean (issue 34), from the second moments: one die's chain C = v +
[it explodes]·C' (C' a fresh chain) gives E[C²] = (E[v²] + 2·E[v·[explodes]]·E[C])/(1 − p),
and ``!p``, ``!o``, ``!!`` likewise from their first die (``!!``: the second moment of the
worth, worked out over the partial sums as the mean is). An expression's value is kept as a
linear form over parts that are uncorrelated with one another (:class:`Part`): each dice
term, each part nothing truncates, each ``if()`` that reads no roll by name is a part of its
own; a roll read by name is its own form, so the same roll read twice is one part, not two
independent ones (``x − x`` has variance 0). The variance of the form is the sum of each
part's variance times its coefficient squared: ``a + b``, ``a − b``, ``c·a`` by
bilinearity. ``if(c, a, b)`` on a worked-out condition, by the law of total variance, where
neither branch reads a roll by name. A dice count that is a roll, N dice each X: the sum is
E[X]·N + R, with R = the sum − E[X]·N uncorrelated with anything N is made of (given N its
mean is 0) and of variance E[N]·Var(X), so Var = E[N]·Var(X) + Var(N)·E[X]². Where a term's
number of sides is rolled (its dice share that roll), or a branch of an ``if()`` reads a roll
by name, the mean may have its closed form but the variance has none here: the odds keep
the variance of the mass worked out and say so (``variance_kind``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple
from collections.abc import Callable, Mapping

from . import ast
from .context import Context, dynamic_spec
from .dist import Budget, BudgetExceeded, Dist
from .evaluate import Functions, compile_expression
from .exact import Exact
from .builtins import COUNTS, FUNCTIONS, SYMBOL_COUNTS, conditional, extreme, reads
from .condition_chances import RollOutcomes, condition_chances
from .pool import PoolSpec
from .die_moments import die_moments
from ..errors import RulesEngineError
from ..limits import DEFAULT_LIMITS, Limits


class Part:
    """One source of an expression's randomness, uncorrelated with every other part (a dice
    term's own dice, say): its variance. Told apart by identity; a value is a linear form
    over parts (:class:`Moments`)."""

    __slots__ = ("variance",)

    def __init__(self, variance: Fraction) -> None:
        self.variance = variance


Form = Mapping[Part, Fraction]
"""A value as a linear form over uncorrelated parts (each part's coefficient), its mean apart."""


class Moments(NamedTuple):
    """A value's mean and its linear form over uncorrelated parts (None: the variance has no
    closed form here), explosions followed forever."""

    mean: Fraction
    form: Form | None

    @property
    def variance(self) -> Fraction | None:
        if self.form is None:
            return None
        return sum((c * c * part.variance for part, c in self.form.items()), Fraction(0))


def _fresh(mean: Fraction, variance: Fraction | None) -> Moments:
    """A value that is a part of its own (uncorrelated with everything else)."""
    return Moments(mean, None if variance is None else {Part(variance): Fraction(1)} if variance else {})


def _combine(a: Form | None, b: Form | None, scale: Fraction = Fraction(1)) -> Form | None:
    """The form a + scale·b."""
    if a is None or b is None:
        return None
    out = dict(a)
    for part, c in b.items():
        out[part] = out.get(part, Fraction(0)) + scale * c
    return out


def _scaled(form: Form | None, c: Fraction) -> Form | None:
    return None if form is None else {part: c * k for part, k in form.items()}


class RollMean(NamedTuple):
    """What is known of a roll that an expression reads by name (a check's earlier roll):
    its mean, explosions followed forever, a number it is never below (None: unknown), and
    its linear form over uncorrelated parts (:class:`Moments`; None: its variance has no
    closed form here), so that an expression reading it twice knows it is one roll."""

    mean: Fraction
    lowest: int | None
    form: Form | None = None
    term: ast.Dice | None = None  # the roll's one dice term, where it is one: what count() of it reads


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


def exact_moments(tree: ast.Node, env: Mapping[str, Any], budget: Budget, *,
                  rolls: Mapping[str, RollMean] | None = None, limits: Limits = DEFAULT_LIMITS,
                  text: str = "", functions: Functions = FUNCTIONS, values: Mapping[str, ast.Node] | None = None,
                  outcomes: RollOutcomes | None = None) -> tuple[Fraction | None, Fraction | None]:
    """The mean and the variance of ``tree``'s value, explosions followed forever, each None
    where it has no closed form here (the variance is None wherever the mean is); see
    :func:`exact_mean` and the module. ``values``: names ``tree`` reads that are worked out
    from the rolls (a check's lets, ``successes: count(roll, 4, 6)``), each read as its own
    expression in its place (:func:`.ast.with_names`): read apart, by a mean each, two counts
    of one roll would be taken for independent (a wrong variance); read whole, they are one
    roll's, as written out in one expression."""
    if values:
        whole = ast.with_names(tree, values)
        if whole is None:
            return None, None
        tree = whole
    found = roll_mean(tree, env, budget, rolls=rolls, limits=limits, text=text, functions=functions,
                      outcomes=outcomes, whole=True)
    if found is None:
        return None, None
    return found.mean, Moments(found.mean, found.form).variance


def roll_mean(tree: ast.Node, env: Mapping[str, Any], budget: Budget, *,
              rolls: Mapping[str, RollMean] | None = None, limits: Limits = DEFAULT_LIMITS,
              text: str = "", functions: Functions = FUNCTIONS, outcomes: RollOutcomes | None = None,
              whole: bool = False) -> RollMean | None:
    """:func:`exact_mean` with a number the value is never below, where one is known: what a
    check keeps of each of its rolls for the rolls and the result that read it. ``outcomes``:
    the exact outcomes of the rolls of ``rolls``, where known, for an ``if()`` on them;
    ``whole``: ``tree`` is the whole value asked about (a check's result), not one roll of
    several that others read beside the rolls it reads."""
    means = _Means(env, rolls or {}, budget, limits, text, functions, tree if whole else None, outcomes)
    try:
        found = means.moments(tree)
        bare = means.taken(ast.bare(tree))
        return None if found is None else RollMean(found.mean, means.lowest(tree), found.form,
                                                   bare if isinstance(bare, ast.Dice) else None)
    except BudgetExceeded:
        return None


class _Means:
    """One working out of a mean: what it reads, and the exact evaluator for the parts that
    nothing truncates."""

    def __init__(self, env: Mapping[str, Any], rolls: Mapping[str, RollMean], budget: Budget,
                 limits: Limits, text: str, functions: Functions, root: ast.Node | None = None,
                 outcomes: RollOutcomes | None = None) -> None:
        self.env, self.rolls, self.budget = env, rolls, budget
        self.outcomes = outcomes  # the exact outcomes of rolls read by name, where known (a condition's)
        self.limits, self.text, self.functions = limits, text, functions
        self.root = root  # the whole value worked out (None: one roll of several, read beside others)

    # ---- parts worked out exactly -----------------------------------------------------
    def settled(self, node: ast.Node) -> bool:
        """Nothing in ``node`` is cut by the depth or read from a roll by name: the exact
        evaluator works out its whole distribution."""
        if self.reads_rolls(node):
            return False
        for n in ast.walk(node):
            if isinstance(n, ast.Dice) and any(isinstance(m, ast.Explode) and m.kind != "once"
                                               for m in n.modifiers):
                return False
        return True

    def reads_rolls(self, node: ast.Node) -> bool:
        """``node`` reads a roll by name (its value is then not a part of its own)."""
        return any(isinstance(n, ast.Name) and n.name in self.rolls for n in ast.walk(node))

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

    # ---- the mean and the variance -----------------------------------------------------
    def moments(self, node: ast.Node) -> Moments | None:
        """``node``'s mean and linear form (see the module); None where the mean has no closed
        form here."""
        if self.settled(node):
            d = self.numbers(node)
            return None if d is None else _fresh(*_moments_of(d))
        if isinstance(node, (ast.Group, ast.Labeled)):
            return self.moments(node.inner)
        if isinstance(node, ast.Name):
            roll = self.rolls[node.name]  # settled unless it names a roll
            return Moments(roll.mean, roll.form)
        if isinstance(node, ast.Neg):
            inner = self.moments(node.operand)
            return None if inner is None else Moments(-inner.mean, _scaled(inner.form, Fraction(-1)))
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            left, right = self.moments(node.left), self.moments(node.right)
            if left is None or right is None:
                return None
            sign = Fraction(1 if node.op == "+" else -1)
            return Moments(left.mean + sign * right.mean, _combine(left.form, right.form, sign))
        if isinstance(node, ast.Binary) and node.op == "*":
            # linear only where one side is a number known before rolling
            for const, other in ((node.left, node.right), (node.right, node.left)):
                c = self.number(const)
                if c is not None:
                    m = self.moments(other)
                    return None if m is None else Moments(c * m.mean, _scaled(m.form, Fraction(c)))
            return None
        counted = self.count_moments_of_roll(node)
        if counted is None:
            counted = self.symbol_moments_of_roll(node)
        if counted is not None:
            return counted
        parts = conditional(node)
        if parts is not None:
            return self.if_moments(*parts)
        if isinstance(node, ast.Dice):
            return self.term_moments(node)
        highest = extreme(node)
        if highest is not None:
            return self.extreme_moments(node, highest)  # type: ignore[arg-type]
        return None

    def count_moments_of_roll(self, node: ast.Node) -> Moments | None:
        """``count(roll, lo, hi)`` (or one face) of a roll that is one dice term keeping every
        die: the same dice counting the faces lo to hi as successes (a 6 of ``3d6!`` still
        explodes), per die as :func:`die_moments` works a count out. Its variance where
        nothing else reads the roll (the expression reads it here alone, and no other roll
        shares a part with it); else the mean alone, the two being correlated."""
        read = self._roll_read(node, COUNTS)
        if read is None or not isinstance(node, ast.Call) or len(node.args) not in (2, 3):
            return None
        name, roll = read
        assert roll.term is not None
        if any(isinstance(m, ast.KeepFace) for m in roll.term.modifiers):
            return None
        bounds = [self.number(a) for a in node.args[1:]]
        lo, hi = bounds[0], bounds[-1]
        if lo is None or hi is None:
            return None
        counting = ast.CountDice(False, ast.Cond("=", lo, hi), node.span)
        term = ast.Dice(roll.term.count, roll.term.die,
                        tuple(m for m in roll.term.modifiers if not isinstance(m, ast.CountDice)) + (counting,),
                        roll.term.span, roll.term.sides)
        found = self.term_moments(term)
        return None if found is None else self._read_alone(name, roll, found)

    def symbol_moments_of_roll(self, node: ast.Node) -> Moments | None:
        """``symbols(roll, 'a', …)`` of a roll that is one term of symbol dice keeping every
        die: each die worth the named symbols its face shows (a face that explodes shows its
        own, then the next die's), per die as :func:`die_moments` works a worth out; its
        variance where nothing else reads the roll, as :meth:`count_moments_of_roll`."""
        read = self._roll_read(node, SYMBOL_COUNTS)
        if read is None or not isinstance(node, ast.Call):
            return None
        name, roll = read
        assert roll.term is not None
        names = {a.value for a in node.args[1:] if isinstance(a, ast.Str)}
        die = roll.term.die
        if len(node.args) < 2 or len(names) != len(node.args) - 1 or die is None or die.symbols is None:
            return None
        spec = PoolSpec.of(roll.term)

        def worth(face: int) -> int:
            return sum(s in names for s in die.symbols_on(face)) if spec.in_play(face) else 0

        found = self.term_moments(roll.term, worth)
        return None if found is None else self._read_alone(name, roll, found)

    def _roll_read(self, node: ast.Node, what: str) -> tuple[str, RollMean] | None:
        """The roll ``node`` reads ``what`` of (a call such as ``count(roll, …)``), by name, with
        its mean, where it is one dice term keeping every die by rank; None otherwise."""
        if reads(node) != what or not isinstance(node, ast.Call) or not node.args:
            return None
        target = ast.bare(node.args[0])
        roll = self.rolls.get(target.name) if isinstance(target, ast.Name) else None
        if roll is None or roll.term is None or any(
                isinstance(m, (ast.Keep, ast.Clamp, ast.RerollRank)) for m in roll.term.modifiers):
            return None
        return target.name, roll  # type: ignore[union-attr]

    def _read_alone(self, name: str, roll: RollMean, found: Moments) -> Moments:
        """``found`` (what is read of roll ``name``'s dice), with its variance where the roll
        is read alone: once in the whole value asked about, no other roll sharing a part
        with it. A roll that counts an earlier roll's faces (`again: count(first, 6) + 1d6!`)
        is read beside that roll later (`first + again`): the mean alone then."""
        alone = self.root is not None and roll.form is not None and sum(
            isinstance(n, ast.Name) and n.name == name for n in ast.walk(self.root)) == 1 and not any(
            other is not roll and other.form and set(other.form) & set(roll.form) for other in self.rolls.values())
        return found if alone else Moments(found.mean, None)

    def extreme_moments(self, node: ast.Call, highest: bool) -> Moments | None:
        """``max``/``min`` of plain open-ended dice, one ``dS!`` each (:mod:`.extremes`)."""
        from .extremes import extreme_moments  # only where dice explode (start-up, issue 33)
        from .open_ended import plain_chain

        sizes = []
        for arg in node.args:
            arg = ast.bare(arg)
            if not isinstance(arg, ast.Dice) or ast.condition_exprs(arg):
                return None
            counts = {1: Fraction(1)} if arg.count is None else \
                self.numbers(arg.count) if self.settled(arg.count) else None
            specs = self.specs(arg)
            if counts != {1: Fraction(1)} or specs is None or len(specs) != 1:
                return None
            chain = plain_chain(specs[0][0])
            if chain is None or not chain.top:  # a dS! exploding on its top face alone
                return None
            sizes.append(chain.sides)
        found = extreme_moments(tuple(sizes), highest, self.budget)
        return None if found is None else _fresh(*found)

    def taken(self, node: ast.Node) -> ast.Node:
        """``node``, or where it is ``if(c, a, b)`` whose condition the values known before rolling
        decide (``if(push, (dice)d6!, (dice)d6)``), the branch taken (itself taken so)."""
        parts = conditional(node)
        while parts is not None and self.settled(parts[0]):
            d = self.dist(parts[0])
            if d is None or len(d) != 1 or not isinstance(next(iter(d)), bool):
                break
            node = ast.bare(parts[1] if next(iter(d)) else parts[2])
            parts = conditional(node)
        return node

    def if_moments(self, cond: ast.Node, then: ast.Node, other: ast.Node) -> Moments | None:
        """``if(c, a, b)``: the branches' means mixed by the chance of the condition (its dice
        are rolls of their own, independent of the branches'; or it reads earlier rolls and
        the branches read none, :mod:`.condition_chances`); only a branch that may be
        taken is read. The variance by the law of total variance, E[X²] = Σ P·E[branch²],
        where no branch taken reads a roll by name (the value is then a part of its own)."""
        if not self.settled(cond):
            return self.read_if_moments(cond, then, other)
        d = self.dist(cond)
        if d is None or not all(isinstance(v, bool) for v in d):
            return None
        total, square = Fraction(0), Fraction(0)
        spread = True
        for value, p in d.items():
            if not p:
                continue
            branch = then if value else other
            m = self.moments(branch)
            if m is None:
                return None
            total += p * m.mean
            variance = m.variance
            if variance is None or self.reads_rolls(branch):
                spread = False
            else:
                square += p * (variance + m.mean * m.mean)
        return _fresh(total, square - total * total if spread else None)

    def read_if_moments(self, cond: ast.Node, then: ast.Node, other: ast.Node) -> Moments | None:
        """``if(c, a, b)`` whose condition reads earlier rolls, its branches none: the mean
        alone, the value being correlated with the rolls read (:mod:`.condition_chances`)."""
        if self.outcomes is None or self.reads_rolls(then) or self.reads_rolls(other):
            return None
        chances = condition_chances(cond, self.env, frozenset(self.rolls), self.outcomes, self.budget, self.limits,
                                    self.text, self.functions)
        if chances is None:
            return None
        mean = Fraction(0)
        for value, p in chances.items():
            if not p:
                continue  # a branch never taken is not read
            m = self.moments(then if value else other)
            if m is None:
                return None
            mean += p * m.mean
        return Moments(mean, None)

    def term_moments(self, node: ast.Dice, worth: Callable[[int], int] | None = None) -> Moments | None:
        """One dice term that explodes without end (or reads a roll by name); ``worth``: what a
        die showing each face adds, where not its face (:func:`die_moments`)."""
        exprs = ast.condition_exprs(node)
        if exprs:  # `!>=(x)`, `cs>=(tn)`: known before rolling, then as if written
            numbers = [self.number(e) for e in exprs]
            if any(n is None for n in numbers):
                return None
            node = ast.with_conditions(node, tuple(n for n in numbers if n is not None))
        specs = self.specs(node)
        if specs is None:
            return None
        per_die, square = Fraction(0), Fraction(0)
        if len(specs) == 1 and specs[0][0].keeps and not self.keeps_all(specs[0][0], node.count):
            return self.kept_moments(specs[0][0], node.count)
        for spec, w in specs:
            if spec.reroll_rank is not None or (spec.keeps and not self.keeps_all(spec, node.count)):
                return None  # which dice count depends on them all (and on the pool explosions grow)
            m = die_moments(spec, self.budget, worth)
            if m is None:
                return None
            per_die += w * m[0]
            square += w * m[1]
        count = self.count_moments(node.count)
        if count is None:
            return None
        mean = count.mean * per_die
        if len(specs) > 1:  # its dice share the roll of the sides: not apart from one another
            return Moments(mean, None)
        # N dice each X: E[X]·N plus a part of its own, of variance E[N]·Var(X) (the module)
        own = Part(count.mean * (square - per_die * per_die))
        return Moments(mean, _combine(_scaled(count.form, per_die), {own: Fraction(1)}))

    def kept_moments(self, spec: PoolSpec, count: ast.Node) -> Moments | None:
        """``dS!!`` compounding on their top face alone, known in number, keeping some of
        them by rank: one (``kh1``, ``kl1``) of up to six is the ``max``/``min`` of that many
        ``dS!`` (a ``dS!!`` totals as a ``dS!`` does; :mod:`.extremes`); any ranks of up to
        64 have the mean of :func:`kept_ranks_mean`, and of up to 16 the variance of
        :func:`kept_ranks_square` too."""
        n = self.number(count)
        if n is None or n < 2 or spec.explode != "compound" or spec.by_face or spec.reroll_rank is not None:
            return None
        from .extremes import extreme_moments  # only where dice explode (start-up, issue 33)
        from .kept_ranks import kept_ranks_mean, kept_ranks_square
        from .open_ended import plain_chain

        chain = plain_chain(spec._replace(keeps=()))
        if chain is None or not chain.top:
            return None
        kept = spec.kept_range(n)
        if kept in ((0, 1), (n - 1, n)):
            found = extreme_moments((chain.sides,) * n, kept == (0, 1), self.budget)
            return None if found is None else _fresh(*found)
        mean = kept_ranks_mean(n, chain.sides, *kept, self.budget)
        if mean is None:
            return None
        square = kept_ranks_square(n, chain.sides, *kept, self.budget)
        return _fresh(mean, None if square is None else square - mean * mean)

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

    def count_moments(self, count: ast.Node) -> Moments | None:
        """The mean number of dice, E[n] (Wald: n is rolled apart from the dice it counts), and
        its form, for a count never below 0."""
        if self.settled(count):
            d = self.numbers(count)
            if d is None or min(d) < 0:
                return None
            return _fresh(*_moments_of(d))
        low = self.lowest(count)
        if low is None or low < 0:
            return None
        return self.moments(count)

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


def _moments_of(d: Mapping[int, Fraction]) -> tuple[Fraction, Fraction]:
    """The mean and the variance of a distribution (value → probability, summing to 1)."""
    mean = sum((v * p for v, p in d.items()), Fraction(0))
    return mean, sum((v * v * p for v, p in d.items()), Fraction(0)) - mean * mean
