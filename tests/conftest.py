"""The test session's own store of parsed expressions (rulesengine/dice/tree_store.py): the
tests and the commands they start write there, never in the user's cache; it is removed
when the session ends."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["RULESENGINE_CACHE_DIR"] = _STORE = tempfile.mkdtemp(prefix="rulesengine-test-cache-")
os.environ.pop("RULESENGINE_CACHE", None)
atexit.register(shutil.rmtree, _STORE, ignore_errors=True)
