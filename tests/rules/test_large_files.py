"""Large ruleset files within the limits validate and load in time that grows about linearly
(issue 19, item 10). The tests count the work the engine does, never the clock; the timings
are in bench/README.md ("Large ruleset files", `python bench/large_files.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesengine.rules.ranges as ranges
from rulesengine.rules.model import Check, OutcomeRule
from rulesengine.ruleset import loads


def ranges_ruleset(rows: int, overlap_at: int | None = None) -> str:
    lines = []
    for i in range(rows):
        low = i * 2 - (1 if i == overlap_at else 0)
        lines.append(f"      - {{min: {low}, max: {i * 2 + 1}, value: {i}}}")
    return ("ruleset: big\nname: Big\nversion: \"1\"\nsource: {title: x}\ntables:\n  big:\n    ranges:\n"
            + "\n".join(lines) + "\nchecks:\n  c:\n    roll: 1d6\n    result: roll\n    outcomes:\n"
            "      - {name: hit, success: true, when: big(result) >= 4}\n      - {name: miss, success: false}\n")


def test_overlapping_ranges_are_found_with_one_comparison_per_row(monkeypatch):
    calls = []
    real = ranges.ranges_overlap
    monkeypatch.setattr(ranges, "ranges_overlap", lambda a, b: calls.append(1) or real(a, b))
    loads(ranges_ruleset(2000))
    assert len(calls) < 2000  # every pair would be 1,999,000


def test_every_range_that_overlaps_another_is_still_reported():
    from rulesengine.errors import RulesetError
    from rulesengine.ruleset import analyse
    from rulesengine.rules.document import load_text

    _, diagnostics = analyse(load_text(ranges_ruleset(50, overlap_at=30)))
    overlaps = [d for d in diagnostics if d.code == "E505"]
    assert [(d.message, d.location.pointer) for d in overlaps] == [
        ("ranges 58..59 and 59..61 overlap", "/tables/big/ranges/30")]
    text = ranges_ruleset(3).replace("{min: 0, max: 1,", "{max: 100,")  # "up to 100" covers the rest
    _, diagnostics = analyse(load_text(text))
    assert [d.location.pointer for d in diagnostics if d.code == "E505"] == [
        "/tables/big/ranges/1", "/tables/big/ranges/2"]
    with pytest.raises(RulesetError) as info:
        loads(text)
    assert "overlap" in info.value.message


class CountingTuple(tuple):
    """A tuple that counts how often it is walked."""

    walks = 0

    def __iter__(self):
        CountingTuple.walks += 1
        return super().__iter__()


def test_the_success_of_an_outcome_is_looked_up_not_searched():
    rules = CountingTuple(OutcomeRule(f"o{i}", i % 2 == 0) for i in range(3000))
    check = Check(name="c", description="", inputs=(), lets=(), gates=(), rolls=(), faces_needed=frozenset(),
                  choose=None, result=None, outcomes=rules, tags=(), report=(), tiers=None, secret=None)
    CountingTuple.walks = 0
    answers = [check.outcome_success(f"o{i}") for i in range(3000)]
    names = [check.outcome_names for _ in range(3000)]
    assert CountingTuple.walks == 0  # was one walk of the 3,000 rules per question
    assert answers == [i % 2 == 0 for i in range(3000)] and names[0][:2] == ("o0", "o1")
    assert not check.outcome_success("nope")


def outcome_rules_ruleset(rules: int) -> str:
    rows = "".join(f"      - {{name: o{i}, success: true, when: result == {i + 1}}}\n" for i in range(rules))
    return ("ruleset: big\nname: Big\nversion: \"1\"\nsource: {title: x}\nchecks:\n  c:\n    inputs:\n"
            "      skill: {type: integer, min: 0, max: 2}\n    roll: 3d6\n    result: roll + skill\n"
            f"    outcomes:\n{rows}      - {{name: miss, success: false}}\n")


def test_a_file_of_thousands_of_outcome_rules_writes_a_bounded_number_of_stored_trees(tmp_path, monkeypatch):
    """Issue #30, item 6: validating 9,000 outcome rules wrote 9,000 files to the store of
    parsed expressions (more than half its CPU time) and emptied the store twice a run. A
    process now stops writing once it has used MAX_TREES_PER_PROCESS trees, read or written,
    so a second run of the same file writes nothing."""
    from rulesengine import disk_store
    from rulesengine.dice import tree_store
    from rulesengine.validate import validate_file

    from rulesengine.dice.parser import _parse_cached

    monkeypatch.setenv("RULESENGINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESENGINE_CACHE", raising=False)
    path = tmp_path / "big.yaml"
    path.write_text(outcome_rules_ruleset(1000), encoding="utf-8")
    assert tree_store.MAX_TREES_PER_PROCESS < 1000
    for run in (1, 2):  # each run as a new process: a new store object, no parses remembered
        monkeypatch.setattr(tree_store, "_STORE", disk_store.DiskStore(
            "trees", tree_store._STORE.sources, write_budget=tree_store.MAX_TREES_PER_PROCESS))
        _parse_cached.cache_clear()
        written = set(Path(tree_store._STORE.where() or "").iterdir())
        assert validate_file(str(path)).errors == 0
        written = set(Path(tree_store._STORE.where() or "").iterdir()) - written
        assert len(written) == (tree_store.MAX_TREES_PER_PROCESS if run == 1 else 0), f"run {run}"
    _parse_cached.cache_clear()
