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
from typing import Any, Mapping, Sequence

from .check import CheckResult, Resolution, _jsonable
from .errors import InputError, LimitError, RulesEngineError
from .evaluate import Context
from .model import Expr, Procedure
from .pool import FacesSource, RandomSource

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
        def prob(p: Fraction) -> dict:
            return {"probability": float(p), "exact": f"{p.numerator}/{p.denominator}"}

        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "parties": [{k: _jsonable(v) for k, v in p.items()} for p in self.parties],
            "outcomes": [dict(name=n, success=n != "tie", **prob(p)) for n, p in self.outcomes.items()],
            "result": [dict(value=_jsonable(v), **prob(p)) for v, p in self.winner_result.items()],
            "truncated": f"{self.truncated.numerator}/{self.truncated.denominator}",
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
        def prob(p: Fraction) -> dict:
            return {"probability": float(p), "exact": f"{p.numerator}/{p.denominator}"}

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
            "truncated": f"{self.truncated.numerator}/{self.truncated.denominator}",
        }


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

    @staticmethod
    def _party_env(res: Resolution, env: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(env)
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
        if self.proc.kind == "contest":
            return self._roll_contest(parties, rng, seed, faces, inputs)
        return self._roll_extended(inputs, rng, seed, faces)

    def odds(self, inputs: Mapping[str, Any] | None = None, *, parties: Sequence[Mapping[str, Any]] | None = None):
        if self.proc.kind == "contest":
            return self._odds_contest(parties, inputs)
        return self._odds_extended(inputs)

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

    def _roll_contest(self, parties, rng, seed, faces, inputs) -> ContestResult:
        values = self._parties(parties, inputs)
        source = self._source(rng, seed, faces)
        first = [self._roll_party(v, source) for v in values]
        results = list(first)
        active = list(range(len(values)))
        rounds, extra, lines = [], [], []
        for i, r in enumerate(first):
            lines.append(f"party {i + 1}: {r.outcome}, result {_jsonable(r.result)}  ({r.trace.replace(chr(10), '; ')})")
        ties = self.proc.settings["ties"]
        for _ in range(MAX_TIE_ROUNDS):
            ranking = sorted(active, key=lambda i: self._key(self._env_of(results[i], values[i])), reverse=True)
            top_key = self._key(self._env_of(results[ranking[0]], values[ranking[0]]))
            tied = [i for i in ranking if self._key(self._env_of(results[i], values[i])) == top_key]
            if len(tied) == 1 or ties != "reroll":
                break
            rolled = [self._roll_party(values[i], source) for i in tied]
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
        if isinstance(source, FacesSource) and source.used < len(source.faces):
            raise InputError(f"{len(source.faces)} faces given, but the contest rolled only {source.used}")
        return ContestResult(self.ruleset.id, self.proc.name, tuple(first), tuple(rounds), tuple(extra),
                             tuple(full), winner, wres, "\n".join(lines))

    def _env_of(self, result: CheckResult, values: Mapping[str, Any]) -> dict[str, Any]:
        env = dict(values)
        env.update(result.rolls)
        env.update(result.values)
        env.update(result=result.result, outcome=result.outcome, success=result.success)
        return env

    def _roll_party(self, values: dict[str, Any], source) -> CheckResult:
        """One party's check; parties share one dice source, read in party order."""
        return self.runner.roll_from(values, source)

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
                        scores[i] = _value(e, ctx)
                    best = max(scores.values())
                    tied = [i for i in tied if scores[i] == best]
                    if len(tied) == 1:
                        break
            if len(tied) == 1:
                return tied[0]
        return None

    # contests: exact ---------------------------------------------------------------------------------
    def _party_dist(self, values: dict[str, Any]) -> tuple[list[tuple[tuple, Any, dict, int]], int]:
        """(rank key, result, env, weight) for each resolution of one party's check."""
        outs, denom = self.runner.resolutions(values)
        merged: dict[tuple, list] = {}
        for res, env, w in outs:
            penv = self._party_env(res, env)
            key = self._key(penv)
            k = (key, _jsonable(res.result))
            if k in merged:
                merged[k][3] += w
            else:
                merged[k] = [key, res.result, penv, w]
        return [tuple(v) for v in merged.values()], denom

    def _odds_contest(self, parties, inputs) -> ContestOdds:
        values = self._parties(parties, inputs)
        dists = [self._party_dist(v) for v in values]
        n = len(values)
        size = 1
        for d, _ in dists:
            size *= len(d)
        if size > self.limits.max_states:
            raise LimitError(f"contest '{self.proc.name}' with {n} parties is too big to work out exactly",
                             "max_states", hint="use fewer parties")
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
                    raise RulesEngineError(f"contest '{self.proc.name}' can never be decided: the parties always tie",
                                           code=E_PROCEDURE)
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
        from .dice import Expression

        dists = {}
        for i in group:
            o = Expression(e.text, self.limits).odds({k: v for k, v in rows[i][2].items()
                                                     if isinstance(v, (int, bool, str))})
            dists[i] = o.distribution
        memo: dict = {}

        def solve(g: tuple[int, ...]) -> dict:
            if g in memo:
                return memo[g]
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
        proc_values: dict[str, Any] = {}
        for name, spec in own_specs.items():
            if name in own:
                proc_values[name] = self.runner._coerce(spec, own[name])
            elif spec.has_default:
                proc_values[name] = self.runner._coerce(spec, spec.default)
            elif spec.optional:
                proc_values[name] = None
            else:
                from .check import describe_input

                raise InputError(f"missing input '{name}' for '{self.proc.name}'", hint=describe_input(spec))
        try:
            check_values = self.runner.coerce_inputs(rest)
        except InputError as exc:
            names = list(own_specs) + [i.name for i in self.runner.check.inputs]
            raise InputError(exc.message.replace(f"check '{self.runner.check.name}'", f"'{self.proc.name}'"),
                             hint=exc.hint if "unknown" not in exc.message else "inputs: " + ", ".join(names)) from None
        return proc_values, check_values

    def _max_rounds(self, env: Mapping[str, Any]) -> int:
        n = self._eval(self.proc.settings["max_rounds"], env)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"the round limit of '{self.proc.name}' must be a whole number 1 or more, not {n!r}")
        if n > 1000:
            raise LimitError(f"{n} rounds is more than an extended check may run", "max_rounds",
                             hint="at most 1000 rounds")
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

    def _roll_extended(self, inputs, rng, seed, faces) -> ExtendedResult:
        proc_values, check_values = self._extended_inputs(inputs)
        env, state, limit = self._initial(proc_values, check_values)
        source = self._source(rng, seed, faces)
        rounds, states, lines = [], [], []
        outcome = "unfinished"
        for n in range(1, limit + 1):
            renv = {**env, **state, "round": n}
            values = self._round_values(check_values, renv)
            result = self.runner.roll_from(values, source)
            after = self._party_env_from(result, {**renv, **values})
            state, verdict = self._advance(state, after)
            rounds.append(result)
            states.append({k: _jsonable(v) for k, v in state.items()})
            lines.append(f"round {n}: {result.outcome}, result {_jsonable(result.result)} → "
                         + ", ".join(f"{k} {_jsonable(v)}" for k, v in state.items()))
            if verdict:
                outcome = verdict
                break
        lines.append(outcome)
        if isinstance(source, FacesSource) and source.used < len(source.faces):
            raise InputError(f"{len(source.faces)} faces given, but the extended check rolled only {source.used}")
        return ExtendedResult(self.ruleset.id, self.proc.name, {**check_values, **proc_values}, tuple(rounds),
                              tuple(states), outcome, "\n".join(lines))

    @staticmethod
    def _party_env_from(result: CheckResult, env: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(env)
        out.update(result.rolls)
        out.update(result.values)
        out.update(result=result.result, outcome=result.outcome, success=result.success)
        return out

    def _odds_extended(self, inputs) -> ExtendedOdds:
        proc_values, check_values = self._extended_inputs(inputs)
        env, state0, limit = self._initial(proc_values, check_values)
        freeze = lambda st: tuple(sorted((k, _jsonable(v)) for k, v in st.items()))  # noqa: E731
        states: dict[tuple, tuple[dict, Fraction]] = {freeze(state0): (state0, Fraction(1))}
        cache: dict[tuple, list] = {}
        succeeded = failed = Fraction(0)
        by_round = []
        rounds_dist: dict[int, Fraction] = {}
        for n in range(1, limit + 1):
            nxt: dict[tuple, list] = {}
            s_n = f_n = Fraction(0)
            for key, (state, p) in states.items():
                renv = {**env, **state, "round": n}
                values = self._round_values(check_values, renv)
                vkey = tuple(sorted((k, str(v)) for k, v in values.items()))
                if vkey not in cache:
                    outs, denom = self.runner.resolutions(values)
                    cache[vkey] = [(res, e, Fraction(w, denom)) for res, e, w in outs]
                for res, e, q in cache[vkey]:
                    after = self._party_env(res, {**renv, **e})
                    new, verdict = self._advance(state, after)
                    if verdict == "success":
                        s_n += p * q
                    elif verdict == "failure":
                        f_n += p * q
                    else:
                        k = freeze(new)
                        if k in nxt:
                            nxt[k][1] += p * q
                        else:
                            nxt[k] = [new, p * q]
            if len(nxt) > self.limits.max_states:
                raise LimitError(f"extended check '{self.proc.name}' has too many states to work out exactly",
                                 "max_states")
            succeeded += s_n
            failed += f_n
            if s_n or f_n:
                rounds_dist[n] = s_n + f_n
            by_round.append((succeeded, failed))
            states = {k: (v[0], v[1]) for k, v in nxt.items()}
            if not states:
                break
        unfinished = sum((p for _, p in states.values()), Fraction(0))
        if unfinished:
            rounds_dist[limit] = rounds_dist.get(limit, Fraction(0)) + unfinished
        total = succeeded + failed + unfinished
        expected = sum((n * p for n, p in rounds_dist.items()), Fraction(0))
        return ExtendedOdds(self.ruleset.id, self.proc.name, {**check_values, **proc_values},
                            {"success": succeeded, "failure": failed, "unfinished": unfinished},
                            tuple(by_round), expected, dict(sorted(rounds_dist.items())), 1 - total)


def _value(e: Expr, ctx: Context) -> Any:
    v = e.run(ctx)
    return getattr(v, "total", v)
