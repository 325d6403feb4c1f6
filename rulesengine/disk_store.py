"""Work kept on disk between processes, as plain JSON, so that a fresh process need not
redo it: the parsed expressions of the dice language (:mod:`.dice.tree_store`) and the
loaded ruleset files (:mod:`.rules.document`).

Most users meet the engine cold: a CLI call in CI or a pre-commit hook, a bot's first
request. Reading a ruleset file costs such a call PyYAML's import and the parsing of the
file, and its expressions the parser's import and set-up (together some 60 ms, where
working out the odds takes one or two: issue 18). The same files and expressions come
back run after run, so each store keeps what was made from a text and gives it back for
the very same text.

Safety (a store is input too): JSON only, read back by the caller into its own plain
types, never code, never pickle; an entry is used only for the exact text it was made
from (the entry holds it); and only by the code that made it: each store's folder is
named by the engine's version and the size and modification time of the source files
that decide what a text becomes, so an upgrade or an edit starts a new folder (the old
ones of that store are removed). A missing or read-only directory, a full disk, a corrupt
or foreign file: the work is done again, as if there were no store. A store holds at most
:data:`MAX_ENTRIES` entries (fewer if it asks), each at most :data:`MAX_ENTRY_BYTES`; past
that count it is emptied and fills again.

Where: ``$RULESENGINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulesengine``, else
``~/.cache/rulesengine``. Off: ``RULESENGINE_CACHE=off`` (the CLI's ``--no-cache``).
"""

from __future__ import annotations

import json
import os
import zlib
from typing import Any

from .version import __version__

MAX_ENTRIES = 4096
"""Entries one store keeps at most (a store may ask for fewer)."""

MAX_ENTRY_BYTES = 1 << 20
"""An entry larger than this (as JSON) is not kept: the store stays small, whatever it is fed."""


def enabled() -> bool:
    return os.environ.get("RULESENGINE_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


class DiskStore:
    """One kind of work kept on disk (``kind`` names its folders), valid while the files
    ``sources`` (paths) are as they are."""

    def __init__(self, kind: str, sources: tuple[str, ...], max_entries: int | None = None) -> None:
        self.kind = kind
        self.sources = sources
        self.max_entries = max_entries
        self.folder: str | None = None
        self.ready = False
        self.count: int | None = None  # entries in the folder, counted before the first write
        self.broken = False  # a write failed: this process writes no more

    def where(self) -> str | None:
        """The folder of this store's entries (None: the sources can't be read)."""
        if self.ready:
            return self.folder
        self.ready = True
        base = os.environ.get("RULESENGINE_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesengine")
        try:
            stamp = [__version__] + [f"{os.path.basename(p)}:{st.st_size}:{st.st_mtime_ns}"
                                     for p in self.sources for st in (os.stat(p),)]
        except OSError:
            return None
        self.folder = os.path.join(base, f"{self.kind}-{zlib.crc32(chr(10).join(stamp).encode()):08x}")
        return self.folder

    def path(self, key: str) -> str | None:
        folder = self.where()
        if folder is None:
            return None
        raw = key.encode("utf-8", "surrogatepass")  # a checksum names the file; the entry holds the key
        return os.path.join(folder, f"{zlib.crc32(raw):08x}{len(raw):x}.json")

    def get(self, key: str) -> Any:
        """What was stored for ``key``, or None."""
        if not enabled():
            return None
        path = self.path(key)
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as f:
                entry = json.load(f)
            if isinstance(entry, dict) and entry.get("key") == key:
                return entry.get("value")
        except (OSError, ValueError, RecursionError):
            pass
        return None

    def put(self, key: str, value: Any) -> None:
        """Keep ``value`` (plain JSON data) for ``key``; never fails."""
        if not enabled() or self.broken:
            return
        path = self.path(key)
        if path is None:
            return
        try:
            text = json.dumps({"key": key, "value": value}, separators=(",", ":"))
        except (ValueError, TypeError, RecursionError):
            return  # this entry only
        if len(text) > MAX_ENTRY_BYTES:
            return
        try:
            folder = os.path.dirname(path)
            if self.count is None:
                self.count = self._open(folder)
            if self.count >= min(MAX_ENTRIES, self.max_entries or MAX_ENTRIES):
                for name in os.listdir(folder):
                    os.unlink(os.path.join(folder, name))
                self.count = 0
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)  # whole or not at all, whatever another process does
            self.count += 1
        except OSError:
            self.broken = True  # a read-only disk, a full one: don't try again and again

    def _open(self, folder: str) -> int:
        """Make the folder (removing this store's folders of other versions) and count its entries."""
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)
            parent = os.path.dirname(folder)
            for name in os.listdir(parent):
                other = os.path.join(parent, name)
                if name.startswith(self.kind + "-") and other != folder and os.path.isdir(other):
                    for old in os.listdir(other):
                        os.unlink(os.path.join(other, old))
                    os.rmdir(other)
        return len(os.listdir(folder))
