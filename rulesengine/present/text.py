"""The text of `roll`, `odds` and `dice --odds`: results, odds tables and sweeps.

Presentation only: nothing here changes what a check means. Results and odds are read
through their one value (``view()``: ``run.result_value.ResultValue``,
``run.odds_value.OddsValue``), so every kind of check and procedure is written out by the
same functions.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from ..dice.trace import format_value
from ..exact_text import fraction_display, fraction_text
from ..run.json_parts import jsonable, ranked_views
from ..run.odds_value import OddsValue, Shown
from ..run.results import RunOdds, RunResult
from .dice_table import REST_BELOW, bar, format_dice_odds, pct, short_fraction, summary_line, tails, wrapped
from .sweep_table import format_sweep

__all__ = ["format_dice_odds", "format_comparison", "format_odds", "format_roll", "format_sweep", "format_list",
           "summary_line"]


# ---- roll and odds -----------------------------------------------------------------------------


def _v(value: Any) -> str:
    """A value as tables show it: a roll by its total, a dice pool by its text."""
    return "-" if value is None else format_value(jsonable(value))


def format_roll(result: RunResult) -> str:
    """A roll as `roll` prints it: a check's result in full; a procedure by its name, its
    inputs if it has its own, and its trace. Every kind is read through its one
    :class:`~rulesengine.run.result_value.ResultValue` (``view()``)."""
    r = result.view()
    if r.is_procedure:
        lines = [f"{r.ruleset} / {r.name}"]
        if r.inputs and r.roller is None:  # a team's inputs are its roller's, not its own
            lines += _wrapped("inputs", [f"{k}={_v(v)}" for k, v in r.inputs.items()])
        return "\n".join(lines + [r.trace])
    lines = [f"{r.ruleset} / {r.name}" + ("   (secret: the GM rolls, only the GM sees)" if r.secret else "")]
    if r.inputs:
        lines.append("inputs: " + ", ".join(f"{k}={_v(v)}" for k, v in r.inputs.items()))
    lines.extend(r.trace.splitlines())
    if r.choices:
        lines.append("choices: " + "; ".join(
            f"{c.dice_text('+')} → " + ", ".join(f"{k} {_v(v)}" for k, v in c.values.items())
            + (" *" if c.preferred else "") for c in r.choices))
    for k, v in r.values.items():
        lines.append(f"{k}: {_v(v)}")
    shown = r.signed_result if r.signed_result is not None else _v(r.result)
    lines.append(f"result: {shown}" + (f" ({r.tier})" if r.tier else ""))
    lines.append(f"outcome: {r.outcome} ({'a success' if r.success else 'not a success'})")
    if r.tags:
        lines.append("tags: " + ", ".join(r.tags))
    if r.reason:
        lines.append(f"reason: {r.reason}")
    return "\n".join(lines)


_pct = pct
_fraction = short_fraction
_wrapped = wrapped


def format_list(rows: list[dict[str, Any]]) -> str:
    """`rulesengine list`: each ruleset's id, version and name, then its checks and procedures."""
    lines = []
    for r in rows:
        lines.append(f"{r['id']:<16} {r['version']:<8} {r['name']}")
        lines += _wrapped("checks", r["checks"], indent=17)
        if r["procedures"]:
            lines += _wrapped("procedures", r["procedures"], indent=17)
    return "\n".join(lines)


_bar = bar


def format_comparison(cases: list[tuple[str, Any]]) -> str:
    """Several dice odds side by side (expressions, or one expression over a sweep): each
    case's statistics on one line, as AnyDice prints several outputs."""
    width = max(len(label) for label, _ in cases)
    lines = []
    for label, odds in cases:
        line = f"{label:<{width}}  {summary_line(odds.summary)}"
        if odds.truncated:
            line += f"  (truncated ~{float(odds.truncated):.1e})"
        lines.append(line)
    return "\n".join(lines)


