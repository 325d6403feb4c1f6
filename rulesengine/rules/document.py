"""Safe YAML loading for ruleset files, keeping the position of every node.

Rulesets are untrusted: homebrew files are shared around and chat bots load whatever a
user pastes. So this module does not use ``yaml.load`` or the composer at all. It reads
the *event stream* of PyYAML's safe parser (libyaml's ``CSafeLoader`` when available) and
builds plain Python data itself, with an explicit stack instead of recursion. That way:

* nothing is ever constructed from a tag, so no ``!!python/...`` object can run code:
  explicit tags other than the standard scalar / map / seq ones are refused (E305);
* deep nesting cannot overflow the interpreter stack: depth is counted and capped (E302);
* aliases are counted and the expanded size of each anchor is known when the alias is
  seen, so a "billion laughs" file is refused after a few microseconds (E304), and an
  alias reuses the anchored Python object instead of copying it;
* every value and every mapping key gets its position recorded in flat dicts keyed by
  RFC 6901 JSON pointer, while :attr:`Document.data` stays plain ``dict``/``list``/scalar
  data that ``jsonschema`` can validate directly. Later layers (schema, semantics, dice
  expressions) turn a pointer back into a file position with :meth:`Document.location`
  or, for a character inside a string, :meth:`Document.scalar_column`.

Scalars are typed exactly as PyYAML's YAML 1.1 ``SafeLoader`` types them (``yes`` is a
bool, ``0x1F`` an int, ``~`` null), with one deliberate difference: timestamps such as
``2024-01-01`` stay strings, so no ``datetime`` objects leak into ruleset data.

Merge keys (``<<: *base``) are *not* supported: they are refused with E305 and a hint,
because their override rules are a common source of surprise and a ruleset can alias a
whole block instead (``key: *base``).

Every failure is a :class:`~rulesengine.errors.LoadError` with one of the codes below, a
:class:`~rulesengine.errors.Location` (line, column and the offending source line, so
``Diagnostic.render()`` draws a caret) and a hint saying what to do.

This module holds the entry points (:func:`load_text`, :func:`load_file` and the file
reading rules) and re-exports what callers use; the parts live in their own modules:
:mod:`.yaml_positions` (pointers, :class:`Document`), :mod:`.yaml_scalars` (tags and scalar
typing), :mod:`.yaml_builder` (the budgeted event builder) and :mod:`.yaml_diagnostics`
(the E3xx codes and the translation of bad text and YAML errors into hints).
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from ..codes import (E_ALIAS, E_BAD_KEY, E_DUPLICATE_KEY, E_ENCODING, E_FILE_TOO_LARGE, E_MULTIPLE_DOCUMENTS,
                     E_NOT_A_MAPPING, E_TAB, E_TAG, E_TOO_DEEP, E_UNREADABLE, E_YAML_SYNTAX)
from ..disk_store import DiskStore
from ..errors import LoadError, Location
from ..limits import DEFAULT_LIMITS, Limits
from .yaml_diagnostics import check_characters, decode_utf8, file_too_large
from .yaml_positions import Document, SourceText, to_pointer

__all__ = [
    "Document",
    "load_text",
    "load_file",
    "to_pointer",
    "E_YAML_SYNTAX",
    "E_TOO_DEEP",
    "E_DUPLICATE_KEY",
    "E_ALIAS",
    "E_TAG",
    "E_FILE_TOO_LARGE",
    "E_ENCODING",
    "E_TAB",
    "E_NOT_A_MAPPING",
    "E_MULTIPLE_DOCUMENTS",
    "E_BAD_KEY",
    "E_UNREADABLE",
    "RULESET_SUFFIXES",
]

YAML_LOADER: Any = None
"""The safe loader class whose parser reads every file; None: libyaml's where it is
installed (about 20x faster), else the pure-Python one. Both produce the same events and
marks; the tests switch this to check that. Only PyYAML's safe loaders belong here.
(PyYAML is imported when a file is first parsed, not before: a file read back from the
store of loaded files needs none of it.)"""


def _loader() -> Any:
    if YAML_LOADER is not None:
        return YAML_LOADER
    import yaml

    return getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

# --- public entry points --------------------------------------------------------------


def load_text(text: str | bytes, path: str | None = None,
              limits: Limits = DEFAULT_LIMITS) -> Document:
    """Load one ruleset document from ``text`` (UTF-8 bytes or str) safely.

    ``path`` only names the source in messages (``"<string>"`` if None). Raises
    :class:`LoadError` for anything that is not a single YAML mapping within ``limits``.
    """
    name = "<string>" if path is None else os.fspath(path)
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > limits.max_file_bytes:
            raise file_too_large(name, str(len(data)), limits)
        text = decode_utf8(data, name)
    elif not isinstance(text, str):
        raise TypeError(f"load_text() needs str or bytes, not {type(text).__name__}")
    elif len(text) > limits.max_file_bytes or \
            len(text.encode("utf-8", "surrogatepass")) > limits.max_file_bytes:
        raise file_too_large(name, "more than " + str(limits.max_file_bytes), limits)
    if text.startswith("\ufeff"):
        text = text[1:]  # the BOM is invisible in editors; columns count without it
    source = SourceText(name, text)
    check_characters(source)
    import yaml

    from .yaml_builder import EventBuilder
    from .yaml_diagnostics import syntax_error

    builder = EventBuilder(source, limits)
    try:
        builder.run(_loader())
    except yaml.YAMLError as exc:
        raise syntax_error(source, exc, limits.max_yaml_depth) from exc
    return builder.document()


def _stored_files() -> DiskStore:
    """The store of loaded ruleset files (rulesengine/disk_store.py), valid while this loader
    and PyYAML are as they are."""
    global _STORED
    if _STORED is None:
        import importlib.util

        here = os.path.dirname(__file__)
        spec = importlib.util.find_spec("yaml")
        sources = tuple(os.path.join(here, name) for name in (
            "document.py", "yaml_builder.py", "yaml_scalars.py", "yaml_positions.py", "yaml_diagnostics.py"))
        _STORED = DiskStore("files", sources + ((spec.origin,) if spec and spec.origin else ()), max_entries=256)
    return _STORED


_STORED: DiskStore | None = None


RULESET_SUFFIXES = (".yaml", ".yml")
"""A ruleset file's name ends in one of these. Other files are not read at all, so that an
error can never quote a line of a file that was not written to be read as a ruleset
(``rulesengine roll /etc/passwd x``, ``/proc/self/environ``)."""


def load_file(path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Read and load a ruleset file; the size limit is checked before reading it all.

    Only a regular file named ``*.yaml`` or ``*.yml`` is read. The file is opened without
    blocking and its type checked on the open descriptor before any read, so a FIFO, a
    device or a folder is refused at once instead of blocking for ever (and the check
    cannot be raced by swapping the file between a ``stat`` and the ``open``)."""
    name = os.fsdecode(os.fspath(path))
    if not name.lower().endswith(RULESET_SUFFIXES):
        raise LoadError("not a ruleset file: its name does not end in .yaml or .yml", Location(name),
                        hint="ruleset files are named <id>.yaml; rename the file if it is one",
                        code=E_UNREADABLE)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(name, flags)
        with open(descriptor, "rb") as handle:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                raise LoadError(f"cannot read the file: it is {_file_kind(info.st_mode)}, not a regular file",
                                Location(name), hint="give the path of a ruleset file (*.yaml)",
                                code=E_UNREADABLE)
            if info.st_size > limits.max_file_bytes:
                raise file_too_large(name, str(info.st_size), limits)
            data = handle.read(limits.max_file_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise LoadError(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", Location(name),
                        hint="check the path and that the file is a readable file",
                        code=E_UNREADABLE) from exc
    if len(data) > limits.max_file_bytes:
        raise file_too_large(name, "more than " + str(limits.max_file_bytes), limits)
    if limits != DEFAULT_LIMITS or YAML_LOADER is not None:
        return load_text(data, name, limits)
    # A file read before, as it is now, comes back from the store of loaded files; what
    # is loaded from the file is the same either way (a file with errors is never stored).
    text = decode_utf8(data, name).removeprefix("\ufeff")
    key = name + "\x00" + text  # a path holds no NUL
    stored = _stored_files().get(key)
    if isinstance(stored, dict):
        try:
            return Document.from_plain(name, text, stored)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError):
            pass  # not what this loader stores: read the file again
    doc = load_text(data, name, limits)
    plain = doc.to_plain()
    try:
        same = json.loads(json.dumps(doc.data)) == doc.data  # no value JSON would change (NaN, a number key)
    except (ValueError, TypeError, RecursionError):
        same = False
    if same:
        _stored_files().put(key, plain)
    return doc


def _file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"
