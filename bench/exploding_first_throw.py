"""Issue 33, item 8: big exploding pools with a botch read on the first throw.

A World of Darkness-style check, ``(pool)d10!cs>=8`` (successes on 8 or more, tens
explode), a botch when there is no success and at least one 1 on the first throw. Prints the
CPU time of one exact-odds call for 10, 20, 30 and 40 dice (a fresh ruleset and empty
caches, best of 3), whether its outcomes are exact (``truncated``), beside the CPU of a
bare ``python -c pass``. Usage: ``python bench/exploding_first_throw.py`` with the
project's Python.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from rulesengine import cache
from rulesengine.ruleset import loads

RULESET = """ruleset: botch
name: A botch on the first throw
version: '1'
source: bench
license: none
checks:
  check:
    inputs:
      pool: {type: integer, min: 1, max: 40}
    roll: (pool)d10!cs>=8
    result: roll
    outcomes:
      - {name: botch, when: "roll == 0 and count(initial(roll), 1) >= 1", success: false}
      - {name: success, when: "roll >= 1", success: true}
      - {name: failure, success: false}
"""


def one(pool: int, runs: int = 3) -> tuple[float, str]:
    best, said = float("inf"), ""
    for _ in range(runs):
        for c in (cache.POOL_DISTS, cache.ODDS, cache.CHECK_ODDS):
            c.clear()
        check = loads(RULESET, "botch.yaml").check("check")
        t = time.process_time()
        odds = check.odds({"pool": pool})
        best = min(best, time.process_time() - t)
        said = f"truncated {float(odds.truncated):.1e}, P(botch) {float(odds.outcomes['botch']):.3e}"
    return best, said


def bare_python() -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    print(f"bare `python -c pass`: {bare_python():.3f} s CPU")
    for pool in (10, 20, 30, 40):
        cpu, said = one(pool)
        print(f"{pool} dice: {cpu:.3f} s CPU  ({said})", flush=True)


if __name__ == "__main__":
    main()
