"""Parsed expressions kept on disk between processes, so that a fresh process need not load
the parser for an expression it has read before.

Most users meet the engine cold: a CLI call in CI or a pre-commit hook, a bot's first
request. Loading the parser and its lexer costs such a call about 20 ms before its first
expression is read, more than working out the odds (issue 18); the same expressions come
back run after run (a ruleset's, the dice a player types). So each syntax tree parsed with
the default limits is written here, as plain JSON, and read back instead of parsed.

Safety (a cache is input too): JSON only, decoded only into the syntax tree's own record
classes (by name, from a fixed table: never code, never pickle); an entry is used only for
the very text it was made from, and only by the parser that made it: the directory's key
is the engine's version with the size and modification time of the grammar and the
parser's sources, so an upgrade or an edit starts a new store (the old ones are removed).
A missing or read-only directory, a corrupt or foreign file: the expression is parsed, as
if there were no store. The store holds at most :data:`MAX_STORED` entries; past that it
is emptied and fills again.

Where: ``$RULESENGINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulesengine``, else
``~/.cache/rulesengine``. Off: ``RULESENGINE_CACHE=off`` (the CLI's ``--no-cache``).
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

from . import ast
from ..records import Record, fields
from ..version import __version__

MAX_STORED = 4096
"""Entries kept in the store at most (about 1 KB each)."""

_NODES: dict[str, type] = {cls.__name__: cls for cls in (
    ast.Die, ast.Cond, ast.CondExpr, ast.Keep, ast.Explode, ast.Reroll, ast.RerollRank, ast.CountDice,
    ast.KeepFace, ast.Clamp, ast.Dice, ast.Num, ast.Str, ast.Bool, ast.Name, ast.Neg, ast.Binary,
    ast.Compare, ast.Logic, ast.Not, ast.Call, ast.SetKeep, ast.Group, ast.Labeled)}
"""Every class a stored tree may hold; a name not here makes the entry unreadable."""

_SOURCES = ("grammar.lark", "parser.py", "ast.py", "syntax_errors.py", "tree_store.py")
"""The files whose every change may change what a text parses to."""


def enabled() -> bool:
    return os.environ.get("RULESENGINE_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


def encode(node: Any) -> Any:
    """A syntax tree as plain JSON data: each record an object naming its class."""
    if isinstance(node, Record):
        out: dict[str, Any] = {"@": type(node).__name__}
        for name in fields(node):
            out[name] = encode(getattr(node, name))
        return out
    if isinstance(node, tuple):
        return [encode(x) for x in node]
    return node


def decode(data: Any) -> Any:
    """The tree :func:`encode` wrote; ValueError for anything it could not have written."""
    if isinstance(data, dict):
        cls = _NODES.get(data.get("@", ""))
        if cls is None:
            raise ValueError("not a stored syntax tree")
        try:
            return cls(**{k: decode(v) for k, v in data.items() if k != "@"})
        except TypeError as exc:
            raise ValueError(str(exc)) from None
    if isinstance(data, list):
        return tuple(decode(x) for x in data)
    if data is None or isinstance(data, (int, str)):
        return data
    raise ValueError("not a stored syntax tree")


class _Store:
    """The directory of this engine's stored trees, found (and made) on first use."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.ready = False
        self.count: int | None = None  # entries in the folder, counted before the first write
        self.broken = False  # a write failed: this process writes no more

    def where(self) -> Path | None:
        if self.ready:
            return self.folder
        self.ready = True
        base = os.environ.get("RULESENGINE_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesengine")
        here = Path(__file__).resolve().parent
        try:
            stamp = [__version__]
            for name in _SOURCES:
                st = os.stat(here / name)
                stamp.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            return None
        key = f"{zlib.crc32(chr(10).join(stamp).encode()):08x}"
        self.folder = Path(base) / f"trees-{key}"
        return self.folder

    def path(self, text: str) -> Path | None:
        folder = self.where()
        if folder is None:
            return None
        raw = text.encode("utf-8", "surrogatepass")  # a checksum names the file; the entry holds its text
        return folder / f"{zlib.crc32(raw):08x}{len(raw):x}.json"

    def get(self, text: str) -> Any:
        path = self.path(text)
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as f:
                entry = json.load(f)
            if not isinstance(entry, dict) or entry.get("text") != text:
                return None
            return decode(entry["tree"])
        except (OSError, ValueError, KeyError, RecursionError):
            return None

    def put(self, text: str, tree: Any) -> None:
        path = self.path(text)
        if path is None or self.broken:
            return
        try:
            folder = path.parent
            if self.count is None:
                self.count = self._open(folder)
            if self.count >= MAX_STORED:
                for old in folder.iterdir():
                    old.unlink(missing_ok=True)
                self.count = 0
            tmp = folder / f".{path.name}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"text": text, "tree": encode(tree)}, f, separators=(",", ":"))
            os.replace(tmp, path)  # whole or not at all, whatever another process does
            self.count += 1
        except RecursionError:
            return  # this tree only
        except (OSError, ValueError):
            self.broken = True  # a read-only disk, a full one: don't try again and again

    @staticmethod
    def _open(folder: Path) -> int:
        """Make the folder (removing the stores of other versions) and count its entries."""
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            for other in folder.parent.glob("trees-*"):
                if other != folder and other.is_dir():
                    for old in other.iterdir():
                        old.unlink(missing_ok=True)
                    other.rmdir()
        return sum(1 for _ in folder.iterdir())


_STORE = _Store()


def get(text: str) -> Any:
    """The stored tree of ``text``, or None (not stored, the store off or unreadable)."""
    return _STORE.get(text) if enabled() else None


def put(text: str, tree: Any) -> None:
    """Store the tree of ``text`` (never fails: a store that can't be written is skipped)."""
    if enabled():
        _STORE.put(text, tree)
