"""A corpus of homebrewer mistakes that plain ``validate`` must catch (issue 32: validated means
it works at the table), each on the line where it is fixed.

Each file in tests/corpus/mistakes/ starts with `# expect: CODE LINE:COL [hint text]`, as in
tests/corpus/broken/. A mistake that the file would only show when rolled also says where:
`# at the table: NAME k=v ... -> CODE`. Those files load (nothing in them is wrong until an
input reaches the mistake), and the odds of NAME with those inputs must fail with CODE: the
mistake is real, shown by the engine at the table, independently of validate's search.
A file that loads but reads otherwise than written (a dialect's spelling, a symbol nothing
counts, a result_sign against success) expects a W code: a warning, which `--strict` fails on
(tests/rules/test_lints.py writes each again as meant, and shows each lie by brute force).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpus_support import expectation, expected_diagnostic
from rulesengine.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "mistakes"
FILES = sorted(CORPUS.glob("*.yaml"))


def at_the_table(path: Path) -> tuple[str, list[str], str] | None:
    second = path.read_text(encoding="utf-8").split("\n")[1]
    m = re.match(r"# at the table: (\S+)((?: \S+=\S+)*) -> (\w+)$", second)
    return (m.group(1), m.group(2).split(), m.group(3)) if m else None


def test_the_corpus_has_a_file_for_every_kind_of_mistake():
    assert len(FILES) >= 40
    for path in FILES:
        code = expectation(path)[0]
        assert path.name.startswith(code + "_"), f"{path.name} is not named after its code {code}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_plain_validate_reports_the_mistake_on_its_line_with_its_hint(path):
    """An error fails plain validate; a warning (W…: a lint, or work nothing reads; the file loads) is shown by plain
    validate and fails --strict."""
    report, diag = expected_diagnostic(path)
    if diag.code.startswith("W"):
        assert diag.severity == "warning" and report.warnings >= 1
        assert main(["validate", "--strict", str(path)]) == 1
    else:
        assert diag.severity == "error" and report.errors >= 1


TABLE = [p for p in FILES if at_the_table(p)]


@pytest.mark.parametrize("path", TABLE, ids=[p.stem for p in TABLE])
def test_the_mistake_is_real_its_odds_fail_at_the_table(path, capsys):
    name, inputs, code = at_the_table(path)
    assert main(["odds", str(path), name, *inputs]) == 1
    assert f"error[{code}]" in capsys.readouterr().err
