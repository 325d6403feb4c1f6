"""Inputs inside a check's declared bounds that make it fail: validate's search for runtime
errors of the rules (E201, E202, E103, E206, E511...) before anyone meets them at the table.

Every expression of a check (a value, a gate, a roll, the result, an outcome rule, a tag)
reads some inputs, directly or through the values it reads. Whether it fails depends only
on those inputs (and on the dice), and whether it is worked out at all only on the gates
and rules before it; so each is tried over *the inputs it reads and those guarding it*,
the others left at their defaults:

* every combination of them, when there are at most :data:`SITE_MAX_SETS` (a level of 1 to
  20 read by a proficiency table: 20 tries);
* else each number at its bounds, one step inside them, 0 and 1, and the numbers the
  check's own tables and dice name (a table's row edges and one past them, a die's sides):
  where a value grows or shrinks with the inputs — a dice count, a keep's target, a table's
  key — it is largest and smallest at such values, so this is interval reasoning made
  concrete (each value found is tried, never guessed).

Each set of inputs is rolled once (a fixed seed, so validation is repeatable); a roll that
fails with anything but an input error (the caller's) or a limit is a fault of the rules,
reported with the inputs that show it. Where a fault lies at one end of an input's range
(a target number allowed up to 12 on a d10, a dice count allowed below 0, a level past a
table's last row) it is reported at that bound, which is where it is fixed; a table that
skips a value it is asked for, at the row before the gap.

Procedures are worked out exactly (their odds) for each count of parties and each party's
inputs at their defaults and their telling values, every party alike (two parties who are
both sure to succeed) or one apart (:mod:`rulesengine.run.fault_search`, which also runs both
searches for validate).
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple
from collections.abc import Iterable

from ..codes import (E_BAD_COUNT, E_BAD_MODIFIER, E_DIVISION_BY_ZERO, E_EVAL)
from ..dice import ast
from ..dice.trace import format_value
from ..errors import Diagnostic, InputError, LimitError, RulesEngineError
from ..limits import (FAULT_MAX_RUNS, SITE_MAX_SETS)
from ..rules.document import Document
from ..rules.model import Check, Expr, Input, Ranges, RulesetModel
from ..rules.table_functions import outside_table
from ..rules.model import check_expressions
from ..rules.unread import name_reads, names_read
from .check import CheckRunner
from .reach import every_value, resting_integer


# ---- what an expression reads --------------------------------------------------------------


class _Graph:
    """Which inputs each name of a check depends on, through its values and rolls."""

    def __init__(self, check: Check) -> None:
        self.inputs = {i.name for i in check.inputs}
        self.deps = name_reads(check)
        self._memo: dict[str, frozenset[str]] = {}

    def inputs_of(self, names: Iterable[str]) -> frozenset[str]:
        out: set[str] = set()
        for n in names:
            out |= self._of(n, set())
        return frozenset(out)

    def _of(self, name: str, seen: set[str]) -> frozenset[str]:
        if name in self._memo:
            return self._memo[name]
        if name in self.inputs:
            return frozenset({name})
        if name in seen or name not in self.deps:
            return frozenset()
        seen.add(name)
        out: set[str] = set()
        for n in self.deps[name]:
            if n != name:
                out |= self._of(n, seen)
        found = frozenset(out)
        self._memo[name] = found
        return found


def sites(check: Check) -> list[frozenset[str]]:
    """For each expression of the check, the inputs whose values decide whether it fails:
    those it reads (through values and rolls) and those of the gates and rules that decide
    whether it is worked out at all. Values known before the roll are worked out before any
    gate, so only what comes after the gates is guarded by them."""
    g = _Graph(check)
    out: list[frozenset[str]] = []
    for let in check.lets:
        reads = g.inputs_of(g.deps[let.name])
        gated = g.inputs_of(names_read([gate.when for gate in check.gates])) if let.after_roll else frozenset()
        out.append(reads | gated)
    if check.secret is not None:
        out.append(g.inputs_of(check.secret.names))
    guard: set[str] = set()
    for gate in check.gates:
        guard |= g.inputs_of(gate.when.names)
        out.append(frozenset(guard) | g.inputs_of(names_read([gate.result, *(e for _, e in gate.rolls)])))
    after = frozenset(guard)
    for name, _ in check.rolls:
        out.append(after | g.inputs_of({name}))
    if check.choose is not None:
        out.append(after | g.inputs_of(names_read([e for _, e in check.choose.values] + [check.choose.prefer,
                                                                                     check.choose.pick_expr])))
    out.append(after | g.inputs_of(names_read([check.result])))
    earlier: set[str] = set()
    for rule in check.outcomes:
        rule_reads = names_read([rule.when, rule.result, rule.success if isinstance(rule.success, Expr) else None])
        out.append(after | g.inputs_of(earlier | rule_reads))
        earlier |= names_read([rule.when])
    for tag in check.tags:
        out.append(after | g.inputs_of(tag.when.names))
    if check.result_sign is not None:
        out.append(after | g.inputs_of(check.result_sign.names | {"result"}))
    return out


# ---- the values tried ----------------------------------------------------------------------


POOLS = ("d6", "d8/d6", "d8/d4/d4", "d12/d10/d8/d6")
"""A dice pool input's values tried besides its default: one die, two, three and four (a
pool's size decides what choosing dice can leave)."""


