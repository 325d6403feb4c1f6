"""rulesengine in a fresh process, run with the project's own Python by bench/run.py.

    python worker_ours.py '{"case": "20d6kh3", "explode_depth": null}'
    python worker_ours.py '{"ruleset": "gurps-4e", "check": "success_roll", "call": {"inputs": {"skill": 12}}}'
    python worker_ours.py '{"ruleset": "gurps-4e", "procedure": "quick_contest",
                            "call": {"parties": [{"skill": 12}, {"skill": 10}]}}'

prints JSON. A dice case: seconds to import ``rulesengine.dice`` ("import") and for the
first ``dice.odds(case)`` after it ("first": parse, compile and exact computation, nothing
cached), and the outcome: "ok", or the limit named by a LimitError. A ruleset case:
seconds to import ``rulesengine.ruleset`` ("import"), to load the shipped ruleset
("load": YAML, JSON Schema, semantic checks, compiling its expressions) and for the first
exact odds of the check or procedure ("first"), with ``call`` as its keyword arguments.
bench/run.py reads the process's peak RSS and wall time from GNU time / ``os.wait4``.
"""

import json
import sys
import time

REQ = json.loads(sys.argv[1])

t0 = time.perf_counter()
if "ruleset" in REQ:
    import rulesengine.ruleset as R  # noqa: E402
else:
    from rulesengine import dice  # noqa: E402
from rulesengine.errors import LimitError  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - t0


def main() -> None:
    out = {"import": IMPORT_SECONDS}
    if "ruleset" in REQ:
        t1 = time.perf_counter()
        rs = R.load(REQ["ruleset"])
        out["load"] = time.perf_counter() - t1
        runnable = rs.procedure(REQ["procedure"]) if "procedure" in REQ else rs.check(REQ["check"])
        t2 = time.perf_counter()
        runnable.odds(**REQ["call"])
        out["first"] = time.perf_counter() - t2
        out["outcome"] = "ok"
        print(json.dumps(out))
        return
    t1 = time.perf_counter()
    try:
        odds = dice.odds(REQ["case"], explode_depth=REQ.get("explode_depth"))
        out["outcome"] = "ok"
        out["values"] = len(odds.distribution)
    except LimitError as exc:
        out["outcome"] = f"LimitError({exc.limit})"
    out["first"] = time.perf_counter() - t1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
