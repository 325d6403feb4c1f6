"""Issue 33, items 3 and 4: refusals at the inputs' maximum, and pools of symbol dice.

Prints the CPU time of one exact-odds call for each row (a fresh ruleset and empty caches,
best of 3; rows marked slow once), what it answered or how it was refused, beside the CPU
of a bare ``python -c pass``. Usage: ``python bench/refusals.py`` with the project's Python.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from rulesengine import cache
from rulesengine.errors import LimitError
from rulesengine.ruleset import loads

HEAD = "ruleset: push\nname: A push\nversion: '1'\nsource: bench\nlicense: none\n"
FIRST = "count(b, 6) + count(s, 6) + count(g, 6) == 0 and count(b, 1) + count(s, 1) + count(g, 1) == 0"
CALM = "highest(b) < 6 and highest(s) < 6 and lowest(b) > 1 and lowest(s) > 1"

ONE_PUSH = HEAD + f"""checks:
  push:
    inputs:
      base: {{type: integer, min: 1, max: 12}}
      skill: {{type: integer, min: 0, max: 12}}
      gear: {{type: integer, min: 0, max: 12}}
    rolls:
      b: (base)d6
      s: (skill)d6
      g: (gear)d6
      again: "if({FIRST}, (count(b, 2, 5) + count(s, 2, 5) + count(g, 2, 5))d6, 0d6)"
    result: "if({FIRST}, count(again, 6), count(b, 6) + count(s, 6) + count(g, 6))"
    outcomes:
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
"""

APART = HEAD + """checks:
  push:
    inputs:
      base: {type: integer, min: 1, max: 12}
      skill: {type: integer, min: 0, max: 12}
      gear: {type: integer, min: 0, max: 12}
    rolls:
      b: (base)d6
      s: (skill)d6
      g: (gear)d6
      pb: (count(b, 2, 5))d6
      ps: (count(s, 1, 5))d6
      pg: (count(g, 2, 5))d6
    result: count(b, 6) + count(s, 6) + count(g, 6) + count(pb, 6) + count(ps, 6) + count(pg, 6)
    outcomes:
      - {name: banes, when: "result == 0 and count(b, 1) + count(pb, 1) >= 1", success: false}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""


def sixes(read_again: str, botch: bool) -> str:
    ones = '      - {name: botch, when: "result == 0 and count(pool_dice, 1) + count(again, 1) >= 1", ' \
        'success: false}\n' if botch else ""
    return HEAD + f"""checks:
  push:
    inputs:
      pool: {{type: integer, min: 1, max: 40}}
    rolls:
      pool_dice: (pool)d6
      again: (count(pool_dice, 6))d6!cs>=5
    result: count(pool_dice, 5, 6) + {read_again}
    outcomes:
{ones}      - {{name: great, when: "result >= 8", success: true}}
      - {{name: success, when: "result >= 3", success: true}}
      - {{name: failure, success: false}}
"""


CALM_PUSH = HEAD + f"""checks:
  push:
    inputs:
      base: {{type: integer, min: 1, max: 20}}
      stress: {{type: integer, min: 0, max: 20}}
    rolls:
      b: (base)d6
      s: (stress)d6
      pb: "if({CALM}, (count(b, 2, 5))d6, 0d6)"
      ps: "if({CALM}, (count(s, 2, 5))d6, 0d6)"
    result: count(b, 6) + count(s, 6) + count(pb, 6) + count(ps, 6)
    outcomes:
      - {{name: panic, when: "result == 0 and count(s, 1) + count(ps, 1) >= 1", success: false}}
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
"""

DICE = """dice:
  ability: {faces: [[], [success], [success], [success, success], [advantage], [advantage], [success, advantage],
            [advantage, advantage]]}
  proficiency: {faces: [[], [success], [success], [success, success], [success, success], [advantage],
                [success, advantage], [success, advantage], [success, advantage], [advantage, advantage],
                [advantage, advantage], [triumph]]}
  difficulty: {faces: [[], [failure], [failure, failure], [threat], [threat], [threat], [threat, threat],
               [failure, threat]]}
  challenge: {faces: [[], [failure], [failure], [failure, failure], [failure, failure], [threat], [threat],
              [failure, threat], [failure, threat], [threat, threat], [threat, threat], [despair]]}
"""


