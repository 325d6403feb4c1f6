"""The tables of `dice --odds`: one expression's AnyDice-style table, and several expressions
side by side (one column each, in the normal, "at least" or "at most" view), as text, CSV
and JSON.

Tables people read keep to numbers a person can use: percentages with two decimals (or one
significant digit in scientific notation when smaller), the tails of a distribution below
:data:`REST_BELOW` folded into one "rest" row with its total, and what explosions cut off
said in one short sentence. The exact fractions stay in ``--exact`` and in JSON.
"""

from __future__ import annotations

import bisect
import csv
import io
import math
from fractions import Fraction
from typing import Any
from collections.abc import Sequence

from ..dice.stats import MEAN_OF_MASS_WORKED_OUT, Summary, value_order
from ..dice.trace import format_value
from ..exact_text import fraction_display

REST_BELOW = Fraction(5, 100_000)
"""Rows at the ends of a table whose probability is below this (0.005 %, which two decimals
of a percentage show as 0.00) are folded into one "rest" row with their total, unless the
exact table is asked for (``--exact``)."""

SHORT_FRACTION = 13
"""Exact fractions longer than this (``p/q`` characters) are left out of tables unless asked
for (``--exact``): the percentage says the same to a person, and JSON always has them."""

VIEWS = ("normal", "at_least", "at_most")
"""The views of a comparison (AnyDice's): the chance of each value, of it or more, of it or less."""

MAX_WIDTH = 100
"""The columns a table of several expressions tries to stay within (one block per row beyond)."""


def wrapped(label: str, items: list[str], width: int = MAX_WIDTH, indent: int = 0) -> list[str]:
    """``label: a, b, c`` over as many lines as it takes to stay within ``width`` columns."""
    start = " " * indent + f"{label}: "
    lines, line = [], start
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + len(piece) > width and line != start:
            lines.append(line.rstrip())
            line = " " * len(start)
        line += piece + " "
    return lines + [line.rstrip()]

def sci(p: Fraction | float, digits: int = 1) -> str:
    """``p`` in scientific notation with ``digits`` significant digits (``4e-10``, ``2.8e-09``, as
    Python writes a float),
    worked out from the exact value so that a probability too small for a float is not 0."""
    if not p:
        return "0"
    if isinstance(p, float) or float(p):
        return f"{float(p):.{digits - 1}e}"
    q = Fraction(p)
    exponent = math.floor(math.log10(q.numerator) - math.log10(q.denominator))
    mantissa = float(q / Fraction(10) ** exponent)  # in [1, 10), or a hair off by rounding
    text = f"{mantissa:.{digits - 1}f}"
    if float(text) >= 10:
        text, exponent = f"{mantissa / 10:.{digits - 1}f}", exponent + 1
    return f"{text}e{exponent:+03d}"


def pct(p: Fraction | float) -> str:
    """A percentage for people: two decimals, or ``~2.8e-07`` when that would show 0.00, or
    ``>99.99`` when a chance short of 1 would show 100.00."""
    percent = p * 100
    if p and percent < Fraction(1, 200):
        return "~" + sci(percent, 2)
    if p < 1 and percent >= Fraction(19999, 200):
        return ">99.99"
    return f"{float(percent):.2f}"


def short_fraction(p: Fraction, exact: bool) -> str:
    """The exact fraction for a table: whole with ``exact``, else when short, else ``(long)``."""
    if exact:
        return fraction_display(p)
    short = p.denominator.bit_length() <= 4 * SHORT_FRACTION and f"{p.numerator}/{p.denominator}"
    return short if short and len(short) <= SHORT_FRACTION else "(long)"


def bar(p: Fraction, peak: Fraction) -> str:
    """40 marks for the peak, ``round(40 * p / peak)`` for ``p``: rounded half to even from
    whole numbers, as ``round`` does it of the Fraction, without reducing one per row."""
    if not peak:
        return ""
    num, den = 40 * p.numerator * peak.denominator, p.denominator * peak.numerator
    marks, rest = divmod(num, den)
    if 2 * rest > den or (2 * rest == den and marks % 2):
        marks += 1
    return "#" * marks


