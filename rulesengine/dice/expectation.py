"""The exact mean of an expression whose explosions are unbounded, where it is a rational
number whatever the depth: a sum of dice terms, numbers and names, each term multiplied by
a number at most. Exact odds follow each explosion to a depth and report the rest as
truncated, so the mean over the mass they worked out is a little short; the mean of the
unbounded roll is a geometric series, summed here in closed form (issue 14, gap 3).

A die that explodes with chance p on a face adds another die that may explode again: the
expected number of dice one die becomes is 1/(1 − p), each worth the same on average. So
``!`` is m/(1 − p) (m the mean value or score of one die), ``!p`` is m + p·m'/(1 − p) (m'
the mean of a die worth one less) and ``!!`` (not clamped, not counted: its value is the
plain sum of its faces) is m/(1 − p). Keeps that drop dice, clamps of a compounded die and
anything not linear (comparisons, functions, tables) have no such form: None."""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from . import ast
from .dist import Budget, BudgetExceeded
from .pool import PoolSpec
from .pool_odds import face_dist


def exact_mean(tree: ast.Node, env: Mapping[str, Any], budget: Budget) -> Fraction | None:
    """The mean of ``tree``'s value, explosions followed forever; None where it has no
    closed form here (see the module), or where working out a die's faces would go over
    ``budget`` (a mean is a nicety: then the odds keep the mean of what they worked out)."""
    try:
        return _mean(tree, env, budget)
    except BudgetExceeded:
        return None


def _mean(tree: ast.Node, env: Mapping[str, Any], budget: Budget) -> Fraction | None:
    if isinstance(tree, (ast.Group, ast.Labeled)):
        return _mean(tree.inner, env, budget)
    if isinstance(tree, ast.Num):
        return Fraction(tree.value)
    if isinstance(tree, ast.Name):
        v = env.get(tree.name)  # a number, or a roll's own mean (a Fraction) given by the caller
        return Fraction(v) if isinstance(v, (int, Fraction)) and not isinstance(v, bool) else None
    if isinstance(tree, ast.Neg):
        inner = _mean(tree.operand, env, budget)
        return None if inner is None else -inner
    if isinstance(tree, ast.Binary) and tree.op in ("+", "-", "*"):
        left, right = _mean(tree.left, env, budget), _mean(tree.right, env, budget)
        if left is None or right is None:
            return None
        if tree.op == "+":
            return left + right
        if tree.op == "-":
            return left - right
        # a product is linear only when one side is a number, not a roll
        if _constant(tree.left) or _constant(tree.right):
            return left * right
        return None
    if isinstance(tree, ast.Dice):
        return _term_mean(tree, env, budget)
    return None


def _constant(tree: ast.Node) -> bool:
    return not any(isinstance(n, (ast.Dice, ast.SetKeep)) for n in ast.walk(tree))


def _term_mean(node: ast.Dice, env: Mapping[str, Any], budget: Budget) -> Fraction | None:
    if node.die is None or ast.condition_exprs(node):
        return None  # the die or a condition comes from an expression: not here
    count = _mean(node.count, env, budget)
    if count is None or count.denominator != 1 or not _constant(node.count):
        return None
    n = int(count)
    spec = PoolSpec.of(node)
    if spec.reroll_rank is not None:
        return None  # which dice are rerolled depends on them all
    if spec.keeps and (spec.explode in ("explode", "penetrate", "once") or spec.by_face
                       or spec.kept_range(n) != (0, n)):
        return None  # a keep that drops dice, or one over a pool that explosions grow
    if spec.explode == "compound" and (spec.counting or spec.by_face or spec.low is not None or spec.high is not None):
        return None
    faces = face_dist(spec, budget).probabilities()
    p = sum((q for f, q in faces.items() if spec.explode is not None and spec.explodes(f)), Fraction(0))
    if p >= 1:
        return None
    worth = sum((q * spec.worth(spec.clamp(f)) for f, q in faces.items()), Fraction(0))
    if spec.explode == "compound":
        worth = sum((q * f for f, q in faces.items()), Fraction(0))
    if spec.explode == "penetrate":
        less = sum((q * spec.worth(spec.clamp(f - 1)) for f, q in faces.items()), Fraction(0))
        return n * (worth + p * less / (1 - p))
    if spec.explode == "once":  # a die that explodes adds one more, which doesn't
        return n * worth * (1 + p)
    return n * worth / (1 - p)
