"""Files that read otherwise than written (issue 32): each lint reported at its place, and the
same file written as meant not flagged at all.

The corpus (tests/corpus/mistakes/) holds one file per kind with the place and hint; here each
is written again as its hint says and must come out clean, and each lie is shown to be one
by a brute force of what the file computes."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from rulesengine import dice
from rulesengine.validate import validate_text

MISTAKES = Path(__file__).resolve().parents[1] / "corpus" / "mistakes"


LINTS = ("W510", "W511", "W512", "W513", "W514", "W515", "W516")
"""The codes of the lints tested here (the small files below may well leave work unread,
W520-W525, which tests/rules/test_unread_work.py tests)."""


def found(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.line, d.location.column) for d in validate_text(text, "t.yaml").diagnostics
            if d.code.startswith("E") or d.code in LINTS]


# (corpus file, the mistake, written as its hint says)
FIXED = [
    ("W513_roll20_file_counts_with_cs", "(stamina)d10cs>=8", "(stamina)d10>8"),
    ("W513_roll20_file_takes_off_ones_with_cf", "(dice)d10>8cf1", "(dice)d10>8f=1"),
    ("W514_result_is_a_symbol_rolls_number", "result: roll", "result: symbols(roll, 'success')"),
    ("W514_symbol_roll_compared_with_a_number", '"pool >= 4"', "\"symbols(pool, 'hit') >= 4\""),
    ("W515_doubles_by_index", "roll[0] == roll[1]", "highest(roll) == lowest(roll)"),
    ("W516_highest_die_written_max", "max(pain)", "highest(pain)"),
    ("W510_d20_file_keeps_the_threes", "4d6k3", "4d6kh3"),
    ("W510_foundry_file_rerolls_ones_only_once", "(dice)d6r1", "(dice)d6ro1"),
    ("W510_roll20_file_explodes_on_more_faces", "1d10!>9", "1d10!>=10"),
    ("W510_roll20_file_counts_where_it_compared", "(dice)d10>=8", "(dice)d10>8"),
    ("W511_symbol_misspelled_on_the_die", "[sucess]", "[success]"),
    ("W512_result_sign_puts_every_zero_above", 'result_sign: "true"', "result_sign: success"),
]


def test_every_lint_of_the_corpus_is_written_again_as_meant_here():
    lints = {p.stem for p in MISTAKES.glob("*.yaml") if p.name[:4] in LINTS}
    assert lints == {name for name, _, _ in FIXED}


@pytest.mark.parametrize("name, mistake, meant", FIXED, ids=[n for n, _, _ in FIXED])
def test_a_file_written_as_its_hint_says_is_not_flagged(name, mistake, meant):
    text = (MISTAKES / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.count(mistake) == 1
    code = name[:4]
    assert code in [c for c, _, _ in found(text)]
    assert found(text.replace(mistake, meant)) == []  # clean, even under --strict


# ---- labels only on dice -------------------------------------------------------------------

CHECK = """\
ruleset: t
name: T
version: "1"
source: tests
checks:
  c:
    roll: {roll}
    result: {result}
    outcomes:
      - {{name: hit, when: "{when}", success: true}}
      - {{name: miss, success: false}}
