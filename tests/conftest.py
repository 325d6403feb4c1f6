"""The test session's own store of parsed expressions (rulesengine/dice/tree_store.py): the
tests and the commands they start write there, never in the user's cache; it is removed
when the session ends.

Hypothesis draws the same examples on every default run (a seed from each test's name), so
a test that passes on one checkout passes on the next: a failure there is a change's, never
the draw's. The long fuzz runs (``RULESENGINE_LONG_FUZZ=1``, docs/limits.md) draw new
examples each time: that is where the property tests explore."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

from rulesengine.disk_store import DiskStore

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("exploring", derandomize=False)
settings.load_profile("exploring" if os.environ.get("RULESENGINE_LONG_FUZZ") else "repeatable")

os.environ["RULESENGINE_CACHE_DIR"] = _STORE = tempfile.mkdtemp(prefix="rulesengine-test-cache-")
os.environ.pop("RULESENGINE_CACHE", None)
atexit.register(shutil.rmtree, _STORE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_stored_reports(monkeypatch):
    """In the test process, ``validate`` neither gives nor keeps stored reports
    (rulesengine/validate.py): a test may change the engine (a limit, a search) and must
    see its own report, not one an earlier test kept, nor leave one for the commands later
    tests start, which run the engine as it is. tests/rules/test_stored_reports.py turns
    them on where it tests them."""
    import importlib

    validate = importlib.import_module("rulesengine.validate")  # the module: the package's `validate` is a function
    monkeypatch.setattr(validate, "_REPORTS", DiskStore("reports", (os.devnull + "/none",)))
