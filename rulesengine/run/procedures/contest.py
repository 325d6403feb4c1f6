"""A contest, run: each party makes the same check, a ranking orders them, a tie rule settles
a tie for first place. Exact odds take the joint of the parties' check distributions; ties
that roll again are a geometric series, summed exactly by solving for each set of tied
parties; roll-offs go through the check's own compiled expressions and exact driver."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from ...codes import E_PROCEDURE
from ...exact_text import fraction_text
from ...dice.dist import Budget, BudgetExceeded
from ...dice.evaluate import Context
from ...dice.values import Rolled
from ...errors import InputError, LimitError, Location, RulesEngineError, RulesetError
from ...limits import MAX_PARTIES, MAX_TIE_ROUNDS
from ...rules.procedures.contest import ContestSpec
from ...rules.model import Expr
from ..results import NOT_ALLOWED, CheckResult, ProcedureRecord, jsonable, probability_json
from .base import ProcedureRunner, call_arguments, fingerprint, not_allowed, value_of


@dataclass(frozen=True)
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

    @property
    def tie(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "parties": [p.to_dict() for p in self.parties],
            "rerolls": [{"parties": [i + 1 for i in r], "results": [p.to_dict() for p in res]}
                        for r, res in zip(self.rounds, self.extra, strict=True)],
            "winner": None if self.winner is None else self.winner + 1,
            "tie": self.winner is None,
            "winner_result": jsonable(self.winner_result),
            "trace": self.trace,
        }


@dataclass(frozen=True)
class ContestOdds(ProcedureRecord):
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

    def distribution(self) -> tuple[str, dict[Any, Fraction]]:
        return "winner's result", self.winner_result

    def to_dict(self) -> dict[str, Any]:
        prob = probability_json

        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "parties": [{k: jsonable(v) for k, v in p.items()} for p in self.parties],
            "outcomes": [dict(name=n, success=n != "tie", **prob(p)) for n, p in self.outcomes.items()],
            "result": [dict(value=jsonable(v), **prob(p)) for v, p in self.winner_result.items()],
            "truncated": fraction_text(self.truncated),
        }


class ContestRunner(ProcedureRunner):

    @property
    def spec(self) -> ContestSpec:
        return self.typed_spec(ContestSpec)
    def _key(self, env: Mapping[str, Any]) -> tuple:
        key = []
        for e in self.spec.rank_by:
            v = self.evaluate(e, env)
            key.append(int(v) if isinstance(v, bool) else getattr(v, "total", v))
        return tuple(key)

    def _parties(self, parties, inputs) -> list[dict[str, Any]]:
        if inputs:
            raise InputError(f"contest '{self.proc.name}' takes inputs per party",
                             hint="give party1.name=value party2.name=value (parties=[{...}, {...}] in Python)")
        lo, hi = self.spec.min_parties, min(self.spec.max_parties, MAX_PARTIES)
        return self._members(parties, lo, hi, self.runner, who=f"contest '{self.proc.name}'",
                             hint="give party1.skill=... party2.skill=...")

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
                raise self.locate(RulesetError(f"contest '{self.proc.name}' is still tied after {MAX_TIE_ROUNDS} "
                                                "rolls again", code=E_PROCEDURE,
                                                hint="a tie that always repeats can never be decided"))
            rolled = [self._roll_party(values[i], source, i) for i in tied]
            rounds.append(tuple(tied))
            extra.append(tuple(rolled))
            for i, r in zip(tied, rolled, strict=True):
                results[i] = r
                lines.append(f"party {i + 1} rolls again: {r.outcome}, result {jsonable(r.result)}")
            active = tied
        winner = self._settle(tied, ranking, results, values, source) if len(tied) > 1 else tied[0]
        full = sorted(range(len(values)),
                      key=lambda i: (i == winner, self._key(self._env_of(results[i], values[i], i))),
                      reverse=True)
        wres = None
        if winner is not None:
            wres = results[winner].result
            if self.spec.winner_result is not None:
                others = [i for i in (active if ties == "reroll" else range(len(values))) if i != winner]
                runner_up = max((results[i] for i in others),
                                key=lambda r: self._key(self._env_of(r, values[results.index(r)], results.index(r))),
                                default=None)
                env = self._env_of(results[winner], values[winner], winner)
                env["runner_up"] = runner_up.result if runner_up is not None else 0
                wres = self.evaluate(self.spec.winner_result, env)
            lines.append(f"party {winner + 1} wins, result {jsonable(wres)}")
        else:
            lines.append("a tie")
        return ContestResult(self.ruleset.id, self.proc.name, tuple(first), tuple(rounds), tuple(extra),
                             tuple(full), winner, wres, "\n".join(lines))

    def _env_of(self, result: CheckResult, values: Mapping[str, Any], index: int) -> dict[str, Any]:
        """A party's names after its check, and ``party``: its number, 1 for the first."""
        env = self.party_env(result, values)
        env["party"] = index + 1
        return env

    def _roll_party(self, values: dict[str, Any], source, index: int) -> CheckResult:
        """One party's check; parties share one dice source, read in party order."""
        result = self.runner.roll_from(values, source)
        if result.outcome == NOT_ALLOWED:
            raise not_allowed(index, result.reason)
        return result

    def _settle(self, tied, ranking, results, values, source) -> int | None:
        ties = self.spec.ties
        if ties in ("stand", "reroll"):
            return None
        if ties == "first":
            return min(tied)
        if ties == "last":
            return max(tied)
        for kind, e in ties:
            if kind == "higher":
                scores = {i: self.evaluate(e, self._env_of(results[i], values[i], i)) for i in tied}
                best = max(scores.values())
                tied = [i for i in tied if scores[i] == best]
            else:
                from ...dice.sources import DiceCounter

                for _ in range(MAX_TIE_ROUNDS):
                    scores = {}
                    for i in tied:
                        ctx = Context(e.text, self._env_of(results[i], values[i], i), self.limits,
                                      source=source, counter=DiceCounter(self.limits))
                        try:
                            scores[i] = value_of(e, ctx)
                        except RulesEngineError as exc:
                            raise self.locate(exc, e) from None
                    best = max(scores.values())
                    tied = [i for i in tied if scores[i] == best]
                    if len(tied) == 1:
                        break
            if len(tied) == 1:
                return tied[0]
        return None

    def _party_dist(self, values: dict[str, Any], index: int) -> tuple[list[tuple[tuple, Any, dict, int]], int]:
        """(rank key, result, env, weight) for each resolution of one party's check."""
        outs, denom = self.runner.resolutions(values)
        names, dice_names = self._party_names, call_arguments(self._party_exprs())
        merged: dict[tuple, list] = {}
        for res, env, w in outs:
            if res.outcome == NOT_ALLOWED:
                raise not_allowed(index, res.reason)
            penv = self.party_env(res, env)
            penv["party"] = index + 1
            key = self._key(penv)
            # Merge only outcomes that agree on everything the contest reads: a roll's total,
            # or its dice too when its name is passed to a function (``count(roll, 6)``).
            k = (key, jsonable(res.result)) + tuple(
                penv.get(n) if n in dice_names and isinstance(penv.get(n), Rolled) else fingerprint(penv.get(n))
                for n in names)
            if k in merged:
                merged[k][3] += w
            else:
                merged[k] = [key, res.result, penv, w]
        return [tuple(v) for v in merged.values()], denom

    def _odds(self, parties, inputs) -> ContestOdds:
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
            raise self.locate(LimitError(f"contest '{self.proc.name}' with {n} parties is too big to work out "
                                      "exactly", "max_states", hint="use fewer parties")) from None
        final = self._round_of(tuple(range(n)), dists, {}, {})
        wins = [Fraction(0)] * n
        tie = Fraction(0)
        wres: dict[Any, Fraction] = defaultdict(Fraction)
        for (w, r), p in final.items():
            if w is None:
                tie += p
            else:
                wins[w] += p
                wres[jsonable(r)] += p
        truncated = 1 - sum(wins) - tie
        return ContestOdds(self.ruleset.id, self.proc.name, tuple(values), tuple(wins), tie,
                           dict(sorted(wres.items(), key=lambda kv: (str(type(kv[0])), kv[0]))), truncated)

    def _round_of(self, group: tuple[int, ...], dists: list, memo: dict, roll_offs: dict) -> dict:
        """Distribution over (winner or None, winner result) for the parties in group,
        following the tie rule (rerolls solved as a geometric series)."""
        ties = self.spec.ties
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
                    for k, q in self._round_of(tied, dists, memo, roll_offs).items():
                        out[k] += p * q
            else:
                for k, q in self._settle_exact(tied, rows, roll_offs).items():
                    w = k
                    out[(w, self._winner_result(w, rows, group) if w is not None else None)] += p * q
        if self_loop:
            if self_loop == 1:
                raise self.locate(RulesetError(f"contest '{self.proc.name}' can never be decided: the parties "
                                                "always tie", code=E_PROCEDURE))
            out = defaultdict(Fraction, {k: v / (1 - self_loop) for k, v in out.items()})
        memo[group] = dict(out)
        return memo[group]

    def _winner_result(self, w: int, rows: dict, group: tuple[int, ...]) -> Any:
        row = rows[w]
        if self.spec.winner_result is None:
            return row[1]
        others = [rows[i] for i in group if i != w]
        runner_up = max(others, key=lambda r: r[0]) if others else None
        env = dict(row[2])
        env["runner_up"] = runner_up[1] if runner_up is not None else 0
        return self.evaluate(self.spec.winner_result, env)

    def _settle_exact(self, tied: tuple[int, ...], rows: dict, solved: dict) -> dict:
        ties = self.spec.ties
        if ties == "stand":
            return {None: Fraction(1)}
        if ties == "first":
            return {min(tied): Fraction(1)}
        if ties == "last":
            return {max(tied): Fraction(1)}
        group = list(tied)
        for kind, e in ties:
            if kind == "higher":
                scores = {i: self.evaluate(e, rows[i][2]) for i in group}
                best = max(scores.values())
                group = [i for i in group if scores[i] == best]
            else:
                return self._roll_off(tuple(group), e, rows, solved)
            if len(group) == 1:
                return {group[0]: Fraction(1)}
        return {None: Fraction(1)}

    def _roll_off(self, group: tuple[int, ...], e: Expr, rows: dict, solved: dict) -> dict:
        # A roll-off depends only on who is tied and what its expression reads of them:
        # the same tie in another line-up is the same series (solved once per contest). A
        # roll passed to a function (``d4 + count(roll, 6)``) is told apart by its dice.
        dice_names = call_arguments([e])
        key = (e.text, group, tuple(tuple(rows[i][2].get(n) if n in dice_names and isinstance(rows[i][2].get(n), Rolled)
                                          else fingerprint(rows[i][2].get(n)) for n in sorted(e.names))
                                    for i in group))
        if key not in solved:
            solved[key] = self._solve_roll_off(group, e, rows)
        return solved[key]

    def _solve_roll_off(self, group: tuple[int, ...], e: Expr, rows: dict) -> dict:
        """Who wins a roll-off among ``group``: each tied party's roll-off distribution comes
        from the check's own exact driver (the ruleset's tables, the party's optional inputs),
        the same compiled expression the roll uses; ties among the top roll again."""
        dists: dict[int, dict[Any, Fraction]] = {}
        for i in group:
            dist = self.runner.expression_dist(e, rows[i][2], Budget(self.limits.max_states))
            totals: dict[Any, Fraction] = defaultdict(Fraction)
            for v, w in dist.weights.items():
                totals[getattr(v, "total", v)] += Fraction(w, dist.denom)
            dists[i] = dict(totals)
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
                raise self.locate(LimitError(f"the roll-off {e.text!r} of contest '{self.proc.name}' is too big to "
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