"""


def check(roll: str = "2d6", result: str = "roll", when: str = "result >= 7") -> str:
    return CHECK.format(roll=roll, result=result, when=when)


@pytest.mark.parametrize("roll", ["1d20[attack] + 5", "(1d20, 1d20)kh1[best]", "(2d6kh1)[high] + 1d4[extra]"])
def test_a_label_on_a_dice_term_or_a_set_of_rolls_is_fine_in_a_ruleset(roll):
    assert found(check(roll=roll)) == []


@pytest.mark.parametrize("where, written, label", [
    ("when", "roll[0] == roll[1]", "[0]"),
    ("result", "roll + 5[bonus]", "[bonus]"),
    ("when", "count(roll, 6)[sixes] >= 1", "[sixes]"),
    ("roll", "2d6 + (3)[three]", "[three]"),
])
def test_a_label_after_anything_but_dice_is_warned_at_the_label(where, written, label):
    text = check(**{where: written})
    line = next(i for i, t in enumerate(text.splitlines(), 1) if written in t)
    column = text.splitlines()[line - 1].index(label) + 1
    assert ("W515", line, column) in found(text)


def test_outside_a_ruleset_a_label_still_goes_anywhere_and_changes_nothing():
    """The lie W515 stops: ``x[0] == x[1]`` is ``x == x``, true whatever x is."""
    assert dice.roll("1d20[attack] + 5[strength]", faces=[13]).total == 18
    for x in (1, 4):
        assert dice.odds("x[0] == x[1]", env={"x": x}).distribution == {True: 1}


# ---- max() and min() of one value ---------------------------------------------------------

@pytest.mark.parametrize("where, written, hint", [
    ("result", "max(roll)", "for a roll's highest die write highest(roll)"),
    ("when", "min(roll) >= 2", "for a roll's lowest die write lowest(roll)"),
    ("result", "roll + max((roll[attack]))", "for a roll's highest die write highest((roll[attack]))"),
    ("result", "min(roll - 3)", "give min() two or more values to compare, e.g. min(roll - 3, 10)"),
    ("roll", "max(3d6) + 1", "for their highest die write highest(3d6)"),
])
def test_max_or_min_of_one_value_is_warned_at_the_call_with_what_was_meant(where, written, hint):
    text = check(**{where: written})
    line = next(i for i, t in enumerate(text.splitlines(), 1) if written in t)
    call = written[written.index("m"):]
    column = text.splitlines()[line - 1].index(call) + 1
    report = validate_text(text, "t.yaml")
    warned = [d for d in report.diagnostics if d.code == "W516"]
    assert [(d.location.line, d.location.column) for d in warned] == [(line, column)]
    assert hint in (warned[0].hint or "")


@pytest.mark.parametrize("result", ["max(roll, 0)", "min(roll, 10) + max(highest(roll), lowest(roll), 2)",
                                    "highest(roll)", "max(count(roll, 6), count(roll, 1))"])
def test_max_or_min_of_two_values_or_more_is_not_warned(result):
    assert [d for d in validate_text(check(result=result), "t.yaml").diagnostics if d.code == "W516"] == []


def test_max_of_a_roll_is_its_total_not_its_highest_die():
    """The lie W516 stops: ``max(roll)`` of 2d6 is the sum (mean 7), not the highest die,
    whose chances the brute force of both dice gives (mean 161/36)."""
    total = dice.odds("max(2d6)").distribution
    assert sum(F(v) * p for v, p in total.items()) == 7
    highest = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        highest[max(a, b)] = highest.get(max(a, b), 0) + F(1, 36)
    assert dice.odds("2d6kh1").distribution == highest
    assert sum(v * p for v, p in highest.items()) == F(161, 36)


# ---- symbol dice ---------------------------------------------------------------------------

SYMBOLS = """\
ruleset: t
name: T
version: "1"
source: tests
dice:
  attack:
    faces: [[], [hit], [hit], [hit, hit], [crit], [crit, hit]]
  shield:
    faces: [[], [block], [block]]
checks:
  c:
    inputs:
      dice: {{type: integer, default: 2, min: 1, max: 4}}
      big: {{type: boolean, default: false}}
    rolls:
      pool: (dice)d{{attack}}
      mixed: 1d{{shield}} + 1d6
    let:
      hits: symbols(pool, 'hit')
      {let}
    result: {result}
    outcomes:
      - {{name: hit, when: "{when}", success: true}}
      - {{name: miss, success: false}}
tables:
  band:
    ranges:
      - {{min: -10, max: 3, value: 0}}
      - {{min: 4, max: 100, value: 1}}
