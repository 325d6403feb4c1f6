"""Issue 33, items 5 and 7: sweeps over an input the dice do not read, against one call.

Prints the CPU time (user + system, best of 3) of whole ``rulesengine odds`` processes: a
percentile roll-under with two penalty dice swept over ``skill=1..100`` and a pool of d10s
swept over its difficulty, each beside one call of the same check and a bare
``python -c pass``. Usage: ``python bench/sweep_reuse.py`` with the project's Python.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile

HEAD = "ruleset: sweeps\nname: Sweeps\nversion: '1'\nsource: bench\nlicense: none\nchecks:\n"
TEN = "d{0,1,2,3,4,5,6,7,8,9}"
OUTCOMES = """    outcomes:
      - {name: fumble, when: "value == 100 or (skill < 50 and value >= 96)", success: false}
      - {name: extreme, when: "value <= skill / 5", success: true}
      - {name: hard, when: "value <= skill / 2", success: true}
      - {name: regular, when: "value <= skill", success: true}
      - {name: failure, success: false}
"""
RULESET = HEAD + f"""  percentile:
    inputs:
      skill: {{type: integer, min: 1, max: 100}}
    rolls:
      ones: {TEN}
      tens: {TEN}
      penalty1: {TEN}
      penalty2: {TEN}
    let:
      raw: 10 * max(tens, penalty1, penalty2) + ones
      value: if(raw == 0, 100, raw)
    result: value
{OUTCOMES}  percentile_kept:
    inputs:
      skill: {{type: integer, min: 1, max: 100}}
    rolls:
      ones: {TEN}
      tens: 3{TEN}kh1
    let:
      raw: 10 * tens + ones
      value: if(raw == 0, 100, raw)
    result: value
{OUTCOMES}  pool:
    inputs:
      dice: {{type: integer, min: 1, max: 40}}
      difficulty: {{type: integer, min: 0, max: 80}}
    roll: (dice)d10
    let:
      successes: count(roll, 8, 10) + count(roll, 10)
    result: successes
    outcomes:
      - {{name: botch, when: "successes == 0 and count(roll, 1) >= 1", success: false}}
      - {{name: success, when: "successes >= difficulty", success: true}}
      - {{name: failure, success: false}}
"""

ROWS = [
    ("percentile, 4 separate d10s: one call (skill=50)", "percentile", ["skill=50"]),
    ("percentile, 4 separate d10s: sweep skill=1..100", "percentile", ["skill=1..100"]),
    ("percentile, tens 3d10kh1: one call (skill=50)", "percentile_kept", ["skill=50"]),
    ("percentile, tens 3d10kh1: sweep skill=1..100", "percentile_kept", ["skill=1..100"]),
    ("pool 30d10 vs difficulty: one call (difficulty=3)", "pool", ["dice=30", "difficulty=3"]),
    ("pool 30d10 vs difficulty: sweep difficulty=1..30", "pool", ["dice=30", "difficulty=1..30"]),
]


def cpu(argv: list[str]) -> float:
    """The best CPU time of 3 runs of ``argv``, its own and its children's."""
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sweeps.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(RULESET)
        print(f"{'bare python -c pass':58} {cpu([sys.executable, '-c', 'pass']):6.2f} s CPU")
        for label, check, args in ROWS:
            seconds = cpu([sys.executable, "-m", "rulesengine", "odds", path, check, *args])
            print(f"{label:58} {seconds:6.2f} s CPU")


if __name__ == "__main__":
    main()
