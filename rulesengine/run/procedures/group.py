"""A group check, run: every member makes the check; the group's outcome is read from the
tallies over the members and its best member. Exact odds fold the members in one by one:
a state is (the tallies so far, the best member so far), where the best member counts only
by what the group's rules read of it, so equal states merge and the work grows with the
number of distinct states, not with the product of every member's outcomes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from ...dice.dist import Budget, BudgetExceeded
from ...errors import LimitError, RulesetError
from ...codes import E_NO_OUTCOME
from ...rules.procedures.group import GroupSpec
from ..json_parts import jsonable
from ..odds_value import OddsValue, group, shown
from ..result_value import ResultValue
from ..results import CheckResult, NOT_ALLOWED, ProcedureRecord, value_order
from .base import ProcedureRunner, faces_for, fingerprint, not_allowed, rank_value
from ...records import field


class GroupResult(ProcedureRecord):
    ruleset: str
    procedure: str
    parties: tuple[CheckResult, ...]
    best: int | None  # the best member (0-based), when the group is ranked
    tallies: dict[str, Any]
    outcome: str
    success: bool
    trace: str
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def result(self) -> Any:
        return None if self.best is None else self.parties[self.best].result

    def view(self) -> ResultValue:
        """This roll as every front end shows it: each member's check, the best member
        (from 1, where the group is ranked) and the tallies."""
        return ResultValue(
            ruleset=self.ruleset, kind="group", names=(("procedure", self.procedure),), trace=self.trace,
            outcome=self.outcome, success=self.success, result=self.result,
            parties=tuple(p.view() for p in self.parties), report=self.report,
            extra=(("best", None if self.best is None else self.best + 1), ("tallies", self.tallies)))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class GroupOdds(ProcedureRecord):
    ruleset: str
    procedure: str
    parties: tuple[dict[str, Any], ...]
    outcomes: dict[str, Fraction]
    outcome_success: dict[str, bool | None]
    success: Fraction
    tallies: dict[str, dict[Any, Fraction]]
    best_result: dict[Any, Fraction]
    truncated: Fraction = Fraction(0)
    report: dict[str, dict[Any, Fraction]] = field(default_factory=dict)

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        if self.best_result:
            return "best member's result", self.best_result
        name = next(iter(self.tallies), None)
        return (name, self.tallies[name]) if name is not None else ("result", {})

    def view(self) -> OddsValue:
        title, chart = self.distribution()
        return OddsValue(ruleset=self.ruleset, names=(("procedure", self.procedure),), parties=self.parties,
                         outcomes=self.outcomes, outcome_success=self.outcome_success, success=self.success,
                         result=shown(self.best_result, self.truncated), chart=(title, shown(chart, self.truncated)),
                         groups=(group("tallies", self.tallies, self.truncated, in_text=False),
                                 group("report", self.report, self.truncated)), truncated=self.truncated)

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class GroupRunner(ProcedureRunner):

    @property
    def spec(self) -> GroupSpec:
        return self.typed_spec(GroupSpec)

    def _group(self, parties, inputs) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        own = self._own_inputs(inputs)
        role = self.spec.roles(self.proc.check)[0]
        if self.spec.member_inputs and parties:
            # Inputs the group sets for everyone (one DC for all), from its own inputs.
            shared = {n: self.evaluate(e, own) for n, e in self.spec.member_inputs.items()}
            parties = [{**dict(p), **shared} for p in parties]
        members = self._members(parties, role.min, role.max, self.runner, "members",
                                   who=f"group '{self.proc.name}'")
        return own, members

    def _key(self, env: Mapping[str, Any]) -> tuple:
        return tuple(rank_value(self.evaluate(e, env)) for e in self.spec.best_by)

    def _contribution(self, env: Mapping[str, Any]) -> tuple:
        return tuple(self.whole_number(self.evaluate(e, env), e, f"the tally '{name}'")
                     for name, e in self.spec.tally.items())

    def _verdict(self, env: dict[str, Any], best_outcome: tuple[str, bool] | None) -> tuple[str, bool]:
        """The group's outcome and whether it is a success."""
        for rule in self.spec.outcomes:
            if rule.when is None or self.truth(rule.when, env):
                success = rule.success if isinstance(rule.success, bool) else self.truth(rule.success, env)
                return rule.name, bool(success)
        if best_outcome is not None and not self.spec.outcomes:
            return best_outcome
        raise self.locate(RulesetError(f"no outcome of group '{self.proc.name}' applies",
                                       code=E_NO_OUTCOME, hint="end the outcomes with a rule without when"))

    def _group_env(self, own: dict, tallies: tuple, n: int, best: int | None,
                   best_env: Mapping[str, Any] | None) -> dict[str, Any]:
        env: dict[str, Any] = dict(best_env or {})
        env.update(own)
        if best is not None:
            env["best"] = best + 1
        env.update(zip(self.spec.tally, tallies, strict=True))
        env["parties"] = n
        return env

    # ---- rolling ---------------------------------------------------------------------------
    def _roll(self, parties, source, inputs) -> GroupResult:
        own, members = self._group(parties, inputs)
        results, tallies, lines = [], tuple(0 for _ in self.spec.tally), []
        best: int | None = None
        best_key: tuple | None = None
        for i, values in enumerate(members):
            with faces_for("party {}'s check", i + 1):
                r = self.runner.roll_from(values, source)
            if r.outcome == NOT_ALLOWED:
                raise not_allowed(i, r.reason)
            results.append(r)
            env = {**self.party_env(r, values), **own, "party": i + 1}
            tallies = tuple(a + b for a, b in zip(tallies, self._contribution(env), strict=True))
            if self.spec.best_by:
                key = self._key(env)
                if best_key is None or key > best_key:
                    best, best_key = i, key
            trace = r.trace.replace("\n", "; ")
            lines.append(f"member {i + 1}: {r.outcome}, result {jsonable(r.result)}  ({trace})")
        best_env = None if best is None else {**self.party_env(results[best], members[best]), "party": best + 1}
        env = self._group_env(own, tallies, len(members), best, best_env)
        outcome, success = self._verdict(env, None if best is None else
                                         (results[best].outcome, bool(results[best].success)))
        if best is not None:
            lines.append(f"best: member {best + 1}, result {jsonable(results[best].result)}")
        if self.spec.tally:
            lines.append("tallies: " + ", ".join(f"{k} {v}" for k, v in zip(self.spec.tally, tallies, strict=True)))
        lines.append(f"the group: {outcome}")
        report = self.report(env) if self.proc.report else None
        lines += self.report_line(report)
        return GroupResult(self.ruleset.id, self.proc.name, tuple(results), best,
                           dict(zip(self.spec.tally, tallies, strict=True)), outcome, success, "\n".join(lines),
                           self.report_dict(report))

    # ---- exact odds ------------------------------------------------------------------------
    def _rows(self, values: dict[str, Any], own: dict, index: int) -> tuple[list[tuple], int]:
        """Each way one member's check can end, merged by what the group reads of it:
        (its tally contributions, its rank key, its fingerprint, its names, weight)."""
        outs, denom = self.party_resolutions(values, index, own)
        names, dice_names = self.party_reads
        merged: dict[tuple, list] = {}
        for res, penv, w in outs:
            contrib = self._contribution(penv)
            key = self._key(penv) if self.spec.best_by else ()
            fp = (fingerprint(penv, names, dice_names) + (res.outcome, bool(res.success), jsonable(res.result))
                  if self.spec.best_by else ())
            k = (contrib, key, fp)
            if k in merged:
                merged[k][4] += w
            else:
                merged[k] = [contrib, key, fp, penv, w]
        return [tuple(m) for m in merged.values()], denom

    def _odds(self, parties, inputs) -> GroupOdds:
        own, members = self._group(parties, inputs)
        states, envs, denom = self._fold(own, members)
        return self._group_odds(own, members, states, envs, denom)

    def _fold(self, own: dict[str, Any], members: list[dict[str, Any]]
              ) -> tuple[dict[tuple, int], dict[tuple, dict], int]:
        """The members folded in one by one: each state (tallies, best key, (member,
        fingerprint) of the best) with its weight over the returned denominator, and the
        names of each member that is best in some state."""
        budget = Budget(self.limits.max_states)
        envs: dict[tuple, dict] = {}  # (member, fingerprint) → that member's names
        zero = tuple(0 for _ in self.spec.tally)
        states: dict[tuple, int] = {(zero, None, None): 1}  # (tallies, best key, (member, fp)) → weight
        denom = 1
        try:
            for i, values in enumerate(members):
                rows, d = self._rows(values, own, i)
                budget.spend(len(states) * len(rows) * (len(self.spec.tally) + 4))
                nxt: dict[tuple, int] = {}
                for (tallies, best_key, best_ref), w in states.items():
                    for contrib, key, fp, penv, wr in rows:
                        t = tuple(a + b for a, b in zip(tallies, contrib, strict=True))
                        if self.spec.best_by and (best_key is None or key > best_key):
                            state = (t, key, (i, fp))
                            envs.setdefault((i, fp), penv)
                        else:
                            state = (t, best_key, best_ref)
                        nxt[state] = nxt.get(state, 0) + w * wr
                states, denom = nxt, denom * d
                if len(states) > self.limits.max_states:
                    raise BudgetExceeded()
        except BudgetExceeded:
            raise self.locate(LimitError(f"group '{self.proc.name}' with {len(members)} members is too big to work "
                                         "out exactly", "max_states", hint="use fewer members")) from None
        return states, envs, denom

    def _group_odds(self, own: dict[str, Any], members: list[dict[str, Any]], states: dict[tuple, int],
                    envs: dict[tuple, dict], denom: int) -> GroupOdds:
        """The group's verdict read on each state, added up."""
        outcomes: dict[str, Fraction] = {}
        success = Fraction(0)
        tally_dists: dict[str, dict[Any, Fraction]] = {n: {} for n in self.spec.tally}
        best_result: dict[Any, Fraction] = {}
        reports: list[tuple[tuple | None, Fraction]] = []
        mass = 0
        for (tallies, _key, best_ref), w in states.items():
            p = Fraction(w, denom)
            mass += w
            best_env = envs[best_ref] if best_ref is not None else None
            best = best_ref[0] if best_ref is not None else None
            env = self._group_env(own, tallies, len(members), best, best_env)
            best_outcome = None if best_env is None else (best_env["outcome"], bool(best_env["success"]))
            name, ok = self._verdict(env, best_outcome)
            outcomes[name] = outcomes.get(name, Fraction(0)) + p
            if ok:
                success += p
            for n, v in zip(self.spec.tally, tallies, strict=True):
                tally_dists[n][v] = tally_dists[n].get(v, Fraction(0)) + p
            if best_env is not None:
                r = jsonable(best_env["result"])
                best_result[r] = best_result.get(r, Fraction(0)) + p
            if self.proc.report:
                reports.append((self.report(env), p))
        ordered, success_of = self._ordered(outcomes)
        return GroupOdds(self.ruleset.id, self.proc.name, tuple(members), ordered, success_of, success,
                         {n: dict(sorted(d.items(), key=lambda kv: value_order(kv[0])))
                          for n, d in tally_dists.items()},
                         dict(sorted(best_result.items(), key=lambda kv: value_order(kv[0]))),
                         Fraction(denom - mass, denom),
                         self.report_dists(reports) if self.proc.report else {})

    def _ordered(self, outcomes: dict[str, Fraction]) -> tuple[dict[str, Fraction], dict[str, bool | None]]:
        """The group's outcomes in the order its rules (else its check's) list them, and
        whether each is a success (None: decided by an expression)."""
        check = self.runner.check
        order = [o.name for o in self.spec.outcomes] or list(check.outcome_names)
        ordered = {n: outcomes.get(n, Fraction(0)) for n in dict.fromkeys(order) if n != "not_allowed"}
        ordered.update({n: p for n, p in outcomes.items() if n not in ordered})
        success_of = {o.name: (o.success if isinstance(o.success, bool) else None) for o in self.spec.outcomes} \
            or {n: check.outcome_success(n) for n in ordered}
        return ordered, success_of
