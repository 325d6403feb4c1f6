"""The session's service (see tests/service_support.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service_support import Server
from webdriver import Browser, browser_missing


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    for extra in ("starlette", "uvicorn"):
        pytest.importorskip(extra, reason="the service's HTTP tests need the 'serve' extra (starlette, uvicorn)")
    s = Server("--time-limit", "30")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the playground's tests (skipped, saying why, where there is none)."""
    why = browser_missing()
    if why:
        pytest.skip(f"PLAYGROUND BROWSER TEST SKIPPED: {why}")
    b = Browser()
    yield b
    b.close()
