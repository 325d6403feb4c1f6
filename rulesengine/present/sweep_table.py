"""The text of a sweep (`odds RULESET NAME skill=3..18`): a row per value (a column per
outcome, P(success) and P(failure) where the kind has them, and for a numeric result its
mean and its chance of each ``--at-least`` value or more), a grid for two swept inputs, or
CSV.

Each cell is read from the row's one :class:`~rulesengine.run.odds_value.OddsValue` and the
sweep's :class:`~rulesengine.run.sweep.ResultFigures`; nothing here works odds out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..run.sweep import ResultFigures, Sweep
from .dice_table import MAX_WIDTH, wrapped
from ..records import Record

__all__ = ["SweepColumn", "format_sweep", "sweep_chart", "sweep_columns"]


class SweepColumn(Record):
    """One column of a sweep: its heading, whether it is a probability (else a mean), and its
    value in each row (None where the row has none)."""

    heading: str
    probability: bool
    cells: tuple[Fraction | None, ...]
    marked: tuple[bool, ...] = ()  # the cells shown with a * (a mean of the mass worked out)


def sweep_columns(s: Sweep, at_least: Sequence[int] = ()) -> list[SweepColumn]:
    """The columns a sweep shows after its swept inputs: P(success), each outcome, P(failure)
    (the chance of neither a success nor a cut explosion), then for a numeric result its mean
    and its chance of each of ``at_least`` or more."""
    views = [odds.view() for _, odds in s.rows]
    # every row's outcomes, the first row's first: a row a gate decides has its own (not_allowed)
    names = list(dict.fromkeys(n for v in views for n in v.outcomes))
    has_success = bool(views) and views[0].success is not None
    columns = []
    if has_success:
        columns.append(SweepColumn("P(success)", True, tuple(v.success for v in views)))
    columns += [SweepColumn(n, True, tuple(v.outcomes.get(n, Fraction(0)) for v in views)) for n in names]
    if any(v.truncated for v in views):  # as the table of one set of inputs says it: a row of its own
        columns.append(SweepColumn(CUT_OFF, True, tuple(v.truncated for v in views)))
    if has_success:
        columns.append(SweepColumn("P(failure)", True, tuple(
            1 - v.success - v.truncated if v.success is not None else None for v in views)))
    figures = s.figures(at_least)
    if any(f is not None for f in figures):  # "-" in a row with no result (a gate decided it)
        columns += _figure_columns(figures, at_least)
    return columns


CUT_OFF = "(cut off)"
"""The column of what explosions past the depth leave open in each row, where some row has any."""


def cut_note(s: Sweep, at_least: Sequence[int] = ()) -> str:
    """What the text of a sweep says under its table where explosions past the depth leave
    some figures open: which are bounds, and how to shrink what is cut; "" where none is."""
    cut = any(odds.view().truncated for _, odds in s.rows)
    worked_out = any(f is not None and f.mean_kind != "exact" for f in s.figures(at_least))
    if not cut and not worked_out:
        return ""
    parts = []
    if cut:
        parts.append(f"{CUT_OFF}: explosions past the depth leave this much of a row open, so each "
                     "outcome and P(success) there is at least its chance")
    if worked_out:
        parts.append("a mean marked * is of the mass worked out")
    return "; ".join(parts) + " (a larger --explode-depth shrinks what is cut)"


def _figure_columns(figures: list[ResultFigures | None], at_least: Sequence[int]) -> list[SweepColumn]:
    of = next(f.of for f in figures if f is not None)
    columns = [SweepColumn(f"mean {of}", False, tuple(None if f is None else f.mean for f in figures),
                           tuple(f is not None and f.mean_kind != "exact" for f in figures))]
    for i, n in enumerate(at_least):
        columns.append(SweepColumn(f"{of} >= {n}", True,
                                   tuple(None if f is None else f.at_least[i][1] for f in figures)))
    return columns


def _percent(p: Fraction | None) -> str:
    """``p`` as a percentage to a tenth, rounded from the exact fraction, halves to even (61.25
    % is 61.2, 38.75 % is 38.8: the row still sums to 100.0), not from a float that may sit
    just above a half. A chance that is not 0 or 1 never reads as one: ``<0.1%``, ``>99.9%``
    (an outside author read a 15-dice pool's 100.0% as sure, a botch being 0.05%)."""
    if p is None:
        return "-"
    tenths = round(Fraction(p) * 1000)
    if tenths == 0 and p:
        return "<0.1%"
    if tenths == 1000 and p != 1:
        return ">99.9%"
    return f"{tenths / 10:.1f}%"


def _number(m: Fraction | None) -> str:
    return "-" if m is None else f"{float(m):.2f}"


def _cell(column: SweepColumn, i: int) -> str:
    text = (_percent if column.probability else _number)(column.cells[i])
    return text + "*" if column.marked and column.marked[i] else text


def format_sweep(s: Sweep, csv_out: bool = False, at_least: Sequence[int] = ()) -> str:
    """A sweep as `odds` prints it: CSV, a grid for two swept inputs (P(success), then the
    result's mean and its at-least chances where it is a number), or a row per value (one
    block per value where the columns don't fit in :data:`MAX_WIDTH`)."""
    columns = sweep_columns(s, at_least)
    if csv_out:
        return _csv(s, columns)
    grids = [c for c in columns if c.heading in ("P(success)", CUT_OFF) or not c.probability or " >= " in c.heading]
    note = cut_note(s, at_least)
    if len(s.variables) == 2 and grids:
        return "\n\n".join([_grid(s, c) for c in grids] + ([note] if note else []))
    return _table(s, columns) + ("\n" + note if note else "")


def finished_rows(exc: Exception, csv_out: bool = False, at_least: Sequence[int] = ()) -> str | None:
    """The rows of a sweep worked out before the value it stopped at (``exc.partial``), as
    :func:`format_sweep` writes them, for the command line to print before the error; None
    where the error holds none."""
    done = getattr(exc, "partial", None)
    if not isinstance(done, Sweep) or not done.rows:
        return None
    return format_sweep(done, csv_out, at_least if done.numeric() else ())


def _csv(s: Sweep, columns: list[SweepColumn]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(list(s.variables) + ["truncated" if c.heading == CUT_OFF else c.heading for c in columns])
    for i, (values, _) in enumerate(s.rows):
        w.writerow(list(values) + [_csv_cell(c.cells[i]) for c in columns])
    return buf.getvalue().rstrip("\n")


def _csv_cell(x: Fraction | None) -> str:
    return "" if x is None else f"{float(x):.6f}"


def _grid(s: Sweep, column: SweepColumn) -> str:
    """One column of a sweep of two inputs as a grid: rows the first input, columns the second."""
    firsts = _distinct(v[0] for v, _ in s.rows)
    seconds = _distinct(v[1] for v, _ in s.rows)
    table = {values: _cell(column, i) for i, (values, _) in enumerate(s.rows)}
    width = max([8] + [len(str(b)) + 1 for b in seconds] + [len(t) + 1 for t in table.values()])
    lines = [f"{column.heading} by {s.variables[0]} (rows) and {s.variables[1]} (columns)",
             " " * 8 + "".join(f"{b!s:>{width}}" for b in seconds)]
    for a in firsts:
        lines.append(f"{a!s:>8}" + "".join(f"{table.get((a, b), '-'):>{width}}" for b in seconds))
    return "\n".join(lines)


def _distinct(values: Any) -> list[Any]:
    """Each value once, in the order the sweep gave them (a range ascending; a list as written)."""
    return list(dict.fromkeys(values))


def _table(s: Sweep, columns: list[SweepColumn]) -> str:
    header = list(s.variables) + [c.heading for c in columns]
    rows = [header] + [[str(v) for v in values] + [_cell(c, i) for c in columns]
                       for i, (values, _) in enumerate(s.rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    if sum(widths) + 2 * len(widths) > MAX_WIDTH:  # too many columns side by side: one block per row
        return "\n".join(_blocks(s, header, rows[1:]))
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def _blocks(s: Sweep, header: list[str], rows: list[list[str]]) -> list[str]:
    n = len(s.variables)
    out: list[str] = []
    for r in rows:
        label = ", ".join(f"{k}={v}" for k, v in zip(s.variables, r[:n], strict=True))
        out += wrapped(label, [f"{h} {c}" for h, c in zip(header[n:], r[n:], strict=True)])
    return out


# ---- a chart for the terminal ----------------------------------------------------------------------

CHART_WIDTH = 40
"""The cells of the longest bar of :func:`sweep_chart` (each cell in eighths: ``▏`` to ``█``)."""

EIGHTHS = " ▏▎▍▌▋▊▉"


def charted_column(s: Sweep, at_least: Sequence[int] = ()) -> SweepColumn | None:
    """What a terminal chart of a sweep draws: the first ``--at-least`` chance asked, else
    P(success) where it changes across the sweep, else the result's mean, else the first
    outcome whose chance changes; None where nothing changes (a chart would be one flat line)."""
    columns = sweep_columns(s, at_least)

    def varies(c: SweepColumn) -> bool:
        return len(set(c.cells)) > 1 and all(x is not None for x in c.cells)

    asked = [c for c in columns if " >= " in c.heading and varies(c)]
    success = [c for c in columns if c.heading == "P(success)" and varies(c)]
    means = [c for c in columns if not c.probability and varies(c)]
    outcomes = [c for c in columns if c.probability and varies(c)]
    return next(iter(asked + success + means + outcomes), None)


def _bar(x: Fraction, top: Fraction) -> str:
    """``x`` of ``top`` as a bar of :data:`CHART_WIDTH` cells, to the nearest eighth of one."""
    eighths = round(x / top * CHART_WIDTH * 8) if top else 0
    full, part = divmod(max(0, eighths), 8)
    return ("█" * full + EIGHTHS[part].strip()).ljust(CHART_WIDTH)


def sweep_chart(s: Sweep, at_least: Sequence[int] = ()) -> str:
    """A sweep of one input as a horizontal bar chart for the terminal: a bar per swept value
    of :func:`charted_column` (chances on a scale of 0 to 100 %, a mean from 0 to its largest),
    with its figure; "" for two swept inputs (their grids say it) or where nothing changes."""
    column = charted_column(s, at_least) if len(s.variables) == 1 else None
    if column is None:
        return ""
    cells = [x for x in column.cells if x is not None]
    if not column.probability and min(cells) < 0:
        return ""  # a bar can't show a negative mean; the table has it
    top = Fraction(1) if column.probability else max(cells)
    labels = [str(values[0]) for values, _ in s.rows]
    width = max(len(x) for x in labels)
    lines = [f"{column.heading} by {s.variables[0]}"]
    for label, i in zip(labels, range(len(s.rows)), strict=True):
        x = column.cells[i]
        assert x is not None
        lines.append(f"{label:>{width}}  {_bar(x, top)}  {_cell(column, i)}")
    return "\n".join(lines)
