"""validate's search for faults, procedures included: each procedure's exact odds for the
line-ups :func:`procedure_calls` makes (every party alike, or one apart; each count of
parties it takes), and :func:`input_faults`, which runs the checks' search
(:mod:`rulesengine.run.faults`) and this one and says what they find as diagnostics.

An outcome list that lets some line-up match no rule (E512) and a contest that can never
be decided (E510) are found here.
"""

from __future__ import annotations

import itertools
from ..dice.trace import format_value
from ..records import replace
from typing import Any, NamedTuple
from collections.abc import Iterator

from ..codes import E_NO_OUTCOME, E_PROCEDURE
from ..errors import Diagnostic, RulesEngineError
from ..limits import PROCEDURE_FAULT_STATES, PROCEDURE_MAX_TRIES, Limits
from ..rules.document import Document
from ..rules.model import Check, Input, Procedure, RulesetModel
from ..rules.table_functions import ruleset_functions
from .check import CheckRunner
from .faults import (base_inputs, check_faults, domain_size, edge_values, fault_diagnostic, fault_key, given_only,
                     input_corners, is_fault)


class _Shim:
    """What a procedure runner needs of a loaded ruleset: its id, limits and checks."""

    def __init__(self, model: RulesetModel, doc: Document, limits: Limits, functions: Any) -> None:
        self.model, self.limits = model, limits
        self._doc, self._functions = doc, functions
        self._checks: dict[str, Any] = {}

    @property
    def id(self) -> str:
        return self.model.id

    def check(self, name: str) -> Any:
        if name not in self._checks:
            runner = CheckRunner(self.model, self.model.checks[name], self._functions, self._doc, self.limits)
            self._checks[name] = _CheckShim(runner)
        return self._checks[name]


class _CheckShim(NamedTuple):
    runner: CheckRunner


MEMBER_CORNERS = 16
"""At most this many corners of a party's inputs (every input at a bound or each value at
once) are tried besides one input at a time: a contest sure to tie may need two inputs at
their bounds together (a defense allowed at skill 0, where every roll fails)."""


def member_sets(check: Check) -> list[dict[str, Any]]:
    """A party's inputs tried in a procedure: the defaults, then each input at each of its
    telling values (the others at their defaults), then every corner of the inputs that have
    more than one telling value, when there are at most MEMBER_CORNERS."""
    base = base_inputs(check)
    out = [base]
    # Switches and choices first: they are what turns a gate (a roll skipped) on.
    specs = sorted(check.inputs, key=lambda s: s.type == "integer")
    domains: list[tuple[str, list[Any]]] = []
    for spec in specs:
        values = edge_values(spec, set()) if spec.type != "integer" else input_corners(spec)
        for v in values:
            if base.get(spec.name) != v:
                out.append({**base, spec.name: v})
        if len(values) > 1:
            domains.append((spec.name, values))
    if len(domains) > 1 and domain_size([d for _, d in domains]) <= MEMBER_CORNERS:
        for combo in itertools.product(*(d for _, d in domains)):
            corner = {**base, **dict(zip((n for n, _ in domains), combo, strict=True))}
            if corner not in out:
                out.append(corner)
    return out


Call = tuple[dict[str, Any], list[dict[str, Any]]]
"""A procedure's inputs and its parties' (none when the procedure takes no parties)."""


def procedure_calls(model: RulesetModel, proc: Procedure) -> Iterator[Call]:
    """(inputs, parties) to work out a procedure's odds with: every party alike, or the first
    one apart, for each count of parties the procedure takes (the fewest, one more, three,
    the most); its own inputs at their defaults, then at their telling values."""
    roles = proc.settings.roles(proc.check)
    own = base_inputs_of(proc.inputs)
    owns = [own] + [{**own, s.name: v} for s in proc.inputs for v in input_corners(s) if own.get(s.name) != v]
    by_parties = [r for r in roles if r.given_as == "parties"]
    beside = [r for r in roles if r.given_as == "inputs"]
    extra: dict[str, Any] = {}
    for r in beside:
        extra.update(_member_inputs(base_inputs(model.checks[r.check]), r.computed, own))
    if by_parties:
        yield from _calls_with_parties(model, by_parties, owns, extra)
    else:
        yield from _calls_without_parties(model, beside, owns, extra)


def _member_inputs(values: dict[str, Any], computed: tuple[str, ...], own: dict[str, Any]) -> dict[str, Any]:
    """A member check's inputs given as the procedure's: those it does not work out itself
    and the procedure does not have."""
    return {k: v for k, v in values.items() if k not in computed and k not in own}


def _calls_without_parties(model: RulesetModel, beside: list, owns: list[dict[str, Any]],
                           extra: dict[str, Any]) -> Iterator[Call]:
    """A procedure of one check (an extended task): its own inputs at each telling value, then
    the check's inputs at theirs."""
    own = owns[0]
    for o in owns:
        yield {**extra, **o}, []
    for r in beside:
        for m in member_sets(model.checks[r.check])[1:]:
            yield {**own, **_member_inputs(m, r.computed, own)}, []


def _calls_with_parties(model: RulesetModel, by_parties: list, owns: list[dict[str, Any]],
                        extra: dict[str, Any]) -> Iterator[Call]:
    """The line-ups of a procedure with parties: the fewest parties, then more of the last
    role, then every party of one role alike at each of its telling values, then the
    procedure's own inputs at theirs, then the most parties."""
    own = owns[0]
    sets = [[_strip(m, r.computed) for m in member_sets(model.checks[r.check])] for r in by_parties]
    fewest = [max(r.min, 1 if i == 0 else 0) for i, r in enumerate(by_parties)]
    yield {**extra, **own}, _lineup(sets, fewest)
    last = by_parties[-1]
    for n in (fewest[-1] + 1, 3):
        if fewest[-1] < n <= last.max:
            yield {**extra, **own}, _lineup(sets, fewest[:-1] + [n])
    for i in range(len(by_parties)):  # every party alike: two parties sure to succeed, both at a bound
        for m in sets[i][1:]:
            yield {**extra, **own}, _lineup(sets, fewest, i, m)
    for o in owns[1:]:
        yield {**extra, **o}, _lineup(sets, fewest)
    if fewest[-1] < last.max and last.max > 3:
        yield {**extra, **own}, _lineup(sets, fewest[:-1] + [last.max])


