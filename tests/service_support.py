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
START_GUARD_SECONDS = 60  # a hang guard for a busy machine, not a speed assertion

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
        deadline = time.monotonic() + START_GUARD_SECONDS
        while True:
            try:
                if self.get("/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError("the service did not start: " + self.process.stderr.read().decode())
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the service did not answer /healthz")
            time.sleep(0.1)

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
