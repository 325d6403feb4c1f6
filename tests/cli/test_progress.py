"""The progress line (issue 15): shown on a terminal for work that takes a while, cleared at the
end, and never written to anything that is not a terminal (pipes, CI logs, JSON readers).
Deterministic: the test waits for the line, not for a length of time."""

from __future__ import annotations

import io
import threading

from rulesengine.present.progress import progress


class Terminal(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        n = super().write(text)
        self.written.set()
        return n


def test_a_terminal_sees_the_line_while_the_work_runs_and_it_is_cleared_after():
    term = Terminal()
    with progress("working", term, delay=0, every=0.01):
        assert term.written.wait(30)  # a hang guard only
        assert "… working (" in term.getvalue()
    assert term.getvalue().endswith("\r\033[K")


def test_nothing_is_written_to_a_stream_that_is_not_a_terminal():
    out = io.StringIO()
    with progress("working", out, delay=0, every=0.01):
        pass
    assert out.getvalue() == ""


def test_quick_work_shows_nothing_even_on_a_terminal():
    term = Terminal()
    with progress("working", term, delay=30):
        pass
    assert term.getvalue() == ""
