"""A roll seen whole: which rolls the rules may read die by die, and their dice once rolled.

A roll is seen whole (its total and its dice: :class:`~rulesengine.dice.values.Rolled`) when
its value is nothing but dice: a dice term, an ``if()`` choosing between such rolls (only
the branch taken is rolled; a branch written ``0`` is a roll of no dice), a roll listed
before it taken again, or several of these added up (``2d{ability} + 1d{difficulty}``: one
pool of mixed dice, its symbols counted together). Rolling reads it off the dice rolled
(:func:`rolled_whole`); exact odds build its distribution the same way
(:meth:`run.exact.ExactRolls.roll_dist`).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ..dice import ast
from ..dice.builtins import conditional
from ..dice.pool import PoolRoll
from ..dice.values import Rolled, joined


def whole_dice(tree: ast.Node, earlier: frozenset[str] = frozenset()) -> tuple[ast.Dice, ...] | None:
    """The dice terms of a roll seen whole (see the module's docstring), ``earlier`` being
    the rolls listed before it; None when the roll is something else (``3d6 + 2``)."""
    tree = ast.bare(tree)
    parts = conditional(tree)
    if isinstance(tree, ast.Dice):
        return (tree,)
    if isinstance(tree, ast.Name) and tree.name in earlier:
        return ()
    if parts is not None:
        then, other = _branch_dice(parts[1], earlier), _branch_dice(parts[2], earlier)
        if then is not None and other is not None:
            return then + other
    if isinstance(tree, ast.Binary) and tree.op == "+":
        left, right = whole_dice(tree.left, earlier), whole_dice(tree.right, earlier)
        if left is not None and right is not None:
            return left + right
    return None


def no_dice(node: ast.Node) -> bool:
    """Whether ``node`` is a branch of ``if()`` written ``0``: a roll of no dice
    (``if(flag, 2d6, 0)``), which the functions reading dice read as an empty roll."""
    node = ast.bare(node)
    return isinstance(node, ast.Num) and node.value == 0


def empty_roll(initial: bool) -> Rolled:
    """A roll of no dice (see :func:`no_dice`), as a dice term of no dice is seen whole."""
    return Rolled(0, (), initial=() if initial else None)


def unrolled_whole(value: Any, initial: bool) -> Rolled:
    """A roll seen whole none of whose dice were rolled, where the dice can't tell which
    branch of an ``if()`` was taken (``if(flag, first, 0)``), by the value its expression
    gave: the ``0`` branch is a roll of no dice, an earlier roll keeps its own."""
    if type(value) is int and value == 0:
        return empty_roll(initial)
    return as_rolled(value)


def _branch_dice(node: ast.Node, earlier: frozenset[str]) -> tuple[ast.Dice, ...] | None:
    """The dice terms of a branch of ``if()`` seen whole: none for a ``0`` (no dice)."""
    return () if no_dice(node) else whole_dice(node, earlier)


def addends(tree: ast.Binary) -> list[ast.Node]:
    """The rolls a sum adds up (``a + b + c``), in the order written; a part in parentheses
    or with a label is taken apart too."""
    out: list[ast.Node] = []
    stack: list[ast.Node] = [tree]
    while stack:
        node = ast.bare(stack.pop())
        if isinstance(node, ast.Binary):
            stack += [node.right, node.left]
        else:
            out.append(node)
    return out


def as_rolled(value: Any) -> Rolled:
    """An earlier roll's value as a whole roll (a total whose dice the rules don't read: no dice)."""
    return value if isinstance(value, Rolled) else Rolled(value, ())


def pool_rolled(pool: PoolRoll, initial: bool) -> Rolled:
    """A rolled dice term seen whole; ``initial``: with the dice of its first throw, where
    it keeps every die."""
    first = None
    if initial and all(d.kept for d in pool.dice):
        first = tuple([d.value for d in pool.dice if not d.added])
    return Rolled(pool.total, tuple([d.value for d in pool.dice if d.kept]), initial=first,
                  symbols=pool.kept_symbols(), shows=pool.kept_shows())


def rolled_whole(tree: ast.Node, pools: Mapping[int, PoolRoll], env: Mapping[str, Any],
                 initial: bool, earlier: frozenset[str]) -> Rolled | None:
    """The roll ``tree`` (seen whole) made, from the dice terms rolled (``pools``, by the id
    of their node) and the earlier rolls (``env``; ``earlier``: their names); None when its
    dice were not rolled (a branch of ``if()`` not taken) or, for an ``if()`` of earlier rolls
    and ``0`` alone, when the dice can't tell which branch was taken (the caller reads the
    value the expression gave: :func:`unrolled_whole`)."""
    tree = ast.bare(tree)
    if isinstance(tree, ast.Dice):
        pool = pools.get(id(tree))
        return None if pool is None else pool_rolled(pool, initial)
    if isinstance(tree, ast.Name):
        return as_rolled(env[tree.name])
    if no_dice(tree):  # the `0` branch of an if(): a roll of no dice
        return empty_roll(initial)
    if isinstance(tree, ast.Binary):
        parts = [rolled_whole(t, pools, env, initial, earlier) for t in addends(tree)]
        return None if any(p is None for p in parts) else joined(parts)  # type: ignore[arg-type]
    assert isinstance(tree, ast.Call), "whole_dice() admits dice terms, earlier rolls, if() and sums only"
    then, other = tree.args[1], tree.args[2]
    taken = [b for b in (then, other) if any(id(n) in pools for n in _branch_dice(b, earlier) or ())]
    if not taken:  # neither branch rolled dice: the one that may roll none was taken
        taken = [b for b in (then, other) if _may_roll_none(b)]
        if len(taken) != 1:
            return None
    return rolled_whole(taken[0], pools, env, initial, earlier)


def _may_roll_none(node: ast.Node) -> bool:
    """Whether a branch of a roll seen whole may be taken with no dice rolled: a ``0``, an
    earlier roll, an ``if()`` one of whose branches may (``if(k == 2, 1d10, 0)``, the last
    of a chain of ``if()`` choosing a die), or a sum of such; a dice term always rolls."""
    node = ast.bare(node)
    parts = conditional(node)
    if parts is not None:
        return _may_roll_none(parts[1]) or _may_roll_none(parts[2])
    if isinstance(node, ast.Binary):
        return all(_may_roll_none(t) for t in addends(node))
    return no_dice(node) or isinstance(node, ast.Name)
