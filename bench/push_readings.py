"""Issue 33, item 2: a second roll that reads the first (a push), at table sizes.

Prints the CPU time of one exact-odds call (fresh runner, best of 3) for each row, or how
fast it was refused, beside a bare ``pass`` loop of the same process. Usage:
``python bench/push_readings.py`` with the project's Python.
"""

from __future__ import annotations

import time

from rulesengine.errors import LimitError
from rulesengine.ruleset import loads

HEAD = "ruleset: push\nname: A push\nversion: '1'\nsource: bench\nlicense: none\nchecks:\n"
CALM = "highest(b) < 6 and highest(s) < 6 and lowest(b) > 1 and lowest(s) > 1"
COUNTS = "count(b, 6) + count(s, 6) == 0 and count(b, 1) + count(s, 1) == 0"


def base_and_stress(calm: str) -> str:
    return HEAD + f"""  push:
    inputs:
      base: {{type: integer, min: 1, max: 20}}
      stress: {{type: integer, min: 0, max: 20}}
    rolls:
      b: (base)d6
      s: (stress)d6
      pb: "if({calm}, (count(b, 2, 5))d6, 0d6)"
      ps: "if({calm}, (count(s, 2, 5))d6, 0d6)"
    result: count(b, 6) + count(s, 6) + count(pb, 6) + count(ps, 6)
    outcomes:
      - {{name: panic, when: "result == 0 and count(s, 1) + count(ps, 1) >= 1", success: false}}
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
"""


def sixes(read_again: str) -> str:
    return HEAD + f"""  push:
    inputs:
      pool: {{type: integer, min: 1, max: 40}}
    rolls:
      pool_dice: (pool)d6
      again: (count(pool_dice, 6))d6!cs>=5
    result: count(pool_dice, 5, 6) + {read_again}
    outcomes:
      - {{name: great, when: "result >= 8", success: true}}
      - {{name: success, when: "result >= 3", success: true}}
      - {{name: failure, success: false}}
"""


ROWS = [
    ("push, 5 base + 10 stress, calm read by counts", base_and_stress(COUNTS), {"base": 5, "stress": 10}),
    ("push, 5 base + 10 stress, calm read by highest/lowest", base_and_stress(CALM), {"base": 5, "stress": 10}),
    ("push of the 6s, 15 dice, (count(pool_dice, 6))d6!cs>=5", sixes("again"), {"pool": 15}),
    ("push of the 6s, 30 dice", sixes("again"), {"pool": 30}),
    ("push of the 6s, 15 dice, its 5s and 6s counted (refused)", sixes("count(again, 5, 6)"), {"pool": 15}),
]


def one(text: str, inputs: dict) -> tuple[float, str]:
    best, said = float("inf"), ""
    for _ in range(3):
        check = loads(text, "push.yaml").check("push")
        t = time.process_time()
        try:
            odds = check.odds(inputs)
            said = f"P(success) {float(odds.success):.4f}" if hasattr(odds, "success") else "answered"
        except LimitError as e:
            said = "refused: " + str(e).split(" at column")[0]
        best = min(best, time.process_time() - t)
    return best, said


def main() -> None:
    t = time.process_time()
    for _ in range(10**6):
        pass
    print(f"bare loop of 10^6 passes: {time.process_time() - t:.3f} s CPU")
    for label, text, inputs in ROWS:
        cpu, said = one(text, inputs)
        print(f"{label}: {cpu:.3f} s CPU  ({said})")


if __name__ == "__main__":
    main()
