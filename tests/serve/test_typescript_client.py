"""A TypeScript front end can use the service's OpenAPI document as it is served (issue 36):
openapi-typescript generates types from GET /openapi.json, and a tiny client written against
them (clients/typescript/client.ts) compiles under `tsc --strict`. Needs npm and the npm
registry (the two packages pinned in clients/typescript/package.json); skipped, and said so
in pytest's summary, where npm is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "typescript"
HANG_GUARD_SECONDS = 900  # npm install on a busy machine; not a speed assertion


def test_types_generated_from_the_served_document_compile_with_a_strict_client(server, tmp_path):
    if shutil.which("npm") is None or shutil.which("bash") is None:
        pytest.skip("NO npm here: the TypeScript client check (clients/typescript/check.sh) did NOT run")
    work = tmp_path / "typescript"  # a copy: node_modules/ and the generated types stay out of the checkout
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules", "rulesengine.d.ts",
                                                                 "package-lock.json"))
    done = subprocess.run(["bash", str(work / "check.sh"), f"{server.url}/openapi.json"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr
    generated = (work / "rulesengine.d.ts").read_text(encoding="utf-8")
    assert '"roll-result__check_roll": {' in generated  # a hoisted $defs entry became a type of its own
