"""Work kept on disk between processes, as plain JSON, so that a fresh process need not
redo it: the parsed expressions of the dice language (:mod:`.dice.tree_store`), the
loaded ruleset files (:mod:`.rules.document`), which of them loaded without an error
(:mod:`.rules.verdicts`) and what ``validate`` found in each (:mod:`.validate`).

Most users meet the engine cold: a CLI call in CI or a pre-commit hook, a bot's first
request. Reading a ruleset file costs such a call PyYAML's import and the parsing of the
file, and its expressions the parser's import and set-up (together some 60 ms, where
working out the odds takes one or two: issue 18). The same files and expressions come
back run after run, so each store keeps what was made from a text and gives it back for
the very same text.

A store is input too, and whoever can write its folder could feed it (a shared or
world-writable ``RULESENGINE_CACHE_DIR``, a CI cache restored from another job). So
(issue 30) what the store trusts is written down here, and nothing else:

- **The folder.** The cache folder and each store's folder are used only when they are
  real folders (not links), owned by the user running the engine and writable by no one
  else, as ssh and pip require of theirs; otherwise the store is off for that process
  (every read a miss, nothing written). The engine makes its folders with mode 0700.
- **Its key.** Every entry is signed with a keyed BLAKE2b hash of its store, its text
  and its value, under a random key kept in the cache folder (``store.key``, mode 0600,
  read only when it is a regular file owned by the user and private to them). An entry
  whose signature does not match, a file of another store or another text, or one
  planted by someone who cannot read the key, is a miss and is never decoded.
- **Nothing but regular files, read without following links.** An entry is opened with
  ``O_NOFOLLOW | O_NONBLOCK`` and used only if it is a regular file owned by the user of
  at most :data:`MAX_ENTRY_BYTES` (checked before reading); a link, a FIFO, a device or
  an oversized file is a miss. Temporary files are created with ``O_CREAT | O_EXCL |
  O_NOFOLLOW`` under a random name, then renamed; cleaning a folder opens it with
  ``O_NOFOLLOW`` and unlinks its entries by name inside it, so a link is removed, never
  the files it points to.
- **What a signed entry holds is still checked by its reader**: a tree must pass the
  parser's own limits (:mod:`.dice.tree_store`), a document its decoder. A cache copied
  with its key from somewhere else (a CI cache restored from a branch you don't trust)
  carries that somewhere's trust: restore caches only from runs you trust, or set
  ``RULESENGINE_CACHE=off``.

Each store's folder is named by the engine's version and the size and modification time
of the source files that decide what a text becomes, so an upgrade or an edit starts a new
folder. The :data:`KEEP_VERSIONS` folders of a store used last are kept, the others removed
when a new one is made: two engines sharing one cache folder (a checkout and its pre-commit
hook's environment, two virtualenvs in one CI job) each keep theirs, rather than each
removing the other's on every run and starting cold. A missing or read-only directory, a full
disk, a corrupt or foreign file: the work is done again, as if there were no store. A
store holds at most :data:`MAX_ENTRIES` entries (fewer if it asks), each at most
:data:`MAX_ENTRY_BYTES`; past that count it is emptied and fills again.

Where: ``$RULESENGINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulesengine``, else
``~/.cache/rulesengine``. Off: ``RULESENGINE_CACHE=off`` (the CLI's ``--no-cache``).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import zlib
from typing import Any

try:  # the keyed hash without loading OpenSSL (hashlib costs a cold call ~5 ms)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b

from .version import __version__

MAX_ENTRIES = 4096
"""Entries one store keeps at most (a store may ask for fewer)."""

MAX_ENTRY_BYTES = 1 << 20
"""An entry larger than this (as JSON) is not kept, and a file larger than this is never read."""

KEEP_VERSIONS = 4
"""Folders one store keeps (one per engine and source files that used it), those used last;
each at most :data:`MAX_ENTRIES` entries. A folder is marked used when a process opens it."""

KEY_FILE = "store.key"
"""The name of the signing key in the cache folder."""

_KEY_BYTES = 32
_SIGNATURE_CHARS = 64  # hex of a 32-byte digest
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
    | getattr(os, "O_BINARY", 0)
_DIR_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def digest(text: str) -> str:
    """A short name for a long text, to store work under (a hex BLAKE2b digest of 32 bytes)."""
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).hexdigest()


def enabled() -> bool:
    return os.environ.get("RULESENGINE_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


def cache_folder() -> str:
    """The folder every store lives in (it may not exist yet)."""
    return os.environ.get("RULESENGINE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesengine")


def _mine(info: os.stat_result) -> bool:
    """Owned by the user running the engine (always true where there are no user ids)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def trusted_folder(info: os.stat_result) -> bool:
    """A real folder, the user's own, that no one else may write."""
    return stat.S_ISDIR(info.st_mode) and _mine(info) and not info.st_mode & 0o022


