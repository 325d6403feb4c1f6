"""``rulesengine serve``: the operations over HTTP, as an ASGI application (Starlette, run by
uvicorn; the extra ``ttrpg-rulesengine[serve]``).

Starlette rather than FastAPI: the request and result shapes are already JSON Schemas
(:mod:`.requests`, ``schemas/``), so a model layer (pydantic) would only restate them; and
Starlette's own dependencies are one package (anyio).

Routes: ``GET /api/rulesets`` (list), ``GET /api/rulesets/{id}`` (export), ``GET
/api/rulesets/{id}/source`` (its YAML text), ``GET /api/rulesets/{id}/forms/{name}`` (input
form), ``POST /api/{op}`` for every operation, ``GET /openapi.json``, ``GET /healthz``
(liveness), ``GET /readyz`` (readiness: the rulesets loaded), ``GET /metrics`` (Prometheus,
:mod:`.observe`), and the playground's static files at ``/``. Each operation runs in a
worker thread under the request's work budget and deadline, and its answer is written there
too (not on the event loop); after a large one the worker gives the memory it used back to the
system before the answer is sent (:mod:`.memory`).

Shutdown is graceful: on SIGTERM (or Ctrl-C) uvicorn stops listening, lets the requests in
flight finish (at most ``--time-limit`` plus :data:`SHUTDOWN_GRACE` seconds) and the process
exits 0 (:func:`run_server`). Behind a load balancer, ``--drain-checks N`` comes first: ``/readyz``
answers 503 and every request is still served until the balancer's health checks have been told
so N times (:func:`draining_server`). Stopping to listen at once would refuse the connections the
balancer opened before it knew, and a connection the kernel had accepted, its request sent, is
reset: HAProxy retries a refused connection on another replica but not a reset one.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..codes import E_BODY_TOO_LARGE, E_NOT_FOUND, E_NOT_READY, E_REQUEST
from ..errors import RequestError, RulesEngineError
from .memory import bound_heaps, counted, give_back, is_large
from .observe import MULTIPROCESS_VARIABLE, AccessLog, Metrics, Observed
from .operations import Service, ServiceConfig
from .problems import internal_problem, problem
from .wire import dump_json, parse_json

if TYPE_CHECKING:
    import uvicorn

STATIC = Path(__file__).parent / "static"
CONFIG_VARIABLE = "RULESENGINE_SERVE_CONFIG"
"""How ``rulesengine serve --workers N`` hands its options to each worker process."""
SHUTDOWN_GRACE = 5
"""Seconds past ``--time-limit`` that a shutdown waits for the requests in flight (a request
stops at its time limit, and then its answer is written)."""
DRAIN_LIMIT = 10
"""The longest a drain lasts (``--drain-checks``) where the checks stop coming or never came."""


class JSONAnswer(JSONResponse):
    def render(self, content: Any) -> bytes:
        return dump_json(content, (",", ":"))


def problem_response(exc: BaseException, metrics: Metrics | None = None) -> JSONAnswer:
    body = problem(exc) if isinstance(exc, RulesEngineError) else internal_problem(exc)
    if metrics is not None:
        metrics.refused(body["code"])
    return JSONAnswer(body, status_code=body["status"], media_type="application/problem+json")


class Readiness:
    """Whether the worker has loaded every ruleset it serves (shipped, and the --rulesets
    folders'): :meth:`Service.warm` runs in a thread at startup, the server already listening,
    and ``/readyz`` answers 503 until it is done (and again once a drain or shutdown begins).
    While draining it counts the 503s it gave: :attr:`drained` is set at the ``checks``-th."""

    def __init__(self, checks: int = 0) -> None:
        self.ready = threading.Event()
        self.failure: str | None = None
        self.checks = checks
        self.draining = False
        self.told = 0
        self.drained = threading.Event()

    def drain(self) -> None:
        """A stop was asked for: say "not ready" from now on, counting who is told."""
        self.draining = True
        if self.told >= self.checks:
            self.drained.set()

    def tell_not_ready(self) -> None:
        """``/readyz`` answered 503: counted while draining."""
        if self.draining:
            self.told += 1
            if self.told >= self.checks:
                self.drained.set()

    def warm(self, service: Service) -> None:
        try:
            service.warm()
        except RulesEngineError as exc:  # a shipped or folder ruleset that no longer loads: never ready, and why
            self.failure = str(exc)[:300]
        except Exception as exc:  # a bug: its kind only, as internal problems say it (its text may hold paths)
            self.failure = f"internal error while loading the rulesets: {type(exc).__name__}"
        else:
            self.ready.set()


async def read_body(request: Request, limit: int) -> bytes:
    """The body, read in pieces and refused (413) as soon as it passes ``limit`` bytes."""
    too_large = RequestError(f"the request body is over {limit:,} bytes", code=E_BODY_TOO_LARGE,
                             hint="send a smaller request, or start the service with a larger --max-body")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def answer(service: Service, op: str, body: dict[str, Any], metrics: Metrics | None = None) -> JSONAnswer:
    """The response to one operation, worked out and written (in a worker thread). After a
    large request (much work, or a long answer) the memory it used is given back to the
    system, before the answer is sent: a client that has its answer finds it given back."""
    with counted() as work:
        try:
            response = JSONAnswer(service.handle(op, body, on_work=metrics.worked if metrics else None))
        except Exception as exc:  # an engine error is the client's; anything else a bug, still JSON
            response = problem_response(exc, metrics)
    if is_large(work.used, len(response.body)):
        give_back()
    return response


def create_app(config: ServiceConfig | None = None, service: Service | None = None,
               readiness: Readiness | None = None) -> Starlette:
    config = config or (service.config if service else ServiceConfig())
    service = service or Service(config)
    metrics = Metrics()
    readiness = readiness or Readiness(config.drain_checks)
    bound_heaps()  # a long-lived process: its threads share few heaps (see .memory)

    async def run(op: str, body: dict[str, Any]) -> Response:
        return await anyio.to_thread.run_sync(functools.partial(answer, service, op, body, metrics))

    async def post(request: Request) -> Response:
        op = request.path_params["op"]
        try:
            if op not in _ops():
                raise RequestError(f"no operation '{op[:40]}'", code=E_NOT_FOUND,
                                   hint="operations: " + ", ".join(_ops()))
            body = parse_json(await read_body(request, config.max_body))
        except RulesEngineError as exc:
            return problem_response(exc, metrics)
        return await run(op, body)

    async def list_rulesets(request: Request) -> Response:
        return await run("list", {})

    async def export(request: Request) -> Response:
        return await run("export", {"ruleset": request.path_params["rid"]})

    async def source(request: Request) -> Response:
        return await run("source", {"ruleset": request.path_params["rid"]})

    async def form(request: Request) -> Response:
        return await run("form", {"ruleset": request.path_params["rid"], "name": request.path_params["name"]})

    async def openapi(request: Request) -> Response:
        from .openapi import openapi_document

        return JSONAnswer(openapi_document())

    async def health(request: Request) -> Response:
        from ..version import __version__

        return JSONAnswer({"status": "ok", "engine": "rulesengine", "version": __version__})

    async def ready(request: Request) -> Response:
        if readiness.ready.is_set() and not readiness.draining:
            return JSONAnswer({"status": "ready", "rulesets": len(service.ids())})
        readiness.tell_not_ready()
        if readiness.draining:
            why, hint = "the service is shutting down", "send requests to another replica"
        else:
            why = readiness.failure or "the service is loading its rulesets"
            hint = "a failure here is in the server's rulesets (see its log); else ask again shortly"
        body = problem(RequestError(why, code=E_NOT_READY, hint=hint))
        return JSONAnswer(body, status_code=body["status"], media_type="application/problem+json",
                          headers={"retry-after": "1"})

    async def prometheus(request: Request) -> Response:
        return Response(metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        threading.Thread(target=readiness.warm, args=(service,), name="rulesengine-warm", daemon=True).start()
        yield
        readiness.ready.clear()  # shutting down: a load balancer still asking sends no more

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = E_NOT_FOUND if exc.status_code == 404 else E_REQUEST
        metrics.refused(code)
        body = {"type": "about:blank", "title": exc.detail, "status": exc.status_code,
                "detail": f"{request.method} {request.url.path[:100]}: {exc.detail}", "code": code,
                "severity": "error", "message": exc.detail, "hint": "see /openapi.json for the operations",
                "path": None, "line": None, "column": None, "pointer": None, "limit": None}
        return JSONAnswer(body, status_code=exc.status_code, media_type="application/problem+json",
                          headers=dict(exc.headers or {}))

    async def post_only(request: Request) -> Response:
        """An operation asked for with another method: 405 naming the one it takes."""
        raise HTTPException(405, "this operation takes POST with a JSON body", headers={"Allow": "POST"})

    async def favicon(request: Request) -> Response:
        """No icon, and no 404 in every browser's log for it."""
        return Response(status_code=204, headers={"cache-control": "max-age=86400"})

    routes = [
        Route("/healthz", health, methods=["GET"]),
        Route("/readyz", ready, methods=["GET"]),
        Route("/metrics", prometheus, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/api/rulesets", list_rulesets, methods=["GET"]),
        Route("/api/rulesets/{rid}", export, methods=["GET"]),
        Route("/api/rulesets/{rid}/source", source, methods=["GET"]),
        Route("/api/rulesets/{rid}/forms/{name}", form, methods=["GET"]),
        Route("/api/{op}", post, methods=["POST"]),
        Route("/api/dice/{kind}", _dice_alias(post), methods=["POST"]),
        Route("/api/{op}", post_only, methods=["GET", "PUT", "PATCH", "DELETE"]),
        Route("/api/dice/{kind}", post_only, methods=["GET", "PUT", "PATCH", "DELETE"]),
        Route("/favicon.ico", favicon, methods=["GET"]),
        Mount("/", app=StaticFiles(directory=str(STATIC), html=True), name="playground"),
    ]
    # The first is the outermost: the request id, metrics and access log see every answer, CORS's too.
    middleware = [Middleware(Observed, metrics=metrics, operations=_ops(),
                             access_log=AccessLog() if config.access_log == "json" else None)]
    if config.cors_origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(config.cors_origins),
                                     allow_methods=["GET", "POST"], allow_headers=["content-type"]))
    return Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: http_error},
                     lifespan=lifespan)


