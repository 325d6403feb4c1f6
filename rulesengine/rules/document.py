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
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import yaml

from ..codes import (E_ALIAS, E_BAD_KEY, E_DUPLICATE_KEY, E_ENCODING, E_FILE_TOO_LARGE, E_MULTIPLE_DOCUMENTS,
                     E_NOT_A_MAPPING, E_TAB, E_TAG, E_TOO_DEEP, E_UNREADABLE, E_YAML_SYNTAX)
from ..errors import LoadError, Location
from ..limits import DEFAULT_LIMITS, MAX_YAML_INT_CHARS, Limits

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

# libyaml is ~20x faster; the pure-Python parser produces the same events and marks.
# Tests switch this to exercise both.
_LOADER: type = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

_TAG_PREFIX = "tag:yaml.org,2002:"
_STR = _TAG_PREFIX + "str"
_INT = _TAG_PREFIX + "int"
_FLOAT = _TAG_PREFIX + "float"
_BOOL = _TAG_PREFIX + "bool"
_NULL = _TAG_PREFIX + "null"
_MAP = _TAG_PREFIX + "map"
_SEQ = _TAG_PREFIX + "seq"
_MERGE = _TAG_PREFIX + "merge"
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL})
_ALLOWED_TAGS_TEXT = "!!str, !!int, !!float, !!bool, !!null, !!map and !!seq"

# One resolver instance: for scalars, resolve() only reads the class-level regex table.
_RESOLVER = yaml.resolver.Resolver()

_BOOL_VALUES = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_NULL_VALUES = frozenset({"", "~", "null", "Null", "NULL"})

# Characters YAML 1.1 forbids in a stream (same set as PyYAML's Reader.NON_PRINTABLE).
# Lone surrogates are outside every allowed range, so they are caught here too.
_NON_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# YAML line breaks. str.splitlines() agrees with these once the characters above are gone.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BREAK_CHARS = "\r\n\x85\u2028\u2029"
_ANCHOR = re.compile("[0-9A-Za-z_-]*")

_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x0B: "vertical tab",
                  0x0C: "form feed", 0x1B: "ESC", 0x7F: "DEL", 0xFFFE: "noncharacter",
                  0xFFFF: "noncharacter"}

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
    return "".join("/" + _escape(str(part)) for part in parts)


def _escape(token: str) -> str:
    """Escape one pointer token (``~`` first, so ``/`` -> ``~1`` is not re-escaped)."""
    return token.replace("~", "~0").replace("/", "~1")


