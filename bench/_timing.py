"""Time-boxed micro-timing shared by bench/run.py and its workers (stdlib only).

The workers run in other virtualenvs (d20, icepool) that do not have rulesengine
installed, so this module must import nothing but the standard library.
"""

from __future__ import annotations

import time
from collections.abc import Callable

DEFAULT_SECONDS = 0.3


def measure(fn: Callable[[], object], seconds: float = DEFAULT_SECONDS, rounds: int = 3) -> dict:
    """Seconds per call of ``fn``, best of ``rounds`` time-boxed rounds.

    Each round calls ``fn`` in batches (doubling while a batch is short) until the round has
    run for ``seconds / rounds``; every round makes at least one call, so a case slower than
    the box still gets ``rounds`` calls (a 1 s case costs ~3 s). The best round's time per
    call is reported, as ``timeit`` recommends: on a shared machine the slower rounds measure
    the neighbours, not the code. One untimed call comes first (first-call costs are the
    "cold" measurement's business).
    """
    fn()
    box = seconds / rounds
    per_call = []
    total_calls = 0
    for _round in range(rounds):
        calls, batch = 0, 1
        start = time.perf_counter()
        elapsed = 0.0
        while True:
            for _ in range(batch):
                fn()
            calls += batch
            elapsed = time.perf_counter() - start
            if elapsed >= box:
                break
            if elapsed < box / 10:
                batch *= 2
        per_call.append(elapsed / calls)
        total_calls += calls
    return {"best": min(per_call), "rounds": per_call, "calls": total_calls}
