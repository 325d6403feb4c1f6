"""One value for the exact odds of every kind of check and procedure, with one ``to_dict``.

Each kind works its odds out its own way (a check's exact driver, a contest's line-ups, an
extended check's rounds) and keeps them in a record of its own, whose fields are its Python
API. What people and programs are shown of them — the JSON of ``odds --json`` and the
service, the text table, a sweep's cells — is read from this one value, which every kind
builds with ``view()``, as icepool's one ``Population`` carries every statistic. So the JSON
keys, their order, how each distribution is charged to the work budget, and what the table
prints are decided here once, not in seven ``to_dict``s and a formatter that probed each
kind's attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..dice.dist import UNLIMITED, Budget, BudgetExceeded
from ..dice.stats import Summary, summarize, summary_json
from ..errors import LimitError
from ..exact_text import fraction_text
from ..records import Record, field
from .json_parts import (Rendered, cut_cumulative, distribution_json, jsonable, probability_json,
                         ranked_distribution_json, writing_cost)


class Shown(Record):
    """One distribution of the odds, with its statistics and, for numbers, each value's
    chance of that or more and of that or less (``views``: where the kind knows them better
    than summing its rows; ``cut_from`` and ``cut``: where they are its rows' sums with mass
    cut by explosions counted in, as for a check, see :func:`~.json_parts.cut_cumulative`)."""

    dist: Mapping[Any, Fraction]
    summary: Summary
    views: Mapping[Any, tuple[Fraction, Fraction]] | None = None
    cut_from: int | None = None
    cut: Fraction = Fraction(0)

    def cumulative(self) -> Mapping[Any, tuple[Fraction, Fraction]]:
        return self.views if self.views is not None else cut_cumulative(self.dist, self.cut_from, self.cut)


class Group(Record):
    """Distributions of the odds under one JSON key (a check's reported ``values``, a group's
    ``tallies``, an extended check's ``end_state``, a procedure's ``report``); ``suffix``:
    what the text adds to each name (``" at the end"``)."""

    key: str
    members: Mapping[str, Shown]
    suffix: str = ""
    in_text: bool = True  # False: the text table leaves it out (a group's tallies: its chart draws them)
    in_json: bool = True  # False: the JSON gives it its own way (a team's member values, under "members")


class OddsValue(Record):
    """The odds of a check or a procedure as every front end shows them.

    ``names``: what the odds are of, by JSON key (``("check", "attack")``; a team's odds are
    of its check and of the procedure: both), the runnable's own name last; ``inputs`` the
    kind's own inputs (None where its parties hold them); ``chart``: the distribution the
    text table draws, with its title; ``extra``: JSON only some kinds write, by key
    (``by_round``, ``bonus``, ``roller``, ``members``), placed in :data:`JSON_ORDER`."""

    ruleset: str
    names: tuple[tuple[str, str], ...]
    outcomes: Mapping[str, Fraction]
    outcome_success: Mapping[str, bool | None]
    result: Shown
    chart: tuple[str, Shown]
    truncated: Fraction
    inputs: Mapping[str, Any] | None = None
    parties: tuple[Mapping[str, Any], ...] | None = None
    success: Fraction | None = None
    named: tuple[tuple[str, Mapping[str, Fraction]], ...] = ()  # ("tags", …), ("tiers", …)
    # any the depth cut other than ``truncated`` of: a tier open where the outcome is not (more), the
    # chance of success where the outcomes left open agree on it ("success": less)
    named_truncated: tuple[tuple[str, Fraction], ...] = ()
    groups: tuple[Group, ...] = ()
    expected_rounds: Fraction | None = None
    roller: int | None = None  # a team's: the party (from 1) whose check was rolled, with ``inputs``
    signed: Mapping[str, Fraction] | None = None  # ranked: …, "-0", "+0", …
    signed_cut_through: int = 0  # the lowest signed results whose "at least" counts the cut mass in
    # the condition, its own probability and the mass on which the depth leaves it open
    given: tuple[str, Fraction, Fraction] | None = None
    result_truncated: Fraction | None = None  # a check's: what was cut from its result (None: as truncated)
    result_cut_from: int | None = None
    checks_truncation: bool = False  # a check's JSON: result_truncated and result_cut_from
    extra: tuple[tuple[str, Any], ...] = ()
    max_states: int | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The name of the check or procedure these are the odds of."""
        return self.names[-1][1]

    @property
    def result_cut(self) -> Fraction:
        """What was cut from the result's distribution (at least :attr:`truncated`)."""
        return self.truncated if self.result_truncated is None else self.result_truncated

    def to_dict(self, rendered: Rendered | None = None) -> dict[str, Any]:
        """The odds as JSON. Writing them is charged to a work budget: with ``max_states``
        (a check's), the whole cost is afforded before anything is written, so odds too big
        to write are refused first (a LimitError naming ``max_states``); either way each
        table's rows are charged as they are written, so a service's deadline is looked at.
        ``rendered``: distributions written for other odds of the same answer (a sweep's),
        whose rows are given again where a distribution is the same (charged the same)."""
        budget = self._writing_budget(rendered)
        prob = probability_json
        parts: dict[str, Any] = {
            "ruleset": self.ruleset,
            **dict(self.names),
            "outcomes": [dict(name=n, success=self.outcome_success.get(n, False), **prob(p))
                         for n, p in self.outcomes.items()],
            "result": distribution_json(self.result.dist, budget, self.result.views, rendered,
                                        self.result.cut_from, self.result.cut),
            "stats": {"result": summary_json(self.result.summary, fraction_text)}
            | {g.key: {k: summary_json(s.summary, fraction_text) for k, s in g.members.items()}
               for g in self.groups if g.in_json},
            "truncated": fraction_text(self.truncated),
        }
        if self.inputs is not None:
            parts["inputs"] = {k: jsonable(v) for k, v in self.inputs.items()}
        if self.parties is not None:
            parts["parties"] = [{k: jsonable(v) for k, v in p.items()} for p in self.parties]
        if self.success is not None:
            parts["success"] = prob(self.success)
        for key, named in self.named:
            parts[key] = [dict(name=n, **prob(p)) for n, p in named.items()]
        for key, cut in self.named_truncated:
            parts[f"{key}_truncated"] = fraction_text(cut)
        for g in self.groups:
            if g.in_json:
                parts[g.key] = {k: distribution_json(s.dist, budget, s.views, rendered, s.cut_from, s.cut)
                                for k, s in g.members.items()}
        if self.roller is not None:
            parts["roller"] = self.roller
        if self.expected_rounds is not None:
            parts["expected_rounds"] = float(self.expected_rounds)
            parts["expected_rounds_exact"] = fraction_text(self.expected_rounds)
        if self.checks_truncation:
            parts["result_truncated"] = fraction_text(self.result_cut)
            parts["result_cut_from"] = self.result_cut_from
        if self.given is not None:
            parts["given"] = {"expression": self.given[0], **prob(self.given[1])}
            if self.given[2]:
                parts["given"]["truncated"] = fraction_text(self.given[2])
        if self.signed:
            parts["signed_result"] = ranked_distribution_json(self.signed, budget, rendered,
                                                                self.signed_cut_through, self.result_cut)
        parts.update(self.extra)
        return {k: parts[k] for k in JSON_ORDER if k in parts}

    def _writing_budget(self, rendered: Rendered | None = None) -> Budget:
        if self.max_states is None:
            return Budget(UNLIMITED)  # no bound of its own; still charges a service's budget in force
        budget = Budget(self.max_states)
        tables = [self.outcomes, *(named for _, named in self.named)]
        listed = [self.result.dist, *([self.signed] if self.signed else []),
                  *(s.dist for g in self.groups for s in g.members.values())]
        cost = sum(writing_cost(t, cumulative=False) for t in tables) \
            + sum(writing_cost(t, True, rendered) for t in listed)
        try:
            budget.afford(cost)
        except BudgetExceeded:
            rows = sum(len(t) for t in (*tables, *listed))
            kind, name = self.names[0]
            raise LimitError(f"the odds of {kind} '{name}' of '{self.ruleset}' are too big to write out: "
                             f"{rows:,} values need more than {self.max_states:,} steps", "max_states",
                             hint="ask for odds with fewer values (fewer dice), or roll it instead") from None
        return budget


def shown(dist: Mapping[Any, Fraction], left_out: Fraction) -> Shown:
    """A distribution with its statistics, ``left_out`` what explosions cut from it."""
    return Shown(dist, summarize(dist, left_out))


def group(key: str, dists: Mapping[str, Mapping[Any, Fraction]], left_out: Fraction, suffix: str = "",
          in_text: bool = True, in_json: bool = True) -> Group:
    """Distributions under one JSON key, each with its statistics (see :func:`shown`)."""
    return Group(key, {k: shown(d, left_out) for k, d in dists.items()}, suffix, in_text, in_json)


JSON_ORDER = (
    "ruleset", "check", "procedure", "inputs", "parties", "roller", "outcomes", "success", "by_round",
    "expected_rounds", "expected_rounds_exact", "result", "tags", "tiers", "values", "tallies", "end_state",
    "members", "report", "stats", "bonus", "truncated", "result_truncated", "result_cut_from", "values_cut_from",
    "success_truncated", "truncated_outcomes", "tags_truncated", "tiers_truncated", "given", "signed_result",
)
"""The order of the keys of every kind's odds JSON (each kind writes the ones it has)."""