def _short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:int`` -> ``!!int``, the way users write it."""
    return "!!" + tag[len(_TAG_PREFIX):] if tag.startswith(_TAG_PREFIX) else tag


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class _Source:
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
            if line[-1] in _BREAK_CHARS:
                starts.append(pos)
        self.starts = starts

    def line_text(self, line0: int) -> str:
        """Text of 0-based line ``line0`` without its line break ("" past the end)."""
        if not 0 <= line0 < len(self.starts):
            return ""
        end = self.starts[line0 + 1] if line0 + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line0]:end].rstrip(_BREAK_CHARS)

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


@dataclass(frozen=True)
class Document:
    """A loaded ruleset file: its plain data plus the position of every node.

    ``data`` is plain ``dict``/``list``/``str``/``int``/``float``/``bool``/``None`` data.
    An alias shares the anchored object, so do not mutate ``data`` in place. Positions
    live in flat dicts keyed by JSON pointer (values and mapping keys separately); nodes
    that came from an alias have no positions of their own and report the alias.
    """

    path: str
    text: str
    data: Any
    _source: _Source = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    # pointer -> (line0, col0, length) of the value node / of the mapping key
    _values: dict = field(repr=False, compare=False, default_factory=dict)
    _keys: dict = field(repr=False, compare=False, default_factory=dict)
    # pointers whose value is an alias (their descendants report the alias' position)
    _aliases: frozenset = field(repr=False, compare=False, default_factory=frozenset)
    # pointer -> (style, content start index, end index, raw scalar text) for scalar values
    _scalars: dict = field(repr=False, compare=False, default_factory=dict)

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
        match = _BREAK.search(text, start, end)
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
            elif nxt in _BREAK_CHARS:  # escaped line break: joins lines, yields nothing
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


# --- scalar typing --------------------------------------------------------------------


def _to_int(value: str) -> int:
    """SafeConstructor.construct_yaml_int, with a length guard (see MAX_YAML_INT_CHARS)."""
    if len(value) > MAX_YAML_INT_CHARS:
        raise OverflowError
    value = value.replace("_", "")
    sign = -1 if value[0] == "-" else 1
    if value[0] in "+-":
        value = value[1:]
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value[0] == "0":
        return sign * int(value, 8)
    if ":" in value:
        result, base = 0, 1
        for part in reversed(value.split(":")):
            result += int(part) * base
            base *= 60
        return sign * result
    return sign * int(value)


def _to_float(value: str) -> float:
    """SafeConstructor.construct_yaml_float."""
    value = value.replace("_", "").lower()
    sign = -1 if value[0] == "-" else 1
    if value[0] in "+-":
        value = value[1:]
    if value == ".inf":
        return sign * float("inf")
    if value == ".nan":
        return float("nan")
    if ":" in value:
        result, base = 0.0, 1.0
        for part in reversed(value.split(":")):
            result += float(part) * base
            base *= 60
        return sign * result
    return sign * float(value)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "mapping", list: "list", str: "string", int: "integer",
            float: "number"}.get(type(value), type(value).__name__)


# --- the builder ----------------------------------------------------------------------


class _Frame:
    """An open mapping or sequence on the builder's explicit stack."""

    __slots__ = ("obj", "pointer", "is_map", "anchor", "start_nodes", "height", "flow",
                 "line0", "col0", "pending")

    def __init__(self, obj: Any, pointer: str, is_map: bool, anchor: str | None,
                 start_nodes: int, flow: bool, line0: int, col0: int) -> None:
        self.obj = obj
        self.pointer = pointer
        self.is_map = is_map
        self.anchor = anchor
        self.start_nodes = start_nodes
        self.height = 0  # container levels below this one (scalars count 0)
        self.flow = flow
        self.line0 = line0
        self.col0 = col0
        # Mappings only: (key, child pointer) of a key still waiting for its value.
        self.pending: tuple[Any, str] | None = None


