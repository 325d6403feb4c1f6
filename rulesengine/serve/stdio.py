"""``rulesengine serve --stdio``: one JSON request per line in, one JSON answer per line out.

For programs that spawn one long-lived engine (chat bots, editors, desktop apps) and talk
to it over pipes: no port, no web dependencies. A request is ``{"id": ..., "op": "roll",
...}`` with the same fields as the HTTP operation; the answer is ``{"id": ..., "ok": true,
"result": ...}`` or ``{"id": ..., "ok": false, "error": PROBLEM}`` (schemas/problem.schema.json),
in the order the requests came. A line that is not a JSON object, or is too long, gets an
error answer; the loop ends at end of input.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..codes import E_BODY_TOO_LARGE
from ..errors import RequestError, RulesEngineError
from .operations import Service
from .problems import internal_problem, problem


class Lines(Protocol):
    def readline(self, size: Any = ..., /) -> bytes: ...


class Sink(Protocol):
    def write(self, data: bytes, /) -> Any: ...

    def flush(self) -> Any: ...


def answer(service: Service, line: bytes) -> dict[str, Any]:
    """The answer to one line."""
    request_id = None
    try:
        request = parse_json(line)
        request_id = request.get("id")
        op = request.get("op")
        body = {k: v for k, v in request.items() if k not in ("id", "op")}
        return {"id": request_id, "ok": True, "result": service.handle(op, body)}
    except RulesEngineError as exc:
        return {"id": request_id, "ok": False, "error": problem(exc)}
    except Exception as exc:  # a bug: still an answer on its line, never a dead pipe
        return {"id": request_id, "ok": False, "error": internal_problem(exc)}


def parse_json(data: bytes) -> dict[str, Any]:
    """A request body: a JSON object, or a RequestError saying why not (never a crash, even on
    100,000 nested brackets)."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise RequestError("the request nests too deeply", hint="send a flat JSON object") from None
    except ValueError as exc:
        raise RequestError(f"the request is not JSON: {str(exc)[:120]}",
                           hint='send one JSON object, e.g. {"op": "list"}') from None
    if not isinstance(value, dict):
        raise RequestError("the request must be a JSON object", hint='e.g. {"op": "list"}')
    return value


def serve_stdio(service: Service, stdin: Lines, stdout: Sink) -> int:
    """Answer lines until end of input. A line longer than the service's body limit is read
    to its end in pieces (never held whole) and answered with E703."""
    limit = service.config.max_body
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return 0
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # drop the rest of the over-long line
                rest = stdin.readline(limit + 1)
                if not rest or rest.endswith(b"\n"):
                    break
            reply = {"id": None, "ok": False, "error": problem(RequestError(
                f"the request line is over {limit:,} bytes", code=E_BODY_TOO_LARGE,
                hint="send a smaller request, or start the service with a larger --max-body"))}
        elif not line.strip():
            continue
        else:
            reply = answer(service, line)
        stdout.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
        stdout.flush()