def landmarks(model: RulesetModel, check: Check) -> set[int]:
    """Numbers where what a check does may change: the edges of its ruleset's ranges tables
    (and one past them), the sides of its dice, the numbers written in its expressions."""
    out: set[int] = {0, 1, -1}
    for table in model.tables.values():
        if isinstance(table, Ranges):
            for row in table.rows:
                for v in (row.low, row.high):
                    if v is not None:
                        out |= {v - 1, v, v + 1}
    for e in check_expressions(check):
        for node in ast.walk(e.tree):
            if isinstance(node, ast.Num):
                out |= {node.value - 1, node.value, node.value + 1}
            elif isinstance(node, ast.Dice) and node.die is not None and node.die.sides:
                out |= {node.die.sides, node.die.sides + 1}
    return out


def edge_values(spec: Input, marks: set[int]) -> list[Any]:
    """An input's values at its ends and at the check's landmarks (see :func:`landmarks`)."""
    if spec.type == "boolean":
        values: list[Any] = [False, True]
    elif spec.type == "choice":
        values = list(spec.choices)
    elif spec.type == "dice_pool":
        values = ([spec.default] if spec.has_default else []) + [p for p in POOLS if p != spec.default]
    else:
        lo = spec.min if spec.min is not None else min(-10, *(m for m in marks))
        hi = spec.max if spec.max is not None else max(30, *(m for m in marks))
        near = {lo, lo + 1, hi - 1, hi} | {m for m in marks if lo <= m <= hi}
        values = sorted(v for v in near if lo <= v <= hi)
    return ([None] if spec.optional and not spec.has_default else []) + values


def input_corners(spec: Input) -> list[Any]:
    if spec.type == "integer" and spec.min is not None and spec.max is not None:
        values: list[Any] = sorted({spec.min, spec.max})
    elif spec.type == "integer":
        values = [v for v in (spec.min, spec.max) if v is not None] or [0]
    else:
        return edge_values(spec, set())
    return ([None] if spec.optional and not spec.has_default else []) + values


def domain_size(domains: list[list[Any]]) -> int:
    n = 1
    for d in domains:
        n *= len(d)
    return n


def site_sets(specs: list[Input], marks: set[int], most: int) -> list[dict[str, Any]]:
    """The sets of values of ``specs`` tried for one site: all of them if few enough, else
    their edges and landmarks, else their bounds only; none if even those are too many."""
    full = [every_value(s, most) for s in specs]
    tries: list[list[list[Any]]] = []
    if all(d is not None for d in full):
        tries.append([d for d in full if d is not None])
    tries.append([edge_values(s, marks) for s in specs])
    tries.append([input_corners(s) for s in specs])
    for domains in tries:
        if domain_size(domains) <= most:
            names = [s.name for s in specs]
            return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*domains)]
    return []


# ---- the search ------------------------------------------------------------------------------


class Fault(NamedTuple):
    error: RulesEngineError
    inputs: dict[str, Any]  # the inputs that show it (those of its site)
    site: tuple[str, ...]  # the inputs its expression depends on


def base_inputs(check: Check) -> dict[str, Any]:
    """A value for every input: its default, else the middle of its range (10 where that is
    inside it), its first choice, false, or not given."""
    out: dict[str, Any] = {}
    for spec in check.inputs:
        if spec.has_default:
            out[spec.name] = spec.default
        elif spec.optional:
            out[spec.name] = None
        elif spec.type == "integer":
            out[spec.name] = resting_integer(spec)
        elif spec.type == "boolean":
            out[spec.name] = False
        elif spec.type == "choice":
            out[spec.name] = spec.choices[0] if spec.choices else None
        else:
            out[spec.name] = POOLS[2]
    return out


