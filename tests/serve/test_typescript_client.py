"""The TypeScript client (clients/typescript, issue 36) against a live service: openapi-typescript
generates types from GET /openapi.json, the client and its tests compile against them under
`tsc --strict` (check.sh), and the tests run with Node's own runner (`node --test`) against the
session's server, whose address they get in RULESENGINE_URL; the README's snippet runs too and
prints what its comment says. Needs node, npm and the npm registry (the packages pinned in
clients/typescript/package.json); skipped, and said so in pytest's summary, where node or npm
is missing. No clock: each step runs until its process ends."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from service_support import ROOT

CLIENT = ROOT / "clients" / "typescript"
TESTS = CLIENT / "test" / "client.test.ts"


def readme_snippet() -> str:
    """The README's ```ts block, as written."""
    (block,) = re.findall(r"```ts\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    return block


@pytest.fixture(scope="module")
def client(server, tmp_path_factory) -> Path:
    """A copy of clients/typescript (node_modules/, the generated types and dist/ stay out of the
    checkout) with the README's snippet in it, aimed at the session's server, built by check.sh."""
    missing = [tool for tool in ("node", "npm", "bash") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"NO {' or '.join(missing)} here: the TypeScript client's build and tests "
                    "(clients/typescript) did NOT run")
    work = tmp_path_factory.mktemp("client") / "typescript"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules", "dist", "rulesengine.d.ts",
                                                                 "package-lock.json"))
    snippet = readme_snippet()
    assert '"./clients/typescript/client.js"' in snippet and '"http://127.0.0.1:8000"' in snippet
    snippet = snippet.replace('"./clients/typescript/client.js"', '"../client.js"')
    (work / "test" / "readme.ts").write_text(snippet.replace('"http://127.0.0.1:8000"', f'"{server.url}"'),
                                             encoding="utf-8")
    done = subprocess.run(["bash", str(work / "check.sh"), f"{server.url}/openapi.json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return work


def test_types_generated_from_the_served_document_compile_with_a_strict_client(client):
    generated = (client / "rulesengine.d.ts").read_text(encoding="utf-8")
    assert '"roll-result__check_roll": {' in generated  # a hoisted $defs entry became a type of its own
    assert (client / "dist" / "client.js").is_file() and (client / "dist" / "client.d.ts").is_file()


def test_the_client_has_one_method_per_operation_of_the_document(server, client):
    """tsc holds the client to every operationId (`implements EveryOperation`); this says the
    methods are the document's operations, by name, so a new operation cannot go unnoticed."""
    _, document = server.get("/openapi.json")
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    methods = set(re.findall(r"^  (?:async )?(\w+)\(", (CLIENT / "client.ts").read_text(encoding="utf-8"), re.M))
    assert operations <= methods, operations - methods
    assert len(operations) >= 14


def test_the_clients_node_tests_pass_against_the_live_service(server, client):
    done = subprocess.run(["npm", "test", "--silent"], cwd=client, capture_output=True, text=True,
                          env=dict(os.environ, RULESENGINE_URL=server.url))
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    written = len(re.findall(r'^test\("', TESTS.read_text(encoding="utf-8"), re.M))
    assert re.search(rf"^# pass {written}$", report, re.M) and re.search(r"^# fail 0$", report, re.M), report


def test_the_readme_snippet_runs_and_prints_what_its_comment_says(server, client):
    done = subprocess.run(["node", str(client / "dist" / "test" / "readme.js")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    said = readme_snippet().strip().splitlines()[-1].split("//", 1)[1].strip()
    assert done.stdout.strip() == said
    # what it says, from oracles: the Python API's roll for that seed, and 3d6 <= 12 enumerated
    import rulesengine

    outcome = rulesengine.load("gurps-4e").check("success_roll").roll({"skill": 12}, seed=1).outcome
    rolls = [sum(faces) for faces in itertools.product(range(1, 7), repeat=3)]
    assert said == f"{outcome} {Fraction(sum(r <= 12 for r in rolls), len(rolls))}"
