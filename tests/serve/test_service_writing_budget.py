"""The service's budget covers writing the answer, not only working it out (issue 30, item 3).

``{"expression": "10000d2"}`` was answered 200 after 36 s under ``--time-limit 2``: its odds
take a fraction of the budget, writing their 10,001 rows of fractions of 3,000 digits was
uncounted. Over HTTP and stdio it is now refused, as any work over the budget is: a 422
(an error line on stdio) naming ``max_states``. Asserted on what the engine counts (the
limit named), never on a clock.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import jsonschema
import pytest

from rulesengine import dice
from rulesengine.limits import DEFAULT_LIMITS
from service_support import Server, schema

MAX_STATES = 400_000
"""Room to work out ``10000d2`` (the stdio test checks it in-process), not to write it out."""

GUARD_SECONDS = 300  # a hang guard for a busy machine, not a speed assertion


def test_odds_too_big_to_write_are_a_422_naming_max_states_over_http():
    for extra in ("starlette", "uvicorn"):
        pytest.importorskip(extra, reason="the service's HTTP tests need the 'serve' extra (starlette, uvicorn)")
    server = Server("--max-states", str(MAX_STATES))
    try:
        status, body = server.post("/api/dice/odds", {"expression": "10000d2"})  # was: 200, its rows written
        assert (status, body.get("code"), body.get("limit")) == (422, "E210", "max_states"), str(body)[:300]
        jsonschema.validate(body, schema("problem"))
        status, _ = server.post("/api/dice/odds", {"expression": "3d6"})
        assert status == 200
    finally:
        server.stop()


def test_odds_too_big_to_write_are_an_error_line_naming_max_states_over_stdio():
    # the budget is room enough to work the odds out: what is refused is writing them
    odds = dice.odds(dice.Expression("10000d2", dataclasses.replace(DEFAULT_LIMITS, max_states=MAX_STATES)))
    assert len(odds.distribution) == 10_001
    lines = [json.dumps({"id": 1, "op": "dice_odds", "expression": "10000d2"}).encode(),
             json.dumps({"id": 2, "op": "dice_odds", "expression": "3d6"}).encode()]
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio", "--max-states", str(MAX_STATES)],
                          input=b"".join(line + b"\n" for line in lines), capture_output=True, timeout=GUARD_SECONDS)
    assert done.returncode == 0, done.stderr[-500:]
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert (first["id"], first["ok"], first["error"]["code"], first["error"]["limit"]) == (1, False, "E210", "max_states")
    assert (second["id"], second["ok"]) == (2, True)
