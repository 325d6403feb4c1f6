"""validate's promise (issue 13): a file that `validate --strict` passes works at the table.

Mutants of the shipped rulesets (the same mutations as test_fuzz_rulesets.py) that validate
with no error and no warning are loaded, and every check and procedure is rolled and its
odds worked out with input sets made from the input specs (defaults, bounds, choices, and
a few out-of-range or ill-typed values): the only errors allowed are the caller's (E601, a
bad input) and a limit (E210). Anything else — a condition that is not yes/no (E511), a
roll that matches no outcome (E512), a wrong kind of value (E201), a procedure that can
never be decided (E510) — is a mistake validate should have reported. Procedures are also
worked out with every party alike (issue 32: two `assured` parties of the shipped `rps`
tied forever, E510, and validate --strict passed it).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import fuzz_settings, mutate_ruleset, run_ruleset, shipped_texts
from rulesengine.ruleset import load
from rulesengine.validate import validate_file

TEXTS = shipped_texts()
NAMES = sorted(TEXTS)
ALLOWED = {"ok", "E601", "E210"}
_serial = itertools.count()


@fuzz_settings(60, 3_000)
@given(st.integers(0, 2**32 - 1))
def test_a_file_validate_strict_passes_raises_only_input_and_limit_errors_when_used(tmp_path, seed):
    r = random.Random(seed)
    name = r.choice(NAMES)
    text, done = mutate_ruleset(r, name, TEXTS[name])
    path = tmp_path / f"promise{next(_serial)}-{name}.yaml"
    path.write_text(text, encoding="utf-8") if isinstance(text, str) else path.write_bytes(text)
    report = validate_file(str(path))
    if report.errors or report.warnings:
        return
    seen = run_ruleset(load(str(path)), random.Random(seed))
    assert set(seen) <= ALLOWED, (f"{name} seed={seed} {done}", dict(seen))


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_ruleset_passes_validate_strict_and_raises_only_input_and_limit_errors(name, tmp_path):
    path = tmp_path / f"{name}.yaml"
    path.write_text(TEXTS[name], encoding="utf-8")
    report = validate_file(str(path))
    assert not report.errors and not report.warnings, [d.render() for d in report.diagnostics]
    seen = run_ruleset(load(str(path)), random.Random(0))
    assert set(seen) <= ALLOWED, (name, dict(seen))
