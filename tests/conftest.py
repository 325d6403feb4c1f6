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

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("exploring", derandomize=False)
settings.load_profile("exploring" if os.environ.get("RULESENGINE_LONG_FUZZ") else "repeatable")

os.environ["RULESENGINE_CACHE_DIR"] = _STORE = tempfile.mkdtemp(prefix="rulesengine-test-cache-")
os.environ.pop("RULESENGINE_CACHE", None)
atexit.register(shutil.rmtree, _STORE, ignore_errors=True)
