"""What an operator watches of ``rulesengine serve`` over HTTP: Prometheus metrics at
``/metrics`` (the maintained ``prometheus-client`` package, in the ``serve`` extra), one
JSON access-log line per request on stderr (``--access-log json``), and readiness.

The middleware here is plain ASGI (no Starlette class), so it sees every answer, the
playground's files and the 404s included, with its status and duration.

Metrics (the names an alert or a dashboard uses; docs/service.md lists them):

- ``rulesengine_requests_total{operation, status}``: answers, by operation and HTTP status;
- ``rulesengine_request_duration_seconds{operation}``: a latency histogram;
- ``rulesengine_refusals_total{code}``: problem answers, by the engine's error code (E601, E210...);
- ``rulesengine_work_steps_total{operation}``: steps of the work budget the operations spent
  (the unit of ``--max-states``, the same on every machine);
- ``rulesengine_requests_in_flight``: requests being answered now.

The ``operation`` label is one of a fixed set (the operations, ``healthz``, ``readyz``,
``metrics``, ``openapi``, ``static``, ``unknown``), so no client can grow the label space.
With ``--workers N`` the workers share their figures through prometheus-client's
multiprocess mode (a temporary folder ``rulesengine serve`` makes, or the operator's
``PROMETHEUS_MULTIPROC_DIR``), so ``/metrics`` counts the whole process group.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's own switch to its multiprocess mode (read when it is imported)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Seconds: from a cached answer (about a millisecond) to past the default --time-limit."""

REQUEST_ID_HEADER = "x-request-id"
_GOOD_REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
"""A client's or a load balancer's request id is kept when it looks like one (no control
characters, no quotes, bounded); any other gets a new one, so a log line can't be forged."""

FIXED_ROUTES = {"/healthz": "healthz", "/readyz": "readyz", "/metrics": "metrics", "/openapi.json": "openapi"}


def operation_of(method: str, path: str, operations: tuple[str, ...]) -> str:
    """The ``operation`` label of a request: one of a fixed set, whatever the path."""
    if path in FIXED_ROUTES:
        return FIXED_ROUTES[path]
    if not path.startswith("/api/"):
        return "static"
    parts = path[len("/api/"):].split("/")
    if parts[0] == "rulesets" and method == "GET":
        if len(parts) == 3:
            return "source" if parts[2] == "source" else "unknown"
        return {1: "list", 2: "export", 4: "form"}.get(len(parts), "unknown")
    if parts[0] == "dice" and len(parts) == 2 and f"dice_{parts[1]}" in operations:
        return f"dice_{parts[1]}"
    if len(parts) == 1 and parts[0] in operations:
        return parts[0]
    return "unknown"


class Metrics:
    """The service's Prometheus metrics, in a registry of their own (or, in multiprocess
    mode, in the shared files every worker writes)."""

    def __init__(self) -> None:
        self.multiprocess = bool(os.environ.get(MULTIPROCESS_VARIABLE))
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("rulesengine_requests", "HTTP answers, by operation and status",
                                ["operation", "status"], registry=r)
        self.latency = Histogram("rulesengine_request_duration_seconds", "Time to answer a request, by operation",
                                 ["operation"], buckets=LATENCY_BUCKETS, registry=r)
        self.refusals = Counter("rulesengine_refusals", "Problem answers, by the engine's error code",
                                ["code"], registry=r)
        self.work = Counter("rulesengine_work_steps", "Steps of the work budget (--max-states) spent, by operation",
                            ["operation"], registry=r)
        self.in_flight = Gauge("rulesengine_requests_in_flight", "Requests being answered now",
                               registry=r, multiprocess_mode="livesum")

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def worked(self, operation: str, steps: int) -> None:
        self.work.labels(operation).inc(steps)

    def exposition(self) -> bytes:
        """The Prometheus text format: this process's figures, or every worker's."""
        if self.multiprocess:
            registry = CollectorRegistry()
            prometheus_multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry)
        return generate_latest(self.registry)


class AccessLog:
    """One JSON object per line on stderr: time, method, path, status, duration_ms, request_id."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def write(self, method: str, path: str, status: int, seconds: float, request_id: str) -> None:
        line = json.dumps({"time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                           "method": method, "path": path[:500], "status": status,
                           "duration_ms": round(seconds * 1000, 3), "request_id": request_id},
                          ensure_ascii=True)
        stream = self.stream or sys.stderr
        with self.lock:
            stream.write(line + "\n")
            stream.flush()


class Observed:
    """ASGI middleware: a request id on every answer (``x-request-id``: the client's, or a new
    one), the metrics of every answer, and its access-log line when asked for."""

    def __init__(self, app: ASGIApp, metrics: Metrics, operations: tuple[str, ...],
                 access_log: AccessLog | None = None) -> None:
        self.app = app
        self.metrics = metrics
        self.operations = operations
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(REQUEST_ID_HEADER.encode(), b"").decode("latin-1")
        request_id = given if _GOOD_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        method, path = scope["method"], scope["path"]
        operation = operation_of(method, path, self.operations)
        status = 500  # an answer never started (the app failed before it) is a server error
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (REQUEST_ID_HEADER.encode(), request_id.encode())]
            await send(message)

        self.metrics.in_flight.inc()
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            self.metrics.in_flight.dec()
            self.metrics.requests.labels(operation, str(status)).inc()
            self.metrics.latency.labels(operation).observe(seconds)
            if self.access_log:
                self.access_log.write(method, path, status, seconds, request_id)
