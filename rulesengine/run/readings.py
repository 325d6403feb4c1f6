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

from collections.abc import Mapping
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