def _private_folder(path: str) -> bool:
    """Make ``path`` (mode 0700) if it is missing; true if it is then a trusted folder."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        return trusted_folder(os.lstat(path))
    except OSError:
        return False


def _read_private(path: str, limit: int, private: bool = False) -> bytes | None:
    """The bytes of a regular file of the user's, at most ``limit`` of them, read without
    following a link or blocking on a FIFO; None for anything else (``private``: the file
    must also be unreadable to others)."""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except (OSError, ValueError):
        return None
    with open(descriptor, "rb") as handle:
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode) or not _mine(info) or info.st_size > limit \
                    or (private and info.st_mode & 0o077):
                return None
            data = handle.read(limit + 1)
        except OSError:
            return None
    return data if len(data) <= limit else None


def _write_new(folder: str, name: str, data: bytes) -> str:
    """Write ``data`` to a new file under a random name in ``folder`` (never through a
    link or over another file) and return its path; OSError if it can't."""
    path = os.path.join(folder, f"{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with open(descriptor, "wb") as handle:
            handle.write(data)
    except OSError:
        _unlink_quietly(path)
        raise
    return path


def _unlink_quietly(path: str, dir_fd: int | None = None) -> None:
    try:
        os.unlink(path, dir_fd=dir_fd)
    except OSError:
        pass


def _mark_used(folder: str) -> None:
    """Set the folder's time to now: the store's folders used last are the ones kept."""
    try:
        os.utime(folder)
    except OSError:
        pass  # a read-only cache: it is only used, never cleaned, by this process


def _empty_folder(path: str, remove: bool = False) -> None:
    """Unlink every entry of the folder ``path`` by name inside it, opened without following
    a link (a link in it is removed, not what it points to; a folder in it is left); then
    remove the folder itself if ``remove``. A link at ``path`` is only unlinked itself."""
    try:
        descriptor = os.open(path, _DIR_FLAGS)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            _unlink_quietly(path)  # a link (or a file) named like a store folder: the name goes, nothing else
        return
    try:
        if not trusted_folder(os.fstat(descriptor)):
            return
        for name in os.listdir(descriptor):
            _unlink_quietly(name, dir_fd=descriptor)
    finally:
        os.close(descriptor)
    if remove:
        try:
            os.rmdir(path)
        except OSError:
            pass


def _load_key(base: str) -> bytes | None:
    """The store's signing key in ``base``: read if it is there, made if not (None: unusable)."""
    path = os.path.join(base, KEY_FILE)
    for _ in range(2):
        data = _read_private(path, 2 * _KEY_BYTES, private=True)
        if data is not None and len(data) == 2 * _KEY_BYTES:
            try:
                return bytes.fromhex(data.decode("ascii"))
            except ValueError:
                return None
        if os.path.lexists(path):
            return None  # someone else's, a link, a half-written or damaged key: no store
        try:  # written whole under another name, then linked in: no reader sees half a key
            tmp = _write_new(base, KEY_FILE, os.urandom(_KEY_BYTES).hex().encode("ascii"))
        except OSError:
            return None
        try:
            os.link(tmp, path)
        except OSError:
            pass  # another process made it first: read theirs
        finally:
            _unlink_quietly(tmp)
    return None


def engine_files(*parts: str) -> tuple[str, ...]:
    """The engine's source files (``.py``, and the grammar's ``.lark``) that name a store's
    folder: the package's own modules, and those of its subpackages ``parts`` (every one
    when none is given), in a fixed order."""
    root = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(root, n) for n in sorted(os.listdir(root)) if n.endswith(".py")]
    for part in parts or sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n))
                                and not n.startswith((".", "__"))):
        for folder, subfolders, names in os.walk(os.path.join(root, part)):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "__")))
            found += [os.path.join(folder, n) for n in sorted(names) if n.endswith((".py", ".lark"))]
    return tuple(found)


