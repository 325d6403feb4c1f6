"""Exact odds with icepool, run inside bench/.venv-icepool (never the project's environment).

    python worker_icepool.py MODE '{json request}'

MODE is one of
  warm    {"cases": [...], "seconds": s}  time per call, best of 3 time-boxed rounds, twice:
          "cleared" with icepool's memo caches emptied before every call (the evaluator
          cache of ``icepool.evaluator.sum_evaluator`` and ``icepool.math.comb_row_cache``:
          the same footing as rulesengine building a new Expression), and "cached" as a
          user repeating the same call sees it.
  cold    {"case": name}  a fresh process: seconds to ``import icepool`` and for the first
          computation after it (a case below, or any "NdSkhK" pool).
  dist    {"cases": [...], "explode_depth": d}  each distribution as [outcome, num, den]
          rows; the exploding case uses ``depth=d`` and sends paths cut at that depth to a
          sentinel outcome so that they can be compared with rulesengine's ``truncated``.
  growth  {"ns": [...], "seconds": s, "rounds": r}  ``d(6).highest(N, 3)``, caches cleared
          per call.

prints one JSON object on stdout.
"""

import json
import re
import sys
import time

_t0 = time.perf_counter()
import icepool  # noqa: E402
import icepool.math  # noqa: E402
from icepool.evaluator import sum_evaluator  # noqa: E402

_IMPORT_SECONDS = time.perf_counter() - _t0

from _timing import measure  # noqa: E402

d = icepool.d
TRUNCATED = 10**6  # sentinel outcome for explosion paths cut at the depth limit


def successes_exploding(depth=None, end=None):
    """10d10!cs>=8: each d10 scores 1 on 8+, and a 10 rolls one more d10 (same rules).

    icepool sums the outcomes of an exploding die, so each face is encoded as
    ``successes + 100 * (face is 10)`` and explodes on outcome 101; the chain's sum is then
    ``successes + 100 * tens`` and ``% 100`` recovers the successes (a chain has at most
    depth + 1 <= 11 dice, so neither part overflows into the other). The per-die success
    counts are independent, so the pool is ``10 @`` that die.
    """
    enc = d(10).map(lambda f: (1 if f >= 8 else 0) + (100 if f == 10 else 0))
    kwargs = {} if depth is None else {"depth": depth}
    if end is None:
        one = enc.explode([101], **kwargs).map(lambda t: t % 100)
    else:
        one = enc.explode([101], end=end, **kwargs).map(
            lambda t: TRUNCATED if t >= TRUNCATED else t % 100)
    return 10 @ one


def exploding_successes_at_least(n: int, k: int, depth: int = 10):
    """Nd10!>=8cs>=8 >= k: every success (8+) scores 1 and rolls one more d10. Encoded as
    ``successes + 100 * (success)`` exploding on 101 (so the chain's sum over 100 counts the
    explosions, and ``% 100`` the successes: at most depth + 1 <= 11 per die); icepool keeps
    the chain's last die where the depth cuts it."""
    enc = d(10).map(lambda f: 101 if f >= 8 else 0)
    one = enc.explode([101], depth=depth).map(lambda t: t % 100)
    return (n @ one) >= k


# Narrative symbol dice as (net successes, net advantages) per face: a triumph is also a
# success, a despair also a failure (the same dice as bench/run.py's SYMBOL_POOL ruleset).
SYMBOL_FACES = {
    "ability": [(0, 0), (1, 0), (1, 0), (2, 0), (0, 1), (0, 1), (1, 1), (0, 2)],
    "proficiency": [(0, 0), (1, 0), (1, 0), (2, 0), (2, 0), (0, 1), (1, 1), (1, 1), (1, 1), (0, 2), (0, 2), (1, 0)],
    "difficulty": [(0, 0), (-1, 0), (-2, 0), (0, -1), (0, -1), (0, -1), (0, -2), (-1, -1)],
    "challenge": [(0, 0), (-1, 0), (-1, 0), (-2, 0), (-2, 0), (0, -1), (0, -1), (-1, -1), (-1, -1), (0, -2),
                  (0, -2), (-1, 0)],
}


def symbol_pool():
    """5 dice of each kind, 20 in all: the joint distribution of the two net counts."""
    total = None
    for faces in SYMBOL_FACES.values():
        part = 5 @ icepool.Die([icepool.Vector(f) for f in faces])
        total = part if total is None else total + part
    return total


