"""Files found free of errors before (rulesengine/rules/verdicts.py, issue 33): loaded again,
unchanged, a file is not checked again, and a check asked for is built alone. The rule:
a check built alone is the very check the whole file builds, so every answer is the same;
a file with an error never gets a verdict; a changed file is checked again."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import rulesengine.ruleset as ruleset_module
from rulesengine.errors import RulesetError, SchemaError
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.rules import verdicts
from rulesengine.rules.document import load_file
from rulesengine.rules.verdicts import build_alone, clean_before, remember_clean, stands_alone
from store_support import run_twice

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "tests" / "rulesets" / "data").glob("*.yaml")) \
    + [ROOT / "bench" / "pools" / "pools.yaml"]

TWO_CHECKS = """\
ruleset: two
name: Two checks
version: "1"
source: a test
tables:
  dc:
    ladder: {easy: 3, hard: 5}
checks:
  first:
    inputs:
      level: {type: choice, choices: [easy, hard]}
    roll: 1d6
    result: roll
    outcomes:
      - {name: success, when: "result >= dc(level)", success: true}
      - {name: failure, success: false}
  second:
    roll: 2d6
    result: roll
    outcomes:
      - {name: success, when: "result >= 7", success: true}
      - {name: failure, success: false}
"""


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(tmp_path / "store"))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    monkeypatch.setattr(verdicts, "_STORE", None)
    ruleset_module._load_cached.cache_clear()
    yield tmp_path / "store"
    ruleset_module._load_cached.cache_clear()


def _valid(path: Path):
    try:
        return ruleset_module.load(str(path))
    except RulesetError:
        return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_check_built_alone_is_the_check_the_whole_file_builds(path, store):
    whole = _valid(path)
    if whole is None:
        pytest.skip("a file with errors is never built alone")
    model = whole.model
    doc = load_file(str(path))
    for name, check in model.checks.items():
        if not stands_alone(doc, name):
            continue
        alone = build_alone(doc, DEFAULT_LIMITS, name)
        assert alone is not None
        assert alone.checks == {name: check}  # every field of the check, its expressions' trees too
        assert (alone.id, alone.name, alone.source, alone.tables) == (model.id, model.name, model.source, model.tables)
        assert alone.procedures == {}


def test_a_check_any_procedure_mentions_is_built_with_the_whole_file(store):
    doc = load_file(str(ROOT / "rulesets" / "gurps-4e.yaml"))
    assert not stands_alone(doc, "success_roll")  # the contests roll it


def test_a_file_loaded_again_builds_only_the_check_asked_for_with_the_same_answers(store, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(TWO_CHECKS, encoding="utf-8")
    first = ruleset_module.load(str(path))
    assert first._model is not None and clean_before(first.document, DEFAULT_LIMITS)
    ruleset_module._load_cached.cache_clear()
    again = ruleset_module.load(str(path))
    assert again._model is None  # nothing built yet
    assert again.checks() == first.checks() and again.procedures() == first.procedures() == []
    assert (again.id, again.name) == (first.id, first.name)
    for name, inputs in (("first", {"level": "hard"}), ("second", {})):
        assert again.check(name).odds(inputs).to_dict() == first.check(name).odds(inputs).to_dict()
        assert again.check(name).roll(inputs, seed=7).to_dict() == first.check(name).roll(inputs, seed=7).to_dict()
    assert again._model is None  # both checks were built alone
    assert again.warnings == first.warnings and again._model is not None  # the warnings need the whole file
    assert again.model == first.model


def test_a_file_with_an_error_gets_no_verdict(store, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(TWO_CHECKS.replace("result >= 7", "result >= seven"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesetError, match="seven"):
            ruleset_module.load(str(path))
        ruleset_module._load_cached.cache_clear()
    assert not clean_before(load_file(str(path)), DEFAULT_LIMITS)


def test_a_changed_file_is_checked_again(store, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(TWO_CHECKS, encoding="utf-8")
    ruleset_module.load(str(path))
    ruleset_module._load_cached.cache_clear()
    path.write_text(TWO_CHECKS.replace("result >= 7", "result >= seven"), encoding="utf-8")
    with pytest.raises(RulesetError, match="seven"):
        ruleset_module.load(str(path))


def test_a_wrong_verdict_still_finds_the_error_of_the_check_asked_for(store, tmp_path):
    """A verdict is wrong only if the store was tampered with: the check is then built
    alone, finds its own error, and the whole file is loaded and its first error raised."""
    path = tmp_path / "bad.yaml"
    path.write_text(TWO_CHECKS.replace("result >= 7", "result >= seven"), encoding="utf-8")
    remember_clean(load_file(str(path)), DEFAULT_LIMITS)
    rs = ruleset_module.load(str(path))
    assert rs.check("first").odds({"level": "easy"}).success == Fraction(2, 3)
    with pytest.raises(RulesetError, match="seven"):
        rs.check("second")


def test_no_verdict_is_kept_or_read_with_other_limits(store, tmp_path):
    import dataclasses

    path = tmp_path / "two.yaml"
    path.write_text(TWO_CHECKS, encoding="utf-8")
    doc = load_file(str(path))
    remember_clean(doc, dataclasses.replace(DEFAULT_LIMITS, max_dice=10))
    assert not clean_before(doc, DEFAULT_LIMITS)
    remember_clean(doc, DEFAULT_LIMITS)
    assert clean_before(doc, DEFAULT_LIMITS) and not clean_before(doc, dataclasses.replace(DEFAULT_LIMITS, max_dice=10))


def test_a_fresh_process_loading_a_file_checked_before_builds_one_check(store, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(TWO_CHECKS, encoding="utf-8")
    code = (f"import rulesengine; rs = rulesengine.load({str(path)!r}); "
            "print(rs.check('second').odds().success); print(rs._model is None)")
    first, again = run_twice(code, store)
    assert first == ["7/12", "False"]
    assert again == ["7/12", "True"]


def test_a_verdict_planted_on_a_file_the_schema_refuses_gives_the_schema_error(store, tmp_path):
    """The store is input too: a verdict for a file whose check has the wrong shape builds
    nothing on trust; the check asked for gets the file's first error, not a traceback."""
    path = tmp_path / "shape.yaml"
    path.write_text(TWO_CHECKS.replace("    roll: 2d6\n    result: roll\n    outcomes:\n",
                                       "    roll: 2d6\n    result: roll\n    outcomes: 7\n    rules:\n"),
                    encoding="utf-8")
    assert "outcomes: 7" in path.read_text(encoding="utf-8")
    with pytest.raises(SchemaError):
        ruleset_module.load(str(path))  # refused as it is
    ruleset_module._load_cached.cache_clear()
    remember_clean(load_file(str(path)), DEFAULT_LIMITS)
    rs = ruleset_module.load(str(path))
    with pytest.raises(SchemaError):
        rs.check("second")


