"""Shared by the tests of the disk stores (rulesengine/disk_store.py): a piece of Python run
twice in fresh processes that share one store, as two CLI calls in a row would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_twice(code: str, store: Path) -> tuple[list[str], list[str]]:
    """The words ``code`` prints the first time (the store filled) and the second (read back)."""
    env = {**os.environ, "RULESENGINE_CACHE_DIR": str(store)}
    env.pop("RULESENGINE_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    return runs[0].stdout.split(), runs[1].stdout.split()
