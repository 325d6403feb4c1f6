"""Running a check: validated inputs → (gates) → rolls → one resolution, rolled or exact.

Everything after the dice is deterministic, so a check has ONE resolver,
:meth:`CheckRunner.resolve`, that maps (inputs, roll values) to an outcome, a result, tags
and reported values. Rolling feeds it the values rolled (from a seeded generator or faces
read off physical dice); exact odds feed it every joint value of the check's rolls with
its exact weight and add up the answers. The two can't disagree about the rules, because
only the source of the roll values differs.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, NamedTuple

from ..exact_text import fraction_text
from ..dice.dist import Budget, BudgetExceeded, Dist
from ..errors import DiceEvalError, InputError, LimitError, Location, RulesEngineError
from ..dice.evaluate import E_FACES, Context, Exact, compile_expression
from ..dice import ast
from ..dice.parser import closest
from ..limits import DEFAULT_LIMITS, Limits
from ..numerals import ASCII_DIGITS_HINT, whole_number
from ..rules.model import Check, Expr, Grid, Input, Ladder, RulesetModel
from ..dice.pool import DieRoll, PoolRoll, PoolSpec, roll_dice_pool
from ..dice.pool_odds import dice_pool_dist, faces_dist
from ..dice.sources import DiceCounter, DiceLimitReached, FacesError, FacesSource, RandomSource, dice_source
from ..dice.trace import format_value, trace
from ..dice.values import DicePool, Rolled

NOT_ALLOWED = "not_allowed"


# ---- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One way to choose dice from a roll (e.g. a pair of them), with the values it gives."""

    faces: tuple[int, ...]
    values: dict[str, Any]
    preferred: bool

    def to_dict(self) -> dict:
        return {"faces": list(self.faces), "values": dict(self.values), "preferred": self.preferred}


@dataclass(frozen=True)
class Resolution:
    outcome: str
    success: bool
    result: Any
    tags: tuple[str, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    tier: str | None = None
    reason: str = ""
    skipped: bool = False
    choices: tuple[Choice, ...] = ()
    chosen: Choice | None = None
    env: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Every name the check defined (inputs, values, rolls, chosen values, result, outcome,
    success): what procedures' expressions see, the same whether rolled or enumerated."""


class PreRoll(NamedTuple):
    """What is settled before any die is rolled."""

    env: dict[str, Any]  # inputs and the values that read no roll
    gated: Resolution | None  # a gate's verdict: the check ends without rolling
    fixed: dict[str, Any]  # roll values a gate fixed instead of rolling (take 10)
    secret: bool
    reason: str  # the reason of the gate that applied, if any
    resolved: dict | None = None  # (roll values, player's choice) → Resolution, see finish


PREPARED_INPUTS = 256  # sets of inputs whose coerced values and PreRoll are remembered
RESOLVED_PER_INPUTS = 4096  # resolutions remembered per set of inputs (CheckRunner._resolve_known)
RESOLVED_IN_ALL = 8192  # ... and by one check in all: a few MB at most, however it is used


class Sample(NamedTuple):
    """A check's dice, rolled but not yet resolved (or a gate's verdict, with no dice)."""

    gated: Resolution | None
    rolls: dict[str, Any]
    pools: tuple[tuple[str, PoolRoll], ...]
    lines: tuple[Any, ...]  # text, or a function rendering it when the trace is read
    secret: bool
    pre: Any = None  # the PreRoll the dice were rolled under
    values: Any = None  # the inputs it was made with


@dataclass
class CheckResult:
    """One roll of a check: what a front end shows and a chat bot prints.

    A record to read, not to change. It is not a frozen dataclass only because a frozen
    one with this many fields costs ~3 µs to make, a fifth of a whole roll of a simple
    check; nothing in the engine reads a result back after handing it out."""

    ruleset: str
    check: str
    inputs: dict[str, Any]
    outcome: str
    success: bool
    result: Any
    tags: tuple[str, ...]
    values: dict[str, Any]
    rolls: dict[str, Any]
    pools: tuple[tuple[str, PoolRoll], ...]
    lines: tuple[Any, ...] = field(repr=False, compare=False)  # text, or functions rendering it
    tier: str | None = None
    reason: str = ""
    secret: bool = False
    skipped: bool = False
    choices: tuple[Choice, ...] = ()
    chosen: Choice | None = None
    env: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _shown: list = field(default_factory=list, repr=False, compare=False)

    @property
    def trace(self) -> str:
        """A readable account of the dice, rendered when first read (rolling many times and
        reading only outcomes doesn't pay for the text)."""
        if not self._shown:
            self._shown.append("\n".join(line() if callable(line) else line for line in self.lines))
        return self._shown[0]

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(d for _, p in self.pools for d in p.dice)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "check": self.check,
            "inputs": {k: _jsonable(v) for k, v in self.inputs.items()},
            "dice": [dict(roll=name, term=p.text, **d.to_dict()) for name, p in self.pools for d in p.dice],
            "rolls": {k: _jsonable(v) for k, v in self.rolls.items()},
            "result": _jsonable(self.result),
            "outcome": self.outcome,
            "success": self.success,
            "tags": list(self.tags),
            "trace": self.trace,
        }
        out.update({k: _jsonable(v) for k, v in self.values.items()})
        if self.tier is not None:
            out["tier"] = self.tier
        if self.reason:
            out["reason"] = self.reason
        out["secret"] = self.secret
        if self.skipped:
            out["skipped_roll"] = True
        if self.choices:
            out["choices"] = [c.to_dict() for c in self.choices]
            out["chosen"] = self.chosen.to_dict() if self.chosen else None
        return out