class DiskStore:
    """One kind of work kept on disk (``kind`` names its folders), valid while the files
    ``sources`` (paths) are as they are. ``write_budget``: entries one process may find or
    write before it stops writing (None: no bound), for a store that pays only when *every*
    entry a process needs is there (see :data:`rulesengine.dice.tree_store.MAX_TREES_PER_PROCESS`)."""

    def __init__(self, kind: str, sources: tuple[str, ...], max_entries: int | None = None,
                 write_budget: int | None = None) -> None:
        self.kind = kind
        self.sources = sources
        self.max_entries = max_entries
        self.write_budget = write_budget
        self.used = 0  # entries this process found here or wrote, counted against write_budget
        self.folder: str | None = None
        self.key: bytes | None = None
        self.ready = False
        self.count: int | None = None  # entries in the folder, counted before the first write
        self.broken = False  # a write failed: this process writes no more

    def where(self) -> str | None:
        """The folder of this store's entries, made and checked (None: no store this process)."""
        if self.ready:
            return self.folder
        self.ready, self.folder, self.key = True, None, None
        base = cache_folder()
        try:
            stamp = [__version__] + [f"{os.path.basename(p)}:{st.st_size}:{st.st_mtime_ns}"
                                     for p in self.sources for st in (os.stat(p),)]
        except OSError:
            return None
        folder = os.path.join(base, f"{self.kind}-{zlib.crc32(chr(10).join(stamp).encode()):08x}")
        try:
            os.makedirs(os.path.dirname(base) or ".", exist_ok=True)
        except OSError:
            return None
        if not _private_folder(base):
            return None
        new = not os.path.lexists(folder)
        if not _private_folder(folder):
            return None
        self.key = _load_key(base)
        if self.key is None:
            return None
        if new:
            self._remove_other_versions(base, folder)
        else:
            _mark_used(folder)
        self.folder = folder
        return folder

    def _remove_other_versions(self, base: str, folder: str) -> None:
        """Remove this store's other folders but the ``KEEP_VERSIONS - 1`` used last (a link or
        a file named like one is removed whatever its time, and what it points to is left)."""
        try:
            names = os.listdir(base)
        except OSError:
            return
        kept: list[tuple[int, str]] = []
        for name in names:
            other = os.path.join(base, name)
            if not name.startswith(self.kind + "-") or other == folder:
                continue
            try:
                info = os.lstat(other)
            except OSError:
                continue
            if trusted_folder(info):
                kept.append((info.st_mtime_ns, other))
            else:
                _empty_folder(other, remove=True)
        kept.sort(reverse=True)
        for _, other in kept[KEEP_VERSIONS - 1:]:
            _empty_folder(other, remove=True)

    def path(self, key: str) -> str | None:
        folder = self.where()
        if folder is None:
            return None
        raw = key.encode("utf-8", "surrogatepass")  # a checksum names the file; the entry holds the key
        return os.path.join(folder, f"{zlib.crc32(raw):08x}{len(raw):x}.json")

    def _signature(self, body: bytes) -> bytes:
        assert self.key is not None
        digest = blake2b(self.kind.encode("ascii") + b"\x00" + body, key=self.key, digest_size=32)
        return digest.hexdigest().encode("ascii")

    def get(self, key: str) -> Any:
        """What was stored for ``key``, or None."""
        if not enabled():
            return None
        path = self.path(key)
        if path is None:
            return None
        data = _read_private(path, MAX_ENTRY_BYTES + _SIGNATURE_CHARS + 1)
        if data is None or data[_SIGNATURE_CHARS:_SIGNATURE_CHARS + 1] != b"\n":
            return None
        signature, body = data[:_SIGNATURE_CHARS], data[_SIGNATURE_CHARS + 1:]
        if signature != self._signature(body):
            return None  # not written by this store with this key: never decoded
        try:
            entry = json.loads(body)
        except (ValueError, RecursionError):
            return None
        if isinstance(entry, dict) and entry.get("key") == key:
            self.used += 1
            return entry.get("value")
        return None

    def writing(self) -> bool:
        """Whether :meth:`put` would write now (the store on, not broken, within its budget)."""
        return enabled() and not self.broken and (self.write_budget is None or self.used < self.write_budget)

    def put(self, key: str, value: Any) -> None:
        """Keep ``value`` (plain JSON data) for ``key``; never fails."""
        if not self.writing():
            return
        path = self.path(key)
        if path is None:
            return
        try:
            body = json.dumps({"key": key, "value": value}, separators=(",", ":")).encode("utf-8")
        except (ValueError, TypeError, RecursionError, UnicodeEncodeError):
            return  # this entry only
        if len(body) > MAX_ENTRY_BYTES:
            return
        try:
            folder = os.path.dirname(path)
            if self.count is None:
                self.count = len(os.listdir(folder))
            if self.count >= min(MAX_ENTRIES, self.max_entries or MAX_ENTRIES):
                _empty_folder(folder)
                self.count = 0
            tmp = _write_new(folder, os.path.basename(path), self._signature(body) + b"\n" + body)
            try:
                os.replace(tmp, path)  # whole or not at all, whatever another process does
            except OSError:
                _unlink_quietly(tmp)
                raise
            self.count += 1
            self.used += 1
        except OSError:
            self.broken = True  # a read-only disk, a full one: don't try again and again
