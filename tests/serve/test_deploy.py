"""deploy/ (issue 36): the Compose file and the Kubernetes manifests say what the service
does (its port, its probes' paths, three replicas), the manifests are valid Kubernetes objects
(kubernetes-validate's schemas, pinned in the test extra, in strict mode: an unknown or
misspelt field is an error), and the HAProxy setup they describe works:
three ``rulesengine serve`` on loopback behind HAProxy (deploy/haproxy.cfg, its replicas
rewritten to loopback ports) share a load run, and stopping one of them mid-run loses no request.

Where the machine has no ``haproxy`` (Debian's package; ``.ci/run`` installs it where it can and
says which happened), the three-replica tests are skipped with the reason in the summary."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from service_support import ROOT, Server, free_port, wait_for

DEPLOY = ROOT / "deploy"
MANIFESTS = sorted((DEPLOY / "kubernetes").glob("*.yaml"))
KUBERNETES = ["1.29", "1.37"]
"""The Kubernetes versions the manifests are checked against: an older release still run by
managed clusters (autoscaling/v2 and every field used are older still) and the newest that
kubernetes-validate 1.37.0 ships schemas for."""


def dockerfile_port() -> int:
    """The port the image serves on, read from the Dockerfile (EXPOSE and its CMD agree)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    exposed = int(re.search(r"^EXPOSE (\d+)$", text, re.M).group(1))
    assert f'"--port", "{exposed}"' in text
    return exposed


def drain_checks(command: list[str]) -> int:
    """The replica's ``--drain-checks``: how many 503s from /readyz it gives before it stops listening."""
    return int(command[command.index("--drain-checks") + 1])


def compose_replica_command() -> list[str]:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    return compose["services"]["rulesengine"]["command"]


def served_paths() -> set[str]:
    from rulesengine.serve.openapi import openapi_document

    return set(openapi_document()["paths"])


# ---- the files ---------------------------------------------------------------------------------


def test_compose_runs_three_replicas_of_the_image_on_its_port_behind_haproxy():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    app, lb = compose["services"]["rulesengine"], compose["services"]["haproxy"]
    assert app["build"]["dockerfile"] == "Dockerfile" and (DEPLOY / app["build"]["context"] / "Dockerfile").is_file()
    assert app["deploy"]["replicas"] == 3
    port = dockerfile_port()
    assert app["expose"] == [str(port)] and app["command"][app["command"].index("--port") + 1] == str(port)
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in lb["volumes"]
    cfg = (DEPLOY / "haproxy.cfg").read_text(encoding="utf-8")
    check = re.search(r"option httpchk GET (\S+)", cfg).group(1)
    assert check == "/readyz" and check in served_paths()
    assert re.search(rf"server-template \w+ \d+ rulesengine:{port} ", cfg)  # the compose service's name and port
    # a stopped replica drains until HAProxy has seen it fail its checks (fall N) and one more
    assert drain_checks(app["command"]) > int(re.search(r"\bfall (\d+)", cfg).group(1))
    from rulesengine.serve.http import DRAIN_LIMIT, SHUTDOWN_GRACE
    assert int(app["stop_grace_period"].removesuffix("s")) > DRAIN_LIMIT + 10 + SHUTDOWN_GRACE


def test_the_kubernetes_deployment_probes_the_services_own_endpoints_on_its_port():
    deployment = yaml.safe_load((DEPLOY / "kubernetes" / "deployment.yaml").read_text(encoding="utf-8"))
    assert (deployment["apiVersion"], deployment["kind"]) == ("apps/v1", "Deployment")
    spec = deployment["spec"]
    assert spec["replicas"] == 3
    assert spec["selector"]["matchLabels"].items() <= spec["template"]["metadata"]["labels"].items()
    (container,) = spec["template"]["spec"]["containers"]
    port = dockerfile_port()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": port}
    assert container["command"][container["command"].index("--port") + 1] == str(port)
    live, ready = container["livenessProbe"]["httpGet"], container["readinessProbe"]["httpGet"]
    assert (live["path"], ready["path"]) == ("/healthz", "/readyz")
    assert {live["path"], ready["path"]} <= served_paths()
    assert ports[live["port"]] == ports[ready["port"]] == port
    requests, limits = container["resources"]["requests"], container["resources"]["limits"]
    assert {"cpu", "memory"} <= set(requests) and "memory" in limits
    # the grace period outlasts a shutdown: the drain, the default --time-limit (10 s) and the service's grace
    from rulesengine.serve.http import DRAIN_LIMIT, SHUTDOWN_GRACE
    assert spec["template"]["spec"]["terminationGracePeriodSeconds"] > DRAIN_LIMIT + 10 + SHUTDOWN_GRACE
    # the drain outlasts the readiness probe's failures: it takes the Pod out before it stops listening
    assert drain_checks(container["command"]) > container["readinessProbe"]["failureThreshold"]


