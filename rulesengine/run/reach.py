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
check. Input combinations too big for the search's small budget are then worked out with the
budget the odds themselves get (a few of them, the telling ones first), so an outcome that
``odds`` shows with a chance above 0 is never reported. A chance above 0 is proof even where
explosions were cut (what was worked out is a lower bound); a chance of 0 is not, where the
odds left out explosions deeper than they follow. Outcomes without a witness after the search
get a warning (W503): "never happened for any of the N input combinations tried" — a strong
hint, though not a proof — and "could not decide" where some combination could not be worked
out or left explosions out. An ``examples:`` list of the check, or an ``allow:`` on the rule,
settles the rest (:mod:`rulesengine.run.examples`, :mod:`rulesengine.rules.allow`).
"""

from __future__ import annotations

from ..dice.trace import format_value
from ..records import replace
import itertools
from contextlib import ExitStack
from typing import Any, NamedTuple
from collections.abc import Iterator

from ..codes import (E_DIVISION_BY_ZERO, E_EVAL, E_LIMIT, E_NO_OUTCOME, E_NOT_A_CONDITION, W_NO_CATCH_ALL,
                     W_UNREACHABLE_OUTCOME)
from ..errors import Diagnostic, RulesEngineError
from ..limits import (REACH_DECIDE_FAILURES, REACH_DECIDE_TRIES, REACH_MAX_TRIES, REACH_ROLLS,
                      REACH_SEARCH_STATES, Limits)
from ..dice import ast
from ..dice.dist import shared_budget
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


def resting_integer(spec: Input) -> int:
    """The value an integer input without a default rests at while others vary: 10 where its
    bounds allow (a typical skill or target), else the middle of its bounds (0 to 20 where
    one is open)."""
    lo = spec.min if spec.min is not None else 0
    hi = spec.max if spec.max is not None else 20
    return 10 if lo <= 10 <= hi else (lo + hi) // 2


def base_inputs(check: Check) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in check.inputs:
        if spec.has_default:
            continue
        if spec.optional:
            out[spec.name] = None
        elif spec.type == "integer":
            out[spec.name] = resting_integer(spec)
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


def every_value(spec: Input, most: int) -> list[Any] | None:
    """Every value an input can take, if there are at most ``most`` (None otherwise): a
    switch, a choice or a number with both bounds (a dice pool is never finite here)."""
    if spec.type == "boolean":
        values: list[Any] = [False, True]
    elif spec.type == "choice":
        values = list(spec.choices)
    elif spec.type == "integer" and spec.min is not None and spec.max is not None:
        if spec.max - spec.min >= most:
            return None
        values = list(range(spec.min, spec.max + 1))
    else:
        return None
    return ([None] if spec.optional and not spec.has_default else []) + values


def every_input_set(check: Check, most: int, only: frozenset[str] | set[str] | None = None
                    ) -> list[dict[str, Any]] | None:
    """Every set of inputs ``check`` can take, if there are at most ``most`` of them (see
    :func:`every_value`). None otherwise. ``only``: the inputs to vary (the sets then hold
    just those; the others are for the caller to fill in)."""
    options: list[tuple[str, list[Any]]] = []
    count = 1
    for spec in check.inputs:
        if only is not None and spec.name not in only:
            continue
        values = every_value(spec, most)
        if not values:
            return None
        count *= len(values)
        if count > most:
            return None
        options.append((spec.name, values))
    return [dict(zip([n for n, _ in options], combo, strict=True))
            for combo in itertools.product(*(vs for _, vs in options))]


class Search(NamedTuple):
    """What the search learnt of one check."""

    tried: int  # input sets whose exact odds were worked out
    skipped: int  # input sets whose odds could not be worked out (a limit, an error)
    complete: bool  # the input sets searched were all the check can take
    unreached: set[str]  # outcomes no input set gave a chance
    falls_through: dict[str, Any] | None  # inputs for which a roll matches no outcome rule
    fails: list[tuple[RulesEngineError, dict[str, Any]]]  # other mistakes of the rules, and inputs showing them
    cut: int = 0  # input sets whose odds left mass to explosions deeper than they follow


class _Tally:
    """The search's running count: what each input set's exact odds showed."""

    def __init__(self, check: Check) -> None:
        self.todo = set(check.outcome_names)
        if check.outcomes and check.outcomes[0].when is None:
            # The first rule holds for every roll: it happens whenever the dice are rolled, at
            # any cost of working out the odds (a long explosion, over the search's budget).
            self.todo.discard(check.outcomes[0].name)
        self.may_fall_through = bool(check.outcomes) and all(o.when is not None for o in check.outcomes)
        self.tried = self.skipped = self.cut = 0
        self.witness: dict[str, Any] | None = None
        self.fails: dict[str, tuple[RulesEngineError, dict[str, Any]]] = {}  # one per code and place
        self.over_budget: list[dict[str, Any]] = []  # input sets the search's budget could not work out

    @property
    def busy(self) -> bool:
        return bool(self.todo) or (self.may_fall_through and self.witness is None)

    def met(self, exc: RulesEngineError, given: dict[str, Any]) -> bool:
        """Whether ``exc``, met with ``given``, is a mistake of the rules: a roll that matches no
        outcome rule (the first is kept as the witness) or a fault of :data:`RULE_FAULTS`."""
        if exc.code == E_NO_OUTCOME:
            self.witness = self.witness if self.witness is not None else given
            return True
        if exc.code in RULE_FAULTS:
            self.fails.setdefault(f"{exc.code}{exc.location.line}:{exc.location.column}", (exc, given))
            return True
        return False

    def work_out(self, runner: CheckRunner, inputs: dict[str, Any]) -> bool:
        """The exact odds of ``inputs``, counted; False when they could not be worked out."""
        given = {k: v for k, v in inputs.items() if v is not None}
        try:
            odds = runner.odds(given)
        except RulesEngineError as exc:
            self.skipped += 1
            if not self.met(exc, given) and exc.code == E_LIMIT:
                self.over_budget.append(inputs)
            return False
        self.tried += 1
        # A chance above 0 is a lower bound even where explosions were cut: the outcome happens.
        self.todo -= {n for n, p in odds.outcomes.items() if p > 0}
        self.cut += odds.truncated > 0
        return True


def search(model: RulesetModel, check: Check, functions: Any, doc: Document, limits: Limits,
           full: Limits | None = None) -> Search:
    """Exact odds over the check's input sets — all of them when there are few enough
    (REACH_MAX_TRIES), else the telling ones of :func:`candidates` — until every outcome
    has been seen (and, for rules that may fall through, all were looked at).

    Input sets too big for the search's budget (``limits``) are then worked out with the
    budget the odds themselves get (``full``), up to REACH_DECIDE_TRIES of them, telling
    ones first, so that what ``odds`` answers, validate decides."""
    runner = CheckRunner(model, check, functions, doc, limits)
    everything = every_input_set(check, REACH_MAX_TRIES)
    tally = _Tally(check)
    for inputs in (everything if everything is not None else candidates(check)):
        if tally.tried + tally.skipped >= REACH_MAX_TRIES or not tally.busy:
            break
        tally.work_out(runner, inputs)
    undecided = tally.over_budget
    if full is not None and full.max_states > limits.max_states and tally.busy and tally.over_budget:
        undecided = _decide(CheckRunner(model, check, functions, doc, full), check, tally)
    if tally.may_fall_through and tally.witness is None and undecided:
        _roll(runner, undecided[:REACH_DECIDE_TRIES], tally)
    complete = everything is not None and tally.tried + tally.skipped == len(everything)
    return Search(tally.tried, tally.skipped, complete, tally.todo, tally.witness, list(tally.fails.values()),
                  tally.cut)


def _decide(runner: CheckRunner, check: Check, tally: _Tally) -> list[dict[str, Any]]:
    """Input sets over the search's budget, worked out again with the odds' own: the telling
    ones first (:func:`candidates`), giving up after REACH_DECIDE_FAILURES that even that
    budget cannot work out. The first REACH_DECIDE_TRIES each get the whole budget; the rest
    share one more budget of the same size between them, so that many cheap ones (a pool of
    1 to 20 dice summed: 8 to 20 dice are past the search's budget, each a few thousand steps)
    are all decided, and validation stays bounded. Returns those it could not work out, then
    those it did not try, the telling ones first."""
    rank: dict[tuple, int] = {}
    for i, inputs in enumerate(itertools.islice(candidates(check), REACH_MAX_TRIES)):
        rank.setdefault(_key(inputs), i)
    pending = sorted(tally.over_budget, key=lambda s: rank.get(_key(s), len(rank)))
    tally.over_budget = []
    failed: list[dict[str, Any]] = []
    shared = None  # made for the sets past the first REACH_DECIDE_TRIES
    with ExitStack() as stack:
        for i, inputs in enumerate(pending):
            if not tally.busy or len(failed) >= REACH_DECIDE_FAILURES:
                return failed + pending[i:]
            if i == REACH_DECIDE_TRIES:
                shared = stack.enter_context(shared_budget(runner.runtime.limits.max_states))
            tally.skipped -= 1  # counted again by work_out, as worked out or not
            if not tally.work_out(runner, inputs):
                if shared is not None and shared.exhausted:  # the shared budget ran out, not its own
                    return failed + pending[i:]
                failed.append(inputs)
    return failed


def _roll(runner: CheckRunner, undecided: list[dict[str, Any]], tally: _Tally) -> None:
    """Rules that may fall through, for input sets no budget could work out: each rolled
    REACH_ROLLS times (fixed seeds, so validation is repeatable); a roll matching no outcome
    rule is a witness that they do (E512), a fault of the rules met on the way is one found.
    (What the rolls reach is not counted: W503 stays "could not decide", for an example or an
    ``allow:`` to settle.)"""
    for inputs in undecided:
        given = {k: v for k, v in inputs.items() if v is not None}
        for seed in range(REACH_ROLLS):
            if tally.witness is not None:
                return
            try:
                runner.roll(given, seed=seed)
            except RulesEngineError as exc:
                tally.met(exc, given)


def _key(inputs: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in inputs.items()))


RULE_FAULTS = frozenset({E_EVAL, E_DIVISION_BY_ZERO, E_NOT_A_CONDITION})
"""Errors of the rules themselves that a search can meet for some inputs (a division by an
input that may be 0, a condition that is not yes/no for some values): reported by validate
with the inputs that show them, like rules that fall through (E512). Limits and input
errors are not the ruleset's fault."""


def _with_defaults(check: Check, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` with the inputs it leaves to their defaults: every value the rules ran with."""
    ran = {s.name: given.get(s.name, s.default if s.has_default else None) for s in check.inputs}
    return {name: value for name, value in ran.items() if value is not None}


def _inputs_text(inputs: dict[str, Any]) -> str:
    return " with " + ", ".join(f"{k}={format_value(v)}" for k, v in inputs.items()) if inputs else ""


def unreachable_outcomes(model: RulesetModel, doc: Document, limits: Limits) -> list[Diagnostic]:
    """What the search finds, per check: outcome rules that can fall through (an error, with
    the inputs that show it; a warning W502 when the search could not prove they can't), and
    outcomes no input set reached (W503, saying how many sets were worked out and, when some
    were not, that it could not decide)."""
    small = replace(limits, max_states=min(limits.max_states, REACH_SEARCH_STATES))
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    for name, check in model.checks.items():
        found = search(model, check, functions, doc, small, limits)
        where = doc.location(f"{check.pointer}/outcomes")
        # Rules that may fall through are fixed after the last of them (a catch-all) or in it.
        last = doc.location(f"{check.pointer}/outcomes/{len(check.outcomes) - 1}") if check.outcomes else where
        for exc, inputs in found.fails:
            out.append(Diagnostic(exc.code, f"check '{name}': {exc.message}{_inputs_text(inputs)}",
                                  exc.location if exc.location.path else where, exc.hint))
        if found.falls_through is not None:
            out.append(Diagnostic(
                E_NO_OUTCOME, f"check '{name}': some rolls match no outcome rule"
                              f"{_inputs_text(_with_defaults(check, found.falls_through))}",
                last, "end the outcome rules with one without 'when' (a catch-all), or widen the conditions"))
        elif check.outcomes and all(o.when is not None for o in check.outcomes) and \
                not (found.complete and found.skipped == 0):
            out.append(Diagnostic(
                W_NO_CATCH_ALL, f"check '{name}': every outcome rule has a condition, and the search could not "
                                f"prove that every roll matches one ({_searched(found)})",
                last, "end with a rule without 'when'", "warning"))
        if found.falls_through is not None:
            # The odds of the inputs that show it stop at the fall-through: what outcomes they
            # would have reached is not known until it is mended (W503 would only say "could not
            # decide" of outcomes that plainly happen).
            continue
        for rule in _up_to_catch_all(check.outcomes):
            if rule.name not in found.unreached:
                continue
            hint = "check its condition against the rules above it and the dice's range"
            written = ast.bare(rule.when.tree) if rule.when is not None else None
            if isinstance(written, ast.Bool) and not written.value:
                message = f"outcome '{rule.name}' of check '{name}' can never happen: its condition is false as written"
                hint = "write the condition it holds on, or remove the rule"
            elif found.skipped or found.cut:
                message = (f"could not decide whether outcome '{rule.name}' of check '{name}' can happen: it did "
                           f"not in the {_searched(found)}")
                # what stopped it is the work, not the rule: say what settles it
                hint = ("if it can happen, an example that reaches it (examples:) or allow: {W503: \"why\"} on the "
                        "rule settles it; else check its condition")
            elif found.complete:
                why = (f"no input combination gives it a chance (all {found.tried} worked out)" if check.inputs
                       else "its exact odds give it no chance")
                message = f"outcome '{rule.name}' of check '{name}' can never happen: {why}"
            else:
                message = (f"outcome '{rule.name}' of check '{name}' never happened for any of the {found.tried} "
                           f"input combination{'s' if found.tried != 1 else ''} tried")
            out.append(Diagnostic(W_UNREACHABLE_OUTCOME, message, doc.location(rule.pointer), hint, "warning"))
    return out


def _searched(found: Search) -> str:
    text = f"{found.tried} input combination{'s' if found.tried != 1 else ''} worked out"
    text += f"; {found.skipped} more could not be" if found.skipped else ""
    return text + (f"; {found.cut} left out explosions deeper than the odds follow" if found.cut else "")


def _up_to_catch_all(rules: Any) -> Iterator[Any]:
    """The outcome rules up to the first catch-all (those after it are W501 already)."""
    for rule in rules:
        yield rule
        if rule.when is None:
            return