def format_odds(odds: RunOdds, csv_out: bool = False, exact: bool = False) -> str:
    """Odds as `odds` prints them: each outcome with its exact fraction, percentage and bar,
    then the distribution the odds chart as a bar chart. Every kind is read through its one
    :class:`~rulesengine.run.odds_value.OddsValue` (``view()``), so the chance of success,
    tags, tiers, expected rounds and further values show wherever a kind has them."""
    v = odds.view()
    kind, chart = v.chart
    if csv_out:
        return _odds_csv(v, chart)
    lines = [f"{v.ruleset} / {v.name}"]
    if v.inputs:
        label = "inputs" if v.roller is None else f"party{v.roller} rolls, with"
        lines += _wrapped(label, [f"{k}={_v(x)}" for k, x in v.inputs.items()])
    if v.given is not None:
        given, p_given, left_open = v.given
        least = "at least " if left_open else ""  # paths the depth left open may hold it too
        lines.append(f"given: {given}    (its own chance: {least}{_fraction(p_given, exact)}, {_pct(p_given)}%)")
    lines += _outcome_lines(v, exact)
    more_cut = dict(v.named_truncated)
    for label, named in v.named:
        if named:
            cut = more_cut.get(label)  # the depth left some open where the outcome is decided
            lines.append(f"{label}: " + ", ".join(f"{n} {_pct(p)}%" for n, p in named.items())
                         + (f"   (each at least; {_pct(cut)}% cut off)" if cut else ""))
    if v.expected_rounds is not None:
        lines.append(f"expected rounds: {float(v.expected_rounds):.3f}")
    if chart.dist:
        lines.append("")
        stats = summary_line(chart.summary)
        if stats:
            lines.append(f"{kind}: {stats}")
        if v.signed:  # a result with a sign of its own: ranked ... -0, +0 ..., cumulated in that order
            views = ranked_views(v.signed, v.signed_cut_through, v.result_cut)
            lines += _distribution_lines(f"{kind} (signed)", v.signed, views, exact)
        else:
            lines += _distribution_lines(kind, chart.dist, chart.cumulative(), exact)
    for g in v.groups:
        for name, member in g.members.items() if g.in_text else ():
            stats = summary_line(member.summary) or _values_line(member.dist)
            if stats:
                lines.append(f"{name}{g.suffix}: {stats}")
    return "\n".join(lines + _truncation_lines(v, kind, exact))


