"""Which values of a ``choose`` fail on every way of choosing or on none.

A roll works out every way's values, so a value that fails on one way fails the roll;
exact odds that work out only some ways (:class:`.choosing.DieByDie`, where the first
values of ``order`` add up over the dice) must fail there too, and can only where a value
that fails on one way fails on all of them. :func:`fails_alike` says so of an expression
from its tree, conservatively (``False`` where it can't tell):

* what reads neither the dice (``chosen``, ``rest``) nor the values made by the choice is
  worked out alike on every way;
* so is the number of dice chosen or left, ``count(chosen)``, ``count(rest)``: every way
  chooses as many;
* ``highest(rest)``, ``lowest(chosen)``, ``largest_die(rest)`` (their dice alone, declared
  ``fails_without_dice`` in dice/builtins.py) fail only where those dice are none, or are
  not of a pool of mixed dice: alike on every way, since every way leaves as many;
* a built-in declared ``per_die`` never fails on the dice (``count(rest, 6)``,
  ``sum(chosen)``, ``symbols(chosen, 'success')``, its other arguments the same on every
  way); one declared ``never_fails`` (``max``, ``abs``, ``floor``…) fails only where an
  argument does; so do ``+``, ``-``, a comparison and ``not``;
* ``*`` fails past ``max_magnitude``: alike where one side is a number written out (at
  most :data:`MOST_FACTOR`) and the other has no product in it and reads the dice alone
  (so no way's product comes near it); ``/`` and ``%`` fail on a divisor of 0: alike where the divisor is
  the same on every way;
* ``if(c, a, b)``, ``a and b``, ``a or b`` work out only one branch: alike where the
  condition is the same on every way and each branch fails alike (``if(count(rest) > 0,
  largest_die(rest), 4)``), or where neither branch can fail at all.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..dice import ast
from ..dice.builtins import BUILTINS, COUNTS, conditional

DICE = frozenset({"chosen", "rest"})
MOST_FACTOR = 1000
"""The largest number written out that a value may multiply a sum by and still be judged
(here, and as adding up: :class:`.choosing.DieByDie`): the product stays far from
``max_magnitude``."""


def fails_alike(node: ast.Node, made: Collection[str]) -> bool:
    """Whether ``node``, a value of a choice whose values are named ``made``, fails on every
    way of choosing or on none."""
    return _Ways(frozenset(made)).alike(node)


class _Ways:
    """The three judgements, over one choice's names."""

    def __init__(self, made: frozenset[str]) -> None:
        self.made = made
        self.varying = DICE | made

    def fixed(self, node: ast.Node) -> bool:
        """It reads nothing a way changes: worked out alike (its value too) on every way."""
        return not ast.names(node) & self.varying

    def same(self, node: ast.Node) -> bool:
        """Its value (or failure) is the same on every way: what it is made of is."""
        node = ast.bare(node)
        if self.fixed(node) or _dice_counted(node):
            return True
        parts = ast.children(node)
        return not isinstance(node, ast.Name) and bool(parts) and all(self.same(p) for p in parts)

    def safe(self, node: ast.Node) -> bool:
        """It never fails, on any way."""
        node = ast.bare(node)
        if isinstance(node, (ast.Num, ast.Str, ast.Bool)):
            return True
        if isinstance(node, ast.Name):
            return True  # the dice, a value made (worked out already), an input or a value
        if self._per_die(node):
            return True
        branches = _branches(node)
        if branches is not None:
            return all(self.safe(p) for p in branches)
        if isinstance(node, ast.Binary) and node.op == "*":
            return self._small_product(node, self.safe)
        parts = _operands(node)
        return parts is not None and all(self.safe(p) for p in parts)

    def alike(self, node: ast.Node) -> bool:
        """It fails on every way or on none."""
        node = ast.bare(node)
        if self.fixed(node) or self.safe(node):
            return True  # (fixed: worked out alike, failing or not, on every way)
        if isinstance(node, ast.Call) and len(node.args) == 1 and _on_dice(node.args[0]):
            builtin = BUILTINS.get(node.name)
            if builtin is not None and builtin.fails_without_dice:
                return True
        branches = _branches(node)
        if branches is not None:
            decide, *taken = branches
            return self.alike(decide) and (
                (self.same(decide) and all(self.alike(b) for b in taken)) or all(self.safe(b) for b in taken))
        if isinstance(node, ast.Binary) and node.op in ("/", "%"):
            return self.same(node.right) and self.alike(node.left)
        if isinstance(node, ast.Call) and _rounds_a_division(node):
            division = ast.bare(node.args[0])
            assert isinstance(division, ast.Binary)
            return self.same(division.right) and self.alike(division.left)
        if isinstance(node, ast.Binary) and node.op == "*":
            return self._small_product(node, self.alike)
        parts = _operands(node)
        return parts is not None and all(self.alike(p) for p in parts)

    def _per_die(self, node: ast.Node) -> bool:
        """``count(rest, 6)``, ``sum(chosen)``: a per-die built-in of the dice, its other
        arguments the same on every way."""
        if not isinstance(node, ast.Call) or not node.args or not _on_dice(node.args[0]):
            return False
        builtin = BUILTINS.get(node.name)
        return builtin is not None and builtin.per_die and all(self.fixed(a) for a in node.args[1:])

    def _small_product(self, node: ast.Binary, judge: Callable[[ast.Node], bool]) -> bool:
        """A number written out times what has no product in it and reads the dice alone, no
        input or value (so no way's product is near ``max_magnitude``), judged by ``judge``."""
        return any(small_number(a) and judge(b) and not _has_product(b) and ast.names(b) <= DICE
                   for a, b in ((node.left, node.right), (node.right, node.left)))


