#!/usr/bin/env python
"""Throughput and latency of ``rulesengine serve`` on loopback, against the Python API in the
same run (the baseline: what one request costs without HTTP).

    python bench/serve.py                 # 8 clients, 1,600 requests per row
    python bench/serve.py --requests 400  # a quicker look
    python bench/serve.py --only replicas # one table only (workers, replicas, memory)

Prints three markdown tables. One (workers): for roll and odds (a shipped check, its odds
cached after the first request, as a real deployment serves them), with one and two uvicorn
workers, requests per second and p50/p99 latency, and the in-process time of the same call.
Two (replicas): the same requests to one replica (one worker) and to three replicas of one
worker each behind HAProxy, as deploy/ runs them (deploy/haproxy.cfg, its replicas rewritten
to loopback ports, as tests/serve/test_deploy.py does), and one replica behind HAProxy (what
the proxy's hop costs); where ``haproxy`` is not installed, the three replicas are shared by
the clients themselves (each client keeps to one replica) and the table says so. The load
generator is a fixed number of requests from a fixed number of threads over keep-alive
connections (standard library only): it stops by itself; a guard stops a stuck run. Three:
the resident size of one worker after N distinct requests (``--distinct``), each leaving an
entry in a cache, beside docs/limits.md's ceiling for the default ``--max-cached``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUARD_SECONDS = 300

REQUESTS = {
    "roll": ("/api/roll", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12}}),
    "odds": ("/api/odds", {"ruleset": "gurps-4e", "name": "success_roll", "inputs": {"skill": 12}}),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "rulesengine", "serve", "--port", str(port),
                                "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the service did not start")


def load(ports: int | list[int], path: str, body: dict, total: int, clients: int) -> tuple[float, list[float]]:
    """``total`` requests from ``clients`` threads, client n to ``ports[n % len(ports)]``;
    (seconds, each request's latency)."""
    ports = [ports] if isinstance(ports, int) else ports
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = total // clients
    failures: list[str] = []

    def client(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", ports[n % len(ports)], timeout=60)
        mine = []
        for i in range(per_client):
            payload = json.dumps({**body, "seed": n * per_client + i} if path.endswith("roll") else body).encode()
            t = time.perf_counter()
            conn.request("POST", path, body=payload, headers={"content-type": "application/json"})
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - t)
            if response.status != 200:
                failures.append(f"{response.status}")
        conn.close()
        with lock:
            latencies.extend(mine)

    # Warm-up: the worker processes load the ruleset and, for odds, fill their caches.
    for i in range(4 * clients):
        conn = http.client.HTTPConnection("127.0.0.1", ports[i % len(ports)], timeout=60)
        conn.request("POST", path, body=json.dumps(body).encode(), headers={"content-type": "application/json"})
        conn.getresponse().read()
        conn.close()
    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(GUARD_SECONDS)
    elapsed = time.perf_counter() - t0
    if failures:
        raise SystemExit(f"{len(failures)} requests failed: {failures[:5]}")
    return elapsed, latencies


def haproxy_config(ports: list[int], front: int, stats: int) -> str:
    """deploy/haproxy.cfg with its replicas on loopback ports instead of Docker's DNS (the same
    rewrite as tests/serve/test_deploy.py's ``loopback_config``): the same balancing, retries
    and health checks."""
    cfg = (ROOT / "deploy" / "haproxy.cfg").read_text(encoding="utf-8")
    cfg = re.sub(r"\nresolvers docker\n(    .*\n)+", "\n", cfg)
    template = re.search(r"    server-template .*\n", cfg).group(0)
    cfg = cfg.replace(template, "".join(f"    server replica{i} 127.0.0.1:{p}\n" for i, p in enumerate(ports, 1)))
    cfg = cfg.replace("bind :8000", f"bind 127.0.0.1:{front}").replace("bind :8404", f"bind 127.0.0.1:{stats}")
    cfg = cfg.replace("default-server inter 2s", "default-server inter 200ms")
    cfg = re.sub(r"\n    log stdout.*\n", "\n", cfg)
    if "resolvers" in cfg or "rulesengine:8000" in cfg:
        raise SystemExit("deploy/haproxy.cfg changed: bench/serve.py cannot rewrite it to loopback")
    return cfg


def start_haproxy(haproxy: str, ports: list[int], folder: Path) -> tuple[subprocess.Popen, int]:
    """HAProxy in front of ``ports``, once it has marked every replica up (its stats CSV)."""
    front, stats = free_port(), free_port()
    (folder / "haproxy.cfg").write_text(haproxy_config(ports, front, stats), encoding="utf-8")
    process = subprocess.Popen([haproxy, "-db", "-f", str(folder / "haproxy.cfg")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", stats, timeout=5)
            conn.request("GET", "/;csv")
            rows = [line.split(",") for line in conn.getresponse().read().decode().splitlines()
                    if line.startswith("replicas,replica")]
            if len(rows) == len(ports) and all(r[17] == "UP" for r in rows):
                return process, front
        except OSError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit("HAProxy did not mark the replicas up")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=30)


def replicas(total: int, clients: int, rounds: int) -> tuple[list[tuple], str]:
    """Rows (setup, replicas, request, requests, req/s, p50 ms, p99 ms) for one replica on its
    own, one behind HAProxy and three behind HAProxy (or shared by the clients without it):
    of ``rounds`` rounds, each setup in turn (a busy spell of the machine lands on all of them),
    the round of median throughput."""
    import tempfile

    haproxy = shutil.which("haproxy")
    runs: dict[tuple[str, int, str], list[tuple]] = {}
    servers = [start(1) for _ in range(3)]
    try:
        setups: list[tuple[str, int, list[int] | None]] = [("direct", 1, [servers[0][1]])]
        setups += [("HAProxy", 1, None), ("HAProxy", 3, None)] if haproxy else \
            [("clients share them (no haproxy)", 3, [port for _, port in servers])]
        for _ in range(rounds):
            for setup, n, given in setups:
                with tempfile.TemporaryDirectory() as folder:
                    lb, ports = None, given
                    if ports is None:
                        lb, front = start_haproxy(haproxy, [port for _, port in servers[:n]], Path(folder))
                        ports = [front]
                    try:
                        for kind, (path, body) in REQUESTS.items():
                            elapsed, latencies = load(ports, path, body, total, clients)
                            latencies.sort()
                            p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
                            runs.setdefault((setup, n, kind), []).append(
                                (setup, n, kind, len(latencies), len(latencies) / elapsed,
                                 statistics.median(latencies) * 1000, p99 * 1000))
                    finally:
                        if lb is not None:
                            stop(lb)
    finally:
        for process, _ in servers:
            stop(process)
    rows = [sorted(done, key=lambda row: row[4])[len(done) // 2] for done in runs.values()]
    version = "no haproxy"
    if haproxy:
        said = subprocess.run([haproxy, "-v"], capture_output=True, text=True).stdout
        version = "HAProxy " + (re.search(r"version (\S+)", said) or re.search(r"(\S+)", said or "?")).group(1)
    return rows, version


def in_process(kind: str, n: int = 2000) -> float:
    """Seconds per call of the same operation through the Python API (the baseline)."""
    import rulesengine

    check = rulesengine.load("gurps-4e").check("success_roll")
    call = (lambda i: check.roll({"skill": 12}, seed=i).to_dict()) if kind == "roll" else \
        (lambda i: check.odds({"skill": 12}).to_dict())
    call(0)
    t = time.perf_counter()
    for i in range(n):
        call(i)
    return (time.perf_counter() - t) / n


def rss_mb(pid: int) -> float | None:
    """The resident size of a process, from /proc (None where there is none)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


WIDE = ("ruleset: wide\nname: Wide\nversion: '1'\nsource: bench\nlicense: none\n"
        "checks:\n  hit:\n    inputs:\n      bonus: {type: integer, min: 0, max: 100000}\n"
        "    roll: 1d300 + 1d300\n    result: roll + bonus\n"
        "    outcomes:\n      - {name: high, when: 'result >= 300 + bonus', success: true}\n"
        "      - {name: low, success: false}\n")


def memory(total: int) -> list[tuple[int, float | None]]:
    """The server's RSS after 0, 1/4, 1/2 and all of ``total`` distinct requests (odds of a
    check at distinct inputs and of distinct dice expressions: each leaves an entry in a
    cache), one worker, the default cache bound (``--max-cached``)."""
    process, port = start(1)
    marks = {0, total // 4, total // 2, total}
    sizes = [(0, rss_mb(process.pid))]
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for i in range(1, total + 1):
            path, body = (("/api/dice_odds", {"expression": f"d{100 + i} + {i}"}) if i % 2 else
                          ("/api/odds", {"yaml": WIDE, "name": "hit", "inputs": {"bonus": i}}))
            conn.request("POST", path, body=json.dumps(body).encode(), headers={"content-type": "application/json"})
            conn.getresponse().read()
            if i in marks:
                sizes.append((i, rss_mb(process.pid)))
        conn.close()
    finally:
        stop(process)
    return sizes


def workers_table(total: int, clients: int) -> None:
    rows = []
    for workers in (1, 2):
        process, port = start(workers)
        try:
            for kind, (path, body) in REQUESTS.items():
                elapsed, latencies = load(port, path, body, total, clients)
                latencies.sort()
                p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
                rows.append((kind, workers, len(latencies), len(latencies) / elapsed,
                             statistics.median(latencies) * 1000, p99 * 1000, in_process(kind) * 1000))
        finally:
            stop(process)
    print("| request | workers | requests | req/s | p50 ms | p99 ms | in-process ms (baseline) | p50 / baseline |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind, workers, n, rps, p50, p99, base in rows:
        print(f"| {kind} | {workers} | {n} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {base:.3f} | {p50 / base:,.0f}× |")


def replicas_table(total: int, clients: int, rounds: int) -> None:
    rows, version = replicas(total, clients, rounds)
    print(f"Replicas (one worker each; {version}; the median of {rounds} rounds):\n")
    print("| request | replicas | in front | requests | req/s | p50 ms | p99 ms | req/s / one replica direct |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    alone = {kind: rps for setup, n, kind, _, rps, _, _ in rows if setup == "direct"}
    for setup, n, kind, count, rps, p50, p99 in sorted(rows, key=lambda r: (r[2], r[1], r[0] != "direct")):
        print(f"| {kind} | {n} | {setup} | {count} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {rps / alone[kind]:.2f} |")


def memory_table(distinct: int) -> None:
    sizes = memory(distinct)
    print("RSS of one worker after N distinct requests (default --max-cached; docs/limits.md's ceiling):\n")
    print("| requests | " + " | ".join(str(n) for n, _ in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    print("| RSS MB | " + " | ".join("?" if mb is None else f"{mb:.0f}" for _, mb in sizes) + " |")


TABLES = ("workers", "replicas", "memory")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1600)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--distinct", type=int, default=2000, help="distinct requests for the memory row")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the replicas table (its median)")
    parser.add_argument("--only", choices=TABLES, action="append", help="this table only (repeatable)")
    args = parser.parse_args()
    os.chdir(ROOT)
    tables = args.only or TABLES
    print(f"rulesengine serve on loopback: {args.clients} clients, keep-alive, {os.cpu_count()} CPUs, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    for i, table in enumerate(tables):
        if i:
            print()
        if table == "workers":
            workers_table(args.requests, args.clients)
        elif table == "replicas":
            replicas_table(args.requests, args.clients, args.rounds)
        else:
            memory_table(args.distinct)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
