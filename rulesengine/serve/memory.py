"""What a long-lived service gives back to the system after a large request (issue 30).

Its caches are bounded by size (``--max-cached``, :mod:`rulesengine.cache`), yet under a
long mixed attack a worker's resident size still grew with the number of requests: the
memory a large answer used (``d100000``'s 100,000 rows, a refused ``d1000000 + d1000000``'s
million entries) was freed, but glibc's allocator kept the freed pages, one heap per thread
the request ran in (uvicorn runs each request in a pool thread, and glibc gives threads
arenas of their own, up to eight per core), each heap fragmented differently. Measured in the
process: about 27 MB in use and 200 MB free but kept after 16 rounds of the mixed attack.

So a service process (:func:`bound_heaps`) shares at most :data:`ARENAS` arenas among its
threads (the GIL lets one thread run Python at a time, so they hardly contend) and keeps
every block of :data:`MMAP_BYTES` or more (an answer's text, a big table) in memory of its
own, returned when freed (glibc otherwise raises that threshold to the largest block freed,
up to 32 MB, and later answers' texts then fragment the heaps); and after a large request
(:func:`is_large`: one that did :data:`LARGE_STEPS` steps of work or wrote
:data:`LARGE_BYTES` of answer), once its answer is written and before it is sent, it asks
glibc to give back the whole free pages it holds (:func:`give_back`, ``malloc_trim(0)``:
about 2 ms after a large request, which took a second or more). On another C library these
do nothing.

What stays is Python's own allocator's slack: it returns a 1 MB arena of small objects only
when the arena is wholly empty, so a worker at rest keeps up to about one large request's
worth of partly used arenas (docs/limits.md, "The service under a mixed attack").
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..dice.dist import UNLIMITED, Budget, shared_budget

ARENAS = 2
"""glibc arenas a service process shares among its threads (glibc's own bound is 8 per core)."""

LARGE_STEPS = 100_000
"""A request that did this many steps of work is large: ``d100000`` does 1,100,000 (its
answer written), ``3d6 >= 10`` 144, a shipped check's roll none."""

LARGE_BYTES = 1_048_576
"""An answer this long is large, whatever its work (one taken from a cache costs no steps)."""

MMAP_BYTES = 1_048_576
"""Blocks of this size or more get memory of their own (``M_MMAP_THRESHOLD``, fixed)."""

M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
"""``mallopt``'s parameters (glibc's malloc.h)."""

_LIBC: Any = None


def _glibc() -> Any:
    """The C library when it is glibc (whose ``malloc_trim`` and ``mallopt`` these call), else None."""
    global _LIBC
    if _LIBC is None:
        libc: Any = False
        if platform.libc_ver()[0] == "glibc":
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                libc.malloc_trim, libc.mallopt  # noqa: B018 (both there, or not glibc after all)
            except (OSError, AttributeError):
                libc = False
        _LIBC = libc
    return _LIBC or None


def bound_heaps(arenas: int = ARENAS, mmap_bytes: int = MMAP_BYTES) -> bool:
    """Let the process's threads share at most ``arenas`` malloc arenas, and give every block
    of ``mmap_bytes`` or more memory of its own; True if done (glibc)."""
    libc = _glibc()
    return bool(libc and libc.mallopt(M_ARENA_MAX, arenas) and libc.mallopt(M_MMAP_THRESHOLD, mmap_bytes))


def give_back() -> bool:
    """Return the allocator's free whole pages to the system; True if done (glibc)."""
    libc = _glibc()
    if not libc:
        return False
    libc.malloc_trim(0)
    return True


def is_large(steps: int, written: int) -> bool:
    """Whether a request that did ``steps`` steps of work and wrote ``written`` bytes of
    answer was large enough to give its memory back after it."""
    return steps >= LARGE_STEPS or written >= LARGE_BYTES


@contextmanager
def counted() -> Iterator[Budget]:
    """Count the steps of work done inside the block (every budget made in it charges this
    one, which never refuses): ``.used`` afterwards, whether the work finished or was refused."""
    with shared_budget(UNLIMITED) as work:
        yield work
