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
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar
from collections.abc import Iterable, Mapping

from ..dice.beyond import UNDETERMINED, AtLeast, Undetermined, cut_value
from ..dice.dist import Budget, BudgetExceeded, Dist
from ..dice.context import Context
from ..dice import ast
from ..dice.pool import PoolRoll, roll_dice_pool
from ..dice.expectation import RollMean, exact_mean, roll_mean
from ..dice.sources import DiceCounter, DiceLimitReached, FacesError, RandomSource, dice_source
from ..dice.trace import TraceLine, format_value, line_maker
from ..dice.values import DicePool, Rolled, counted, symbols_text
from ..cache import CHECK_ODDS
from ..codes import E_FACES, E_NO_OUTCOME, E_NOT_A_CONDITION
from ..errors import DiceEvalError, InputError, LimitError, Location, RulesEngineError, RulesetError
from ..limits import DEFAULT_LIMITS, Limits
from ..records import replace
from ..rules.model import Check, Choose, Expr, Input, RulesetModel
from .exact import ExactRolls, RollReads
from .whole import pool_rolled, rolled_whole, whole_dice
from .inputs import InputChecker, describe_input
from .results import (NOT_ALLOWED, CheckOdds, CheckResult, Choice, Resolution, Sample, jsonable, signed_text,
                      value_order)
from .tally import OddsTally

class Remembered(NamedTuple):
    """The sizes of a runner's memo: sets of inputs, and resolutions (most for one set, in all)."""

    inputs: int
    most_resolved_per_inputs: int
    resolved: int


AnyError = TypeVar("AnyError", bound=RulesEngineError)

__all__ = ["NOT_ALLOWED", "CheckOdds", "CheckResult", "CheckRunner", "Choice", "PreRoll", "RandomSource",
           "Resolution", "Sample", "describe_input"]


class PreRoll(NamedTuple):
    """What is settled before any die is rolled."""

    env: dict[str, Any]  # inputs and the values that read no roll
    gated: Resolution | None  # a gate's verdict: the check ends without rolling
    fixed: dict[str, Any]  # roll values a gate fixed instead of rolling them
    secret: bool
    reason: str  # the reason of the gate that applied, if any
    resolved: dict | None = None  # (roll values, player's choice) → Resolution, see finish