def given_only(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def fault_key(exc: RulesEngineError) -> tuple:
    loc = exc.location
    return (exc.code, loc.pointer, loc.line, loc.column)


def is_fault(exc: RulesEngineError) -> bool:
    """An error of the rules themselves: not the caller's (an input) and not a limit."""
    return not isinstance(exc, (InputError, LimitError))


def check_faults(model: RulesetModel, check: Check, runner: CheckRunner) -> list[Fault]:
    """Faults of ``check`` at inputs inside their bounds, one per error and place."""
    specs = {s.name: s for s in check.inputs}
    marks = landmarks(model, check)
    base = base_inputs(check)
    found: dict[tuple, Fault] = {}
    tried: set[tuple] = set()
    read_at = {e.pointer: e.names for e in check_expressions(check) if e is not None}  # what each place reads
    graph = _Graph(check)  # and the inputs it reads through values and rolls
    runs = 0
    seen_sites: set[frozenset[str]] = set()
    for site in sorted(set(sites(check)), key=lambda s: (len(s), sorted(s))):  # the same order in every process
        if site in seen_sites:
            continue
        seen_sites.add(site)
        names = sorted(site)
        for values in site_sets([specs[n] for n in names], marks, SITE_MAX_SETS):
            full = {**base, **values}
            key = tuple(sorted((k, repr(v)) for k, v in full.items()))
            if key in tried:
                continue
            if runs >= FAULT_MAX_RUNS:
                return list(found.values())
            tried.add(key)
            runs += 1
            try:
                runner.roll(given_only(full), seed=runs)
            except RulesEngineError as exc:
                if is_fault(exc):  # shown: the inputs tried, given, and read where it fails
                    reads = graph.inputs_of(read_at.get(exc.location.pointer or "", frozenset()))
                    shown = {k: v for k, v in full.items() if k in site or k in reads or not specs[k].has_default}
                    found.setdefault(fault_key(exc), Fault(exc, shown, tuple(names)))
    return list(found.values())


# ---- where a fault is fixed ------------------------------------------------------------------

BOUND_FAULTS = frozenset({E_BAD_COUNT, E_BAD_MODIFIER, E_DIVISION_BY_ZERO, E_EVAL})
"""Errors a number out of its working range gives (a negative dice count, a keep's target
past the die, a divisor of 0, a key past a table): when they happen only at one end of an
input's range, that end is where they are fixed. (E201 only for a key outside a table.)"""


def _fails_the_same(runner: CheckRunner, inputs: dict[str, Any], key: tuple, seed: int) -> bool:
    try:
        runner.roll(given_only(inputs), seed=seed)
    except RulesEngineError as exc:
        return fault_key(exc) == key
    return False


class Blame(NamedTuple):
    """The input bound a fault lies at (see :func:`bound_to_blame`)."""

    spec: Input
    side: str  # "min" or "max"
    bad: list[int]  # the failing values, in order
    others: dict[str, Any]  # the other inputs that show it, where not their defaults


def bound_to_blame(runner: CheckRunner, check: Check, fault: Fault) -> Blame | None:
    """The input bound a fault lies at, if it does: an integer input whose failing values are
    a run from its min or its max, with room left inside, that holds the fault's value.
    Inputs that fail on their own (the others at their defaults) are asked first: with a
    dice count of ``3 + penalty + bonus_dice``, the penalty allowed to -4 is the mistake,
    not the bonus dice allowed to be 0. The other inputs the run was found with are kept
    where they are not their defaults (``pool=1`` beside ``hunger`` 2 to 5: they show it)."""
    key = fault_key(fault.error)
    defaults = base_inputs(check)
    required = {k: v for k, v in fault.inputs.items() if (s := check.input(k)) is not None and not s.has_default}
    witness = {**defaults, **fault.inputs}
    on_their_own = {**defaults, **required}
    names = _bounded_integers(check, witness, fault.site)
    alone = [n for n in names if _fails_the_same(runner, {**on_their_own, n: witness[n]}, key, 1)]
    for name, base in [(n, on_their_own) for n in alone] + [(n, witness) for n in names if n not in alone]:
        spec = check.input(name)
        assert spec is not None
        for side in ("max", "min"):
            other_end = spec.min if side == "max" else spec.max
            bad = _failing_run(runner, name, side, getattr(spec, side), other_end, base, key)
            if bad and witness[name] in bad and not (other_end is not None and other_end in bad):
                others = {k: v for k, v in base.items()
                          if k != name and v is not None and (k in required or defaults.get(k) != v)}
                return Blame(spec, side, sorted(bad), others)
    return None


def _bounded_integers(check: Check, witness: dict[str, Any], site: tuple[str, ...]) -> list[str]:
    """The inputs a fault may lie at a bound of: integers with a min or a max, a whole number
    in the witness; those of the fault's site first, as they are the likelier cause."""
    names = []
    for name in [*site, *(i.name for i in check.inputs if i.name not in site)]:
        spec = check.input(name)
        value = witness.get(name)
        if spec is not None and spec.type == "integer" and (spec.min is not None or spec.max is not None) and \
                isinstance(value, int) and not isinstance(value, bool):
            names.append(name)
    return names


def _failing_run(runner: CheckRunner, name: str, side: str, end: int | None, other_end: int | None,
                 base: dict[str, Any], key: tuple) -> list[int]:
    """The values of input ``name`` that fail the same way, walking in from its ``side`` bound
    (``end``) until one does not fail, the other end is reached, or SITE_MAX_SETS are found: the
    run a bound to blame must hold."""
    if end is None:
        return []
    step = -1 if side == "max" else 1
    bad: list[int] = []
    v = end
    while len(bad) < SITE_MAX_SETS and _fails_the_same(runner, {**base, name: v}, key, len(bad) + 1):
        bad.append(v)
        if v == other_end:
            break
        v += step
    return bad


def _inputs_text(inputs: dict[str, Any]) -> str:
    shown = {k: v for k, v in inputs.items() if v is not None}
    return " with " + ", ".join(f"{k}={format_value(v)}" for k, v in shown.items()) if shown else ""


def _range_text(values: list[int]) -> str:
    return str(values[0]) if len(values) == 1 else f"{values[0]} to {values[-1]}"


def fault_diagnostic(model: RulesetModel, doc: Document, check: Check, runner: CheckRunner,
                     fault: Fault) -> Diagnostic:
    """A fault as validate reports it: at the table row or input bound where it is fixed,
    when it is one of those, else where it happened; with the inputs that show it."""
    exc = fault.error
    what = f"check '{check.name}': {exc.message}"
    outside = outside_table(exc.message) if exc.code == E_EVAL else None
    if outside is not None:
        key, name = outside
        table = model.tables.get(name)
        if isinstance(table, Ranges):
            gap = _gap_row(table, key)
            if gap is not None:
                i, row = gap
                nxt = min((r.low for r in table.rows if r.low is not None and r.low > key), default=key)
                return Diagnostic(exc.code, f"table '{name}' has no row for {key}, which check '{check.name}' "
                                  f"asks for{_inputs_text(fault.inputs)}: its rows skip "
                                  f"{_range_text(list(range(key, nxt)))}",
                                  doc.location(f"/tables/{name}/ranges/{i}"),
                                  f"extend this row to {nxt - 1} (max: {nxt - 1}), or add a row for "
                                  f"{_range_text(list(range(key, nxt)))}")
    if exc.code in BOUND_FAULTS and (exc.code != E_EVAL or outside is not None):
        blame = bound_to_blame(runner, check, fault)
        if blame is not None:
            spec, side, bad, others = blame
            limit = getattr(spec, side)
            ok = bad[0] - 1 if side == "max" else bad[-1] + 1
            direction = "lower" if side == "max" else "raise"
            cause = f"{outside[1]}" if outside is not None else ""
            shown = ", ".join(f"{k}={format_value(v)}" for k, v in others.items())
            fix = (f"{direction} {spec.name}'s {side} to {ok}"
                   + (f", or give table '{cause}' a row for {_range_text(bad)}" if cause else "")
                   + (f"; {exc.hint}" if exc.hint and not cause else "")  # the fix in the rules, beside the bound
                   # other inputs take part: the bound may be right, and those inputs together not
                   + (f"; or decide {spec.name} {_range_text(bad)} with {shown} by a gate" if others else ""))
            return Diagnostic(exc.code, f"input '{spec.name}' may be {_range_text(bad)} ({side}: {limit}), and "
                              f"there{f', with {shown},' if shown else ''} {what}",
                              doc.location(f"{spec.pointer}/{side}"), fix)
    hint = exc.hint
    if outside is not None and hint is None:
        hint = f"give table '{outside[1]}' a row for {outside[0]}, or keep the inputs out of it with a gate"
    return Diagnostic(exc.code, f"{what}{_inputs_text(fault.inputs)}",
                      exc.location if exc.location.path else doc.location(f"{check.pointer}/outcomes"), hint)


def _gap_row(table: Ranges, key: int) -> tuple[int, Any] | None:
    """The row just before ``key``, when ``key`` falls between two rows of the table."""
    below = [(i, r) for i, r in enumerate(table.rows) if r.high is not None and r.high < key]
    above = [r for r in table.rows if r.low is not None and r.low > key]
    if not below or not above:
        return None
    return max(below, key=lambda ir: ir[1].high or 0)