def _on_dice(node: ast.Node) -> bool:
    node = ast.bare(node)
    return isinstance(node, ast.Name) and node.name in DICE


def _dice_counted(node: ast.Node) -> bool:
    """``count(chosen)``, ``count(rest)``: how many dice, the same on every way."""
    if not isinstance(node, ast.Call) or len(node.args) != 1:
        return False
    builtin = BUILTINS.get(node.name)
    return builtin is not None and builtin.reads == COUNTS and _on_dice(node.args[0])


def _branches(node: ast.Node) -> tuple[ast.Node, ...] | None:
    """An ``if()`` (condition, then, else) or ``and``/``or`` (left, right): what decides,
    then what only one way of deciding works out; None for anything else."""
    parts = conditional(node) if isinstance(node, ast.Call) else None
    if parts is not None:
        return parts
    if isinstance(node, ast.Logic):
        return node.left, node.right
    return None


def _operands(node: ast.Node) -> tuple[ast.Node, ...] | None:
    """The parts of a node that fails only where one of them does (each worked out); None
    for a node that may fail of itself or works out only some of its parts."""
    if isinstance(node, ast.Binary) and node.op in ("+", "-"):
        return node.left, node.right
    if isinstance(node, (ast.Neg, ast.Not)):
        return (node.operand,)
    if isinstance(node, ast.Compare):
        return node.left, node.right
    if isinstance(node, ast.Call) and conditional(node) is None:
        builtin = BUILTINS.get(node.name)
        if builtin is not None and builtin.never_fails and not _rounds_a_division(node):
            return node.args
    return None


def _rounds_a_division(node: ast.Call) -> bool:
    """``floor(a / b)``: the division is worked out by the call (a divisor of 0 fails it)."""
    builtin = BUILTINS.get(node.name)
    first = ast.bare(node.args[0]) if node.args else None
    return builtin is not None and builtin.rounding is not None and isinstance(first, ast.Binary) \
        and first.op == "/"


def small_number(node: ast.Node) -> bool:
    """A number written out (or its negative), at most :data:`MOST_FACTOR`."""
    node = ast.bare(node)
    if isinstance(node, ast.Neg):
        node = ast.bare(node.operand)
    return isinstance(node, ast.Num) and node.value <= MOST_FACTOR


def _has_product(node: ast.Node) -> bool:
    return any(isinstance(n, ast.Binary) and n.op == "*" for n in ast.walk(node))