def test_no_verdict_is_believed_of_a_file_with_no_id(store, tmp_path):
    path = tmp_path / "noid.yaml"
    path.write_text("name: no id\nchecks: {}\n", encoding="utf-8")
    doc = load_file(str(path))
    remember_clean(doc, DEFAULT_LIMITS)
    assert not clean_before(doc, DEFAULT_LIMITS)
    with pytest.raises(SchemaError):
        ruleset_module.load(str(path))


def test_a_verdict_holds_while_the_files_that_decide_it_are_as_they_were():
    """An edit of the schema or of the modules that load a file starts a new store of
    verdicts (the store's folder is named by these files), so every file is checked again."""
    from rulesengine.shipped import ruleset_schema_file

    sources = verdicts._sources()
    names = {Path(p).relative_to(ROOT / "rulesengine").as_posix() for p in sources[:-1]}
    assert sources[-1] == str(ruleset_schema_file())
    assert {"limits.py", "errors.py", "rules/build.py", "rules/schema.py", "rules/structure.py",
            "dice/parser.py", "dice/grammar.lark"} <= names


def test_a_file_validate_finds_free_of_errors_is_not_checked_again_when_loaded(store, tmp_path):
    """A CI job that validates its files, then rolls them, builds each file once: validate
    keeps the verdict a load would have kept; a file with an error gets none."""
    from rulesengine.validate import validate_file

    good, bad = tmp_path / "two.yaml", tmp_path / "bad.yaml"
    good.write_text(TWO_CHECKS, encoding="utf-8")
    bad.write_text(TWO_CHECKS.replace("result >= 7", "result >= seven"), encoding="utf-8")
    assert validate_file(str(good)).errors == 0 and validate_file(str(bad)).errors == 1
    assert clean_before(load_file(str(good)), DEFAULT_LIMITS)
    assert not clean_before(load_file(str(bad)), DEFAULT_LIMITS)
    rs = ruleset_module.load(str(good))
    assert rs._model is None  # loaded on validate's verdict: nothing built yet
    assert rs.check("second").odds().success == Fraction(7, 12)  # 2d6 >= 7, the oracle: 21 of 36 throws