def _lineup(sets: list[list[dict[str, Any]]], counts: list[int], alike: int | None = None,
            m: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``counts[i]`` parties of each role ``i``, each with the role's default inputs
    (``sets[i][0]``); those of role ``alike`` all with ``m`` instead."""
    parties: list[dict[str, Any]] = []
    for i, n in enumerate(counts):
        if i == alike and m is not None:
            parties += [m] * n
        else:
            parties += [sets[i][0]] * n
    return parties


def _strip(values: dict[str, Any], computed: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if k not in computed and v is not None}


def _last_item(doc: Document, pointer: str) -> str:
    """The pointer of the last item of the list at ``pointer`` (the list's own without one):
    where a catch-all goes after outcome rules that can fall through."""
    depth = pointer.count("/") + 1
    items = [int(p.rsplit("/", 1)[1]) for p in doc.pointers()
             if p.startswith(pointer + "/") and p.count("/") == depth and p.rsplit("/", 1)[1].isdigit()]
    return f"{pointer}/{max(items)}" if items else pointer


def base_inputs_of(specs: tuple[Input, ...]) -> dict[str, Any]:
    fake = Check(name="", description="", inputs=specs, lets=(), gates=(), rolls=(), faces_needed=frozenset(),
                 choose=None, result=None, outcomes=(), tags=(), report=(), tiers=None, secret=None)
    return base_inputs(fake)


def procedure_faults(model: RulesetModel, proc: Procedure, doc: Document, limits: Limits,
                     functions: Any) -> list[tuple[RulesEngineError, dict[str, Any], list[dict[str, Any]]]]:
    """Faults of a procedure's exact odds, one per error and place, with the inputs and
    parties that show each."""
    from .procedures import procedure_runner

    small = replace(limits, max_states=min(limits.max_states, PROCEDURE_FAULT_STATES))
    runner = procedure_runner(_Shim(model, doc, small, functions), proc)
    found: dict[tuple, tuple[RulesEngineError, dict[str, Any], list[dict[str, Any]]]] = {}
    tried: set[str] = set()
    for inputs, parties in procedure_calls(model, proc):
        key = repr((sorted(inputs.items()), [sorted(p.items()) for p in parties]))
        if key in tried:
            continue
        if len(tried) >= PROCEDURE_MAX_TRIES:
            break
        tried.add(key)
        try:
            runner.odds(given_only(inputs), parties=parties or None)
        except RulesEngineError as exc:
            if is_fault(exc):
                found.setdefault(fault_key(exc), (exc, inputs, parties))
    return list(found.values())


def _parties_text(proc: Procedure, model: RulesetModel, inputs: dict[str, Any],
                  parties: list[dict[str, Any]]) -> str:
    """The line-up of a procedure's fault: how many parties, and the inputs given that are
    not their defaults (those are what it takes)."""
    defaults = {**base_inputs(model.checks[proc.check]), **base_inputs_of(proc.inputs)}
    parts = [f"{k}={format_value(v)}" for k, v in inputs.items() if v is not None and defaults.get(k, ...) != v]
    for i, p in enumerate(parties):
        parts += [f"party{i + 1}.{k}={format_value(v)}" for k, v in p.items() if defaults.get(k, ...) != v]
    shown = f"{len(parties)} parties" if parties else ""
    return (f" with {shown}" if shown else "") + (" and " if shown and parts else " with " if parts else "") + \
        ", ".join(parts)


def input_faults(model: RulesetModel, doc: Document, limits: Limits) -> tuple[list[Diagnostic], set[tuple]]:
    """Every fault the search finds, per check and procedure, as validate reports them; and
    where each happened (code, line, column), so that the outcome search does not say it again."""
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    raw: set[tuple] = set()
    said: set[tuple] = set()
    for check in model.checks.values():
        runner = CheckRunner(model, check, functions, doc, limits)
        for fault in check_faults(model, check, runner):
            if fault.error.code == E_NO_OUTCOME:
                continue  # the outcome search says it, with the outcome rules (reach.py)
            loc = fault.error.location
            raw.add((fault.error.code, loc.line, loc.column))
            found = fault_diagnostic(model, doc, check, runner, fault)
            at = (found.code, found.location.line, found.location.column)
            if at not in said:  # a table or a bound several checks share: said once, for the first
                said.add(at)
                out.append(found)
    for proc in model.procedures.values():
        for exc, inputs, parties in procedure_faults(model, proc, doc, limits, functions):
            where = exc.location if exc.location.path else doc.location(proc.pointer, key=True)
            hint = exc.hint
            if exc.code == E_NO_OUTCOME and exc.location.pointer == proc.pointer:
                where = doc.location(_last_item(doc, f"{proc.pointer}/outcomes"))  # as a check's (reach.py)
                hint = "end the outcome rules with one without 'when' (a catch-all), or widen the conditions"
            elif exc.code == E_PROCEDURE and hint is None:
                hint = "change the rules so that some roll settles it (a tie rule, or a check every party rolls)"
            out.append(Diagnostic(exc.code, f"{exc.message}{_parties_text(proc, model, inputs, parties)}", where,
                                  hint))
    return out, raw
