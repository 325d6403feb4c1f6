"""The real service, for the tests of tests/serve: ``python -m rulesengine serve`` started by uvicorn on a free
loopback port, spoken to over HTTP with the standard library (what any client sees)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"

# A small ruleset of the client's own, sent as YAML text (HTTP and stdio tests alike).
MINE = """\
ruleset: mine
name: Mine
version: "1"
source: my own rules
license: MIT
checks:
  attack:
    label: Attack
    inputs:
      bonus: {type: integer, min: 0, max: 10}
    roll: 1d20
    result: roll + bonus
    outcomes:
      - {name: hit, success: true, when: result >= 15}
      - {name: miss, success: false}
"""


POLL_SECONDS = 0.05
"""The pause between two looks at a condition waited for: how often, never how long."""


def wait_for(condition, what: str, going):
    """Look at ``condition`` until it holds and return what it gave. No clock: a busy machine
    only waits longer. The wait fails as soon as ``going()`` says the thing that would make
    the condition hold has ended (a process exited, a thread returned) and it still doesn't."""
    while not (value := condition()):
        if not going():
            value = condition()  # it may have come true as it ended
            assert value, f"{what}: it can no longer happen"
            return value
        time.sleep(POLL_SECONDS)
    return value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running service and a small HTTP client for it."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulesengine", "serve", "--port", str(self.port), *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        # Started when it answers /healthz; waited for as long as the process runs (no clock).
        while not self.answers("/healthz"):
            if self.process.poll() is not None:
                raise RuntimeError("the service did not start: " + self.process.stderr.read().decode())
            time.sleep(POLL_SECONDS)

    def answers(self, path: str) -> bool:
        """Whether ``GET path`` is answered 200 now (False while nothing listens)."""
        try:
            return self.get(path)[0] == 200
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self) -> dict:
        """``/readyz``'s answer once it is 200. While the service says it is loading, and runs,
        it is asked again; any other answer (a ruleset that failed to load) fails at once."""
        def ready():
            status, body = self.get("/readyz")
            assert status == 200 or "loading" in body.get("detail", ""), body
            return body if status == 200 else None
        return wait_for(ready, "/readyz", self.alive)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, object]:
        status, _, body = self.request("GET", path)
        return status, json.loads(body) if body else None

    def post(self, path: str, data: object) -> tuple[int, object]:
        status, _, body = self.request("POST", path, json.dumps(data).encode(), {"content-type": "application/json"})
        return status, json.loads(body)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        if self.process.stderr:
            self.process.stderr.close()


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def rss_mb(pid: int) -> float:
    """A process's resident size in MB, from /proc (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")
