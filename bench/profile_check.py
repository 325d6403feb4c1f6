#!/usr/bin/env python
"""Where the time of one check roll (or its exact odds) goes: the profiles behind the
Findings in bench/README.md.

    python bench/profile_check.py                                # every seed check, phases only
    python bench/profile_check.py gurps-4e success_roll skill=12 # one check: phases + cProfile
    python bench/profile_check.py rps sustained goal=10 skill=8 attribute=6 --odds

Phases of ``Check.roll`` (each timed alone, best of 3 time-boxed rounds): coercing the
inputs, ``before_roll`` (lets, secret, gates: it runs twice per roll, once in ``sample``
and again in ``finish``), ``sample`` (before_roll + the dice + their trace lines) and
``finish`` (before_roll again + ``resolve``: outcomes, tags, report + the CheckResult).
With ``--odds`` (checks and procedures), cProfile of the exact odds, caches emptied.
Uses rulesengine internals (CheckRunner); run it with the project's Python.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import seed_cases  # noqa: E402
from _timing import measure  # noqa: E402

import rulesengine.ruleset as rulesets  # noqa: E402
from rulesengine.dice.sources import RandomSource  # noqa: E402


def us(s: float) -> str:
    return f"{s * 1e6:7.1f} µs"


def phases(rid: str, name: str, inputs: dict, seconds: float) -> None:
    chk = rulesets.load(rid).check(name)
    run = chk.runner
    rng = random.Random(1)
    src = RandomSource(rng)
    values = run.coerce_inputs(inputs)
    sample = run.sample(values, src)
    t = {
        "roll": measure(lambda: chk.roll(inputs, rng=rng), seconds)["best"],
        "coerce": measure(lambda: run.coerce_inputs(inputs), seconds)["best"],
        "before_roll": measure(lambda: run.before_roll(values), seconds)["best"],
        "sample": measure(lambda: run.sample(values, src), seconds)["best"],
        "finish": measure(lambda: run.finish(values, sample), seconds)["best"],
        "resolve_rolls": measure(lambda: run.resolve_rolls(values, sample.rolls), seconds)["best"],
    }
    print(f"{rid:14} {name:14} roll {us(t['roll'])} = coerce {us(t['coerce'])} + sample {us(t['sample'])} "
          f"+ finish {us(t['finish'])}   [before_roll {us(t['before_roll'])}, in sample and again in "
          f"finish; finish - resolve_rolls (CheckResult, trace join) {us(t['finish'] - t['resolve_rolls'])}]")


def profile(fn, calls: int, top: int) -> None:
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(calls):
        fn()
    pr.disable()
    out = io.StringIO()
    pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(top)
    print(out.getvalue())


def parse_kv(words: list[str]) -> dict:
    out = {}
    for w in words:
        k, _, v = w.partition("=")
        out[k] = int(v) if v.lstrip("-").isdigit() else {"true": True, "false": False}.get(v, v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset", nargs="?")
    ap.add_argument("name", nargs="?", help="a check or a procedure")
    ap.add_argument("inputs", nargs="*", help="name=value (default: bench/seed_cases.py)")
    ap.add_argument("--odds", action="store_true", help="profile exact odds instead of rolls")
    ap.add_argument("--calls", type=int, default=0, help="calls under cProfile (default: 20000 rolls, 20 odds)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=0.3)
    args = ap.parse_args()
    if args.ruleset is None:
        for rid, seed in seed_cases.SEED_CHECKS.items():
            phases(rid, seed["check"], seed["inputs"], args.seconds)
        return
    rs = rulesets.load(args.ruleset)
    given = parse_kv(args.inputs)
    if args.odds:
        import run as bench_run  # the cache-emptying helper

        if args.name in rs.procedures():
            call = seed_cases.procedure_call(rs, args.name)
            if given:
                call["inputs"] = {**call.get("inputs", {}), **given}
            runnable = rs.procedure(args.name)
        else:
            call = {"inputs": given or seed_cases.check_call(rs, args.name)["inputs"]}
            runnable = rs.check(args.name)
        print(f"{args.ruleset} {args.name} odds({seed_cases.describe_call(call)})")
        profile(lambda: (bench_run.forget(rs), runnable.odds(**call)), args.calls or 20, args.top)
        return
    inputs = given or seed_cases.check_call(rs, args.name)["inputs"]
    phases(args.ruleset, args.name, inputs, args.seconds)
    chk = rs.check(args.name)
    rng = random.Random(1)
    profile(lambda: chk.roll(inputs, rng=rng), args.calls or 20000, args.top)


if __name__ == "__main__":
    main()