def _dice_alias(post):
    """``POST /api/dice/roll`` and ``/api/dice/odds``: the operations dice_roll and dice_odds."""
    async def alias(request: Request) -> Response:
        request.path_params["op"] = f"dice_{request.path_params['kind']}"
        return await post(request)
    return alias


def _ops() -> tuple[str, ...]:
    from .operations import OPERATIONS

    return tuple(OPERATIONS)


def serve_workers(config: ServiceConfig, host: str, port: int, workers: int) -> int:
    """Run ``workers`` uvicorn worker processes sharing one listening socket.

    The socket is bound here, with its protocol named: uvicorn binds its own with protocol 0,
    and asyncio sets TCP_NODELAY on accepted connections only when the listening socket's
    protocol is IPPROTO_TCP, so every keep-alive request then waited ~40 ms (Nagle's
    algorithm against delayed ACKs; measured by bench/serve.py)."""
    import inspect
    import socket

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    os.environ[CONFIG_VARIABLE] = json.dumps(config.to_dict())
    settings = uvicorn.Config("rulesengine.serve.http:app_from_environment", factory=True, host=host, port=port,
                              workers=workers, log_level="warning",
                              timeout_graceful_shutdown=_grace(config))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    extra = {"target": uvicorn.Server(settings).run} if "target" in inspect.signature(Multiprocess).parameters else {}
    with _shared_metrics_folder():
        Multiprocess(settings, sockets=[sock], **extra).run()  # on SIGTERM: each worker shuts down gracefully
    return 0