def test_the_kubernetes_service_and_autoscaler_point_at_the_deployment():
    kube = DEPLOY / "kubernetes"
    deployment = yaml.safe_load((kube / "deployment.yaml").read_text(encoding="utf-8"))
    service = yaml.safe_load((kube / "service.yaml").read_text(encoding="utf-8"))
    hpa = yaml.safe_load((kube / "hpa.yaml").read_text(encoding="utf-8"))
    assert (service["apiVersion"], service["kind"]) == ("v1", "Service")
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]
    assert (hpa["apiVersion"], hpa["kind"]) == ("autoscaling/v2", "HorizontalPodAutoscaler")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert hpa["spec"]["minReplicas"] == deployment["spec"]["replicas"] <= hpa["spec"]["maxReplicas"]


def kubernetes_objects(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc is not None]


@pytest.mark.parametrize("version", KUBERNETES)
@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m.name for m in MANIFESTS])
def test_each_kubernetes_manifest_is_valid_against_the_kubernetes_schemas(manifest, version):
    objects = kubernetes_objects(manifest)
    assert objects
    for obj in objects:
        kubernetes_validate.validate(obj, version, strict=True)  # raises ValidationError, naming the field


def test_the_manifests_checked_are_the_deployment_service_and_autoscaler():
    kinds = sorted(obj["kind"] for m in MANIFESTS for obj in kubernetes_objects(m))
    assert kinds == ["Deployment", "HorizontalPodAutoscaler", "Service"]


def _container(deployment: dict) -> dict:
    return deployment["spec"]["template"]["spec"]["containers"][0]


BROKEN = {
    "a misspelt probe field": lambda d: _container(d)["livenessProbe"]["httpGet"].update(paht="/healthz"),
    "replicas as text": lambda d: d["spec"].update(replicas="three"),
    "a container without its name": lambda d: _container(d).pop("name"),
    "a port number as text": lambda d: _container(d)["ports"][0].update(containerPort="8000"),
    "a field at the wrong level": lambda d: d["spec"].update(livenessProbe=_container(d)["livenessProbe"]),
}


@pytest.mark.parametrize("break_it", BROKEN.values(), ids=list(BROKEN))
def test_the_kubernetes_check_refuses_a_broken_deployment(break_it):
    """The check above is not vacuous: each of these mistakes in deployment.yaml is refused."""
    (deployment,) = kubernetes_objects(DEPLOY / "kubernetes" / "deployment.yaml")
    kubernetes_validate.validate(deployment, KUBERNETES[-1], strict=True)
    break_it(deployment)
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES[-1], strict=True)


# ---- three replicas behind HAProxy -------------------------------------------------------------


def loopback_config(ports: list[int], front: int, stats: int) -> str:
    """deploy/haproxy.cfg with its replicas on loopback ports instead of Docker's DNS, checked
    more often (the test's patience, not a different setup): the same retries and checks."""
    cfg = (DEPLOY / "haproxy.cfg").read_text(encoding="utf-8")
    cfg = re.sub(r"\nresolvers docker\n(    .*\n)+", "\n", cfg)
    template = re.search(r"    server-template .*\n", cfg).group(0)
    servers = "".join(f"    server replica{i} 127.0.0.1:{p}\n" for i, p in enumerate(ports, 1))
    cfg = cfg.replace(template, servers)
    cfg = cfg.replace("bind :8000", f"bind 127.0.0.1:{front}").replace("bind :8404", f"bind 127.0.0.1:{stats}")
    cfg = cfg.replace("default-server inter 2s", "default-server inter 200ms")
    cfg = re.sub(r"\n    log stdout.*\n", "\n", cfg)
    assert "resolvers" not in cfg and "rulesengine:8000" not in cfg
    return cfg


