"""The E3xx codes of YAML loading, and the checks and translations that turn bad text into
one positioned :class:`~rulesengine.errors.LoadError` with a hint: not UTF-8, a character
YAML forbids, a file over the size limit, and PyYAML/libyaml syntax errors (with E308 when
a tab is the real culprit).
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # PyYAML is imported only when a file is parsed
    import yaml

from ..codes import E_ENCODING, E_FILE_TOO_LARGE, E_TAB, E_TOO_DEEP, E_YAML_SYNTAX
from ..errors import LoadError, Location
from ..limits import Limits
from .yaml_positions import LINE_BREAK, SourceText

@functools.cache
def _non_printable() -> re.Pattern:
    """Characters YAML 1.1 forbids in a stream (same set as PyYAML's Reader.NON_PRINTABLE);
    lone surrogates are outside every allowed range, so they are caught too. Compiled when
    a file is first read (it takes milliseconds), not when the module is imported: a file
    read back from the store of loaded files needs no check."""
    return re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x0B: "vertical tab",
                  0x0C: "form feed", 0x1B: "ESC", 0x7F: "DEL", 0xFFFE: "noncharacter",
                  0xFFFF: "noncharacter"}

def one_line(text: str) -> str:
    return " ".join(str(text).split())


def decode_utf8(data: bytes, path: str) -> str:
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
        breaks = list(LINE_BREAK.finditer(before))
        line_start = breaks[-1].end() if breaks else 0
        after = data[exc.start:].decode("utf-8", errors="replace")
        match = LINE_BREAK.search(after)
        source_line = before[line_start:] + (after[: match.start()] if match else after)
        raise LoadError(
            f"the file is not valid UTF-8: byte 0x{data[exc.start]:02X} cannot appear here",
            Location(path, len(breaks) + 1, len(before) - line_start + 1, None, 1,
                     source_line),
            hint="save the file as UTF-8 (or check that it is a text file at all)",
            code=E_ENCODING) from None


def check_characters(src: SourceText) -> None:
    """Refuse characters YAML forbids (NUL, ESC, DEL, lone surrogates...) with a position.

    PyYAML would report these too, but less clearly, and libyaml in byte offsets.
    """
    match = _non_printable().search(src.text)
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


def syntax_error(src: SourceText, exc: yaml.YAMLError, max_depth: int | None = None) -> LoadError:
    """Turn a PyYAML/libyaml error into E301 (or E308 when a tab is the real culprit).

    libyaml 0.2.6+ (PyYAML 6.0.4) caps nesting itself and may meet its cap while scanning
    ahead through ``[[[[...``, before our own, lower ``max_yaml_depth`` sees the nodes:
    that is the same fault, reported as E302 with our limit."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = one_line(getattr(exc, "problem", None) or str(exc))
    if "maximum nesting depth" in problem and max_depth is not None and mark is not None:
        return LoadError(f"mappings and lists are nested too deeply (more than max_yaml_depth = {max_depth} "
                         "levels)", src.loc(mark.line, mark.column),
                         hint="flatten the structure; no ruleset needs this much nesting", code=E_TOO_DEEP)
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
        message += f" ({one_line(context)}"
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




def file_too_large(path: str, size: str, limits: Limits) -> LoadError:
    return LoadError(
        f"the file is too large ({size} bytes; the limit max_file_bytes is "
        f"{limits.max_file_bytes})",
        Location(path),
        hint="split the ruleset into smaller files, or raise Limits.max_file_bytes if you "
             "trust this file",
        code=E_FILE_TOO_LARGE)
