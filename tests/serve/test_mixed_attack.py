"""A service under a bounded mixed attack (issue 30): hostile and good clients at once on
loopback. Every good request is answered, and rightly; every hostile one gets a 4xx problem
or a 503 (its time ran out), or for a costly one within the limits its whole answer, never
a 500 or a dropped connection; the server is still up
after it and its resident size stays under the ceiling docs/service.md gives. Bounded by
counts: each client sends a fixed number of requests and stops (the HTTP timeout is a hang
guard, not a speed assertion)."""

from __future__ import annotations

import http.client
import itertools
import json
import sys
import threading
from fractions import Fraction

import pytest

from fuzz_support import LONG, examples
from service_support import Server, rss_mb

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads RSS from /proc")

MAX_CACHED = 50_000
START_MB, CACHE_BYTES_PER_UNIT, HEAVY_MB, LIGHT_MB = 50, 250, 175, 10
CEILING_MB = START_MB + MAX_CACHED * CACHE_BYTES_PER_UNIT / 1_000_000 + 2 * HEAVY_MB + 2 * LIGHT_MB
"""docs/service.md's ceiling: about 50 MB at start, ``--max-cached`` x 250 bytes of caches,
and the working memory of the requests in flight, up to about 175 MB each for the largest
answers the default limits allow (``d100000``'s 100,000 rows): here two hostile clients'
requests at once, and two good clients' small ones."""

ROUNDS = examples(6, 60)
"""Rounds each client sends: 6, or 60 in the long run (``RULESENGINE_LONG_FUZZ=1``), whose
figures docs/limits.md records ("The service under a mixed attack")."""

THREE_D6_AT_LEAST_10 = Fraction(sum(a + b + c >= 10 for a, b, c in itertools.product(range(1, 7), repeat=3)), 216)

HEAVY: list[tuple[str, bytes]] = [
    # Within the limits but costly: answered (200) or refused by the budget or the clock.
    ("/api/dice_odds", json.dumps({"expression": "10000d2"}).encode()),            # a huge answer to write
    ("/api/dice_odds", json.dumps({"expression": "1000d6!!cs>5"}).encode()),
    ("/api/dice_odds", json.dumps({"expression": "d100000"}).encode()),
    ("/api/validate", json.dumps({"yaml": "a: &a [*a, *a]\n" * 200, "path": "x.yaml"}).encode()),  # a report
]

HOSTILE: list[tuple[str, bytes]] = HEAVY + [
    # Refused: a 4xx problem (or 503 for the clock), never a 500.
    ("/api/dice_odds", json.dumps({"expression": "d1000000 + d1000000"}).encode()),
    ("/api/dice_odds", json.dumps({"expression": "(" * 200 + "1" + ")" * 200}).encode()),
    ("/api/dice_odds", b'{"expression": "1d6[\\ud800]"}'),                           # a lone surrogate
    ("/api/dice_roll", b'{"expression": "1d6", "id": NaN}'),                         # not finite
    ("/api/dice_roll", b'{"expression": "1d6", "seed": 1e400}'),
    ("/api/dice_roll", b'{"expression": '),                                          # not JSON
    ("/api/dice_roll", b"[" * 100_000),
    ("/api/odds", json.dumps({"yaml": "ruleset: x\nchecks: {c: {roll: d1000000, result: roll, outcomes: "
                                      "[{name: a, success: true}]}}", "name": "c"}).encode()),
    ("/api/odds", json.dumps({"ruleset": "gurps-4e", "name": "success_roll",
                              "inputs": {"skill": list(range(-1000, 1000))}}).encode()),
    ("/api/roll", json.dumps({"ruleset": "../../etc/passwd", "name": "x"}).encode()),
    ("/api/nothing", b"{}"),
]


def post(port: int, path: str, body: bytes) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        conn.request("POST", path, body=body, headers={"content-type": "application/json"})
        response = conn.getresponse()
        return response.status, response.getheader("content-type") or "", response.read()
    finally:
        conn.close()


def test_good_requests_are_answered_and_hostile_ones_refused_while_both_come_at_once():
    for extra in ("starlette", "uvicorn"):
        pytest.importorskip(extra)
    server = Server("--time-limit", "5", "--max-cached", str(MAX_CACHED))
    failures: list[str] = []
    answered = refused = 0
    peak = [0.0]  # the largest resident size seen after a hostile request
    lock = threading.Lock()

    def hostile(n: int) -> None:
        nonlocal refused
        for _ in range(ROUNDS):
            for path, body in HOSTILE[n::2]:
                status, kind, data = post(server.port, path, body)
                heavy = (path, body) in HEAVY
                with lock:
                    if status == 200 and heavy:
                        json.loads(data)  # a whole JSON answer
                        refused += 1
                    elif status >= 500 and status != 503 or not (400 <= status < 600):
                        failures.append(f"hostile {path} {body[:60]!r}: {status} {data[:200]!r}")
                    elif "problem+json" not in kind:
                        failures.append(f"hostile {path} {body[:60]!r}: {status} as {kind}")
                    else:
                        refused += 1
                    peak[0] = max(peak[0], rss_mb(server.process.pid))

    def good(n: int) -> None:
        nonlocal answered
        for i in range(ROUNDS * 4):
            status, _, data = post(server.port, "/api/dice_odds", json.dumps({"expression": "3d6 >= 10"}).encode())
            ok = status == 200 and Fraction(json.loads(data)["stats"]["p_true_exact"]) == THREE_D6_AT_LEAST_10
            status2, _, data2 = post(server.port, "/api/roll", json.dumps(
                {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12}, "seed": n * 100 + i}).encode())
            ok2 = status2 == 200 and "outcome" in json.loads(data2)
            with lock:
                if ok and ok2:
                    answered += 1
                else:
                    failures.append(f"good: {status} {data[:200]!r} / {status2} {data2[:200]!r}")

    try:
        threads = [threading.Thread(target=hostile, args=(n,)) for n in range(2)]
        threads += [threading.Thread(target=good, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        final = rss_mb(server.process.pid)
        size = max(peak[0], final)
        alive = post(server.port, "/api/dice_roll", json.dumps({"expression": "1d6", "seed": 1}).encode())[0]
    finally:
        server.stop()
    assert not failures, "\n".join(failures[:10])
    assert answered == 2 * ROUNDS * 4 and refused == ROUNDS * len(HOSTILE)
    assert alive == 200
    if LONG or size >= CEILING_MB:
        print(f"\nmixed attack: {ROUNDS} rounds, {answered} good pairs answered, {refused} hostile requests "
              f"refused or answered whole, 0 failures, RSS peak {size:.0f} MB and {final:.0f} MB at the end "
              f"(ceiling {CEILING_MB:.0f} MB)")
    assert size < CEILING_MB, f"RSS {size:.0f} MB over the ceiling {CEILING_MB:.0f} MB"
