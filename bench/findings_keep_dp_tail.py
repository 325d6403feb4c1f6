"""Evidence for bench/README.md, "Findings" (growth): a prototype, not part of the benchmark.

``rulesengine.pool._keep_dp`` with one change: once a choice of ``c`` dice showing the
current value fills every kept rank (``placed + c >= hi``), the kept score no longer depends
on ``c``, so the whole tail ``c = m .. left`` goes to one final entry whose weight the
binomial theorem gives in closed form,

    sum_{c >= m} C(left, c) w^c rest^(left-c) = (w + rest)^left - sum_{c < m} (same terms),

and only the ``m = hi - placed`` head terms are computed (``C(left, c)`` and ``w**c`` built
up incrementally instead of ``math.comb``/``pow`` per term). Per DP state that is O(k)
big-integer operations instead of O(n).

    python bench/findings_keep_dp_tail.py

checks that it gives exactly the current function's distribution and times both.
It reads a private function of rulesengine and may stop working when that changes.
"""

from __future__ import annotations

import time
from collections import defaultdict

from rulesengine import pool
from rulesengine.dist import Budget, Dist


def keep_dp_tail(d: Dist, n: int, lo: int, hi: int, score, budget: Budget) -> Dist:
    values = sorted(d.weights.items(), reverse=True)  # highest first
    if lo > 0 and hi == n:  # keeping the lowest: walk upwards, ranks mirrored
        values.reverse()
        lo, hi = 0, n - lo
    suffix = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i][1]
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    final: dict[int, int] = defaultdict(int)
    last = len(values) - 1
    for i, (v, w) in enumerate(values):
        sv = score(v)
        rest = suffix[i + 1]
        nxt: dict[tuple[int, int], int] = defaultdict(int)
        for (placed, acc), weight in states.items():
            left = n - placed
            m = max(0, hi - placed)  # c >= m fills every kept rank
            top = left if i == last else min(m, left + 1) - 1
            binom, wp, head = 1, 1, 0  # C(left, c), w**c, sum of the head terms
            for c in range(top + 1):
                if c:
                    binom = binom * (left - c + 1) // c
                    wp *= w
                if i == last and c != left:
                    continue
                now = placed + c
                kept = min(now, hi) - max(placed, lo)
                acc2 = acc + kept * sv if kept > 0 else acc
                if now >= hi:
                    final[acc2] += weight * binom * wp * rest ** (n - now)
                else:
                    nxt[(now, acc2)] += weight * binom * wp
                    head += binom * wp * rest ** (left - c)
            if i != last and m <= left:  # the tail c = m .. left, in closed form
                kept = hi - max(placed, lo)
                acc2 = acc + kept * sv if kept > 0 else acc
                final[acc2] += weight * ((w + rest) ** left - head)
        states = nxt
        if not states:
            break
    return Dist(dict(final), d.denom ** n).reduced()


def main() -> None:
    d6 = Dist({f: 1 for f in range(1, 7)}, 6)
    d20 = Dist({f: 1 for f in range(1, 21)}, 20)
    cases = [(d6, 4, 0, 3), (d6, 20, 0, 3), (d6, 64, 0, 3), (d20, 2, 0, 1), (d20, 3, 2, 3),
             (d6, 5, 4, 5), (d6, 10, 2, 5), (d6, 12, 0, 11), (d6, 1024, 0, 3)]
    for d, n, lo, hi in cases:
        big = Budget(10**30)
        assert pool._keep_dp(d, n, lo, hi, lambda v: v, big) == \
            keep_dp_tail(d, n, lo, hi, lambda v: v, big), (n, lo, hi)
    print(f"identical to pool._keep_dp on {len(cases)} cases")
    for n in (64, 256, 1024, 4096, 10000):
        t0 = time.perf_counter()
        keep_dp_tail(d6, n, 0, 3, lambda v: v, Budget(10**30))
        t1 = time.perf_counter()
        line = f"{n}d6kh3 keep step: tail collapsed {(t1 - t0) * 1e3:8.2f} ms"
        if n <= 1024:
            pool._keep_dp(d6, n, 0, 3, lambda v: v, Budget(10**30))
            line += f", current {(time.perf_counter() - t1) * 1e3:8.2f} ms"
        print(line)


if __name__ == "__main__":
    main()
