"""What a check's rolls will cost, at least, before any roll that reads earlier rolls is
worked out (issue 33, item 3).

A roll that reads earlier rolls (a push: ``(count(pool_dice, 6))d6!``) is worked out once
for each value of what it reads of them, and each of its values is joined to every joint
value of the rolls before it that reads so. The exact driver charges that work as it does
it; here it is bounded from below before any of it is done: for each roll, the joint values
of the rolls up to it (exactly for the rolls that read none, and for a roll that reads
them, at least :func:`roll_floor` values for each of their readings), each reading it is
worked out for, and the steps of working it out. The total is charged first
(:meth:`run.enumeration.Enumerator.joint_rolls`): a request too big is refused at once,
saying how big, and nothing the driver would answer is refused, since it is a floor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..dice import ast
from ..dice.builtins import conditional
from ..dice.context import Context
from ..dice.dist import Budget, BudgetExceeded
from ..dice.evaluate import compile_conditions, compile_expression
from ..dice.exact import Exact
from ..dice.pool import PoolSpec
from ..dice.pool_odds import PoolView
from ..dice.view_floor import ViewFloor, view_floor
from ..errors import DiceEvalError, RulesEngineError
from ..limits import Limits
from ..rules.model import Expr
from .exact import ExactRolls, RollReads
from .whole import addends, whole_dice

NO_FLOOR = ViewFloor(1, 0)

FLOOR_EVAL_STEPS = 10_000
"""Work budget of evaluating a dice term's count (``count(pool_dice, 6)``) or an ``if()``'s
condition for :func:`roll_floor`: one that needs more is given no floor (1 value, 0 steps)."""


def roll_floor(exact: ExactRolls, name: str, e: Expr, env: Mapping[str, Any], reads: RollReads | None
               ) -> ViewFloor:
    """At least how many values roll ``name`` (``e``) has with the names in ``env``, and
    how many steps :meth:`ExactRolls.roll_dist` charges to work it out, without working it
    out. A roll read die by die through a view (:func:`dice.pool_odds.view_floor`): its
    dice terms' readings; anything else: at least one value."""
    check = exact.check
    views = dict(check.face_views) if reads is None else reads.views
    if name not in check.faces_needed and name not in views:
        return NO_FLOOR
    if whole_dice(e.tree, exact.earlier_rolls(name)) is None:
        return NO_FLOOR
    return _whole_floor(exact, e.tree, e, env, views.get(name))


def _whole_floor(exact: ExactRolls, tree: ast.Node, e: Expr, env: Mapping[str, Any], view: PoolView | None
                 ) -> ViewFloor:
    """:meth:`ExactRolls._whole_dist`'s floor: a dice term's, the most of a sum's parts (and
    the steps of them all), of an ``if()`` the most of the branches its condition may take."""
    tree = ast.bare(tree)
    if view is None:
        return NO_FLOOR
    ctx = Context(e.text, env, exact.limits, budget=Budget(FLOOR_EVAL_STEPS))
    try:
        if isinstance(tree, ast.Dice):
            return _dice_floor(exact, tree, e, ctx, view)
        if isinstance(tree, ast.Binary):
            parts = [_whole_floor(exact, t, e, env, view) for t in addends(tree)]
            return ViewFloor(max(p.values for p in parts), sum(p.steps for p in parts))
        branches = conditional(tree)
        if branches is None:
            return NO_FLOOR  # an earlier roll taken again: one value
        cond = compile_expression(branches[0], Exact(), exact.limits, e.text, exact.functions)(ctx)
        if cond.tail or not all(isinstance(v, bool) for v in cond.weights):
            return NO_FLOOR
        taken = [_whole_floor(exact, branches[1] if v else branches[2], e, env, view) for v in cond.weights]
        return ViewFloor(max(p.values for p in taken), sum(p.steps for p in taken))
    except (BudgetExceeded, DiceEvalError, RulesEngineError):
        return NO_FLOOR  # worked out as it is, which says what is wrong where it is


def _dice_floor(exact: ExactRolls, node: ast.Dice, e: Expr, ctx: Context, view: PoolView) -> ViewFloor:
    """One dice term's floor: a count known for these names, on a die of its own."""
    if ast.condition_exprs(node):  # `cs>=(tn)`: the term with its conditions' numbers written in
        node = compile_conditions(node, Exact(), exact.limits, e.text, exact.functions)(ctx)
    if node.die is None:
        return NO_FLOOR
    counts = compile_expression(node.count, Exact(), exact.limits, e.text, exact.functions)(ctx)
    if not counts.is_point() or counts.tail:
        return NO_FLOOR
    n = next(iter(counts.weights))
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= exact.limits.max_dice:
        return NO_FLOOR
    return view_floor(PoolSpec.of(node), n, view, exact.limits)


def readings_text(name: str, read: list[str], readings: int, rows: int) -> str:
    return f"'{name}' is worked out for each of {readings:,} readings of {', '.join(read)} ({rows:,} joint values)"


