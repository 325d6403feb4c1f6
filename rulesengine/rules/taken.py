"""A check as the values known before its roll make it: each ``if()`` whose condition those
values decide replaced by the branch taken, and each ``and``/``or`` that its left side decides
so (false and …, true or …) by that value.

Rules as books state them switch on inputs: a pool of no dice rolls a chance die
(``first: if(pool == 0, 1d10, (pool)d10!>=8cs>=8)``), a rote re-rolls only when chosen
(``if(rote, …, 0)``), a dramatic failure holds only for the chance die (``pool == 0 and
first == 1``). Once the inputs are given, what the rules can read of the rolls is the rules
taken, and exact odds work out the rolls by what is read of them (a push read as one sum,
views of the dice): read through the untaken branch too, a rote's re-rolls were joined to
every reading of the first throw (164,494 joint values at 15 dice), where taken they add up
die by die. The answers are the same: ``if()`` reads only the branch taken, and ``and``/``or``
only their left side where it decides (:mod:`rulesengine.dice.sampling`), so the check taken
resolves every joint value as the check does.

Nothing is decided here: the caller says which conditions hold (``decide``), and compiles
the trees made (``compile``); this rewrites the check's expressions and works out again
what its rules read of its rolls, as the builder does. A check that chooses dice, or whose
rolls a procedure's rules read too, is left as it is.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..dice import ast
from ..dice.builtins import conditional
from ..records import replace
from .faces import with_reads
from .model import Check, Expr, Let, OutcomeRule

Decide = Callable[[ast.Node], "bool | None"]
"""A condition's value where the values known before rolling decide it; None where they don't."""

Compile = Callable[[ast.Node, str], Callable[[Any], Any]]
"""A tree of an expression (with the expression's text) compiled for plain values."""


def conditions(check: Check) -> list[ast.Node]:
    """The conditions :func:`taken` asks about, in the order it meets them: each ``if()``'s
    and the left side of each ``and``/``or``, in the check's expressions it rewrites, none
    inside a dice term. Empty where the check is one it leaves as it is."""
    if not _rewritable(check):
        return []
    found: list[ast.Node] = []
    for e in _exprs(check):
        for node in _outside_dice(e.tree):
            parts = conditional(node)
            if parts is not None:
                found.append(parts[0])
            elif isinstance(node, ast.Logic):
                found.append(node.left)
    return found


def taken(check: Check, decide: Decide, compile: Compile) -> Check:
    """``check`` with the branches ``decide`` settles taken (see the module); the check itself
    where nothing is settled."""
    if not _rewritable(check):
        return check
    changed: dict[int, Expr] = {}
    rolls = {id(e) for _, e in check.rolls}
    for e in _exprs(check):
        tree = _take(e.tree, decide, id(e) in rolls)
        if tree is not e.tree:
            changed[id(e)] = Expr(e.text, tree, e.pointer, compile(tree, e.text), ast.names(tree), e.source_offset)
    if not changed:
        return check

    def new(e: Expr | None) -> Expr | None:
        return None if e is None else changed.get(id(e), e)

    out = replace(
        check,
        lets=tuple(replace(let, expr=new(let.expr)) if let.expr is not None else let for let in check.lets),
        rolls=tuple((name, new(e) or e) for name, e in check.rolls),
        result=new(check.result), result_sign=new(check.result_sign),
        outcomes=tuple(_outcome(rule, new) for rule in check.outcomes),
        tags=tuple(replace(t, when=new(t.when) or t.when) for t in check.tags))
    return with_reads(out)


def _rewritable(check: Check) -> bool:
    """Not a check that chooses dice (its choice reads every die), nor one whose rolls a
    procedure's rules read too (their views are the procedure's as well)."""
    return check.choose is None and not check.after_choice and len(check.view_sources) <= 1


def _exprs(check: Check) -> list[Expr]:
    """The expressions :func:`taken` rewrites: the rolls, the values read after the roll that
    are not reported, the result and its sign, the outcome rules and the tags."""
    out = [e for _, e in check.rolls] + [let.expr for let in _rewritten_lets(check) if let.expr is not None]
    out += [e for e in (check.result, check.result_sign) if e is not None]
    for rule in check.outcomes:
        out += [e for e in (rule.when, rule.result, rule.success) if isinstance(e, Expr)]
    return out + [t.when for t in check.tags]


def _rewritten_lets(check: Check) -> list[Let]:
    """The values :func:`taken` rewrites: those read after the roll (one read before it reads
    no roll) and not reported (a reported value read straight from a table lists the table's
    values, as written)."""
    return [let for let in check.lets if let.after_roll and let.name not in check.report]


def _outcome(rule: OutcomeRule, new: Callable[[Expr | None], Expr | None]) -> OutcomeRule:
    success = new(rule.success) if isinstance(rule.success, Expr) else rule.success
    return replace(rule, when=new(rule.when), result=new(rule.result), success=success)


def _outside_dice(node: ast.Node) -> list[ast.Node]:
    """Every node of the tree but those inside a dice term (its count, sides and conditions)
    or a set or pool of kept dice: where :func:`_take` rewrites."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        if not isinstance(n, (ast.Dice, ast.SetKeep, ast.PoolKeep)):
            stack.extend(reversed(ast.children(n)))
    return out


def _take(node: ast.Node, decide: Decide, roll: bool = False) -> ast.Node:
    """``node`` with the branches ``decide`` settles taken; the same node where none is. In a
    roll (``roll``), a branch with no dice is a roll of none (``if(rote, (n)d10, 0)``, read by
    ``count()``), not the number it is alone: such an ``if()`` is left as written."""
    if isinstance(node, ast.Dice):
        return node
    parts = conditional(node)
    if parts is not None:
        held = decide(parts[0])
        if held is None:  # decided once its own parts are taken (`edge or roll <= limit`, edge true)
            cond = ast.bare(_take(parts[0], decide, roll))
            held = cond.value if isinstance(cond, ast.Bool) else None
        branch = None if held is None else parts[1] if held else parts[2]
        if branch is not None and not (roll and not ast.has_dice(branch)):
            return _take(branch, decide, roll)
        if branch is not None:
            return node
    if isinstance(node, ast.Logic):
        held = decide(node.left)
        if held is (node.op == "or"):  # false and …, true or …: decided by the left side
            return ast.Bool(held, node.span)
    if isinstance(node, ast.Call):
        args = tuple(_take(a, decide, roll) for a in node.args)
        return node if all(a is b for a, b in zip(args, node.args, strict=True)) else replace(node, args=args)
    if isinstance(node, (ast.SetKeep, ast.PoolKeep)):
        return node
    fields = ("left", "right") if isinstance(node, (ast.Binary, ast.Compare, ast.Logic)) else \
        ("operand",) if isinstance(node, (ast.Neg, ast.Not)) else \
        ("inner",) if isinstance(node, (ast.Group, ast.Labeled)) else ()
    made = {f: _take(getattr(node, f), decide, roll) for f in fields}
    return node if all(made[f] is getattr(node, f) for f in fields) else replace(node, **made)
