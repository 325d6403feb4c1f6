"""The functions a ruleset's tables add to its expressions: one per table, named after it,
so that ``difficulty('hard')`` (a lookup), ``bonus(level)`` (ranges), ``target('hard',
'quick')`` (a grid) and ``tier(degree)`` (tiers) look the table up, with a clear error (and
the nearest label) for a key it does not have.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable

from ..dice import ast
from ..dice.builtins import FUNCTIONS
from ..dice.functions import OpError
from ..dice.parser import closest
from .model import Check, Expr, Grid, Ladder, Ranges, RulesetModel


def ruleset_functions(model: RulesetModel) -> dict[str, tuple[Callable[..., Any], int, int | None]]:
    """Every function a ruleset's expressions may call: the dice language's own and one per
    table. Built once per loaded ruleset; checks, procedures and validation share it."""
    return {**FUNCTIONS, **table_functions(model.tables)}


def table_functions(tables: dict) -> dict[str, tuple[Callable[..., Any], int, int | None]]:
    """One function per table, named after it: ``difficulty('hard')`` (a lookup),
    ``bonus(level)`` (ranges), ``target('hard', 'quick')`` (a grid), ``tier(degree)`` (tiers)."""
    out: dict[str, tuple[Callable[..., Any], int, int | None]] = {}
    for name, table in tables.items():
        out[name] = _table_function(name, table)
    return out


def _outside(key: Any, name: str) -> str:
    return f"{key} is outside the table {name}"


_OUTSIDE = re.compile(r"(-?\d+) is outside the table (\S+)\Z")


def outside_table(message: str) -> tuple[int, str] | None:
    """The key and the table of a ranges table's "outside the table" message (validate
    points it at the table's rows or at an input's bound), else None."""
    m = _OUTSIDE.match(message)
    return (int(m.group(1)), m.group(2)) if m else None


def _label(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise OpError(f"{what} needs a label in quotes, not {value!r}")
    return value


def _table_function(name: str, table) -> tuple[Callable[..., Any], int, int | None]:
    if isinstance(table, Ladder):
        entries = dict(table.entries)

        def ladder(label: Any) -> int:
            key = _label(label, f"{name}()")
            if key not in entries:
                near = closest(key, list(entries))
                raise OpError(f"'{key}' is not in the table {name}",
                              f"did you mean '{near}'?" if near else "labels: " + ", ".join(entries))
            return entries[key]

        return ladder, 1, 1
    if isinstance(table, Ranges):
        rows = table.rows

        def ranges(key: Any) -> Any:
            if isinstance(key, bool) or not isinstance(key, int):
                key = getattr(key, "total", key)
            for row in rows:
                if (row.low is None or key >= row.low) and (row.high is None or key <= row.high):
                    return row.value
            raise OpError(_outside(key, name))

        return ranges, 1, 1
    if isinstance(table, Grid):
        columns = list(table.columns)
        # A row of the wrong length is the builder's E505; not strict here, so that the
        # lookup can still be made and the file's other mistakes found in the same run.
        grid = {label: dict(zip(columns, values, strict=False)) for label, values in table.rows}

        def lookup(row: Any, column: Any) -> int:
            r, c = _label(row, f"{name}()"), _label(column, f"{name}()")
            if r not in grid:
                near = closest(r, list(grid))
                raise OpError(f"'{r}' is not a row of the table {name}",
                              f"did you mean '{near}'?" if near else "rows: " + ", ".join(grid))
            if c not in grid[r]:
                raise OpError(f"'{c}' is not a column of the table {name}", "columns: " + ", ".join(columns))
            return grid[r][c]

        return lookup, 2, 2
    tiers = table.tiers

    def tier(value: Any) -> str:
        n = getattr(value, "total", value)
        label = ""
        for t in tiers:
            if n >= t.min:
                label = t.label
        return label

    return tier, 1, 1


def table_values(table: Any) -> tuple[Any, ...]:
    """Every value a table's function can give, as the table declares them: a ladder's
    numbers, a ranges table's row values (its bands), a grid's numbers, a tiers table's labels
    in the book's order ('' below every tier is not declared: it is what no tier gives)."""
    if isinstance(table, Ladder):
        found = [v for _, v in table.entries]
    elif isinstance(table, Ranges):
        found = [r.value for r in table.rows]
    elif isinstance(table, Grid):
        found = [v for _, row in table.rows for v in row]
    else:
        found = [t.label for t in table.tiers]
    return tuple(dict.fromkeys(found))


def read_values(model: RulesetModel, e: Expr | None) -> tuple[Any, ...]:
    """The values an expression read straight from a table can take (``effect_name(...)``:
    the table's, see :func:`table_values`); none for any other expression."""
    if e is None:
        return ()
    tree = ast.bare(e.tree)
    if isinstance(tree, ast.Call) and tree.name in model.tables:
        return table_values(model.tables[tree.name])
    return ()


def declared_values(model: RulesetModel, check: Check) -> dict[str, tuple[Any, ...]]:
    """For each value ``check`` reports whose possible values are written in the ruleset, those
    values: a choice input's choices, a let read straight from a table (:func:`read_values`).
    Exact odds list each of them, with probability 0 where it can't happen."""
    out: dict[str, tuple[Any, ...]] = {}
    inputs = {i.name: i for i in check.inputs}
    lets = {let.name: let for let in check.lets}
    for name in check.report:
        if name in inputs and inputs[name].type == "choice":
            out[name] = tuple(inputs[name].choices)
        elif name in lets and read_values(model, lets[name].expr):
            out[name] = read_values(model, lets[name].expr)
    return out
