"""The test session's own store of parsed expressions (rulesengine/dice/tree_store.py): the
tests and the commands they start write there, never in the user's cache."""

from __future__ import annotations

import os
import tempfile

os.environ["RULESENGINE_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulesengine-test-cache-")
os.environ.pop("RULESENGINE_CACHE", None)
