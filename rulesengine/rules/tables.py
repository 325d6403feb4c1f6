"""A table of the ruleset file → its model: a ladder, a ranges table, a grid or tiers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..codes import E_BAD_TABLE, E_DUPLICATE, E_NUMBER_AS_TEXT, E_UNKNOWN_REFERENCE
from ..dice import ast
from ..dice.parser import closest
from .context import BuildContext
from .scope import escape_pointer
from .model import Expr, Grid, Ladder, RangeRow, Ranges, Table, Tier, Tiers
from .ranges import overlap_hint, overlapping_ranges, range_text


def build_table(builder: BuildContext, name: str, spec: dict, ptr: str) -> Ladder | Ranges | Grid | Tiers:
    """One table of the file; its mistakes are reported through ``builder.error`` at their
    place (overlapping or empty ranges, repeated labels, rows of the wrong length, tiers out
    of order), and the table is made all the same so that the rest of the file is checked too."""
    desc = spec.get("description", "")
    if "ladder" in spec:
        entries = tuple((str(k), v) for k, v in spec["ladder"].items())
        return Ladder(name, desc, entries)
    if "ranges" in spec:
        rows: list[RangeRow] = []
        for i, row in enumerate(spec["ranges"]):
            low, high = row.get("min"), row.get("max")
            if low is not None and high is not None and low > high:
                builder.error(E_BAD_TABLE, f"range {low}..{high} is empty", f"{ptr}/ranges/{i}",
                              f"min is the lowest key of the row: min: {high}, max: {low}")
            value = row["value"]
            if isinstance(value, str) and _NUMBER.match(value):
                number = int(value)
                builder.error(E_NUMBER_AS_TEXT, f"table '{name}': the value {value!r} is text (it is in quotes), "
                              f"so it can't be added or compared as the number {number}",
                              f"{ptr}/ranges/{i}/value", f"write the number without quotes: value: {number}")
            rows.append(RangeRow(low, high, value))
        for i, j in overlapping_ranges(rows):
            builder.error(E_BAD_TABLE, f"ranges {range_text(rows[i])} and {range_text(rows[j])} overlap",
                          f"{ptr}/ranges/{j}", overlap_hint(rows[i], rows[j]))
        return Ranges(name, desc, tuple(rows))
    if "grid" in spec:
        grid = spec["grid"]
        columns = tuple(grid["columns"])
        if len(set(columns)) != len(columns):
            repeated = ", ".join(sorted({str(c) for c in columns if columns.count(c) > 1}))
            builder.error(E_DUPLICATE, f"table '{name}' repeats a column", f"{ptr}/grid/columns",
                          f"give each column its own name (repeated: {repeated})")
        grid_rows = []
        for label, values in grid["rows"].items():
            if len(values) != len(columns):
                builder.error(E_BAD_TABLE, f"row '{label}' has {len(values)} values for {len(columns)} columns",
                              f"{ptr}/grid/rows/{escape_pointer(label)}",
                              "give one value for each column, in order: " + ", ".join(map(str, columns)))
            grid_rows.append((str(label), tuple(values)))
        return Grid(name, desc, columns, tuple(grid_rows))
    tiers = []
    seen = set()
    for i, t in enumerate(spec["tiers"]):
        if t["label"] in seen:
            builder.error(E_DUPLICATE, f"tier label '{t['label']}' is used twice", f"{ptr}/tiers/{i}/label",
                          "give each tier its own label")
        seen.add(t["label"])
        tiers.append(Tier(t["min"], t["label"], t.get("description", "")))
    mins = [t.min for t in tiers]
    if mins != sorted(mins) or len(set(mins)) != len(mins):
        builder.error(E_BAD_TABLE, "tiers must be listed from the lowest minimum up, each minimum once",
                      f"{ptr}/tiers", "in this order: " + ", ".join(f"{t.label} (min {t.min})"
                                                                    for t in sorted(tiers, key=lambda t: t.min)))
    return Tiers(name, desc, tuple(tiers))


_NUMBER = re.compile(r"\s*[+-]?\d+\s*\Z")
"""Text that reads as a whole number (``"+3"``, ``"-1"``, ``"2"``): in a table, a number
written in quotes by mistake."""


def check_table_keys(builder: BuildContext, tables: Mapping[str, Table], exprs: Iterable[Expr]) -> None:
    """A ranges table whose values name the rows (or columns) of a grid, or the labels of a
    ladder, that an expression looks them up in (``saves(save_row(level), save)``): every
    such value must be one of them, else some input fails that lookup. Reported at the
    value, once."""
    said: set[tuple[str, int]] = set()
    for e in exprs:
        for node in ast.walk(e.tree):
            if not isinstance(node, ast.Call) or node.name not in tables:
                continue
            target = tables[node.name]
            for position, arg in enumerate(node.args):
                while isinstance(arg, (ast.Group, ast.Labeled)):
                    arg = arg.inner
                if not isinstance(arg, ast.Call):
                    continue
                source = tables.get(arg.name)
                if not isinstance(source, Ranges):
                    continue
                if isinstance(target, Grid):
                    keys, what = ([r for r, _ in target.rows], "row") if position == 0 else \
                        (list(target.columns), "column")
                elif isinstance(target, Ladder):
                    keys, what = [k for k, _ in target.entries], "label"
                else:
                    continue
                for i, row in enumerate(source.rows):
                    if not isinstance(row.value, str) or row.value in keys or (arg.name, i) in said:
                        continue
                    said.add((arg.name, i))
                    near = closest(row.value, keys)
                    builder.error(E_UNKNOWN_REFERENCE,
                                  f"table '{arg.name}' gives '{row.value}', which '{e.text}' looks up in table "
                                  f"'{node.name}', but that table has no {what} '{row.value}'",
                                  f"/tables/{escape_pointer(arg.name)}/ranges/{i}/value",
                                  f"did you mean '{near}'?" if near else f"{what}s: " + ", ".join(keys))

