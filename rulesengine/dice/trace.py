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

from functools import lru_cache
from typing import Any
from collections.abc import Callable, Mapping

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
    dice = pool.dice
    if pool.plain and not pool.labels:  # `3d6`: the faces as they fell
        return "[" + ", ".join([str(d[0]) for d in dice]) + "]"
    return "[" + ", ".join(format_die(d, pool.label(d.face)) for d in dice) + "]"


# How each kind of node is shown: (node, pools, env) -> text, one small function per kind.
_Seen = tuple[Mapping[int, PoolRoll], Mapping[str, Any]]


def _dice(n: ast.Dice, seen: _Seen) -> str:
    pool = seen[0].get(id(n))
    if pool is None:  # a branch of if() not taken: its dice were not rolled, shown as written
        text = dice_text(n)
        if not isinstance(n.count, ast.Num):  # its number of dice, as the names read here
            count = _shown(n.count, seen)
            text = (count if isinstance(n.count, ast.Group) else f"({count})") + text.removeprefix("(…)")
        if n.die is None and n.sides is not None:
            text = text.replace("d(…)", f"d({_shown(n.sides, seen)})", 1)
        return text
    shown = format_pool(pool)
    if isinstance(n.count, ast.Num) and n.die is not None:
        return shown
    # The number or size of the dice came from an expression: say which dice rolled.
    return f"{pool.text}{shown}"


def _set(n: ast.SetKeep, seen: _Seen) -> str:
    keeps = "".join(f"{k.kind}{k.n}" for k in n.keeps)
    items = ", ".join(_shown(i, seen) for i in n.items) + ("," if len(n.items) == 1 else "")
    pool = seen[0].get(id(n))
    return f"({items}){keeps}" + (format_pool(pool) if pool is not None else "")


def _operator(n: ast.Binary | ast.Compare | ast.Logic, seen: _Seen) -> str:
    return f"{_shown(n.left, seen)} {n.op} {_shown(n.right, seen)}"


_RENDER: Mapping[type, Any] = {
    ast.Num: lambda n, seen: str(n.value),
    ast.Str: lambda n, seen: repr(n.value),
    ast.Bool: lambda n, seen: format_value(n.value),
    ast.Name: lambda n, seen: f"{n.name}:{format_value(seen[1].get(n.name, '?'))}",
    ast.Dice: _dice,
    ast.Group: lambda n, seen: f"({_shown(n.inner, seen)})",
    ast.Labeled: lambda n, seen: f"{_shown(n.inner, seen)} {n.label}",
    ast.Binary: _operator,
    ast.Compare: _operator,
    ast.Logic: _operator,
    ast.Neg: lambda n, seen: f"-{_shown(n.operand, seen)}",
    ast.Not: lambda n, seen: f"not {_shown(n.operand, seen)}",
    ast.Call: lambda n, seen: f"{n.name}({', '.join(_shown(a, seen) for a in n.args)})",
    ast.SetKeep: _set,
    ast.PoolKeep: lambda n, seen: f"({_shown(n.inner, seen)}){''.join(k.text() for k in n.keeps)}",
}


def _shown(n: ast.Node, seen: _Seen) -> str:
    return _RENDER[type(n)](n, seen)


def render(node: ast.Node, pools: Mapping[int, PoolRoll], env: Mapping[str, Any]) -> str:
    """The expression with dice replaced by what they rolled (recursive: depth is bounded)."""
    return _shown(node, (pools, env))


@lru_cache(maxsize=1024)
def _one_line(text: str) -> str:
    """The expression as written, on one line."""
    return " ".join(text.split())


def trace(text: str, node: ast.Node, pools: Mapping[int, PoolRoll], env: Mapping[str, Any],
          total: Any, shown: str | None = None) -> str:
    """The one-line trace, made printable: a bot posts it as it is, and a label or a text
    value may hold a control character (``1d6 [fire\\a]``). ``shown``: what the value is
    said to be instead of ``total`` (the symbols a pool of symbol dice shows)."""
    return printable(f"{_one_line(text)} → {render(node, pools, env)} = "
                     f"{format_value(total) if shown is None else shown}")


TraceLine = Callable[[Mapping[int, PoolRoll], Mapping[str, Any], Any, "str | None"], str]


def line_maker(name: str, text: str, node: ast.Node) -> TraceLine:
    """How the trace line of one named roll is made (``natural: 1d20 → [14] = 14``): from the
    dice it rolled, the names it read, its value and, where given, what to say it is instead
    (the symbols a pool of symbol dice shows). For the commonest roll, one dice term, the
    parts that never change are made once, here."""
    def any_line(pools: Mapping[int, PoolRoll], env: Mapping[str, Any], total: Any, shown: str | None) -> str:
        return f"{name}: {trace(text, node, pools, env, total, shown)}"

    if not isinstance(node, ast.Dice):
        return any_line
    head = printable(f"{name}: {_one_line(text)} → ")
    fixed = isinstance(node.count, ast.Num) and node.die is not None
    key = id(node)

    def term_line(pools: Mapping[int, PoolRoll], env: Mapping[str, Any], total: Any, shown: str | None) -> str:
        pool = pools.get(key)
        if pool is None:
            return any_line(pools, env, total, shown)
        body = format_pool(pool) if fixed else pool.text + format_pool(pool)
        if shown is None and not pool.labels:  # numbers and the term's own text only: printable already
            return f"{head}{body} = {format_value(total)}"
        return head + printable(f"{body} = {format_value(total) if shown is None else shown}")

    return term_line