def summary_line(s: Summary) -> str:
    """``mean 10.5  sd 2.96  min 3  max 18`` for numbers, ``P(true) 55.00%`` for yes/no."""
    if s.kind == "yes/no" and s.p_true is not None:  # of the mass worked out, where some was cut
        return f"P(true) {pct(s.p_true)}%" + (" (of the mass worked out)" if s.left_out else "")
    if s.mean is None or s.sd is None:
        return ""
    # explosions cut and no closed form: the mean (the sd) of what was worked out, not the roll's
    worked_out = " (of the mass worked out)" if s.mean_kind == MEAN_OF_MASS_WORKED_OUT else ""
    sd_worked_out = " (of the mass worked out)" if s.variance_kind == MEAN_OF_MASS_WORKED_OUT else ""
    given = f"  (of the {pct(1 - s.no_value)}% with a value)" if s.no_value else ""
    return (f"mean {float(s.mean):.4g}{worked_out}  sd {s.sd:.4g}{sd_worked_out}  "
            f"min {s.minimum}  max {s.maximum}{given}")


def tails(tiny: Sequence[bool]) -> list[tuple[int, int]]:
    """The runs ``(start, stop)`` to fold: the leading and the trailing run of ``tiny`` rows,
    each where it has two rows or more (one row folded says nothing shorter)."""
    n = len(tiny)
    lead = next((i for i, t in enumerate(tiny) if not t), n)
    trail = next((i for i in range(n - 1, -1, -1) if not tiny[i]), -1) + 1
    if lead == n:  # every row is tiny: nothing is left to show but the rest
        return [(0, n)] if n > 1 else []
    return [(a, b) for a, b in ((0, lead), (trail, n)) if b - a >= 2]


def cut_sentence(odds: Any) -> str:
    """What explosions cut off, in one short sentence: ``cut off past explode depth 10:
    ~1e-10, all on 11 or more (rows below 11 are exact)``."""
    t: Fraction = odds.truncated
    short = short_fraction(t, exact=False)
    amount = f"{short} (~{sci(t)})" if short != "(long)" else f"~{sci(t)}"
    text = f"cut off past explode depth {odds.explode_depth}: {amount}"
    if odds.cut_from is not None:
        cut = format_value(odds.cut_from)
        text += f", all on {cut} or more (rows below {cut} are exact)"
    return text


def format_dice_odds(odds: Any, exact: bool = False) -> str:
    """`dice --odds` as an AnyDice-style table: value, exact fraction, %, at least, at most, a
    bar. Without ``exact``, the tails below :data:`REST_BELOW` are one "rest" row and the
    cut-off mass one sentence; with it, every row and every exact fraction, however long."""
    rows = odds.table()
    head = odds.expression + "    " + summary_line(odds.summary)
    if odds.truncated and exact:
        head += (f"\ntruncated {fraction_display(odds.truncated)}"
                 f" (~{sci(odds.truncated, 2)}, explosions deeper than {odds.explode_depth})")
        if odds.cut_from is not None:
            cut = format_value(odds.cut_from)
            head += f"\nall of it on {cut} or more: each value below {cut}, and 'at least' up to {cut}, is exact"
    elif odds.truncated:
        head += "\n" + cut_sentence(odds)
    if not rows:
        return head + "\n(no outcome)"
    numbers = rows[0]["at_least"] is not None
    peak = max(r["probability"] for r in rows)
    cells = [[format_value(r["value"]), short_fraction(r["probability"], exact), pct(r["probability"])]
             + ([pct(r["at_least"]), pct(r["at_most"])] if numbers else []) + [bar(r["probability"], peak)]
             for r in rows]
    folds = [] if exact else tails([r["probability"] < REST_BELOW for r in rows])
    for start, stop in reversed(folds):
        total = sum((r["probability"] for r in rows[start:stop]), Fraction(0))
        first, last = rows[start], rows[stop - 1]
        rest = [f"{format_value(first['value'])}..{format_value(last['value'])}", "rest", pct(total)]
        if numbers:
            rest += [pct(first["at_least"]), pct(last["at_most"])]
        cells[start:stop] = [rest + [f"({stop - start} values under {float(REST_BELOW * 100):g}% each)"]]
    header = ["value", "exact", "%"] + (["at least", "at most"] if numbers else [])
    widths = [max(least, len(h), *(len(c[i]) for c in cells))
              for i, (h, least) in enumerate(zip(header, (5, 5, 7, 8, 7), strict=False))]
    gaps = (0, 2, 2, 3, 4)  # the columns as they have always been: "   at least    at most"

    def line(row: Sequence[str]) -> str:
        return "".join(" " * g + x.rjust(w) for x, w, g in zip(row, widths, gaps, strict=False))

    return "\n".join([head, line(header)] + [f"{line(c)}  {c[-1]}".rstrip() for c in cells])


