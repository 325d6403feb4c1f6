"""Indented JSON text, byte for byte what ``json.dumps(obj, indent=2)`` writes, faster.

With ``indent``, the standard library writes JSON with its pure-Python encoder, token by
token through generators: for the few megabytes of a sweep's odds that took longer than
working the odds out (issue 33, items 5 and 7). Here:

* a list or dict of eight or more items that holds only scalars (strings, numbers,
  true/false/null) is written by the C encoder in one call, its item separator being the
  comma, the newline and the indentation of its depth (one encoder per depth, made once);
  a shorter one costs less written here than the call costs;
* a container that appears more than once in the document (the same object: a sweep's
  values share the rows of a distribution they share, ``run.json_parts.Rendered``) is
  written once for each depth it appears at, and its text used again;
* everything else is written as the standard library's Python encoder writes it: scalars
  by the same functions (``int.__repr__``, ``float.__repr__``, the C string escapers), keys
  converted by the same rules, ``[]``/``{}`` for an empty container.

tests/present/test_json_text.py checks it against ``json.dumps(obj, indent=2)`` itself on
random documents and on the real output of the commands.
"""

from __future__ import annotations

import itertools
import json
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any
from collections.abc import Callable, Iterable

INDENT = "  "
_SCALARS = frozenset({str, int, float, bool, type(None)})
_FLAT_ENCODERS: dict[tuple[int, bool], Callable[[Any], str]] = {}
_FLAT_FROM = 8  # a container of scalars this long or longer is written by the C encoder


def dumps(obj: Any, *, ensure_ascii: bool = True) -> str:
    """``obj`` as ``json.dumps(obj, indent=2, ensure_ascii=ensure_ascii)`` writes it (dicts,
    lists and tuples, str, int, float, bool and None; NaN and infinities as it writes them;
    a TypeError for anything else, and a ValueError for a container inside itself)."""
    out: list[str] = []
    _writer(ensure_ascii, out)(obj, 0)
    return "".join(out)


def _flat_encoder(depth: int, ensure_ascii: bool) -> Callable[[Any], str]:
    """The C encoder writing a container of scalars whose items sit at ``depth``: its item
    separator is ``,``, a newline and that depth's indentation."""
    key = (depth, ensure_ascii)
    encode = _FLAT_ENCODERS.get(key)
    if encode is None:
        encoder = json.JSONEncoder(ensure_ascii=ensure_ascii, separators=(",\n" + INDENT * depth, ": "))
        encode = _FLAT_ENCODERS[key] = encoder.encode
    return encode


def _float_text(o: float) -> str:
    """A float as the standard library's encoder writes it (allow_nan, its default)."""
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


_INF = float("inf")


def _writer(ensure_ascii: bool, out: list[str]) -> Callable[[Any, int], None]:
    """What writes one document into ``out``, piece by piece.

    Where in ``out`` each container with containers inside it was written is kept, by the
    container's identity and depth: every object of the document is alive while it is
    written, so an identity stands for one object, and the same object met again at the
    same depth is the same text again (its pieces joined once, at the second meeting)."""
    string = encode_basestring_ascii if ensure_ascii else encode_basestring
    text_of: dict[type, Callable[[Any], str]] = {
        str: string, int: int.__repr__, float: _float_text,
        bool: lambda o: "true" if o else "false", type(None): lambda o: "null"}
    done: dict[tuple[int, int], tuple[int, int] | str] = {}
    open_: set[int] = set()
    indents = [INDENT * d for d in range(8)]

    def scalar(o: Any) -> str | None:
        """A scalar of a subclass (asked in the standard encoder's order), else None."""
        if isinstance(o, str):
            return string(o)
        if o is None:
            return "null"
        if o is True:
            return "true"
        if o is False:
            return "false"
        if isinstance(o, int):
            return int.__repr__(o)
        if isinstance(o, float):
            return _float_text(o)
        return None

    def key_text(k: Any) -> str:
        """A dict key that is not a str, converted as the standard encoder converts it."""
        if isinstance(k, str):
            return string(k)
        if isinstance(k, float):
            return string(_float_text(k))
        if k is True or k is False or k is None:
            return string(text_of[type(k)](k))
        if isinstance(k, int):
            return string(int.__repr__(k))
        raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")

    def write(o: Any, depth: int) -> None:
        text = scalar(o)
        if text is not None:
            out.append(text)
            return
        if isinstance(o, dict):
            write_dict(o, depth)
        elif isinstance(o, (list, tuple)):
            write_list(o, depth)
        else:
            raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")

    def again(ident: int, depth: int) -> None:
        """A container written before at this depth: its text, joined from its pieces once."""
        seen = done[(ident, depth)]
        if not isinstance(seen, str):
            seen = done[(ident, depth)] = "".join(out[seen[0]:seen[1]])
        out.append(seen)

    def indent(depth: int) -> str:
        while len(indents) <= depth:
            indents.append(INDENT * len(indents))
        return indents[depth]

    def write_dict(o: dict[Any, Any], depth: int) -> None:
        if not o:
            out.append("{}")
            return
        if len(o) >= _FLAT_FROM and _SCALARS.issuperset(map(type, o.values())) \
                and all(type(k) is str for k in o):
            flat = _flat_encoder(depth + 1, ensure_ascii)(o)
            out.append("{\n" + indent(depth + 1) + flat[1:-1] + "\n" + indent(depth) + "}")
            return
        write_entries(o, depth, "{", "}", ((string(k) if type(k) is str else key_text(k)) + ": " for k in o),
                      o.values())

    def write_list(o: list[Any] | tuple[Any, ...], depth: int) -> None:
        if not o:
            out.append("[]")
            return
        if len(o) >= _FLAT_FROM and _SCALARS.issuperset(map(type, o)):
            flat = _flat_encoder(depth + 1, ensure_ascii)(list(o))
            out.append("[\n" + indent(depth + 1) + flat[1:-1] + "\n" + indent(depth) + "]")
            return
        write_entries(o, depth, "[", "]", itertools.repeat(""), o)

    def write_entries(o: Any, depth: int, opening: str, closing: str, labels: Iterable[str],
                      values: Iterable[Any]) -> None:
        """The entries of a dict or list that is not written flat, each after its label (a
        dict's key and ": ", nothing in a list); a container met again at this depth is its
        text written before (:func:`again`)."""
        ident = id(o)
        if (ident, depth) in done:
            again(ident, depth)
            return
        if ident in open_:
            raise ValueError("Circular reference detected")
        open_.add(ident)
        inner = indent(depth + 1)
        start, nested = len(out), False
        lead, sep = opening + "\n" + inner, ",\n" + inner
        for label, v in zip(labels, values):  # noqa: B905 - labels may be endless (a list's)
            kind = type(v)
            to_text = text_of.get(kind)
            if to_text is not None:
                out.append(lead + label + to_text(v))
            else:
                out.append(lead + label)
                if kind is dict:
                    write_dict(v, depth + 1)
                elif kind is list:
                    write_list(v, depth + 1)
                else:
                    write(v, depth + 1)
                nested = True
            lead = sep
        out.append("\n" + indent(depth) + closing)
        open_.discard(ident)
        if nested:
            done[(ident, depth)] = (start, len(out))

    return write
