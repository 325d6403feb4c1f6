"""Adding up a check's weighted resolutions into its exact odds (the exact driver's tally)."""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import Any
from collections.abc import Callable, Iterator, Mapping, Sequence

from ..cache import SizedCache, fractions_size
from ..dice.beyond import AtLeast, Beyond
from ..limits import DEFAULT_LIMITS
from ..rules.model import Check, RulesetModel, Tiers
from ..rules.table_functions import declared_values
from .json_parts import jsonable
from .results import NOT_ALLOWED, CheckOdds, LeftOpen, Resolution, signed_rank, value_order, with_declared


# A resolution left open: what is known of it (:class:`.results.LeftOpen`) and its weight.
Undecided = tuple[LeftOpen, int]
_UNDECIDED: ContextVar[list[Undecided] | None] = ContextVar("undecided", default=None)
_OPEN_PATHS: ContextVar[list[tuple[dict[str, Any], int]] | None] = ContextVar("open_paths", default=None)


@contextmanager
def collecting_undecided() -> Iterator[list[Undecided]]:
    """Where the resolutions made inside note the results of those whose outcome the depth
    left open (:func:`note_undecided`): for :meth:`OddsTally.finish`."""
    into: list[Undecided] = []
    token = _UNDECIDED.set(into)
    try:
        yield into
    finally:
        _UNDECIDED.reset(token)


@contextmanager
def collecting_open_paths() -> Iterator[list[tuple[dict[str, Any], int]]]:
    """Where the resolutions made inside note the values (the rolls with what was known
    before them) of those whose outcome the depth left open, with their weights: what a
    condition of conditional odds may still be decided on (:func:`note_undecided`)."""
    into: list[tuple[dict[str, Any], int]] = []
    token = _OPEN_PATHS.set(into)
    try:
        yield into
    finally:
        _OPEN_PATHS.reset(token)


def note_undecided(known: Callable[[], LeftOpen], weight: int, env: dict[str, Any] | None = None) -> None:
    """A resolution whose outcome explosions past the depth decide, with its weight: what is
    known of it (``known()``, :class:`.results.LeftOpen`) noted where it is collected. Its
    outcome stays truncated; its result is still what the result's rows and "at least" read
    (a d6! whose 18 or more decides no outcome is still 18 or more), and so is a reported
    value (a target worked out from the inputs is that target on every throw); the outcomes
    it may still come out as count it in a chance of success they all agree on. ``env``: its
    values, noted where open paths are collected (:func:`collecting_open_paths`)."""
    into = _UNDECIDED.get()
    if into is not None:
        into.append((known(), weight))
    paths = _OPEN_PATHS.get()
    if paths is not None and env is not None:
        paths.append((env, weight))