# ---- several expressions side by side ------------------------------------------------------------


def _views(odds: Any, table: list[dict[str, Any]], value: Any, by_key: dict[tuple, dict[str, Any]],
           numbers: list[int]) -> tuple[Any, Any]:
    """"At least" and "at most" of ``value`` in one column: its own row's, or for a value the
    column doesn't have, from its neighbours (no mass lies between them), or worked out where
    the cut-off mass counts in on one side only."""
    row = by_key.get(value_order(value))
    if row is not None:
        return row["at_least"], row["at_most"]
    i = bisect.bisect_left(numbers, value)
    cut_from = odds.cut_from
    if odds.truncated and cut_from is not None and value <= cut_from and (i == len(numbers) or numbers[i] > cut_from):
        at_least: Any = odds.at_least(value)
    elif i < len(numbers):
        at_least = by_key[value_order(numbers[i])]["at_least"]
    else:
        at_least = 0.0
    at_most = by_key[value_order(numbers[i - 1])]["at_most"] if i else 0.0
    return at_least, at_most


def shared_rows(cases: Sequence[tuple[str, Any]]) -> list[dict[str, Any]]:
    """One row for each value any case can take, in order: ``value`` and, one item per case,
    ``probability`` (a Fraction, None where the case never takes it), ``at_least`` and
    ``at_most`` (floats, or Fractions too small for one; None for a value that is no number,
    or a case whose values are none)."""
    tables = [odds.table() for _, odds in cases]
    values = {value_order(r["value"]): r["value"] for t in tables for r in t}
    columns = []
    for (_, odds), table in zip(cases, tables, strict=True):
        by_key = {value_order(r["value"]): r for r in table}
        numeric = bool(table) and table[0]["at_least"] is not None
        numbers = sorted(r["value"] for r in table if numeric and not isinstance(r["value"], (bool, str)))
        columns.append((odds, table, by_key, numeric, numbers))
    rows = []
    for key in sorted(values):
        value = values[key]
        is_number = key[0] == 0
        row: dict[str, Any] = {"value": value, "probability": [], "at_least": [], "at_most": []}
        for odds, table, by_key, numeric, numbers in columns:
            own = by_key.get(key)
            row["probability"].append(None if own is None else own["probability"])
            ge, le = _views(odds, table, value, by_key, numbers) if numeric and is_number else (None, None)
            row["at_least"].append(ge)
            row["at_most"].append(le)
        rows.append(row)
    return rows


def stat_cells(cases: Sequence[tuple[str, Any]]) -> dict[str, list[Any]]:
    """The statistics rows of a comparison: mean, sd, min and max of each case (None where it
    has no numbers)."""
    summaries = [odds.summary for _, odds in cases]
    return {"mean": [None if s.mean is None else float(s.mean) for s in summaries],
            "sd": [s.sd if s.mean is not None else None for s in summaries],
            "min": [s.minimum if s.mean is not None else None for s in summaries],
            "max": [s.maximum if s.mean is not None else None for s in summaries]}