PREPARED_INPUTS = 256  # sets of inputs whose coerced values and PreRoll are remembered
RESOLVED_PER_INPUTS = 4096  # resolutions remembered per set of inputs (CheckRunner._resolve_known)
RESOLVED_IN_ALL = 8192  # ... and by one check in all: a few MB at most, however it is used

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
        self.inputs = InputChecker(model, limits)
        self.exact = ExactRolls(check, functions, limits)
        self._odds_token = object()  # this runner's part of cache.CHECK_ODDS (a new one forgets it)
        self._prepared: dict[tuple, tuple[dict[str, Any], PreRoll]] = {}
        self._resolved_in_all = 0
        self._chosen_lines: dict[int, tuple[Choice, str]] = {}
        self._roll_terms = [(name, e, _RollPlan.of(name, e, check, self.exact.earlier_rolls(name)))
                            for name, e in check.rolls]

    # ---- inputs ------------------------------------------------------------------------
    def coerce_inputs(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate and convert inputs before anything is rolled (InputError otherwise)."""
        return self.inputs.coerce_specs(self.check.inputs, given, f"check '{self.check.name}'")

    def coerce_specs(self, specs: Iterable[Input], given: Mapping[str, Any] | None, owner: str,
                     unknown_hint: str | None = None) -> dict[str, Any]:
        """Other input specs (a procedure's own) checked with this ruleset's tables and limits."""
        return self.inputs.coerce_specs(specs, given, owner, unknown_hint)

    # ---- evaluation helpers ---------------------------------------------------------------
    def evaluate(self, e: Expr, env: Mapping[str, Any], **ctx_args) -> Any:
        ctx = Context(e.text, env, self.limits, **ctx_args)
        try:
            return e.run(ctx)
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None

    def relocate(self, exc: AnyError, e: Expr) -> AnyError:
        """Point an error inside a ruleset expression at the file, not the expression."""
        if self.doc is not None and exc.location.path is None:
            col = exc.location.column
            loc = (self.doc.scalar_column(e.pointer, e.written_at(col - 1), length=exc.location.length)
                   if col is not None else self.doc.location(e.pointer))
            exc.location = loc
        return exc

    def truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        value = self.evaluate(e, env)
        if not isinstance(value, bool):
            raise self.relocate(RulesetError(
                f"condition '{e.text}' gives {format_value(value)}, not true or false",
                code=E_NOT_A_CONDITION, hint="write a comparison, e.g. roll >= 10"), e)
        return value

    def _let(self, let, env: Mapping[str, Any]) -> Any:
        if let.expr is not None:
            return self.evaluate(let.expr, env)
        best = None
        for cand in let.best_of:
            if cand.when is not None and not self.truth(cand.when, env):
                continue
            value = self.evaluate(cand.value, env)
            if value is None:
                continue
            if best is None or value > best:
                best = value
        return best

    # ---- the phases ----------------------------------------------------------------------
    def before_roll(self, inputs: dict[str, Any]) -> PreRoll:
        """Values known before rolling; a gate's verdict (or fixed roll values); secrecy."""
        env = dict(inputs)
        for let in self.check.lets:
            if not let.after_roll:
                env[let.name] = self._let(let, env)
        secret = bool(self.check.secret is not None and self.truth(self.check.secret, env))
        fixed: dict[str, Any] = {}
        for gate in self.check.gates:
            if not self.truth(gate.when, env):
                continue
            if gate.outcome:
                result = self.evaluate(gate.result, env) if gate.result is not None else None
                success = self._success_of(gate.outcome, {**env, "result": result}) \
                    if gate.outcome != NOT_ALLOWED else False
                final_env = {**env, "result": result, "outcome": gate.outcome, "success": success}
                verdict = Resolution(gate.outcome, success, result, (), self._report(env), self._tier(result),
                                     gate.reason, skipped=True, env=final_env, signed=self._signed(final_env))
                return PreRoll(env, verdict, fixed, secret, gate.reason)
            for name, e in gate.rolls:
                fixed[name] = self.evaluate(e, env)
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
            choices, chosen = self._choose(self.check.choose, env, player_choice, budget)
            env.update(chosen.values)
        result = self.evaluate(self.check.result, env) if self.check.result is not None else None
        env["result"] = result
        outcome, success = None, False
        for rule in self.check.outcomes:
            if rule.when is None or self.truth(rule.when, env):
                if rule.result is not None:
                    result = self.evaluate(rule.result, env)
                outcome = rule.name
                success = rule.success if isinstance(rule.success, bool) else \
                    self.truth(rule.success, {**env, "result": result})  # read on the final result
                break
        if outcome is None:
            raise RulesetError(f"no outcome rule of check '{self.check.name}' matched",
                               code=E_NO_OUTCOME, hint="end the outcome rules with one that has no 'when'")
        env["result"], env["outcome"], env["success"] = result, outcome, success
        tags = tuple(t.name for t in self.check.tags if self.truth(t.when, env))
        return Resolution(outcome, success, result, tags, self._report(env), self._tier(result),
                          choices=choices, chosen=chosen, env=env, signed=self._signed(env))

    def _signed(self, env: Mapping[str, Any]) -> str | None:
        """The result with a sign of its own, where the check gives one (``result_sign``)."""
        if self.check.result_sign is None or env.get("result") is None:
            return None
        return signed_text(env["result"], self.truth(self.check.result_sign, env))

    def _report(self, env: Mapping[str, Any]) -> dict[str, Any]:
        return {name: env.get(name) for name in self.check.report}

    def _success_of(self, outcome: str, env: Mapping[str, Any]) -> bool:
        """Whether ``outcome`` counts as a success: its first rule's true or false, or its
        yes/no expression read on the final result."""
        rule = next((r for r in self.check.outcomes if r.name == outcome), None)
        if rule is None or isinstance(rule.success, bool):
            return bool(self.check.outcome_success(outcome))
        return self.truth(rule.success, env)

    def _tier(self, result: Any) -> str | None:
        if self.check.tiers is None or result is None or isinstance(result, bool):
            return None
        return self.functions[self.check.tiers][0](result) or None  # below every tier: none

    def _choose(self, spec: Choose, env: dict[str, Any], player_choice: Iterable[int] | None,
                budget: Budget | None = None) -> tuple[tuple[Choice, ...], Choice]:
        rolled = env[spec.source]
        if isinstance(rolled, AtLeast):  # which dice to choose depends on those the depth cut
            raise Undetermined
        faces = rolled.faces if isinstance(rolled, Rolled) else (rolled,)
        # Each die with its size, when the roll is a pool of mixed dice: a d8 showing 3 and a
        # d6 showing 3 are different choices (what is left differs).
        sizes = rolled.sides if isinstance(rolled, Rolled) and rolled.sides else (0,) * len(faces)
        # and the symbols on it, where the roll's dice show symbols (``symbols(chosen, …)``)
        shows = rolled.shows if isinstance(rolled, Rolled) and rolled.shows else ((),) * len(faces)
        dice = sorted(zip(faces, sizes, shows, strict=True), reverse=True)
        k = min(spec.pick, len(faces))
        ways = math.comb(len(faces), k)
        if ways > self.limits.max_choices:
            raise self.relocate(LimitError(
                f"choosing {k} of {len(faces)} dice can be done {ways:,} ways, too many to compare",
                "max_choices", Location(column=1, source_line=spec.source), "roll fewer dice"),
                spec.values[0][1])
        if budget is not None:
            try:
                budget.spend(ways)
            except BudgetExceeded:
                raise self._too_big(self.check.rolls[0][1]) from None
        seen: set[tuple] = set()
        choices: list[Choice] = []
        mixed = any(sizes)
        for picked in itertools.combinations(range(len(dice)), k):
            combo = tuple(dice[i] for i in picked)
            if combo in seen:
                continue
            seen.add(combo)
            rest = [d for i, d in enumerate(dice) if i not in picked]
            local = dict(env)
            local["chosen"] = _dice_value(combo, mixed)
            local["rest"] = _dice_value(rest, mixed)
            values = {}
            for name, e in spec.values:
                values[name] = local[name] = self.evaluate(e, local)
            preferred = bool(spec.prefer is not None and self.truth(spec.prefer, local))
            faces_chosen = tuple(f for f, _, _ in combo)
            # The same faces on dice of other sizes are another choice only where the sizes
            # change what it gives (an effect die): else one offer, as before.
            same = (faces_chosen, tuple((n, jsonable(v)) for n, v in values.items()), preferred)
            if same in seen:
                continue
            seen.add(same)
            choices.append(Choice(faces_chosen, values, preferred, tuple(s for _, s, _ in combo) if mixed else ()))

        def rank(c: Choice):
            return (c.preferred,) + tuple(value_order(c.values[o]) for o in spec.order)

        if player_choice is not None:
            want = tuple(sorted(player_choice, reverse=True))
            fits = [c for c in choices if c.faces == want]  # the same faces on dice of other sizes: the best
            if fits:
                return tuple(choices), max(fits, key=rank)
            raise InputError(f"cannot choose {list(player_choice)} from the dice {list(faces)}",
                             hint=f"choose {k} of the faces rolled")
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

    def remembered(self) -> Remembered:
        """How much this runner remembers now (see :meth:`prepare`): a long-lived front end
        or service can watch it, and the bounds above are tested through it."""
        sizes = [len(pre.resolved or ()) for _values, pre in self._prepared.values()]
        return Remembered(len(sizes), max(sizes, default=0), sum(sizes))

    def sample(self, values: dict[str, Any], source, pre: PreRoll | None = None) -> Sample:
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
                pools += [(name, p) for p in pool_list]
                lines.append(line)
        else:
            lines.append(f"no roll: {gated.reason}" if gated.reason else "no roll")
        return Sample(gated, rolls, tuple(pools), tuple(lines), secret, pre, values)

    def finish(self, values: dict[str, Any], sample: Sample, choose: Iterable[int] | None = None) -> CheckResult:
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
            lines += (functools.partial(self._chosen_text, res.chosen),)
        return CheckResult(self.model.id, self.check.name, values, res.outcome, res.success, res.result,
                           res.tags, dict(res.values), dict(sample.rolls), sample.pools, lines, res.tier,
                           res.reason, sample.secret, res.skipped, res.choices, res.chosen, dict(res.env),
                           res.signed)

    def _chosen_text(self, chosen: Choice) -> str:
        """The trace line of the dice chosen, made once for each remembered choice (a check
        rolled again with the same faces chooses the same Choice object)."""
        seen = self._chosen_lines.get(id(chosen))
        if seen is not None and seen[0] is chosen:
            return seen[1]
        text = _chosen_line(chosen)
        if len(self._chosen_lines) >= RESOLVED_IN_ALL:
            self._chosen_lines.clear()
        self._chosen_lines[id(chosen)] = (chosen, text)  # holds the choice: its id stays its own
        return text

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

    def _sample_roll(self, name: str, e: Expr, plan: _RollPlan, env: dict, source, counter):
        """Roll one of the check's rolls; ``plan`` says how its value is seen."""
        ctx = Context(e.text, env, self.limits, source, counter)
        try:
            value = e.run(ctx)
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None
        if type(value) is DicePool:
            try:
                pool = roll_dice_pool(value.sides, value.text(), source, counter)
            except FacesError as exc:
                raise self.relocate(DiceEvalError(exc.message, Location(column=1, source_line=e.text),
                                                   exc.hint, E_FACES), e) from None
            except DiceLimitReached:
                raise self.relocate(LimitError(f"the pool {value.text()} has more dice than a roll may use",
                                                "max_dice", Location(column=1, source_line=e.text)), e) from None
            sizes = value.sides
            value = Rolled(pool.total, tuple([d.value for d in pool.dice]), sizes)
            return (value, [*ctx.pools.values(), pool],
                    lambda: f"{name}: {pool.text} → [{_faces_text(pool, sizes)}] = {pool.total}")
        if plan.term is not None:  # one dice term, the commonest roll
            if plan.term in ctx.pools:
                value = pool_rolled(ctx.pools[plan.term], plan.initial)
        elif plan.whole:
            seen = rolled_whole(e.tree, ctx.pools, env, plan.initial, plan.earlier)
            if seen is not None:
                value = seen
        # ``env`` only gains names after this (the later rolls), none of which this roll's
        # expression can read, so the trace may read it later without a copy.
        by_node = ctx.pools

        def line() -> str:
            shown = symbols_text(value.symbols) if plan.symbols and isinstance(value, Rolled) else None
            return plan.line(by_node, env, jsonable(value), shown)

        return value, by_node.values(), line

    # ---- exact odds ----------------------------------------------------------------------
    def forget_odds(self) -> None:
        """Empty the odds this runner remembers and its compiled exact evaluators (with their
        pools' caches): what a benchmark does to time exact odds from scratch."""
        self._odds_token = object()  # the old entries are never asked for again and age out
        self.exact.forget()

    def odds(self, inputs: Mapping[str, Any] | None = None, given: str | None = None) -> CheckOdds:
        """Exact odds; with ``given`` (a yes/no expression over the check's names, e.g.
        ``"outcome == 'success'"``), the odds conditioned on it, and its own probability."""
        if given is not None:
            from .conditional import conditional_odds  # only for --given: not on every odds' import

            return conditional_odds(self, inputs, given)
        values = self.coerce_inputs(inputs)
        key = (self._odds_token, tuple(sorted((k, str(v)) for k, v in values.items())))
        cached = CHECK_ODDS.get(key)
        if cached is not None:
            return cached
        acc = OddsTally()
        outcomes, joint_denom = self.resolutions(values, cut=True)
        total_weight = 0
        for res, _env, w in outcomes:
            acc.add(res, w, 1)
            total_weight += w
        odds = acc.finish(self.model, self.check, values, joint_denom, total_weight, self.limits.max_states)
        if odds.result_truncated:
            mean = self._unbounded_mean(values)
            if mean is not None:
                odds = replace(odds, unbounded_mean=mean)
        CHECK_ODDS.put(key, odds, odds.size)
        return odds

    def _unbounded_mean(self, values: dict[str, Any]) -> Fraction | None:
        """The result's mean with explosions followed forever, where it has a closed form
        (:mod:`rulesengine.dice.expectation`): a result worked out from the check's rolls
        (each read by its own mean, and a roll by the rolls before it), inputs and values
        known before rolling, with no gate deciding, no dice chosen and no outcome rule
        rewriting it. None otherwise: the odds then label the mean of the mass worked out."""
        check = self.check
        if check.result is None or check.choose is not None or any(o.result is not None for o in check.outcomes):
            return None
        env, gated, fixed = self.before_roll(values)[:3]
        if gated is not None or fixed:
            return None
        budget = Budget(self.limits.max_states)
        rolls: dict[str, RollMean] = {}
        for name, e in check.rolls:
            if name in env:
                return None  # a roll that hides a value of the same name: not worth the care
            found = roll_mean(e.tree, env, budget, rolls=rolls, limits=self.limits, text=e.text,
                              functions=self.functions)
            if found is not None:
                rolls[name] = found
        result = check.result
        return exact_mean(result.tree, env, budget, rolls=rolls, limits=self.limits, text=result.text,
                          functions=self.functions)

    def resolutions(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False
                    ) -> tuple[list[tuple[Resolution, dict, int]], int]:
        """Every resolution of the check for these (coerced) inputs, with its weight over a
        common denominator: the exact driver of the one resolver. Weights sum to the
        denominator unless an explosion was truncated. ``reads``: what is read of the rolls
        when more than the check's own rules read (see :class:`RollReads`).

        ``cut``: also resolve what explosions cut off, where it is known to be at least some
        number (:mod:`rulesengine.dice.beyond`): a resolution that comes out the same
        whatever the explosions went on to is kept (its result may itself be an
        ``AtLeast``), the rest stays truncated. For the caller that knows such values."""
        env, gated, joint, denom = self.joint_rolls(values, reads, cut)
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
            if cut and any(isinstance(v, AtLeast) for v in rolls.values()):
                try:
                    out.append((self.resolve(local), local, w))
                except UNDETERMINED + (RulesEngineError,):
                    pass  # the outcome depends on how deep the explosions went: truncated
                continue
            out.append((self.resolve(local), local, w))
        return out, denom

    def joint_rolls(self, values: dict[str, Any], reads: RollReads | None = None, cut: bool = False
                    ) -> tuple[dict, Resolution | None, list[tuple[dict, int]], int]:
        """The values known before rolling, a gate's verdict, and every joint value of the
        check's rolls with its weight over ``denom``; with ``cut``, what explosions cut off
        too, as ``AtLeast`` values (see :meth:`resolutions`)."""
        env, gated, fixed = self.before_roll(values)[:3]
        if gated is not None:
            return env, gated, [], 1
        budget = Budget(self.limits.max_states)
        # The inputs given: what the rules read of the rolls for these values.
        reads = self.exact.settled_reads(env, budget, reads)
        built = self._afford_readings(env, fixed, budget, reads, cut)
        joint: list[tuple[dict, int]] = [({}, 1)]
        denom = 1
        for name, e in self.check.rolls:
            if name in fixed:
                joint = [({**d, name: fixed[name]}, w) for d, w in joint]
                continue
            reads_rolls = sorted(e.names & set(joint[0][0])) if joint else []
            if not reads_rolls:
                dist = built.pop(name) if name in built else self._roll_dist(name, e, env, budget, reads)
                outcomes = self._outcomes(dist, cut)
                try:
                    budget.spend(len(joint) * len(outcomes))
                except BudgetExceeded:
                    raise self._too_big(e) from None
                joint = [({**d, name: v}, w * wv) for d, w in joint for v, wv in outcomes]
                denom *= dist.denom
                continue
            # A roll made after seeing earlier ones: its odds for each value they came to,
            # over one common denominator.
            # What explosions cut off an earlier roll is not followed into it: it stays truncated.
            joint = [(d, w) for d, w in joint if not any(isinstance(d[n], AtLeast) for n in reads_rolls)]
            # Its size is known before any of it is worked out: one distribution for each
            # reading of the rolls it reads, and at least one value for each joint value so
            # far. Charged first, so a refusal comes at once rather than after every one of
            # those distributions has been built.
            readings = list(dict.fromkeys(tuple(d[n] for n in reads_rolls) for d, _ in joint))
            try:
                budget.spend(len(readings))
                budget.afford(len(joint))
            except BudgetExceeded:
                raise self._too_big(e, self._readings_text(name, reads_rolls, len(readings), len(joint))) from None
            by_seen: dict[tuple, list[tuple[Any, int, int]]] = {}
            for seen in readings:
                dist = self._roll_dist(name, e, {**env, **dict(zip(reads_rolls, seen, strict=True))}, budget, reads)
                by_seen[seen] = [(v, w, dist.denom) for v, w in self._outcomes(dist, cut)]
            common = math.lcm(*(x[0][2] for x in by_seen.values() if x)) if by_seen else 1
            try:
                budget.spend(sum(len(by_seen[tuple(d[n] for n in reads_rolls)]) for d, _ in joint))
            except BudgetExceeded:
                raise self._too_big(e) from None
            joint = [({**d, name: v}, w * wv * (common // dv))
                     for d, w in joint for v, wv, dv in by_seen[tuple(d[n] for n in reads_rolls)]]
            denom *= common
        return env, None, joint, denom

    def _afford_readings(self, env: dict, fixed: Mapping[str, Any], budget: Budget, reads: RollReads | None,
                         cut: bool) -> dict[str, Dist]:
        """Charge, before any joint value is made, what :meth:`joint_rolls` will charge up to
        the first roll that reads earlier ones, where that roll is: the joint values of the
        rolls before it (the product of their sizes) and, for it, one distribution for each
        reading of the rolls it reads and at least one value for each joint value. What is
        refused here would be refused there, only after building those joint values and
        distributions. Returns the distributions of the rolls before it, built once."""
        rolls = self.check.rolls
        if not any(e.names & {n for n, _ in rolls[:i]} for i, (_, e) in enumerate(rolls)):
            return {}  # no roll reads another: each join is charged before it is made
        built: dict[str, Dist] = {}
        sizes: dict[str, tuple[int, int]] = {}  # each roll's values, and those not cut off
        rows, charged = 1, 0
        for name, e in rolls:
            if name in fixed:
                sizes[name] = (1, 0 if isinstance(fixed[name], AtLeast) else 1)
                continue
            read = sorted(e.names & set(sizes))
            if not read:
                dist = built[name] = self._roll_dist(name, e, env, budget, reads)
                outcomes = self._outcomes(dist, cut)
                sizes[name] = (len(outcomes), sum(1 for v, _ in outcomes if not isinstance(v, AtLeast)))
                rows *= len(outcomes)
                charged += rows
                try:
                    budget.afford(charged)
                except BudgetExceeded:
                    raise self._too_big(e) from None
                continue
            readings = math.prod(sizes[n][1] for n in read)
            rows = math.prod(size[1] if n in read else size[0] for n, size in sizes.items())
            try:
                budget.afford(charged + readings + rows)
            except BudgetExceeded:
                raise self._too_big(e, self._readings_text(name, read, readings, rows)) from None
            break
        return built

    @staticmethod
    def _readings_text(name: str, read: list[str], readings: int, rows: int) -> str:
        return f"'{name}' is worked out for each of {readings:,} readings of {', '.join(read)} ({rows:,} joint values)"

    @staticmethod
    def _outcomes(dist: Dist, cut: bool) -> list[tuple[Any, int]]:
        outcomes = list(dist.weights.items())
        if cut:
            outcomes += [(cut_value(lo), w) for lo, w in dist.tail.items()]
        return outcomes

    def _too_big(self, e: Expr, what: str = "") -> LimitError:
        return self.relocate(LimitError(
            f"the rolls of check '{self.check.name}' are too big to work out exactly{': ' + what if what else ''}",
            "max_states", Location(column=1, source_line=e.text), "use fewer dice"), e)

    def expression_dist(self, e: Expr, env: Mapping[str, Any], budget: Budget) -> Dist:
        """The exact distribution of any expression of this ruleset read with a party's names
        (a contest's roll-off): the check's own exact driver, tables and functions, so what
        rolls also has odds. Pool values count by their totals."""
        try:
            dist = self.exact.expression_dist(e, env, budget)
        except BudgetExceeded:
            raise self._too_big(e) from None
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None
        return self._listable(dist, e)

    def _roll_dist(self, name: str, e: Expr, env: dict, budget: Budget, reads: RollReads | None = None) -> Dist:
        try:
            dist = self.exact.roll_dist(name, e, env, budget, reads)
        except BudgetExceeded:
            raise self._too_big(e) from None
        except RulesEngineError as exc:
            raise self.relocate(exc, e) from None
        return self._listable(dist, e)

    def _listable(self, dist: Dist, e: Expr) -> Dist:
        """``dist``, a roll's or an expression's distribution, where it has at most
        ``max_outcomes`` values: each of them is resolved and may be listed, so a check is
        held to the limit its expression's own odds are (``dice.odds``), at the same point,
        before any value is resolved."""
        if len(dist.weights) > self.limits.max_outcomes:
            raise self.relocate(LimitError(
                f"'{e.text}' has {len(dist.weights):,} possible values, too many to list", "max_outcomes",
                Location(column=1, source_line=e.text),
                f"at most {self.limits.max_outcomes:,}; roll it instead, or use fewer sides"), e)
        return dist


class _RollPlan(NamedTuple):
    """How a roll's value is seen once its dice are rolled, decided once per check: whole
    (:func:`whole_dice`: total and dice, ``Rolled``) or as the expression's value; with the
    dice of the first throw where the rules read them; its symbols in the trace where its
    dice show symbols (not the sum of their places)."""

    whole: bool
    term: int | None  # the id of the one dice term the roll is, when it is one
    initial: bool
    symbols: bool
    line: TraceLine  # makes its trace line
    earlier: frozenset[str]  # the rolls listed before it, which it may take again

    @staticmethod
    def of(name: str, e: Expr, check: Check, earlier: frozenset[str]) -> _RollPlan:
        # Seen whole only where the rules read its dice (as exact odds see it): a roll read as
        # a number stays its total, which is cheaper to make and to remember results by.
        whole = name in check.faces_needed and whole_dice(e.tree, earlier) is not None
        bare = ast.bare(e.tree)
        return _RollPlan(whole, id(bare) if whole and isinstance(bare, ast.Dice) else None,
                         name in check.initial_needed,
                         any(isinstance(n, ast.Dice) and n.die is not None and n.die.symbols is not None
                             for n in ast.walk(e.tree)), line_maker(name, e.text, e.tree), earlier)


def _dice_value(dice: Iterable[tuple[int, int, tuple[str, ...]]], mixed: bool) -> Rolled:
    """Dice chosen from a roll, or left: their total and faces, their sizes for a pool of
    mixed dice, and the symbols they show for symbol dice."""
    dice = list(dice)
    shows = tuple(on for _, _, on in dice)
    return Rolled(sum(f for f, _, _ in dice), tuple(f for f, _, _ in dice),
                  tuple(s for _, s, _ in dice) if mixed else (), symbols=counted(shows),
                  shows=shows if any(shows) else ())


def _chosen_line(chosen: Choice) -> str:
    dice = (map(str, chosen.faces) if len(set(chosen.sides)) < 2
            else (f"d{s}:{f}" for f, s in zip(chosen.faces, chosen.sides, strict=True)))
    return (f"chosen: {', '.join(dice)} → "
            + ", ".join(f"{k} {format_value(jsonable(v))}" for k, v in chosen.values.items()))


def _faces_text(pool: PoolRoll, sizes: tuple[int, ...] = ()) -> str:
    """The faces of a rolled pool, as a trace lists them (only when a trace is read); each
    with its die's size when the pool mixes sizes (``d10:7, d8:2``)."""
    if len(set(sizes)) > 1:
        return ", ".join(f"d{s}:{d.face}" for d, s in zip(pool.dice, sizes, strict=True))
    return ", ".join(str(d.face) for d in pool.dice)
