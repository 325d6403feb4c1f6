"""Turning a rolled expression into the one-line trace players read.

``4d6kh3 → [6, 5, 4, ~~2~~] = 15``: the expression as typed, an arrow, the same
expression with every dice term replaced by its dice, and the total. In a pool:

* ``~~2~~`` a die that was dropped (keep/drop) — or, before a face, a face rerolled away;
* ``6!`` a die that exploded; ``14 (6+6+2)`` a die that compounded;
* ``5→4`` a die whose value differs from its face (penetration −1, ``min``/``max``);
* ``8+`` / ``1-`` a die counted as a success / a failure.

Rendering is separate from rolling: the roller only records
:class:`~rulesengine.dice.pool.PoolRoll` values; this module only formats them.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ..echo import printable
from . import ast
from .context import dice_text
from .pool import DieRoll, PoolRoll


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_die(d: DieRoll, label: str | None = None) -> str:
    """One die; ``label``: the label printed on its face, shown instead of the number."""
    if d.parts:
        core = f"{d.value} ({'+'.join(map(str, d.parts))})"
    else:
        core = (str(d.face) if label is None else label) + ("!" if d.exploded else "")
        if d.value != d.face:
            core += f"→{d.value}"
    if d.success:
        core += "+"
    if d.failure:
        core += "-"
    if not d.kept:
        core = f"~~{core}~~"
    if d.rerolled:
        core = " ".join(f"~~{r}~~" for r in d.rerolled) + " " + core
    return core


def format_pool(pool: PoolRoll) -> str:
    """The dice of a rolled term; a face printed with a label shows the label (``hit``)."""
    return "[" + ", ".join(format_die(d, pool.label(d.face)) for d in pool.dice) + "]"


def render(node: ast.Node, pools: Mapping[int, PoolRoll], env: Mapping[str, Any]) -> str:
    """The expression with dice replaced by what they rolled (recursive: depth is bounded)."""

    def r(n: ast.Node) -> str:
        if isinstance(n, ast.Num):
            return str(n.value)
        if isinstance(n, ast.Str):
            return repr(n.value)
        if isinstance(n, ast.Bool):
            return format_value(n.value)
        if isinstance(n, ast.Name):
            return f"{n.name}:{format_value(env.get(n.name, '?'))}"
        if isinstance(n, ast.Dice):
            pool = pools.get(id(n))
            if pool is None:  # a branch of if() not taken: its dice were not rolled
                return dice_text(n)
            shown = format_pool(pool)
            if isinstance(n.count, ast.Num) and n.die is not None:
                return shown
            # The number or size of the dice came from an expression: say which dice rolled.
            return f"{pool.text if pool is not None else r(n.count)}{shown}"
        if isinstance(n, ast.Group):
            return f"({r(n.inner)})"
        if isinstance(n, ast.Labeled):
            return f"{r(n.inner)} {n.label}"
        if isinstance(n, (ast.Binary, ast.Compare, ast.Logic)):
            return f"{r(n.left)} {n.op} {r(n.right)}"
        if isinstance(n, ast.Neg):
            return f"-{r(n.operand)}"
        if isinstance(n, ast.Not):
            return f"not {r(n.operand)}"
        if isinstance(n, ast.Call):
            return f"{n.name}({', '.join(r(a) for a in n.args)})"
        if isinstance(n, ast.SetKeep):
            keeps = "".join(f"{k.kind}{k.n}" for k in n.keeps)
            items = ", ".join(r(i) for i in n.items) + ("," if len(n.items) == 1 else "")
            pool = pools.get(id(n))
            return f"({items}){keeps}" + (format_pool(pool) if pool is not None else "")
        raise AssertionError(n)  # pragma: no cover

    return r(node)


def trace(text: str, node: ast.Node, pools: Mapping[int, PoolRoll], env: Mapping[str, Any],
          total: Any, shown: str | None = None) -> str:
    """The one-line trace, made printable: a bot posts it as it is, and a label or a text
    value may hold a control character (``1d6 [fire\\a]``). ``shown``: what the value is
    said to be instead of ``total`` (the symbols a pool of symbol dice shows)."""
    return printable(f"{' '.join(text.split())} → {render(node, pools, env)} = "
                     f"{format_value(total) if shown is None else shown}")
