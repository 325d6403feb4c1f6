"""Last release's files still work (issue 29): the compatibility corpus.

Each folder here (``v0.1.0``, ...) holds ruleset files as a release shipped or accepted them
and ``answers.json``, what that release's engine answered (written by ``record.py``). Today's
engine must give the same answers: a file that loaded still loads, with no new warning but
a deprecation, and gives the same exact odds at every recorded point; a file that was
refused is refused with the same codes. A change is allowed only where ``CHANGES`` lists it,
with the CHANGELOG.md entry that tells users.
"""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulesengine.codes import CODES

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("compat_record", HERE / "record.py")
assert _spec is not None and _spec.loader is not None
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

RELEASES = sorted(p.parent.name for p in HERE.glob("*/answers.json"))
ANSWERS = {r: json.loads((HERE / r / "answers.json").read_text(encoding="utf-8")) for r in RELEASES}

DEPRECATIONS = {c.code for c in CODES.values() if c.meaning.startswith("deprecated")}
"""Warnings a file that loaded may newly get: each names the fix, a release ahead of any break."""

CHANGES: dict[tuple[str, str], tuple[dict[str, list[str]], str]] = {
    ("v0.1.0", "broken/E525_report_named_like_a_result_key.yaml"): (
        {"errors": [], "warnings": ["W504"]},
        "CHANGELOG [Unreleased] Changed: a reported value named like a key of the rolled result loads "
        "again (E525 -> deprecation W504); its value is under the result's 'report'"),
}
"""Recorded diagnostics that today's engine answers otherwise, on purpose: (release, file) ->
(today's codes, the CHANGELOG entry). Only a refusal may become a deprecation here; an
answer (odds) may never change."""

FAULTS_FOUND: dict[tuple[str, str], tuple[list[str], str]] = {
    ("v0.1.0", "rulesets/rps.yaml"): (
        ["E510", "E510"],
        "CHANGELOG [Unreleased] Fixed: rps's resisted actions between two parties who both forgo "
        "the roll (or are both assured) tied forever; validate finds such a contest (E510)"),
}
"""Files that loaded, in which today's ``validate`` finds a fault the rules always had (some
inputs inside their bounds fail when rolled): (release, file) -> (today's error codes, the
CHANGELOG entry). The file still loads and gives the same odds at every recorded point; only
validate's verdict changes, because the file was wrong."""


def test_faults_found_name_a_file_that_loaded_a_fault_code_and_a_fix():
    for (r, f), (codes, why) in FAULTS_FOUND.items():
        assert "checks" in ANSWERS[r]["files"][f] and codes, (r, f)
        assert all(CODES[c].raised_as == "RulesetError" or c[:2] in ("E1", "E2") for c in codes), codes
        assert why.startswith("CHANGELOG") and "Fixed" in why, why


def _cases(kind: str) -> list[tuple[str, str]]:
    return [(r, f) for r in RELEASES for f, rec in ANSWERS[r]["files"].items()
            if ("checks" in rec) == (kind == "loaded")]


LOADED = _cases("loaded")
REFUSED = _cases("refused")


def _ids(cases: list[tuple[str, str]]) -> list[str]:
    return [f"{r}/{f}" for r, f in cases]


def test_the_corpus_holds_every_kind_of_file_of_the_first_release():
    """v0.1.0 has every shipped ruleset, every test ruleset and every broken file of its time."""
    files = ANSWERS["v0.1.0"]["files"]
    for sub in ("rulesets", "test-rulesets", "broken"):
        assert any(f.startswith(sub + "/") for f in files), sub
    assert "rulesets/dnd-5e-srd.yaml" in files and "test-rulesets/dice-pools.yaml" in files
    assert sum(len(points) for rec in files.values() for points in rec.get("checks", {}).values()) > 300


def test_every_recorded_file_is_in_its_release_folder():
    for r in RELEASES:
        on_disk = {p.relative_to(HERE / r).as_posix() for p in record.release_files(HERE / r)}
        assert on_disk == set(ANSWERS[r]["files"]), r


def test_changes_name_a_recorded_refusal_and_only_relax_it():
    for (r, f), (now, why) in CHANGES.items():
        was = ANSWERS[r]["files"][f]
        assert "checks" not in was and was["errors"], (r, f)
        assert not now["errors"] and set(now["warnings"]) <= DEPRECATIONS | set(was["warnings"]), (r, f)
        assert why.startswith("CHANGELOG"), why