def comparison_json(cases: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """``dice --odds A B C --json``: ``cases`` (the labels), ``columns`` (each case's odds
    object as `dice A --odds --json` writes it, with its ``case``), ``rows`` (one per value:
    ``probability``, ``at_least``, ``at_most``, one float or null per case) and ``stats``
    (``mean``, ``sd``, ``min``, ``max``, one number or null per case)."""
    columns = [{"case": label, **odds.to_dict()} for label, odds in cases]
    rows = [{"value": r["value"], **{view: [None if x is None else float(x) for x in r[view]]
                                     for view in ("probability", "at_least", "at_most")}}
            for r in shared_rows(cases)]
    return {"cases": [label for label, _ in cases], "columns": columns, "rows": rows, "stats": stat_cells(cases)}


def _view_of(row: dict[str, Any], view: str) -> list[Any]:
    return row["probability" if view == "normal" else view]


def comparison_csv(cases: Sequence[tuple[str, Any]], view: str = "normal") -> str:
    """The comparison as CSV: ``value`` and one column per case, each value's probability in
    ``view`` as a float (empty where the case never takes the value), then the rows ``mean``,
    ``sd``, ``min`` and ``max``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["value"] + [label for label, _ in cases])
    for r in shared_rows(cases):
        w.writerow([format_value(r["value"])] + ["" if x is None else repr(float(x)) for x in _view_of(r, view)])
    for name, cells in stat_cells(cases).items():
        w.writerow([name] + ["" if x is None else x for x in cells])
    return buf.getvalue().rstrip("\n")


def _fold_rest(rows: list[dict[str, Any]], cells: list[list[str]], view: str) -> None:
    """Fold the runs of rows at either end where every column is under :data:`REST_BELOW` (or
    never takes the value) into one row: the total of each column in the normal view; "at
    least" from the run's first value, "at most" up to its last."""
    tiny = [all(p is None or p < REST_BELOW for p in r["probability"]) for r in rows]
    for start, stop in reversed(tails(tiny)):
        part = rows[start:stop]
        label = f"{format_value(part[0]['value'])}..{format_value(part[-1]['value'])} rest"
        if view == "normal":
            shown = [sum((p or Fraction(0) for p in ps), Fraction(0)) for ps in zip(*(r["probability"] for r in part),
                                                                                   strict=True)]
            rest = [pct(x) if x else "-" for x in shown]
        else:
            edge = part[0] if view == "at_least" else part[-1]
            rest = ["-" if x is None else pct(x) for x in edge[view]]
        cells[start:stop] = [[label] + rest]


def _stat_text_rows(cases: Sequence[tuple[str, Any]]) -> list[list[str]]:
    """The rows mean, sd, min, max, and cut off where explosions were cut, as a table shows them."""
    out = [[name] + ["-" if x is None else (f"{x:.4g}" if isinstance(x, float) else str(x)) for x in values]
           for name, values in stat_cells(cases).items()]
    if any(odds.truncated for _, odds in cases):
        out.append(["cut off"] + [f"~{sci(odds.truncated)}" if odds.truncated else "0" for _, odds in cases])
    return out


VIEW_TITLES = {"normal": "% of each value", "at_least": "% at least each value", "at_most": "% at most each value"}


def format_comparison_table(cases: Sequence[tuple[str, Any]], view: str = "normal", exact: bool = False) -> str:
    """Several expressions side by side: a row for each value, a column for each expression
    with the chance of the value in ``view`` (``-`` where the expression never takes it), the
    tails below :data:`REST_BELOW` in every column folded into one "rest" row (not with
    ``exact``), then the rows mean, sd, min and max, and what explosions cut off."""
    rows = shared_rows(cases)
    labels = [label for label, _ in cases]
    cells = [[format_value(r["value"])] + ["-" if x is None else pct(x) for x in _view_of(r, view)] for r in rows]
    if not exact:
        _fold_rest(rows, cells, view)
    cells += _stat_text_rows(cases)
    header = ["value"] + labels
    widths = [max(len(h), 7, *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    widths[0] = max(len(h) for h in [header[0]] + [c[0] for c in cells])

    def line(row: Sequence[str]) -> str:
        return (row[0].ljust(widths[0]) + "".join("  " + x.rjust(w) for x, w in zip(row[1:], widths[1:], strict=True))
                ).rstrip()

    lines = [VIEW_TITLES[view], line(header)] + [line(c) for c in cells]
    return "\n".join(lines)