def _odds_csv(v: OddsValue, chart: Shown) -> str:
    """The odds as CSV, one figure a row (``kind``, ``name``, ``exact``, ``probability``):
    each outcome, the chance of success (``success``), what explosions past the depth leave
    open (``truncated``, ``outcomes``: each outcome's row is then at least its chance), the
    charted distribution (``result``), each tag and tier (``tag``, ``tier``) and each value
    of a reported value (``value:NAME``, or the JSON key of the group it is in:
    ``tallies:NAME``). Where explosions cut a distribution, a ``truncated`` row with its name
    says how much, and a ``cut_from`` row its bound where it has one (in ``exact``, no
    probability): each row below it is exact, the others at least their chance."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "name", "exact", "probability"])

    def row(kind: str, name: Any, p: Fraction) -> None:
        w.writerow([kind, name, fraction_text(p), float(p)])

    def cut_rows(name: str, cut: Fraction, cut_from: int | None) -> None:
        if cut:
            row("truncated", name, cut)
            if cut_from is not None:
                w.writerow(["cut_from", name, cut_from, ""])

    for n, p in v.outcomes.items():
        row("outcome", n, p)
    if v.success is not None:
        row("success", "P(success)", v.success)
    if v.truncated:
        row("truncated", "outcomes", v.truncated)
    for value, p in chart.dist.items():
        row("result", _v(value), p)
    cut_rows("result", chart.cut, chart.cut_from)
    for key, named in v.named:
        for n, p in named.items():
            row(key.removesuffix("s"), n, p)
    for key, cut in v.named_truncated:  # cut from success, the tags or the tiers, where not `outcomes`
        row("truncated", key, cut)
    for g in v.groups:
        kind = "value" if g.key == "values" else g.key
        for member, shown_ in g.members.items():
            for value, p in shown_.dist.items():
                row(f"{kind}:{member}", "" if value is None else _v(value), p)
            cut_rows(f"{kind}:{member}", shown_.cut, shown_.cut_from)
    return buf.getvalue().rstrip("\n")


VALUES_SHOWN = 8
"""Values of a distribution with no statistics (text: a rank's name) the text table lists."""


def _values_line(dist: Mapping[Any, Fraction]) -> str:
    """A distribution of text (or of values of several kinds) in one line, each value with its
    percent, the likeliest first: ``remarkable 35.00%, incredible 20.00%, … (3 more)``."""
    ranked = sorted(((k, p) for k, p in dist.items() if p), key=lambda kv: -kv[1])  # (a table's declared 0s left out)
    shown = ", ".join(f"{'no value' if k is None else _v(k)} {_pct(p)}%" for k, p in ranked[:VALUES_SHOWN])
    more = len(ranked) - VALUES_SHOWN
    return shown + (f", … ({more} more)" if more > 0 else "")


def _outcome_lines(v: OddsValue, exact: bool) -> list[str]:
    """Each outcome with its exact fraction, percentage and bar; then P(success), where the
    kind has one."""
    fractions = {n: _fraction(p, exact) for n, p in v.outcomes.items()}
    width = max([10] + [len(n) for n in v.outcomes])
    ewidth = max([5] + [len(e) for e in fractions.values()])
    peak = max(v.outcomes.values(), default=Fraction(0))
    lines = [f"{'outcome':<{width}}  {'exact':>{ewidth}}        %"]
    for n, p in v.outcomes.items():
        lines.append(f"{n:<{width}}  {fractions[n]:>{ewidth}}  {_pct(p):>7}  {_bar(p, peak)}")
    may = dict(v.extra).get("truncated_outcomes")  # the outcomes the cut mass may be, where not any
    if v.truncated:  # the rows above leave it out: said beside them, not only below the result
        which = " or ".join(may) if may else "any outcome"
        lines.append(f"{'(cut off)':<{width}}  {_fraction(v.truncated, exact):>{ewidth}}  {_pct(v.truncated):>7}"
                     f"  (explosions past the depth: {which}, so each row above is at least its chance)")
    if v.success is not None:
        # its own cut where the outcomes left open agree on it for some of the mass (else all of it)
        success_cut = dict(v.named_truncated).get("success", v.truncated)
        why = "all outcomes that count as a success"
        if v.truncated:  # said on its row: it sits below the (cut off) row, not above it
            why += ("; exact: the outcomes the cut leaves open agree on it" if not success_cut
                    else f"; at least: {_pct(success_cut)}% cut off")
        lines.append(f"{'P(success)':<{width}}  {_fraction(v.success, exact):>{ewidth}}  {_pct(v.success):>7}"
                     f"  ({why})")
    return lines


def _truncation_lines(v: OddsValue, kind: str, exact: bool) -> list[str]:
    """What explosions cut: from the outcomes, from the result beyond that, and where the
    result's cut mass lies."""
    lines = []
    if v.truncated:
        # a probability, where the (cut off) row gives a percent: both said, so neither is misread
        lines.append(f"truncated: {fraction_display(v.truncated)} (~{float(v.truncated):.2g}, "
                     f"{_pct(v.truncated).lstrip('~')} %): a larger --explode-depth shrinks it, and so may "
                     "--max-states (the odds follow cut explosions only as far as the work budget allows)")
    if v.result_cut != v.truncated:
        lines.append(f"{kind} truncated: {_fraction(v.result_cut, exact)} (~{float(v.result_cut):.2g}: explosions"
                     f" deeper than the odds follow decide the {kind} there, not the outcome)")
    if v.result_cut and v.result_cut_from is not None:
        cut = format_value(v.result_cut_from)
        # the signed table, shown instead of the plain one, counts that mass in where it knows its rank
        said = f"each {kind} below {cut}, and 'at least' up to {cut}, is exact"
        if v.signed and not v.signed_cut_through:
            said = f"each {kind} below {cut} is exact (the signed table's 'at least' leaves the cut mass out)"
        lines.append(f"all of it on {cut} or more: {said}")
    return lines


def _distribution_lines(kind: str, dist: Mapping[Any, Fraction], views: Mapping[Any, tuple], exact: bool = False
                        ) -> list[str]:
    """A distribution as rows: value, %, at least and at most (where ``views`` has them), a bar.
    Without ``exact``, the runs at its ends of rows below ``REST_BELOW`` are one "rest" row each
    with their total, as `dice --odds` folds them (forty exploding dice: a result from 0 to 440,
    most of it below 10^-6)."""
    peak = max(dist.values())
    items = list(dist.items())
    labels = [_v(v) for v, _ in items]
    rows = [f"{_pct(p):>7}" + (f"    {_pct(views[v][0]):>7}    {_pct(views[v][1]):>7}" if v in views else "")
            + f"  {_bar(p, peak)}" for v, p in items]
    folds = [] if exact else tails([p < REST_BELOW for _, p in items])
    for start, stop in reversed(folds):
        total = sum((p for _, p in items[start:stop]), Fraction(0))
        first, last = items[start][0], items[stop - 1][0]
        cum = (f"    {_pct(views[first][0]):>7}    {_pct(views[last][1]):>7}"
               if first in views and last in views else "")
        labels[start:stop] = [f"{_v(first)}..{_v(last)}"]
        rows[start:stop] = [f"{_pct(total):>7}{cum}  ({stop - start} values under {float(REST_BELOW * 100):g}% each)"]
    vw = max([5, len(kind)] + [len(label) for label in labels])
    lines = [f"{kind:>{vw}}        %" + ("   at least    at most" if views else "")]
    lines += [f"{label:>{vw}}  {row}".rstrip() for label, row in zip(labels, rows, strict=True)]
    return lines
