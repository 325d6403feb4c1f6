"""The budgeted builder: turns the safe parser's event stream into plain data plus position
tables with an explicit stack (no recursion), counting depth, nodes and alias expansions
against :class:`~rulesengine.limits.Limits` and refusing tags, merge keys and bad keys.
See :mod:`rulesengine.rules.document` for why it works on events.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..codes import (E_ALIAS, E_BAD_KEY, E_DUPLICATE_KEY, E_MULTIPLE_DOCUMENTS, E_NOT_A_MAPPING, E_TAG,
                     E_TOO_DEEP, E_YAML_SYNTAX)
from ..errors import LoadError
from ..limits import MAX_YAML_INT_CHARS, Limits
from .yaml_positions import LINE_BREAK_CHARS, Document, SourceText, escape_pointer_token
from .yaml_scalars import (ALLOWED_TAGS_TEXT, BOOL_VALUES, NULL_VALUES, RESOLVER,
                           SCALAR_TAGS, TAG_BOOL, TAG_FLOAT, TAG_INT, TAG_MAP, TAG_MERGE, TAG_NULL,
                           TAG_PREFIX, TAG_SEQ, TAG_STR, short_tag, type_name, yaml_float, yaml_int)

_ANCHOR = re.compile("[0-9A-Za-z_-]*")

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


class EventBuilder:
    """Turns parser events into plain data plus position tables, without recursion."""

    def __init__(self, source: SourceText, limits: Limits) -> None:
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
                where = self.src.mark_loc(event.start_mark, self.token_length(event.start_mark))
                raise LoadError(
                    f"the file holds more than one YAML document (a new one starts on line "
                    f"{where.line})",
                    where,
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
                f"mapping key {written!r} is a {type_name(key)}; keys must be strings "
                f"or integers",
                mark,
                "quote the key to make it a string (in YAML 1.1 yes/no/on/off/true/false "
                "are booleans and ~/null are null), e.g. 'on': ...",
                length)
        top = self.stack[-1]
        pointer = f"{top.pointer}/{escape_pointer_token(str(key))}"
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
            tag = RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        elif tag == "!":
            # The non-specific tag: a string, per the YAML spec. (PyYAML's two parsers
            # disagree on `a: !`; this makes both give the same answer.)
            tag = TAG_STR
        elif tag not in SCALAR_TAGS:
            self.reject_tag(tag, "a scalar", event.start_mark, pointer)
        value = event.value
        try:
            if tag == TAG_STR:
                return value, tag
            if tag == TAG_NULL:
                if explicit and value not in NULL_VALUES:
                    raise ValueError
                return None, tag
            if tag == TAG_BOOL:
                return BOOL_VALUES[value.lower()], tag
            if tag == TAG_INT:
                return yaml_int(value), tag
            if tag == TAG_FLOAT:
                return yaml_float(value), tag
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
                    E_TAG, f"{value!r} is not a valid {short_tag(tag)} value",
                    event.start_mark, f"fix the value or remove the {short_tag(tag)} tag",
                    self.span(event), pointer) from None
            # PyYAML's resolver accepts a few strings its constructor cannot convert
            # ("._", "0b_"); SafeLoader would crash, we keep them as text.
            return value, TAG_STR
        # timestamp, merge ('<<' as a value), value ('='): keep the text.
        return value, tag

    def reject_tag(self, tag: str, what: str, mark: Any, pointer: str | None) -> None:
        short = short_tag(tag)
        if tag in (TAG_MAP, TAG_SEQ, *SCALAR_TAGS):
            hint = f"{short} cannot be used on {what}: remove the tag"
        elif "python/" in tag:
            hint = ("rulesets are data, not code: Python tags are never loaded or run; "
                    "remove the tag")
        elif tag.startswith(TAG_PREFIX):
            hint = (f"the YAML type {short} is not supported in rulesets; write a plain "
                    f"string, list or mapping (allowed tags: {ALLOWED_TAGS_TEXT})")
        else:
            hint = (f"custom tags are not supported; remove the tag (allowed tags: "
                    f"{ALLOWED_TAGS_TEXT})")
        raise self.error(E_TAG, f"tag {short!r} is not allowed here", mark, hint,
                         self.token_length(mark), pointer)

    def scalar(self, event: Any) -> None:
        mark = event.start_mark
        if not self.stack:
            self.root_not_mapping(event)
        length = self.span(event)
        if self.is_key_slot():
            key, tag = self.scalar_value(event, self.stack[-1].pointer)
            if tag == TAG_MERGE:
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
            if ch in " \t" + LINE_BREAK_CHARS:
                index += 1
            elif ch == "#":  # a comment between the properties and a value on the next line
                while index < len(text) and text[index] not in LINE_BREAK_CHARS:
                    index += 1
            elif ch == "&":  # anchor names are [0-9A-Za-z_-] (both scanners agree)
                anchor = _ANCHOR.match(text, index + 1)
                index = anchor.end() if anchor else index + 1
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
        if event.tag not in (None, "!", TAG_MAP if is_map else TAG_SEQ):
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
            found = type_name(value)
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
