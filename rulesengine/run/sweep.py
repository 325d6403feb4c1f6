"""Sweeps: the odds of a check or procedure for every combination of one or two swept inputs
(each a range LO..HI or a list a,b,c).

Computation, not presentation (``present.text.format_sweep`` writes a sweep out): a sweep
runs many exact-odds computations: each value gets the work budget a single call gets
(``max_states``), and all of them together ``max_sweep_states`` steps, over at most
``MAX_SWEEP`` combinations. A roll the combinations share is worked out once for all of them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..dice.dist import Budget, shared_budget
from ..errors import LimitError, RulesEngineError, UsageError
from ..limits import MAX_SWEEP
from ..exact_text import fraction_text
from .calls import Runnable, refuse_given_in_sweep
from .results import RunOdds
from .shared_rolls import sharing_rolls
from .json_parts import Rendered, probability_json
from .odds_value import OddsValue
from .sweep_words import DICE_LIKE, is_swept
from ..records import Record


class ResultFigures(Record):
    """What a sweep shows of a numeric result in each row: which distribution it is (``of``:
    the one ``odds`` charts, a check's result, an extended check's rounds), its mean (with
    ``mean_kind``: "of_mass_worked_out" where explosions were cut and no closed form is
    known), and the chance of each asked value or more."""

    of: str
    mean: Fraction
    mean_kind: str
    at_least: tuple[tuple[int, Fraction], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"of": self.of, "mean": float(self.mean), "mean_exact": fraction_text(self.mean),
                "mean_kind": self.mean_kind,
                "at_least": [{"value": n, **probability_json(p)} for n, p in self.at_least]}


def result_figures(odds: RunOdds | OddsValue, at_least: Sequence[int] = ()) -> ResultFigures | None:
    """The mean of the distribution the odds chart and its chance of each of ``at_least`` or
    more; None where that distribution is not of numbers (outcomes only, text)."""
    title, chart = (odds if isinstance(odds, OddsValue) else odds.view()).chart
    summary = chart.summary
    if summary.kind != "number" or summary.mean is None:
        return None
    views = chart.cumulative() if at_least else {}
    ranked = sorted(views)
    figures = []
    for n in at_least:
        above = [v for v in ranked if v >= n]
        figures.append((n, views[above[0]][0] if above else Fraction(0)))
    return ResultFigures(title, summary.mean, summary.mean_kind or "exact", tuple(figures))


class Sweep(Record):
    variables: tuple[str, ...]
    rows: tuple[tuple[tuple[Any, ...], RunOdds], ...]  # (values, odds)

    def figures(self, at_least: Sequence[int] = ()) -> list[ResultFigures | None]:
        """Each row's :class:`ResultFigures` (None in a row whose result is not a number)."""
        return [result_figures(odds, at_least) for _, odds in self.rows]

    def numeric(self) -> bool:
        """Whether the charted result is a number (a sweep shows its mean then) in some row: a
        row a gate decides (not allowed, no roll) has none, and shows "-" there."""
        return any(f is not None for f in self.figures())

    def to_dict(self, at_least: Sequence[int] = ()) -> list[dict[str, Any]]:
        """One odds-result per combination, each with its ``sweep`` (the swept inputs' values)
        and, where the result is a number, its ``sweep_result`` (schemas/odds-sweep.schema.json)."""
        out = []
        rendered = Rendered()  # a distribution the values share is written once
        for values, odds in self.rows:
            view = odds.view()
            figures = result_figures(view, at_least)
            d = view.to_dict(rendered)
            d["sweep"] = dict(zip(self.variables, values, strict=True))
            if figures is not None:
                d["sweep_result"] = figures.to_dict()
            out.append(d)
        return out


def sweep_values(name: str, text: str) -> list[Any]:
    """The values a sweep takes: a range of whole numbers, or the items of a list as written
    (numbers, labels, choices: each is checked like any input)."""
    if ".." not in text:
        items = [item.strip() for item in text.split(",")]
        if len(items) > MAX_SWEEP:
            raise UsageError(f"{name}={text[:40]!r}… sweeps {len(items):,} values", hint=f"at most {MAX_SWEEP}")
        return items
    return _range(name, text)


def _range(name: str, text: str) -> list[int]:
    lo, _, hi = text.partition("..")
    try:
        a, b = int(lo), int(hi)
    except ValueError:
        lo, hi = lo.strip(), hi.strip()
        words = lo and hi and not (lo.lstrip("-").isdigit() or hi.lstrip("-").isdigit())  # labels, not numbers
        dice = bool(DICE_LIKE.match(lo) and DICE_LIKE.match(hi))  # labels such as d4 list as a dice pool
        raise UsageError(f"{name}={text!r}: a sweep is LO..HI with whole numbers",
                         hint=(f"labels that read as dice are swept by their numbers: {name}=N..M, or N,M,…"
                               if dice else f"choices and labels are listed, each: {name}={lo},{hi}, with any between "
                               "them") if words else f"e.g. {name}=3..18") from None
    if a > b:
        raise UsageError(f"{name}={text!r}: LO is above HI", hint=f"e.g. {name}={b}..{a}")
    if b - a + 1 > MAX_SWEEP:
        raise UsageError(f"{name}={text!r} sweeps {b - a + 1:,} values", hint=f"at most {MAX_SWEEP}")
    return list(range(a, b + 1))


