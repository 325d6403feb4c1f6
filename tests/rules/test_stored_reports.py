"""``validate`` keeps each file's report (rulesengine/validate.py, ``_report_store``): a
pre-commit hook or CI job run again on files it checked before gives their reports without
searching them again, the same reports, and searches a file again once it changes."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest

from rulesengine.disk_store import DiskStore
from rulesengine.limits import DEFAULT_LIMITS

ROOT = Path(__file__).resolve().parent.parent.parent
validate = importlib.import_module("rulesengine.validate")  # the module (the package's `validate` is a function)
MISTAKE = ROOT / "tests" / "corpus" / "mistakes" / "E503_table_cell_names_a_missing_row.yaml"


@pytest.fixture
def reports(tmp_path, monkeypatch):
    """A store of reports of its own, named by the engine's files as validate names it."""
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(tmp_path / "store"))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)  # the store on, whatever a test before set
    monkeypatch.setattr(validate, "_REPORTS", None)
    yield
    monkeypatch.setattr(validate, "_REPORTS", None)


def _searches(monkeypatch) -> list[str]:
    """Every file the searches run on, from now on."""
    seen: list[str] = []
    real = validate._searched

    def counting(path, doc, limits, remember):
        seen.append(path)
        return real(path, doc, limits, remember)

    monkeypatch.setattr(validate, "_searched", counting)
    return seen


def test_a_file_validated_again_gives_the_same_report_without_searching_it(reports, monkeypatch, tmp_path):
    path = tmp_path / "mistake.yaml"
    path.write_text(MISTAKE.read_text(encoding="utf-8"), encoding="utf-8")
    first = validate.validate_file(str(path))
    assert [d.code for d in first.diagnostics] == ["E503"]  # the corpus file's one mistake
    searched = _searches(monkeypatch)
    again = validate.validate_file(str(path))
    assert searched == []
    assert again == first and [d.render() for d in again.diagnostics] == [d.render() for d in first.diagnostics]
    assert validate.format_text([again]) == validate.format_text([first])


def test_a_changed_file_is_searched_again(reports, monkeypatch, tmp_path):
    path = tmp_path / "mistake.yaml"
    text = MISTAKE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    validate.validate_file(str(path))
    path.write_text(text.replace("value: hihg", "value: high"), encoding="utf-8")
    searched = _searches(monkeypatch)
    assert validate.validate_file(str(path)).errors == 0
    assert searched == [str(path)]


def test_no_report_is_kept_or_read_with_other_limits(reports, monkeypatch, tmp_path):
    path = tmp_path / "mistake.yaml"
    path.write_text(MISTAKE.read_text(encoding="utf-8"), encoding="utf-8")
    other = dataclasses.replace(DEFAULT_LIMITS, max_states=DEFAULT_LIMITS.max_states // 2)
    validate.validate_file(str(path), other)
    searched = _searches(monkeypatch)
    validate.validate_file(str(path))
    validate.validate_file(str(path), other)
    assert searched == [str(path), str(path)]


@pytest.mark.parametrize("planted", [5, [], [{"code": "E503"}], [{"code": 1, "message": "m", "severity": "error",
                                                                     "hint": None, "limit": None, "location": {}}]])
def test_a_stored_report_it_could_not_have_written_is_searched_again(reports, monkeypatch, tmp_path, planted):
    """The store is signed, and still input: an entry not shaped as validate writes them is
    a miss (``[]``, an empty report, is one validate writes: it is believed)."""
    path = tmp_path / "mistake.yaml"
    path.write_text(MISTAKE.read_text(encoding="utf-8"), encoding="utf-8")
    validate.validate_file(str(path))
    store: DiskStore = validate._report_store()
    key = str(path) + "\x00" + path.read_text(encoding="utf-8")
    store.put(key, planted)
    searched = _searches(monkeypatch)
    report = validate.validate_file(str(path))
    if planted == []:
        assert searched == [] and report.diagnostics == ()
    else:
        assert searched == [str(path)] and [d.code for d in report.diagnostics] == ["E503"]


def test_the_tests_own_process_keeps_no_report(tmp_path, monkeypatch):
    """tests/conftest.py: outside the tests above, validate in the test process neither reads
    nor writes reports."""
    path = tmp_path / "mistake.yaml"
    path.write_text(MISTAKE.read_text(encoding="utf-8"), encoding="utf-8")
    validate.validate_file(str(path))
    searched = _searches(monkeypatch)
    validate.validate_file(str(path))
    assert searched == [str(path)]