@contextlib.contextmanager
def _shared_metrics_folder() -> Iterator[None]:
    """The workers' metrics shared through files (prometheus-client's multiprocess mode), in a
    temporary folder removed at exit, unless the operator named one (PROMETHEUS_MULTIPROC_DIR).
    Set before the workers start: each reads it when it imports prometheus-client."""
    import tempfile

    if os.environ.get(MULTIPROCESS_VARIABLE):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="rulesengine-metrics-") as folder:
        os.environ[MULTIPROCESS_VARIABLE] = folder
        try:
            yield
        finally:
            del os.environ[MULTIPROCESS_VARIABLE]


def run_server(config: ServiceConfig, service: Service, host: str, port: int) -> int:
    """One uvicorn process serving :func:`create_app`, shut down gracefully on SIGTERM or
    Ctrl-C: it drains (``--drain-checks``), stops listening, the requests in flight finish (for
    at most the time limit plus :data:`SHUTDOWN_GRACE`), and the process exits 0 on SIGTERM, a
    stop asked for."""
    import uvicorn

    readiness = Readiness(config.drain_checks)
    settings = uvicorn.Config(create_app(config, service, readiness), host=host, port=port, log_level="warning",
                              timeout_graceful_shutdown=_grace(config))
    # uvicorn ends a shutdown by raising the signal again under the handler in force before
    # it; with Python's default, SIGTERM would then kill the process (exit -15) after a clean stop.
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        draining_server(settings, readiness).run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def draining_server(settings: uvicorn.Config, readiness: Readiness) -> uvicorn.Server:
    """uvicorn's server, draining before its shutdown: at the first SIGTERM or Ctrl-C, while
    ``readiness`` has checks to count, ``/readyz`` answers 503 and the server goes on serving
    until it has said so ``readiness.checks`` times, or :data:`DRAIN_LIMIT` seconds pass; then
    uvicorn's own graceful shutdown. A second signal ends the drain at once."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        stop_asked = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            if readiness.checks and not self.stop_asked:
                self.stop_asked = True
                readiness.drain()
                threading.Thread(target=self.exit_once_drained, args=(sig,), name="rulesengine-drain",
                                 daemon=True).start()
            else:
                super().handle_exit(sig, frame)

        def exit_once_drained(self, sig: int) -> None:
            readiness.drained.wait(DRAIN_LIMIT)
            super().handle_exit(sig, None)

    return DrainingServer(settings)


def _stopped(signum: int, frame: Any) -> None:
    sys.stderr.flush()
    raise SystemExit(0)


def app_from_environment() -> Starlette:
    """The application for one uvicorn worker process, configured by ``rulesengine serve``."""
    raw = os.environ.get(CONFIG_VARIABLE)
    return create_app(ServiceConfig.from_dict(json.loads(raw)) if raw else ServiceConfig())


def _grace(config: ServiceConfig) -> int:
    """Whole seconds a shutdown waits for the requests in flight."""
    return int(config.time_limit + 0.999) + SHUTDOWN_GRACE
