"""A team check, run: one member rolls for the team; every member's values follow from the
roller's result."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from ...codes import E_PROCEDURE
from ...dice.beyond import UNDETERMINED, Beyond
from ...dice.dist import Dist
from ...exact_text import fraction_text
from ...errors import RulesEngineError, RulesetError
from ...records import field, replace
from ..json_parts import jsonable
from ..odds_value import Group, OddsValue, group, shown
from ..result_value import ResultValue
from ..results import CheckOdds, CheckResult, ProcedureRecord
from ...rules.procedures.team import ROLLERS, TeamSpec
from .base import ProcedureRunner, faces_for


class TeamResult(ProcedureRecord):
    ruleset: str
    procedure: str
    roller: int  # the member who rolled (0-based)
    check: CheckResult
    member_values: tuple[dict[str, Any], ...]
    trace: str
    report: dict[str, Any] = field(default_factory=dict)  # the procedure's report values

    @property
    def outcome(self) -> str:
        return self.check.outcome

    @property
    def success(self) -> bool:
        return self.check.success

    def view(self) -> ResultValue:
        """This roll as every front end shows it: the roller's check, with who rolled (from
        1), the team's report and trace, and each member's values."""
        check = self.check.view()
        return replace(check, kind="team", names=check.names + (("procedure", self.procedure),), trace=self.trace,
                       roller=self.roller + 1, report=self.report, extra=(("members", self.member_values),))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class TeamOdds(ProcedureRecord):
    ruleset: str
    procedure: str
    roller: int
    check: CheckOdds
    member_values: tuple[dict[str, dict[Any, Fraction]], ...]
    report: dict[str, dict[Any, Fraction]] = field(default_factory=dict)  # each report value's distribution

    @property
    def outcomes(self) -> dict[str, Fraction]:
        return self.check.outcomes

    @property
    def success(self) -> Fraction:
        return self.check.success

    @property
    def truncated(self) -> Fraction:
        return self.check.truncated

    @property
    def result_distribution(self) -> dict[Any, Fraction]:
        return self.check.result_distribution

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        return "result", self.result_distribution

    def view(self) -> OddsValue:
        check = self.check.view()
        members = [{k: [{"value": jsonable(v), "probability": float(p), "exact": fraction_text(p)}
                        for v, p in dist.items()] for k, dist in m.items()} for m in self.member_values]
        # each member's values in the text too (the JSON has them under "members", by member), each
        # with what the depth left open of it (its rows add up to the rest)
        each = Group("member values", {f"member {i + 1} {k}": shown(dist, 1 - sum(dist.values(), Fraction(0)))
                                       for i, m in enumerate(self.member_values) for k, dist in m.items()},
                     in_json=False)
        return replace(check, names=check.names + (("procedure", self.procedure),),
                       groups=check.groups + (group("report", self.report, self.truncated), each),
                       roller=self.roller + 1, extra=check.extra + (("members", members),))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class TeamRunner(ProcedureRunner):

    @property
    def spec(self) -> TeamSpec:
        return self.typed_spec(TeamSpec)
    def _choose_roller(self, members: list[dict[str, Any]], own: dict[str, Any]) -> tuple[int, dict, list[dict]]:
        st = self.spec
        envs = [self.runner.before_roll(m).env for m in members]
        how = self.evaluate(st.roller, own)
        if how not in ROLLERS:
            raise self.locate(RulesetError(f"roller gives {how!r}; expected 'highest', 'lowest' or 'first'",
                                            code=E_PROCEDURE), st.roller)
        if how == "first" or not st.rank_by:
            return 0, envs[0], envs
        keys = [tuple(getattr(self.evaluate(e, {**env, **own}), "total", self.evaluate(e, {**env, **own}))
                      for e in st.rank_by) for env in envs]
        pick = max if how == "highest" else min
        best = pick(keys)
        return keys.index(best), envs[keys.index(best)], envs  # the first listed among equals

    def _member_values(self, envs: list[dict], roller_env: dict, own: dict, res) -> tuple[dict[str, Any], ...]:
        st = self.spec
        if not st.member_values:
            return tuple({} for _ in envs)
        rolled = {f"roller_{k}": v for k, v in roller_env.items()}
        rolled.update((f"roller_{let.name}", res.env[let.name]) for let in self.runner.check.lets
                      if let.after_roll and let.name in res.env)  # what the roller's roll gave
        rolled.update(roller_result=res.result, roller_success=res.success, roller_outcome=res.outcome)
        out = []
        for env in envs:
            local = {**env, **own, **rolled}
            values: dict[str, Any] = {}
            for n, e in st.member_values.items():  # in order: each may use the ones before
                values[n] = local[n] = self.evaluate(e, local)
            out.append(values)
        return tuple(out)

    def _team(self, parties) -> list[dict[str, Any]]:
        role = self.spec.roles(self.proc.check)[0]
        return self._members(parties, role.min, role.max, self.runner, "members")

    def _roll(self, parties, source, inputs) -> TeamResult:
        own = self._own_inputs(inputs)
        members = self._team(parties)
        who, roller_env, envs = self._choose_roller(members, own)
        with faces_for("party {}'s check", who + 1):
            result = self.runner.roll_from(members[who], source)
        values = self._member_values(envs, roller_env, own, result)
        lines = [f"member {who + 1} rolls for the team"
                 + ("   (secret: the GM rolls, only the GM sees)" if result.secret else "")] + result.trace.splitlines()
        lines.append(f"{result.outcome}, result {jsonable(result.result)}")
        for i, v in enumerate(values):
            if v:
                lines.append(f"member {i + 1}: " + ", ".join(f"{k} {jsonable(x)}" for k, x in v.items()))
        report = self.report(self._end_env(result, members[who], own, who)) if self.proc.report else None
        lines += self.report_line(report)
        return TeamResult(self.ruleset.id, self.proc.name, who, result, values, "\n".join(lines),
                          self.report_dict(report))

    def _end_env(self, res, values: dict[str, Any], own: dict[str, Any], who: int) -> dict[str, Any]:
        """What the report reads: the roller's check after it resolved, the procedure's own
        inputs and ``roller``, the roller's number."""
        return {**self.party_env(res, values), **own, "roller": who + 1}

    def _odds(self, parties, inputs) -> TeamOdds:
        own = self._own_inputs(inputs)
        members = self._team(parties)
        who, roller_env, envs = self._choose_roller(members, own)
        check_odds = self.runner.odds(members[who])
        # For each member, each value's weights over the roller's denominator.
        weights: list[dict[str, dict[Any, int]]] = [defaultdict(lambda: defaultdict(int)) for _ in envs]
        denom = 1
        reports: dict[tuple, int] = defaultdict(int)
        if self.spec.member_values or self.proc.report:
            # what explosions past the depth cut is read too where it decides (cut=True); where
            # it leaves a value open, that mass is left out of it (its rows then add up to less)
            outs, denom = self.runner.resolutions(members[who], cut=True)
            for res, env, w in outs:
                cut = any(isinstance(v, Beyond) for v in res.env.values())  # a throw the depth cut
                try:
                    for i, vals in enumerate(self._member_values(envs, roller_env, own, res)):
                        for k, v in vals.items():
                            if not isinstance(v, Beyond):  # a number the depth left open: out
                                weights[i][k][jsonable(v)] += w
                except UNDETERMINED + (RulesEngineError,):
                    if not cut:
                        raise  # the rules' own mistake, met where nothing was cut
                if self.proc.report:
                    try:
                        reports[self.report(self._end_env(res, env, own, who))] += w
                    except UNDETERMINED + (RulesEngineError,):
                        if not cut:
                            raise
        report = self.report_dists((r, Fraction(w, denom)) for r, w in reports.items()) if self.proc.report else {}
        return TeamOdds(self.ruleset.id, self.proc.name, who, check_odds,
                        tuple({k: Dist(dict(v), denom).probabilities() for k, v in d.items()} for d in weights),
                        report)
