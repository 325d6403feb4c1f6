"""The check's rules, pure: (inputs, roll values) → one resolution.

Everything after the dice is deterministic, so a check has ONE resolver, :meth:`Resolver.resolve`,
that maps the values known before the roll and the roll values to an outcome, a result, tags
and reported values. Rolling (:mod:`.sampling`) feeds it the values rolled; exact odds
(:mod:`.enumeration`) feed it every joint value of the check's rolls with its exact weight.
The two can't disagree about the rules, because only the source of the roll values differs.
Nothing here rolls, remembers or enumerates.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple
from collections.abc import Collection, Iterable, Iterator, Mapping

from ..dice import ast
from ..dice.beyond import UNDETERMINED, UNKNOWN, Beyond, Undetermined, Unknown
from ..dice.context import Context
from ..dice.dist import Budget, BudgetExceeded
from ..dice.values import Rolled
from ..codes import E_BAD_CHOOSE, E_NO_OUTCOME
from ..errors import InputError, LimitError, Location, RulesEngineError, RulesetError
from ..rules.model import MAX_PICK, Check, Choose, Expr, Let
from .choosing import ChoiceMemo, Die, Way, first_best, ranking, same_offer, splits, way_values
from .results import NOT_ALLOWED, Choice, LeftOpen, Resolution, signed_text
from .runtime import Runtime


class PreRoll(NamedTuple):
    """What is settled before any die is rolled."""

    env: dict[str, Any]  # inputs and the values that read no roll
    gated: Resolution | None  # a gate's verdict: the check ends without rolling
    fixed: dict[str, Any]  # roll values a gate fixed instead of rolling them
    secret: bool
    reason: str  # the reason of the gate that applied, if any
    resolved: dict | None = None  # (roll values, player's choice) → Resolution, see run.memo


class Resolver:
    """The rules of one check of one ruleset."""

    def __init__(self, runtime: Runtime, check: Check) -> None:
        self.runtime = runtime
        self.check = check
        self._after_roll = tuple(let for let in check.lets if let.after_roll)  # the lets that read a roll

    def let_value(self, let: Let, env: Mapping[str, Any]) -> Any:
        """The value of one of the check's lets, with the names of ``env``."""
        return self._let(let, env)

    def _let(self, let: Let, env: Mapping[str, Any], ctx: Context | None = None) -> Any:
        """``let``'s value; ``ctx``: a context of :meth:`Runtime.reading` over ``env``."""
        rt = self.runtime
        if ctx is None:
            ctx = rt.reading(env)
        if let.expr is not None:
            return rt.value_in(ctx, let.expr)
        best = None
        for cand in let.best_of:
            if cand.when is not None and not rt.truth_in(ctx, cand.when):
                continue
            value = rt.value_in(ctx, cand.value)
            if value is None:
                continue
            if best is None or value > best:
                best = value
        return best

    # ---- the phases ----------------------------------------------------------------------
    def before_roll(self, inputs: dict[str, Any]) -> PreRoll:
        """Values known before rolling; a gate's verdict (or fixed roll values); secrecy."""
        rt, check = self.runtime, self.check
        env = dict(inputs)
        for let in check.lets:
            if not let.after_roll:
                env[let.name] = self._let(let, env)
        secret = bool(check.secret is not None and rt.truth(check.secret, env))
        fixed: dict[str, Any] = {}
        for gate in check.gates:
            if not rt.truth(gate.when, env):
                continue
            if gate.outcome:
                result = rt.evaluate(gate.result, env) if gate.result is not None else None
                success = self._success_of(gate.outcome, {**env, "result": result}) \
                    if gate.outcome != NOT_ALLOWED else False
                final_env = {**env, "result": result, "outcome": gate.outcome, "success": success}
                verdict = Resolution(gate.outcome, success, result, (), self._report(env), self._tier(result),
                                     gate.reason, skipped=True, env=final_env, signed=self._signed(final_env))
                return PreRoll(env, verdict, fixed, secret, gate.reason)
            for name, e in gate.rolls:
                fixed[name] = rt.evaluate(e, env)
            return PreRoll(env, None, fixed, secret, gate.reason)
        return PreRoll(env, None, fixed, secret, "")

    def resolve(self, env: dict[str, Any], player_choice: Iterable[int] | None = None,
                budget: Budget | None = None, settled: Collection[str] = (),
                memo: ChoiceMemo | None = None, open_ok: bool = False) -> Resolution:
        """The one resolver: roll values are in ``env``; everything else follows. ``budget``
        (exact odds) is charged for the choices tried when the check chooses dice;
        ``settled``: lets ``env`` already holds, worked out from its rolls alone (a group of
        joint values, :mod:`.groups`). ``memo`` (exact odds, :meth:`choice_memo`): where the
        check chooses dice, only the way the rules pick is made, none is listed in
        ``choices``, and the values of the ways are remembered there. ``open_ok`` (exact odds of
        the check itself): a tag or the tier that explosions past the depth leave open, where
        the outcome is decided, is said so (``Resolution.open_parts``), not raised."""
        rt, check = self.runtime, self.check
        ctx = rt.reading(env)  # one for every expression below: env only grows
        self._lets_after_roll(env, settled, ctx, open_ok)
        choices: tuple[Choice, ...] = ()
        chosen = None
        if check.choose is not None:
            choices, chosen = self._choose(check.choose, env, player_choice, budget, memo)
            env.update(chosen.values)
        result = rt.value_in(ctx, check.result) if check.result is not None else None
        env["result"] = result
        outcome, success = None, False
        for rule in check.outcomes:
            if rule.when is None or rt.truth_in(ctx, rule.when):
                if rule.result is not None:
                    result = rt.value_in(ctx, rule.result)
                outcome = rule.name
                success = rule.success if isinstance(rule.success, bool) else \
                    rt.truth(rule.success, {**env, "result": result})  # read on the final result
                break
        if outcome is None:
            raise RulesetError(f"no outcome rule of check '{check.name}' matched",
                               code=E_NO_OUTCOME, hint="end the outcome rules with one that has no 'when'")
        env["result"], env["outcome"], env["success"] = result, outcome, success
        # What most checks lack (tags, reported values, tiers, a sign) is not asked for.
        if open_ok:
            tags, tier, open_parts = self._open_parts(ctx, result)
        else:
            tags = tuple(t.name for t in check.tags if rt.truth_in(ctx, t.when)) if check.tags else ()
            tier, open_parts = None if check.tiers is None else self._tier(result), ()
        return Resolution(outcome, success, result, tags, self._report(env) if check.report else {},
                          tier, choices=choices, chosen=chosen, env=env,
                          signed=None if check.result_sign is None else self._signed(env), open_parts=open_parts)

    def _open_parts(self, ctx: Context, result: Any) -> tuple[tuple[str, ...], str | None, tuple[str, ...]]:
        """The tags that hold, the tier, and which of the two explosions past the depth leave
        open (each read on its own: one open leaves the other and the outcome decided)."""
        check, rt, tags, open_parts = self.check, self.runtime, [], []
        for t in check.tags:
            try:
                if rt.truth_in(ctx, t.when):
                    tags.append(t.name)
            except UNDETERMINED:
                if "tags" not in open_parts:
                    open_parts.append("tags")
        tier = None
        if check.tiers is not None:
            try:
                tier = self._tier(result)
            except UNDETERMINED:
                open_parts.append("tier")
        return tuple(tags), tier, tuple(open_parts)

    def left_open(self, env: dict[str, Any], settled: Collection[str] = ()) -> LeftOpen:
        """What is known of a throw whose outcome explosions past the depth leave open, with
        the roll values in ``env`` (the lets are worked out into it, as :meth:`resolve` does,
        one the depth leaves open holding ``UNKNOWN``, open only to what reads it): see
        :class:`.results.LeftOpen`. Nothing where dice are chosen (which ones depends on
        those the depth cut), or a let fails."""
        check, rt = self.check, self.runtime
        if check.choose is not None:
            return LeftOpen()
        ctx = rt.reading(env)
        try:
            self._lets_after_roll(env, settled, ctx, open_ok=True)
        except RulesEngineError:
            return LeftOpen()
        failed = False
        try:  # the check's own result, as the outcome rules read it
            base = rt.value_in(ctx, check.result) if check.result is not None else None
        except UNDETERMINED:
            base = UNKNOWN
        except RulesEngineError:
            base, failed = None, True
        rewritten = any(r.result is not None for r in check.outcomes)
        result = None if rewritten or isinstance(base, Unknown) else base
        unknown = {"outcome", "success"} | ({"result"} if result is None else set())
        values = {name: result if name == "result" else env[name] for name in check.report
                  if name not in unknown and (name == "result" or name in env)}
        return LeftOpen(result, {k: v for k, v in values.items() if not isinstance(v, Unknown)},
                        self._tags_alone(env, result), None if failed else self._outcomes_open(env, base))

    def _tags_alone(self, env: Mapping[str, Any], result: Any) -> tuple[str, ...] | None:
        """The tags that hold on a throw whose outcome is left open, where each is decided
        without it (none reads the outcome, the result where that is open, or what the depth
        cut); None where one is open, or the check has none."""
        if not self.check.tags:
            return None
        held = []
        local = {k: v for k, v in env.items() if k not in ("result", "outcome", "success")}
        if result is not None:
            local["result"] = result
        ctx = self.runtime.reading(local)
        for t in self.check.tags:
            try:
                if self.runtime.truth_in(ctx, t.when):
                    held.append(t.name)
            except UNDETERMINED + (RulesEngineError,):
                return None
        return tuple(held)

    def _outcomes_open(self, env: Mapping[str, Any], result: Any) -> tuple[str, ...] | None:
        """The outcomes a throw may still come out as where explosions past the depth leave
        its outcome open, with its lets in ``env`` and the check's ``result`` (``UNKNOWN``
        where open): the outcome rules read in order, one whose condition is open kept as
        one it may be and the next read as if it were false, up to one that holds (or has no
        condition). A d6! cut at 18 or more, read by ``result >= 20`` (great) and then
        ``result >= 10`` (success), is great or success: a success either way. None where
        that can't be said (a rule fails, none is sure to hold)."""
        rt = self.runtime
        ctx = rt.reading({**env, "result": result})
        may: dict[str, None] = {}
        try:
            for rule in self.check.outcomes:
                try:
                    holds = rule.when is None or rt.truth_in(ctx, rule.when)
                except UNDETERMINED:
                    holds = False
                    may[rule.name] = None
                if holds:
                    may[rule.name] = None
                    return tuple(may)
        except RulesEngineError:
            return None
        return None

    def chosen_values(self, env: Mapping[str, Any], player_choice: Iterable[int] | None = None,
                      memo: ChoiceMemo | None = None) -> dict[str, Any]:
        """The values of the dice chosen (``choose``) with the rolls made before the choice in
        ``env``: what the rolls made after it read (``Check.after_choice``). The lets and
        the choice are worked out as :meth:`resolve` works them out (none of them may read a
        roll made after the choice), so the same dice give the same choice there."""
        return dict(self.through_choice(env, player_choice, memo)[1])

    def through_choice(self, env: Mapping[str, Any], player_choice: Iterable[int] | None = None,
                       memo: ChoiceMemo | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """``env`` with the lets and the chosen values worked out (as :meth:`resolve` works
        them out), and the chosen values alone: what :meth:`chosen_values` gives."""
        spec = self.check.choose
        assert spec is not None, "only a check that chooses dice has rolls after the choice"
        local = dict(env)
        self._lets_after_roll(local)
        values = self._choose(spec, local, player_choice, None, memo)[1].values
        local.update(values)
        return local, dict(values)

    def _lets_after_roll(self, env: dict[str, Any], settled: Collection[str] = (), ctx: Context | None = None,
                         open_ok: bool = False) -> None:
        """The lets that read a roll, worked out into ``env`` in order (but ``settled``);
        ``ctx``: a context of :meth:`Runtime.reading` over ``env``. ``open_ok`` (see
        :meth:`resolve`): a let explosions past the depth leave open holds ``UNKNOWN``, so
        that a rule it does not decide (``glitch and hits == 0`` with no hits) is decided."""
        if ctx is None:
            ctx = self.runtime.reading(env)
        for let in self._after_roll:
            if let.name not in settled:
                try:
                    env[let.name] = self._let(let, env, ctx)
                except UNDETERMINED:
                    if not open_ok:
                        raise
                    env[let.name] = UNKNOWN

    def resolve_rolls(self, values: dict[str, Any], rolls: Mapping[str, Any],
                      choose: Iterable[int] | None = None) -> Resolution:
        """The resolution of given roll values under given inputs (gates re-decided)."""
        pre = self.before_roll(values)
        if pre.gated is not None:
            return pre.gated
        return self.resolve({**pre.env, **rolls}, choose)

    def _signed(self, env: Mapping[str, Any]) -> str | None:
        """The result with a sign of its own, where the check gives one (``result_sign``)."""
        if self.check.result_sign is None or env.get("result") is None:
            return None
        return signed_text(env["result"], self.runtime.truth(self.check.result_sign, env))

    def _report(self, env: Mapping[str, Any]) -> dict[str, Any]:
        return {name: env.get(name) for name in self.check.report}

    def _success_of(self, outcome: str, env: Mapping[str, Any]) -> bool:
        """Whether ``outcome`` counts as a success: its first rule's true or false, or its
        yes/no expression read on the final result."""
        rule = next((r for r in self.check.outcomes if r.name == outcome), None)
        if rule is None or isinstance(rule.success, bool):
            return bool(self.check.outcome_success(outcome))
        return self.runtime.truth(rule.success, env)

    def _tier(self, result: Any) -> str | None:
        if self.check.tiers is None or result is None or isinstance(result, bool):
            return None
        return self.runtime.functions[self.check.tiers][0](result) or None  # below every tier: none

    # ---- choosing dice -----------------------------------------------------------------
    def choice_memo(self, env: Mapping[str, Any]) -> ChoiceMemo | None:
        """What exact odds remember of the ways of choosing over one computation whose values
        known before the roll are ``env`` (:mod:`.choosing`); None where the check chooses none."""
        check = self.check
        if check.choose is None:
            return None
        varying = {name for name, _ in check.rolls} | {let.name for let in check.lets if let.after_roll}
        return ChoiceMemo(check.choose, env.keys() - varying - {name for name, _ in check.choose.values})

    def _choose(self, spec: Choose, env: dict[str, Any], player_choice: Iterable[int] | None,
                budget: Budget | None = None, memo: ChoiceMemo | None = None
                ) -> tuple[tuple[Choice, ...], Choice]:
        rolled = env[spec.source]
        if isinstance(rolled, Beyond):  # which dice to choose depends on those the depth cut
            raise Undetermined
        faces = rolled.faces if isinstance(rolled, Rolled) else (rolled,)
        # Each die with its size, when the roll is a pool of mixed dice: a d8 showing 3 and a
        # d6 showing 3 are different choices (what is left differs).
        sizes = rolled.sides if isinstance(rolled, Rolled) and rolled.sides else (0,) * len(faces)
        # and the symbols on it, where the roll's dice show symbols (``symbols(chosen, …)``)
        symbolic = isinstance(rolled, Rolled) and bool(rolled.shows)
        shows = rolled.shows if symbolic else ((),) * len(faces)
        dice = sorted(zip(faces, sizes, shows, strict=True), reverse=True)
        k = min(self.pick(spec, env), len(faces))
        self._charge_choosing(spec, len(faces), k, budget)
        mixed = any(sizes)
        by_die = memo.die_by_die if memo is not None else None
        places: list[tuple[int, ...]] | None = None
        if by_die is not None and by_die.whole:  # exact odds, ranked die by die
            picked = by_die.pick(dice, k, mixed, env, self.runtime.evaluate)
            if picked is not None:
                places = [picked]
        elif by_die is not None:  # exact odds: the ways best in the values that add up
            places = by_die.candidates(dice, k, mixed, env, self.runtime.evaluate)
        if places is not None and len(places) == 1:  # one way: it is the one picked
            picked = places[0]
            combo = tuple([dice[i] for i in picked])
            rest = tuple([d for i, d in enumerate(dice) if i not in picked])
            rt = self.runtime
            values, preferred = way_values(spec, env, combo, rest, mixed, memo, rt.evaluate, rt.truth)
            return (), _choice((combo, values, preferred), mixed, symbolic)
        ways = self._ways(spec, env, dice, k, mixed, memo, places)
        if memo is not None:  # exact odds: only the way the rules pick
            return (), _choice(first_best(ways, ranking(spec)), mixed, symbolic)
        choices = _offers(ways, mixed, symbolic)

        by_way = ranking(spec)

        def rank(c: Choice) -> tuple:
            return by_way(((), c.values, c.preferred))

        if player_choice is not None:
            want = tuple(sorted(player_choice, reverse=True))
            fits = [c for c in choices if c.faces == want]  # the same faces on dice of other sizes: the best
            if fits:
                return choices, max(fits, key=rank)
            raise InputError(f"cannot choose {list(player_choice)} from the dice {list(faces)}",
                             hint=f"choose {k} of the faces rolled", field=("choose",))
        return choices, max(choices, key=rank)

    def pick(self, spec: Choose, env: Mapping[str, Any]) -> int:
        """How many dice ``spec`` chooses with the values of ``env``: its ``pick``, a number or
        an expression of values known before the roll, which must give 1 to 10."""
        e = spec.pick_expr
        if e is None:
            return spec.pick  # type: ignore[return-value]
        n = self.runtime.evaluate(e, env)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PICK:
            raise self.runtime.relocate(RulesetError(
                f"'pick' gives {n!r}: choose picks 1 to {MAX_PICK} dice", code=E_BAD_CHOOSE,
                hint=f"keep pick 1 to {MAX_PICK} for every input allowed, e.g. pick: max(1, min({e.text}, "
                     f"{MAX_PICK}))"), e)
        return n

    def _charge_choosing(self, spec: Choose, n: int, k: int, budget: Budget | None) -> None:
        """Refuse choosing ``k`` of ``n`` dice in more ways than ``max_choices``, and charge
        exact odds' ``budget`` for each way."""
        ways = math.comb(n, k)
        if ways > self.runtime.limits.max_choices:
            raise self.runtime.relocate(LimitError(
                f"choosing {k} of {n} dice can be done {ways:,} ways, too many to compare",
                "max_choices", Location(column=1, source_line=spec.source), "roll fewer dice"),
                spec.values[0][1])
        if budget is not None:
            try:
                budget.spend(ways)
            except BudgetExceeded:
                raise self.too_big(self.check.rolls[0][1]) from None

    def _ways(self, spec: Choose, env: dict[str, Any], dice: list[Die], k: int, mixed: bool,
              memo: ChoiceMemo | None, places: Iterable[tuple[int, ...]] | None = None) -> Iterator[Way]:
        """Every way to choose ``k`` of ``dice`` (sorted highest first), each set of dice
        once, with the values it gives; or only those of ``places`` (the places of each way's
        dice, in the same order)."""
        rt = self.runtime
        seen: set[tuple[Die, ...]] = set()
        every = splits(len(dice), k) if places is None else \
            [(picked, tuple(i for i in range(len(dice)) if i not in picked)) for picked in places]
        for picked, left in every:
            combo = tuple([dice[i] for i in picked])
            if combo in seen:
                continue
            seen.add(combo)
            rest = tuple([dice[i] for i in left])
            values, preferred = way_values(spec, env, combo, rest, mixed, memo, rt.evaluate, rt.truth)
            yield combo, values, preferred

    def too_big(self, e: Expr, what: str = "") -> LimitError:
        """The refusal of exact odds whose work is over ``max_states``, at ``e``. Where a
        roll explodes, the depth its explosions are followed to is the other fix (one die of
        six exploding faces read by its first throw has 6^10 chains at the default depth)."""
        explodes = any(isinstance(m, ast.Explode) for _, roll in self.check.rolls for node in ast.walk(roll.tree)
                       for m in getattr(node, "modifiers", ()))
        return self.runtime.relocate(LimitError(
            f"the rolls of check '{self.check.name}' are too big to work out exactly{': ' + what if what else ''}",
            "max_states", Location(column=1, source_line=e.text),
            "use fewer dice" + (", or a lower explosion depth" if explodes else "")), e)



def _offers(ways: Iterable[Way], mixed: bool, symbolic: bool) -> tuple[Choice, ...]:
    """The choices offered: each way but those that offer what an earlier one does."""
    seen: set[tuple] = set()
    offers = []
    for way in ways:
        same = same_offer(way)
        if same not in seen:
            seen.add(same)
            offers.append(_choice(way, mixed, symbolic))
    return tuple(offers)


def _choice(way: Way, mixed: bool, symbolic: bool) -> Choice:
    """A way as the roll tells it: the faces chosen, and each die's size (a pool of mixed
    dice) or the symbols it shows (symbol dice: which die of two kinds showing one place)."""
    combo, values, preferred = way
    return Choice(tuple(f for f, _, _ in combo), values, preferred, tuple(s for _, s, _ in combo) if mixed else (),
                  tuple(on for _, _, on in combo) if symbolic else ())
