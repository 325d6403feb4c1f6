"""The functions a ruleset's tables add to its expressions: one per table, named after it,
so that ``difficulty('hard')`` (a lookup), ``bonus(level)`` (ranges), ``target('hard',
'quick')`` (a grid) and ``tier(degree)`` (tiers) look the table up, with a clear error (and
the nearest label) for a key it does not have.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable

from ..dice.functions import FUNCTIONS, OpError
from ..dice.parser import closest
from .model import Grid, Ladder, Ranges, RulesetModel


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
