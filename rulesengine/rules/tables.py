"""A table of the ruleset file → its model: a ladder, a ranges table, a grid or tiers."""

from __future__ import annotations

from typing import Any

from ..codes import E_BAD_TABLE, E_DUPLICATE
from .model import Grid, Ladder, RangeRow, Ranges, Tier, Tiers
from .ranges import overlapping_ranges, range_text
from .scope import escape_pointer


def build_table(builder: Any, name: str, spec: dict, ptr: str) -> Ladder | Ranges | Grid | Tiers:
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
                builder.error(E_BAD_TABLE, f"range {low}..{high} is empty", f"{ptr}/ranges/{i}")
            rows.append(RangeRow(low, high, row["value"]))
        for i, j in overlapping_ranges(rows):
            builder.error(E_BAD_TABLE, f"ranges {range_text(rows[i])} and {range_text(rows[j])} overlap",
                          f"{ptr}/ranges/{j}", "each key must fall in one range only")
        return Ranges(name, desc, tuple(rows))
    if "grid" in spec:
        grid = spec["grid"]
        columns = tuple(grid["columns"])
        if len(set(columns)) != len(columns):
            builder.error(E_DUPLICATE, f"table '{name}' repeats a column", f"{ptr}/grid/columns")
        grid_rows = []
        for label, values in grid["rows"].items():
            if len(values) != len(columns):
                builder.error(E_BAD_TABLE, f"row '{label}' has {len(values)} values for {len(columns)} columns",
                              f"{ptr}/grid/rows/{escape_pointer(label)}")
            grid_rows.append((str(label), tuple(values)))
        return Grid(name, desc, columns, tuple(grid_rows))
    tiers = []
    seen = set()
    for i, t in enumerate(spec["tiers"]):
        if t["label"] in seen:
            builder.error(E_DUPLICATE, f"tier label '{t['label']}' is used twice", f"{ptr}/tiers/{i}/label")
        seen.add(t["label"])
        tiers.append(Tier(t["min"], t["label"], t.get("description", "")))
    mins = [t.min for t in tiers]
    if mins != sorted(mins) or len(set(mins)) != len(mins):
        builder.error(E_BAD_TABLE, "tiers must be listed from the lowest minimum up, each minimum once",
                      f"{ptr}/tiers")
    return Tiers(name, desc, tuple(tiers))