class OddsTally:
    """Adds up weighted resolutions into a check's exact odds: outcomes, success, results,
    tags, tiers and reported values, each over one common denominator."""

    def __init__(self) -> None:
        self.outcomes: dict[str, int] = defaultdict(int)
        self.results: dict[Any, int] = defaultdict(int)
        self.tags: dict[str, int] = defaultdict(int)
        self.tiers: dict[str, int] = defaultdict(int)
        self.values: dict[str, dict[Any, int]] = defaultdict(lambda: defaultdict(int))
        self.signed: dict[str, int] = defaultdict(int)
        self.success = 0
        self.results_cut = 0  # resolutions whose result is only known to be at least a number
        self.values_cut: dict[str, int] = defaultdict(int)  # the same, for each reported value
        self.values_low: dict[str, int] = {}  # the least of those numbers, for each reported value
        self.values_below: set[str] = set()  # reported values some of whose cut mass is at most a number
        self.results_low: int | None = None  # the least of those numbers
        self.results_below = False  # some result known only to be at most a number: no cut_from
        self.open: dict[str, int] = defaultdict(int)  # "tags", "tier": the weight where the depth left them open

    def add(self, res: Resolution, w: int, _denom: int) -> None:
        self.outcomes[res.outcome] += w
        result = res.result
        if type(result) is int:  # the common case first: once per resolution, tens of thousands in a sweep
            self.results[result] += w
        elif isinstance(result, AtLeast):  # an outcome known, its result cut by the depth
            self.results_cut += w
            low = result.low
            self.results_low = low if self.results_low is None else min(self.results_low, low)
        elif isinstance(result, Beyond):  # at most a number: its mass is below the rows listed
            self.results_cut += w
            self.results_below = True
        elif result is not None:
            self.results[jsonable(result)] += w
        if res.open_parts:
            for part in res.open_parts:
                self.open[part] += w
        if res.tags:
            for t in res.tags:
                self.tags[t] += w
        if res.tier is not None:
            self.tiers[res.tier] += w
        if res.values:
            for k, v in res.values.items():
                self._add_value(k, v, w)
        if res.success:
            self.success += w
        if res.signed is not None:
            self.signed[res.signed] += w

    def finish(self, model: RulesetModel, check: Check, inputs: dict, denom: int, total: int,
               max_states: int = DEFAULT_LIMITS.max_states, shared: SizedCache | None = None,
               undecided: Sequence[Undecided] = ()) -> CheckOdds:
        """The odds, outcomes in the check's order; ``denom - total`` is what was truncated;
        ``max_states``: the work budget writing them out is charged to; ``shared``: where
        the odds of a sweep keep what they share (:func:`.shared_rolls.sharing_rolls`);
        ``undecided``: the results, weights and outcomes they may be of resolutions in that
        truncated mass whose outcome alone was left open (:func:`note_undecided`)."""
        zero = Fraction(0)
        known, values_known, tags_known = self._undecided(undecided)
        success_cut, cut_outcomes = self._open_outcomes(undecided, check, denom, total)

        def frac(w: int) -> Fraction:
            return Fraction(w, denom) if w else zero  # one 0 shared by the many outcomes listed at 0

        order = [n for n in check.outcome_names if n in self.outcomes] + \
                [n for n in self.outcomes if n not in check.outcome_names]
        names = list(check.outcome_names) + [n for n in order if n not in check.outcome_names]
        outcomes = {n: frac(self.outcomes.get(n, 0)) for n in names
                    if n != NOT_ALLOWED or n in self.outcomes}
        success_of = {n: check.outcome_success(n) for n in outcomes}
        tier_order = []
        declared = declared_values(model, check)
        tiers = model.tables[check.tiers] if check.tiers is not None else None
        if isinstance(tiers, Tiers):
            tier_order = [t.label for t in tiers.tiers]
        return CheckOdds(
            ruleset=model.id, check=check.name, inputs=inputs, outcomes=outcomes,
            outcome_success=success_of, success=frac(self.success),
            result_distribution=_distribution(sorted(self.results.items(), key=lambda kv: value_order(kv[0])),
                                              denom, frac, shared),
            tags={t.name: frac(self.tags.get(t.name, 0)) for t in check.tags},
            # Every tier the table declares, 0 where the result can't reach it (so are a
            # reported value's declared values): clients need not infer the absent rows.
            tiers={t: frac(self.tiers.get(t, 0)) for t in tier_order}
            | {t: frac(w) for t, w in self.tiers.items() if t not in tier_order},
            values={k: with_declared({v: frac(w) for v, w in d.items()}, declared.get(k, ()))
                    for k, d in self.values.items()},
            truncated=Fraction(denom - total, denom),
            success_truncated=success_cut,
            truncated_outcomes=cut_outcomes,
            tags_truncated=self._cut_apart("tags", denom, total, tags_known),
            tiers_truncated=self._cut_apart("tier", denom, total),
            result_truncated=Fraction(denom - total - known + self.results_cut, denom),
            values_truncated={k: Fraction(denom - total - values_known.get(k, 0) + self.values_cut.get(k, 0), denom)
                              for k in self.values},
            # Every cut result known to be at least a number (no result left open): "at least
            # v" counts that mass in, exactly, for every v up to the least of them.
            result_cut_from=self.results_low if total + known == denom and not self.results_below else None,
            values_cut_from=self._values_cut_from(denom - total, values_known),
            signed_distribution={v: frac(w) for v, w in sorted(self.signed.items(), key=lambda kv: signed_rank(kv[0]))},
            max_states=max_states,
        )

    def _add_value(self, k: str, v: Any, w: int) -> None:
        """Reported value ``k`` is ``v`` with weight ``w``: to its row, or, a bound where the
        depth cut it, to its cut mass."""
        if isinstance(v, Beyond):
            self.values_cut[k] += w
            if isinstance(v, AtLeast):
                self.values_low[k] = min(self.values_low.get(k, v.low), v.low)
            else:
                self.values_below.add(k)
        else:
            self.values[k][jsonable(v)] += w

    def _cut_apart(self, part: str, denom: int, total: int, known: int = 0) -> Fraction | None:
        """What is cut from the tags (``part``, or the tiers) where it is not ``truncated``:
        more, where the depth left some open on throws whose outcome it decided; less, where
        it decided them on throws whose outcome it left open (``known``, their weight);
        else None (as ``truncated``)."""
        cut = denom - total - known + self.open[part]
        return Fraction(cut, denom) if cut != denom - total else None

    def _undecided(self, undecided: Sequence[Undecided]) -> tuple[int, dict[str, int], int]:
        """The results, reported values and tags of resolutions whose outcome was left open,
        added as a resolution's are (a number to its row, a bound to the cut mass); the weight
        of those whose result is known, for each reported value the weight of those where it
        is known, and the weight of those whose tags are."""
        known, tags_known = 0, 0
        values_known: dict[str, int] = defaultdict(int)
        for known_here, w in undecided:
            result = known_here.result
            for k, v in known_here.values.items():
                values_known[k] += w
                self._add_value(k, v, w)
            if known_here.tags is not None:
                tags_known += w
                for t in known_here.tags:
                    self.tags[t] += w
            if result is None:
                continue
            known += w
            if isinstance(result, AtLeast):
                self.results_cut += w
                self.results_low = result.low if self.results_low is None else min(self.results_low, result.low)
            elif isinstance(result, Beyond):
                self.results_cut += w
                self.results_below = True
            else:
                self.results[jsonable(result)] += w
        return known, values_known, tags_known

    def _open_outcomes(self, undecided: Sequence[Undecided], check: Check, denom: int, total: int
                       ) -> tuple[Fraction | None, tuple[str, ...] | None]:
        """What the outcomes left open still decide: what is cut from the chance of success
        where they decide it for some of the cut mass (each outcome a throw may be a success,
        or each not; the successes' weight added to ``success``; None where they decide it
        for none), and the outcomes all the cut mass (``denom - total``) may be, in the
        check's order, where every throw in it said which and they are not all of them."""
        decided, noted = 0, 0
        may: set[str] = set()
        for known_here, w in undecided:
            outcomes = known_here.outcomes
            if outcomes is None:
                continue
            noted += w
            may.update(outcomes)
            counts = {check.outcome_success(n) for n in outcomes}
            if len(counts) == 1 and None not in counts:
                decided += w
                if counts == {True}:
                    self.success += w
        cut = denom - total
        names = tuple(n for n in check.outcome_names if n in may)
        listed = names if noted == cut and cut and len(names) < len(check.outcome_names) else None
        return (Fraction(cut - decided, denom) if decided else None), listed

    def _values_cut_from(self, open_mass: int, values_known: Mapping[str, int]) -> dict[str, int]:
        """For each reported value whose cut mass all lies on a number or above (known on
        every resolution the depth left undecided, ``open_mass`` their weight), the least of
        those numbers: as ``result_cut_from`` is for the result."""
        return {k: low for k, low in self.values_low.items()
                if k not in self.values_below and k in self.values and values_known.get(k, 0) == open_mass}


def _distribution(rows: list[tuple[Any, int]], denom: int, frac: Callable[[int], Fraction],
                  shared: SizedCache | None) -> dict[Any, Fraction]:
    """The result's distribution of weights ``rows`` over ``denom``; in a sweep, the one made
    for the same rows before, where there is one (the same object: a d100 roll-under's
    result is the same at every skill, its hundred fractions made and written once). Rows
    are the same where their values are (of the same type: ``True`` is not ``1``) and weights."""
    if shared is None:
        return {v: frac(w) for v, w in rows}
    key = ("result distribution", denom, tuple((type(v), v, w) for v, w in rows))
    found: dict[Any, Fraction] | None = shared.get(key)
    if found is None:
        found = {v: frac(w) for v, w in rows}
        shared.put(key, found, fractions_size(found.values()))
    return found