@pytest.mark.parametrize("release, name", LOADED, ids=_ids(LOADED))
def test_a_file_that_loaded_still_loads_with_no_new_warning_but_a_deprecation(release, name):
    was = ANSWERS[release]["files"][name]
    now = record.diagnostics(HERE / release / name)
    assert now["errors"] == FAULTS_FOUND.get((release, name), ([], ""))[0], now
    new = set(now["warnings"]) - set(was["warnings"])
    assert new <= DEPRECATIONS, new


@pytest.mark.parametrize("release, name", LOADED, ids=_ids(LOADED))
def test_a_file_that_loaded_gives_the_same_exact_odds_at_every_recorded_point(release, name):
    rec = ANSWERS[release]["files"][name]
    assert ANSWERS[release]["budget"] == record.BUDGET  # the points were recorded under this budget
    rs = record.load_limited(HERE / release / name)
    assert set(rs.checks()) >= set(rec["checks"])
    for check, points in rec["checks"].items():
        for point in points:
            if "skipped" in point:
                continue  # more work than the budget when recorded: no answer to hold it to
            now = record.odds_of(rs, check, point["inputs"])
            if "skipped" in now:
                pytest.fail(f"{check} {point['inputs']}: now needs more than {record.BUDGET:,} steps")
            want = {k: v for k, v in point.items() if k != "inputs"}
            assert_same_or_more_exact(now, want, (check, point["inputs"]))


def assert_same_or_more_exact(now: dict, want: dict, where: object) -> None:
    """The same answer; or, where the recorded one left mass cut off by the explosion depth
    (``truncated`` > 0), one within its bounds that cuts less: each probability at least
    what was recorded and at most that plus the recorded cut (a release that works out
    more of the cut mass exactly gives the same answers, only more of them)."""
    if "values" not in want or Fraction(want["truncated"]) == 0:
        assert happening(now) == happening(want), where
        return
    cut = Fraction(want["truncated"])
    assert Fraction(now["truncated"]) <= cut, where
    for name, p in list(want["outcomes"].items()) + [("(success)", want["success"])]:
        got = Fraction(now["success"] if name == "(success)" else now["outcomes"].get(name, "0"))
        assert Fraction(p) <= got <= Fraction(p) + cut, (where, name)
    for name, rows in want["values"].items():
        got_rows = {json.dumps(v): Fraction(q) for v, q in now["values"][name]}
        for v, q in rows:
            assert got_rows.get(json.dumps(v), Fraction(0)) >= Fraction(q), (where, name, v)
        assert sum(got_rows.values(), Fraction(0)) <= 1, (where, name)


def happening(answer: dict) -> dict:
    """An answer with the rows of probability 0 left out: a row listed at 0 and a row not
    listed say the same (since issue 29 declared values are listed at 0 where they can't
    happen), and any other difference is a changed answer."""
    if "values" not in answer:
        return answer
    return {**answer, "outcomes": {k: p for k, p in answer["outcomes"].items() if p != "0/1"},
            "values": {name: [row for row in rows if row[1] != "0/1"] for name, rows in answer["values"].items()}}


@pytest.mark.parametrize("release, name", REFUSED, ids=_ids(REFUSED))
def test_a_file_that_was_refused_is_refused_with_the_same_codes(release, name):
    was = ANSWERS[release]["files"][name]
    now = record.diagnostics(HERE / release / name)
    if (release, name) in CHANGES:
        assert now == CHANGES[release, name][0]
        return
    assert now == {"errors": was["errors"], "warnings": was["warnings"]}


def test_a_report_named_dice_as_written_before_e525_loads_with_a_deprecation_and_its_odds():
    """Issue 29, item 7: a check reporting a value named 'dice' (a key of the rolled result)
    loaded before validate refused it; it loads again, warned (W504, naming the fix), and its
    odds are what that engine gave: 1 - (2/3)**n of at least one 5 or 6 on n = skill + 1 d6."""
    name = "rulesets/report-named-dice.yaml"
    rec = ANSWERS["pre-v0.1.0"]["files"][name]
    now = record.diagnostics(HERE / "pre-v0.1.0" / name)
    assert now == {"errors": [], "warnings": ["W504"]}
    for point in rec["checks"]["pool_roll"]:
        n = point["inputs"]["skill"] + 1
        hit = 1 - Fraction(2, 3) ** n
        assert point["outcomes"]["success"] == record.fraction(hit)
        assert point["values"]["dice"] == [[n, "1/1"]]
