"""Rolls with avrae's d20, run inside bench/.venv-d20 (never the project's environment).

    python worker_d20.py '{"cases": ["3d6", "1d20+5"], "seconds": 0.3}'

prints JSON: {"version": ..., "cases": {text: {"best": s/roll, ...}}}. Each expression is
parsed once with ``Roller().parse`` and rolled with ``Roller().roll(parsed)`` (d20 draws
from the module-level ``random``, seeded with 1 here); ``.total`` is read, the result string
is not built (d20 builds it lazily; ``str_best`` times a roll that also builds it).
"""

import json
import random
import sys
from importlib.metadata import version

from _timing import measure

import d20


def main() -> None:
    req = json.loads(sys.argv[1])
    seconds = req.get("seconds", 0.3)
    roller = d20.Roller()
    random.seed(1)
    out = {}
    for text in req["cases"]:
        parsed = roller.parse(text)
        roll = roller.roll
        res = measure(lambda: roll(parsed).total, seconds)
        res["str_best"] = measure(lambda: roll(parsed).result, seconds / 2)["best"]
        res["sample"] = roll(parsed).result
        out[text] = res
    print(json.dumps({"version": version("d20"), "lark": version("lark-parser"), "cases": out}))


if __name__ == "__main__":
    main()
