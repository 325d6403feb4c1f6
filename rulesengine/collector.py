"""How often a command's process runs Python's cyclic garbage collector (the command line
only: a library caller's interpreter is left as it is).

A command's start-up makes tens of thousands of objects that live as long as the process:
modules, classes, functions, the loaded ruleset's model and syntax trees. At Python's
default the collector looks at young objects once every 700 made, and there it finds
nothing to free: some 5 ms of the floor of issue 33 (one d6 from a ruleset of 12 checks,
about 26,000 objects made). A command runs with a first generation of up to
:data:`YOUNG` objects instead, so that start-up ends before the collector first runs; a
cycle of garbage is still freed, after at most that many objects made instead of 700.
The service (``rulesengine serve``) keeps Python's own thresholds. And when the command
is the process's own (``rulesengine ...``, ``python -m rulesengine ...``), what it made is
left to the process's end (:func:`leaving`) instead of being looked at once more by the
collection Python makes as it exits (some 6 ms more of that floor).
"""

from __future__ import annotations

import gc

YOUNG = 50_000
"""Objects made before the collector first looks at the young ones (Python's default: 700)."""

_PYTHONS = gc.get_threshold()
"""The thresholds before this module raised them (Python's own, unless its caller set some)."""


def collect_less() -> tuple[int, int, int]:
    """Let the first generation grow to :data:`YOUNG` objects; the thresholds as they were."""
    was = gc.get_threshold()
    gc.set_threshold(max(was[0], YOUNG), *was[1:])
    return was


def collect_as(thresholds: tuple[int, int, int] | None = None) -> None:
    """Put back the thresholds :func:`collect_less` returned (None: those of before the first
    call, for the service)."""
    gc.set_threshold(*(thresholds or _PYTHONS))


def leaving() -> None:
    """The process ends with this command: the objects it holds go to the collector's
    permanent generation (:func:`gc.freeze`), which the collection Python makes at exit does
    not look at. Only for a process about to exit: what is frozen is never collected."""
    gc.freeze()
