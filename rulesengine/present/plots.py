"""The charts of `--plot FILE.svg` (written by :mod:`.svg`): bars for the odds of dice
expressions (one series per expression compared) and of a check or procedure (its result,
else its outcomes), lines across a sweep (one per outcome, P(success), P(failure) and each
``--at-least`` value; for two swept inputs one line per value of the second)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..dice.trace import format_value
from ..errors import UsageError
from ..run.json_parts import jsonable
from ..run.sweep import Sweep
from .compare_table import chart_columns, charts_numbers, outcome_rows
from .dice_table import VIEW_TITLES, shared_rows
from .svg import Series, bar_chart, line_chart
from .sweep_table import sweep_columns

__all__ = ["compare_plot", "dice_plot", "odds_plot", "sweep_plot"]


def _percent(p: Any) -> float | None:
    return None if p is None else float(p) * 100


def dice_plot(cases: Sequence[tuple[str, Any]], view: str = "normal") -> str:
    """`dice --odds A B C --plot FILE.svg`: a group of bars for each value, one bar per
    expression (or per value of a swept name), in ``view`` (normal, at least, at most)."""
    rows = shared_rows(cases)
    key = "probability" if view == "normal" else view
    series: list[Series] = [(label, [_percent(r[key][k]) for r in rows]) for k, (label, _) in enumerate(cases)]
    title = "Odds of " + ", ".join(label for label, _ in cases)
    return bar_chart(title, "value", VIEW_TITLES[view], [format_value(r["value"]) for r in rows], series)


def compare_plot(cases: Sequence[tuple[str, Any]], view: str = "normal") -> str:
    """`odds … --compare … --plot FILE.svg`: one series per case — bars of the distribution
    the odds chart (a check's result) in ``view``, or of the outcomes where none charts numbers."""
    first = cases[0][1]
    charts = chart_columns(cases)
    if charts_numbers(charts):
        rows = shared_rows(charts)
        key = "probability" if view == "normal" else view
        series: list[Series] = [(label, [_percent(r[key][k]) for r in rows]) for k, (label, _) in enumerate(charts)]
        title = charts[0][1].title
        return bar_chart(f"{first.ruleset} / {first.name}: compared", title, f"{title}: {VIEW_TITLES[view]}",
                         [format_value(r["value"]) for r in rows], series)
    rows = outcome_rows(cases)
    series = [(label, [_percent(r["probability"][k]) for r in rows]) for k, (label, _) in enumerate(cases)]
    return bar_chart(f"{first.ruleset} / {first.name}: compared", "outcome", "% of each outcome",
                     [r["name"] for r in rows], series)


def _heading(v: Any) -> str:
    inputs = ", ".join(f"{k}={format_value(jsonable(x))}" for k, x in (v.inputs or {}).items())
    return f"{v.ruleset} / {v.name}" + (f" ({inputs})" if inputs else "")


def odds_plot(odds: Any) -> str:
    """`odds RULESET NAME --plot FILE.svg`: bars of the distribution `odds` charts (a
    check's result, an extended check's rounds), or of the outcomes where it has none."""
    v = odds.view()
    kind, chart = v.chart
    if chart.dist:
        values = list(chart.dist)
        if chart.summary.kind == "number":
            values.sort()
        return bar_chart(_heading(v), kind, f"% of each {kind}", [format_value(jsonable(x)) for x in values],
                         [(kind, [_percent(chart.dist[x]) for x in values])])
    names = list(v.outcomes)
    return bar_chart(_heading(v), "outcome", "% of each outcome", names,
                     [("outcome", [_percent(v.outcomes[n]) for n in names])])


def sweep_plot(s: Sweep, at_least: Sequence[int] = ()) -> str:
    """A sweep's chart: across one swept input, a line for each chance its table shows
    (P(success), each outcome, P(failure), each ``--at-least``); across two, a line of
    P(success) (else of the first ``--at-least``) for each value of the second input."""
    if not s.rows:
        raise UsageError("the sweep has no values to plot", hint="sweep at least one value")
    columns = [c for c in sweep_columns(s, at_least) if c.probability]
    first = s.rows[0][1].view()
    title = f"{first.ruleset} / {first.name}"
    if len(s.variables) == 1:
        series: list[Series] = [(c.heading, [_percent(x) for x in c.cells]) for c in columns]
        return line_chart(f"{title}: chances by {s.variables[0]}", s.variables[0], "% chance",
                          [str(values[0]) for values, _ in s.rows], series)
    shown = [c for c in columns if c.heading == "P(success)" or " >= " in c.heading]
    if not shown:
        raise UsageError(f"a sweep of two inputs is plotted by its chance of success, and '{first.name}' has none",
                         hint="sweep one input at a time, or add --at-least N for a numeric result")
    column = shown[0]
    firsts = list(dict.fromkeys(values[0] for values, _ in s.rows))
    seconds = list(dict.fromkeys(values[1] for values, _ in s.rows))
    cells: dict[tuple[Any, ...], Fraction | None] = {values: column.cells[i] for i, (values, _) in enumerate(s.rows)}
    series = [(f"{s.variables[1]}={b}", [_percent(cells.get((a, b))) for a in firsts]) for b in seconds]
    return line_chart(f"{title}: {column.heading} by {s.variables[0]} and {s.variables[1]}", s.variables[0],
                      f"% {column.heading}", [str(a) for a in firsts], series)
