"""A service's memory over many distinct requests (issue 30, item 5): what it keeps between
requests is bounded by size (``serve --max-cached``, every exact-odds cache of
rulesengine.cache, a check's finished odds included), so after the caches fill its resident
size stops growing, however many distinct requests come. Measured in what the process
holds (RSS from /proc), never in time."""

from __future__ import annotations

import sys

import pytest

from service_support import Server, rss_mb

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads RSS from /proc")

MAX_CACHED = 20_000
"""The cache bound the test's server runs with: filled within the first hundred requests."""

PLATEAU_MB = 5
"""How much the server may still grow once its caches are full (allocator slack), in MB: about
0.5 MB was seen. Before item 5, a check's 257 kept odds of ~600 values each grew it by some
15 MB here."""

WIDE = ("ruleset: wide\nname: Wide\nversion: '1'\nsource: a test\nlicense: none\n"
        "checks:\n  hit:\n    inputs:\n      bonus: {type: integer, min: 0, max: 100000}\n"
        "    roll: 1d300 + 1d300\n    result: roll + bonus\n"
        "    outcomes:\n      - {name: high, when: 'result >= 300 + bonus', success: true}\n"
        "      - {name: low, success: false}\n")


def request(i: int) -> tuple[str, dict]:
    """The i-th of a stream of distinct requests, each leaving something in a cache."""
    if i % 5 == 3:
        return "/api/dice_odds", {"expression": f"d{100 + i} + {i}"}
    if i % 5 == 4:
        return "/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 3 + i % 18}, "seed": i}
    return "/api/odds", {"yaml": WIDE, "name": "hit", "inputs": {"bonus": i}}  # 599 values a time


def test_a_service_stops_growing_once_its_caches_are_full_however_many_distinct_requests():
    for extra in ("starlette", "uvicorn"):
        pytest.importorskip(extra)
    server = Server("--time-limit", "60", "--max-cached", str(MAX_CACHED))
    try:
        sizes = {}
        for i in range(450):
            status, answer = server.post(*request(i))
            assert status == 200, answer
            if i + 1 in (150, 450):
                sizes[i + 1] = rss_mb(server.process.pid)
    finally:
        server.stop()
    assert sizes[450] - sizes[150] < PLATEAU_MB, sizes


def test_the_cache_bound_is_the_operators_choice(monkeypatch):
    from rulesengine import cache
    from rulesengine.serve.operations import Service, ServiceConfig

    monkeypatch.setenv("RULESENGINE_CACHE", "off")  # what Service sets; restored after the test
    before = cache.ACCOUNT.bound
    try:
        Service(ServiceConfig(max_cached=5_000))
        assert cache.ACCOUNT.bound == 5_000 and cache.ACCOUNT.held <= 5_000
        assert ServiceConfig.from_dict(ServiceConfig(max_cached=7_000).to_dict()).max_cached == 7_000
    finally:
        cache.ACCOUNT.resize(before)
