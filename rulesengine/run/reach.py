"""Which outcomes of a check can happen at all: a search for inputs that reach each one.

An outcome rule can be unreachable for reasons no single expression shows: its condition
contradicts an earlier rule's, or needs a roll the dice can't make (``roll > 18`` on 3d6).
Validation therefore looks for a *witness* for every outcome: inputs whose exact odds give
it a chance above zero. The search starts from the defaults (and the middle of each
required input's range), then every number at its lowest and at its highest (with each
switch flipped), then varies
one input at a time over its telling values (its bounds, each choice, true and false,
given or not), then pairs of inputs; it stops as soon
as every outcome has been seen, so a sound ruleset costs a handful of exact-odds runs per
check. Outcomes without a witness after the search get a warning (W503): "never happened
for any of the N input combinations tried" — a strong hint, though not a proof.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any
from collections.abc import Iterator

from ..codes import W_UNREACHABLE_OUTCOME
from ..errors import Diagnostic, RulesEngineError
from ..limits import REACH_MAX_TRIES, REACH_SEARCH_STATES, Limits
from ..rules.build import ruleset_functions
from ..rules.document import Document
from ..rules.model import Check, Input, RulesetModel
from .check import CheckRunner



def telling_values(spec: Input) -> list[Any]:
    """The values of an input most likely to change which outcomes happen."""
    if spec.type == "boolean":
        values: list[Any] = [False, True]
    elif spec.type == "choice":
        values = list(spec.choices)
    elif spec.type == "dice_pool":
        values = ["d8/d4/d4", "d6", "d12/d10/d8/d6"]
    else:
        lo = spec.min if spec.min is not None else -10
        hi = spec.max if spec.max is not None else 30
        values = sorted({lo, hi, max(lo, min(hi, 0)), max(lo, min(hi, 3)), max(lo, min(hi, 10)),
                         max(lo, min(hi, 15)), (lo + hi) // 2})
    if spec.optional and not spec.has_default:
        values = [None] + values
    return values


def base_inputs(check: Check) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in check.inputs:
        if spec.has_default:
            continue
        if spec.optional:
            out[spec.name] = None
        elif spec.type == "integer":
            lo = spec.min if spec.min is not None else 0
            hi = spec.max if spec.max is not None else 20
            out[spec.name] = 10 if lo <= 10 <= hi else (lo + hi) // 2
        else:
            values = telling_values(spec)
            if values:
                out[spec.name] = values[0]
    return out


def candidates(check: Check) -> Iterator[dict[str, Any]]:
    base = base_inputs(check)
    yield base
    options = [(spec.name, telling_values(spec)) for spec in check.inputs]
    numbers = [(n, [v for v in vs if isinstance(v, int) and not isinstance(v, bool)]) for n, vs in options]
    # Every number at its lowest, then at its highest: outcomes at the ends of a scale
    # (an automatic success at a very low total) often need several inputs pushed together.
    low = {**base, **{n: vs[0] for n, vs in numbers if vs}}
    high = {**base, **{n: vs[-1] for n, vs in numbers if vs}}
    yield low
    yield high
    # Switches (true/false, choices, given or not) at both ends of the scale: a gate often
    # needs a switch and a low total together ("forgo only above 15").
    for name, values in options:
        for v in values:
            if not (isinstance(v, int) and not isinstance(v, bool)):
                yield {**low, name: v}
                yield {**high, name: v}
    for name, values in options:
        for v in values:
            yield {**base, name: v}
    for (a, va), (b, vb) in itertools.combinations(options, 2):
        for x, y in itertools.product(va, vb):
            yield {**base, a: x, b: y}


def unreachable_outcomes(model: RulesetModel, doc: Document, limits: Limits) -> list[Diagnostic]:
    """W503 warnings for outcomes of the ruleset's checks that no input tried can reach."""
    small = dataclasses.replace(limits, max_states=min(limits.max_states, REACH_SEARCH_STATES))
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    for name, check in model.checks.items():
        runner = CheckRunner(model, check, functions, doc, small)
        todo = set(check.outcome_names)
        tries = 0
        for inputs in candidates(check):
            if not todo or tries >= REACH_MAX_TRIES:
                break
            tries += 1
            given = {k: v for k, v in inputs.items() if v is not None}
            try:
                odds = runner.odds(given)
            except RulesEngineError:
                continue
            todo -= {n for n, p in odds.outcomes.items() if p > 0}
        for rule in check.outcomes:
            if rule.name in todo:
                out.append(Diagnostic(
                    W_UNREACHABLE_OUTCOME,
                    f"outcome '{rule.name}' of check '{name}' never happened for any of the {tries} "
                    f"input combination{'s' if tries != 1 else ''} tried",
                    doc.location(rule.pointer),
                    "check its condition against the rules above it and the dice's range", "warning"))
    return out
