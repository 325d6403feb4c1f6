"""Text the engine echoes back to a person: made printable and cut to a documented width.

Everything the engine quotes comes from untrusted input (a command-line word, a ruleset's
names and expressions, a line of a file), and a terminal obeys control characters: an
ESC sequence in a check's name could retitle the window or clear the screen, a 120 KB
argument would come back whole. So every piece of text a person reads goes through the
two helpers here, one for each danger, and nowhere else decides how:

* :func:`printable` writes each control character (C0 but tab and line feed, DEL, C1) and
  each invisible direction or line-separator character as ``\\uXXXX``. That form is also
  a JSON escape, so a stream of JSON run through it still parses to the same strings.
* :func:`clip` cuts a text longer than :data:`~rulesengine.limits.MAX_ECHO_CHARS` in the
  middle, saying how much was left out; :func:`window` does the same for a source line
  around a caret.
"""

from __future__ import annotations

import io
import re
from typing import Any, TextIO

from .limits import MAX_ECHO_CHARS

# C0 controls but tab and line feed, DEL, C1 controls; the bidirectional overrides and
# isolates (a "Trojan source" reorders what a reader sees); Unicode line/paragraph separators.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_PLAIN = bytes([0x09, 0x0A, *range(0x20, 0x7F)])  # tab, line feed and the printable ASCII characters
_MARKER_ROOM = 34  # " …[1,048,576 characters cut]… " and a little more


def _escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written as ``\\uXXXX``."""
    if text.isascii() and not text.encode("ascii").translate(None, _PLAIN):
        return text  # nothing to escape, found out in C: a sweep's JSON is megabytes, the search 3x slower
    return _UNPRINTABLE.sub(_escape, text)


def clip(text: str, width: int = MAX_ECHO_CHARS) -> str:
    """``text`` if it has at most ``width`` characters, else its start and end with a marker
    saying how many characters were cut (the result has at most ``width`` characters)."""
    if len(text) <= width:
        return text
    keep = max(width - _MARKER_ROOM, 2)
    head = keep - keep // 3
    return text[:head] + f" …[{len(text) - keep:,} characters cut]… " + text[len(text) - (keep - head):]


def echo(text: Any, width: int = MAX_ECHO_CHARS) -> str:
    """A value as an error may quote it: printable and at most about ``width`` characters."""
    return printable(clip(str(text), width))


def window(line: str, column: int, length: int, width: int = MAX_ECHO_CHARS) -> tuple[str, int, int]:
    """A source line cut to ``width`` characters around the 1-based ``column``, made
    printable: ``(text, column, length)`` in the cut line, so a caret still lines up.

    Characters before the column are escaped one by one so that the caret's column is
    counted in what is printed."""
    start = 0
    if len(line) > width:
        start = max(0, min(column - 1 - width // 3, len(line) - width))
    end = min(len(line), start + width)
    before = printable(line[start:column - 1])
    shown = ("…" if start else "") + before + printable(line[column - 1:end]) + ("…" if end < len(line) else "")
    new_column = (1 if start else 0) + len(before) + 1
    return shown, new_column, max(1, min(length, end - (column - 1)))


class TerminalWriter(io.TextIOBase):
    """A text stream that passes everything written to it through :func:`printable`.

    The command line writes through two of these (stdout and stderr), so no output of it,
    whatever text it carries, can drive the terminal."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text))
        return len(text)

    STYLES = {"strike": ("\x1b[9m", "\x1b[29m")}
    """The only control sequences the command line sends on purpose (SGR strike-through on
    and off), each around text that is itself made printable."""

    def write_styled(self, text: str, style: str) -> int:
        """``text`` made printable, between the codes of one of :data:`STYLES`."""
        on, off = self.STYLES[style]
        self.stream.write(on + printable(text) + off)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")

    def fileno(self) -> int:
        return self.stream.fileno()
