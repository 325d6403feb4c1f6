"""Every shipped check and procedure, generically: its JSON follows the published schemas,
and its sampled outcomes agree with its exact odds (chi-square, fixed seed: not flaky).

Inputs are made from each check's declared inputs (defaults, the middle of their bounds,
the first choice), so a new ruleset or check is covered without touching this file.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

import rulesengine
from rulesengine.ruleset import shipped_ids

ROOT = Path(__file__).resolve().parents[2]
ROLL_SCHEMA = json.loads((ROOT / "schemas" / "roll-result.schema.json").read_text())
ODDS_SCHEMA = json.loads((ROOT / "schemas" / "odds-result.schema.json").read_text())


def sample_inputs(inputs) -> dict:
    """A plausible value for every required input (defaults for the rest)."""
    out = {}
    for spec in inputs:
        if spec.has_default or spec.optional:
            continue
        if spec.type == "integer":
            lo = spec.min if spec.min is not None else 0
            hi = spec.max if spec.max is not None else 20
            out[spec.name] = max(lo, min(hi, 10)) if lo <= 10 <= hi else (lo + hi) // 2
        elif spec.type == "boolean":
            out[spec.name] = False
        elif spec.type == "choice":
            out[spec.name] = spec.choices[0]
        else:
            out[spec.name] = "d8/d6/d4"
    return out


CHECKS = [(rid, name) for rid in shipped_ids() for name in rulesengine.load(rid).checks()]
PROCEDURES = [(rid, name) for rid in shipped_ids() for name in rulesengine.load(rid).procedures()]


def test_there_are_five_shipped_rulesets():
    assert set(shipped_ids()) >= {"rps", "spycraft-2e", "mudd", "cyberpunk-3d6", "gurps-4e"}


@pytest.mark.parametrize("rid,name", CHECKS, ids=[f"{r}/{n}" for r, n in CHECKS])
def test_check_json_follows_the_published_schemas(rid, name):
    chk = rulesengine.load(rid).check(name)
    inputs = sample_inputs(chk.model.inputs)
    jsonschema.validate(chk.roll(inputs, seed=1).to_dict(), ROLL_SCHEMA)
    odds = chk.odds(inputs).to_dict()
    jsonschema.validate(odds, ODDS_SCHEMA)
    json.dumps(odds)  # plain JSON, no Fractions left


def _chi2_critical(df: int, z: float = 3.719) -> float:
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("rid,name", CHECKS, ids=[f"{r}/{n}" for r, n in CHECKS])
def test_sampled_outcomes_agree_with_exact_odds(rid, name):
    chk = rulesengine.load(rid).check(name)
    inputs = sample_inputs(chk.model.inputs)
    odds = chk.odds(inputs)
    rng = random.Random(1122)
    n = 3000
    seen = Counter(chk.roll(inputs, rng=rng).outcome for _ in range(n))
    assert set(seen) <= {o for o, p in odds.outcomes.items() if p > 0}
    stat, bins, acc_p, acc_seen = 0.0, 0, 0.0, 0
    for outcome, p in sorted(odds.outcomes.items(), key=lambda kv: kv[1]):
        acc_p += float(p)
        acc_seen += seen.get(outcome, 0)
        if acc_p * n >= 5:
            stat += (acc_seen - acc_p * n) ** 2 / (acc_p * n)
            bins += 1
            acc_p, acc_seen = 0.0, 0
    if bins >= 2:
        assert stat < _chi2_critical(bins - 1), (rid, name, stat, bins)


def _parties(chk, n):
    base = sample_inputs(chk.model.inputs)
    return [dict(base) for _ in range(n)]


@pytest.mark.parametrize("rid,name", PROCEDURES, ids=[f"{r}/{n}" for r, n in PROCEDURES])
def test_procedure_json_follows_the_published_schemas(rid, name):
    rs = rulesengine.load(rid)
    proc = rs.procedure(name)
    model = rs.model.procedures[name]
    own = sample_inputs(model.inputs)
    if model.kind == "extended":
        check_inputs = sample_inputs(rs.model.checks[model.check].inputs)
        kwargs = {"inputs": {**check_inputs, **own}}
    else:
        count = 3 if model.kind == "assisted" else 2
        kwargs = {"inputs": own, "parties": _parties(proc.check, count)}
    try:
        rolled = proc.roll(seed=2, **kwargs)
        odds = proc.odds(**kwargs)
    except rulesengine.InputError as exc:
        pytest.skip(f"generic inputs don't suit this procedure: {exc}")
    jsonschema.validate(rolled.to_dict(), ROLL_SCHEMA)
    jsonschema.validate(odds.to_dict(), ODDS_SCHEMA)


EXTENDED = [(rid, name) for rid, name in PROCEDURES if rulesengine.load(rid).model.procedures[name].kind == "extended"]


def _plain_walk(proc, inputs: dict) -> dict:
    """An extended check's chain walked the plain way: every resolution of every round's check
    (no merging), the round rules evaluated for each (no memo), Fractions throughout."""
    from fractions import Fraction as F

    proc_values, check_values = proc.split_inputs(inputs)
    env, state, limit = proc.start(proc_values, check_values)
    states = [(state, F(1))]
    succeeded = failed = F(0)
    by_round, ended = [], {}
    for n in range(1, limit + 1):
        nxt: dict = {}
        s_n = f_n = F(0)
        for state, p in states:
            renv = {**env, **state, "round": n}
            outs, denom = proc.runner.resolutions(proc.round_values(check_values, renv))
            for res, e, w in outs:
                new, verdict = proc.advance(state, {**renv, **proc.party_env(res, e)})
                q = p * F(w, denom)
                if verdict == "success":
                    s_n += q
                elif verdict == "failure":
                    f_n += q
                else:
                    key = tuple(sorted(new.items()))
                    nxt[key] = (new, nxt.get(key, (new, F(0)))[1] + q)
        succeeded, failed = succeeded + s_n, failed + f_n
        if s_n or f_n:
            ended[n] = s_n + f_n
        by_round.append((succeeded, failed))
        states = list(nxt.values())
        if not states:
            break
    unfinished = sum((p for _, p in states), F(0))
    if unfinished:
        ended[limit] = ended.get(limit, F(0)) + unfinished
    return {"outcomes": {"success": succeeded, "failure": failed, "unfinished": unfinished},
            "by_round": tuple(by_round), "expected_rounds": sum((n * p for n, p in ended.items()), F(0)),
            "rounds_distribution": ended, "truncated": 1 - succeeded - failed - unfinished}


@pytest.mark.parametrize("rid,name", EXTENDED, ids=[f"{r}/{n}" for r, n in EXTENDED])
@pytest.mark.parametrize("variant", [{}, {"goal": 3, "steps": 3, "failure_steps": 2}, {"no_loss": True, "goal": 2},
                                     {"critical_success_steps": 2, "modifier": -4}])
def test_extended_odds_equal_the_plain_walk_over_every_resolution(rid, name, variant):
    """Exact odds of an extended check merge the outcomes the round rules can't tell apart,
    work each transition out once and carry integer weights: the same exact odds as walking
    every resolution of every round with Fractions (12 rounds, inputs from the declarations)."""
    rs = rulesengine.load(rid)
    model = rs.model.procedures[name]
    declared = {i.name for i in model.inputs} | {i.name for i in rs.model.checks[model.check].inputs}
    inputs = {**sample_inputs(rs.model.checks[model.check].inputs), **sample_inputs(model.inputs),
              **{k: v for k, v in {"max_rounds": 12, **variant}.items() if k in declared}}
    proc = rs.procedure(name)
    o = proc.odds(inputs)
    got = {"outcomes": o.outcomes, "by_round": o.by_round, "expected_rounds": o.expected_rounds,
           "rounds_distribution": o.rounds_distribution, "truncated": o.truncated}
    assert got == _plain_walk(proc, inputs)
