"""Process-wide caches of exact odds, bounded by what they hold, not by how many entries.

A long-running process (a chat bot, the service) works out odds for expression after
expression. Caches bounded only by a count of entries let it grow without end: one entry
may be a million-sided die's distribution, and a cache per expression multiplied by the
parse cache's 1,024 expressions kept 73 MB per refused call (issue 19). So every cache of
distributions here shares one bound, ``limits.MAX_CACHED_WEIGHTS``: each entry is
counted by its size (a distribution's entries, one more for every 64 bits of weight), the
least recently used entries go first,
and an entry bigger than the whole bound is simply not kept. The size is something the
engine counts, so what a process keeps is the same on every machine.

A cached distribution also remembers the budget steps it cost to work out, so that a
computation served from the cache is charged as if it had done the work: otherwise a
second call could go on past the point where a fresh process refuses (issue 19, item 9).
"""

from __future__ import annotations

from _thread import RLock  # threading's own RLock, without importing threading (start-up)
from collections import OrderedDict
from typing import Any
from collections.abc import Hashable

from .limits import MAX_CACHED_WEIGHTS


WORD = 64
"""Bits of weight counted as one unit of size (a Python int stores 30 bits a digit; a
dict entry costs about 100 bytes anyway, so small weights count one per entry)."""


def weights_size(entries: int, bits: int) -> int:
    """The size of ``entries`` exact weights of about ``bits`` bits each."""
    return entries * (1 + bits // WORD)


def fractions_size(fractions) -> int:
    """The size of exact probabilities, each with its own numerator and denominator."""
    return sum(1 + (p.numerator.bit_length() + p.denominator.bit_length()) // WORD for p in fractions)


class SizedCache:
    """A least-recently-used mapping whose values' sizes, with those of every other cache
    of its :class:`SizeAccount`, add up to at most the account's ``bound``; ``held`` is
    this cache's part. Thread-safe (one lock per account): the engine may be called from
    many threads."""

    def __init__(self, account: SizeAccount) -> None:
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.held = 0  # this cache's part of ``account.held``
        self._account = account
        account.caches.append(self)

    def get(self, key: Hashable) -> Any | None:
        with self._account.lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        account = self._account
        size = max(1, size)
        if size > account.bound:
            return
        with account.lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._forget(old[1])
            while account.held + size > account.bound:
                account.evict_one()
            self._entries[key] = (value, size)
            self.held += size
            account.held += size

    def evict_oldest(self) -> None:
        """Drop the least recently used entry (the caller holds the lock)."""
        _, (_, size) = self._entries.popitem(last=False)
        self._forget(size)

    def _forget(self, size: int) -> None:
        self.held -= size
        self._account.held -= size

    def clear(self) -> None:
        with self._account.lock:
            self._account.held -= self.held
            self.held = 0
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class SizeAccount:
    """The shared bound of several :class:`SizedCache`\\ s: when full, the cache holding
    the most gives up its least recently used entry."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.held = 0
        self.caches: list[SizedCache] = []
        self.lock = RLock()

    def resize(self, bound: int) -> None:
        """Set the bound (an operator's choice: ``serve --max-cached``), dropping entries
        until what is held fits."""
        with self.lock:
            self.bound = bound
            while self.held > bound:
                self.evict_one()

    def evict_one(self) -> None:
        """Make room: the cache holding the most drops its least recently used entry
        (the caller holds the lock)."""
        max(self.caches, key=lambda c: c.held).evict_oldest()


ACCOUNT = SizeAccount(MAX_CACHED_WEIGHTS)
"""What every exact-odds cache of the process holds together (``MAX_CACHED_WEIGHTS``)."""

POOL_DISTS = SizedCache(ACCOUNT)
"""Distributions of dice terms, keyed by (rules, number of dice, limits): the value is
``(dist, steps)``, the steps it cost (charged again on every use)."""

ODDS = SizedCache(ACCOUNT)
"""Finished odds of dice expressions, keyed by (text, limits, inputs)."""

CHECK_ODDS = SizedCache(ACCOUNT)
"""Finished odds of checks, keyed by (the check runner's token, its inputs): counted by
their size like every other entry here, so a process asked for odds at many distinct
inputs keeps what the bound allows, not 257 results a check of whatever size (issue 30)."""
