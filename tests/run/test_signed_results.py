"""A result with a sign of its own (issue 15): ``result_sign`` gives a 0 its sign, so a "+0"
success and a "-0" failure are told apart, shown, and ranked ... -1, -0, +0, +1 ... with at
least / at most in that order. Checked against a brute force over the d100's faces."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from rulesengine import loads
from rulesengine.errors import RulesEngineError
from rulesengine.limits import Limits

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"

D100 = """\
ruleset: signed
name: Signed success levels
version: "1"
source: a d100 roll-under check with success levels (test)
license: MIT
checks:
  test:
    inputs:
      target: {type: integer, min: 1, max: 99}
    roll: 1d100
    result: target / 10 - roll / 10
    outcomes:
      - {name: success, success: true, when: roll <= target}
      - {name: failure, success: false}
    result_sign: success
"""


def brute_force(target: int) -> dict[tuple[int, int], Fraction]:
    """(success level, 1 for + or 0 for -) → probability, face by face."""
    out: dict[tuple[int, int], Fraction] = {}
    for roll in range(1, 101):
        level = target // 10 - roll // 10
        sign = 1 if level > 0 or (level == 0 and roll <= target) else 0
        out[(level, sign)] = out.get((level, sign), Fraction(0)) + Fraction(1, 100)
    return out


def text(level: int, sign: int) -> str:
    return ("+" if sign else "-") + str(abs(level)) if level == 0 else f"{level:+d}"


@pytest.fixture(scope="module")
def check():
    return loads(D100, "signed.yaml").check("test")


@pytest.mark.parametrize("target", [1, 9, 10, 45, 50, 99])
def test_signed_results_are_ranked_with_minus_zero_below_plus_zero(check, target):
    odds = check.odds({"target": target})
    expected = sorted(brute_force(target).items())  # (level, sign): -0 (sign 0) before +0
    assert list(odds.signed_distribution.items()) == [(text(*k), p) for k, p in expected]
    rows = odds.to_dict()["signed_result"]
    below = Fraction(0)
    for row, (_, p) in zip(rows, expected):
        assert Fraction(row["at_most"]["exact"]) == below + p
        assert Fraction(row["at_least"]["exact"]) == 1 - below
        below += p
    jsonschema.validate(json.loads(json.dumps(odds.to_dict())), json.loads(
        (SCHEMAS / "odds-result.schema.json").read_text(encoding="utf-8")))


def test_plus_zero_and_minus_zero_are_both_possible_and_the_plain_result_merges_them(check):
    odds = check.odds({"target": 45})
    assert odds.signed_distribution["+0"] == Fraction(6, 100)  # 40..45 succeed with level 0
    assert odds.signed_distribution["-0"] == Fraction(4, 100)  # 46..49 fail with level 0
    assert odds.result_distribution[0] == Fraction(10, 100)


@pytest.mark.parametrize("face, shown", [(45, "+0"), (47, "-0"), (12, "+3"), (100, "-6")])
def test_a_roll_shows_its_signed_result(check, face, shown):
    rolled = check.roll({"target": 45}, faces=[face])
    assert rolled.signed_result == shown
    assert rolled.to_dict()["signed_result"] == shown
    jsonschema.validate(json.loads(json.dumps(rolled.to_dict())), json.loads(
        (SCHEMAS / "roll-result.schema.json").read_text(encoding="utf-8")))


def test_the_command_line_prints_the_signed_ranking(capsys, tmp_path):
    from rulesengine.cli import main

    path = tmp_path / "signed.yaml"
    path.write_text(D100, encoding="utf-8")
    assert main(["odds", str(path), "test", "target=45"]) == 0
    out = capsys.readouterr().out
    assert "result (signed)" in out
    lines = [line.split() for line in out.splitlines() if line.strip().startswith(("-0", "+0"))]
    assert [(cols[0], cols[1], cols[2], cols[3]) for cols in lines] == [
        ("-0", "4.00", "49.00", "55.00"), ("+0", "6.00", "45.00", "61.00")]
    assert main(["roll", str(path), "test", "target=45", "--faces", "47"]) == 0
    assert "result: -0" in capsys.readouterr().out


def test_without_result_sign_nothing_changes(check):
    plain = loads(D100.replace("    result_sign: success\n", ""), "plain.yaml").check("test")
    assert plain.odds({"target": 45}).signed_distribution == {}
    assert "signed_result" not in plain.odds({"target": 45}).to_dict()
    assert "signed_result" not in plain.roll({"target": 45}, seed=1).to_dict()


def test_result_sign_must_be_yes_or_no():
    with pytest.raises(RulesEngineError, match="result_sign") as info:
        loads(D100.replace("result_sign: success", "result_sign: roll"), "bad.yaml")
    assert info.value.code == "E520" and (info.value.location.line, info.value.location.column) == (15, 18)


EXPLODING = """\
ruleset: signed-exploding
name: Signed margins of an exploding die
version: "1"
source: a d6 that explodes against a target, margin signed by success (test)
checks:
  test:
    inputs:
      target: {type: integer, min: 0, max: 20}
    roll: 1d6!
    result: roll - target
    result_sign: result >= 0
    outcomes:
      - {name: success, when: "result >= 0", success: true}
      - {name: failure, success: false}
"""


def exploding_d6_at_least(t: int) -> Fraction:
    """P(1d6! >= t), followed forever: k sixes then a face 1-5 stops it, and from k = m on
    every chain reaches t (written apart from the engine)."""
    m = max(t, 0) // 6 + 2
    total = sum(Fraction(1, 6) ** k * Fraction(1, 6) for k in range(m) for r in range(1, 6) if 6 * k + r >= t)
    return total + Fraction(1, 6) ** m


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("target", [0, 3, 7])
def test_signed_at_least_counts_the_cut_mass_in_up_to_result_cut_from(depth, target):
    """The mass the depth cuts has results of ``result_cut_from`` or more: the signed ranks'
    "at least" counts it in up to there, as the result's does, so both are exact there."""
    check = loads(EXPLODING, "signed_exploding.yaml", Limits(explode_depth=depth)).check("test")
    odds = check.odds({"target": target})
    data = odds.to_dict()
    cut_from = data["result_cut_from"]
    assert odds.result_truncated > 0 and cut_from is not None
    checked = 0
    for row in data["signed_result"]:
        level = int(row["value"])
        if level <= cut_from:
            assert Fraction(row["at_least"]["exact"]) == exploding_d6_at_least(level + target), row
            checked += 1
    assert checked >= 6


def test_the_text_table_of_signed_results_counts_the_cut_mass_in_as_the_json_does(capsys, tmp_path):
    from rulesengine.cli import main

    path = tmp_path / "signed_exploding.yaml"
    path.write_text(EXPLODING, encoding="utf-8")
    assert main(["odds", str(path), "test", "target=3", "--explode-depth", "1"]) == 0
    out = capsys.readouterr().out
    rows = {cols[0]: cols for cols in (line.split() for line in out.splitlines()) if cols and cols[0] == "+8"}
    assert rows["+8"][2] == f"{float(exploding_d6_at_least(11)) * 100:.2f}"  # 1/18: the cut mass counted in
    assert "each result below 9, and 'at least' up to 9, is exact" in out
