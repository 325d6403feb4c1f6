"""validate's promise (issues 13 and 32): a file that `validate` accepts works at the table.

The first property (issue 32) is the promise itself, for plain `validate` (no error; warnings
allowed): every shipped ruleset and every test ruleset (files and the rulesets written inline
in the tests) gets one or two of a homebrewer's mistakes (fuzz_support.SEMANTIC_MUTATORS: an
input's bound off by one, an operator turned round, another dialect, a typo on a die's face,
a number written as text in a table, outcome rules reordered, one removed, the last one made
`when: "false"`); every mutant plain validate accepts is rolled and its odds worked out for
every check and procedure, on its boundary inputs (each input's min, max, default, every
choice) and on random inputs inside the bounds. Only E601 (the caller's bad input) and E210
(a limit) may come back. The fast count runs in CI; `RULESENGINE_LONG_FUZZ=1` runs the long
one (docs/limits.md has its figures); `RULESENGINE_FUZZ_SEED` repeats a run.

The older property, below it:

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

import difflib
import itertools
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import (LONG, case_time_limit, examples, fuzz_settings, mutate_ruleset, mutate_semantic,
                          promise_texts, run_ruleset, shipped_texts)
from rulesengine.ruleset import load
from rulesengine.validate import validate_file

TEXTS = shipped_texts()
NAMES = sorted(TEXTS)
ALLOWED = {"ok", "E601", "E210"}
_serial = itertools.count()

PROMISE_TEXTS = promise_texts()
PROMISE_NAMES = sorted(PROMISE_TEXTS)
PROMISE_SEED = int(os.environ.get("RULESENGINE_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
PROMISE_MUTANTS = examples(15, 4_000)


def _mutant_diff(name: str, text: str) -> str:
    import yaml

    from fuzz_support import _dump

    before = _dump(yaml.safe_load(PROMISE_TEXTS[name])).splitlines()
    return "\n".join(difflib.unified_diff(before, text.splitlines(), name, "mutant", n=1, lineterm=""))


def test_every_ruleset_plain_validate_accepts_gives_only_input_and_limit_errors_on_its_bounds(tmp_path):
    """The promise of docs/ruleset-language.md ("What `validate` promises") over mutants of
    every shipped and test ruleset: each mutant plain validate accepts is rolled and asked
    for odds inside its declared bounds; any other error is a fault validate missed."""
    base = random.Random(PROMISE_SEED)
    counts: Counter = Counter()
    failures: list[str] = []
    for k in range(PROMISE_MUTANTS):
        seed = base.randrange(2**32)
        r = random.Random(seed)
        name = r.choice(PROMISE_NAMES)
        text, done = mutate_semantic(r, name, PROMISE_TEXTS[name])
        counts["mutants"] += 1
        path = tmp_path / f"mutant{k}.yaml"
        path.write_text(text, encoding="utf-8")
        with case_time_limit(f"validate {name} {done}"):
            report = validate_file(str(path))
        if report.errors:
            continue
        counts["accepted"] += 1
        found: list[str] = []
        seen = run_ruleset(load(str(path)), r, per_check=None if LONG else 3, inside=2 if LONG else 1,
                           failures=found, allowed=frozenset(ALLOWED))
        counts["calls"] += sum(seen.values())
        if found:
            counts["failed mutants"] += 1
            failures.append(f"{name} seed={seed} {done}\n{_mutant_diff(name, text)}\n  " + "\n  ".join(found[:3]))
    print(f"validate promise (seed {PROMISE_SEED}): {dict(counts)}")
    assert not failures, f"seed {PROMISE_SEED}, {dict(counts)}:\n" + "\n\n".join(failures)


@fuzz_settings(40, 3_000)
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
