"""Tags that can never be set (W523): a tag whose condition no reachable roll makes true.

A tag's ``when`` depends on some inputs (through the values, rolls and outcome rules it
reads) and on the gates that decide whether the dice are rolled at all. When those inputs
have few enough combinations (REACH_MAX_TRIES), the exact odds of every one of them, the
other inputs at rest, decide the question: a tag with a chance of 0 in all of them can never
be set. That is a proof, so it is the only case reported: a tag the search cannot decide (an
input without bounds, a dice pool, too many combinations, odds too big to work out even with
the odds' own budget, explosions cut) gets no warning, since a file has no way to settle one.
A tag whose condition is false whatever happens (``when: "false"``, ``roll > 18`` on 3d6)
is found the same way.
"""

from __future__ import annotations

from ..records import replace
from typing import Any
from collections.abc import Iterable

from ..codes import W_TAG_NEVER_SET
from ..errors import Diagnostic, LimitError, RulesEngineError
from ..limits import REACH_DECIDE_TRIES, REACH_MAX_TRIES, REACH_SEARCH_STATES, Limits
from ..rules.document import Document
from ..rules.model import Check, RulesetModel, TagRule
from ..rules.table_functions import ruleset_functions
from ..rules.unread import name_reads, names_read
from .check import CheckRunner
from .reach import base_inputs, every_input_set


def tags_never_set(model: RulesetModel, doc: Document, limits: Limits) -> list[Diagnostic]:
    """W523 for every tag of every check that the exact odds prove can never be set."""
    small = replace(limits, max_states=min(limits.max_states, REACH_SEARCH_STATES))
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    for name, check in model.checks.items():
        if not check.tags:
            continue
        search = _TagSearch(CheckRunner(model, check, functions, doc, small),
                            CheckRunner(model, check, functions, doc, limits))
        for tag in check.tags:
            sets = _input_sets(check, tag)
            if sets is None or not search.never_set(tag.name, sets):
                continue
            why = (f"no combination of the inputs it depends on gives it a chance (all {len(sets)} worked out)"
                   if check.inputs else "its exact odds give it no chance")
            out.append(Diagnostic(
                W_TAG_NEVER_SET, f"tag '{tag.name}' of check '{name}' can never be set: {why}, so it never marks "
                "a roll", doc.location(tag.when.pointer),
                "check its condition against the dice's range, the outcome rules and the gates (a tag is read "
                "after the outcome, and not at all when a gate decides)", "warning"))
    return out


class _TagSearch:
    """The tags each input set's exact odds give a chance, worked out once per set."""

    def __init__(self, runner: CheckRunner, full: CheckRunner) -> None:
        self.runner, self.full = runner, full
        self.seen: dict[tuple, frozenset[str] | None] = {}  # None: could not be worked out
        self.retries = REACH_DECIDE_TRIES

    def never_set(self, tag: str, sets: list[dict[str, Any]]) -> bool:
        """True when every set was worked out in full and none gives ``tag`` a chance."""
        decided = True
        for inputs in sets:
            tags = self._tags(inputs)
            if tags is None:
                decided = False
            elif tag in tags:
                return False
        return decided

    def _tags(self, inputs: dict[str, Any]) -> frozenset[str] | None:
        key = tuple(sorted((k, repr(v)) for k, v in inputs.items()))
        if key not in self.seen:
            self.seen[key] = self._work_out(inputs)
        return self.seen[key]

    def _work_out(self, inputs: dict[str, Any]) -> frozenset[str] | None:
        given = {k: v for k, v in inputs.items() if v is not None}
        try:
            odds = self.runner.odds(given)
        except LimitError:
            if self.retries <= 0:
                return None
            self.retries -= 1
            try:
                odds = self.full.odds(given)
            except RulesEngineError:
                return None
        except RulesEngineError:
            return None  # a fault of the rules there: reported by the searches that look for them
        if odds.truncated > 0:
            return None  # explosions were cut: a chance of 0 proves nothing
        return frozenset(t for t, p in odds.tags.items() if p > 0)


def _input_sets(check: Check, tag: TagRule) -> list[dict[str, Any]] | None:
    """Every combination of the inputs ``tag`` depends on (and those the gates read), the
    others at rest; None when there are more than REACH_MAX_TRIES or one has no bounds."""
    depends = _inputs_of(check, tag.when.names | names_read(
        [x for g in check.gates for x in (g.when, g.result, *(e for _, e in g.rolls))]))
    base = base_inputs(check)
    sets = every_input_set(check, REACH_MAX_TRIES, only=depends)
    return None if sets is None else [{**base, **varied} for varied in sets]


def _inputs_of(check: Check, names: Iterable[str]) -> set[str]:
    """The inputs ``names`` depend on, through values, rolls, chosen values and the
    outcome (``result``, ``outcome`` and ``success`` read every outcome rule)."""
    deps = name_reads(check)
    inputs = {i.name for i in check.inputs}
    found: set[str] = set()
    seen: set[str] = set()
    pending = list(names)
    while pending:
        n = pending.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in inputs:
            found.add(n)
        pending.extend(deps.get(n, ()))
    return found
