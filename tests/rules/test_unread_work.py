"""Work that nothing reads (issue 32): validate warns of a roll never read (W520), an input
never read (W521), a choose whose chosen values no rule reads (W522), a tag that can never be
set (W523), an outcome rule an earlier rule shadows (W524) and a value never read (W525), and
never of a correct file.

The figures are checked against oracles written here: a brute-force sweep over whole numbers
for which earlier conditions take every value a later one allows, an enumeration of two d6
for which totals a tag can see, and the odds themselves for "every value of the input gives
the same answers".
"""

from __future__ import annotations

import itertools
import operator
from pathlib import Path

import pytest

from rulesengine.cli import main
from rulesengine.rules.document import load_text
from rulesengine.rules.unread import unread_work
from rulesengine.ruleset import analyse
from rulesengine.validate import validate_paths, validate_text

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus" / "mistakes"
UNREAD = {"W520", "W521", "W522", "W523", "W524", "W525"}

HEAD = 'ruleset: t\nname: T\nversion: "1"\nsource: test\nchecks:\n'


def codes(text: str) -> list[tuple[str, int]]:
    report = validate_text(text, "t.yaml")
    return [(d.code, d.location.line) for d in report.diagnostics]


# ---- correct files are not flagged ---------------------------------------------------------


def test_every_shipped_ruleset_passes_strict_validation_with_no_work_nothing_reads():
    reports = validate_paths([str(ROOT / "rulesets")])
    assert reports
    found = [(r.path, d.code, d.location.line) for r in reports for d in r.diagnostics]
    assert found == []


FIXES = [  # a corpus mistake, and the edit that fixes it
    ("W520_reroll_never_read.yaml", "result: first + skill", "result: kept + skill"),
    ("W520_advantage_second_die_never_read.yaml", "max(natural, natural)", "max(natural, second)"),
    ("W520_hit_location_rolled_and_never_shown.yaml", "result: skill - attack",
     "report: [location]\n    result: skill - attack"),
    ("W521_difficulty_written_as_a_number.yaml", "result >= 10}", "result >= difficulty}"),
    ("W522_result_reads_the_roll_not_the_chosen.yaml", "result: roll", "result: total"),
    ("W523_natural_twenty_on_a_d12.yaml", "roll == 20", "roll == 12"),
    ("W524_critical_after_success.yaml",
     "      - {name: success, success: true, when: result >= 10}\n      - {name: critical, success: true, when: result >= 20}",
     "      - {name: critical, success: true, when: result >= 20}\n      - {name: success, success: true, when: result >= 10}"),
    ("W525_degree_worked_out_and_not_reported.yaml", "result: roll", "report: [degree]\n    result: roll"),
]


@pytest.mark.parametrize(("name", "old", "new"), FIXES, ids=[f[0][:-5] for f in FIXES])
def test_a_corpus_mistake_fixed_is_no_longer_flagged(name, old, new):
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert old in text
    assert name[:4] in {c for c, _ in codes(text)}
    assert not {c for c, _ in codes(text.replace(old, new, 1))} & UNREAD


def test_a_value_read_only_by_a_procedure_is_read():
    text = HEAD + """\
  opposed:
    inputs:
      skill: {type: integer, default: 10, min: 3, max: 18}
    roll: 3d6
    let:
      total: skill + roll
    outcomes:
      - {name: done, success: true}
procedures:
  contest:
    kind: contest
    check: opposed
    rank_by: [total]
"""
    assert not {c for c, _ in codes(text)} & UNREAD


def test_a_check_decided_without_dice_writes_a_roll_of_none_and_is_not_flagged():
    """"Take the average" (Ubiquity): no dice are rolled, on purpose; `roll: 0d6` says so,
    and nothing reads it. A roll of one die nothing reads is still flagged."""
    text = HEAD + """\
  average:
    inputs:
      dice: {type: integer, min: 1, max: 10}
    roll: 0d6
    result: dice / 2
    outcomes:
      - {name: success, when: "result >= 2", success: true}
      - {name: failure, success: false}
"""
    assert not {c for c, _ in codes(text)} & UNREAD
    assert ("W520", 9) in codes(text.replace("roll: 0d6", "roll: 1d6"))


def test_a_roll_read_only_by_choose_whose_values_are_read_is_read():
    path = ROOT / "rulesets" / "mudd.yaml"
    assert not {c for c, _ in codes(path.read_text(encoding="utf-8"))} & UNREAD


# ---- the warning is true: an unread input changes no answer ------------------------------------


@pytest.mark.parametrize("name", ["W521_modifier_input_forgotten.yaml", "W521_edge_never_reaches_the_roll.yaml"])
def test_every_value_of_an_input_nothing_reads_gives_the_same_odds(name, capsys):
    """The oracle is the engine's odds at each value, compared with each other (not with
    any figure): the warning says they can't differ."""
    path = CORPUS / name
    text = path.read_text(encoding="utf-8")
    check = "success_roll" if "success_roll" in text else "check"
    given = ["modifier=-10", "modifier=10"] if "modifier_input" in name else \
        ["edge=advantage", "edge=disadvantage"]
    outputs = []
    for value in given:
        assert main(["odds", str(path), check, value]) == 0
        out = capsys.readouterr().out
        outputs.append([line for line in out.splitlines() if not line.startswith("inputs:")])
    assert outputs[0] == outputs[1]


# ---- W524: shadowed rules, against a brute-force oracle ---------------------------------------

OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
       "!=": operator.ne}
SWEEP = range(-20, 21)  # every constant below is within -3..3: what holds past the sweep, holds at its ends


