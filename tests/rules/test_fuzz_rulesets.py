"""Fuzzing rulesets: mutants of the shipped rulesets/*.yaml.

Each case takes a shipped ruleset (read at test time) and makes 1 to 3 mutations, on the
text (delete a key with its block, duplicate a key, change a value's type, an extreme
number, swap a name, insert an anchor/alias or an alias bomb, break an expression,
truncate, insert junk, re-indent, swap lines) or on the parsed data (delete, retype,
rename, copy a subtree, break an expression string), writes it to a file and checks:

* ``validate_file`` returns (never raises), and every diagnostic has a code, a message,
  the file's path, and a line and column inside the file;
* ``load`` agrees with it: it raises a RulesEngineError when there are errors, else it
  loads; then every check is rolled and its odds computed, and every procedure too, with
  inputs made from the input specs (defaults, min, max, choices, and a few out-of-range
  or ill-typed values): each call gives a result or a RulesEngineError, in time.

Fast by default; ``RULESENGINE_LONG_FUZZ=1`` runs 10,000 mutants (docs/limits.md).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import (RULESETS_DIR, case_time_limit, check_error, fuzz_settings, known_bug,
                          measured, mutate_ruleset, run_ruleset, shipped_texts)
from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import load
from rulesengine.validate import validate_file

TEXTS = shipped_texts()
NAMES = sorted(TEXTS)
_serial = itertools.count()


FOUND_BY_RUNNING = ("E512", "E202", "E201", "E511", "E103", "E206", "E510", "E102", "E203")
"""Codes of errors validate finds by running the rules (run/reach.py, run/faults.py)."""


def check_mutant(tmp_path, name: str, text: str | bytes, what: str, r: random.Random) -> str:
    """The invariant for one ruleset file. Returns a short outcome for the statistics."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    path = tmp_path / f"mutant{next(_serial)}-{name}.yaml"  # a new path: load() caches by path
    path.write_bytes(data)
    n_lines = data.count(b"\n") + 1
    try:
        with measured("rulesets", what, limit=False) as outcome:
            with case_time_limit(f"validate {what}"):
                report = validate_file(str(path))
            for d in report.diagnostics:
                assert d.code and d.message, d
                assert d.location.path == str(path), (d.location, what)
                assert d.location.line is not None and d.location.column is not None, (d.render(), what)
                assert 1 <= d.location.line <= n_lines + 1 and d.location.column >= 1, (d.render(), what)
            # E512 (rules that can fall through), E202, E201, E511, E103, E206 and E510 for some
            # inputs are found by validate's search, which runs the rules; load only builds
            # them, so such a file loads, and some roll of it raises the error (the run below
            # accepts any). (E510 and E201 may be the builder's too: then load raises.)
            build_errors = [d for d in report.diagnostics
                            if d.severity == "error" and d.code not in FOUND_BY_RUNNING]
            if build_errors:
                with case_time_limit(f"load {what}"):
                    with pytest.raises(RulesEngineError) as info:
                        load(str(path))
                check_error(info.value)
                codes = sorted({d.code for d in report.diagnostics if d.severity == "error"})
                assert info.value.code in codes, (info.value.code, codes, what)
                outcome("invalid:" + codes[0][:2] + "xx")
                return "invalid"
            with case_time_limit(f"load {what}"):
                try:
                    rs = load(str(path))
                except RulesEngineError as exc:
                    codes = sorted({d.code for d in report.diagnostics if d.severity == "error"})
                    assert exc.code in codes, (exc.code, codes, what)
                    outcome("invalid:" + codes[0][:2] + "xx")
                    return "invalid"
            seen = run_ruleset(rs, r)
            bugs = [k for k in seen if k.startswith("known-bug:")]
            outcome(bugs[0] if bugs else "valid")
            return "valid"
    except BaseException as exc:
        exc.add_note(f"mutant: {what} (tests/test_fuzz_rulesets.py: _mutant(seed) rebuilds it)")
        raise
    finally:
        path.unlink()


def _mutant(seed: int) -> tuple[str, str | bytes, str]:
    r = random.Random(seed)
    name = r.choice(NAMES)
    text, done = mutate_ruleset(r, name, TEXTS[name])
    if r.random() < 0.03:  # now and then a byte that is not UTF-8
        raw = text.encode("utf-8")
        at = r.randrange(len(raw) + 1)
        return name, raw[:at] + r.choice([b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80"]) + raw[at:], \
            f"{name} seed={seed} {done}+bad-utf8"
    return name, text, f"{name} seed={seed} {done}"


@fuzz_settings(80, 10_000)
@given(st.integers(0, 2**32 - 1))
def test_mutated_rulesets_get_diagnostics_or_run(tmp_path, seed):
    name, text, what = _mutant(seed)
    check_mutant(tmp_path, name, text, what, random.Random(seed))


@pytest.mark.parametrize("name", NAMES)
def test_shipped_rulesets_run_with_every_input_set(tmp_path, name):
    """The unmutated files pass the same invariant, and are valid."""
    assert check_mutant(tmp_path, name, TEXTS[name], name, random.Random(0)) == "valid"


def test_the_mutators_reach_every_layer(tmp_path):
    """A fixed sample of mutants: some fail in YAML, some in the schema, some in semantics,
    and some stay valid and run (so the fuzzing above tests all of them)."""
    layers = Counter()
    for seed in range(40):
        name, text, what = _mutant(seed)
        report = validate_file(str(_write(tmp_path, seed, text)))
        codes = {d.code[:2] for d in report.diagnostics if d.severity == "error"}
        layers.update(codes or {"valid"})
    assert {"E3", "E4", "valid"} <= set(layers), layers


def _write(tmp_path, seed, text):
    path = tmp_path / f"sample{seed}.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_a_new_crash_is_not_mistaken_for_a_known_bug():
    """known_bug() matches only the open bugs it lists."""
    try:
        {}["missing"]
    except KeyError as exc:
        assert known_bug(exc) is None
    assert RULESETS_DIR.is_dir()