CASES = {
    "3d6": lambda: 3 @ d(6),
    "2d10": lambda: 2 @ d(10),
    "4d6kh3": lambda: d(6).highest(4, 3),
    "8d6kh3": lambda: d(6).highest(8, 3),
    "20d6kh3": lambda: d(6).highest(20, 3),
    "10d10cs>=8": lambda: 10 @ d(10).map(lambda f: 1 if f >= 8 else 0),
    "10d10!cs>=8": successes_exploding,  # icepool's default depth (9) and end (0)
    "3d6 > 3d6": lambda: (3 @ d(6)) > (3 @ d(6)),
    "2d20kh1 + 5 >= 15": lambda: d(20).highest(2) + 5 >= 15,
    "30d6 5-6s and 1s jointly": lambda: 30 @ d(6).map(lambda f: icepool.Vector((int(f >= 5), int(f == 1)))),
    "60d10!>=8cs>=8 >= 11": lambda: exploding_successes_at_least(60, 11),
    "20 symbol dice, 2 net counts": symbol_pool,
}

# The code each case runs, for the report.
SOURCES = {
    "3d6": "3 @ d(6)",
    "2d10": "2 @ d(10)",
    "4d6kh3": "d(6).highest(4, 3)",
    "8d6kh3": "d(6).highest(8, 3)",
    "20d6kh3": "d(6).highest(20, 3)",
    "10d10cs>=8": "10 @ d(10).map(lambda f: 1 if f >= 8 else 0)",
    "10d10!cs>=8": "10 @ d(10).map(encode).explode([101]).map(lambda t: t % 100)",
    "3d6 > 3d6": "(3 @ d(6)) > (3 @ d(6))",
    "2d20kh1 + 5 >= 15": "d(20).highest(2) + 5 >= 15",
    "30d6 5-6s and 1s jointly": "30 @ d(6).map(lambda f: Vector((f >= 5, f == 1)))",
    "60d10!>=8cs>=8 >= 11": "(60 @ d(10).map(encode).explode([101], depth=10).map(lambda t: t % 100)) >= 11",
    "20 symbol dice, 2 net counts": "sum(5 @ Die([Vector((net_successes, net_advantages)), ...]) for 4 kinds)",
}


def build(name: str):
    """The case's computation; ``NdSkhK`` pools beyond the fixed cases are built on demand."""
    if name in CASES:
        return CASES[name]
    m = re.fullmatch(r"(\d+)d(\d+)kh(\d+)", name)
    if m is None:
        raise SystemExit(f"unknown case {name!r}")
    n, sides, keep = map(int, m.groups())
    return lambda: d(sides).highest(n, keep)


def clear_caches() -> None:
    if hasattr(sum_evaluator, "_cache"):
        sum_evaluator._cache = {}
    icepool.math.comb_row_cache.clear()


def cleared(make):
    def run():
        clear_caches()
        return make()
    return run


def rows(die) -> list:
    den = die.denominator()
    return [[o, q, den] for o, q in die.items() if q]


def main() -> None:
    mode, req = sys.argv[1], json.loads(sys.argv[2])
    out: dict = {"version": icepool.__version__}
    if mode == "warm":
        seconds = req.get("seconds", 0.3)
        out["cases"] = {}
        for name in req["cases"]:
            make = CASES[name]
            out["cases"][name] = {
                "cleared": measure(cleared(make), seconds)["best"],
                "cached": measure(make, seconds / 2)["best"],
                "source": SOURCES[name],
            }
    elif mode == "cold":
        t0 = time.perf_counter()
        build(req["case"])()
        out["first"] = time.perf_counter() - t0
        out["import"] = _IMPORT_SECONDS
    elif mode == "dist":
        depth = req["explode_depth"]
        out["cases"] = {}
        for name in req["cases"]:
            if name == "10d10!cs>=8":
                die = successes_exploding(depth=depth, end=TRUNCATED)
            else:
                die = CASES[name]()
            out["cases"][name] = rows(die)
        out["truncated_sentinel"] = TRUNCATED
    elif mode == "growth":
        seconds = req.get("seconds", 0.3)
        out["times"] = {}
        for n in req["ns"]:
            out["times"][str(n)] = measure(cleared(lambda n=n: d(6).highest(n, 3)), seconds,
                                           rounds=req.get("rounds", 3))["best"]
    elif mode == "successes_growth":  # Nd10cs>=8: N d10, each 8+ a success, counted
        seconds = req.get("seconds", 0.3)
        out["times"] = {}
        for n in req["ns"]:
            out["times"][str(n)] = measure(cleared(lambda n=n: n @ d(10).map(lambda f: 1 if f >= 8 else 0)),
                                           seconds, rounds=req.get("rounds", 3))["best"]
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