def shadowed(earlier: list[tuple[str, int]], later: tuple[str, int]) -> bool:
    """Brute force: every whole number the later comparison allows, an earlier one takes."""
    return all(any(OPS[op](x, n) for op, n in earlier) for x in SWEEP if OPS[later[0]](x, later[1]))


def flagged(rules: list[tuple[str, int]]) -> set[int]:
    """The indexes of the rules W524 flags, for rules ``x OP N`` on an input x."""
    outcomes = "".join(f'      - {{name: r{i}, success: true, when: "x {op} {n}"}}\n'
                       for i, (op, n) in enumerate(rules))
    text = HEAD + f"""\
  c:
    inputs:
      x: {{type: integer, default: 0}}
    roll: 1d2
    result: roll + x
    outcomes:
{outcomes}      - {{name: other, success: false}}
"""
    doc = load_text(text, "t.yaml")
    model, diagnostics = analyse(doc)
    assert model is not None, diagnostics
    first_rule_line = 12
    return {d.location.line - first_rule_line for d in unread_work(model, doc) if d.code == "W524"}


PAIRS = [((a, m), (b, n)) for a, b in itertools.product(OPS, OPS) for m, n in ((0, 0), (0, 2), (2, 0), (-3, 3))]


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"x{a}{m}-then-x{b}{n}" for (a, m), (b, n) in PAIRS])
def test_a_comparison_after_a_broader_one_is_flagged_exactly_when_it_can_never_apply(first, second):
    assert (1 in flagged([first, second])) == shadowed([first], second)


TRIPLES = [(("<", 0), (">", 0), ("!=", 0)), (("<=", -1), (">=", 1), ("!=", 0)), (("<", 0), (">=", 0), (">=", -2)),
           (("<", 0), (">", 1), ("!=", 0)), (("<=", 2), (">=", 4), ("!=", 3)), (("<=", 2), (">=", 5), ("!=", 3))]


@pytest.mark.parametrize("rules", TRIPLES, ids=[" ".join(f"x{o}{n}" for o, n in t) for t in TRIPLES])
def test_a_range_the_rules_above_cover_between_them_is_flagged_exactly_when_it_can_never_apply(rules):
    assert (2 in flagged(list(rules))) == shadowed(list(rules[:2]), rules[2])


def test_the_same_condition_again_or_a_conjunction_with_it_is_shadowed_and_a_disjunction_is_not():
    def w524(later: str) -> set[str]:
        text = HEAD + f"""\
  c:
    roll: 2d6
    let:
      sixes: count(roll, 6)
      ones: count(roll, 1)
    outcomes:
      - {{name: first, success: true, when: "sixes >= 1 and ones == 0"}}
      - {{name: later, success: true, when: "{later}"}}
      - {{name: other, success: false}}
"""
        return {c for c, line in codes(text) if line == 13}

    assert "W524" in w524("sixes >= 1 and ones == 0")
    assert "W524" in w524("(ones == 0) and (sixes >= 1)")
    assert "W524" in w524("sixes >= 2 and ones == 0 and roll > 5")
    assert "W524" not in w524("sixes >= 1 or ones == 0")
    assert "W524" not in w524("sixes >= 1")


# ---- W523: tags, against an enumeration of the dice --------------------------------------------

TOTALS_2D6 = {a + b for a in range(1, 7) for b in range(1, 7)}


@pytest.mark.parametrize("n", range(0, 15))
def test_a_tag_is_flagged_exactly_when_no_roll_of_the_dice_sets_it(n):
    text = HEAD + f"""\
  c:
    roll: 2d6
    outcomes:
      - {{name: any, success: true}}
    tags:
      - {{name: t, when: roll == {n}}}
"""
    assert (("W523", 11) in codes(text)) == (n not in TOTALS_2D6)


def test_a_tag_for_inputs_a_gate_decides_is_never_set_and_one_for_the_others_is():
    def tag_codes(when: str) -> set[str]:
        text = HEAD + f"""\
  c:
    inputs:
      skill: {{type: integer, default: 10, min: 0, max: 18}}
    gates:
      - {{when: skill < 3, outcome: not_allowed}}
    roll: 3d6
    outcomes:
      - {{name: success, success: true, when: roll <= skill}}
      - {{name: failure, success: false}}
    tags:
      - {{name: t, when: "{when}"}}
"""
        return {c for c, _ in codes(text)}

    assert "W523" in tag_codes("skill < 3")
    assert "W523" not in tag_codes("skill < 4")
    # A roll of 3d6 from 3 to 18 against a skill of at most 18: a success never shows 19.
    assert "W523" in tag_codes("success and roll > 18")
    assert "W523" not in tag_codes("success and roll == 18")


def test_a_tag_the_search_cannot_decide_gets_no_warning():
    """An input without bounds: the combinations can't all be worked out, so nothing is said
    (a file has no way to settle a tag warning)."""
    text = HEAD + """\
  c:
    inputs:
      bonus: {type: integer, default: 0}
    roll: 1d6
    result: roll + bonus
    outcomes:
      - {name: any, success: true}
    tags:
      - {name: t, when: result > 1000}
"""
    assert "W523" not in {c for c, _ in codes(text)}


def test_plain_validate_shows_the_warnings_and_strict_fails_on_them(capsys):
    path = CORPUS / "W520_reroll_never_read.yaml"
    assert main(["validate", str(path)]) == 0
    assert "warning[W520]" in capsys.readouterr().out
    assert main(["validate", "--strict", str(path)]) == 1


def test_a_shadowed_rule_is_w524_not_also_w503():
    report_codes = [c for c, _ in codes((CORPUS / "W524_critical_after_success.yaml").read_text(encoding="utf-8"))]
    assert "W524" in report_codes and "W503" not in report_codes
