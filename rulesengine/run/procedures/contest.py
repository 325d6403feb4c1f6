"""A contest, run: each party makes the same check, a ranking orders them, a tie rule settles
a tie for first place. Exact odds take the joint of the parties' check distributions; ties
that roll again are a geometric series, summed exactly by solving for each set of tied
parties; roll-offs go through the check's own compiled expressions and exact driver."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any, NamedTuple
from collections.abc import Callable, Mapping

from ...codes import E_PROCEDURE
from ...dice.dist import Budget, BudgetExceeded, Dist, combine, mixture
from ...dice.sources import DiceCounter
from ...errors import InputError, LimitError, Location, RulesetError
from ...limits import MAX_TIE_ROUNDS
from ...rules.procedures.contest import ContestSpec
from ...rules.model import Expr
from ..json_parts import jsonable
from ..odds_value import OddsValue, group, shown
from ..result_value import ResultValue
from ..results import CheckResult, NOT_ALLOWED, ProcedureRecord
from .base import ProcedureRunner, call_arguments, faces_for, fingerprint, not_allowed, parties_example, rank_value
from ...records import field


class Row(NamedTuple):
    """One way a party's check can end, as the contest reads it."""

    key: tuple  # the rank_by values
    result: Any
    env: dict[str, Any]  # every name of the party's check
    weight: int  # over the party's denominator


class Lineups(NamedTuple):
    """One exact-odds computation of a contest: each party's outcome rows, the same as
    Dists over row numbers, the groups and roll-offs solved so far, and the work budget."""

    rows: list[list[Row]]
    picks: list[Dist]
    memo: dict[tuple[int, ...], Dist]
    roll_offs: dict
    budget: Budget


class ContestResult(ProcedureRecord):
    ruleset: str
    procedure: str
    parties: tuple[CheckResult, ...]  # the first round
    rounds: tuple[tuple[int, ...], ...]  # for each extra round: the parties who rolled again
    extra: tuple[tuple[CheckResult, ...], ...]  # their results
    ranking: tuple[int, ...]  # party indexes (0-based), best first, after ties are settled
    winner: int | None  # None: a tie stands
    winner_result: Any
    trace: str
    report: dict[str, Any] = field(default_factory=dict)  # the procedure's report values; empty on a tie

    @property
    def tie(self) -> bool:
        return self.winner is None

    def view(self) -> ResultValue:
        """This roll as every front end shows it: each party's first roll, the rolls that
        settled ties, the winner (from 1) and its result."""
        return ResultValue(
            ruleset=self.ruleset, kind="contest", names=(("procedure", self.procedure),), trace=self.trace,
            parties=tuple(p.view() for p in self.parties), report=self.report,
            extra=(("rerolls", [{"parties": [i + 1 for i in r], "results": [p.view() for p in res]}
                                for r, res in zip(self.rounds, self.extra, strict=True)]),
                   ("winner", None if self.winner is None else self.winner + 1), ("tie", self.winner is None),
                   ("winner_result", self.winner_result)))

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class ContestOdds(ProcedureRecord):
    ruleset: str
    procedure: str
    parties: tuple[dict[str, Any], ...]
    wins: tuple[Fraction, ...]  # P(party i wins)
    tie: Fraction
    winner_result: dict[Any, Fraction]
    truncated: Fraction = Fraction(0)
    report: dict[str, dict[Any, Fraction]] = field(default_factory=dict)  # over the line-ups with a winner

    @property
    def outcomes(self) -> dict[str, Fraction]:
        out = {f"party{i + 1}_wins": p for i, p in enumerate(self.wins)}
        out["tie"] = self.tie
        return out

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        return "winner's result", self.winner_result

    def view(self) -> OddsValue:
        result = shown(self.winner_result, self.truncated)
        return OddsValue(ruleset=self.ruleset, names=(("procedure", self.procedure),), parties=self.parties,
                         outcomes=self.outcomes, outcome_success={n: n != "tie" for n in self.outcomes},
                         result=result, chart=("winner's result", result),
                         groups=(group("report", self.report, self.truncated),), truncated=self.truncated)

    def to_dict(self) -> dict[str, Any]:
        return self.view().to_dict()