class _Builder:
    """Turns parser events into plain data plus position tables, without recursion."""

    def __init__(self, source: _Source, limits: Limits) -> None:
        self.src = source
        self.limits = limits
        self.values: dict[str, tuple[int, int, int]] = {}
        self.keys: dict[str, tuple[int, int, int]] = {}
        self.aliases: set[str] = set()
        self.scalars: dict[str, tuple[Any, int, int, str]] = {}
        # name -> (object, expanded node count, height, line0 of the anchor)
        self.anchors: dict[str, tuple[Any, int, int, int]] = {}
        self.open_anchors: dict[str, int] = {}  # anchors of containers still being built
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.has_root = False
        self.nodes = 0
        self.alias_count = 0
        self.documents = 0
        self.document_mark: Any = None  # where the current document starts ('---' or content)

    # -- driving --

    def run(self, loader_cls: type) -> None:
        """Pull events one at a time (same as ``yaml.parse``), so we can stop early."""
        loader = loader_cls(self.src.text)
        try:
            while loader.check_event():
                self.handle(loader.get_event())
        finally:
            loader.dispose()

    def handle(self, event: Any) -> None:
        if isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self.start(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.end(event)
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)
        elif isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            self.document_mark = event.start_mark
            if self.documents > 1:
                raise LoadError(
                    f"the file holds more than one YAML document (a new one starts on line "
                    f"{event.start_mark.line + 1})",
                    self.src.mark_loc(event.start_mark, self.token_length(event.start_mark)),
                    hint="a ruleset file holds exactly one document: remove the extra '---' "
                         "(or '...') line, or split the file in two",
                    code=E_MULTIPLE_DOCUMENTS)

    # -- errors --

    def error(self, code: str, message: str, mark: Any, hint: str, length: int = 1,
              pointer: str | None = None) -> LoadError:
        return LoadError(message, self.src.mark_loc(mark, length, pointer), hint=hint, code=code)

    def token_length(self, mark: Any) -> int:
        """Length of the whitespace-free run at ``mark`` (a tag or anchor as written)."""
        line = self.src.line_text(mark.line)
        end = mark.column
        while end < len(line) and not line[end].isspace():
            end += 1
        return max(1, end - mark.column)

    def span(self, event: Any) -> int:
        """Characters a node covers on its first line."""
        start, end = event.start_mark, event.end_mark
        if start.line == end.line:
            return max(1, end.column - start.column)
        return max(1, len(self.src.line_text(start.line)) - start.column)

    # -- bookkeeping shared by every node --

    def count(self, n: int, mark: Any, pointer: str | None) -> None:
        self.nodes += n
        if self.nodes > self.limits.max_yaml_nodes:
            raise self.error(
                E_ALIAS,
                f"the file expands to more than max_yaml_nodes = {self.limits.max_yaml_nodes} "
                f"YAML nodes (counting every alias expansion)",
                mark,
                "aliases (*name) copy whole blocks; nesting them multiplies the size "
                "('billion laughs'): use fewer aliases, or split the ruleset",
                pointer=pointer)

    def define_anchor_check(self, name: str, mark: Any) -> None:
        first = self.anchors.get(name, (None, 0, 0, None))[3]
        if first is None:
            first = self.open_anchors.get(name)
        if first is not None:
            raise self.error(
                E_ALIAS, f"anchor &{name} is defined twice (first on line {first + 1})",
                mark, "give each anchor a unique name", self.token_length(mark))

    def child_pointer(self, top: _Frame) -> str:
        if top.is_map:
            assert top.pending is not None
            return top.pending[1]
        return f"{top.pointer}/{len(top.obj)}"

    def attach(self, top: _Frame, value: Any, height: int) -> None:
        if top.is_map:
            assert top.pending is not None
            top.obj[top.pending[0]] = value
            top.pending = None
        else:
            top.obj.append(value)
        top.height = max(top.height, height)

    def is_key_slot(self) -> bool:
        top = self.stack[-1]
        return top.is_map and top.pending is None

    def add_key(self, key: Any, mark: Any, length: int) -> None:
        """Record a mapping key, refusing bad types and duplicates."""
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            written = self.src.line_text(mark.line)[mark.column: mark.column + length]
            raise self.error(
                E_BAD_KEY,
                f"mapping key {written!r} is a {_type_name(key)}; keys must be strings "
                f"or integers",
                mark,
                "quote the key to make it a string (in YAML 1.1 yes/no/on/off/true/false "
                "are booleans and ~/null are null), e.g. 'on': ...",
                length)
        top = self.stack[-1]
        pointer = f"{top.pointer}/{_escape(str(key))}"
        first = self.keys.get(pointer)
        if first is not None:
            raise self.error(
                E_DUPLICATE_KEY,
                f"duplicate key {str(key)!r} (first defined on line {first[0] + 1})",
                mark,
                "each key may appear once per mapping: remove or rename one of them "
                "(YAML would silently keep only the last)",
                length, pointer)
        self.keys[pointer] = (mark.line, mark.column, length)
        top.pending = (key, pointer)

    # -- scalars --

    def scalar_value(self, event: Any, pointer: str | None) -> tuple[Any, str | None]:
        """The Python value of a scalar event and its resolved tag (None if explicit-free)."""
        tag = event.tag
        explicit = tag is not None
        if tag is None:
            tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        elif tag == "!":
            # The non-specific tag: a string, per the YAML spec. (PyYAML's two parsers
            # disagree on `a: !`; this makes both give the same answer.)
            tag = _STR
        elif tag not in _SCALAR_TAGS:
            self.reject_tag(tag, "a scalar", event.start_mark, pointer)
        value = event.value
        try:
            if tag == _STR:
                return value, tag
            if tag == _NULL:
                if explicit and value not in _NULL_VALUES:
                    raise ValueError
                return None, tag
            if tag == _BOOL:
                return _BOOL_VALUES[value.lower()], tag
            if tag == _INT:
                return _to_int(value), tag
            if tag == _FLOAT:
                return _to_float(value), tag
        except OverflowError:
            raise self.error(
                E_YAML_SYNTAX,
                f"integer literal is too long ({len(value)} characters; at most "
                f"{MAX_YAML_INT_CHARS})",
                event.start_mark, "quote it if it is meant as text", self.span(event),
                pointer) from None
        except (ValueError, KeyError, IndexError):
            if explicit:
                raise self.error(
                    E_TAG, f"{value!r} is not a valid {_short_tag(tag)} value",
                    event.start_mark, f"fix the value or remove the {_short_tag(tag)} tag",
                    self.span(event), pointer) from None
            # PyYAML's resolver accepts a few strings its constructor cannot convert
            # ("._", "0b_"); SafeLoader would crash, we keep them as text.
            return value, _STR
        # timestamp, merge ('<<' as a value), value ('='): keep the text.
        return value, tag

    def reject_tag(self, tag: str, what: str, mark: Any, pointer: str | None) -> None:
        short = _short_tag(tag)
        if tag in (_MAP, _SEQ, *_SCALAR_TAGS):
            hint = f"{short} cannot be used on {what}: remove the tag"
        elif "python/" in tag:
            hint = ("rulesets are data, not code: Python tags are never loaded or run; "
                    "remove the tag")
        elif tag.startswith(_TAG_PREFIX):
            hint = (f"the YAML type {short} is not supported in rulesets; write a plain "
                    f"string, list or mapping (allowed tags: {_ALLOWED_TAGS_TEXT})")
        else:
            hint = (f"custom tags are not supported; remove the tag (allowed tags: "
                    f"{_ALLOWED_TAGS_TEXT})")
        raise self.error(E_TAG, f"tag {short!r} is not allowed here", mark, hint,
                         self.token_length(mark), pointer)

    def scalar(self, event: Any) -> None:
        mark = event.start_mark
        if not self.stack:
            self.root_not_mapping(event)
        length = self.span(event)
        if self.is_key_slot():
            key, tag = self.scalar_value(event, self.stack[-1].pointer)
            if tag == _MERGE:
                raise self.error(
                    E_TAG, "merge keys ('<<') are not supported", mark,
                    "alias the whole block instead (key: *name), or repeat the keys; "
                    "quote it ('<<') if you mean a key named <<", 2)
            self.count(1, mark, None)
            self.add_key(key, mark, length)
            if event.anchor:
                self.define_anchor_check(event.anchor, mark)
                self.anchors[event.anchor] = (key, 1, 0, mark.line)
            return
        top = self.stack[-1]
        pointer = self.child_pointer(top)
        value, _ = self.scalar_value(event, pointer)
        self.count(1, mark, pointer)
        if event.anchor:
            self.define_anchor_check(event.anchor, mark)
            self.anchors[event.anchor] = (value, 1, 0, mark.line)
        self.values[pointer] = (mark.line, mark.column, length)
        start = self.src.index(mark.line, mark.column)
        if event.anchor or event.tag is not None:
            start = self._skip_properties(start)
        end = self.src.index(event.end_mark.line, event.end_mark.column)
        self.scalars[pointer] = (event.style or None, start, end, event.value)
        self.attach(top, value, 0)

    def _skip_properties(self, index: int) -> int:
        """Index of the scalar text after its ``&anchor`` / ``!tag`` properties.

        Event marks start at the properties; :meth:`Document.scalar_column` needs the
        first character of the scalar itself (or its opening quote / block indicator).
        """
        text = self.src.text
        while index < len(text):
            ch = text[index]
            if ch in " \t" + _BREAK_CHARS:
                index += 1
            elif ch == "#":  # a comment between the properties and a value on the next line
                while index < len(text) and text[index] not in _BREAK_CHARS:
                    index += 1
            elif ch == "&":  # anchor names are [0-9A-Za-z_-] (both scanners agree)
                index = _ANCHOR.match(text, index + 1).end()
            elif ch == "!":  # a tag ends at a blank, or at ',' inside flow collections
                while index < len(text) and not text[index].isspace() and text[index] != ",":
                    index += 1
            else:
                break
        return index

    # -- collections --

    def start(self, event: Any) -> None:
        is_map = isinstance(event, yaml.MappingStartEvent)
        mark = event.start_mark
        if not self.stack:
            if not is_map:
                self.root_not_mapping(event)
            pointer = ""
        elif self.is_key_slot():
            raise self.error(
                E_BAD_KEY, f"a {'mapping' if is_map else 'list'} cannot be used as a key",
                mark, "keys must be plain strings or integers; write 'key: value'",
                pointer=self.stack[-1].pointer)
        else:
            pointer = self.child_pointer(self.stack[-1])
        if event.tag not in (None, "!", _MAP if is_map else _SEQ):
            self.reject_tag(event.tag, "a mapping" if is_map else "a list", mark, pointer)
        depth = len(self.stack) + 1
        if depth > self.limits.max_yaml_depth:
            raise self.error(
                E_TOO_DEEP,
                f"mappings and lists are nested too deeply (more than max_yaml_depth = "
                f"{self.limits.max_yaml_depth} levels)",
                mark, "flatten the structure; no ruleset needs this much nesting",
                pointer=pointer)
        start_nodes = self.nodes
        self.count(1, mark, pointer)
        if event.anchor:
            self.define_anchor_check(event.anchor, mark)
            self.open_anchors[event.anchor] = mark.line
        obj: Any = {} if is_map else []
        self.values[pointer] = (mark.line, mark.column, 1)
        if self.stack:
            self.attach(self.stack[-1], obj, 0)
        else:
            self.root, self.has_root = obj, True
        self.stack.append(_Frame(obj, pointer, is_map, event.anchor, start_nodes,
                                 bool(event.flow_style), mark.line, mark.column))

    def end(self, event: Any) -> None:
        frame = self.stack.pop()
        height = frame.height + 1
        end = event.end_mark
        if frame.flow and end.line == frame.line0:
            self.values[frame.pointer] = (frame.line0, frame.col0, end.column - frame.col0)
        if frame.anchor:
            del self.open_anchors[frame.anchor]
            self.anchors[frame.anchor] = (frame.obj, self.nodes - frame.start_nodes, height,
                                          frame.line0)
        if self.stack:
            parent = self.stack[-1]
            parent.height = max(parent.height, height)

    # -- aliases --

    def alias(self, event: Any) -> None:
        mark = event.start_mark
        name = event.anchor
        length = len(name) + 1
        if not self.stack:
            self.root_not_mapping(event)
        self.alias_count += 1
        if self.alias_count > self.limits.max_yaml_aliases:
            raise self.error(
                E_ALIAS,
                f"too many aliases (more than max_yaml_aliases = "
                f"{self.limits.max_yaml_aliases})",
                mark, "repeat fewer blocks with *name, or split the ruleset", length)
        if name in self.open_anchors:
            raise self.error(
                E_ALIAS, f"alias *{name} refers to a block that contains it", mark,
                "a block cannot include itself; recursive structures are not allowed",
                length)
        if name not in self.anchors:
            raise self.error(
                E_ALIAS, f"unknown anchor *{name}", mark,
                f"define &{name} on a value *before* using *{name} (check the spelling)",
                length)
        obj, size, height, _ = self.anchors[name]
        if self.is_key_slot():
            self.count(size, mark, None)
            self.add_key(obj, mark, length)
            return
        top = self.stack[-1]
        pointer = self.child_pointer(top)
        if len(self.stack) + height > self.limits.max_yaml_depth:
            raise self.error(
                E_TOO_DEEP,
                f"alias *{name} nests mappings and lists too deeply (more than "
                f"max_yaml_depth = {self.limits.max_yaml_depth} levels)",
                mark, "flatten the structure, or alias a smaller block", length, pointer)
        self.count(size, mark, pointer)
        self.values[pointer] = (mark.line, mark.column, length)
        self.aliases.add(pointer)
        self.attach(top, obj, height)

    # -- top level --

    def root_not_mapping(self, event: Any) -> None:
        mark = event.start_mark
        hint = ("a ruleset file is a YAML mapping: 'key: value' lines starting at the left "
                "margin")
        if isinstance(event, yaml.ScalarEvent):
            value, _ = self.scalar_value(event, "")
            if value is None and event.value == "" and not event.style:
                # An empty scalar sits after '---'; point at the document instead.
                raise self.error(E_NOT_A_MAPPING, "the document is empty",
                                 self.document_mark or mark, hint)
            found = _type_name(value)
        elif isinstance(event, yaml.SequenceStartEvent):
            found = "list"
        else:
            found = "alias"
        raise self.error(E_NOT_A_MAPPING,
                         f"the top level of a ruleset must be a mapping, found a {found}",
                         mark, hint, self.span(event), "")

    def document(self) -> Document:
        if not self.has_root:
            raise LoadError("the file is empty (no YAML document in it)",
                            self.src.loc(0, 0),
                            hint="a ruleset file is a YAML mapping: 'key: value' lines "
                                 "starting at the left margin",
                            code=E_NOT_A_MAPPING)
        return Document(self.src.path, self.src.text, self.root, self.src, self.values,
                        self.keys, frozenset(self.aliases), self.scalars)


