"""rulesengine in a fresh process, run with the project's own Python by bench/run.py.

    python worker_ours.py '{"case": "20d6kh3", "explode_depth": null}'

prints JSON: seconds to import ``rulesengine.dice`` and for the first ``dice.odds(case)``
after it (parse, compile and exact computation, nothing cached), and the outcome:
"ok", or the limit named by a LimitError. bench/run.py reads the process's peak RSS and
wall time from ``os.wait4``.
"""

import json
import sys
import time

t0 = time.perf_counter()
from rulesengine import dice  # noqa: E402
from rulesengine.errors import LimitError  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - t0


def main() -> None:
    req = json.loads(sys.argv[1])
    out = {"import": IMPORT_SECONDS}
    t1 = time.perf_counter()
    try:
        odds = dice.odds(req["case"], explode_depth=req.get("explode_depth"))
        out["outcome"] = "ok"
        out["values"] = len(odds.distribution)
    except LimitError as exc:
        out["outcome"] = f"LimitError({exc.limit})"
    out["first"] = time.perf_counter() - t1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
