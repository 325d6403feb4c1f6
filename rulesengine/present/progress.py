"""A progress line on standard error for work that takes a while (exact odds of a big pool, a
long sweep), so a person at a terminal sees that something is happening.

Only when the stream is a terminal, and only after ``delay`` seconds: quick commands, pipes,
CI logs and JSON readers never see it. The standard library is enough (a thread that wakes
twice a second), so no dependency is added for it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


@contextmanager
def progress(what: str, stream: TextIO | None = None, delay: float = 1.0,
             every: float = 0.5) -> Iterator[None]:
    """Show ``… what (N s)`` on ``stream`` (standard error) while the block runs, once it has
    run ``delay`` seconds; the line is cleared when the block ends."""
    out = stream if stream is not None else sys.stderr
    if not (hasattr(out, "isatty") and out.isatty()):
        yield
        return
    import threading  # only at a terminal: start-up

    done = threading.Event()
    shown = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        if done.wait(delay):
            return
        while not done.is_set():
            out.write(f"\r… {what} ({time.monotonic() - start:.0f} s)")
            out.flush()
            shown.set()
            done.wait(every)

    worker = threading.Thread(target=tick, name="rulesengine-progress", daemon=True)
    worker.start()
    try:
        yield
    finally:
        done.set()
        worker.join()
        if shown.is_set():
            out.write("\r\033[K")
            out.flush()