"""


def symbols_file(let: str = "other: 0", result: str = "hits", when: str = "hits >= 2") -> str:
    return SYMBOLS.format(let=let, result=result, when=when)


@pytest.mark.parametrize("let, result, when", [
    ("other: 0", "hits", "hits >= 2"),
    ("sixes: count(pool, 6)", "hits + sixes", "highest(pool) >= 5 or lowest(pool) == 1"),
    ("alias: pool", "symbols(alias, 'crit')", "symbols(pool, 'hit', 'crit') >= 2"),
    ("other: mixed + 1", "mixed", "mixed >= 4"),  # a shield die and a d6: a number of its own
])
def test_a_symbol_roll_read_by_its_symbols_or_its_dice_is_fine(let, result, when):
    assert found(symbols_file(let, result, when)) == []


@pytest.mark.parametrize("let, result, when, written", [
    ("other: 0", "pool", "hits >= 2", "pool"),
    ("other: pool + 1", "hits", "hits >= 2", "pool + 1"),
    ("other: 0", "hits", "pool >= 4", "pool >= 4"),
    ("other: if(big, pool, 0)", "hits", "hits >= 2", "if(big, pool, 0)"),
    ("other: band(pool)", "hits", "hits >= 2", "band(pool)"),
    ("alias: pool", "hits", "alias == 3", "alias == 3"),
    ("other: max(pool, 2)", "hits", "hits >= 2", "max(pool, 2)"),
])
def test_the_number_of_a_symbol_roll_used_as_a_number_is_warned_naming_symbols(let, result, when, written):
    report = validate_text(symbols_file(let, result, when), "t.yaml")
    refused = [d for d in report.diagnostics if d.code == "W514"]
    assert len(refused) == 1 and "symbols(" in refused[0].hint
    assert written in refused[0].location.source_line


def test_the_number_of_a_symbol_roll_is_the_sum_of_its_faces_places():
    """What W514 stops: the number counts places, not symbols (two of d{[], [hit], [hit, hit]}:
    2 to 6, though they show 0 to 4 hits)."""
    distribution = dice.odds("2d{[], [hit], [hit, hit]}").distribution
    by_hand: dict[int, F] = {}
    for a, b in itertools.product((1, 2, 3), repeat=2):
        by_hand[a + b] = by_hand.get(a + b, F(0)) + F(1, 9)
    assert dict(distribution) == by_hand


@pytest.mark.parametrize("faces, let", [
    ("[[], [hit], [hit], [hit, hit], [crit], [crit, hit]]", "other: 0"),  # crit on two faces, never counted
    ("[[], [hit], [hit], [hit, hit], [crit], [crit, triumph]]", "triumphs: symbols(pool, 'triumph')"),  # counted
])
def test_a_symbol_shown_twice_or_counted_is_not_flagged(faces, let):
    text = symbols_file(let=let).replace("[[], [hit], [hit], [hit, hit], [crit], [crit, hit]]", faces)
    assert found(text) == []


def test_a_symbol_on_one_face_that_nothing_counts_is_flagged_at_that_face():
    text = symbols_file().replace("[crit, hit]]", "[crit, hti]]")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "hti" in t)
    column = text.splitlines()[line - 1].index("hti") + 1
    report = validate_text(text, "t.yaml")
    [said] = [d for d in report.diagnostics if d.code == "W511"]
    assert (said.location.line, said.location.column) == (line, column) and said.hint == "did you mean 'hit'?"


# ---- result_sign against the outcome's success ---------------------------------------------

SIGNED = """\
ruleset: t
name: T
version: "1"
source: tests
checks:
  test:
    inputs:
      target: {type: integer, min: 1, max: 99, default: 45}
    roll: 1d100
    result: target / 10 - roll / 10
    outcomes:
      - {name: success, success: true, when: roll <= target}
      - {name: failure, success: false}
    result_sign: SIGN
"""


def zero_against_success(target: int, sign) -> bool:
    """Whether some roll of the d100 gives a level of 0 whose sign (``sign(roll)``, + when
    true) is not its success (the roll at most the target), face by face."""
    return any(target // 10 - roll // 10 == 0 and sign(roll, target) != (roll <= target) for roll in range(1, 101))


@pytest.mark.parametrize("sign, shown, meaning", [
    ('"true"', "'+0' on outcome 'failure'", lambda roll, target: True),
    ('"false"', "'-0' on outcome 'success'", lambda roll, target: False),
    ('"roll < target"', "'-0' on outcome 'success'", lambda roll, target: roll < target),
])
def test_a_sign_against_the_outcomes_success_is_warned_with_inputs_that_show_it(sign, shown, meaning):
    report = validate_text(SIGNED.replace("SIGN", sign), "t.yaml")
    [said] = [d for d in report.diagnostics if d.code == "W512"]
    assert said.severity == "warning" and shown in said.message and said.location.line == 14
    target = int(re.search(r"target=(\d+)", said.message).group(1))
    assert zero_against_success(target, meaning)


@pytest.mark.parametrize("sign", ["success", '"roll <= target"', "outcome == 'success'"])
def test_a_sign_that_follows_the_outcome_is_not_warned(sign):
    assert not any(zero_against_success(t, lambda roll, target: roll <= target) for t in range(1, 100))
    assert found(SIGNED.replace("SIGN", f'"{sign}"' if "'" in sign else sign)) == []


@pytest.mark.parametrize("name", ["W513_roll20_file_counts_with_cs", "W514_result_is_a_symbol_rolls_number",
                                  "W515_doubles_by_index"])
def test_a_deprecated_spelling_still_loads_and_answers_as_before(name):
    """Promise 3: a file that loaded on the last release loads on the next with the same
    answers, or gets a deprecation warning naming the fix first. These spellings compute
    something else than they say, so they are warned (and a later release refuses them);
    the file still loads, with the warning among the ruleset's warnings."""
    from rulesengine.ruleset import load

    rs = load(MISTAKES / f"{name}.yaml")
    assert name[:4] in {w.code for w in rs.warnings}
    check = rs.checks()[0]
    assert sum(rs.check(check).odds({}).outcomes.values()) == 1