class Front:
    """A Server-like client for HAProxy's port."""

    def __init__(self, port: int) -> None:
        self.port = port

    request = Server.request
    get = Server.get
    post = Server.post


@pytest.fixture
def cluster(tmp_path: Path):
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("THREE-REPLICA HAPROXY TEST SKIPPED: no haproxy on this machine (Debian's package 'haproxy'; "
                    ".ci/run installs it when run as root)")
    # each replica drains on a stop as compose.yaml runs it (--drain-checks)
    replicas = [Server("--drain-checks", str(drain_checks(compose_replica_command()))) for _ in range(3)]
    front, stats = free_port(), free_port()
    (tmp_path / "haproxy.cfg").write_text(loopback_config([s.port for s in replicas], front, stats), encoding="utf-8")
    check = subprocess.run([haproxy, "-c", "-f", str(tmp_path / "haproxy.cfg")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    lb = subprocess.Popen([haproxy, "-db", "-f", str(tmp_path / "haproxy.cfg")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # HAProxy marks a replica up after its health checks pass; waited for as long as HAProxy
        # runs and each replica has answered fewer than MAX_CHECKS of them (counted by the replicas)
        wait_for(lambda: all_up(stats), "HAProxy to see three ready replicas",
                 lambda: lb.poll() is None and min(health_checks(s) for s in replicas) < MAX_CHECKS)
        yield Front(front), replicas
    finally:
        for s in replicas:  # while HAProxy's checks still come and end each replica's drain
            s.stop()
        lb.terminate()
        lb.wait()


def all_up(stats_port: int) -> bool:
    """HAProxy's own view (its stats CSV): the three replicas UP."""
    try:
        status, _, body = Front(stats_port).request("GET", "/;csv")
    except OSError:
        return False
    rows = [line.split(",") for line in body.decode().splitlines() if line.startswith("replicas,replica")]
    return status == 200 and len(rows) == 3 and all(r[17] == "UP" for r in rows)


def answered(s: Server, operation: str = "dice_roll") -> float:
    """The requests of ``operation`` a replica answered with 200, from its own /metrics."""
    from prometheus_client.parser import text_string_to_metric_families

    _, _, body = s.request("GET", "/metrics")
    return sum(x.value for family in text_string_to_metric_families(body.decode()) for x in family.samples
               if x.name == "rulesengine_requests_total" and x.labels == {"operation": operation, "status": "200"})


MAX_CHECKS = 50
"""Health checks a replica answers ready before HAProxy must have marked it up (it needs one,
``rise 1``): a bound counted by the replicas, not by a clock."""


def health_checks(s: Server) -> float:
    """The ``/readyz`` requests (HAProxy's health checks) a replica answered ready."""
    return answered(s, "readyz")


def test_a_load_run_through_haproxy_spreads_across_all_three_replicas(cluster):
    front, replicas = cluster
    n = 60
    for seed in range(n):
        assert front.post("/api/dice_roll", {"expression": "1d20", "seed": seed})[0] == 200
    counts = [answered(s) for s in replicas]
    assert sum(counts) == n
    assert all(c > 0 for c in counts), counts


def test_stopping_one_replica_mid_run_loses_no_request(cluster):
    front, replicas = cluster
    n, clients = 240, 4
    statuses: list[int] = []
    lock = threading.Lock()
    halfway = threading.Event()

    def client(k: int) -> None:
        for i in range(n // clients):
            status = front.post("/api/dice_roll", {"expression": "3d6", "seed": k * n + i})[0]
            with lock:
                statuses.append(status)
                if len(statuses) == n // 3:
                    halfway.set()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    wait_for(halfway.is_set, "a third of the requests answered", lambda: any(t.is_alive() for t in threads))
    replicas[1].stop()  # SIGTERM while requests keep coming
    for t in threads:
        t.join()  # each request ends: answered, or at the client's own socket timeout
    assert statuses == [200] * n
    assert answered(replicas[0]) + answered(replicas[2]) > 0
