"""A corpus of broken rulesets, one or more per error code, each with the exact diagnostic.

Each file in tests/corpus/broken/ starts with `# expect: CODE LINE:COL [hint text]`;
`rulesengine validate` must report that code at that position (and hint), and fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus_support import expectation, expected_diagnostic
from rulesengine.validate import validate_file

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "broken"
FILES = sorted(CORPUS.glob("*.yaml"))


def test_the_corpus_covers_every_documented_file_error_code():
    codes = {expectation(p)[0] for p in FILES}
    wanted = {"E301", "E302", "E303", "E304", "E305", "E307", "E308", "E309", "E310", "E311",
              "E401", "E402", "E403", "E404",
              "E501", "E502", "E503", "E504", "E505", "E506", "E507", "E508", "E509", "W501", "W502"}
    assert wanted <= codes


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_broken_ruleset_gets_its_exact_diagnostic(path):
    report, diag = expected_diagnostic(path)
    assert diag.location.path == str(path)
    if diag.code.startswith("E"):
        assert report.errors >= 1
    else:
        assert report.errors == 0 and report.warnings >= 1


def test_a_python_tag_runs_nothing(tmp_path):
    assert not Path("/tmp/rulesengine-pwned").exists()
    validate_file(str(CORPUS / "E305_python_tag.yaml"))
    assert not Path("/tmp/rulesengine-pwned").exists()
