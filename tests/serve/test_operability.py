"""What an operator relies on to run the service at scale (issue 36): readiness (``/readyz``),
Prometheus metrics (``/metrics``, read back with prometheus-client's own parser), JSON access
logs (``serve --access-log json``) and a graceful shutdown on SIGTERM.

Every count asserted is one the test itself sent (a difference between two scrapes of the
shared server, or a fresh server's totals), never a figure read off the engine."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import anyio
import pytest

from service_support import MINE, ROOT, Server, wait_for

pytest.importorskip("prometheus_client", reason="the metrics need the 'serve' extra (prometheus-client)")
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

SHIPPED = len(list((ROOT / "rulesets").glob("*.yaml")))  # the oracle: the files shipped
SLOW = {"expression": "d100000"}  # 100,000 rows of exact odds to build and write: about a second


def scrape(server: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, parsed by prometheus-client: (name, sorted labels) → value."""
    status, headers, body = server.request("GET", "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body.decode()) for s in family.samples}


def sample(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# ---- readiness ---------------------------------------------------------------------------------


class ASGIClient:
    """The application in this process, its lifespan started, spoken to over ASGI."""

    def __init__(self, app) -> None:
        self.app = app

    async def get(self, path: str) -> tuple[int, dict]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": [], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        await self.app(scope, receive, send)
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return sent[0]["status"], json.loads(body)


def with_lifespan(app, then) -> None:
    """Start ``app``'s lifespan, run ``then(client)`` (async), shut it down."""
    async def main() -> None:
        to_app_send, to_app_receive = anyio.create_memory_object_stream(10)
        from_app_send, from_app_receive = anyio.create_memory_object_stream(10)
        async with anyio.create_task_group() as tg:
            tg.start_soon(app, {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                          to_app_receive.receive, from_app_send.send)
            await to_app_send.send({"type": "lifespan.startup"})
            assert (await from_app_receive.receive())["type"] == "lifespan.startup.complete"
            await then(ASGIClient(app))
            await to_app_send.send({"type": "lifespan.shutdown"})
            assert (await from_app_receive.receive())["type"] == "lifespan.shutdown.complete"
    anyio.run(main)


def test_readyz_is_a_503_problem_until_the_rulesets_are_loaded_then_200():
    from rulesengine.serve.http import create_app
    from rulesengine.serve.operations import Service

    loading = threading.Event()

    class SlowToLoad(Service):
        def warm(self) -> None:
            loading.wait()  # the test lets it go on, whatever it asserts first
            super().warm()

    async def check(client: ASGIClient) -> None:
        try:
            status, body = await client.get("/readyz")
            assert status == 503 and body["status"] == 503 and "loading" in body["detail"]
            assert body["code"] == "E704" and body["title"].startswith("The service is not ready") and body["hint"]
            assert (await client.get("/healthz"))[0] == 200  # alive all the same: no restart for a slow start
        finally:
            loading.set()
        while (answer := await client.get("/readyz"))[0] != 200:
            await anyio.sleep(0.02)
        assert answer[1] == {"status": "ready", "rulesets": SHIPPED}

    with_lifespan(create_app(service=SlowToLoad()), check)


def test_readyz_stays_503_naming_the_failure_when_a_ruleset_no_longer_loads():
    from rulesengine.errors import RequestError
    from rulesengine.serve.http import create_app
    from rulesengine.serve.operations import Service

    class Broken(Service):
        def warm(self) -> None:
            raise RequestError("mine.yaml: gone")

    async def check(client: ASGIClient) -> None:
        while "gone" not in (answer := await client.get("/readyz"))[1]["detail"]:
            await anyio.sleep(0.02)
        assert answer[0] == 503 and answer[1]["code"].startswith("E")

    with_lifespan(create_app(service=Broken()), check)


def test_readyz_counts_the_rulesets_folders_with_the_shipped_ones(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    s = Server("--rulesets", str(tmp_path))
    try:
        assert s.wait_ready() == {"status": "ready", "rulesets": SHIPPED + 1}
    finally:
        s.stop()


# ---- metrics -----------------------------------------------------------------------------------


def test_metrics_count_requests_by_operation_and_status_refusals_by_code_and_latency(server: Server):
    before = scrape(server)
    for seed in range(3):
        assert server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll",
                                         "inputs": {"skill": 12}, "seed": seed})[0] == 200
    for _ in range(2):
        assert server.post("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll",
                                         "inputs": {"skil": 12}})[0] == 422  # E601
    assert server.post("/api/roll", {"ruleset": "no-such", "name": "x"})[0] == 404  # E702
    assert server.post("/api/dice/roll", {"expression": "1d6", "seed": 1})[0] == 200
    assert server.get("/api/no_such_op/x")[0] == 404  # not an operation: a label of the fixed set
    after = scrape(server)

    def delta(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert delta("rulesengine_requests_total", operation="roll", status="200") == 3
    assert delta("rulesengine_requests_total", operation="roll", status="422") == 2
    assert delta("rulesengine_requests_total", operation="roll", status="404") == 1
    assert delta("rulesengine_requests_total", operation="dice_roll", status="200") == 1
    assert delta("rulesengine_requests_total", operation="unknown", status="404") == 1
    assert delta("rulesengine_refusals_total", code="E601") == 2
    assert delta("rulesengine_refusals_total", code="E702") == 2
    assert delta("rulesengine_request_duration_seconds_count", operation="roll") == 6
    assert delta("rulesengine_request_duration_seconds_bucket", operation="roll", le="+Inf") == 6
    buckets = sorted((float(dict(labels)["le"]), value) for (name, labels), value in after.items()
                     if name == "rulesengine_request_duration_seconds_bucket" and dict(labels)["operation"] == "roll")
    assert [v for _, v in buckets] == sorted(v for _, v in buckets)  # cumulative, as the format says
    assert not any(dict(labels).get("operation", "").startswith("no_such") for _, labels in after)


def test_metrics_count_the_work_budget_spent_within_the_budget_and_a_refusal_by_its_code():
    s = Server("--max-states", "10000")
    try:
        before = scrape(s)
        assert s.post("/api/dice_odds", {"expression": "2d6"})[0] == 200
        mid = scrape(s)
        assert s.post("/api/dice_odds", {"expression": "40d100"})[0] == 422  # over the budget: E210
        after = scrape(s)
        spent = sample(mid, "rulesengine_work_steps_total", operation="dice_odds") - \
            sample(before, "rulesengine_work_steps_total", operation="dice_odds")
        assert 0 < spent <= 10_000  # the budget given is the bound: a request never spends past it
        assert sample(after, "rulesengine_work_steps_total", operation="dice_odds") - \
            sample(mid, "rulesengine_work_steps_total", operation="dice_odds") <= 10_000
        assert sample(after, "rulesengine_refusals_total", code="E210") == 1
    finally:
        s.stop()


def test_metrics_with_several_workers_count_every_workers_requests():
    s = Server("--workers", "2")
    try:
        s.wait_ready()
        n = 12
        for seed in range(n):
            assert s.post("/api/dice_roll", {"expression": "1d20", "seed": seed})[0] == 200
        for _ in range(3):  # whichever worker answers the scrape, it reads every worker's figures
            assert sample(scrape(s), "rulesengine_requests_total", operation="dice_roll", status="200") == n
    finally:
        s.stop()


# ---- access logs -------------------------------------------------------------------------------


def stop_and_read_stderr(s: Server) -> str:
    s.process.send_signal(signal.SIGTERM)
    _, err = s.process.communicate()
    return err.decode()


def test_access_log_json_writes_one_object_per_request_on_stderr():
    s = Server("--access-log", "json")
    try:
        status, headers, _ = s.request("GET", "/healthz", headers={"x-request-id": "lb-42"})
        assert status == 200 and headers["x-request-id"] == "lb-42"
        _, forged, _ = s.request("GET", "/healthz", headers={"x-request-id": 'a" b'})
        assert forged["x-request-id"] != 'a" b'  # not an id a log line can be forged with: a new one
        assert s.post("/api/roll", {"ruleset": "no-such", "name": "x"})[0] == 404
    finally:
        err = stop_and_read_stderr(s)
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    mine = [e for e in lines if e["path"] != "/healthz" or e["request_id"] in ("lb-42", forged["x-request-id"])]
    by_id = {e["request_id"]: e for e in mine}
    assert set(by_id["lb-42"]) == {"time", "method", "path", "status", "duration_ms", "request_id"}
    assert (by_id["lb-42"]["method"], by_id["lb-42"]["path"], by_id["lb-42"]["status"]) == ("GET", "/healthz", 200)
    assert by_id[forged["x-request-id"]]["status"] == 200
    post = [e for e in mine if e["method"] == "POST"]
    assert [(e["path"], e["status"]) for e in post] == [("/api/roll", 404)]
    assert all(e["time"].endswith("Z") and e["duration_ms"] >= 0 for e in mine)


def test_no_access_log_unless_asked_for():
    s = Server()
    try:
        assert s.get("/healthz")[0] == 200
    finally:
        err = stop_and_read_stderr(s)
    assert not any(line.startswith("{") for line in err.splitlines())


# ---- graceful shutdown -------------------------------------------------------------------------


def terminate_with_a_request_in_flight(s: Server, answers: list) -> threading.Thread:
    """Send SIGTERM once a slow request is in flight; its thread appends the answer to ``answers``."""
    s.wait_ready()
    slow = threading.Thread(target=lambda: answers.append(s.post("/api/dice_odds", SLOW)))
    slow.start()
    # in flight: the scrape counts itself, so the slow request makes two
    wait_for(lambda: sample(scrape(s), "rulesengine_requests_in_flight") >= 2, "the request in flight",
             slow.is_alive)
    s.process.send_signal(signal.SIGTERM)
    return slow


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_lets_the_request_in_flight_finish_and_the_process_exits_0(workers: str):
    s = Server("--time-limit", "120", "--workers", workers)
    answers: list[tuple[int, object]] = []
    try:
        slow = terminate_with_a_request_in_flight(s, answers)
        slow.join()  # the request ends: answered, or at the client's own socket timeout
        assert s.process.wait() == 0  # the server ends once its requests in flight have
    finally:
        s.stop()
    status, body = answers[0]
    assert status == 200 and len(body["distribution"]) == 100_000
    with pytest.raises(OSError):  # and nothing listens any more
        s.request("GET", "/healthz")


def test_sigterm_refuses_new_connections_while_a_request_finishes():
    s = Server("--time-limit", "120")
    answers: list[tuple[int, object]] = []
    try:
        slow = terminate_with_a_request_in_flight(s, answers)

        def refused() -> bool:
            try:
                s.request("GET", "/healthz")
                return False
            except OSError:
                return True
        wait_for(refused, "the listening socket to close", s.alive)
        slow.join()  # the request ends: answered, or at the client's own socket timeout
        assert s.process.wait() == 0  # the server ends once its requests in flight have
    finally:
        s.stop()
    assert answers[0][0] == 200


# ---- draining before the shutdown (--drain-checks) ----------------------------------------------


def readyz(s: Server) -> int | None:
    """``GET /readyz``'s status, or None once nothing listens."""
    try:
        return s.request("GET", "/readyz")[0]
    except OSError:
        return None


def test_readiness_counts_the_not_ready_answers_of_a_drain_and_is_drained_at_the_nth():
    from rulesengine.serve.http import Readiness

    readiness = Readiness(checks=3)
    readiness.tell_not_ready()  # while loading: not a drain's answer
    readiness.drain()
    for told in range(1, 4):
        assert not readiness.drained.is_set()
        readiness.tell_not_ready()
        assert readiness.told == told
    assert readiness.drained.is_set()


def test_a_drain_answers_readyz_503_the_checks_asked_for_while_it_serves_then_stops_listening():
    """--drain-checks 3: after SIGTERM, /readyz says "shutting down" (503) and every request is
    still answered until the third such answer; then the service stops listening and exits 0."""
    s = Server("--drain-checks", "3")
    try:
        s.wait_ready()
        s.process.send_signal(signal.SIGTERM)
        wait_for(lambda: readyz(s) == 503, "the first 503 of the drain", s.alive)  # told: 1
        status, body = s.get("/readyz")  # told: 2
        assert status == 503 and "shutting down" in body["detail"]
        assert s.post("/api/dice_roll", {"expression": "3d6", "seed": 1})[0] == 200  # still served
        assert readyz(s) == 503  # told: 3, the drain ends
        wait_for(lambda: readyz(s) is None, "the listening socket to close", s.alive)
        assert s.process.wait() == 0
    finally:
        s.stop()


def test_a_second_stop_ends_the_drain_at_once():
    s = Server("--drain-checks", "100")
    try:
        s.wait_ready()
        s.process.send_signal(signal.SIGTERM)
        wait_for(lambda: readyz(s) == 503, "the drain", s.alive)
        s.process.send_signal(signal.SIGTERM)
        assert s.process.wait() == 0  # without the 99 answers left
    finally:
        s.stop()


def test_drain_checks_with_several_workers_is_a_usage_error():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--drain-checks", "3", "--workers", "2"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "--drain-checks needs --workers 1" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_rulesets_source_is_counted_as_the_source_operation():
    from rulesengine.serve.observe import operation_of
    from rulesengine.serve.operations import OPERATIONS

    ops = tuple(OPERATIONS)
    assert operation_of("GET", "/api/rulesets/gurps-4e/source", ops) == "source"
    assert operation_of("GET", "/api/rulesets/gurps-4e/sauce", ops) == "unknown"
    assert operation_of("POST", "/api/source", ops) == "source"
