"""The service gives the answer the library and the command line give at the same
``--max-states`` (an outside author: 40 exploding d6s with a first-throw glitch were answered
by Python and the command line and refused by the service, whose whole request shared one
budget, while the library gives each computation its own: the dearer way is tried first,
then the cheaper one). Asserted on the answers themselves, over stdio."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

MAX_STATES = 300_000  # at 20 dice the library's computations take more than this all told
GUARD_SECONDS = 300  # a hang guard for a busy machine, not a speed assertion

POOLS = """\
ruleset: pools
name: Pools
version: "1"
source: tests
checks:
  edge_pool:
    inputs:
      dice: {type: integer, min: 1, max: 40}
      threshold: {type: integer, default: 2, min: 1, max: 20}
    roll: (dice)d6!cs>=5
    let:
      ones: count(initial(roll), 1)
    result: roll
    outcomes:
      - {name: critical_glitch, when: "ones * 2 > dice and result == 0", success: false}
      - {name: success, when: "result >= threshold", success: true}
      - {name: failure, success: false}
"""


def test_the_service_answers_what_the_library_answers_at_the_same_budget(tmp_path: Path):
    (tmp_path / "pools.yaml").write_text(POOLS, encoding="utf-8")
    limits = dataclasses.replace(DEFAULT_LIMITS, max_states=MAX_STATES)
    library = loads(POOLS, "pools.yaml", limits).check("edge_pool").odds({"dice": 20}).to_dict()
    line = json.dumps({"id": 1, "op": "odds", "ruleset": "pools", "name": "edge_pool", "inputs": {"dice": 20}})
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio", "--rulesets", str(tmp_path),
                           "--max-states", str(MAX_STATES)], input=(line + "\n").encode(), capture_output=True,
                          timeout=GUARD_SECONDS)
    assert done.returncode == 0, done.stderr[-500:]
    (answer,) = (json.loads(out) for out in done.stdout.splitlines())
    assert answer["ok"], answer
    served = answer["result"]
    assert served["outcomes"] == library["outcomes"] and served["truncated"] == library["truncated"]


def test_a_sweep_too_big_for_a_request_is_an_input_error_at_its_inputs():
    """The command line's words for it are a usage error (E901, exit 2); a request's are its
    inputs' (an outside developer got E901, "a command-line usage error", with no pointer)."""
    line = json.dumps({"id": 1, "op": "odds", "ruleset": "gurps-4e", "name": "success_roll",
                       "inputs": {"skill": list(range(3000))}})
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio"], input=(line + "\n").encode(),
                          capture_output=True, timeout=GUARD_SECONDS)
    (answer,) = (json.loads(out) for out in done.stdout.splitlines())
    error = answer["error"]
    assert (answer["ok"], error["code"], error["status"], error["pointer"]) == (False, "E601", 422, "/inputs")
    assert "sweeps 3,000 values" in error["message"]
