"""``rulesengine serve --stdio``: one JSON request per line in, one JSON answer per line out.

For programs that spawn one long-lived engine (chat bots, editors, desktop apps) and talk
to it over pipes: no port, no web dependencies. A request is ``{"id": ..., "op": "roll",
...}`` with the same fields as the HTTP operation; the answer is ``{"id": ..., "ok": true,
"result": ...}`` or ``{"id": ..., "ok": false, "error": PROBLEM}`` (schemas/problem.schema.json),
in the order the requests came. A line that is not a JSON object, or is too long, or holds
text or a number no answer could echo (see :mod:`.wire`), gets an error answer; every answer
is written, whatever text it holds; the loop ends at end of input.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..codes import E_BODY_TOO_LARGE
from ..errors import RequestError, RulesEngineError
from .memory import counted, give_back, is_large
from .operations import Service
from .problems import internal_problem, problem
from .wire import dump_json, load_object, unwritable


class Lines(Protocol):
    def readline(self, size: Any = ..., /) -> bytes: ...


class Sink(Protocol):
    def write(self, data: bytes, /) -> Any: ...

    def flush(self) -> Any: ...


def answer(service: Service, line: bytes) -> dict[str, Any]:
    """The answer to one line. Its ``id`` is echoed unless the id itself is what is refused
    (text with a lone surrogate, a number that is not finite: see :mod:`.wire`)."""
    request_id = None
    try:
        request = load_object(line)
        if unwritable(request.get("id"), "/id") is None:
            request_id = request.get("id")
        refused = unwritable(request)
        if refused is not None:
            raise refused
        op = request.get("op")
        body = {k: v for k, v in request.items() if k not in ("id", "op")}
        return {"id": request_id, "ok": True, "result": service.handle(op, body)}
    except RulesEngineError as exc:
        return {"id": request_id, "ok": False, "error": problem(exc)}
    except Exception as exc:  # a bug: still an answer on its line, never a dead pipe
        return {"id": request_id, "ok": False, "error": internal_problem(exc)}


def written(reply: dict[str, Any]) -> bytes:
    """One answer line. An answer that cannot be JSON (a bug: a number that is not finite in
    a result) is written as the internal error it is, on its line, with its id."""
    try:
        return dump_json(reply) + b"\n"
    except ValueError as exc:
        return dump_json({"id": reply.get("id"), "ok": False, "error": internal_problem(exc)}) + b"\n"


def serve_stdio(service: Service, stdin: Lines, stdout: Sink) -> int:
    """Answer lines until end of input. A line longer than the service's body limit is read
    to its end in pieces (never held whole) and answered with E703."""
    limit = service.config.max_body
    while True:
        steps = 0
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
            with counted() as work:
                reply = answer(service, line)
            steps = work.used
        data = written(reply)
        stdout.write(data)
        stdout.flush()
        if is_large(steps, len(data)):
            del reply, data
            give_back()  # what a large request used, back to the system (see .memory)
