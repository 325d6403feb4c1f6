"""Which rolls of a check must keep their single faces: those a function that looks at single
dice (count, highest, lowest) is given, directly or through a name that may hold the roll
whole. The runner keeps faces only for these, so every other roll can be summed as it goes.
"""

from __future__ import annotations

from ..dice import ast
from .model import Check


POOL_FUNCTIONS = frozenset({"count", "highest", "lowest"})  # the functions that look at single dice


def faces_needed(check: Check, exprs: list, aliases: dict[str, str] | None = None) -> set[str]:
    """The rolls of ``check`` passed to a function that looks at single dice (count, highest,
    lowest) in ``exprs``: by name, or by a name that may hold the roll whole (a let, the
    result, ``aliases`` such as a procedure's ``roller_result``: the same as ``result``),
    through parentheses, a label or a branch of ``if()``, as the rolling path passes them."""
    carries: dict[str, set[str]] = {n: {n} for n, _ in check.rolls}
    for let in check.lets:  # in order: a let reads only the names before it
        held = set()
        for e in ([let.expr] if let.expr is not None else []) + [c.value for c in let.best_of]:
            held |= _carried(e, carries)
        if held:
            carries[let.name] = held
    held = set()
    for result in [check.result] + [o.result for o in check.outcomes]:
        held |= _carried(result, carries)
    if held:
        carries["result"] = held
    for alias, name in (aliases or {}).items():
        if name in carries:
            carries[alias] = carries[name]
    out: set[str] = set()
    for e in exprs:
        if e is None:
            continue
        for node in ast.walk(e.tree):
            if isinstance(node, ast.Call) and node.name in POOL_FUNCTIONS and node.args:
                out |= _carried(node.args[0], carries)
    return out


def _carried(e, carries: dict[str, set[str]]) -> set[str]:
    """The rolls whose value ``e`` (an Expr or a node) may be, whole."""
    if e is None:
        return set()
    out: set[str] = set()
    stack = [getattr(e, "tree", e)]
    while stack:
        node = stack.pop()
        while isinstance(node, (ast.Group, ast.Labeled)):
            node = node.inner
        if isinstance(node, ast.Name):
            out |= carries.get(node.name, set())
        elif isinstance(node, ast.Call) and node.name == "if" and len(node.args) == 3:
            stack.extend(node.args[1:])
    return out