# --- text checks and YAML errors ------------------------------------------------------


def _decode(data: bytes, path: str) -> str:
    """UTF-8 (with or without BOM) to str; E307 at the first byte that is not UTF-8."""
    for bom, name in ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                      (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16")):
        if data.startswith(bom) and not data.startswith(codecs.BOM_UTF8):
            raise LoadError(f"the file is encoded as {name}, not UTF-8",
                            Location(path, 1, 1), hint="save the file as UTF-8",
                            code=E_ENCODING)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        if before.startswith("\ufeff"):
            before = before[1:]
        breaks = list(_BREAK.finditer(before))
        line_start = breaks[-1].end() if breaks else 0
        after = data[exc.start:].decode("utf-8", errors="replace")
        match = _BREAK.search(after)
        source_line = before[line_start:] + (after[: match.start()] if match else after)
        raise LoadError(
            f"the file is not valid UTF-8: byte 0x{data[exc.start]:02X} cannot appear here",
            Location(path, len(breaks) + 1, len(before) - line_start + 1, None, 1,
                     source_line),
            hint="save the file as UTF-8 (or check that it is a text file at all)",
            code=E_ENCODING) from None


def _check_characters(src: _Source) -> None:
    """Refuse characters YAML forbids (NUL, ESC, DEL, lone surrogates...) with a position.

    PyYAML would report these too, but less clearly, and libyaml in byte offsets.
    """
    match = _NON_PRINTABLE.search(src.text)
    if match is None:
        return
    code = ord(match.group())
    name = _CONTROL_NAMES.get(code, "surrogate" if 0xD800 <= code <= 0xDFFF else
                              "control character")
    line0, col0 = src.line_col(match.start())
    raise LoadError(
        f"character U+{code:04X} ({name}) is not allowed in a YAML file",
        src.loc(line0, col0),
        hint="remove it; if this is not a text file, check that you opened the right file",
        code=E_ENCODING)


_SYNTAX_HINTS = (
    ("mapping values are not allowed", "a value containing ': ' must be quoted "
     "(roll: \"1d20: attack\"), or this line is indented wrongly"),
    ("could not find expected ':'", "check the indentation: keys of one mapping must "
     "line up, and every key needs a ':'"),
    ("did not find expected key", "check the indentation: keys of one mapping must line "
     "up, and every key needs a ':'"),
    ("did not find expected '-'", "check the indentation of this list's '- ' items"),
    ("expected ',' or ']'", "close the list with ']' or separate its items with ','"),
    ("expected ',' or '}'", "close the mapping with '}' or separate its items with ','"),
    ("while scanning a quoted scalar", "close the quoted string with the same quote "
     "character it starts with"),
    ("unknown escape", "inside double quotes a backslash starts an escape (\\\\ is one "
     "backslash); use single quotes to keep backslashes as they are"),
    ("cannot start any token", "quote the value; plain values cannot start with "
     "characters such as @, ` or %"),
    ("found undefined tag handle", "tags are not supported in rulesets; remove the tag"),
    ("while scanning an anchor", "anchor and alias names may only use letters, digits, "
     "'-' and '_'"),
    ("while scanning an alias", "anchor and alias names may only use letters, digits, "
     "'-' and '_'"),
)


def _syntax_error(src: _Source, exc: yaml.YAMLError) -> LoadError:
    """Turn a PyYAML/libyaml error into E301 (or E308 when a tab is the real culprit)."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = _one_line(getattr(exc, "problem", None) or exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if "end of stream" in problem and context_mark is not None:
        # An unclosed quote or bracket: the end of the file is a useless place to point
        # at; where the unclosed thing starts is what the user must fix.
        mark = context_mark
    if mark is None:
        line0, col0 = src.line_col(min(getattr(exc, "position", 0) or 0, len(src.text)))
    else:
        line0, col0 = mark.line, mark.column
    text = src.line_text(line0)
    # A tab at or before the problem, in the indentation or at the problem itself.
    indent = len(text) - len(text.lstrip(" \t"))
    tab = text.find("\t", 0, indent)
    if tab != -1 and tab <= col0:
        return LoadError("tab used for indentation; indent with spaces",
                         src.loc(line0, tab), hint="YAML only allows spaces for "
                         "indentation: replace the tab with spaces", code=E_TAB)
    if col0 < len(text) and text[col0] == "\t":
        return LoadError("tab character where YAML expects a space",
                         src.loc(line0, col0), hint="replace the tab with spaces",
                         code=E_TAB)
    message = f"invalid YAML: {problem}"
    if context:
        message += f" ({_one_line(context)}"
        if context_mark is not None and \
                (context_mark.line, context_mark.column) != (line0, col0):
            message += (f" that starts at line {context_mark.line + 1}, "
                        f"column {context_mark.column + 1}")
        message += ")"
    joined = f"{problem} {context or ''}"
    hint = next((h for needle, h in _SYNTAX_HINTS if needle in joined),
                "fix the YAML syntax at the marked position; quote strings that contain "
                "':', '#', '{', '[' or start with a special character")
    return LoadError(message, src.loc(line0, col0), hint=hint, code=E_YAML_SYNTAX)


# --- public entry points --------------------------------------------------------------


def _too_large(path: str, size: str, limits: Limits) -> LoadError:
    return LoadError(
        f"the file is too large ({size} bytes; the limit max_file_bytes is "
        f"{limits.max_file_bytes})",
        Location(path),
        hint="split the ruleset into smaller files, or raise Limits.max_file_bytes if you "
             "trust this file",
        code=E_FILE_TOO_LARGE)


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
            raise _too_large(name, str(len(data)), limits)
        text = _decode(data, name)
    elif not isinstance(text, str):
        raise TypeError(f"load_text() needs str or bytes, not {type(text).__name__}")
    elif len(text) > limits.max_file_bytes or \
            len(text.encode("utf-8", "surrogatepass")) > limits.max_file_bytes:
        raise _too_large(name, "more than " + str(limits.max_file_bytes), limits)
    if text.startswith("\ufeff"):
        text = text[1:]  # the BOM is invisible in editors; columns count without it
    source = _Source(name, text)
    _check_characters(source)
    builder = _Builder(source, limits)
    try:
        builder.run(_LOADER)
    except yaml.YAMLError as exc:
        raise _syntax_error(source, exc) from exc
    return builder.document()


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
                raise _too_large(name, str(info.st_size), limits)
            data = handle.read(limits.max_file_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise LoadError(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", Location(name),
                        hint="check the path and that the file is a readable file",
                        code=E_UNREADABLE) from exc
    if len(data) > limits.max_file_bytes:
        raise _too_large(name, "more than " + str(limits.max_file_bytes), limits)
    return load_text(data, name, limits)


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