def narrative(counted: bool) -> str:
    more = "\n      triumphs: symbols(roll, 'triumph')\n      despairs: symbols(roll, 'despair')" if counted else ""
    return HEAD + DICE + f"""checks:
  push:
    inputs:
      ability: {{type: integer, min: 0, max: 10}}
      proficiency: {{type: integer, min: 0, max: 10}}
      difficulty: {{type: integer, min: 0, max: 10}}
      challenge: {{type: integer, min: 0, max: 10}}
    roll: (ability)d{{ability}} + (proficiency)d{{proficiency}} + (difficulty)d{{difficulty}} + (challenge)d{{challenge}}
    let:
      net: symbols(roll, 'success', 'triumph') - symbols(roll, 'failure', 'despair')
      advantage: symbols(roll, 'advantage') - symbols(roll, 'threat'){more}
    result: net
    report: [advantage{', triumphs, despairs' if counted else ''}]
    outcomes:
      - {{name: success, when: "net >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def kinds(n: int) -> dict[str, int]:
    """n dice shared among the four kinds, as evenly as they go."""
    names = ["ability", "proficiency", "difficulty", "challenge"]
    return {k: n // 4 + (i < n % 4) for i, k in enumerate(names)}


ROWS: list[tuple[str, str, dict, bool]] = [
    ("refused: one push of 12 + 12 + 12 dice", ONE_PUSH, {"base": 12, "skill": 12, "gear": 12}, False),
    ("refused: three pools pushed apart, 12 + 12 + 12 dice", APART, {"base": 12, "skill": 12, "gear": 12}, False),
    ("refused: push of the 6s (exploding), 5s and 6s counted, botch, 40 dice",
     sixes("count(again, 5, 6)", True), {"pool": 40}, False),
    ("refused: push of the 6s (exploding), 5s and 6s counted, 40 dice",
     sixes("count(again, 5, 6)", False), {"pool": 40}, False),
    ("refused: push of the 6s (exploding), 40 dice", sixes("again", False), {"pool": 40}, False),
    ("refused: the botch push at 15 dice", sixes("count(again, 5, 6)", True), {"pool": 15}, False),
    ("answered: push with highest/lowest, 20 base + 20 stress (slow)", CALM_PUSH, {"base": 20, "stress": 20}, True),
    ("symbols: 30 dice of four kinds, a net, advantage, triumphs, despairs", narrative(True), kinds(30), False),
] + [(f"symbols: {n} dice, two nets", narrative(False), kinds(n), False) for n in (10, 20, 30, 40)] \
  + [(f"symbols: {n} dice, two nets and two counts", narrative(True), kinds(n), False) for n in (10, 20, 30, 40)]


def one(text: str, inputs: dict, runs: int) -> tuple[float, str]:
    best, said = float("inf"), ""
    for _ in range(runs):
        for c in (cache.POOL_DISTS, cache.ODDS, cache.CHECK_ODDS):
            c.clear()
        check = loads(text, "push.yaml").check("push")
        t = time.process_time()
        try:
            odds = check.odds(inputs)
            said = f"P(success) {float(odds.success):.4f}"
        except LimitError as e:
            said = "refused: " + str(e).split(" at column")[0].removeprefix(
                "the rolls of check 'push' are too big to work out exactly: ")
        best = min(best, time.process_time() - t)
    return best, said


def bare_python() -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    print(f"bare `python -c pass`: {bare_python():.3f} s CPU")
    for label, text, inputs, slow in ROWS:
        cpu, said = one(text, inputs, 1 if slow else 3)
        print(f"{label}: {cpu:.3f} s CPU  ({said})", flush=True)


if __name__ == "__main__":
    main()