def sweep(runnable: Runnable, plain: dict[str, str], parties: dict[int, dict[str, str]],
          given: str | None = None, choices: Mapping[str, Collection[str]] | None = None) -> Sweep:
    """The odds of a check or procedure for every combination of the swept inputs, written as
    on the command line (``bonus=1..18``, ``skill=8,12,16``; ``partyN.name`` for a party's);
    ``choices``: each choice input's choices, by name (a list of them is swept even where
    each reads as dice, :func:`.sweep_words.is_swept`)."""
    choices = choices or {}
    ranges: list[tuple[str, list[Any]]] = []
    for k, v in plain.items():
        if is_swept(v, choices.get(k, ())):
            ranges.append((k, sweep_values(k, v)))
    for i, p in sorted(parties.items()):
        for k, v in p.items():
            if is_swept(v, choices.get(k, ())):
                ranges.append((f"party{i}.{k}", sweep_values(k, v)))
    return sweep_over(runnable, ranges, plain, parties, given)


def sweep_over(runnable: Runnable, ranges: list[tuple[str, list[Any]]], plain: dict[str, Any],
               parties: dict[int, dict[str, Any]], given: str | None = None) -> Sweep:
    """The odds for every combination of ``ranges`` (one or two ``(name, values)``; a party's
    input is named ``partyN.name``), the other inputs as given.

    MAX_SWEEP bounds how many combinations there are. Each combination's odds get their own
    ``max_states`` budget, as a single call does (a value that can be worked out alone can
    be worked out in a sweep), and the work of all of them together is bounded by
    ``max_sweep_states``: each may need nearly a whole budget of its own (an extended check
    over many rounds), so counting combinations alone would let a sweep run for hours. The
    bounds are counted in steps, not seconds, so a sweep is refused or not the same way on
    every machine; odds a cache already holds cost nothing, and a roll the combinations
    share (its dice do not read the swept inputs) is worked out and charged to
    ``max_sweep_states`` once (:func:`~.shared_rolls.sharing_rolls`), though each
    combination's own budget counts it, as a call alone does; the throws its rules read
    alike are resolved once each for each later combination (:mod:`.groups`)."""
    refuse_given_in_sweep(given)
    if len(ranges) > 2:
        raise UsageError(f"sweep one or two inputs at a time: {', '.join(n for n, _ in ranges)} are swept",
                         hint="give all but two of them a single value")
    for name, values in ranges:
        if len(values) > MAX_SWEEP:
            raise UsageError(f"{name} sweeps {len(values):,} values", hint=f"at most {MAX_SWEEP}")
    size = 1
    for _, values in ranges:
        size *= len(values)
    if size > MAX_SWEEP:
        raise UsageError(f"a sweep of {size:,} combinations is too large", hint=f"at most {MAX_SWEEP}")
    combos: list[tuple[Any, ...]] = [()]
    for _, values in ranges:
        combos = [c + (v,) for c in combos for v in values]
    limits = runnable.limits
    rows: list[tuple[tuple[Any, ...], RunOdds]] = []
    with shared_budget(limits.max_sweep_states) as total, sharing_rolls():
        for combo in combos:
            p_inputs = dict(plain)
            party_inputs = {i: dict(p) for i, p in parties.items()}
            for (name, _), value in zip(ranges, combo, strict=True):
                if name.startswith("party") and "." in name:
                    head, _, key = name.partition(".")
                    party_inputs[int(head[5:])][key] = value
                else:
                    p_inputs[name] = value
            label = ", ".join(f"{n}={v}" for (n, _), v in zip(ranges, combo, strict=True))
            try:
                plist = [party_inputs[i] for i in sorted(party_inputs)] or None
                odds = runnable.odds(p_inputs, parties=plist)
            except RulesEngineError as exc:
                stopped = _stopped(exc, label, len(combos), len(ranges), total)
                stopped.partial = Sweep(tuple(n for n, _ in ranges), tuple(rows))  # the values worked out before it
                raise stopped from None
            rows.append((combo, odds))
    return Sweep(tuple(n for n, _ in ranges), tuple(rows))


def _stopped(exc: RulesEngineError, label: str, combos: int, swept: int, total: Budget) -> RulesEngineError:
    """The error a sweep stops with at the combination ``label``: the combination's own, or,
    where the sweep's budget ran out (or a budget around it: a service request's), not this
    combination's own, a LimitError saying so at the place in the ruleset where the work stopped."""
    spent = _spent(total) if isinstance(exc, LimitError) else None
    if spent is None:
        return _at_combination(exc, label)
    what = f"{combos:,} combinations" if swept > 1 else f"{combos:,} values"
    return LimitError(f"a sweep of {what} is too big to work out exactly: their odds together "
                      f"need more than {spent.limit:,} steps (stopped at {label})",
                      "max_sweep_states" if spent is total else "max_states", exc.location, "sweep fewer values")


def _spent(total: Budget) -> Budget | None:
    """The budget that ran out: the sweep's own, or one it charges in turn; None if neither."""
    budget: Budget | None = total
    while budget is not None:
        if budget.exhausted:
            return budget
        budget = budget.total
    return None


def _at_combination(exc: RulesEngineError, label: str) -> RulesEngineError:
    """The same error (its kind, code, position, hint or the example it shows, and for a
    LimitError the limit's name), its message saying which combination of the sweep it happened at."""
    message = f"at {label}: {exc.message}"
    if isinstance(exc, LimitError):
        return LimitError(message, exc.limit, exc.location, exc.hint, exc.code)
    # a hint that shows what to give keeps its example as data, for each front end's words
    hint = None if exc.example is not None else exc.hint
    return type(exc)(message, exc.location, hint, exc.code, example=exc.example)