@dataclass(frozen=True)
class CheckOdds:
    """Exact probabilities of every outcome, tag, tier and result value of one check."""

    ruleset: str
    check: str
    inputs: dict[str, Any]
    outcomes: dict[str, Fraction]
    outcome_success: dict[str, bool]
    success: Fraction
    result_distribution: dict[Any, Fraction]
    tags: dict[str, Fraction]
    tiers: dict[str, Fraction]
    values: dict[str, dict[Any, Fraction]]
    truncated: Fraction = Fraction(0)

    def probability(self, outcome: str) -> Fraction:
        return self.outcomes.get(outcome, Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        prob = probability_json
        return {
            "ruleset": self.ruleset,
            "check": self.check,
            "inputs": {k: _jsonable(v) for k, v in self.inputs.items()},
            "outcomes": [dict(name=n, success=self.outcome_success.get(n, False), **prob(p))
                         for n, p in self.outcomes.items()],
            "success": prob(self.success),
            "result": [dict(value=_jsonable(v), **prob(p)) for v, p in self.result_distribution.items()],
            "tags": [dict(name=n, **prob(p)) for n, p in self.tags.items()],
            "tiers": [dict(name=n, **prob(p)) for n, p in self.tiers.items()],
            "values": {k: [dict(value=_jsonable(v), **prob(p)) for v, p in d.items()]
                       for k, d in self.values.items()},
            "truncated": fraction_text(self.truncated),
        }


def probability_json(p: Fraction) -> dict[str, Any]:
    """A probability in results' JSON: a float for display and the exact fraction as text."""
    return {"probability": float(p), "exact": fraction_text(p)}


def _jsonable(v: Any) -> Any:
    if isinstance(v, Rolled):
        return v.total
    if isinstance(v, DicePool):
        return v.text()
    return v


def _sort_key(v: Any):
    return (0, v) if isinstance(v, int) and not isinstance(v, bool) else (1, str(v))


# ---- the runner -------------------------------------------------------------------------------


class CheckRunner:
    """Runs one check of one ruleset. Made once per check (see Ruleset.check)."""

    def __init__(self, model: RulesetModel, check: Check, functions: Mapping, doc=None,
                 limits: Limits = DEFAULT_LIMITS) -> None:
        self.model = model
        self.check = check
        self.functions = functions
        self.doc = doc
        self.limits = limits
        self._exact_rolls: dict[str, Any] = {}
        self._exact_exprs: dict[str, Any] = {}  # expressions outside the check (roll-offs), by pointer
        self._odds_cache: dict[tuple, CheckOdds] = {}
        self._prepared: dict[tuple, tuple[dict[str, Any], PreRoll]] = {}
        self._resolved_in_all = 0
        self._roll_terms = [(name, e, id(node) if (node := _single_dice(e.tree)) is not None else None)
                            for name, e in check.rolls]

    # ---- inputs ------------------------------------------------------------------------
    def coerce_inputs(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate and convert inputs before anything is rolled (InputError otherwise)."""
        return self.coerce_specs(self.check.inputs, given, f"check '{self.check.name}'")

    def coerce_specs(self, specs: Iterable[Input], given: Mapping[str, Any] | None, owner: str,
                     unknown_hint: str | None = None) -> dict[str, Any]:
        """Check given values against input specs: unknown names, missing ones, types,
        bounds and labels; fill in defaults; an optional input left out is None."""
        specs = list(specs)
        given = dict(given or {})
        names = [i.name for i in specs]
        for key in given:
            if key not in names:
                near = closest(str(key), names)
                raise InputError(f"unknown input '{key}' for {owner}",
                                 hint=f"did you mean '{near}'?" if near else
                                 unknown_hint or "inputs: " + (", ".join(names) or "none"))
        env: dict[str, Any] = {}
        for spec in specs:
            if spec.name in given and not (given[spec.name] is None and spec.optional):
                env[spec.name] = self._coerce(spec, given[spec.name])
            elif spec.has_default:
                env[spec.name] = self._coerce(spec, spec.default)
            elif spec.optional:
                env[spec.name] = None
            else:
                raise InputError(f"missing input '{spec.name}' for {owner}", hint=describe_input(spec))
        return env

    def _coerce(self, spec: Input, value: Any) -> Any:
        where = f"{spec.name}={_short(value)}"
        if spec.type == "boolean":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "off"):
                return False
            raise InputError(f"{where} is not true or false", hint=describe_input(spec))
        if spec.type == "choice":
            text = str(value).strip() if not isinstance(value, bool) else ""
            if text in spec.choices:
                return text
            near = closest(text, list(spec.choices))
            raise InputError(f"{where} is not one of its choices",
                             hint=(f"did you mean '{near}'? " if near else "") + "choices: " + ", ".join(spec.choices))
        if spec.type == "dice_pool":
            try:
                return DicePool.parse(str(value))
            except ValueError as exc:
                raise InputError(f"{where} is not a dice pool: {exc}", hint="e.g. d8/d4/d4") from None
        # integer, possibly a label from a table
        number = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            text = value.strip()
            try:
                number = whole_number(text)  # ASCII digits, as in the dice language
            except ValueError:
                number = self._label(spec, text)
        if number is None:
            raise InputError(f"{where} is not a whole number", hint=describe_input(spec))
        if spec.min is not None and number < spec.min:
            raise InputError(f"{spec.name}={_short(number, False)} is below its minimum {spec.min}", hint=describe_input(spec))
        if spec.max is not None and number > spec.max:
            raise InputError(f"{spec.name}={_short(number, False)} is above its maximum {spec.max}", hint=describe_input(spec))
        if abs(number) > self.limits.max_magnitude:  # an input without bounds still has the engine's
            raise LimitError(f"{spec.name} is too large", "max_magnitude",
                             hint=f"numbers are limited to ±{self.limits.max_magnitude:,}")
        return number

    def _label(self, spec: Input, text: str) -> int:
        table = self.model.tables.get(spec.labels) if spec.labels else None
        if table is None:
            digits = any(ch.isdigit() or ch == "_" for ch in text)
            raise InputError(f"{spec.name}={_short(text)} is not a whole number",
                             hint=describe_input(spec) + (f"; {ASCII_DIGITS_HINT}" if digits else ""))
        if isinstance(table, Ladder):
            entries = dict(table.entries)
        elif isinstance(table, Grid):
            col = table.columns.index(spec.labels_column)
            entries = {label: values[col] for label, values in table.rows}
        else:  # pragma: no cover - rejected when the ruleset is built
            entries = {}
        key = text.lower().replace(" ", "_").replace("-", "_")
        if key in entries:
            return entries[key]
        if text in entries:
            return entries[text]
        near = closest(key, list(entries))
        raise InputError(f"{spec.name}={_short(text)} is neither a number nor a label of {spec.labels}",
                         hint=(f"did you mean '{near}'? " if near else "") + "labels: " + ", ".join(entries))

    # ---- evaluation helpers ---------------------------------------------------------------
    def _eval(self, e: Expr, env: Mapping[str, Any], **ctx_args) -> Any:
        ctx = Context(e.text, env, self.limits, **ctx_args)
        try:
            return e.run(ctx)
        except RulesEngineError as exc:
            raise self._relocate(exc, e) from None

    def _relocate(self, exc: RulesEngineError, e: Expr) -> RulesEngineError:
        """Point an error inside a ruleset expression at the file, not the expression."""
        if self.doc is not None and exc.location.path is None:
            col = exc.location.column
            loc = (self.doc.scalar_column(e.pointer, col - 1, length=exc.location.length)
                   if col is not None else self.doc.location(e.pointer))
            exc.location = loc
        return exc

    def _truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        value = self._eval(e, env)
        if not isinstance(value, bool):
            raise self._relocate(RulesEngineError(
                f"condition '{e.text}' gives {format_value(value)}, not true or false",
                code="E511", hint="write a comparison, e.g. roll >= 10"), e)
        return value

    def _let(self, let, env: Mapping[str, Any]) -> Any:
        if let.expr is not None:
            return self._eval(let.expr, env)
        best = None
        for cand in let.best_of:
            if cand.when is not None and not self._truth(cand.when, env):
                continue
            value = self._eval(cand.value, env)
            if value is None:
                continue
            if best is None or value > best:
                best = value
        return best

    # ---- the phases ----------------------------------------------------------------------
    def before_roll(self, inputs: dict[str, Any]) -> "PreRoll":
        """Values known before rolling; a gate's verdict (or fixed roll values); secrecy."""
        env = dict(inputs)
        for let in self.check.lets:
            if not let.after_roll:
                env[let.name] = self._let(let, env)
        secret = bool(self.check.secret is not None and self._truth(self.check.secret, env))
        fixed: dict[str, Any] = {}
        for gate in self.check.gates:
            if not self._truth(gate.when, env):
                continue
            if gate.outcome:
                result = self._eval(gate.result, env) if gate.result is not None else None
                success = self.check.outcome_success(gate.outcome) if gate.outcome != NOT_ALLOWED else False
                final_env = {**env, "result": result, "outcome": gate.outcome, "success": success}
                verdict = Resolution(gate.outcome, success, result, (), self._report(env), self._tier(result),
                                     gate.reason, skipped=True, env=final_env)
                return PreRoll(env, verdict, fixed, secret, gate.reason)
            for name, e in gate.rolls:
                fixed[name] = self._eval(e, env)
            return PreRoll(env, None, fixed, secret, gate.reason)
        return PreRoll(env, None, fixed, secret, "")

    def resolve(self, env: dict[str, Any], player_choice: Iterable[int] | None = None,
                budget: Budget | None = None) -> Resolution:
        """The one resolver: roll values are in ``env``; everything else follows. ``budget``
        (exact odds) is charged for the choices tried when the check chooses dice."""
        for let in self.check.lets:
            if let.after_roll:
                env[let.name] = self._let(let, env)
        choices: tuple[Choice, ...] = ()
        chosen = None
        if self.check.choose is not None:
            choices, chosen = self._choose(env, player_choice, budget)
            env.update(chosen.values)
        result = self._eval(self.check.result, env) if self.check.result is not None else None
        env["result"] = result
        outcome, success = None, False
        for rule in self.check.outcomes:
            if rule.when is None or self._truth(rule.when, env):
                outcome, success = rule.name, rule.success
                if rule.result is not None:
                    result = self._eval(rule.result, env)
                break
        if outcome is None:
            raise RulesEngineError(f"no outcome rule of check '{self.check.name}' matched",
                                   code="E512", hint="end the outcome rules with one that has no 'when'")
        env["result"], env["outcome"], env["success"] = result, outcome, success
        tags = tuple(t.name for t in self.check.tags if self._truth(t.when, env))
        return Resolution(outcome, success, result, tags, self._report(env), self._tier(result),
                          choices=choices, chosen=chosen, env=env)

    def _report(self, env: Mapping[str, Any]) -> dict[str, Any]:
        return {name: env.get(name) for name in self.check.report}

    def _tier(self, result: Any) -> str | None:
        if self.check.tiers is None or result is None or isinstance(result, bool):
            return None
        return self.functions[self.check.tiers][0](result) or None  # below every tier: none

    def _choose(self, env: dict[str, Any], player_choice: Iterable[int] | None, budget: Budget | None = None):
        spec = self.check.choose
        rolled = env[spec.source]
        faces = rolled.faces if isinstance(rolled, Rolled) else (rolled,)
        k = min(spec.pick, len(faces))
        ways = math.comb(len(faces), k)
        if ways > self.limits.max_choices:
            raise self._relocate(LimitError(
                f"choosing {k} of {len(faces)} dice can be done {ways:,} ways, too many to compare",
                "max_choices", Location(column=1, source_line=spec.source), "roll fewer dice"),
                self.check.choose.values[0][1])
        if budget is not None:
            try:
                budget.spend(ways)
            except BudgetExceeded:
                raise self._too_big(self.check.rolls[0][1]) from None
        seen, choices = set(), []
        for combo in itertools.combinations(sorted(faces, reverse=True), k):
            if combo in seen:
                continue
            seen.add(combo)
            local = dict(env)
            local["chosen"] = Rolled(sum(combo), combo)
            values = {}
            for name, e in spec.values:
                values[name] = local[name] = self._eval(e, local)
            preferred = bool(spec.prefer is not None and self._truth(spec.prefer, local))
            choices.append(Choice(combo, values, preferred))
        if player_choice is not None:
            want = tuple(sorted(player_choice, reverse=True))
            for c in choices:
                if c.faces == want:
                    return tuple(choices), c
            raise InputError(f"cannot choose {list(player_choice)} from the dice {list(faces)}",
                             hint=f"choose {k} of the faces rolled")

        def rank(c: Choice):
            return (c.preferred,) + tuple(_sort_key(c.values[o]) for o in spec.order)

        return tuple(choices), max(choices, key=rank)

    # ---- rolling -------------------------------------------------------------------------
    def roll(self, inputs: Mapping[str, Any] | None = None, *, rng: random.Random | None = None,
             seed: int | str | None = None, faces: Iterable[int] | None = None,
             choose: Iterable[int] | None = None) -> CheckResult:
        values, pre = self.prepare(inputs)
        source: Any = dice_source(rng=rng, seed=seed, faces=faces)
        result = self.finish(values, self.sample(values, source, pre), choose)
        if faces is not None and source.used < len(source.faces):
            raise InputError(f"{len(source.faces)} faces given, but the check rolled only {source.used}",
                             hint="give one face per die rolled")
        return result

    def roll_from(self, values: dict[str, Any], source, choose: Iterable[int] | None = None) -> CheckResult:
        """Roll with coerced inputs and a dice source shared with other rolls (contests)."""
        sample = self.sample(values, source)
        return self.finish(values, sample, choose)

    def prepare(self, given: Mapping[str, Any] | None) -> tuple[dict[str, Any], PreRoll]:
        """Coerced inputs and what is settled before the roll, remembered per set of given
        inputs: a front end rolls the same character's check again and again, and nothing
        before the dice depends on anything but the inputs. Each call gets its own copy of
        the inputs (results hand them out); the PreRoll is shared and never changed."""
        try:
            # Types are part of the key: 1, 1.0 and True are equal keys but not equal inputs.
            key = (tuple(given.items()), tuple(map(type, given.values()))) if given else ()
            entry = self._prepared.get(key)
        except TypeError:  # an unhashable value: nothing to remember it by
            values = self.coerce_inputs(given)
            return values, self.before_roll(values)
        if entry is None:
            values = self.coerce_inputs(given)
            entry = (values, self.before_roll(values)._replace(resolved={}))
            if len(self._prepared) >= PREPARED_INPUTS:
                self._prepared.clear()
                self._resolved_in_all = 0
            self._prepared[key] = entry
        return dict(entry[0]), entry[1]

    def sample(self, values: dict[str, Any], source, pre: PreRoll | None = None) -> "Sample":
        """Roll the check's dice (unless a gate decides first); nothing is resolved yet.
        ``pre``: the PreRoll of these inputs, if the caller has it already."""
        if pre is None:
            pre = self.before_roll(values)
        env, gated, fixed, secret, fixed_reason, _ = pre
        env = dict(env)
        pools: list[tuple[str, PoolRoll]] = []
        lines: list[str] = []
        rolls: dict[str, Any] = {}
        if gated is None:
            counter = DiceCounter(self.limits)
            for name, e, whole in self._roll_terms:
                if name in fixed:
                    rolls[name] = env[name] = fixed[name]
                    lines.append(f"{name}: {format_value(fixed[name])} (not rolled"
                                 + (f": {fixed_reason})" if fixed_reason else ")"))
                    continue
                value, pool_list, line = self._sample_roll(name, e, whole, env, source, counter)
                rolls[name] = env[name] = value
                for p in pool_list:
                    pools.append((name, p))
                lines.append(line)
        else:
            lines.append(f"no roll: {gated.reason}" if gated.reason else "no roll")
        return Sample(gated, rolls, tuple(pools), tuple(lines), secret, pre, values)

    def finish(self, values: dict[str, Any], sample: "Sample", choose: Iterable[int] | None = None) -> CheckResult:
        """Resolve rolled dice with these inputs (which may differ from the inputs the dice
        were rolled with: a bonus from helpers applies to the same dice)."""
        if sample.gated is not None:
            res = sample.gated
        elif values is sample.values and sample.pre is not None:
            # The same inputs the dice were rolled with: the values before the roll are known.
            res = self._resolve_known(sample.pre, sample.rolls, choose)
        else:
            res = self.resolve_rolls(values, sample.rolls, choose)
        lines = sample.lines
        if res.chosen is not None:
            lines += (functools.partial(_chosen_line, res.chosen),)
        return CheckResult(self.model.id, self.check.name, values, res.outcome, res.success, res.result,
                           res.tags, dict(res.values), dict(sample.rolls), sample.pools, lines, res.tier,
                           res.reason, sample.secret, res.skipped, res.choices, res.chosen, dict(res.env))

    def _resolve_known(self, pre: PreRoll, rolls: dict[str, Any], choose: Iterable[int] | None) -> Resolution:
        """``resolve`` under a known PreRoll. The resolver is a pure function of the values
        before the roll and the roll values, so a PreRoll that remembers (``resolved``) hands
        out the resolution it already worked out for the same dice: rolling a check again
        costs its dice, not its rules. (``finish`` copies the dicts a Resolution carries into
        the result, so no caller can change what is remembered.)"""
        memo = pre.resolved
        if memo is None:
            return self.resolve({**pre.env, **rolls}, choose)
        choice = tuple(choose) if choose is not None else None
        key = (tuple(rolls.values()), choice)
        try:
            res = memo.get(key)
        except TypeError:  # a choice that is not a list of faces: resolve says what is wrong
            return self.resolve({**pre.env, **rolls}, choice)
        if res is None:
            res = self.resolve({**pre.env, **rolls}, choice)
            if len(memo) < RESOLVED_PER_INPUTS and self._resolved_in_all < RESOLVED_IN_ALL:
                memo[key] = res
                self._resolved_in_all += 1
        return res

    def resolve_rolls(self, values: dict[str, Any], rolls: Mapping[str, Any],
                      choose: Iterable[int] | None = None) -> Resolution:
        """The resolution of given roll values under given inputs (gates re-decided)."""
        pre = self.before_roll(values)
        if pre.gated is not None:
            return pre.gated
        return self.resolve({**pre.env, **rolls}, choose)

    def _sample_roll(self, name: str, e: Expr, whole: int | None, env: dict, source, counter):
        """Roll one of the check's rolls. ``whole``: the id of its dice term when the roll is
        one dice term alone, whose value is then seen whole (total and faces: ``Rolled``)."""
        ctx = Context(e.text, env, self.limits, source, counter)
        try:
            value = e.run(ctx)
        except RulesEngineError as exc:
            raise self._relocate(exc, e) from None
        pools = list(ctx.pools.values())
        if type(value) is DicePool:
            try:
                pool = roll_dice_pool(value.sides, value.text(), source, counter)
            except FacesError as exc:
                raise self._relocate(DiceEvalError(exc.message, Location(column=1, source_line=e.text),
                                                   exc.hint, E_FACES), e) from None
            except DiceLimitReached:
                raise self._relocate(LimitError(f"the pool {value.text()} has more dice than a roll may use",
                                                "max_dice", Location(column=1, source_line=e.text)), e) from None
            pools.append(pool)
            value = Rolled(pool.total, tuple([d.value for d in pool.dice]))
            return value, pools, lambda: f"{name}: {pool.text} → [{', '.join(str(d.face) for d in pool.dice)}] = {pool.total}"
        if whole is not None and whole in ctx.pools:
            p = ctx.pools[whole]
            value = Rolled(p.total, tuple([d.value for d in p.dice if d.kept]))
        # ``env`` only gains names after this (the later rolls), none of which this roll's
        # expression can read, so the trace may read it later without a copy.
        by_node = ctx.pools
        return value, pools, lambda: f"{name}: {trace(e.text, e.tree, by_node, env, _jsonable(value))}"

    # ---- exact odds ----------------------------------------------------------------------
    def odds(self, inputs: Mapping[str, Any] | None = None) -> CheckOdds:
        values = self.coerce_inputs(inputs)
        key = tuple(sorted((k, str(v)) for k, v in values.items()))
        cached = self._odds_cache.get(key)
        if cached is not None:
            return cached
        acc = _Accumulator()
        outcomes, joint_denom = self.resolutions(values)
        total_weight = 0
        for res, _env, w in outcomes:
            acc.add(res, w, 1)
            total_weight += w
        odds = acc.finish(self, values, joint_denom, total_weight)
        if len(self._odds_cache) > 256:
            self._odds_cache.clear()
        self._odds_cache[key] = odds
        return odds

    def resolutions(self, values: dict[str, Any]) -> tuple[list[tuple[Resolution, dict, int]], int]:
        """Every resolution of the check for these (coerced) inputs, with its weight over a
        common denominator: the exact driver of the one resolver. Weights sum to the
        denominator unless an explosion was truncated."""
        env, gated, joint, denom = self.joint_rolls(values)
        if gated is not None:
            return [(gated, env, 1)], 1
        # Charge the whole enumeration before doing it: every joint outcome is resolved,
        # and where the check chooses dice, every way of choosing is tried.
        cost = len(joint)
        if self.check.choose is not None and joint:
            rolled = joint[0][0].get(self.check.choose.source)
            n = len(rolled.faces) if isinstance(rolled, Rolled) else 1
            cost *= 1 + math.comb(n, min(self.check.choose.pick, n))
        try:
            Budget(self.limits.max_states).spend(cost)
        except BudgetExceeded:
            raise self._too_big(self.check.rolls[0][1]) from None
        out = []
        for rolls, w in joint:
            local = {**env, **rolls}
            out.append((self.resolve(local), local, w))
        return out, denom

    def joint_rolls(self, values: dict[str, Any]) -> tuple[dict, Resolution | None, list[tuple[dict, int]], int]:
        """The values known before rolling, a gate's verdict, and every joint value of the
        check's rolls with its weight over ``denom``."""
        env, gated, fixed = self.before_roll(values)[:3]
        if gated is not None:
            return env, gated, [], 1
        budget = Budget(self.limits.max_states)
        joint: list[tuple[dict, int]] = [({}, 1)]
        denom = 1
        for name, e in self.check.rolls:
            if name in fixed:
                joint = [({**d, name: fixed[name]}, w) for d, w in joint]
                continue
            dist = self._roll_dist(name, e, env, budget)
            try:
                budget.spend(len(joint) * len(dist.weights))
            except BudgetExceeded:
                raise self._too_big(e) from None
            joint = [({**d, name: v}, w * wv) for d, w in joint for v, wv in dist.weights.items()]
            denom *= dist.denom
        return env, None, joint, denom

    def _too_big(self, e: Expr) -> LimitError:
        return self._relocate(LimitError(
            f"the rolls of check '{self.check.name}' are too big to work out exactly", "max_states",
            Location(column=1, source_line=e.text), "use fewer dice"), e)

    def expression_dist(self, e: Expr, env: Mapping[str, Any], budget: Budget) -> Dist:
        """The exact distribution of any expression of this ruleset read with a party's names
        (a contest's roll-off): the check's own exact driver, tables and functions, so what
        rolls also has odds. Pool values count by their totals."""
        compiled = self._exact_exprs.get(e.pointer)
        if compiled is None:
            compiled = compile_expression(e.tree, Exact(), self.limits, e.text, self.functions)
            self._exact_exprs[e.pointer] = compiled
        try:
            return self._pool_totals(compiled(Context(e.text, env, self.limits, budget=budget)), budget)
        except BudgetExceeded:
            raise self._too_big(e) from None
        except RulesEngineError as exc:
            raise self._relocate(exc, e) from None

    def _pool_totals(self, dist: Dist, budget: Budget) -> Dist:
        """``dist`` with each dice-pool value (an input such as d8/d4/d4) replaced by the
        distribution of what that pool rolls."""
        if not any(isinstance(v, DicePool) for v in dist.weights):
            return dist
        from ..dice.dist import mixture

        return mixture([(dice_pool_dist(v.sides, budget) if isinstance(v, DicePool) else Dist.point(v), w)
                        for v, w in dist.weights.items()], dist.denom, budget)

    def _roll_dist(self, name: str, e: Expr, env: dict, budget: Budget) -> Dist:
        """The exact distribution of one roll's value: ``Rolled`` when the rules look at
        its dice (or it rolls a pool), else its total."""
        compiled = self._exact_rolls.get(name)
        domain = None
        if compiled is None:
            domain = Exact()
            compiled = (compile_expression(e.tree, domain, self.limits, e.text, self.functions), domain)
            self._exact_rolls[name] = compiled
        run, domain = compiled
        node = _single_dice(e.tree)
        try:
            if node is not None and name in self.check.faces_needed:
                return self._faces_roll_dist(node, e, env, budget, domain)
            ctx = Context(e.text, env, self.limits, budget=budget)
            return self._pool_totals(run(ctx), budget)
        except BudgetExceeded:
            raise self._too_big(e) from None
        except RulesEngineError as exc:
            raise self._relocate(exc, e) from None

    def _faces_roll_dist(self, node: ast.Dice, e: Expr, env: dict, budget: Budget, domain: Exact) -> Dist:
        from ..dice.dist import mixture
        from ..dice.evaluate import _check_count, _dynamic_spec

        ctx = Context(e.text, env, self.limits, budget=budget)
        counts = compile_expression(node.count, domain, self.limits, e.text, self.functions)(ctx)
        if node.die is None:
            side_dist = compile_expression(node.sides, domain, self.limits, e.text, self.functions)(ctx)
            budget.spend(len(side_dist.weights) * len(counts.weights))  # the pools, before they are made
            specs = [(_dynamic_spec(ctx, node, s), w) for s, w in side_dist.weights.items()]
            sdenom = side_dist.denom
        else:
            specs, sdenom = [(PoolSpec.of(node), 1)], 1
        parts = []
        for spec, ws in specs:
            for n, w in counts.weights.items():
                parts.append((faces_dist(spec, _check_count(ctx, node, n), self.limits, budget), w * ws))
        if len(parts) == 1 and counts.is_point() and sdenom == 1:
            return parts[0][0]
        return mixture(parts, counts.denom * sdenom, budget)


def _chosen_line(chosen: Choice) -> str:
    return (f"chosen: {', '.join(map(str, chosen.faces))} → "
            + ", ".join(f"{k} {format_value(_jsonable(v))}" for k, v in chosen.values.items()))


def _single_dice(tree: ast.Node) -> ast.Dice | None:
    while isinstance(tree, (ast.Group, ast.Labeled)):
        tree = tree.inner
    return tree if isinstance(tree, ast.Dice) else None


class _Accumulator:
    def __init__(self) -> None:
        self.outcomes: dict[str, int] = defaultdict(int)
        self.results: dict[Any, int] = defaultdict(int)
        self.tags: dict[str, int] = defaultdict(int)
        self.tiers: dict[str, int] = defaultdict(int)
        self.values: dict[str, dict[Any, int]] = defaultdict(lambda: defaultdict(int))
        self.success = 0

    def add(self, res: Resolution, w: int, _denom: int) -> None:
        self.outcomes[res.outcome] += w
        if res.result is not None:
            self.results[_jsonable(res.result)] += w
        for t in res.tags:
            self.tags[t] += w
        if res.tier is not None:
            self.tiers[res.tier] += w
        for k, v in res.values.items():
            self.values[k][_jsonable(v)] += w
        if res.success:
            self.success += w

    def finish(self, runner: CheckRunner, inputs: dict, denom: int, total: int) -> CheckOdds:
        def frac(w: int) -> Fraction:
            return Fraction(w, denom)

        check = runner.check
        order = [n for n in check.outcome_names if n in self.outcomes] + \
                [n for n in self.outcomes if n not in check.outcome_names]
        names = list(check.outcome_names) + [n for n in order if n not in check.outcome_names]
        outcomes = {n: frac(self.outcomes.get(n, 0)) for n in names
                    if n != NOT_ALLOWED or n in self.outcomes}
        success_of = {n: check.outcome_success(n) for n in outcomes}
        tier_order = []
        if check.tiers is not None:
            tier_order = [t.label for t in runner.model.tables[check.tiers].tiers]
        return CheckOdds(
            ruleset=runner.model.id, check=check.name, inputs=inputs, outcomes=outcomes,
            outcome_success=success_of, success=frac(self.success),
            result_distribution={v: frac(w) for v, w in sorted(self.results.items(), key=lambda kv: _sort_key(kv[0]))},
            tags={t.name: frac(self.tags.get(t.name, 0)) for t in check.tags},
            tiers={t: frac(self.tiers[t]) for t in tier_order if t in self.tiers}
            | {t: frac(w) for t, w in self.tiers.items() if t not in tier_order},
            values={k: {v: frac(w) for v, w in sorted(d.items(), key=lambda kv: _sort_key(kv[0]))}
                    for k, d in self.values.items()},
            truncated=Fraction(denom - total, denom),
        )


def _short(value: Any, quote: bool = True) -> str:
    """A value as an error message shows it: never more than 40 characters."""
    shown = repr(value) if quote else str(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def describe_input(spec: Input) -> str:
    """One line about an input: its type, range, default and help (for errors and `show`)."""
    if spec.type == "integer":
        rng = ""
        if spec.min is not None or spec.max is not None:
            rng = f" {'' if spec.min is None else spec.min}..{'' if spec.max is None else spec.max}"
        text = f"{spec.name}: a whole number{rng}"
        if spec.labels:
            text += f" or a label of {spec.labels}"
    elif spec.type == "boolean":
        text = f"{spec.name}: true or false"
    elif spec.type == "choice":
        text = f"{spec.name}: one of {', '.join(spec.choices)}"
    else:
        text = f"{spec.name}: a dice pool such as d8/d4/d4"
    if spec.has_default:
        text += f" (default {format_value(spec.default)})"
    elif spec.optional:
        text += " (optional)"
    if spec.help:
        text += f" — {spec.help}"
    return text