class _Component:
    """The joint values, counted, of a group of rolls that read one another (rolls of
    different groups join as a product): the values of the rolls a later roll reads, each
    combination with how many joint values it stands for at least; the rolls that read none
    wait (``pending``) until a roll reads them, so only what is read is ever listed."""

    def __init__(self) -> None:
        self.names: list[str] = []  # the rolls the table lists, in its keys' order
        self.table: dict[tuple, int] = {(): 1}
        self.pending: dict[str, list[Any]] = {}  # values of rolls read later, not listed yet
        self.scale = 1  # joint values for each: rolls read by none

    def size(self) -> int:
        return self.scale * sum(self.table.values()) * math.prod(len(v) for v in self.pending.values())

    def listed(self, read: list[str]) -> None:
        """List the rolls of ``read`` still pending."""
        for name in read:
            values = self.pending.pop(name, None)
            if values is not None:
                self.table = {k + (v,): c for k, c in self.table.items() for v in values}
                self.names.append(name)

    def forget(self, keep: set[str]) -> None:
        """Stop listing the rolls outside ``keep`` (no roll to come reads them)."""
        for name in [n for n in self.pending if n not in keep]:
            self.scale *= len(self.pending.pop(name))
        if all(n in keep for n in self.names):
            return
        at = [i for i, n in enumerate(self.names) if n in keep]
        table: dict[tuple, int] = {}
        for k, c in self.table.items():
            kept = tuple(k[i] for i in at)
            table[kept] = table.get(kept, 0) + c
        self.names, self.table = [self.names[i] for i in at], table


class Floors:
    """What :meth:`.enumeration.Enumerator.joint_rolls` will charge at least, added up roll by roll in
    its order (see ``Enumerator._afford_readings``), and afforded as it goes."""

    def __init__(self, exact: ExactRolls, limits: Limits, too_big: Callable[[Expr, str], RulesEngineError],
                 env: dict, budget: Budget, reads: RollReads | None, exprs: dict[str, Expr],
                 read_by: dict[str, list[str]]) -> None:
        self.exact, self.limits, self.too_big = exact, limits, too_big  # the check's exact driver's
        self.env, self.budget, self.reads = env, budget, reads
        self.exprs, self.read_by = exprs, read_by
        self.order = list(exprs)
        group = {n: n for n in self.order}

        def root(n: str) -> str:
            while group[n] != n:
                n = group[n]
            return n

        for n, read in read_by.items():
            for r in read:
                group[root(r)] = root(n)
        self.group = {n: root(n) for n in self.order}
        self.parts: dict[str, _Component] = {}
        self.listed: set[str] = set()  # rolls whose values are known here (those that read none)
        self.steps = 0  # charged at least, from here on
        self.keys: dict[str, dict[tuple, Any]] = {}  # reading_key's, by roll and reading
        self.done = 0  # rolls gone through

    def _later(self) -> set[str]:
        """The rolls a roll still to come reads."""
        return {r for n in self.order[self.done:] for r in self.read_by[n]}

    def _stage(self) -> int:
        return math.prod(c.size() for c in self.parts.values())

    def _afford(self, e: Expr, what: str = "") -> bool:
        try:
            self.budget.afford(self.steps)
        except BudgetExceeded:
            raise self.too_big(e, what) from None
        return True

    def known(self, name: str, values: list[Any], count: int, stage: bool = True) -> None:
        """A roll that reads none (or a value a gate fixed): ``values`` its values a later
        roll may read (not those the depth cut), ``count`` its values in the joint."""
        part = self.parts.setdefault(self.group[name], _Component())
        self.done += 1
        if name in self._later():
            part.pending[name] = values
            self.listed.add(name)
        else:
            part.scale *= count
        if stage:
            self.steps += self._stage()
            self._afford(self.exprs[name])

    def reading(self, name: str) -> bool:
        """A roll that reads earlier ones: one step for each reading of them, at least the
        steps of its distributions, and at least their values for each joint value. False
        where it can't be floored (the caller stops here)."""
        e, read = self.exprs[name], self.read_by[name]
        part = self.parts.setdefault(self.group[name], _Component())
        self.done += 1
        if not all(r in self.listed for r in read):  # it reads a roll that reads others
            self.steps += 1 + self._stage()
            return self._afford(e)
        count = math.prod(len(part.pending[r]) if r in part.pending else 1 for r in read)
        at = [i for i, n in enumerate(part.names) if n in read]
        if at:
            count *= len({tuple(k[i] for i in at) for k in part.table})
        # Before listing them: one step for each reading, at least one value for each joint value.
        rows = self._stage()
        self.steps += count
        try:
            self.budget.afford(self.steps + rows)
        except BudgetExceeded:
            raise self.too_big(e, readings_text(name, read, count, rows)) from None
        part.listed(read)
        at = [part.names.index(r) for r in read]
        limits = self.limits
        floors: dict[Any, ViewFloor] = {}
        by_seen: dict[tuple, ViewFloor] = {}
        exact = self.exact
        keys = self.keys.setdefault(name, {})
        whole = at == list(range(len(part.names)))  # the table lists just what it reads
        for k in part.table:
            seen = k if whole else tuple(k[i] for i in at)
            if seen in by_seen:
                continue
            local = {**self.env, **dict(zip(read, seen, strict=True))}
            key = exact.reading_key(name, e, tuple(read), local, self.budget)
            keys[seen] = key
            memo = (key,) if key is not None else ("seen", seen)
            if memo not in floors:
                floors[memo] = roll_floor(exact, name, e, local, self.reads)
                self.steps += floors[memo].steps
            by_seen[seen] = floors[memo]
            if by_seen[seen].values > limits.max_outcomes:
                return False  # refused for its values when it is worked out (max_outcomes)
        part.table = {k: c * by_seen[k if whole else tuple(k[i] for i in at)].values for k, c in part.table.items()}
        part.forget(self._later())
        rows = self._stage()
        self.steps += rows
        ways = f"{len(floors):,} ways, for " if len(floors) < count else "for "
        return self._afford(e, f"'{name}' ({ways}{count:,} readings of {', '.join(read)}): at least "
                               f"{rows:,} joint values, {self.steps:,} steps; max_states is {limits.max_states:,}")