class ContestRunner(ProcedureRunner):

    @property
    def spec(self) -> ContestSpec:
        return self.typed_spec(ContestSpec)
    def _key(self, env: Mapping[str, Any]) -> tuple:
        return tuple(rank_value(self.evaluate(e, env)) for e in self.spec.rank_by)

    def _parties(self, parties, inputs) -> list[dict[str, Any]]:
        role = self.spec.roles(self.proc.check)[0]
        if inputs:
            raise InputError(f"contest '{self.proc.name}' takes inputs per party", field=("inputs",),
                             example=parties_example(self.runner.check, role.min))
        return self._members(parties, role.min, role.max, self.runner, who=f"contest '{self.proc.name}'")

    def _roll(self, parties, source, inputs) -> ContestResult:
        values = self._parties(parties, inputs)
        first = [self._roll_party(v, source, i) for i, v in enumerate(values)]
        results = list(first)
        active = list(range(len(values)))
        rounds, extra, lines = [], [], []
        for i, r in enumerate(first):
            lines.append(f"party {i + 1}: {r.outcome}, result {jsonable(r.result)}  ({r.trace.replace(chr(10), '; ')})")
        ties = self.spec.ties
        for round_no in range(MAX_TIE_ROUNDS + 1):
            ranking = sorted(active, key=lambda i: self._key(self._env_of(results[i], values[i], i)), reverse=True)
            top_key = self._key(self._env_of(results[ranking[0]], values[ranking[0]], ranking[0]))
            tied = [i for i in ranking if self._key(self._env_of(results[i], values[i], i)) == top_key]
            if len(tied) == 1 or ties != "reroll":
                break
            if round_no == MAX_TIE_ROUNDS:
                # A limit of rolling, not a fault of the rules: with these parties a tie
                # can last long (exact odds sum the series); a tie that always repeats is
                # E510 in the odds.
                raise self.locate(LimitError(f"contest '{self.proc.name}' is still tied after {MAX_TIE_ROUNDS} "
                                             "rolls again", "max_tie_rounds",
                                             hint="roll again, or work out its exact odds"))
            rolled = [self._roll_party(values[i], source, i) for i in tied]
            rounds.append(tuple(tied))
            extra.append(tuple(rolled))
            for i, r in zip(tied, rolled, strict=True):
                results[i] = r
                lines.append(f"party {i + 1} rolls again: {r.outcome}, result {jsonable(r.result)}")
            active = tied
        winner = self._settle(tied, ranking, results, values, source, lines) if len(tied) > 1 else tied[0]
        full = sorted(range(len(values)),
                      key=lambda i: (i == winner, self._key(self._env_of(results[i], values[i], i))),
                      reverse=True)
        wres = report = None
        if winner is not None:
            others = [i for i in (active if ties == "reroll" else range(len(values))) if i != winner]
            runner_up = max(others, key=lambda i: self._key(self._env_of(results[i], values[i], i)), default=None)
            env = self._env_of(results[winner], values[winner], winner)
            env.update(winner=winner + 1, runner_up=results[runner_up].result if runner_up is not None else 0)
            wres = results[winner].result
            if self.spec.winner_result is not None:
                wres = self.evaluate(self.spec.winner_result, env)
            report = self.report(env) if self.proc.report else None
            lines.append(f"party {winner + 1} wins, result {jsonable(wres)}")
        else:
            lines.append("a tie")
        lines += self.report_line(report)
        return ContestResult(self.ruleset.id, self.proc.name, tuple(first), tuple(rounds), tuple(extra),
                             tuple(full), winner, wres, "\n".join(lines), self.report_dict(report))

    def _env_of(self, result: CheckResult, values: Mapping[str, Any], index: int) -> dict[str, Any]:
        """A party's names after its check, and ``party``: its number, 1 for the first."""
        env = self.party_env(result, values)
        env["party"] = index + 1
        return env

    def _roll_party(self, values: dict[str, Any], source, index: int) -> CheckResult:
        """One party's check; parties share one dice source, read in party order."""
        with faces_for("party {}'s check", index + 1):
            result = self.runner.roll_from(values, source)
        if result.outcome == NOT_ALLOWED:
            raise not_allowed(index, result.reason)
        return result

    def _settle(self, tied, ranking, results, values, source, lines: list[str]) -> int | None:
        """The winner among ``tied`` by the tie-breakers (None: the tie stands); each breaker
        read, and each roll-off rolled, said in ``lines`` (the trace)."""
        ties = self.spec.ties
        if isinstance(ties, str):  # "stand" or "reroll" (settled by rolling again): no winner
            return {"first": min(tied), "last": max(tied)}.get(ties)
        for breaker in ties:
            e = breaker.expr
            if breaker.how == "higher":
                scores = {i: self.evaluate(e, self._env_of(results[i], values[i], i)) for i in tied}
                lines.append(f"tie: higher {e.text}: " + ", ".join(f"party {i + 1} {jsonable(s)}"
                                                                  for i, s in scores.items()))
                best = max(scores.values())
                tied = [i for i in tied if scores[i] == best]
            else:
                for _ in range(MAX_TIE_ROUNDS):
                    scores = {}
                    for i in tied:
                        rolled = self.evaluate(e, self._env_of(results[i], values[i], i),
                                               source=source, counter=DiceCounter(self.limits))
                        scores[i] = getattr(rolled, "total", rolled)
                    lines.append(f"roll-off {e.text}: " + ", ".join(f"party {i + 1} {jsonable(s)}"
                                                                    for i, s in scores.items()))
                    best = max(scores.values())
                    tied = [i for i in tied if scores[i] == best]
                    if len(tied) == 1:
                        break
            if len(tied) == 1:
                return tied[0]
        return None

    def _party_dist(self, values: dict[str, Any], index: int) -> tuple[list[Row], int]:
        """(rank key, result, env, weight) for each resolution of one party's check."""
        outs, denom = self.party_resolutions(values, index)
        names, dice_names = self.party_reads
        merged: dict[tuple, Row] = {}
        for res, penv, w in outs:
            key = self._key(penv)
            # Merge only outcomes that agree on everything the contest reads: a roll's total,
            # or its dice too when its name is passed to a function (``count(roll, 6)``).
            k = (key, jsonable(res.result)) + fingerprint(penv, names, dice_names)
            if k in merged:
                merged[k] = merged[k]._replace(weight=merged[k].weight + w)
            else:
                merged[k] = Row(key, res.result, penv, w)
        return list(merged.values()), denom

    def _odds(self, parties, inputs) -> ContestOdds:
        values = self._parties(parties, inputs)
        dists = [self._party_dist(v, i) for i, v in enumerate(values)]
        n = len(values)
        size = 1
        for d, _ in dists:
            size *= len(d)
        # Each line-up of the parties' outcomes is compared (and its winner's result worked
        # out): charge that work first, not just the number of line-ups; the joints and
        # mixtures below charge the same budget as they go.
        budget = Budget(self.limits.max_states)
        try:
            budget.spend(size * 2 * (n + 4))
            # Each party's outcomes as a Dist over its row numbers: line-ups are their joint.
            picks = [Dist({j: row.weight for j, row in enumerate(d)}, denom) for d, denom in dists]
            final = self._round_of(tuple(range(n)), Lineups([d for d, _ in dists], picks, {}, {}, budget))
        except BudgetExceeded:
            counts = " × ".join(f"{len(d):,}" for d, _ in dists)
            fewer = "fewer parties, " if n > 2 else ""
            raise self.locate(LimitError(
                f"contest '{self.proc.name}' with {n} parties is too big to work out exactly: {counts} different "
                f"results of the parties' checks (as the contest reads them) make {size:,} line-ups to compare",
                "max_states", hint=f"{fewer}fewer dice (fewer results to compare)")) from None
        wins = [Fraction(0)] * n
        tie = Fraction(0)
        wres: dict[Any, Fraction] = defaultdict(Fraction)
        reports: list[tuple[tuple | None, Fraction]] = []
        for (w, won), p in final.probabilities().items():
            if w is None:
                tie += p
            else:
                wins[w] += p
                wres[jsonable(won[0])] += p
                reports.append((won[1], p))
        return ContestOdds(self.ruleset.id, self.proc.name, tuple(values), tuple(wins), tie,
                           dict(sorted(wres.items(), key=lambda kv: (str(type(kv[0])), kv[0]))), final.truncated,
                           self.report_dists(reports) if self.proc.report else {})

    def _round_of(self, group: tuple[int, ...], lu: Lineups) -> Dist:
        """The distribution of (winner or None, winner's result) for the parties in
        ``group``, following the tie rule. A reroll of the whole group is a geometric
        series: its sum is the other line-ups' weights over the denominator less the
        looping weight, exactly."""
        if group in lu.memo:
            return lu.memo[group]
        ties = self.spec.ties
        lineups = combine(lambda *c: c, [lu.picks[i] for i in group], lu.budget)
        parts: list[tuple[Dist, int]] = []
        loop = 0
        for combo, w in lineups.weights.items():
            picked = {i: lu.rows[i][j] for i, j in zip(group, combo, strict=True)}
            top = max(row.key for row in picked.values())
            tied = tuple(i for i in group if picked[i].key == top)
            if len(tied) == 1:
                parts.append((Dist.point((tied[0], self._winner_result(tied[0], picked, group))), w))
            elif ties == "reroll":
                if tied == group:
                    loop += w
                else:
                    parts.append((self._round_of(tied, lu), w))
            else:
                parts.append((self._settle_exact(tied, picked, lu.roll_offs).map(self._with_result(picked, group)), w))
        mixed = mixture(parts, lineups.denom, lu.budget)
        if loop:
            if loop == lineups.denom:
                raise self.locate(RulesetError(f"contest '{self.proc.name}' can never be decided: the parties "
                                               "always tie", code=E_PROCEDURE))
            mixed = Dist(mixed.weights, mixed.denom - loop * (mixed.denom // lineups.denom))
        lu.memo[group] = mixed.reduced()
        return lu.memo[group]

    def _with_result(self, rows: Mapping[int, Row], group: tuple[int, ...]) -> Callable[[int | None], tuple]:
        """A winner (or None: a tie) → (winner, what it won) in this line-up (see :meth:`_winner_result`)."""
        return lambda w: (w, None if w is None else self._winner_result(w, rows, group))

    def _winner_result(self, w: int, rows: Mapping[int, Row], group: tuple[int, ...]) -> tuple[Any, tuple | None]:
        """(the winner's result, the report values or None) when party ``w`` wins this line-up."""
        row = rows[w]
        if self.spec.winner_result is None and not self.proc.report:
            return row.result, None
        others = [rows[i] for i in group if i != w]
        runner_up = max(others, key=lambda r: r.key) if others else None
        env = dict(row.env)
        env.update(winner=w + 1, runner_up=runner_up.result if runner_up is not None else 0)
        result = row.result if self.spec.winner_result is None else self.evaluate(self.spec.winner_result, env)
        return result, self.report(env) if self.proc.report else None

    def _settle_exact(self, tied: tuple[int, ...], rows: Mapping[int, Row], solved: dict) -> Dist:
        """Who wins a tie among ``tied`` (None: it stands), by the contest's tie rule."""
        ties = self.spec.ties
        if isinstance(ties, str):  # "stand", "first" or "last" ("reroll" never gets here)
            return Dist.point({"first": min(tied), "last": max(tied)}.get(ties))
        group = list(tied)
        for breaker in ties:
            if breaker.how == "higher":
                scores = {i: self.evaluate(breaker.expr, rows[i].env) for i in group}
                best = max(scores.values())
                group = [i for i in group if scores[i] == best]
            else:
                return self._roll_off(tuple(group), breaker.expr, rows, solved)
            if len(group) == 1:
                return Dist.point(group[0])
        return Dist.point(None)

    def _roll_off(self, group: tuple[int, ...], e: Expr, rows: Mapping[int, Row], solved: dict) -> Dist:
        # A roll-off depends only on who is tied and what its expression reads of them:
        # the same tie in another line-up is the same series (solved once per contest). A
        # roll passed to a function (``d4 + count(roll, 6)``) is told apart by its dice.
        dice_names = call_arguments([e])
        key = (e.text, group, tuple(fingerprint(rows[i].env, sorted(e.names), dice_names) for i in group))
        if key not in solved:
            solved[key] = self._solve_roll_off(group, e, rows)
        return solved[key]

    def _solve_roll_off(self, group: tuple[int, ...], e: Expr, rows: Mapping[int, Row]) -> Dist:
        """Who wins a roll-off among ``group``: each tied party's roll-off distribution comes
        from the check's own exact driver (the ruleset's tables, the party's optional inputs),
        the same compiled expression the roll uses; ties among the top roll again."""
        dists = {i: self.runner.expression_dist(e, rows[i].env, Budget(self.limits.max_states))
                 .map(lambda v: getattr(v, "total", v)) for i in group}
        memo: dict[tuple[int, ...], Dist] = {}
        budget = Budget(self.limits.max_states)

        def too_big(tied: int) -> LimitError:
            return self.locate(LimitError(f"the roll-off {e.text!r} of contest '{self.proc.name}' is too big to "
                                          f"work out exactly for {tied} tied parties", "max_states",
                                          Location(column=1, source_line=e.text),
                                          "roll it instead, or use a roll-off with fewer possible values"), e)

        def solve(g: tuple[int, ...]) -> Dist:
            if g in memo:
                return memo[g]
            # Every line-up of the tied parties' values is compared: charged before the
            # line-ups are built.
            lineups = 1
            for i in g:
                lineups *= len(dists[i].weights)
            try:
                budget.spend(4 * len(g) * lineups)
            except BudgetExceeded:
                raise too_big(len(g)) from None
            try:
                joint = combine(lambda *c: c, [dists[i] for i in g], budget)
            except BudgetExceeded:
                raise too_big(len(g)) from None
            parts: list[tuple[Dist, int]] = []
            loop = 0
            for c, w in joint.weights.items():
                top = max(c)
                t = tuple(g[j] for j, v in enumerate(c) if v == top)
                if len(t) == 1:
                    parts.append((Dist.point(t[0]), w))
                elif t == g:
                    loop += w
                else:
                    parts.append((solve(t), w))
            try:
                mixed = mixture(parts, joint.denom, budget)
            except BudgetExceeded:
                raise too_big(len(g)) from None
            if loop >= joint.denom:  # they always tie: the tie stands
                memo[g] = Dist.point(None)
            else:
                memo[g] = Dist(mixed.weights, mixed.denom - loop * (mixed.denom // joint.denom)).reduced()
            return memo[g]

        return solve(group)
