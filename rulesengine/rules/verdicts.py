"""Files found free of errors before, so that loading one again builds only what is used.

Loading a ruleset checks the whole file: its schema, then every check, procedure and table
built and checked together (:class:`~rulesengine.rules.build.Builder`). A command that runs
one check of a twelve-check file paid for all twelve on every call, about as much as the
rest of a small command together (issue 33: the floor of every pool row). Yet the file is
almost always the one loaded last time, unchanged.

So once a file has loaded without an error, that is kept on disk (the store of
:mod:`rulesengine.disk_store`, named by the source files that decide whether a file loads and
by the schema, so that any change of them starts afresh): the verdict of that very text at
that very path. Loaded again,
unchanged, the file is not checked again; a check asked for is built alone, with the
tables it may read (:func:`build_alone`), and the whole file only when something asks for
all of it (its procedures, its warnings, a listing of every check).

A check is built alone only where that gives the very model the whole file gives
(:func:`stands_alone`): a procedure may add to what the odds of the checks it runs keep of
their dice, so a check whose name any procedure mentions is built with the whole file.
Building alone still finds every error of the check itself; should it find one (a verdict
can only be wrong if the store was tampered with), the whole file is loaded as before and
its first error raised.
"""

from __future__ import annotations

from typing import Any

from ..disk_store import DiskStore, engine_files
from ..limits import DEFAULT_LIMITS, Limits
from ..shipped import ruleset_schema_file
from .document import Document
from .model import RulesetModel

_STORE: DiskStore | None = None


def _sources() -> tuple[str, ...]:
    """The files whose change may change whether a file loads: the engine's modules that load
    one (the package's own, its rules and its dice language) and the file format's schema."""
    return (*engine_files("rules", "dice"), str(ruleset_schema_file()))


def _store() -> DiskStore:
    global _STORE
    if _STORE is None:
        _STORE = DiskStore("verdicts", _sources(), max_entries=256)
    return _STORE


def clean_before(doc: Document, limits: Limits) -> bool:
    """Whether this very file (its path and text) loaded without an error before, with the
    default limits (the only ones a verdict is kept for), and is a mapping with an id, as
    every such file is (the store is input too: what a verdict claims is not taken on
    trust where it is cheap to see)."""
    return limits == DEFAULT_LIMITS and isinstance(doc.data, dict) and isinstance(doc.data.get("ruleset"), str) \
        and isinstance(doc.data.get("checks") or {}, dict) and _store().get(doc.identity) == 1


def remember_clean(doc: Document, limits: Limits) -> None:
    """Keep that ``doc`` loaded without an error (with the default limits only; the caller
    asked :func:`clean_before` first, and found no verdict)."""
    if limits == DEFAULT_LIMITS:
        _store().put(doc.identity, 1)


def _mentions(data: Any, word: str) -> bool:
    """Whether ``word`` is any key or text anywhere in ``data`` (an over-estimate of whether
    a procedure names a check: a check named in a description counts too)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if word in item:
                return True
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False


def stands_alone(doc: Document, name: str) -> bool:
    """Whether check ``name`` built alone is the check the whole file builds: no procedure
    mentions it (a procedure may add to what the check's odds keep of its dice)."""
    return not _mentions(doc.data.get("procedures") or {}, name)


def build_alone(doc: Document, limits: Limits, name: str) -> RulesetModel | None:
    """The model of the file with its tables and the one check ``name`` (which
    :func:`stands_alone`), no procedure; None if building it finds an error."""
    from ..dice.parser import TreeSet
    from .build import Builder, ruleset_model
    from .scope import escape_pointer

    builder = Builder(doc, limits)
    trees = TreeSet(doc.text, limits)
    try:
        tables = builder.build_tables(doc.data.get("tables") or {})
        check = builder.check(name, doc.data["checks"][name], f"/checks/{escape_pointer(name)}")
        if check is None or not builder.ok:
            return None
        return ruleset_model(doc, tables, {name: check}, {})
    except _NOT_ITS_SHAPE:  # a verdict planted on a file the schema refuses: the whole file says why
        return None
    finally:
        trees.keep(())  # only reads the file's set of trees: the whole file's build keeps it


_NOT_ITS_SHAPE = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError)
"""What building a check the schema did not pass may raise (the builder assumes its shapes)."""
