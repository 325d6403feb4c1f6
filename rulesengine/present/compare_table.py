"""`odds … --compare`: the same check or procedure under several input sets or rulesets, side
by side — each outcome's chance in one row, and the distribution the odds chart (a check's
result) as a row for each value and a column for each case, in the normal, "at least" or
"at most" view, as text, CSV and JSON.

The value rows, their views, the folded tails and the mean/sd/min/max rows are the ones
`dice --odds A B C` prints (:mod:`.dice_table`): each case's odds are read through their one
:class:`~rulesengine.run.odds_value.OddsValue`, and its chart handed to the same table as a
:class:`ChartColumn`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..dice.stats import Summary, value_order
from ..dice.trace import format_value
from ..run.odds_value import OddsValue
from .dice_table import (VIEW_TITLES, format_comparison_table, pct, shared_rows, stat_cells)

Case = tuple[str, OddsValue]
"""A compared case: its label (what differs: ``skill=14``, ``other.yaml``) and its odds."""


class ChartColumn:
    """The distribution an OddsValue charts (a check's result), as one column of a
    comparison reads it: ``table()`` rows of value, probability, at least and at most;
    ``summary``; what explosions cut (``truncated``) and from where (``cut_from``)."""

    def __init__(self, odds: OddsValue) -> None:
        self.title, shown = odds.chart
        self._dist: Mapping[Any, Fraction] = shown.dist
        self._views = shown.cumulative()
        self.summary: Summary = shown.summary
        self.truncated: Fraction = odds.result_cut
        self.cut_from: int | None = odds.result_cut_from

    def table(self) -> list[dict[str, Any]]:
        return [{"value": v, "probability": p,
                 "at_least": self._views[v][0] if v in self._views else None,
                 "at_most": self._views[v][1] if v in self._views else None}
                for v, p in sorted(self._dist.items(), key=lambda vp: value_order(vp[0]))]

    def at_least(self, value: int) -> Fraction:
        """The chance of ``value`` (a number the column doesn't take) or more: the next number's
        "at least" as the odds give it (``Shown.views``, where a kind knows it better than
        summing its rows), with the cut-off mass counted in up to ``cut_from``."""
        cut_here = self.cut_from is not None and value <= self.cut_from
        later = [v for v in self._views if v >= value]
        if not later:
            return self.truncated if cut_here else Fraction(0)
        following = min(later)
        at_least = self._views[following][0]
        if cut_here and self.cut_from is not None and following > self.cut_from:
            at_least += self.truncated  # the next row is past cut_from: its figure leaves the cut mass out
        return at_least


def chart_columns(cases: Sequence[Case]) -> list[tuple[str, ChartColumn]]:
    """Each case's charted distribution as a column, with its label."""
    return [(label, ChartColumn(odds)) for label, odds in cases]


def outcome_rows(cases: Sequence[Case]) -> list[dict[str, Any]]:
    """One row per outcome any case has, in the order they first appear: ``name`` and its
    ``probability`` in each case (None where the case has no such outcome)."""
    names = list(dict.fromkeys(n for _, odds in cases for n in odds.outcomes))
    return [{"name": n, "probability": [odds.outcomes.get(n) for _, odds in cases]} for n in names]


def charts_numbers(charts: Sequence[tuple[str, ChartColumn]]) -> bool:
    """Whether any case charts numbers (then its rows are values; else only outcomes compare)."""
    return any(column.summary.mean is not None for _, column in charts)


def comparison_json(cases: Sequence[Case]) -> dict[str, Any]:
    """``odds … --compare … --json``: ``cases`` (the labels), ``columns`` (each case's odds
    object as ``odds --json`` writes it, with its ``case``), ``outcomes`` (one row per
    outcome: ``name``, ``probability`` one float or null per case), ``success`` (one float or
    null per case), ``chart`` (what the value rows are of: ``result``), ``rows`` (one per
    value: ``probability``, ``at_least``, ``at_most``) and ``stats`` (``mean``, ``sd``,
    ``min``, ``max``) — the shape of `dice --odds A B --json` (schemas/odds-comparison.schema.json)."""
    charts = chart_columns(cases)
    rows = [{"value": r["value"], **{view: [None if x is None else float(x) for x in r[view]]
                                     for view in ("probability", "at_least", "at_most")}}
            for r in shared_rows(charts)]
    return {"cases": [label for label, _ in cases],
            "columns": [{"case": label, **odds.to_dict()} for label, odds in cases],
            "outcomes": [{"name": r["name"], "probability": [None if p is None else float(p)
                                                             for p in r["probability"]]}
                         for r in outcome_rows(cases)],
            "success": [None if odds.success is None else float(odds.success) for _, odds in cases],
            "chart": charts[0][1].title if charts else "result",
            "rows": rows, "stats": stat_cells(charts)}


def comparison_csv(cases: Sequence[Case], view: str = "normal") -> str:
    """The comparison as CSV: ``kind``, ``name`` and one column per case — each outcome's
    chance (``outcome``), the chance of success where the cases have one, each value of the
    chart in ``view`` (``result``), then its mean, sd, min and max (``stat``); empty where a
    case has no such figure."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "name"] + [label for label, _ in cases])

    def cell(x: Any) -> Any:
        return "" if x is None else (repr(float(x)) if isinstance(x, Fraction) else x)

    for r in outcome_rows(cases):
        w.writerow(["outcome", r["name"]] + [cell(p) for p in r["probability"]])
    if any(odds.success is not None for _, odds in cases):
        w.writerow(["success", "P(success)"] + [cell(odds.success) for _, odds in cases])
    charts = chart_columns(cases)
    key = "probability" if view == "normal" else view
    for r in shared_rows(charts):
        w.writerow(["result", format_value(r["value"])] + [cell(x) for x in r[key]])
    for name, cells in stat_cells(charts).items():
        w.writerow(["stat", name] + [cell(x) for x in cells])
    return buf.getvalue().rstrip("\n")


def format_comparison(cases: Sequence[Case], view: str = "normal", exact: bool = False) -> str:
    """The cases side by side: what is compared, each outcome's chance (and P(success)) in a
    column per case, then the charted distribution's table in ``view`` with its statistics."""
    first = cases[0][1]
    labels = [label for label, _ in cases]
    rows = outcome_rows(cases)
    cells = [[r["name"]] + ["-" if p is None else pct(p) for p in r["probability"]] for r in rows]
    if any(odds.success is not None for _, odds in cases):
        cells.append(["P(success)"] + ["-" if odds.success is None else pct(odds.success) for _, odds in cases])
    header = ["outcome"] + labels
    widths = [max(len(h), 7, *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    widths[0] = max(len(c[0]) for c in [header, *cells])

    def line(row: Sequence[str]) -> str:
        return (row[0].ljust(widths[0]) + "".join("  " + x.rjust(w) for x, w in zip(row[1:], widths[1:], strict=True))
                ).rstrip()

    lines = [f"{first.ruleset} / {first.name}: compared", "% of each outcome", line(header)]
    lines += [line(c) for c in cells]
    charts = chart_columns(cases)
    if charts_numbers(charts):
        table = format_comparison_table(charts, view, exact=exact).splitlines()
        lines += ["", f"{charts[0][1].title}: {VIEW_TITLES[view]}", *table[1:]]
    return "\n".join(lines)
