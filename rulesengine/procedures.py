"""Procedures built from checks: contests and extended checks, rolled or as exact odds.

* A **contest**: each party makes the same check; a declared ranking (``rank_by``, highest
  first) orders them; a declared tie rule settles a tie for first place — it stands, the
  tied parties roll again (the others drop out), the first or last party wins (the active
  side, the defender), or tie-breakers apply in turn (a higher value, then a roll-off).
  Exact odds take the joint of the parties' check distributions; ties that roll again are
  a geometric series, summed exactly by solving for each set of tied parties.
* An **extended check**: the check is made round after round; declared rules update a
  state (a success pool, a clock, a failure clock) from each round's outcome until a
  success or failure condition holds or the round limit is reached. Exact odds walk the
  Markov chain over the state, merging equal states, round by round.

Both reuse :class:`~rulesengine.check.CheckRunner`: rolling calls its ``roll``; odds use
its ``resolutions``, the exact driver of the same resolver.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import Any, Mapping, Sequence

from .exact_text import fraction_text
from .check import NOT_ALLOWED, CheckOdds, CheckResult, Resolution, _jsonable, probability_json
from .dist import Budget, BudgetExceeded
from .errors import InputError, LimitError, Location, RulesEngineError
from .evaluate import Context
from .expr import ast
from .expr.parse import closest
from .model import Expr, Procedure
from .pool import FacesSource, RandomSource
from .values import Rolled

E_PROCEDURE = "E510"
MAX_PARTIES = 8
MAX_TIE_ROUNDS = 100  # rolling: tied parties roll again at most this many times


# ---- building -------------------------------------------------------------------------------


def build_procedure(builder, name: str, spec: dict, ptr: str) -> Procedure | None:
    from .build import E_UNKNOWN_REFERENCE, _Scope, _esc

    check = builder.checks.get(spec["check"])
    if check is None:
        from .expr.parse import closest

        near = closest(spec["check"], list(builder.checks))
        builder.error(E_UNKNOWN_REFERENCE, f"procedure '{name}' uses check '{spec['check']}', which does not exist",
                      f"{ptr}/check", f"did you mean '{near}'?" if near else None)
        return None
    kind = spec["kind"]
    inputs = tuple(builder.input(n, s, f"{ptr}/inputs/{_esc(n)}") for n, s in (spec.get("inputs") or {}).items())
    party_scope = _Scope({i.name: "input" for i in check.inputs})
    party_scope.names.update({let.name: "value" for let in check.lets})
    party_scope.names.update({n: "roll" for n, _ in check.rolls})
    party_scope.names.update({r: "value" for r in check.report})
    if check.choose is not None:
        party_scope.names.update({n: "value" for n, _ in check.choose.values})
    party_scope.names.update(result="the result", outcome="the outcome", success="whether it succeeded")
    settings: dict[str, Any] = {}
    if kind == "contest":
        party_scope = party_scope.with_names(party="the party's number, 1 for the first")
        if not spec.get("rank_by"):
            builder.error(E_PROCEDURE, f"contest '{name}' needs rank_by", ptr, "e.g. rank_by: [result]")
            return None
        settings["rank_by"] = [builder.expr(e, f"{ptr}/rank_by/{i}", party_scope, what="rank_by")
                               for i, e in enumerate(spec["rank_by"])]
        parties = spec.get("parties") or {}
        settings["min_parties"] = parties.get("min", 2)
        settings["max_parties"] = parties.get("max", MAX_PARTIES)
        ties = spec.get("ties", "stand")
        if isinstance(ties, list):
            breakers = []
            for i, t in enumerate(ties):
                if "higher" in t:
                    breakers.append(("higher", builder.expr(t["higher"], f"{ptr}/ties/{i}/higher", party_scope,
                                                            what="a tie-breaker")))
                else:
                    breakers.append(("roll", builder.expr(t["roll"], f"{ptr}/ties/{i}/roll", party_scope,
                                                          dice=True, what="a roll-off")))
            settings["ties"] = breakers
        else:
            settings["ties"] = ties
        if "winner_result" in spec:
            settings["winner_result"] = builder.expr(spec["winner_result"], f"{ptr}/winner_result",
                                                     party_scope.with_names(runner_up="the runner-up's result"),
                                                     what="winner_result")
    elif kind == "team":
        proc_scope = _Scope({i.name: "input" for i in inputs})
        member_scope = _Scope({i.name: "input" for i in check.inputs})
        member_scope.names.update({l.name: "value" for l in check.lets if not l.after_roll})
        settings["rank_by"] = [builder.expr(e, f"{ptr}/rank_by/{i}", member_scope.with_names(**proc_scope.names),
                                            what="rank_by") for i, e in enumerate(spec.get("rank_by") or [])]
        settings["roller"] = builder.expr(spec.get("roller", "'highest'"), f"{ptr}/roller", proc_scope, what="roller")
        parties = spec.get("parties") or {}
        settings["min_parties"] = parties.get("min", 1)
        settings["max_parties"] = parties.get("max", MAX_PARTIES)
        roller_names = {f"roller_{n}": "the roller's value" for n in member_scope.names}
        roller_names.update(roller_result="the roller's result", roller_success="whether the roller succeeded",
                            roller_outcome="the roller's outcome")
        values_scope = member_scope.with_names(**proc_scope.names, **roller_names)
        settings["member_values"] = {}
        for n, e in (spec.get("member_values") or {}).items():
            settings["member_values"][n] = builder.expr(e, f"{ptr}/member_values/{_esc(n)}", values_scope,
                                                        what=f"member value '{n}'")
            values_scope.names[n] = "a member value"  # later member values may use it
    elif kind == "assisted":
        helper_check = builder.checks.get(spec.get("helper_check", check.name))
        if helper_check is None:
            builder.error(E_UNKNOWN_REFERENCE, f"helper check '{spec.get('helper_check')}' does not exist",
                          f"{ptr}/helper_check")
            return None
        proc_scope = _Scope({i.name: "input" for i in inputs})
        helper_scope = _Scope({i.name: "input" for i in helper_check.inputs})
        order = spec.get("order", "helpers_first")
        inputs_scope = helper_scope.with_names(**proc_scope.names)
        inputs_scope.names.update({f"leader_{i.name}": "the leader's input" for i in check.inputs})
        if order == "leader_first":
            inputs_scope.names["leader_result"] = "the leader's result before help"
        settings["helper_check"] = helper_check.name
        settings["order"] = order
        settings["helper_inputs"] = {}
        for n, e in (spec.get("helper_inputs") or {}).items():
            if helper_check.input(n) is None:
                builder.error(E_UNKNOWN_REFERENCE, f"'{n}' is not an input of check '{helper_check.name}'",
                              f"{ptr}/helper_inputs/{_esc(n)}", key=True)
                continue
            settings["helper_inputs"][n] = builder.expr(e, f"{ptr}/helper_inputs/{_esc(n)}", inputs_scope,
                                                        what=f"helper input '{n}'")
        helper_party = _Scope({i.name: "input" for i in helper_check.inputs})
        helper_party.names.update({l.name: "value" for l in helper_check.lets})
        helper_party.names.update({r: "value" for r in helper_check.report})
        helper_party.names.update(result="the result", outcome="the outcome", success="whether it succeeded")
        helper_party.names.update(proc_scope.names)
        settings["totals"] = {n: builder.expr(e, f"{ptr}/totals/{_esc(n)}", helper_party, what=f"total '{n}'")
                              for n, e in (spec.get("totals") or {}).items()}
        settings["ruin_when"] = builder.expr(spec["ruin_when"], f"{ptr}/ruin_when", helper_party,
                                             what="ruin_when") if "ruin_when" in spec else None
        settings["bonus"] = builder.expr(spec.get("bonus", 0), f"{ptr}/bonus",
                                         proc_scope.with_names(**{n: "a total" for n in settings["totals"]}),
                                         what="bonus")
        target = spec.get("bonus_to")
        if target is None or check.input(target) is None or check.input(target).type != "integer":
            builder.error(E_UNKNOWN_REFERENCE, f"bonus_to must name an integer input of check '{check.name}'",
                          f"{ptr}/bonus_to" if target else ptr,
                          "inputs: " + ", ".join(i.name for i in check.inputs if i.type == "integer"))
            return None
        settings["bonus_to"] = target
        helpers = spec.get("helpers") or {}
        settings["min_helpers"] = helpers.get("min", 1)
        settings["max_helpers"] = helpers.get("max", MAX_PARTIES - 1)
    else:  # extended
        for key in ("state", "each_round", "succeed_when"):
            if key not in spec:
                builder.error(E_PROCEDURE, f"extended check '{name}' needs '{key}'", ptr)
                return None
        proc_scope = _Scope({i.name: "input" for i in inputs})
        proc_scope.names.update({i.name: "input" for i in check.inputs})
        state = {}
        for sname, stext in spec["state"].items():
            state[sname] = builder.expr(stext, f"{ptr}/state/{_esc(sname)}", proc_scope, what=f"state '{sname}'")
        round_scope = proc_scope.with_names(**{s: "state" for s in state}, round="the round number")
        after_scope = _Scope({**round_scope.names, **party_scope.names})
        rules = []
        for i, rule in enumerate(spec["each_round"]):
            when = builder.expr(rule["when"], f"{ptr}/each_round/{i}/when", after_scope, what="a round rule") \
                if "when" in rule else None
            sets = []
            for sname, stext in rule["set"].items():
                if sname not in state:
                    builder.error(E_UNKNOWN_REFERENCE, f"'{sname}' is not part of the state",
                                  f"{ptr}/each_round/{i}/set/{_esc(sname)}", "state: " + ", ".join(state), key=True)
                    continue
                sets.append((sname, builder.expr(stext, f"{ptr}/each_round/{i}/set/{_esc(sname)}", after_scope,
                                                 what=f"state '{sname}'")))
            rules.append((when, tuple(sets)))
        settings["state"] = state
        settings["each_round"] = rules
        settings["succeed_when"] = builder.expr(spec["succeed_when"], f"{ptr}/succeed_when", after_scope,
                                                what="succeed_when")
        settings["fail_when"] = builder.expr(spec["fail_when"], f"{ptr}/fail_when", after_scope,
                                             what="fail_when") if "fail_when" in spec else None
        settings["max_rounds"] = builder.expr(spec.get("max_rounds", 100), f"{ptr}/max_rounds", proc_scope,
                                              what="max_rounds")
        settings["round_inputs"] = {n: builder.expr(t, f"{ptr}/round_inputs/{_esc(n)}", round_scope,
                                                    what=f"round input '{n}'")
                                    for n, t in (spec.get("round_inputs") or {}).items()}
        for n in settings["round_inputs"]:
            if check.input(n) is None:
                builder.error(E_UNKNOWN_REFERENCE, f"round input '{n}' is not an input of check '{check.name}'",
                              f"{ptr}/round_inputs/{_esc(n)}", key=True)
    return Procedure(name, kind, spec.get("description", ""), check.name, settings, inputs,
                     tuple(spec.get("rules", ())), ptr)


# ---- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContestResult:
    ruleset: str
    procedure: str
    parties: tuple[CheckResult, ...]  # the first round
    rounds: tuple[tuple[int, ...], ...]  # for each extra round: the parties who rolled again
    extra: tuple[tuple[CheckResult, ...], ...]  # their results
    ranking: tuple[int, ...]  # party indexes (0-based), best first, after ties are settled
    winner: int | None  # None: a tie stands
    winner_result: Any
    trace: str

    @property
    def tie(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "parties": [p.to_dict() for p in self.parties],
            "rerolls": [{"parties": [i + 1 for i in r], "results": [p.to_dict() for p in res]}
                        for r, res in zip(self.rounds, self.extra)],
            "winner": None if self.winner is None else self.winner + 1,
            "tie": self.winner is None,
            "winner_result": _jsonable(self.winner_result),
            "trace": self.trace,
        }


@dataclass(frozen=True)
class ContestOdds:
    ruleset: str
    procedure: str
    parties: tuple[dict[str, Any], ...]
    wins: tuple[Fraction, ...]  # P(party i wins)
    tie: Fraction
    winner_result: dict[Any, Fraction]
    truncated: Fraction = Fraction(0)

    @property
    def outcomes(self) -> dict[str, Fraction]:
        out = {f"party{i + 1}_wins": p for i, p in enumerate(self.wins)}
        out["tie"] = self.tie
        return out

    def to_dict(self) -> dict[str, Any]:
        prob = probability_json

        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "parties": [{k: _jsonable(v) for k, v in p.items()} for p in self.parties],
            "outcomes": [dict(name=n, success=n != "tie", **prob(p)) for n, p in self.outcomes.items()],
            "result": [dict(value=_jsonable(v), **prob(p)) for v, p in self.winner_result.items()],
            "truncated": fraction_text(self.truncated),
        }


@dataclass(frozen=True)
class ExtendedResult:
    ruleset: str
    procedure: str
    inputs: dict[str, Any]
    rounds: tuple[CheckResult, ...]
    states: tuple[dict[str, Any], ...]  # the state after each round
    outcome: str  # "success" | "failure" | "unfinished"
    trace: str

    @property
    def success(self) -> bool:
        return self.outcome == "success"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "inputs": {k: _jsonable(v) for k, v in self.inputs.items()},
            "rounds": [dict(r.to_dict(), state=s) for r, s in zip(self.rounds, self.states)],
            "outcome": self.outcome,
            "success": self.success,
            "result": len(self.rounds),
            "trace": self.trace,
        }


@dataclass(frozen=True)
class ExtendedOdds:
    ruleset: str
    procedure: str
    inputs: dict[str, Any]
    outcomes: dict[str, Fraction]  # success, failure, unfinished
    by_round: tuple[tuple[Fraction, Fraction], ...]  # P(succeeded, failed) by the end of round n
    expected_rounds: Fraction  # rounds played, the round limit counting for unfinished tasks
    rounds_distribution: dict[int, Fraction]
    truncated: Fraction = Fraction(0)

    @property
    def success(self) -> Fraction:
        return self.outcomes["success"]

    def to_dict(self) -> dict[str, Any]:
        prob = probability_json

        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "inputs": {k: _jsonable(v) for k, v in self.inputs.items()},
            "outcomes": [dict(name=n, success=n == "success", **prob(p)) for n, p in self.outcomes.items()],
            "success": prob(self.success),
            "by_round": [{"round": i + 1, "succeeded": float(s), "failed": float(f)}
                         for i, (s, f) in enumerate(self.by_round)],
            "expected_rounds": float(self.expected_rounds),
            "result": [dict(value=v, **prob(p)) for v, p in self.rounds_distribution.items()],
            "truncated": fraction_text(self.truncated),
        }


@dataclass(frozen=True)
class TeamResult:
    ruleset: str
    procedure: str
    roller: int  # the member who rolled (0-based)
    check: CheckResult
    member_values: tuple[dict[str, Any], ...]
    trace: str

    @property
    def outcome(self) -> str:
        return self.check.outcome

    @property
    def success(self) -> bool:
        return self.check.success

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "procedure": self.procedure, "roller": self.roller + 1,
                **{k: v for k, v in self.check.to_dict().items() if k not in ("ruleset",)},
                "members": [{k: _jsonable(v) for k, v in m.items()} for m in self.member_values],
                "trace": self.trace}


@dataclass(frozen=True)
class TeamOdds:
    ruleset: str
    procedure: str
    roller: int
    check: CheckOdds
    member_values: tuple[dict[str, dict[Any, Fraction]], ...]

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

    def to_dict(self) -> dict[str, Any]:
        d = self.check.to_dict()
        d.update(procedure=self.procedure, roller=self.roller + 1,
                 members=[{k: [{"value": _jsonable(v), "probability": float(p),
                                "exact": fraction_text(p)} for v, p in dist.items()]
                           for k, dist in m.items()} for m in self.member_values])
        return d


@dataclass(frozen=True)
class AssistedResult:
    ruleset: str
    procedure: str
    leader: CheckResult | None  # None when a helper ruined the task before the leader rolled
    helpers: tuple[CheckResult, ...]
    totals: dict[str, Any]
    bonus: int
    ruined: bool
    trace: str

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

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "procedure": self.procedure, "outcome": self.outcome,
                "success": self.success, "result": _jsonable(self.result), "ruined": self.ruined,
                "bonus": self.bonus, "totals": {k: _jsonable(v) for k, v in self.totals.items()},
                "leader": self.leader.to_dict() if self.leader else None,
                "helpers": [h.to_dict() for h in self.helpers], "trace": self.trace}


@dataclass(frozen=True)
class AssistedOdds:
    ruleset: str
    procedure: str
    outcomes: dict[str, Fraction]
    outcome_success: dict[str, bool]
    success: Fraction
    result_distribution: dict[Any, Fraction]
    bonus_distribution: dict[int, Fraction]
    truncated: Fraction = Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        prob = probability_json

        return {"ruleset": self.ruleset, "procedure": self.procedure,
                "outcomes": [dict(name=n, success=self.outcome_success.get(n, False), **prob(p))
                             for n, p in self.outcomes.items()],
                "success": prob(self.success),
                "result": [dict(value=_jsonable(v), **prob(p)) for v, p in self.result_distribution.items()],
                "bonus": [dict(value=v, **prob(p)) for v, p in self.bonus_distribution.items()],
                "truncated": fraction_text(self.truncated)}


# ---- running -------------------------------------------------------------------------------------


class ProcedureRunner:
    def __init__(self, ruleset, proc: Procedure) -> None:
        self.ruleset = ruleset
        self.proc = proc
        self.check = ruleset.check(proc.check)
        self.runner = self.check._runner
        self.limits = ruleset.limits

    @property
    def name(self) -> str:
        return self.proc.name

    # shared evaluation --------------------------------------------------------------------------
    def _eval(self, e: Expr, env: Mapping[str, Any], **ctx: Any) -> Any:
        return self.runner._eval(e, env, **ctx)

    def _truth(self, e: Expr, env: Mapping[str, Any]) -> bool:
        return self.runner._truth(e, env)

    def _at(self, exc: RulesEngineError, e: Expr | None = None) -> RulesEngineError:
        """Point an error of the procedure at the ruleset file, like every other ruleset
        error: at the expression ``e`` (at its column, when the error has one), else at the
        procedure's name. The error itself is kept (a LimitError keeps its ``limit``)."""
        if e is not None:
            return self.runner._relocate(exc, e)
        doc = self.runner.doc
        if doc is not None and exc.location.path is None:
            exc.location = doc.location(self.proc.pointer, key=True)
        return exc

    @staticmethod
    def _party_env(res: Resolution | CheckResult, env: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every name of a party's check after it resolved: the resolver's own record, the
        same for a roll and for each enumerated outcome."""
        out = dict(env or {})
        out.update(res.env)
        out.update(res.values)
        out.update(result=res.result, outcome=res.outcome, success=res.success)
        return out

    def _key(self, env: Mapping[str, Any]) -> tuple:
        key = []
        for e in self.proc.settings["rank_by"]:
            v = self._eval(e, env)
            key.append(int(v) if isinstance(v, bool) else getattr(v, "total", v))
        return tuple(key)

    def _source(self, rng, seed, faces):
        if faces is not None:
            return FacesSource(faces)
        if rng is not None and seed is not None:
            raise InputError("give either rng or seed, not both")
        return RandomSource(rng if rng is not None else random.Random(seed))

    # entry points ---------------------------------------------------------------------------------
    def roll(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None,
             rng=None, seed=None, faces=None):
        """Roll the procedure. Contests, team and assisted checks take ``parties`` (one input
        mapping per party: for assisted checks the leader first, then the helpers)."""
        source = self._source(rng, seed, faces)
        if self.proc.kind == "contest":
            result = self._roll_contest(parties, source, inputs)
        elif self.proc.kind == "team":
            result = self._roll_team(parties, source, inputs)
        elif self.proc.kind == "assisted":
            result = self._roll_assisted(parties, source, inputs)
        else:
            result = self._roll_extended(inputs, source)
        if isinstance(source, FacesSource) and source.used < len(source.faces):
            raise InputError(f"{len(source.faces)} faces given, but '{self.proc.name}' rolled only {source.used}",
                             hint="give one face per die rolled")
        return result

    def odds(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None):
        if self.proc.kind == "contest":
            return self._odds_contest(parties, inputs)
        if self.proc.kind == "team":
            return self._odds_team(parties, inputs)
        if self.proc.kind == "assisted":
            return self._odds_assisted(parties, inputs)
        return self._odds_extended(inputs)

    # procedure-level inputs --------------------------------------------------------------------------
    def _own_inputs(self, inputs) -> dict[str, Any]:
        return self.runner.coerce_specs(self.proc.inputs, inputs, f"'{self.proc.name}'",
                                        "give each party's inputs as party1.name=value")

    def _members(self, parties, lo: int, hi: int, runner, what: str = "parties") -> list[dict[str, Any]]:
        parties = list(parties or [])
        if not lo <= len(parties) <= hi:
            raise InputError(f"'{self.proc.name}' needs {lo}" + (f" to {hi}" if hi != lo else "")
                             + f" {what}, got {len(parties)}", hint="give party1.name=value party2.name=value ...")
        out = []
        for i, p in enumerate(parties):
            try:
                out.append(runner.coerce_inputs(p))
            except InputError as exc:
                raise InputError(f"party {i + 1}: {exc.message}", hint=exc.hint) from None
        return out

    # team checks ------------------------------------------------------------------------------------
    def _choose_roller(self, members: list[dict[str, Any]], own: dict[str, Any]) -> tuple[int, dict, list[dict]]:
        st = self.proc.settings
        envs = [self.runner.before_roll(m).env for m in members]
        how = self._eval(st["roller"], own)
        if how not in ("highest", "lowest", "first"):
            raise self._at(RulesEngineError(f"roller gives {how!r}; expected 'highest', 'lowest' or 'first'",
                                            code=E_PROCEDURE), st["roller"])
        if how == "first" or not st["rank_by"]:
            return 0, envs[0], envs
        keys = [tuple(getattr(self._eval(e, {**env, **own}), "total", self._eval(e, {**env, **own}))
                      for e in st["rank_by"]) for env in envs]
        pick = max if how == "highest" else min
        best = pick(keys)
        return keys.index(best), envs[keys.index(best)], envs  # the first listed among equals

    def _member_values(self, envs: list[dict], roller_env: dict, own: dict, res) -> tuple[dict[str, Any], ...]:
        st = self.proc.settings
        if not st["member_values"]:
            return tuple({} for _ in envs)
        rolled = {f"roller_{k}": v for k, v in roller_env.items()}
        rolled.update(roller_result=res.result, roller_success=res.success, roller_outcome=res.outcome)
        out = []
        for env in envs:
            local = {**env, **own, **rolled}
            values: dict[str, Any] = {}
            for n, e in st["member_values"].items():  # in order: each may use the ones before
                values[n] = local[n] = self._eval(e, local)
            out.append(values)
        return tuple(out)

    def _roll_team(self, parties, source, inputs) -> TeamResult:
        own = self._own_inputs(inputs)
        st = self.proc.settings
        members = self._members(parties, st["min_parties"], min(st["max_parties"], MAX_PARTIES), self.runner,
                                "members")
        who, roller_env, envs = self._choose_roller(members, own)
        result = self.runner.roll_from(members[who], source)
        values = self._member_values(envs, roller_env, own, result)
        lines = [f"member {who + 1} rolls for the team"
                 + ("   (secret: the GM rolls, only the GM sees)" if result.secret else "")] + result.trace.splitlines()
        lines.append(f"{result.outcome}, result {_jsonable(result.result)}")
        for i, v in enumerate(values):
            if v:
                lines.append(f"member {i + 1}: " + ", ".join(f"{k} {_jsonable(x)}" for k, x in v.items()))
        return TeamResult(self.ruleset.id, self.proc.name, who, result, values, "\n".join(lines))

    def _odds_team(self, parties, inputs) -> TeamOdds:
        own = self._own_inputs(inputs)
        st = self.proc.settings
        members = self._members(parties, st["min_parties"], min(st["max_parties"], MAX_PARTIES), self.runner,
                                "members")
        who, roller_env, envs = self._choose_roller(members, own)
        check_odds = self.runner.odds(members[who])
        dists: list[dict[str, dict[Any, Fraction]]] = [defaultdict(lambda: defaultdict(Fraction)) for _ in envs]
        if st["member_values"]:
            outs, denom = self.runner.resolutions(members[who])
            for res, _env, w in outs:
                for i, vals in enumerate(self._member_values(envs, roller_env, own, res)):
                    for k, v in vals.items():
                        dists[i][k][_jsonable(v)] += Fraction(w, denom)
        return TeamOdds(self.ruleset.id, self.proc.name, who, check_odds,
                        tuple({k: dict(v) for k, v in d.items()} for d in dists))

    # assisted checks ---------------------------------------------------------------------------------
    def _helper_runner(self):
        return self.ruleset.check(self.proc.settings["helper_check"])._runner

    def _assist_parties(self, parties, inputs):
        own = self._own_inputs(inputs)
        st = self.proc.settings
        parties = list(parties or [])
        if not parties:
            raise InputError(f"'{self.proc.name}' needs a leader (party1) and helpers (party2, ...)")
        leader = self._members(parties[:1], 1, 1, self.runner, "leaders")[0]
        helpers_raw = parties[1:]
        if not st["min_helpers"] <= len(helpers_raw) <= st["max_helpers"]:
            raise InputError(f"'{self.proc.name}' needs {st['min_helpers']} to {st['max_helpers']} helpers "
                             f"(party2 onwards), got {len(helpers_raw)}")
        return own, leader, helpers_raw

    def _helper_values(self, raw: Mapping[str, Any], own: dict, leader: dict[str, Any], leader_result: Any,
                       index: int) -> dict[str, Any]:
        runner = self._helper_runner()
        given = dict(raw)
        env = {**own, **{f"leader_{k}": v for k, v in leader.items()}, **given}
        if self.proc.settings["order"] == "leader_first":
            env["leader_result"] = leader_result
        for n, e in self.proc.settings["helper_inputs"].items():
            given[n] = self._eval(e, env)
        try:
            return runner.coerce_inputs(given)
        except InputError as exc:
            raise InputError(f"party {index + 2} (a helper): {exc.message}", hint=exc.hint) from None

    def _contribution(self, res, env: Mapping[str, Any], own: dict) -> tuple[tuple, bool]:
        st = self.proc.settings
        penv = {**self._party_env(res, env), **own}
        totals = tuple(getattr(v, "total", v) for v in (self._eval(e, penv) for e in st["totals"].values()))
        ruined = st["ruin_when"] is not None and self._truth(st["ruin_when"], penv)
        return totals, ruined

    def _bonus(self, totals: tuple, own: dict) -> int:
        env = {**own, **dict(zip(self.proc.settings["totals"], totals))}
        bonus = self._eval(self.proc.settings["bonus"], env)
        return getattr(bonus, "total", bonus)

    def _with_bonus(self, leader: dict[str, Any], bonus: int) -> dict[str, Any]:
        target = self.proc.settings["bonus_to"]
        return {**leader, target: leader[target] + bonus}

    def _roll_assisted(self, parties, source, inputs) -> AssistedResult:
        own, leader, helpers_raw = self._assist_parties(parties, inputs)
        st = self.proc.settings
        runner, hrunner = self.runner, self._helper_runner()
        lines: list[str] = []
        sample = None
        leader_result = None
        provisional = None
        gated = runner.before_roll(leader).gated
        if gated is not None and st["order"] == "leader_first":
            # The leader acts first and its check is decided without a roll (not allowed, or
            # no roll needed): helpers have nothing to help with. (Helpers first: the gates
            # are decided with their bonus, which may be what allows the check.)
            result = runner.roll_from(leader, source)
            lines.append(f"leader: {result.outcome}" + (f" ({result.reason})" if result.reason else ""))
            return AssistedResult(self.ruleset.id, self.proc.name, result, (), {n: 0 for n in st["totals"]}, 0,
                                  False, "\n".join(lines))
        if st["order"] == "leader_first":
            sample = runner.sample(leader, source)
            provisional = runner.finish(leader, sample)
            leader_result = provisional.result
            lines.append(f"leader rolls: {provisional.outcome}, result {_jsonable(leader_result)} before help")
        helpers, sums, ruined = [], None, False
        for i, raw in enumerate(helpers_raw):
            values = self._helper_values(raw, own, leader, leader_result, i)
            h = hrunner.roll_from(values, source)
            helpers.append(h)
            contrib, bad = self._contribution(h, values, own)
            sums = contrib if sums is None else tuple(a + b for a, b in zip(sums, contrib))
            ruined = ruined or bad
            lines.append(f"helper {i + 1}: {h.outcome}, result {_jsonable(h.result)}" + (" — ruins the task" if bad else ""))
        totals = dict(zip(st["totals"], sums or tuple(0 for _ in st["totals"])))
        bonus = 0 if ruined else self._bonus(tuple(totals.values()), own)
        final = provisional  # when ruined after the leader rolled, keep the leader's dice
        if ruined:
            lines.append("the task is ruined")
        else:
            values = self._with_bonus(leader, bonus)
            final = runner.finish(values, sample) if sample is not None else runner.roll_from(values, source)
            lines.append(f"bonus {bonus:+d} to {st['bonus_to']}")
            lines.extend(final.trace.splitlines())
            lines.append(f"leader: {final.outcome}, result {_jsonable(final.result)}")
        return AssistedResult(self.ruleset.id, self.proc.name, final, tuple(helpers), totals, bonus, ruined,
                              "\n".join(lines))

    def _helpers_dist(self, helpers_raw, own: dict, leader: dict[str, Any], leader_result: Any,
                      cache: dict, budget: Budget) -> dict[tuple, Fraction]:
        """(summed totals, ruined) → probability, over every helper's resolutions; each
        state combined with each helper outcome is charged to ``budget``."""
        hrunner = self._helper_runner()
        states: dict[tuple, Fraction] = {(tuple(0 for _ in self.proc.settings["totals"]), False): Fraction(1)}
        for i, raw in enumerate(helpers_raw):
            values = self._helper_values(raw, own, leader, leader_result, i)
            key = tuple(sorted((k, str(v)) for k, v in values.items()))
            if key not in cache:
                outs, denom = hrunner.resolutions(values)
                merged: dict[tuple, Fraction] = defaultdict(Fraction)
                for res, env, w in outs:
                    merged[self._contribution(res, env, own)] += Fraction(w, denom)
                cache[key] = dict(merged)
            try:  # a Fraction product and a tuple of sums each (~2 µs)
                budget.spend(4 * len(states) * len(cache[key]))
            except BudgetExceeded:
                raise self._at(LimitError(f"'{self.proc.name}' has too many helpers to work out exactly",
                                          "max_states", hint="use fewer helpers")) from None
            nxt: dict[tuple, Fraction] = defaultdict(Fraction)
            for (sums, bad), p in states.items():
                for (contrib, bad2), q in cache[key].items():
                    nxt[(tuple(a + b for a, b in zip(sums, contrib)), bad or bad2)] += p * q
            if len(nxt) > self.limits.max_states:
                raise self._at(LimitError(f"'{self.proc.name}' has too many helpers to work out exactly",
                                          "max_states", hint="use fewer helpers"))
            states = dict(nxt)
        return states

    def _odds_assisted(self, parties, inputs) -> AssistedOdds:
        own, leader, helpers_raw = self._assist_parties(parties, inputs)
        st = self.proc.settings
        runner = self.runner
        outcomes: dict[str, Fraction] = defaultdict(Fraction)
        results: dict[Any, Fraction] = defaultdict(Fraction)
        bonuses: dict[int, Fraction] = defaultdict(Fraction)
        success = Fraction(0)
        cache: dict = {}
        budget = Budget(self.limits.max_states)

        def add(res, p: Fraction) -> None:
            nonlocal success
            outcomes[res.outcome] += p
            if res.result is not None:
                results[_jsonable(res.result)] += p
            if res.success:
                success += p

        gated = runner.before_roll(leader).gated
        if gated is not None and st["order"] == "leader_first":
            add(gated, Fraction(1))
        elif st["order"] == "helpers_first":
            for (sums, bad), p in self._helpers_dist(helpers_raw, own, leader, None, cache, budget).items():
                if bad:
                    outcomes["ruined"] += p
                    continue
                bonus = self._bonus(sums, own)
                bonuses[bonus] += p
                outs, denom = runner.resolutions(self._with_bonus(leader, bonus))
                for res, _env, w in outs:
                    add(res, p * Fraction(w, denom))
        else:
            _env, _gated, joint, denom = runner.joint_rolls(leader)
            for rolls, w in joint:
                p = Fraction(w, denom)
                provisional = runner.resolve_rolls(leader, rolls)
                for (sums, bad), q in self._helpers_dist(helpers_raw, own, leader, provisional.result, cache,
                                                         budget).items():
                    if bad:
                        outcomes["ruined"] += p * q
                        continue
                    bonus = self._bonus(sums, own)
                    bonuses[bonus] += p * q
                    add(runner.resolve_rolls(self._with_bonus(leader, bonus), rolls), p * q)
        names = list(runner.check.outcome_names) + ["ruined"]
        ordered = {n: outcomes.get(n, Fraction(0)) for n in names if n in outcomes or n != "not_allowed"}
        ordered.update({n: p for n, p in outcomes.items() if n not in ordered})
        if not st["ruin_when"]:
            ordered.pop("ruined", None)
        total = sum(ordered.values(), Fraction(0))
        return AssistedOdds(self.ruleset.id, self.proc.name, ordered,
                            {n: runner.check.outcome_success(n) for n in ordered}, success,
                            dict(sorted(results.items(), key=lambda kv: (str(type(kv[0])), kv[0]))),
                            dict(sorted(bonuses.items())), 1 - total)

    # contests: rolling ------------------------------------------------------------------------------
    def _parties(self, parties, inputs) -> list[dict[str, Any]]:
        if inputs:
            raise InputError(f"contest '{self.proc.name}' takes inputs per party",
                             hint="give party1.name=value party2.name=value (parties=[{...}, {...}] in Python)")
        parties = list(parties or [])
        lo, hi = self.proc.settings["min_parties"], min(self.proc.settings["max_parties"], MAX_PARTIES)
        if not lo <= len(parties) <= hi:
            raise InputError(f"contest '{self.proc.name}' needs {lo}" + (f" to {hi}" if hi != lo else "")
                             + f" parties, got {len(parties)}", hint="give party1.skill=... party2.skill=...")
        out = []
        for i, p in enumerate(parties):
            try:
                out.append(self.runner.coerce_inputs(p))
            except InputError as exc:
                raise InputError(f"party {i + 1}: {exc.message}", hint=exc.hint) from None
        return out

    def _roll_contest(self, parties, source, inputs) -> ContestResult:
        values = self._parties(parties, inputs)
        self._values = values
        first = [self._roll_party(v, source, i) for i, v in enumerate(values)]
        results = list(first)
        active = list(range(len(values)))
        rounds, extra, lines = [], [], []
        for i, r in enumerate(first):
            lines.append(f"party {i + 1}: {r.outcome}, result {_jsonable(r.result)}  ({r.trace.replace(chr(10), '; ')})")
        ties = self.proc.settings["ties"]
        for round_no in range(MAX_TIE_ROUNDS + 1):
            ranking = sorted(active, key=lambda i: self._key(self._env_of(results[i], values[i])), reverse=True)
            top_key = self._key(self._env_of(results[ranking[0]], values[ranking[0]]))
            tied = [i for i in ranking if self._key(self._env_of(results[i], values[i])) == top_key]
            if len(tied) == 1 or ties != "reroll":
                break
            if round_no == MAX_TIE_ROUNDS:
                raise self._at(RulesEngineError(f"contest '{self.proc.name}' is still tied after {MAX_TIE_ROUNDS} "
                                                "rolls again", code=E_PROCEDURE,
                                                hint="a tie that always repeats can never be decided"))
            rolled = [self._roll_party(values[i], source, i) for i in tied]
            rounds.append(tuple(tied))
            extra.append(tuple(rolled))
            for i, r in zip(tied, rolled):
                results[i] = r
                lines.append(f"party {i + 1} rolls again: {r.outcome}, result {_jsonable(r.result)}")
            active = tied
        winner = self._settle(tied, ranking, results, values, source) if len(tied) > 1 else tied[0]
        full = sorted(range(len(values)), key=lambda i: (i == winner, self._key(self._env_of(results[i], values[i]))),
                      reverse=True)
        wres = None
        if winner is not None:
            wres = results[winner].result
            if "winner_result" in self.proc.settings:
                others = [i for i in (active if ties == "reroll" else range(len(values))) if i != winner]
                runner_up = max((results[i] for i in others),
                                key=lambda r: self._key(self._env_of(r, values[results.index(r)])), default=None)
                env = self._env_of(results[winner], values[winner])
                env["runner_up"] = runner_up.result if runner_up is not None else 0
                wres = self._eval(self.proc.settings["winner_result"], env)
            lines.append(f"party {winner + 1} wins, result {_jsonable(wres)}")
        else:
            lines.append("a tie")
        return ContestResult(self.ruleset.id, self.proc.name, tuple(first), tuple(rounds), tuple(extra),
                             tuple(full), winner, wres, "\n".join(lines))

    def _env_of(self, result: CheckResult, values: Mapping[str, Any]) -> dict[str, Any]:
        env = self._party_env(result, values)
        env["party"] = next((i + 1 for i, v in enumerate(self._values) if v is values), 0)
        return env

    def _roll_party(self, values: dict[str, Any], source, index: int) -> CheckResult:
        """One party's check; parties share one dice source, read in party order."""
        result = self.runner.roll_from(values, source)
        if result.outcome == NOT_ALLOWED:
            raise _not_allowed(index, result.reason)
        return result

    def _settle(self, tied, ranking, results, values, source) -> int | None:
        ties = self.proc.settings["ties"]
        if ties in ("stand", "reroll"):
            return None
        if ties == "first":
            return min(tied)
        if ties == "last":
            return max(tied)
        for kind, e in ties:
            if kind == "higher":
                scores = {i: self._eval(e, self._env_of(results[i], values[i])) for i in tied}
                best = max(scores.values())
                tied = [i for i in tied if scores[i] == best]
            else:
                from .pool import DiceCounter

                for _ in range(MAX_TIE_ROUNDS):
                    scores = {}
                    for i in tied:
                        ctx = Context(e.text, self._env_of(results[i], values[i]), self.limits,
                                      source=source, counter=DiceCounter(self.limits))
                        try:
                            scores[i] = _value(e, ctx)
                        except RulesEngineError as exc:
                            raise self._at(exc, e) from None
                    best = max(scores.values())
                    tied = [i for i in tied if scores[i] == best]
                    if len(tied) == 1:
                        break
            if len(tied) == 1:
                return tied[0]
        return None

    # contests: exact ---------------------------------------------------------------------------------
    def _party_dist(self, values: dict[str, Any], index: int) -> tuple[list[tuple[tuple, Any, dict, int]], int]:
        """(rank key, result, env, weight) for each resolution of one party's check."""
        outs, denom = self.runner.resolutions(values)
        names, dice_names = self._contest_names, _call_arguments(self._contest_exprs())
        merged: dict[tuple, list] = {}
        for res, env, w in outs:
            if res.outcome == NOT_ALLOWED:
                raise _not_allowed(index, res.reason)
            penv = self._party_env(res, env)
            penv["party"] = index + 1
            key = self._key(penv)
            # Merge only outcomes that agree on everything the contest reads: a roll's total,
            # or its dice too when its name is passed to a function (``count(roll, 6)``).
            k = (key, _jsonable(res.result)) + tuple(
                penv.get(n) if n in dice_names and isinstance(penv.get(n), Rolled) else _fingerprint(penv.get(n))
                for n in names)
            if k in merged:
                merged[k][3] += w
            else:
                merged[k] = [key, res.result, penv, w]
        return [tuple(v) for v in merged.values()], denom

    @property
    def _contest_names(self) -> tuple[str, ...]:
        """The names a contest's ranking, tie-breakers and winner's result read."""
        return tuple(sorted(set().union(*(e.names for e in self._contest_exprs()))))

    def _contest_exprs(self) -> list[Expr]:
        """A contest's ranking, tie-breakers (roll-offs included) and winner's result."""
        st = self.proc.settings
        exprs = list(st["rank_by"]) + [st.get("winner_result")]
        if isinstance(st["ties"], list):
            exprs += [e for _, e in st["ties"]]
        return [e for e in exprs if e is not None]

    def _odds_contest(self, parties, inputs) -> ContestOdds:
        values = self._parties(parties, inputs)
        dists = [self._party_dist(v, i) for i, v in enumerate(values)]
        n = len(values)
        size = 1
        for d, _ in dists:
            size *= len(d)
        # Each line-up of the parties' outcomes is compared (and its winner's result worked
        # out): charge that work, not just the number of line-ups.
        try:
            Budget(self.limits.max_states).spend(size * 2 * (n + 4))
        except BudgetExceeded:
            raise self._at(LimitError(f"contest '{self.proc.name}' with {n} parties is too big to work out "
                                      "exactly", "max_states", hint="use fewer parties")) from None
        ties = self.proc.settings["ties"]
        memo: dict[tuple[int, ...], dict] = {}

        def round_of(group: tuple[int, ...]) -> dict:
            """Distribution over (winner or None, winner result) for the parties in group,
            following the tie rule (rerolls solved as a geometric series)."""
            if group in memo:
                return memo[group]
            out: dict = defaultdict(Fraction)
            self_loop = Fraction(0)
            combos = [((), Fraction(1))]
            for i in group:
                d, denom = dists[i]
                combos = [(c + (row,), p * Fraction(row[3], denom)) for c, p in combos for row in d]
            for combo, p in combos:
                keys = [row[0] for row in combo]
                top = max(keys)
                tied = tuple(group[j] for j, k in enumerate(keys) if k == top)
                rows = {group[j]: row for j, row in enumerate(combo)}
                if len(tied) == 1:
                    w = tied[0]
                    out[(w, self._winner_result(w, rows, group))] += p
                elif ties == "reroll":
                    if tied == group:
                        self_loop += p
                    else:
                        for k, q in round_of(tied).items():
                            out[k] += p * q
                else:
                    for k, q in self._settle_exact(tied, rows).items():
                        w = k
                        out[(w, self._winner_result(w, rows, group) if w is not None else None)] += p * q
            if self_loop:
                if self_loop == 1:
                    raise self._at(RulesEngineError(f"contest '{self.proc.name}' can never be decided: the parties "
                                                    "always tie", code=E_PROCEDURE))
                out = defaultdict(Fraction, {k: v / (1 - self_loop) for k, v in out.items()})
            memo[group] = dict(out)
            return memo[group]

        final = round_of(tuple(range(n)))
        wins = [Fraction(0)] * n
        tie = Fraction(0)
        wres: dict[Any, Fraction] = defaultdict(Fraction)
        for (w, r), p in final.items():
            if w is None:
                tie += p
            else:
                wins[w] += p
                wres[_jsonable(r)] += p
        truncated = 1 - sum(wins) - tie
        return ContestOdds(self.ruleset.id, self.proc.name, tuple(values), tuple(wins), tie,
                           dict(sorted(wres.items(), key=lambda kv: (str(type(kv[0])), kv[0]))), truncated)

    def _winner_result(self, w: int, rows: dict, group: tuple[int, ...]) -> Any:
        row = rows[w]
        if "winner_result" not in self.proc.settings:
            return row[1]
        others = [rows[i] for i in group if i != w]
        runner_up = max(others, key=lambda r: r[0]) if others else None
        env = dict(row[2])
        env["runner_up"] = runner_up[1] if runner_up is not None else 0
        return self._eval(self.proc.settings["winner_result"], env)

    def _settle_exact(self, tied: tuple[int, ...], rows: dict) -> dict:
        ties = self.proc.settings["ties"]
        if ties == "stand":
            return {None: Fraction(1)}
        if ties == "first":
            return {min(tied): Fraction(1)}
        if ties == "last":
            return {max(tied): Fraction(1)}
        group = list(tied)
        for kind, e in ties:
            if kind == "higher":
                scores = {i: self._eval(e, rows[i][2]) for i in group}
                best = max(scores.values())
                group = [i for i in group if scores[i] == best]
            else:
                return self._roll_off(tuple(group), e, rows)
            if len(group) == 1:
                return {group[0]: Fraction(1)}
        return {None: Fraction(1)}

    def _roll_off(self, group: tuple[int, ...], e: Expr, rows: dict) -> dict:
        # A roll-off depends only on who is tied and what its expression reads of them:
        # the same tie in another line-up is the same series (solved once per contest). A
        # roll passed to a function (``d4 + count(roll, 6)``) is told apart by its dice.
        dice_names = _call_arguments([e])
        key = (e.text, group, tuple(tuple(rows[i][2].get(n) if n in dice_names and isinstance(rows[i][2].get(n), Rolled)
                                          else _fingerprint(rows[i][2].get(n)) for n in sorted(e.names))
                                    for i in group))
        memo_all = self.__dict__.setdefault("_roll_off_memo", {})
        if key not in memo_all:
            memo_all[key] = self._solve_roll_off(group, e, rows)
        return memo_all[key]

    def _solve_roll_off(self, group: tuple[int, ...], e: Expr, rows: dict) -> dict:
        from .dice import Expression

        dists = {}
        for i in group:
            try:
                o = Expression(e.text, self.limits).odds({k: v for k, v in rows[i][2].items()
                                                         if isinstance(v, (int, bool, str, Rolled))})
            except RulesEngineError as exc:  # at the column of the roll-off in the file
                raise self._at(exc, e) from None
            dists[i] = o.distribution
        memo: dict = {}
        budget = Budget(self.limits.max_states)

        def solve(g: tuple[int, ...]) -> dict:
            if g in memo:
                return memo[g]
            # Every line-up of the tied parties' values is compared, with a Fraction product
            # per party (~2 µs each): charged before the line-ups are built.
            lineups = 1
            for i in g:
                lineups *= len(dists[i])
            try:
                budget.spend(4 * len(g) * lineups)
            except BudgetExceeded:
                raise self._at(LimitError(f"the roll-off {e.text!r} of contest '{self.proc.name}' is too big to "
                                          f"work out exactly for {len(g)} tied parties", "max_states",
                                          Location(column=1, source_line=e.text),
                                          "roll it instead, or use a roll-off with fewer possible values"),
                               e) from None
            combos = [((), Fraction(1))]
            for i in g:
                combos = [(c + (v,), p * q) for c, p in combos for v, q in dists[i].items()]
            out: dict = defaultdict(Fraction)
            loop = Fraction(0)
            for c, p in combos:
                top = max(c)
                t = tuple(g[j] for j, v in enumerate(c) if v == top)
                if len(t) == 1:
                    out[t[0]] += p
                elif t == g:
                    loop += p
                else:
                    for k, q in solve(t).items():
                        out[k] += p * q
            memo[g] = {k: v / (1 - loop) for k, v in out.items()} if loop < 1 else {None: Fraction(1)}
            return memo[g]

        return solve(group)

    # extended checks -----------------------------------------------------------------------------------
    def _extended_inputs(self, inputs) -> tuple[dict[str, Any], dict[str, Any]]:
        """Split the given inputs into the procedure's own and the check's."""
        given = dict(inputs or {})
        own_specs = {i.name: i for i in self.proc.inputs}
        own = {k: v for k, v in given.items() if k in own_specs}
        rest = {k: v for k, v in given.items() if k not in own_specs}
        proc_values = self.runner.coerce_specs(self.proc.inputs, own, f"'{self.proc.name}'")
        try:
            check_values = self.runner.coerce_inputs(rest)
        except InputError as exc:
            names = list(own_specs) + [i.name for i in self.runner.check.inputs]
            raise InputError(exc.message.replace(f"check '{self.runner.check.name}'", f"'{self.proc.name}'"),
                             hint=exc.hint if "unknown" not in exc.message else "inputs: " + ", ".join(names)) from None
        return proc_values, check_values

    def _max_rounds(self, env: Mapping[str, Any]) -> int:
        e = self.proc.settings["max_rounds"]
        n = self._eval(e, env)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"the round limit of '{self.proc.name}' must be a whole number 1 or more, not {n!r}")
        if n > 1000:
            raise self._at(LimitError(f"{n} rounds is more than an extended check may run", "max_rounds",
                                      hint="at most 1000 rounds"), e)
        return n

    def _round_values(self, base: dict[str, Any], env: Mapping[str, Any]) -> dict[str, Any]:
        values = dict(base)
        for name, e in self.proc.settings["round_inputs"].items():
            values[name] = self._eval(e, env)
        return values

    def _advance(self, state: dict[str, Any], env: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
        local = dict(env)
        new = dict(state)
        for when, sets in self.proc.settings["each_round"]:
            if when is None or self._truth(when, local):
                for name, e in sets:
                    new[name] = self._eval(e, local)
                break
        local.update(new)
        if self._truth(self.proc.settings["succeed_when"], local):
            return new, "success"
        fail = self.proc.settings["fail_when"]
        if fail is not None and self._truth(fail, local):
            return new, "failure"
        return new, None

    def _initial(self, proc_values, check_values) -> tuple[dict[str, Any], dict[str, Any], int]:
        env = {**check_values, **proc_values}
        state = {name: self._eval(e, env) for name, e in self.proc.settings["state"].items()}
        return env, state, self._max_rounds(env)

    def _roll_extended(self, inputs, source) -> ExtendedResult:
        proc_values, check_values = self._extended_inputs(inputs)
        env, state, limit = self._initial(proc_values, check_values)
        rounds, states, lines = [], [], []
        outcome = "unfinished"
        for n in range(1, limit + 1):
            renv = {**env, **state, "round": n}
            values = self._round_values(check_values, renv)
            result = self.runner.roll_from(values, source)
            if result.outcome == NOT_ALLOWED:
                raise _not_allowed(None, result.reason, n)
            after = {**renv, **values, **self._party_env(result)}
            state, verdict = self._advance(state, after)
            rounds.append(result)
            states.append({k: _jsonable(v) for k, v in state.items()})
            lines.append(f"round {n}: {result.outcome}, result {_jsonable(result.result)} → "
                         + ", ".join(f"{k} {_jsonable(v)}" for k, v in state.items()))
            if verdict:
                outcome = verdict
                break
        lines.append(outcome)
        return ExtendedResult(self.ruleset.id, self.proc.name, {**check_values, **proc_values}, tuple(rounds),
                              tuple(states), outcome, "\n".join(lines))


    @property
    def _round_names(self) -> tuple[str, ...]:
        """The names the round rules read from a round's check."""
        return tuple(sorted(set().union(*(e.names for e in self._round_exprs()))))

    def _round_exprs(self) -> list[Expr]:
        """The expressions evaluated after each round: the rules, succeed_when, fail_when."""
        st = self.proc.settings
        exprs = [st["succeed_when"], st["fail_when"]] + [w for w, _ in st["each_round"]] + \
                [e for _, sets in st["each_round"] for _, e in sets]
        return [e for e in exprs if e is not None]

    def _odds_extended(self, inputs) -> ExtendedOdds:
        """Exact odds of an extended check: the Markov chain over the state, round by round.

        **Transitions are worked out once.** After a round the next state (or the verdict)
        depends only on the state, on what the round rules read of the check's resolution
        (its *fingerprint*: the values of the names in the rules, ``_round_names``) and,
        when a round rule or a round input reads ``round``, on the round number: nothing
        else in the rules' environment changes from round to round (the inputs are fixed
        and the rules roll no dice). So each state gets one *row* — the check's outcomes
        merged by fingerprint, each one's target (a next state, success or failure), the
        weights of equal targets added — made the first time the state is met and reused
        in every later round (rows are remade each round only when ``round`` is read).
        The fingerprint keeps what the rules can see: a roll's total, or its dice too when
        its name is passed to a function (``count(roll, 6)``), and a name the check does
        not define apart from one it defines as None.

        **Integer weights.** The check's resolutions come as integer weights over a
        denominator (``CheckRunner.resolutions``); the states of round n carry integer
        weights over one denominator D_n = D_{n-1} · L_n, L_n being the least common
        multiple of the denominators of that round's rows (one, unless round inputs change
        the dice). Success, failure and the expected number of rounds are integers over
        the same D_n, scaled along. Fractions are made only for the result, so the odds
        are exactly those of a Fraction walk. Mass lost to truncated explosions is the
        part of D_n no weight accounts for, and is reported as ``truncated``; tasks still
        going after ``max_rounds`` are ``unfinished``, as before.

        **Work budget** (``max_states``). Every round charges, for every state still
        going, a number of steps per outcome of its row (per merged outcome, before equal
        targets are added up) — whether the row was just made or reused. The steps stand
        for the round's bookkeeping (a multiply-add per row entry) and also cover making
        the row, which happens at most once per (state, outcome) charged, so the total
        bounds the whole computation: rule evaluations, bookkeeping and dictionary traffic
        alike, whatever the memo saves. The step count per outcome is 20 — the charge of
        one transition in the Fraction walk this replaced, so the same computations fit and
        the same are refused, at the same round, only sooner — until the weights outgrow
        20,480 bits: a multiply-add then costs about as much per 1,024 bits of the
        denominator as a step does, and that is charged instead (``bit_length() >> 10``).
        No shipped ruleset gets there (a thousand 2d10 or 3d6 rounds make 6,644 and 7,755
        bits), but a check with a large denominator does (100d6: 259 bits a round), and
        without it a computation inside the budget could take minutes of big-integer
        arithmetic. The charge is a function of the inputs alone, so a refusal comes at the
        same place on every machine; a resolution or result taken from a cache costs
        nothing more, as elsewhere.
        """
        proc_values, check_values = self._extended_inputs(inputs)
        env, state0, limit = self._initial(proc_values, check_values)
        names = self._round_names
        dice_names = _call_arguments(self._round_exprs())  # rolls whose dice the rules may read
        round_inputs = self.proc.settings["round_inputs"]
        inputs_read_round = any("round" in e.names for e in round_inputs.values())
        by_round_number = "round" in names or inputs_read_round
        freeze = lambda st: tuple(sorted((k, _jsonable(v)) for k, v in st.items()))  # noqa: E731

        outcomes: dict[tuple, tuple[list, int]] = {}  # round values -> merged outcomes, denominator
        rows: dict[tuple, tuple[list, int, int]] = {}  # state -> (targets and weights, denominator, outcomes)
        state_of: dict[tuple, dict[str, Any]] = {freeze(state0): state0}
        budget = Budget(self.limits.max_states)

        def too_big() -> LimitError:
            return self._at(LimitError(f"extended check '{self.proc.name}' over {limit} rounds is too big "
                                       "to work out exactly", "max_states", hint="use fewer rounds or a smaller goal"))

        def outcomes_of(values: dict[str, Any], n: int) -> tuple[list, int]:
            vkey = tuple(sorted((k, str(v)) for k, v in values.items()))
            if vkey not in outcomes:
                outs, denom = self.runner.resolutions(values)
                # Outcomes the round rules can't tell apart move the state alike: merge them
                # first (2d10 has 100 ordered rolls but a handful of distinct SLs).
                merged: dict[tuple, list] = {}
                for res, e, w in outs:
                    if res.outcome == NOT_ALLOWED:
                        raise _not_allowed(None, res.reason, n)
                    penv = self._party_env(res, e)
                    fp = tuple((_ABSENT if k not in penv else
                                penv[k] if k in dice_names and isinstance(penv[k], Rolled) else
                                _fingerprint(penv[k])) for k in names)
                    if fp in merged:
                        merged[fp][1] += w
                    else:
                        merged[fp] = [penv, w]
                g = denom
                for _, w in merged.values():
                    g = gcd(g, w)
                outcomes[vkey] = ([(penv, w // g) for penv, w in merged.values()], denom // g)
            return outcomes[vkey]

        def row_of(key: tuple, n: int, step: int) -> tuple[list, int, int]:
            state = state_of[key]
            renv = {**env, **state, "round": n}
            outs, denom = outcomes_of(self._round_values(check_values, renv), n)
            charge(step * len(outs))
            targets: dict[Any, int] = {}
            for penv, w in outs:
                new, verdict = self._advance(state, {**renv, **penv})
                if verdict is None:
                    verdict = freeze(new)
                    state_of.setdefault(verdict, new)
                targets[verdict] = targets.get(verdict, 0) + w
            return list(targets.items()), denom, len(outs)

        def charge(steps: int) -> None:
            try:
                budget.spend(steps)
            except BudgetExceeded:
                raise too_big() from None

        weights: dict[tuple, int] = {freeze(state0): 1}  # the states still going, over denom
        denom = 1
        succeeded = failed = ended = 0  # over denom; ended: Σ n · P(done or failed in round n)
        by_round: list[tuple[Fraction, Fraction]] = []
        rounds_dist: dict[int, Fraction] = {}
        for n in range(1, limit + 1):
            if by_round_number:
                rows.clear()
            step = max(20, denom.bit_length() >> 10)  # per outcome of a state: see the docstring
            this_round = []
            for key, p in weights.items():
                row = rows.get(key)
                if row is None:
                    row = rows[key] = row_of(key, n, step)
                else:
                    charge(step * row[2])
                this_round.append((p, row))
            common = 1
            for d in {row[1] for _, row in this_round}:
                common = common * d // gcd(common, d)
            nxt: dict[tuple, int] = {}
            s_n = f_n = 0
            for p, (targets, d, _) in this_round:
                if d != common:
                    p *= common // d
                for target, w in targets:
                    if target == "success":
                        s_n += p * w
                    elif target == "failure":
                        f_n += p * w
                    elif target in nxt:
                        nxt[target] += p * w
                    else:
                        nxt[target] = p * w
            if len(nxt) > self.limits.max_states:
                raise self._at(LimitError(f"extended check '{self.proc.name}' has too many states to work out "
                                          "exactly", "max_states", hint="use fewer rounds or a smaller goal"))
            denom *= common
            succeeded = succeeded * common + s_n
            failed = failed * common + f_n
            ended = ended * common + n * (s_n + f_n)
            if s_n or f_n:
                rounds_dist[n] = Fraction(s_n + f_n, denom)
            by_round.append((Fraction(succeeded, denom), Fraction(failed, denom)))
            weights = nxt
            if not weights:
                break
        unfinished = sum(weights.values())
        if unfinished:
            rounds_dist[limit] = rounds_dist.get(limit, Fraction(0)) + Fraction(unfinished, denom)
        return ExtendedOdds(self.ruleset.id, self.proc.name, {**check_values, **proc_values},
                            {"success": Fraction(succeeded, denom), "failure": Fraction(failed, denom),
                             "unfinished": Fraction(unfinished, denom)},
                            tuple(by_round), Fraction(ended + limit * unfinished, denom),
                            dict(sorted(rounds_dist.items())),
                            Fraction(denom - succeeded - failed - unfinished, denom))


def party_expressions(proc: Procedure) -> list[tuple[str, list[Expr], dict[str, str]]]:
    """(check, expressions, aliases) for each check whose values after it resolved a
    procedure's expressions read: the names a party's check defines (its rolls among
    them), and ``aliases`` naming one of those under another name (a team's
    ``roller_result`` is the roller's ``result``). The builder keeps the dice of the rolls
    these pass to count(), highest() or lowest() in exact odds."""
    st = proc.settings
    if proc.kind == "contest":
        ties = [e for _, e in st["ties"]] if isinstance(st["ties"], list) else []
        return [(proc.check, list(st["rank_by"]) + ties + [st.get("winner_result")], {})]
    if proc.kind == "extended":
        return [(proc.check, [st["succeed_when"], st["fail_when"]] + [w for w, _ in st["each_round"]]
                 + [e for _, sets in st["each_round"] for _, e in sets], {})]
    if proc.kind == "team":
        return [(proc.check, list(st["member_values"].values()), {"roller_result": "result"})]
    if proc.kind == "assisted":
        return [(st["helper_check"], list(st["totals"].values()) + [st["ruin_when"]], {}),
                (proc.check, list(st["helper_inputs"].values()), {"leader_result": "result"})]
    return []


def _value(e: Expr, ctx: Context) -> Any:
    v = e.run(ctx)
    return getattr(v, "total", v)



def _not_allowed(index: int | None, reason: str, round_no: int | None = None) -> InputError:
    who = f"party {index + 1}" if index is not None else f"round {round_no}"
    return InputError(f"{who} may not make the check" + (f": {reason}" if reason else ""),
                      hint="change that party's inputs so the check is allowed")


_ABSENT = object()  # a name a resolution does not define, told apart from one defined as None


def _call_arguments(exprs: Sequence[Expr]) -> frozenset[str]:
    """Names passed straight to a function in ``exprs`` (through parentheses or a label):
    the only way an expression sees more of a roll than its total (``count(roll, 6)``,
    ``highest(if(c, a, b))``), so only these keep a roll's dice in a fingerprint."""
    out = set()
    for e in exprs:
        for node in ast.walk(e.tree):
            if isinstance(node, ast.Call):
                for arg in node.args:
                    while isinstance(arg, (ast.Group, ast.Labeled)):
                        arg = arg.inner
                    if isinstance(arg, ast.Name):
                        out.add(arg.name)
    return frozenset(out)


def _fingerprint(value: Any) -> Any:
    return getattr(value, "total", value) if not isinstance(value, (int, str, bool)) or value is None else value
