"""An assisted check, run: helpers' checks give the leader a bonus (or ruin the attempt);
exact odds sum the helpers' contributions before the leader's check."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any
from collections.abc import Callable, Mapping

from ...dice.dist import Budget, BudgetExceeded, Dist, combine2, mixture
from ...codes import E_PROCEDURE
from ...errors import InputError, LimitError, PartiesExample, RulesetError
from ...rules.procedures.assisted import AssistedSpec
from ..check import CheckRunner
from ..json_parts import jsonable, probability_json
from ..odds_value import OddsValue, group, shown
from ..result_value import ResultValue
from ..results import CheckResult, ProcedureRecord, Resolution
from .base import ProcedureRunner, faces_for, parties_example
from ...records import field


class AssistedResult(ProcedureRecord):
    ruleset: str
    procedure: str
    leader: CheckResult | None  # None when a helper ruined the task before the leader rolled
    helpers: tuple[CheckResult, ...]
    totals: dict[str, Any]
    bonus: int
    ruined: bool
    trace: str
    report: dict[str, Any] = field(default_factory=dict)  # the report values; empty unless the leader rolled

    @property
    def outcome(self) -> str:
        return "ruined" if self.ruined else self.leader.outcome  # type: ignore[union-attr]

    @property
    def dice(self):
        """Every die rolled: the leader's, then each helper's."""
        out = tuple(self.leader.dice) if self.leader is not None else ()
        for h in self.helpers:
            out += tuple(h.dice)
        return out

    @property
    def success(self) -> bool:
        return not self.ruined and self.leader is not None and self.leader.success

    @property
    def result(self) -> Any:
        return None if self.ruined or self.leader is None else self.leader.result

    def view(self) -> ResultValue:
        """This roll as every front end shows it: the leader's check (None when a helper
        ruined the task first), each helper's, their totals and the bonus they gave."""
        return ResultValue(
            ruleset=self.ruleset, kind="assisted", names=(("procedure", self.procedure),), trace=self.trace,
            outcome=self.outcome, success=self.success, result=self.result, report=self.report,
            extra=(("ruined", self.ruined), ("bonus", self.bonus), ("totals", self.totals),
                   ("leader", self.leader.view() if self.leader else None),
                   ("helpers", [h.view() for h in self.helpers])))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class AssistedOdds(ProcedureRecord):
    ruleset: str
    procedure: str
    outcomes: dict[str, Fraction]
    outcome_success: dict[str, bool | None]
    success: Fraction
    result_distribution: dict[Any, Fraction]
    bonus_distribution: dict[int, Fraction]
    truncated: Fraction = Fraction(0)
    report: dict[str, dict[Any, Fraction]] = field(default_factory=dict)  # over the endings where the leader rolled

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        return "result", self.result_distribution

    def view(self) -> OddsValue:
        result = shown(self.result_distribution, self.truncated)
        return OddsValue(ruleset=self.ruleset, names=(("procedure", self.procedure),), outcomes=self.outcomes,
                         outcome_success=self.outcome_success, success=self.success, result=result,
                         chart=("result", result), groups=(group("report", self.report, self.truncated),),
                         truncated=self.truncated,
                         extra=(("bonus", [dict(value=v, **probability_json(p))
                                           for v, p in self.bonus_distribution.items()]),))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class AssistedRunner(ProcedureRunner):

    @property
    def spec(self) -> AssistedSpec:
        return self.typed_spec(AssistedSpec)
    def _helper_runner(self) -> CheckRunner:
        return self.ruleset.check(self.spec.helper_check).runner

    def _assist_parties(self, parties, inputs):
        own = self._own_inputs(inputs)
        st = self.spec
        parties = list(parties or [])
        if not parties:
            raise InputError(f"'{self.proc.name}' needs a leader (party1) and helpers (party2, ...)",
                             field=("parties",), example=self._example())
        leader = self._members(parties[:1], 1, 1, self.runner, "leaders")[0]
        helpers_raw = parties[1:]
        if not st.min_helpers <= len(helpers_raw) <= st.max_helpers:
            raise InputError(f"'{self.proc.name}' needs {st.min_helpers} to {st.max_helpers} helpers "
                             f"(party2 onwards), got {len(helpers_raw)}", field=("parties",), example=self._example())
        return own, leader, helpers_raw

    def _example(self) -> PartiesExample:
        """The hint's example: the leader, then the fewest helpers allowed (at least one)."""
        helpers = parties_example(self._helper_runner().check, self.spec.min_helpers).parties
        return PartiesExample("give the leader, then the helpers:",
                              parties_example(self.runner.check, 1).parties + helpers)

    def _helper_values(self, raw: Mapping[str, Any], own: dict, leader: dict[str, Any], leader_result: Any,
                       index: int) -> dict[str, Any]:
        runner = self._helper_runner()
        given = dict(raw)
        env = {**own, **{f"leader_{k}": v for k, v in leader.items()}, **given}
        if self.spec.order == "leader_first":
            env["leader_result"] = leader_result
        for n, e in self.spec.helper_inputs.items():
            given[n] = self.evaluate(e, env)
        try:
            return runner.coerce_inputs(given, ("parties", index + 1))
        except InputError as exc:
            name = exc.field[-1] if exc.field else None
            if isinstance(name, str) and name in self.spec.helper_inputs:
                # a value the procedure's rules set, not the caller's: the file's mistake
                set_here = self.spec.helper_inputs[name]
                spec = runner.check.input(name)
                keep = _clamped(set_here.text, spec.min, spec.max) if spec is not None else None
                raise self.locate(RulesetError(
                    f"helper input '{name}' gives party {index + 2} (a helper) a value out of its bounds: "
                    f"{exc.message}", code=E_PROCEDURE,
                    hint=f"keep it within them, e.g. {name}: {keep}" if keep else exc.hint), set_here) from None
            raise InputError(f"party {index + 2} (a helper): {exc.message}", hint=exc.hint, field=exc.field) from None

    def _contribution(self, res, env: Mapping[str, Any], own: dict) -> tuple[tuple, bool]:
        st = self.spec
        penv = {**self.party_env(res, env), **own}
        totals = tuple(self.whole_number(self.evaluate(e, penv), e, f"the total {name}")
                       for name, e in st.totals.items())
        ruined = st.ruin_when is not None and self.truth(st.ruin_when, penv)
        return totals, ruined

    def _bonus(self, totals: tuple, own: dict) -> int:
        env = {**own, **dict(zip(self.spec.totals, totals, strict=True))}
        return self.whole_number(self.evaluate(self.spec.bonus, env), self.spec.bonus, "the bonus")

    def _with_bonus(self, leader: dict[str, Any], bonus: int) -> dict[str, Any]:
        target = self.spec.bonus_to
        return {**leader, target: leader[target] + bonus}

    def _roll(self, parties, source, inputs) -> AssistedResult:
        own, leader, helpers_raw = self._assist_parties(parties, inputs)
        st = self.spec
        runner, hrunner = self.runner, self._helper_runner()
        lines: list[str] = []
        sample = None
        leader_result = None
        provisional = None
        gated = runner.before_roll(leader).gated
        if gated is not None and st.order == "leader_first":
            # The leader acts first and its check is decided without a roll (not allowed, or
            # no roll needed): helpers have nothing to help with. (Helpers first: the gates
            # are decided with their bonus, which may be what allows the check.)
            result = runner.roll_from(leader, source)
            lines.append(f"leader: {result.outcome}" + (f" ({result.reason})" if result.reason else ""))
            return AssistedResult(self.ruleset.id, self.proc.name, result, (), {n: 0 for n in st.totals}, 0,
                                  False, "\n".join(lines))
        if st.order == "leader_first":
            sample = runner.sample(leader, source)
            provisional = runner.finish(leader, sample)
            leader_result = provisional.result
            lines.append(f"leader rolls: {provisional.outcome}, result {jsonable(leader_result)} before help")
        helpers, sums, ruined, report = [], None, False, None
        for i, raw in enumerate(helpers_raw):
            values = self._helper_values(raw, own, leader, leader_result, i)
            with faces_for("helper {}'s check", i + 1):
                h = hrunner.roll_from(values, source)
            helpers.append(h)
            contrib, bad = self._contribution(h, values, own)
            sums = contrib if sums is None else tuple(a + b for a, b in zip(sums, contrib, strict=True))
            ruined = ruined or bad
            lines.append(f"helper {i + 1}: {h.outcome}, result {jsonable(h.result)}"
                         + (" — ruins the task" if bad else ""))
        totals = dict(zip(st.totals, sums or tuple(0 for _ in st.totals), strict=True))
        bonus = 0 if ruined else self._bonus(tuple(totals.values()), own)
        final = provisional  # when ruined after the leader rolled, keep the leader's dice
        if ruined:
            lines.append("the task is ruined")
        else:
            values = self._with_bonus(leader, bonus)
            final = runner.finish(values, sample) if sample is not None else runner.roll_from(values, source)
            lines.append(f"bonus {bonus:+d} to {st.bonus_to}")
            lines.extend(final.trace.splitlines())
            lines.append(f"leader: {final.outcome}, result {jsonable(final.result)}")
            report = self._report(final, values, own, bonus)
            lines += self.report_line(report)
        return AssistedResult(self.ruleset.id, self.proc.name, final, tuple(helpers), totals, bonus, ruined,
                              "\n".join(lines), self.report_dict(report))

    def _report(self, res: Resolution | CheckResult, env: Mapping[str, Any], own: dict, bonus: int) -> tuple | None:
        """The report values once the leader rolled with the helpers' bonus: they read the
        leader's check, the procedure's own inputs and ``bonus``."""
        if not self.proc.report:
            return None
        return self.report({**self.party_env(res, env), **own, "bonus": bonus})

    def _helpers_dist(self, helpers_raw, own: dict, leader: dict[str, Any], leader_result: Any,
                      cache: dict, budget: Budget) -> Dist:
        """The distribution of (summed totals, ruined) over every helper's resolutions; each
        state combined with each helper outcome is charged to ``budget``."""
        hrunner = self._helper_runner()
        states = Dist.point((tuple(0 for _ in self.spec.totals), False))
        for i, raw in enumerate(helpers_raw):
            values = self._helper_values(raw, own, leader, leader_result, i)
            key = tuple(sorted((k, str(v)) for k, v in values.items()))
            if key not in cache:
                outs, denom = hrunner.resolutions(values)
                merged: dict[tuple, int] = defaultdict(int)
                for res, env, w in outs:
                    merged[self._contribution(res, env, own)] += w
                cache[key] = Dist(dict(merged), denom)
            # a multiply-add and a tuple of sums each (BudgetExceeded: see _odds)
            budget.spend(4 * len(states.weights) * len(cache[key].weights))
            states = combine2(_join_help, states, cache[key], budget)
            if len(states.weights) > self.limits.max_states:
                raise BudgetExceeded()
            states = states.reduced()
        return states

    def _leader_dist(self, leader: dict[str, Any], bonus: int, own: dict) -> Dist:
        """The leader's check with ``bonus``, as endings (see :func:`_ending`)."""
        outs, denom = self.runner.resolutions(self._with_bonus(leader, bonus))
        weights: dict[tuple, int] = defaultdict(int)
        for res, env, w in outs:
            weights[_ending(res, self._report(res, env, own, bonus))] += w
        return Dist(dict(weights), denom)

    def _rolled_leader(self, leader: dict[str, Any], rolls: dict[str, Any], own: dict) -> Callable[[int], Dist]:
        """The leader's check with a bonus, its dice already rolled (``rolls``)."""
        def finish(bonus: int) -> Dist:
            values = self._with_bonus(leader, bonus)
            res = self.runner.resolve_rolls(values, rolls)
            return Dist.point(_ending(res, self._report(res, {**values, **rolls}, own, bonus)))
        return finish

    def _bonus_dist(self, helped: Dist, own: dict) -> Dist:
        """The bonus the helpers give (None: they ruin the task)."""
        return helped.map(lambda state: None if state[1] else self._bonus(state[0], own))

    @staticmethod
    def _after_help(bonuses: Dist, finish: Callable[[int], Dist], budget: Budget) -> Dist:
        """Each way the task can end after the helpers: ruined, or the leader's check
        (``finish``) with their bonus."""
        parts = [(Dist.point(RUINED) if bonus is None else finish(bonus), w) for bonus, w in bonuses.weights.items()]
        return mixture(parts, bonuses.denom, budget)

    def _odds(self, parties, inputs) -> AssistedOdds:
        own, leader, helpers_raw = self._assist_parties(parties, inputs)
        st = self.spec
        runner = self.runner
        cache: dict = {}
        budget = Budget(self.limits.max_states)
        gated = runner.before_roll(leader).gated
        given = Dist.point(None)  # the bonus the helpers give; none when the leader is gated
        try:
            if gated is not None and st.order == "leader_first":
                endings = Dist.point(_ending(gated))
            elif st.order == "helpers_first":
                given = self._bonus_dist(self._helpers_dist(helpers_raw, own, leader, None, cache, budget), own)
                endings = self._after_help(given, lambda bonus: self._leader_dist(leader, bonus, own), budget)
            else:
                _env, _gated, joint, denom = runner.joint_rolls(leader)
                ending_parts, bonus_parts = [], []
                for rolls, w in joint:
                    provisional = runner.resolve_rolls(leader, rolls)
                    bonuses = self._bonus_dist(
                        self._helpers_dist(helpers_raw, own, leader, provisional.result, cache, budget), own)
                    ending_parts.append((self._after_help(bonuses, self._rolled_leader(leader, rolls, own), budget), w))
                    bonus_parts.append((bonuses, w))
                endings, given = mixture(ending_parts, denom, budget), mixture(bonus_parts, denom, budget)
        except BudgetExceeded:
            raise self.locate(LimitError(f"'{self.proc.name}' has too many helpers to work out exactly",
                                         "max_states", hint="use fewer helpers")) from None
        outcomes: dict[str, Fraction] = defaultdict(Fraction)
        results: dict[Any, Fraction] = defaultdict(Fraction)
        success = Fraction(0)
        reports: list[tuple[tuple | None, Fraction]] = []
        for (outcome, result, succeeded, report), p in endings.probabilities().items():
            outcomes[outcome] += p
            reports.append((report, p))
            if result is not NO_RESULT:
                results[result] += p
            if succeeded:
                success += p
        bonuses_given = {b: p for b, p in given.probabilities().items() if b is not None}
        names = list(runner.check.outcome_names) + ["ruined"]
        ordered = {n: outcomes.get(n, Fraction(0)) for n in names if n in outcomes or n != "not_allowed"}
        ordered.update({n: p for n, p in outcomes.items() if n not in ordered})
        if not st.ruin_when:
            ordered.pop("ruined", None)
        return AssistedOdds(self.ruleset.id, self.proc.name, ordered,
                            {n: runner.check.outcome_success(n) for n in ordered}, success,
                            dict(sorted(results.items(), key=lambda kv: (str(type(kv[0])), kv[0]))),
                            dict(sorted(bonuses_given.items())), endings.truncated,
                            self.report_dists(reports) if self.proc.report else {})


NO_RESULT = ("no result",)  # an ending whose check has no result (told apart from any jsonable value)
RUINED = ("ruined", NO_RESULT, False, None)


def _ending(res: Resolution | CheckResult, report: tuple | None = None) -> tuple:
    """How an assisted check can end, as its odds count it: (outcome, result, success, the
    report values or None)."""
    return res.outcome, NO_RESULT if res.result is None else jsonable(res.result), bool(res.success), report


def _join_help(state: tuple, contribution: tuple) -> tuple:
    """(summed totals, ruined) after one more helper's (totals, ruins)."""
    (sums, bad), (contrib, bad2) = state, contribution
    return tuple(a + b for a, b in zip(sums, contrib, strict=True)), bad or bad2


def _clamped(text: str, low: int | None, high: int | None) -> str | None:
    """``text`` kept within ``low`` and ``high`` as the language writes it (None: no bound)."""
    if low is not None:
        text = f"max({low}, {text})" if high is None else f"max({low}, min({high}, {text}))"
    elif high is not None:
        text = f"min({high}, {text})"
    else:
        return None
    return text
