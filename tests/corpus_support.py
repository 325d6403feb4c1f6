"""Shared by the tests of the file corpora (tests/corpus/broken/, tests/corpus/mistakes/): each
file starts with `# expect: CODE LINE:COL [hint text]`, and validate must report that code at
that place, with that hint."""

from __future__ import annotations

import re
from pathlib import Path

from rulesengine.validate import validate_file


def expectation(path: Path) -> tuple[str, int, int, str | None]:
    """The code, line, column and hint a corpus file's first line expects."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("ascii")
    m = re.match(r"# expect: (\w+) (\d+):(\d+)(?: (.*))?$", first)
    assert m, f"{path.name} has no '# expect:' header"
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


def expected_diagnostic(path: Path):
    """validate's report of ``path`` and the diagnostic its header expects, checked to be
    there with its hint and the line it points at."""
    code, line, col, hint = expectation(path)
    report = validate_file(str(path))
    found = [(d.code, d.location.line, d.location.column) for d in report.diagnostics]
    assert (code, line, col) in found, found
    diag = next(d for d in report.diagnostics if (d.code, d.location.line, d.location.column) == (code, line, col))
    if hint:
        assert hint in (diag.hint or "")
    assert diag.location.source_line is not None
    return report, diag
