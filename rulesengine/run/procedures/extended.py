"""An extended check, run: the check round after round, rules updating a state until a
success or failure condition holds or the round limit is reached. Exact odds walk the Markov
chain over the state, merging equal states, round by round."""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any
from collections.abc import Mapping

from ...exact_text import fraction_text
from ...records import field, replace
from ...dice.beyond import Beyond
from ...dice.dist import Budget, BudgetExceeded
from ...codes import E_PROCEDURE, E_UNKNOWN_VARIABLE
from ...errors import DiceEvalError, InputError, LimitError, RulesetError
from ...limits import MAX_EXTENDED_ROUNDS
from ..json_parts import jsonable
from ..odds_value import OddsValue, group, shown
from ..result_value import ResultValue
from ..results import CheckResult, NOT_ALLOWED, ProcedureRecord, value_order
from ...rules.procedures.extended import ExtendedSpec
from ..calls import refuse_parties_of_extended
from .base import ProcedureRunner, faces_for, fingerprint, not_allowed


class ExtendedResult(ProcedureRecord):
    ruleset: str
    procedure: str
    inputs: dict[str, Any]
    rounds: tuple[CheckResult, ...]
    states: tuple[dict[str, Any], ...]  # the state after each round
    outcome: str  # "success" | "failure" | "unfinished"
    trace: str
    report: dict[str, Any] = field(default_factory=dict)  # the procedure's report values at the end

    @property
    def success(self) -> bool:
        return self.outcome == "success"

    @property
    def own_inputs(self) -> Mapping[str, Any]:
        return self.inputs

    def view(self) -> ResultValue:
        """This roll as every front end shows it: each round's check with the state after
        it; its result is the number of rounds rolled."""
        return ResultValue(
            ruleset=self.ruleset, kind="extended", names=(("procedure", self.procedure),), trace=self.trace,
            outcome=self.outcome, success=self.success, result=len(self.rounds), inputs=self.inputs,
            rounds=tuple(replace(r.view(), state=s) for r, s in zip(self.rounds, self.states, strict=True)),
            report=self.report)

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class ExtendedOdds(ProcedureRecord):
    ruleset: str
    procedure: str
    inputs: dict[str, Any]
    outcomes: dict[str, Fraction]  # success, failure, unfinished
    by_round: tuple[tuple[Fraction, Fraction], ...]  # P(succeeded, failed) by the end of round n
    expected_rounds: Fraction  # rounds played, the round limit counting for unfinished tasks
    rounds_distribution: dict[int, Fraction]
    truncated: Fraction = Fraction(0)
    end_state: dict[str, dict[Any, Fraction]] = field(default_factory=dict)  # each state value at the end
    report: dict[str, dict[Any, Fraction]] = field(default_factory=dict)  # each report value at the end

    @property
    def success(self) -> Fraction:
        return self.outcomes["success"]

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        return "rounds", self.rounds_distribution

    def view(self) -> OddsValue:
        rounds = shown(self.rounds_distribution, self.truncated)
        by_round = [{"round": i + 1, "succeeded": float(s), "failed": float(f),
                     "succeeded_exact": fraction_text(s), "failed_exact": fraction_text(f)}
                    for i, (s, f) in enumerate(self.by_round)]
        return OddsValue(ruleset=self.ruleset, names=(("procedure", self.procedure),), inputs=self.inputs,
                         outcomes=self.outcomes, outcome_success={n: n == "success" for n in self.outcomes},
                         success=self.success, result=rounds, chart=("rounds", rounds),
                         expected_rounds=self.expected_rounds,
                         groups=(group("end_state", self.end_state, self.truncated, suffix=" at the end"),
                                 group("report", self.report, self.truncated)),
                         truncated=self.truncated, extra=(("by_round", by_round),))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class ExtendedRunner(ProcedureRunner):

    @property
    def spec(self) -> ExtendedSpec:
        return self.typed_spec(ExtendedSpec)
    # ---- the chain's steps: public for a front end that plays an extended check round by
    # round, and for tests that walk the chain independently of the exact walk below ----
    def split_inputs(self, inputs: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The given inputs, coerced: the procedure's own and the check's."""
        given = dict(inputs or {})
        own_specs = {i.name: i for i in self.proc.inputs}
        own = {k: v for k, v in given.items() if k in own_specs}
        rest = {k: v for k, v in given.items() if k not in own_specs}
        proc_values = self.runner.coerce_specs(self.proc.inputs, own, f"'{self.proc.name}'")
        check = self.runner.check
        unasked = self._set_each_round() - rest.keys()
        try:
            check_values = self.runner.coerce_specs(
                [replace(i, optional=True) if i.name in unasked else i for i in check.inputs], rest,
                f"check '{check.name}'")
        except InputError as exc:
            names = list(own_specs) + [i.name for i in self.runner.check.inputs]
            raise InputError(exc.message.replace(f"check '{self.runner.check.name}'", f"'{self.proc.name}'"),
                             hint=exc.hint if "unknown" not in exc.message else "inputs: " + ", ".join(names),
                             field=exc.field) from None
        for name in unasked:  # worked out each round (round_inputs), not given
            check_values.pop(name, None)
        return proc_values, check_values

    def _set_each_round(self) -> set[str]:
        """The check's inputs that ``round_inputs`` works out each round and nothing reads
        before the rounds or after them (the starting state, ``max_rounds``, ``report``): a
        caller need not give them, as the forms of the procedure don't ask for them. One
        without a default was refused as missing."""
        before = [*self.spec.state.values(), self.spec.max_rounds, *(e for _, e in self.proc.report)]
        read = set().union(*(e.names for e in before))
        return {name for name in self.spec.round_inputs if name not in read}

    def _max_rounds(self, env: Mapping[str, Any]) -> int:
        e = self.spec.max_rounds
        n = self.evaluate(e, env)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise self.locate(RulesetError(f"the round limit of '{self.proc.name}' must be a whole number 1 or more, "
                                           f"not {n!r}", code=E_PROCEDURE,
                                           hint="give max_rounds 1 or more for every input allowed"), e)
        if n > MAX_EXTENDED_ROUNDS:
            raise self.locate(LimitError(f"{n} rounds is more than an extended check may run", "max_rounds",
                                      hint=f"at most {MAX_EXTENDED_ROUNDS} rounds"), e)
        return n

    def round_values(self, base: dict[str, Any], env: Mapping[str, Any]) -> dict[str, Any]:
        """The check's inputs for a round: ``base`` with the round inputs worked out in ``env``
        (the procedure's inputs, the state and ``round``)."""
        values = dict(base)
        for name, e in self.spec.round_inputs.items():
            unset = sorted(n for n in e.names if n in self.spec.round_inputs and n not in env)
            if unset:  # an input worked out each round reads itself (or another), not given
                raise self.locate(DiceEvalError(
                    f"unknown name '{unset[0]}': round input '{name}' reads it, and it is worked out each round, "
                    "not given", code=E_UNKNOWN_VARIABLE,
                    hint=f"start it from an input of '{self.proc.name}': add base_{unset[0]} to its inputs and "
                         f"write {name}: base_{unset[0]} - …"), e)
            values[name] = self.evaluate(e, env)
        return values

    def advance(self, state: dict[str, Any], env: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The state after a round whose check ended with the names in ``env``, and the
        verdict: "success", "failure" (succeed_when is asked first) or None (go on)."""
        local = dict(env)
        new = dict(state)
        for when, sets in self.spec.each_round:
            if when is None or self.truth(when, local):
                for name, e in sets:
                    new[name] = self.evaluate(e, local)
                break
        local.update(new)
        if self.truth(self.spec.succeed_when, local):
            return new, "success"
        fail = self.spec.fail_when
        if fail is not None and self.truth(fail, local):
            return new, "failure"
        return new, None

    def start(self, proc_values: dict[str, Any],
              check_values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], int]:
        """(the rules' environment, the starting state, the round limit) for these inputs."""
        env = {**check_values, **proc_values}
        state = {name: self.evaluate(e, env) for name, e in self.spec.state.items()}
        return env, state, self._max_rounds(env)

    def _roll(self, parties, source, inputs) -> ExtendedResult:
        refuse_parties_of_extended(self.name, parties)
        proc_values, check_values = self.split_inputs(inputs)
        env, state, limit = self.start(proc_values, check_values)
        rounds, states, lines = [], [], []
        outcome = "unfinished"
        for n in range(1, limit + 1):
            renv = {**env, **state, "round": n}
            values = self.round_values(check_values, renv)
            with faces_for("round {}", n):
                result = self.runner.roll_from(values, source)
            if result.outcome == NOT_ALLOWED:
                raise not_allowed(None, result.reason, n)
            after = {**renv, **values, **self.party_env(result)}
            state, verdict = self.advance(state, after)
            rounds.append(result)
            states.append({k: jsonable(v) for k, v in state.items()})
            lines.append(f"round {n}: {result.outcome}, result {jsonable(result.result)} → "
                         + ", ".join(f"{k} {jsonable(v)}" for k, v in state.items()))
            if verdict:
                outcome = verdict
                break
        lines.append(outcome)
        report = self.report({**env, **state}) if self.proc.report else None
        lines += self.report_line(report)
        return ExtendedResult(self.ruleset.id, self.proc.name, {**check_values, **proc_values}, tuple(rounds),
                              tuple(states), outcome, "\n".join(lines), self.report_dict(report))

    def _odds(self, parties, inputs) -> ExtendedOdds:
        """Exact odds of an extended check: the Markov chain over the state, round by round.

        **Transitions are worked out once.** After a round the next state (or the verdict)
        depends only on the state, on what the round rules read of the check's resolution
        (its *fingerprint*: the values of the names in the rules, ``party_reads``) and,
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
        refuse_parties_of_extended(self.name, parties)
        proc_values, check_values = self.split_inputs(inputs)
        env, state0, limit = self.start(proc_values, check_values)
        walk = ChainWalk(self, env, check_values, limit)
        outcomes, by_round, ended, rounds_dist, truncated = walk.run(state0)
        return ExtendedOdds(self.ruleset.id, self.proc.name, {**check_values, **proc_values}, outcomes,
                            tuple(by_round), ended, rounds_dist, truncated, walk.end_state(), walk.report())


def _freeze(state: Mapping[str, Any]) -> tuple:
    return tuple(sorted((k, jsonable(v)) for k, v in state.items()))


class ChainWalk:
    """One exact-odds computation of an extended check (see :meth:`ExtendedRunner._odds`):
    the rows and merged outcomes it has worked out, and its work budget. Made per call, so
    no state of one computation outlives it or leaks into another."""

    def __init__(self, extended: ExtendedRunner, env: dict[str, Any], check_values: dict[str, Any],
                 limit: int) -> None:
        self.extended, self.env, self.check_values, self.limit = extended, env, check_values, limit
        self.names, self.dice_names = extended.party_reads  # and the rolls whose dice the rules may read
        round_inputs = extended.spec.round_inputs
        self.by_round_number = "round" in self.names or any("round" in e.names for e in round_inputs.values())
        self.outcomes: dict[tuple, tuple[list, int]] = {}  # round values -> merged outcomes, denominator
        self.rows: dict[tuple, tuple[list, int, int]] = {}  # state -> (targets and weights, denominator, outcomes)
        self.state_of: dict[tuple, dict[str, Any]] = {}
        self.ended_states: list[tuple[dict[tuple, int], int]] = []  # (final state → weight, over this denom)
        self.budget = Budget(extended.limits.max_states)
        self.round_now, self.going = 0, 0  # where the walk is (said where it is refused)

    def too_big(self) -> LimitError:
        """The refusal, saying where the walk got to (its round and the states still going
        then): what grows with the rounds is the states, so a value of the state that only
        counts (a tally a report reads) multiplies the work."""
        name = self.extended.proc.name
        where = f": round {self.round_now} of {self.limit}, with {self.going:,} states still going" \
            if self.round_now else ""
        return self.extended.locate(LimitError(f"extended check '{name}' over {self.limit} rounds is too "
                                             f"big to work out exactly{where}", "max_states",
                                             hint="use fewer rounds or a smaller goal, or fewer values in the "
                                                  "state (a count kept only to be reported multiplies them)"))

    def charge(self, steps: int) -> None:
        try:
            self.budget.spend(steps)
        except BudgetExceeded:
            raise self.too_big() from None

    def outcomes_of(self, values: dict[str, Any], n: int) -> tuple[list, int]:
        """The check's outcomes for one set of round values, merged by what the round rules
        read of them (2d10 has 100 ordered rolls but a handful of distinct SLs)."""
        vkey = tuple(sorted((k, str(v)) for k, v in values.items()))
        if vkey not in self.outcomes:
            outs, denom = self.extended.runner.resolutions(values, cut=True)
            merged: dict[tuple, list] = {}
            for res, e, w in outs:
                if res.outcome == NOT_ALLOWED:
                    raise not_allowed(None, res.reason, n)
                penv = self.extended.party_env(res, e)
                if any(isinstance(penv.get(name), Beyond) for name in self.names):
                    continue  # what the round rules read depends on explosions cut off: truncated
                fp = fingerprint(penv, self.names, self.dice_names)
                if fp in merged:
                    merged[fp][1] += w
                else:
                    merged[fp] = [penv, w]
            g = denom
            for _, w in merged.values():
                g = gcd(g, w)
            self.outcomes[vkey] = ([(penv, w // g) for penv, w in merged.values()], denom // g)
        return self.outcomes[vkey]

    def row_of(self, key: tuple, n: int, step: int) -> tuple[list, int, int]:
        """Where each outcome of round ``n`` takes the state ``key``: a next state, success or
        failure, with the weights of equal targets added up."""
        state = self.state_of[key]
        renv = {**self.env, **state, "round": n}
        outs, denom = self.outcomes_of(self.extended.round_values(self.check_values, renv), n)
        self.charge(step * len(outs))
        targets: dict[Any, int] = {}
        for penv, w in outs:
            new, verdict = self.extended.advance(state, {**renv, **penv})
            frozen = _freeze(new)
            # A state still going is its own target; an ended task keeps its final state too
            # (the odds report each state value's distribution at the end).
            target: Any = frozen if verdict is None else (verdict, frozen)
            self.state_of.setdefault(frozen, new)
            targets[target] = targets.get(target, 0) + w
        return list(targets.items()), denom, len(outs)

    def run(self, state0: dict[str, Any]) -> tuple[dict[str, Fraction], list, Fraction, dict[int, Fraction], Fraction]:
        """(outcomes, success/failure by round, expected rounds, rounds distribution, truncated)."""
        limit = self.limit
        self.state_of[_freeze(state0)] = state0
        weights: dict[tuple, int] = {_freeze(state0): 1}  # the states still going, over denom
        denom = 1
        succeeded = failed = ended = 0  # over denom; ended: Σ n · P(done or failed in round n)
        by_round: list[tuple[Fraction, Fraction]] = []
        rounds_dist: dict[int, Fraction] = {}
        for n in range(1, limit + 1):
            self.round_now, self.going = n, len(weights)
            this_round, common = self.round_rows(weights, n, denom)
            nxt: dict[tuple, int] = {}
            ends: dict[tuple, int] = {}  # final states of tasks that ended this round, over denom·common
            s_n = f_n = 0
            for p, (targets, d, _) in this_round:
                if d != common:
                    p *= common // d
                for target, w in targets:
                    if target[0] == "success":
                        s_n += p * w
                    elif target[0] == "failure":
                        f_n += p * w
                    else:
                        nxt[target] = nxt.get(target, 0) + p * w
                        continue
                    ends[target[1]] = ends.get(target[1], 0) + p * w
            if len(nxt) > self.extended.limits.max_states:
                raise self.extended.locate(LimitError(f"extended check '{self.extended.proc.name}' has too many states "
                                                      "to work out exactly", "max_states",
                                                      hint="use fewer rounds or a smaller goal"))
            denom *= common
            if ends:
                self.ended_states.append((ends, denom))
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
        if weights:
            self.ended_states.append((weights, denom))
        if unfinished:
            rounds_dist[limit] = rounds_dist.get(limit, Fraction(0)) + Fraction(unfinished, denom)
        outcomes = {"success": Fraction(succeeded, denom), "failure": Fraction(failed, denom),
                    "unfinished": Fraction(unfinished, denom)}
        return (outcomes, by_round, Fraction(ended + limit * unfinished, denom), dict(sorted(rounds_dist.items())),
                Fraction(denom - succeeded - failed - unfinished, denom))

    def end_state(self) -> dict[str, dict[Any, Fraction]]:
        """Each state value's distribution when the task ends (success, failure, or still
        going after the last round), from the final states :meth:`run` kept."""
        out: dict[str, dict[Any, Fraction]] = {}
        for ends, denom in self.ended_states:
            for frozen, w in ends.items():
                for name, value in self.state_of[frozen].items():
                    dist = out.setdefault(name, {})
                    v = jsonable(value)
                    dist[v] = dist.get(v, Fraction(0)) + Fraction(w, denom)
        return {k: dict(sorted(d.items(), key=lambda kv: value_order(kv[0]))) for k, d in out.items()}

    def report(self) -> dict[str, dict[Any, Fraction]]:
        """Each report value's distribution when the task ends, worked out from the inputs
        and each final state :meth:`run` kept."""
        if not self.extended.proc.report:
            return {}
        report = self.extended.report
        return self.extended.report_dists((report({**self.env, **self.state_of[frozen]}), Fraction(w, denom))
                                          for ends, denom in self.ended_states for frozen, w in ends.items())

    def round_rows(self, weights: dict[tuple, int], n: int, denom: int) -> tuple[list, int]:
        """Each state still going with its row for round ``n`` (made once, or each round when
        ``round`` is read), charged per outcome; and the rows' common denominator."""
        if self.by_round_number:
            self.rows.clear()
        step = max(20, denom.bit_length() >> 10)  # per outcome of a state: see ExtendedRunner._odds
        this_round = []
        for key, p in weights.items():
            row = self.rows.get(key)
            if row is None:
                row = self.rows[key] = self.row_of(key, n, step)
            else:
                self.charge(step * row[2])
            this_round.append((p, row))
        common = 1
        for d in {row[1] for _, row in this_round}:
            common = common * d // gcd(common, d)
        return this_round, common
