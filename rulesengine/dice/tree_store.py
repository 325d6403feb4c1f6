"""Parsed expressions kept on disk between processes (:mod:`rulesengine.disk_store`), so that
a fresh process need not load the parser for an expression it has read before.

Loading the parser and its lexer costs a cold call about 20 ms before its first expression
is read, more than working out the odds (issue 18); the same expressions come back run
after run (a ruleset's, the dice a player types). So each syntax tree parsed with the
default limits is kept as plain JSON and read back instead of parsed: decoded only into
the syntax tree's own record classes, by name from a fixed table, and only for the very
text it was made from, by the parser that made it (the store's folder is named by the
files below).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from . import ast
from ..disk_store import DiskStore, digest
from ..records import Record, fields

_NODES: dict[str, type] = {cls.__name__: cls for cls in (
    ast.Die, ast.Cond, ast.CondExpr, ast.Keep, ast.Explode, ast.Reroll, ast.RerollRank, ast.CountDice,
    ast.KeepFace, ast.Clamp, ast.Dice, ast.Num, ast.Str, ast.Bool, ast.Name, ast.Neg, ast.Binary,
    ast.Compare, ast.Logic, ast.Not, ast.Call, ast.SetKeep, ast.PoolKeep, ast.Group, ast.Labeled)}
"""Every class a stored tree may hold; a name not here makes the entry unreadable."""

NODES: tuple[type, ...] = tuple(_NODES.values())
"""Those classes (what :mod:`.parser` checks a tree read back for)."""

EXPRESSIONS: tuple[type, ...] = (
    ast.Dice, ast.Num, ast.Str, ast.Bool, ast.Name, ast.Neg, ast.Binary, ast.Compare, ast.Logic, ast.Not,
    ast.Call, ast.SetKeep, ast.PoolKeep, ast.Group, ast.Labeled)
"""The classes a whole expression may be: the root of a stored tree is one of these."""

_SOURCES = ("grammar.lark", "parser.py", "ast.py", "syntax_errors.py", "tree_store.py")
"""The files whose every change may change what a text parses to."""


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


_ARGUMENTS: dict[type, tuple[str, ...]] = {cls: fields(cls) for cls in _NODES.values()}
"""Each class's fields in the order its constructor takes them (every field of a node is one)."""

_POST_INIT = frozenset(cls for cls in _NODES.values() if hasattr(cls, "__post_init__"))
"""The classes whose constructor ends with ``__post_init__`` (so does :func:`decode`)."""

_new = object.__new__
_set = object.__setattr__


def decode(data: Any) -> Any:
    """The tree :func:`encode` wrote; ValueError for anything it could not have written."""
    if isinstance(data, dict):
        cls = _NODES.get(data.get("@", ""))
        if cls is None:
            raise ValueError("not a stored syntax tree")
        names = _ARGUMENTS[cls]
        if len(data) == len(names) + 1 and all(name in data for name in names):
            # what encode writes, every field once besides "@": each field set from its value,
            # as the class's constructor sets them given all of them, without its checks of
            # what was given (there are no defaults to fill, no keywords to sort out)
            node: Any = _new(cls)
            for name in names:
                _set(node, name, _decoded(data[name]))
            if cls in _POST_INIT:
                node.__post_init__()
            return node
        try:
            return cls(**{k: decode(v) for k, v in data.items() if k != "@"})
        except TypeError as exc:
            raise ValueError(str(exc)) from None
    if isinstance(data, list):
        return tuple([_decoded(x) for x in data])
    if data is None or isinstance(data, (int, str)):
        return data
    raise ValueError("not a stored syntax tree")


_PLAIN = frozenset((int, str, bool, type(None)))
"""What :func:`decode` returns as it is (most of a tree's values: spans, names, numbers)."""


def _decoded(data: Any) -> Any:
    return data if type(data) in _PLAIN else decode(data)


MAX_TREES_PER_PROCESS = 256
"""Trees one process finds in the store or writes to it before it stops writing. The store
pays when a process finds *every* expression it needs stored and so never loads the parser
(about 20 ms); once the parser is loaded, writing an entry costs more than parsing one more
expression. A ruleset has far fewer expressions than this (the largest shipped one, about
50), so every expression of an ordinary file is stored on its first run; a file of thousands
of outcome rules stores its first 256 and parses the rest each run, instead of writing
thousands of files (and emptying the store, whose folder holds at most 4,096 entries) every
run (issue #30, item 6). Reads count too, so that the next run, finding those 256, does not
go on to write 256 more."""

_STORE = DiskStore("trees", tuple(os.path.join(os.path.dirname(__file__), name) for name in _SOURCES),
                   write_budget=MAX_TREES_PER_PROCESS)


MAX_SETS = 256
"""Sets of trees (:func:`read_set`) one process finds or writes before it stops writing them,
and the most the store of sets keeps: as for single trees, a run over more ruleset files
than this stores the first ones and reads them back the next run, instead of writing every
set every run."""

_SETS = DiskStore("treesets", _STORE.sources, max_entries=MAX_SETS, write_budget=MAX_SETS)
"""The trees of a whole ruleset's expressions kept as one entry (see :func:`read_set`)."""

_WAITING: dict[str, Any] = {}
"""Trees read with a set, still as stored, by their text: what :func:`get` looks at first."""


def read_set(name: str) -> frozenset[str]:
    """Read the set of trees stored under ``name`` (the expressions of one ruleset file, by a
    digest of its text): one file read for all of them instead of one per text. Each tree
    waits, as stored, for :func:`get` of its very text, which decodes and checks it as it
    does a tree stored alone. Returns the texts the set holds (none: no set, or the store off)."""
    data = _SETS.get("set " + digest(name))
    if not isinstance(data, dict):
        return frozenset()
    _WAITING.update(data)  # the keys of a JSON object are texts
    return frozenset(data)


def forget_set(texts: Iterable[str]) -> None:
    """Drop what is left of a set read by :func:`read_set` (the trees no :func:`get` took)."""
    for text in texts:
        _WAITING.pop(text, None)


def put_set(name: str, trees: Mapping[str, Any]) -> None:
    """Store ``trees`` (syntax trees by the text each was parsed from, with the default
    limits) as the set of ``name`` (never fails: a store that can't be written is skipped)."""
    if not _SETS.writing():
        return
    try:
        data = {text: encode(tree) for text, tree in trees.items()}
    except RecursionError:
        return
    _SETS.put("set " + digest(name), data)


def get(text: str) -> Any:
    """The stored tree of ``text``, or None (not stored, the store off or unreadable)."""
    data = _WAITING.pop(text, None)  # read with a set: never looked for alone as well
    if data is None:
        data = _STORE.get(text)
    if data is None:
        return None
    try:
        tree = decode(data)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
        return None  # anything :func:`encode` could not have written is a miss
    return tree if isinstance(tree, EXPRESSIONS) else None


def put(text: str, tree: Any) -> None:
    """Store the tree of ``text`` (never fails: a store that can't be written is skipped)."""
    if not _STORE.writing():
        return  # --no-cache, a service, enough trees this process: not even encoded
    try:
        data = encode(tree)
    except RecursionError:
        return
    _STORE.put(text, data)
