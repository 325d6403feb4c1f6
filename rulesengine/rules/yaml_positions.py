"""Where things are in a loaded YAML file: JSON pointers, the source text with its line
starts, and :class:`Document` (plain data plus the position of every node).

Split from :mod:`rulesengine.rules.document`, which loads files and re-exports what callers
use from here. Mapping a character of a string value back to its file column (quotes,
escapes, folded lines) lives here too, because only :meth:`Document.scalar_column` needs it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any
from collections.abc import Iterable, Iterator

from ..errors import Location
from ..records import Record, field

# YAML line breaks. str.splitlines() agrees with these once the characters above are gone.
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
LINE_BREAK_CHARS = "\r\n\x85\u2028\u2029"

# Escapes of double-quoted scalars that stand for one character (PyYAML's table).
_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b",
    "f": "\x0c", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def to_pointer(parts: Iterable[str | int]) -> str:
    """Build an RFC 6901 JSON pointer from path parts (``["checks", 0]`` -> ``/checks/0``).

    Handy for turning ``jsonschema``'s ``error.absolute_path`` into a pointer that
    :meth:`Document.location` understands.
    """
    return "".join("/" + escape_pointer_token(str(part)) for part in parts)


def escape_pointer_token(token: str) -> str:
    """Escape one pointer token (``~`` first, so ``/`` -> ``~1`` is not re-escaped)."""
    return token.replace("~", "~0").replace("/", "~1")


class SourceText:
    """The decoded text of one file with its line starts, to turn marks into Locations."""

    __slots__ = ("path", "text", "starts")

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        # starts[i] is the index of line i (0-based). A trailing line break opens one more
        # (empty) line, which is where PyYAML puts end-of-stream marks.
        starts = [0]
        pos = 0
        for line in text.splitlines(True):
            pos += len(line)
            if line[-1] in LINE_BREAK_CHARS:
                starts.append(pos)
        self.starts = starts

    def line_text(self, line0: int) -> str:
        """Text of 0-based line ``line0`` without its line break ("" past the end)."""
        if not 0 <= line0 < len(self.starts):
            return ""
        end = self.starts[line0 + 1] if line0 + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line0]:end].rstrip(LINE_BREAK_CHARS)

    def index(self, line0: int, col0: int) -> int:
        """Character index of a 0-based (line, column), clamped to the text."""
        line0 = min(max(line0, 0), len(self.starts) - 1)
        return min(self.starts[line0] + max(col0, 0), len(self.text))

    def line_col(self, index: int) -> tuple[int, int]:
        """0-based (line, column) of a character index."""
        line0 = bisect_right(self.starts, index) - 1
        return line0, index - self.starts[line0]

    def loc(self, line0: int, col0: int, length: int = 1, pointer: str | None = None) -> Location:
        """A :class:`Location` from 0-based coordinates, clamped onto an existing line."""
        last = len(self.starts) - 1
        if line0 > last:
            line0, col0 = last, len(self.line_text(last))
        line0, col0 = max(line0, 0), max(col0, 0)
        text = self.line_text(line0)
        # Never underline past the end of the line (but always at least one column).
        length = max(1, min(length, len(text) - col0)) if col0 < len(text) else 1
        return Location(self.path, line0 + 1, col0 + 1, pointer, length, text)

    def mark_loc(self, mark: Any, length: int = 1, pointer: str | None = None) -> Location:
        return self.loc(mark.line, mark.column, length, pointer)


class Document(Record):
    """A loaded ruleset file: its plain data plus the position of every node.

    ``data`` is plain ``dict``/``list``/``str``/``int``/``float``/``bool``/``None`` data.
    An alias shares the anchored object, so do not mutate ``data`` in place. Positions
    live in flat dicts keyed by JSON pointer (values and mapping keys separately); nodes
    that came from an alias have no positions of their own and report the alias.
    """

    path: str
    text: str
    data: Any
    _source: SourceText = field(repr=False, compare=False, default=None)
    # pointer -> (line0, col0, length) of the value node / of the mapping key
    _values: dict[str, tuple[int, int, int]] = field(repr=False, compare=False, default_factory=dict)
    _keys: dict[str, tuple[int, int, int]] = field(repr=False, compare=False, default_factory=dict)
    # pointers whose value is an alias (their descendants report the alias' position)
    _aliases: frozenset = field(repr=False, compare=False, default_factory=frozenset)
    # pointer -> (style, content start index, end index, raw scalar text) for scalar values
    _scalars: dict = field(repr=False, compare=False, default_factory=dict)

    @property
    def identity(self) -> str:
        """This very file, as the disk store keeps an entry of it (a verdict, a report): its
        path and its text (a path holds no NUL)."""
        return self.path + "\x00" + self.text

    def to_plain(self) -> dict[str, Any]:
        """Everything but the path and text, as plain JSON data (see :meth:`from_plain`)."""
        return {"data": self.data, "values": self._values, "keys": self._keys, "aliases": sorted(self._aliases),
                "scalars": self._scalars}

    @staticmethod
    def from_plain(path: str, text: str, plain: dict[str, Any]) -> Document:
        """The document :meth:`to_plain` wrote for this path and text (KeyError, TypeError or
        ValueError for anything it could not have written)."""
        def positions(table: dict) -> dict[str, tuple]:
            return {str(k): tuple(v) for k, v in table.items()}

        if not isinstance(plain["data"], dict):  # a loaded ruleset is a mapping, always
            raise ValueError("not a stored ruleset document")
        return Document(path, text, plain["data"], SourceText(path, text), positions(plain["values"]),
                        positions(plain["keys"]), frozenset(plain["aliases"]), positions(plain["scalars"]))

    def pointers(self) -> Iterator[str]:
        """The JSON pointer of every node that has a position of its own, in file order."""
        return iter(self._values)

    def location(self, pointer: str, *, key: bool = False) -> Location:
        """Where the node at ``pointer`` is (its mapping key if ``key=True``).

        A pointer that does not exist (a missing required property, or a node inside an
        aliased block) falls back to its nearest existing ancestor: the alias itself if
        the ancestor is one, else the ancestor's key (``skill_check:`` reads better than
        the first line inside it), else the ancestor's value. ``Location.pointer`` is
        always the pointer asked for.
        """
        source = self._source
        if key and pointer in self._keys:
            return source.loc(*self._keys[pointer], pointer=pointer)
        if pointer in self._values:
            return source.loc(*self._values[pointer], pointer=pointer)
        ancestor = pointer if pointer.startswith("/") else ""
        while ancestor:
            ancestor = ancestor[: ancestor.rfind("/")]
            if ancestor in self._values:
                break
        if ancestor in self._keys and ancestor not in self._aliases:
            return source.loc(*self._keys[ancestor], pointer=pointer)
        if ancestor in self._values:
            return source.loc(*self._values[ancestor], pointer=pointer)
        return source.loc(0, 0, pointer=pointer)

    def scalar_column(self, pointer: str, offset: int, *, length: int = 1) -> Location:
        """Where character ``offset`` (0-based) of the scalar string at ``pointer`` is.

        Used to put the caret of a dice-expression error on the right file column:
        plain scalars map to start + offset, quoted ones skip the quote and account for
        ``''`` and backslash escapes, multi-line and block (``|``, ``>``) scalars follow
        the folded lines. An offset at or past the end points just after the last
        character. Anything that cannot be mapped (not a scalar, under an alias) falls
        back to :meth:`location`.
        """
        info = self._scalars.get(pointer)
        if info is None:
            return self.location(pointer)
        style, start, end, raw = info
        source = self._source
        offset = max(offset, 0)
        index = None
        # Past the end ("unexpected end of expression"): just after the last visible
        # character, so a block scalar's final line break does not move us a line down.
        last = len(raw.rstrip()) - 1
        if offset < len(raw) and offset <= last:
            index = _map_offset(source.text, style, start, end, raw, offset)
        elif last < 0:
            index = start + 1 if style in ("'", '"') else start
        else:
            found = _map_offset(source.text, style, start, end, raw, last)
            if found is not None:
                index = found + 1
        if index is None:
            return self.location(pointer)
        line0, col0 = source.line_col(min(index, len(source.text)))
        return source.loc(line0, col0, length, pointer)


# --- mapping string offsets to file positions -------------------------------------------


def _units(text: str, style: str | None, start: int, end: int) -> Iterator[tuple[int, str]]:
    """The source characters of a scalar as (index, character the value would hold).

    Folding of line breaks and stripped indentation only ever drop or change *whitespace*,
    so after decoding quote escapes here, the non-space characters of the units and of
    the scalar's value are the same sequence; :func:`_map_offset` aligns on them.
    """
    if style in ("|", ">"):
        # Content starts on the line after the header (`|`, `>-`, `|2 # comment`).
        match = LINE_BREAK.search(text, start, end)
        if match is None:
            return
        start = match.end()
    elif style in ("'", '"'):
        start, end = start + 1, end - 1
    i = start
    while i < end:
        ch = text[i]
        if style == "'" and ch == "'" and i + 1 < end and text[i + 1] == "'":
            yield i, "'"
            i += 2
        elif style == '"' and ch == "\\" and i + 1 < end:
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                yield i, _ESCAPES[nxt]
                i += 2
            elif nxt in _HEX_ESCAPES:
                digits = text[i + 2: i + 2 + _HEX_ESCAPES[nxt]]
                try:
                    decoded = chr(int(digits, 16))
                except ValueError:  # malformed: the parser would have refused it anyway
                    yield i, ch
                    i += 1
                    continue
                yield i, decoded
                i += 2 + len(digits)
            elif nxt in LINE_BREAK_CHARS:  # escaped line break: joins lines, yields nothing
                i += 3 if text.startswith("\r\n", i + 1) else 2
            else:
                yield i, ch
                i += 1
        else:
            yield i, ch
            i += 1


def _map_offset(text: str, style: str | None, start: int, end: int, raw: str,
                offset: int) -> int | None:
    """Index in ``text`` of character ``offset`` of the scalar value ``raw``, or None."""
    units = list(_units(text, style, start, end))
    j = 0
    index = None
    for i in range(offset + 1):
        ch = raw[i]
        if ch.isspace():
            # Whitespace may have been folded: map it to where we are, consume only a
            # matching source character.
            if j < len(units):
                index = units[j][0]
                if units[j][1] == ch:
                    j += 1
            continue
        # Skip source whitespace (indentation, line breaks) up to the same character.
        while j < len(units) and units[j][1] != ch and units[j][1].isspace():
            j += 1
        if j == len(units) or units[j][1] != ch:
            return None
        index = units[j][0]
        j += 1
    return index
