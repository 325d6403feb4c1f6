"""Exact distributions of a check's rolls and of other expressions of its ruleset.

The exact driver (:class:`run.enumeration.Enumerator`) reads each roll's value from here: its
total, or (``Rolled``) its dice when the rules look at them. Compiled evaluators are kept per
roll and per expression. Errors come out as raised (``BudgetExceeded``, a ruleset error):
the runner says where in the file they belong.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction

from ..dice import ast
from ..dice.builtins import READERS, conditional
from ..dice.dist import Budget, BudgetExceeded, Dist, mixture
from ..dice.context import Context
from ..dice.evaluate import compile_conditions, compile_expression
from ..dice.beyond import UNDETERMINED
from ..dice.exact import Exact, dice_term_dist
from ..dice.sampling import Sampling
from ..dice.pool import PoolSpec
from ..dice.mixed_pool import RankedChoice, dice_pool_dist, dice_pool_view_dist
from ..dice.pool_odds import PoolView, faces_dist, joined_dist, view_dist
from ..dice.values import DicePool
from ..codes import E_EVAL
from ..errors import DiceEvalError, RulesEngineError
from ..limits import Limits
from ..rules.faces import face_views
from ..rules.model import Check, Expr
from .shared_rolls import values_read
from .whole import addends, as_rolled, empty_roll, no_dice, whole_dice

if TYPE_CHECKING:
    from .ranked_pool import ReadByRank


class RollReads(NamedTuple):
    """What is read of a check's rolls beyond what its own rules read (a condition given to
    conditional odds): for each roll, a :class:`PoolView` (None: every die), and the rolls
    whose first throw is read (``initial(roll)``)."""

    views: Mapping[str, PoolView | None]
    initial: frozenset[str] = frozenset()
    # The expressions that read them so (the condition), settled with the inputs as the
    # check's own are (see ExactRolls.settled_reads).
    also: tuple[Expr, ...] = ()


_MADE: ContextVar[dict[tuple, tuple[Any, int]] | None] = ContextVar("rulesengine_rolls_made", default=None)
_T = TypeVar("_T")


@contextmanager
def remembering_rolls() -> Iterator[None]:
    """Inside the block (one check's exact odds: its outcomes, then its unbounded moments,
    which join the rolls again), a roll's distribution is worked out once for the same key
    (:meth:`ExactRolls.share_key`) and given again, and so is what :func:`remembered` is
    asked for; dropped at the end of the block."""
    token = _MADE.set({})
    try:
        yield
    finally:
        _MADE.reset(token)


def remembering() -> bool:
    """Whether :func:`remembering_rolls` is in force (a key is then worth making)."""
    return _MADE.get() is not None


def remembered(key: tuple, budget: Budget, make: Callable[[], _T]) -> _T:
    """What ``make()`` gives, inside :func:`remembering_rolls` worked out once for ``key`` and
    given again charged the steps it cost to ``budget`` (so every limit is met where it was);
    outside it, worked out each time."""
    made = _MADE.get()
    if made is None:
        return make()
    if key in made:
        value, steps = made[key]
        budget.spend(steps)
        return value
    before = budget.used
    value = make()
    made[key] = (value, budget.used - before)
    return value


_SETTLED_KEPT = 1024  # settled reads kept per check: one per set of the values they read


def _reading_parts(tree: ast.Node, read: frozenset[str]) -> list[ast.Node] | None:
    """The largest parts of ``tree`` that read any of the rolls ``read`` and roll no dice
    themselves (``count(first, 6)`` in ``(count(first, 6))d6!``, an ``if()``'s condition):
    a roll that reads earlier rolls reads them only through the values of these parts, so
    readings that agree on those values give it the same distribution. None where a name of
    ``read`` is read outside such a part (the caller then keys by the whole reading)."""
    parts: list[ast.Node] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if not ast.names(node) & read:
            continue
        if not ast.has_dice(node):
            parts.append(node)
            continue
        inner = ast.children(node)
        if not inner:
            return None
        stack.extend(reversed(inner))
    return parts


def _knowable_parts(exprs: Iterable[Expr | None], before: frozenset[str], rolls: frozenset[str] = frozenset()
                    ) -> dict[int, ast.Node]:
    """The parts of ``exprs`` known before anything is rolled that decide what is read of
    the rolls, by id: ``if()`` conditions, the left side of ``and`` and ``or`` (which skip
    the right side where the left decides), and the bounds of pool functions (``count(roll,
    double, 10)``, inside parentheses and minus signs too) that read only ``before``."""
    nodes: dict[int, ast.Node] = {}
    for e in exprs:
        if e is None:
            continue
        for n in ast.walk(e.tree):
            parts = conditional(n)
            if parts is not None:
                found: tuple[ast.Node, ...] = parts[:1]
            elif isinstance(n, ast.Logic) and not ast.has_dice(n.right) and _reads_a_roll(n.right, rolls):
                found = (n.left,)  # `dice == 0 and pool == 1`: as lazy as if()
            elif isinstance(n, ast.Call) and n.name in READERS:
                found = n.args[1:]
            else:
                continue
            for part in found:
                names = ast.names(part)
                if not names or not names <= before:
                    continue
                nodes[id(part)] = part
                while isinstance(part, (ast.Group, ast.Neg)):  # a bound is read inside these
                    part = part.inner if isinstance(part, ast.Group) else part.operand
                    nodes[id(part)] = part
    return nodes


def _reads_a_roll(node: ast.Node, rolls: frozenset[str]) -> bool:
    """Whether ``node`` names one of ``rolls`` or reads dice (``count(…)``): only then can
    settling what comes before it change what is read of a roll. Each value of a sweep
    settles anew, so a condition that reads none (``skill < 50 and value >= 96``) is not."""
    return bool(ast.names(node) & rolls) or any(isinstance(m, ast.Call) and m.name in READERS for m in ast.walk(node))


class ExactRolls:
    """The exact distributions of one check's rolls, with its ruleset's functions."""

    def __init__(self, check: Check, functions: Mapping, limits: Limits, family: object | None = None) -> None:
        self.check = check
        self.functions = functions
        self.limits = limits
        # Shared with the check as its inputs make it (run.taken_checks): a roll written alike in
        # both (the same expression, read the same way) has one distribution (:meth:`share_key`).
        self.family = object() if family is None else family
        self._rolls: dict[str, Any] = {}
        self._exprs: dict[str, Any] = {}  # expressions outside the check (roll-offs), by pointer
        self._settled: dict[tuple, RollReads | None] = {}  # settled_reads, by the values they read
        self._known: tuple[dict[int, ast.Node], tuple[str, ...]] | None = None
        self._parts: dict[tuple[str, tuple[str, ...]], list[tuple[bool, Any]] | None] = {}  # reading_key's, compiled
        self._by_rank: tuple[ReadByRank | None] | None = None  # read_by_rank's, once

    def forget(self) -> None:
        """Drop the compiled evaluators (and with them their pools' caches)."""
        self._rolls.clear()
        self._exprs.clear()
        self._settled.clear()
        self._parts.clear()

    def _before(self) -> frozenset[str]:
        """The names known before anything is rolled: the inputs and the lets of them."""
        check = self.check
        return frozenset({i.name for i in check.inputs} | {let.name for let in check.lets if not let.after_roll})

    def _knowable(self) -> tuple[dict[int, ast.Node], tuple[str, ...]]:
        """The parts of the check's own expressions known before anything is rolled that
        decide what is read of its rolls (see :func:`_knowable_parts`), with the names they read."""
        if self._known is None:
            sources = self.check.view_sources
            nodes = _knowable_parts(sources[0][0] if sources else (), self._before(), self._roll_names())
            read = sorted(set().union(*(ast.names(n) for n in nodes.values())))
            self._known = (nodes, tuple(read))
        return self._known

    def _roll_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.check.rolls)

    def settled_reads(self, env: Mapping[str, Any], budget: Budget, reads: RollReads | None = None
                      ) -> RollReads | None:
        """What the check's own rules (and ``reads.also``) read of its rolls once the values
        known before rolling (``env``: inputs, lets of inputs) are given, where that is less
        than what they may read for any inputs: an ``if()`` whose condition is known reads
        only its taken branch, and a count whose range is given by inputs reads that range
        (a view of bands, not every set of faces). None (or ``reads``): the views as built."""
        nodes, read = self._knowable()
        also = reads.also if reads is not None else ()
        if also:  # a condition given to conditional odds: read with the check's names, not kept
            nodes = {**nodes, **_knowable_parts(also, self._before(), self._roll_names())}
            if not nodes:
                return reads
            return self._settle(env, budget, nodes, reads) or reads
        if not nodes or reads is not None:
            return reads
        key = tuple((type(v), v) for v in (env.get(n) for n in read))  # 8 and 8.0 read differently
        try:
            return self._settled[key]
        except TypeError:  # a value that is no key (a pool of dice): worked out each time
            return self._settle(env, budget, nodes)
        except KeyError:
            pass
        if len(self._settled) >= _SETTLED_KEPT:  # a long-running service sweeping wide inputs
            self._settled.clear()
        self._settled[key] = found = self._settle(env, budget, nodes)
        return found

    def _settle(self, env: Mapping[str, Any], budget: Budget, nodes: dict[int, ast.Node],
                reads: RollReads | None = None) -> RollReads | None:
        check = self.check
        values: dict[int, Any] = {}

        def settle(node: ast.Node, e: Expr) -> Any:
            if id(node) not in nodes:
                return None
            if id(node) not in values:
                try:
                    run = compile_expression(node, Exact(), self.limits, e.text, self.functions)
                    dist = run(Context(e.text, env, self.limits, budget=budget))
                    values[id(node)] = next(iter(dist.weights)) if dist.is_point() and not dist.tail else None
                except (BudgetExceeded, DiceEvalError, RulesEngineError):
                    values[id(node)] = None  # the rules say so where they read it
            return values[id(node)]

        views: dict[str, PoolView | None] = {}
        for i, (exprs, aliases) in enumerate(check.view_sources):
            # A procedure's expressions are read with its own names: only the check's are settled.
            views = face_views(check, list(exprs), dict(aliases), views, settle if i == 0 else None, beside=i > 0)
        if reads is not None:
            views = face_views(check, list(reads.also), None, views, settle, beside=True)
        if check.choose is not None:
            views[check.choose.source] = None  # choosing dice reads every one of them
        for name in (*dict(check.face_views), *(reads.views if reads is not None else ())):
            views.setdefault(name, PoolView(total=True))  # its dice are read only where not taken
        if views == dict(check.face_views if reads is None else reads.views):
            return None
        return RollReads(views, reads.initial if reads is not None else frozenset(),
                         reads.also if reads is not None else ())

    def expression_dist(self, e: Expr, env: Mapping[str, Any], budget: Budget) -> Dist:
        """Any expression of the ruleset read with ``env``; pool values count by their totals."""
        compiled = self._exprs.get(e.pointer)
        if compiled is None:
            compiled = compile_expression(e.tree, Exact(), self.limits, e.text, self.functions)
            self._exprs[e.pointer] = compiled
        return self.pool_totals(compiled(Context(e.text, env, self.limits, budget=budget)), budget)

    def pool_totals(self, dist: Dist, budget: Budget, view: PoolView | None = None, sizes: bool = True,
                    ranked: RankedChoice | None = None) -> Dist:
        """``dist`` with each dice-pool value (an input such as d8/d6) replaced by the
        distribution of what that pool rolls: of what ``view`` reads of it, where the rules
        read a roll's dice only through one; by its faces alone where ``sizes`` is False
        (nothing reads the dice's sizes); by the dice that may be chosen where the rules
        only choose from it (``ranked``, :mod:`.ranked_pool`)."""
        if not any(isinstance(v, DicePool) for v in dist.weights):
            return dist

        def rolled(pool: DicePool) -> Dist:
            if view is not None:
                return dice_pool_view_dist(pool, view, budget)
            return dice_pool_dist(pool, budget, sizes, ranked)

        return mixture([(rolled(v) if isinstance(v, DicePool) else Dist.point(v), w)
                        for v, w in dist.weights.items()], dist.denom, budget)

    def roll_dist(self, name: str, e: Expr, env: Mapping[str, Any], budget: Budget,
                  reads: RollReads | None = None) -> Dist:
        """The exact distribution of one roll's value: ``Rolled`` when the rules look at
        its dice (or it rolls a pool), else its total. ``reads``: what is read of the
        rolls when it is more than the check's own rules read. Inside
        :func:`remembering_rolls`, one worked out already (same :meth:`share_key`) is given
        again, charged the steps it cost, so every limit is met where it was."""
        key = self.share_key(name, e, env, reads) if _MADE.get() is not None else None
        if key is None:
            return self._roll_dist(name, e, env, budget, reads)
        return remembered(key, budget, lambda: self._roll_dist(name, e, env, budget, reads))

    def roll_outcomes(self, env: Mapping[str, Any], budget: Budget) -> Callable[[str], Mapping[Any, Fraction] | None]:
        """Each roll's exact outcomes by name, as the odds read them (:meth:`roll_dist`), for a
        mean's ``if()`` on it (:mod:`rulesengine.dice.condition_chances`): only a roll that reads
        no other and of which the depth cut nothing; worked out when first asked for."""
        exprs = dict(self.check.rolls)

        def outcomes(name: str) -> Mapping[Any, Fraction] | None:
            e = exprs.get(name)
            if e is None or e.names & set(exprs):
                return None
            try:
                dist = self.roll_dist(name, e, env, budget)
            except (RulesEngineError, BudgetExceeded):
                return None
            return None if dist.truncated or dist.tail else dist.probabilities()

        return outcomes

    def _roll_dist(self, name: str, e: Expr, env: Mapping[str, Any], budget: Budget,
                   reads: RollReads | None = None) -> Dist:
        compiled = self._rolls.get(name)
        if compiled is None:
            domain = Exact()
            compiled = (compile_expression(e.tree, domain, self.limits, e.text, self.functions), domain,
                        whole_dice(e.tree, self.earlier_rolls(name)) is not None)
            self._rolls[name] = compiled
        run, domain, whole = compiled
        views = dict(self.check.face_views) if reads is None else reads.views
        if whole and (name in self.check.faces_needed or name in views):
            first = name in self.check.initial_needed or (reads is not None and name in reads.initial)
            return self._whole_dist(e.tree, e, env, budget, domain, views.get(name), first)
        # The dice's sizes are read where the rules read them, or where more is read than the
        # check's own rules say (``reads``: conditional odds' condition, kept whole).
        sizes = reads is not None or name in self.check.sizes_needed
        dist = run(Context(e.text, env, self.limits, budget=budget))
        ranked = self._ranked(name, dist, env, sizes, reads)
        return self.pool_totals(dist, budget, views.get(name), sizes, ranked)

    def _ranking(self, name: str, reads: RollReads | None) -> ReadByRank | None:
        """The choice's ranking die by die where roll ``name`` is read only by choosing
        from it (:func:`.ranked_pool.read_by_rank`), by the check and by ``reads``."""
        choose = self.check.choose
        if choose is None or choose.source != name:
            return None
        from .ranked_pool import read_alone, read_by_rank  # only where a check chooses dice
        if self._by_rank is None:
            self._by_rank = (read_by_rank(self.check),)
        if reads is not None and not all(read_alone(e, name) for e in reads.also):
            return None
        return self._by_rank[0]

    def _ranked(self, name: str, dist: Dist, env: Mapping[str, Any], sizes: bool, reads: RollReads | None
                ) -> RankedChoice | None:
        """What choosing reads of the pools roll ``name`` may be, where that is all that is read."""
        read = self._ranking(name, reads)
        pools = [v for v in dist.weights if isinstance(v, DicePool)]
        if read is None or not pools:
            return None
        from .ranked_pool import ranked_choice
        return ranked_choice(self.check, read, pools, env, sizes, self.limits, self._capped(name, reads))

    @staticmethod
    def _capped(name: str, reads: RollReads | None) -> bool:
        """Whether the dice set aside of roll ``name`` may be kept as a capped number: a
        condition given reads the roll in none of its own expressions."""
        return reads is None or not any(name in e.names for e in reads.also)

    def share_key(self, name: str, e: Expr, env: Mapping[str, Any], reads: RollReads | None = None
                  ) -> tuple | None:
        """What :meth:`roll_dist` of roll ``name`` (``e``) depends on: the values of the names
        its expression reads (inputs, values known before rolling, earlier rolls) and what
        is read of its dice (its view, its first throw). Equal keys give the same
        distribution, so a sweep works it out once for all the values that share it (see
        ``shared_rolls.sharing_rolls``). None where a value read is no key (a pool's dice, a
        value explosions cut: it is worked out each time)."""
        views = dict(self.check.face_views) if reads is None else reads.views
        initial = name in self.check.initial_needed or (reads is not None and name in reads.initial)
        # 8 and 8.0, 1 and True read differently: the type is part of the key.
        names = e.names
        ranked = self._ranking(name, reads)
        if ranked is not None:  # how many dice are chosen and their ranks read these too
            pick = self.check.choose.pick_expr  # type: ignore[union-attr]
            names = names | frozenset(ranked.ranking.names) | (pick.names if pick is not None else frozenset())
        kept = None if ranked is None else self._capped(name, reads)
        key = (self.family, e.tree, name, name in views, views.get(name), initial, kept, values_read(env, names))
        try:
            hash(key)
        except (TypeError,) + UNDETERMINED:  # a pool's dice, a value explosions cut
            return None
        return key

    def reading_key(self, name: str, e: Expr, read: tuple[str, ...], env: Mapping[str, Any], budget: Budget
                    ) -> tuple | None:
        """What roll ``name`` (``e``) reads of the earlier rolls ``read`` with their values in
        ``env``: the values of the parts of it that read them (see :func:`_reading_parts`).
        Readings of the earlier rolls with equal keys give the roll the same distribution, so
        it is worked out once per key (a push of the 6s reads ``count(pool, 6)``, not each
        set of faces). None: no key (the roll is worked out for this reading as it is)."""
        if (name, read) in self._parts:
            compiled = self._parts[(name, read)]
        else:
            nodes = _reading_parts(e.tree, frozenset(read))
            # A part with no dice of its own is worked out on plain values (the readings are
            # known values), many times faster than as a distribution of one value.
            compiled = None if nodes is None else \
                [(not dice, compile_expression(n, Exact() if dice else Sampling(), self.limits, e.text, self.functions))
                 for n in nodes for dice in (ast.has_dice(n),)]
            self._parts[(name, read)] = compiled
        if compiled is None:
            return None
        key = []
        ctx = Context(e.text, env, self.limits, budget=budget)
        for plain, run in compiled:
            try:
                value = run(ctx)
            except (DiceEvalError, RulesEngineError) + UNDETERMINED:
                return None  # worked out as it is, which says what is wrong where it is
            if plain:
                key.append(value)
                continue
            if not value.is_point() or value.tail:
                return None
            key.append(next(iter(value.weights)))
        try:
            hash(tuple(key))
        except (TypeError,) + UNDETERMINED:  # a value explosions cut (count(pool, 10) of a cut pool)
            return None
        return tuple(key)

    def earlier_rolls(self, name: str) -> frozenset[str]:
        """The check's rolls listed before ``name``: what it may read."""
        names = [n for n, _ in self.check.rolls]
        return frozenset(names[:names.index(name)]) if name in names else frozenset()

    def _whole_dist(self, tree: ast.Node, e: Expr, env: Mapping[str, Any], budget: Budget, domain: Exact,
                    view: PoolView | None, initial: bool = False) -> Dist:
        """A roll seen whole (see :func:`whole_dice`): a dice term's faces, an earlier roll
        as it came out, or ``if()``'s branches mixed by the chance of its condition."""
        tree = ast.bare(tree)
        if isinstance(tree, ast.Dice):
            return self._faces_dist(tree, e, env, budget, domain, view, initial)
        if isinstance(tree, ast.Name):
            return Dist.point(as_rolled(env[tree.name]))
        if no_dice(tree):  # the `0` branch of an if(): a roll of no dice, as (0)d6 is seen
            return Dist.point(empty_roll(initial or (view is not None and bool(view.initial))))
        if isinstance(tree, ast.Binary):  # several rolls added up, read as one: all at once
            return joined_dist([self._whole_dist(t, e, env, budget, domain, view, initial)
                                for t in addends(tree)], view, budget)
        assert isinstance(tree, ast.Call), "whole_dice() admits dice terms, earlier rolls, if() and sums only"
        ctx = Context(e.text, env, self.limits, budget=budget)
        cond = compile_expression(tree.args[0], domain, self.limits, e.text, self.functions)(ctx)
        parts = []
        for value, w in cond.weights.items():
            if not isinstance(value, bool):
                raise DiceEvalError(f"if() needs a yes/no value first, not {value!r}", ctx.where(tree.args[0].span),
                                    "compare it first, e.g. if(x >= 10, a, b)", E_EVAL)
            branch = tree.args[1] if value else tree.args[2]
            parts.append((self._whole_dist(branch, e, env, budget, domain, view, initial), w))
        return mixture(parts, cond.denom, budget)

    def _faces_dist(self, node: ast.Dice, e: Expr, env: Mapping[str, Any], budget: Budget, domain: Exact,
                    view: PoolView | None, initial: bool = False) -> Dist:
        """A roll read die by die: the evaluator's own dice term, each pool giving its faces,
        or only what the rules read of them (``view``, when they read it through one)."""
        ctx = Context(e.text, env, self.limits, budget=budget)
        if ast.condition_exprs(node):  # `cs>=(tn)`: the term with its conditions' numbers written in
            node = compile_conditions(node, domain, self.limits, e.text, self.functions)(ctx)
        counts = compile_expression(node.count, domain, self.limits, e.text, self.functions)(ctx)
        side_dist = None
        if node.die is None and node.sides is not None:
            side_dist = compile_expression(node.sides, domain, self.limits, e.text, self.functions)(ctx)
        spec = PoolSpec.of(node) if node.die is not None else None
        def pool(rule: PoolSpec, n: int) -> Dist:
            seen = view_dist(rule, n, view, self.limits, budget) if view is not None else None
            return seen if seen is not None else faces_dist(rule, n, self.limits, budget, initial)

        return dice_term_dist(ctx, node, spec, counts, side_dist, pool)
