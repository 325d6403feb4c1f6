"""cyberpunk-3d6: rules CP-1..CP-11 of seed 003 (seeds/003_6d6c6d8826e5c373.txt).

The seed's DN table and its whole probability table are transcribed here as data; the
ruleset's exact odds must reproduce them, and so must a brute force written here from
the rules (every 3d6 outcome through ``itertools.product``), independent of the engine.
Contests and extended tests are checked against brute forces of their own (the joint of
two 3d6 rolls; a Markov chain over the clocks written out plainly); team tests against
the rolling member's own odds, complementary tests against every pair of 3d6 rolls.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

import rulesengine.ruleset as R
from rulesengine.errors import InputError
from rulesengine.ruleset import analyse
from rulesengine.rules.document import load_file

PATH = Path(__file__).resolve().parents[2] / "rulesets" / "cyberpunk-3d6.yaml"
ROLLS = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]  # all 216 outcomes of 3d6
OUTCOMES = ("critical_success", "success", "failure", "critical_failure")

# Seed 003, the DN table: task difficulty -> (characteristic test DN, skill test DN).
SEED_DN_TABLE = {
    "Very Easy": (10, 12),
    "Easy": (12, 14),
    "Simple": (14, 16),
    "Average": (16, 18),
    "Hard": (18, 20),
    "Very Hard": (20, 24),
    "Extreme": (24, 28),
    "Impossible": (28, 32),
}

# Seed 003, the probability table, every row as printed (the seed has no row for 5).
# DN - modifier -> (Success (Total), Success, Critical Success,
#                   Failure (Total), Failure, Critical Failure), in percent.
SEED_PROBABILITY_TABLE = {
    -1: (99.5, 0.0, 99.5, 0.5, 0.0, 0.5),  # printed "-1–": -1 and below
    0: (99.5, 1.4, 98.1, 0.5, 0.0, 0.5),
    1: (99.5, 4.2, 95.4, 0.5, 0.0, 0.5),
    2: (99.5, 8.8, 90.7, 0.5, 0.0, 0.5),
    3: (99.5, 15.7, 83.8, 0.5, 0.0, 0.5),
    4: (99.5, 25.5, 74.1, 0.5, 0.0, 0.5),
    6: (95.4, 45.4, 50.0, 4.6, 4.2, 0.5),
    7: (90.7, 53.2, 37.5, 9.3, 8.8, 0.5),
    8: (83.8, 57.9, 25.9, 16.2, 15.7, 0.5),
    9: (74.1, 57.9, 16.2, 25.9, 25.5, 0.5),
    10: (62.5, 53.2, 9.3, 37.5, 35.6, 1.9),
    11: (50.0, 45.4, 4.6, 50.0, 45.4, 4.6),
    12: (37.5, 35.6, 1.9, 62.5, 53.2, 9.3),
    13: (25.9, 25.5, 0.5, 74.1, 57.9, 16.2),
    14: (16.2, 16.2, 0.0, 83.8, 57.9, 25.9),
    15: (9.3, 9.3, 0.0, 90.7, 53.2, 37.5),
    16: (4.6, 4.6, 0.0, 95.4, 45.4, 50.0),
    17: (1.9, 1.9, 0.0, 98.1, 35.6, 62.5),
    18: (0.5, 0.5, 0.0, 99.5, 25.5, 74.1),
    19: (0.0, 0.0, 0.0, 100.0, 16.2, 83.8),
    20: (0.0, 0.0, 0.0, 100.0, 9.3, 90.7),
    21: (0.0, 0.0, 0.0, 100.0, 4.6, 95.4),
    22: (0.0, 0.0, 0.0, 100.0, 1.9, 98.1),
    23: (0.0, 0.0, 0.0, 100.0, 0.5, 99.5),
    24: (0.0, 0.0, 0.0, 100.0, 0.0, 100.0),  # printed "24+": 24 and above
}


@pytest.fixture(scope="module")
def rs():
    return R.load("cyberpunk-3d6")


# ---- an independent restatement of CP-3 and CP-4 ------------------------------------------------


def judge(roll: int, bonus: int, dn: int, fumble_margin: int = 6) -> str:
    """CP-3/CP-4 in plain Python: degree = 3d6 + bonus - DN; a natural 3 or a miss by the
    fumble margin is a critical failure; a degree of 5+ a critical success."""
    degree = roll + bonus - dn
    if roll == 3 or degree <= -fumble_margin:
        return "critical_failure"
    if degree >= 5:
        return "critical_success"
    if degree >= 0:
        return "success"
    return "failure"


def brute_force(bonus: int, dn: int, fumble_margin: int = 6) -> dict[str, Fraction]:
    counts = dict.fromkeys(OUTCOMES, 0)
    for roll in ROLLS:
        counts[judge(roll, bonus, dn, fumble_margin)] += 1
    return {k: Fraction(v, 216) for k, v in counts.items()}


def table_row(p: dict[str, Fraction]) -> tuple[float, ...]:
    """The six columns of the seed's table, in percent to one decimal."""
    def pct(x: Fraction) -> float:
        return round(float(x * 100), 1)

    return (pct(p["critical_success"] + p["success"]), pct(p["success"]), pct(p["critical_success"]),
            pct(p["failure"] + p["critical_failure"]), pct(p["failure"]), pct(p["critical_failure"]))


# ---- the file ---------------------------------------------------------------------------------


def test_the_ruleset_validates_with_no_diagnostics():
    model, diags = analyse(load_file(PATH))
    assert model is not None
    assert diags == []


def test_the_file_declares_its_schema_and_cites_the_seed():
    text = PATH.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/ruleset.schema.json")
    rs = R.load(PATH)
    assert "seed 003" in rs.model.source.section


def test_every_rule_cp1_to_cp11_is_encoded_or_cited(rs):
    cited = set()
    for check in rs.model.checks.values():
        cited |= set(check.rules)
    for proc in rs.model.procedures.values():
        cited |= set(proc.rules)
    assert {f"CP-{i}" for i in range(1, 12)} - cited == set()
    assert "CP-9" in rs.model.procedures["team"].rules
    assert "CP-10" in rs.model.procedures["complementary"].rules


# ---- CP-1: what is added to the dice ---------------------------------------------------------


def test_cp1_characteristic_test_adds_the_characteristic_and_modifiers(rs):
    """Seed 003: 3d6 + Characteristic Level, plus modifiers."""
    r = rs.check("characteristic_test").roll({"characteristic": 5, "modifier": -2, "dn": 14}, faces=[4, 4, 3])
    assert r.values == {"total_modifier": 3, "total": 14}
    assert r.result == 0 and r.outcome == "success"


def test_cp1_skill_test_adds_skill_specialty_characteristic_and_modifiers(rs):
    """Seed 003: 3d6 + Skill Level (+ Specialty Level) + Characteristic Level."""
    r = rs.check("skill_test").roll({"characteristic": 4, "skill": 6, "specialty": 2, "modifier": 1, "dn": 30},
                                    faces=[2, 3, 5])
    assert r.values == {"total_modifier": 13, "total": 23}
    assert r.result == -7


# ---- CP-2: the DN table ----------------------------------------------------------------------


@pytest.mark.parametrize("label", list(SEED_DN_TABLE))
def test_cp2_dn_labels_come_from_the_grid_for_both_kinds_of_test(rs, label):
    """Seed 003, the DN table: Task × (Characteristic Test, Skill Test)."""
    char_dn, skill_dn = SEED_DN_TABLE[label]
    key = label.lower().replace(" ", "_")
    assert rs.check("characteristic_test").coerce_inputs({"characteristic": 0, "dn": key})["dn"] == char_dn
    assert rs.check("skill_test").coerce_inputs({"characteristic": 0, "skill": 0, "dn": key})["dn"] == skill_dn
    # spelled as in the book, too
    assert rs.check("characteristic_test").coerce_inputs({"characteristic": 0, "dn": label})["dn"] == char_dn
    assert rs.check("skill_test").coerce_inputs({"characteristic": 0, "skill": 0, "dn": label})["dn"] == skill_dn


def test_cp2_the_grid_is_the_seed_table(rs):
    grid = rs.model.tables["difficulty_numbers"]
    assert grid.columns == ("characteristic", "skill")
    assert {label: tuple(v) for label, v in grid.rows} == \
        {k.lower().replace(" ", "_"): v for k, v in SEED_DN_TABLE.items()}


def test_cp2_a_label_that_is_not_in_the_table_is_an_input_error(rs):
    with pytest.raises(InputError, match="very_hard"):
        rs.check("skill_test").coerce_inputs({"characteristic": 0, "skill": 1, "dn": "very hrad"})


def test_cp2_a_hard_skill_test_uses_the_skill_column(rs):
    r = rs.check("skill_test").roll({"characteristic": 3, "skill": 6, "dn": "hard"}, faces=[4, 4, 3])
    assert r.inputs["dn"] == 20 and r.result == 11 + 9 - 20


# ---- CP-3: success and degree ----------------------------------------------------------------


@pytest.mark.parametrize("faces,bonus,dn", [([6, 5, 4], 3, 18), ([1, 2, 2], 10, 16), ([6, 6, 6], 0, 30),
                                            ([3, 3, 3], 7, 16), ([2, 2, 1], 12, 12)])
def test_cp3_degree_is_total_minus_dn(rs, faces, bonus, dn):
    """Seed 003: the Degree of Success is the test total minus the DN; success iff total >= DN."""
    r = rs.check("characteristic_test").roll({"characteristic": bonus, "dn": dn}, faces=faces)
    total = sum(faces) + bonus
    assert r.values["total"] == total
    assert r.result == total - dn
    assert r.success == (total >= dn and sum(faces) != 3)
    assert r.outcome == judge(sum(faces), bonus, dn)


def test_cp3_reaching_the_dn_exactly_succeeds(rs):
    r = rs.check("characteristic_test").roll({"characteristic": 2, "dn": 12}, faces=[3, 3, 4])
    assert (r.result, r.outcome, r.success) == (0, "success", True)
    r = rs.check("characteristic_test").roll({"characteristic": 2, "dn": 12}, faces=[3, 3, 3])
    assert (r.result, r.outcome, r.success) == (-1, "failure", False)


# ---- CP-4: criticals -----------------------------------------------------------------------------


@pytest.mark.parametrize("check,inputs", [
    ("characteristic_test", {"characteristic": 40, "dn": 10}),
    ("skill_test", {"characteristic": 20, "skill": 20, "specialty": 5, "dn": "very_easy"}),
])
def test_cp4_a_natural_3_is_always_a_critical_failure(rs, check, inputs):
    """Seed 003: if the dice come up 3, the test is a Critical Failure, even when the total
    would beat the DN by far."""
    r = rs.check(check).roll(inputs, faces=[1, 1, 1])
    assert r.result >= 5  # the total alone would be a critical success
    assert (r.outcome, r.success) == ("critical_failure", False)
    assert "natural_3" in r.tags
    odds = rs.check(check).odds(inputs)
    assert odds.outcomes["critical_failure"] == Fraction(1, 216)
    assert odds.tags["natural_3"] == Fraction(1, 216)
    assert odds.success == Fraction(215, 216)


def test_cp4_degree_5_is_a_critical_success(rs):
    chk = rs.check("characteristic_test")
    assert chk.roll({"characteristic": 0, "dn": 10}, faces=[5, 5, 5]).outcome == "critical_success"  # degree 5
    assert chk.roll({"characteristic": 0, "dn": 10}, faces=[5, 5, 4]).outcome == "success"  # degree 4


def test_cp4_failing_by_6_is_a_critical_failure_by_default(rs):
    """The seed's text says a miss by 5 or more; its probability table only matches 6 or
    more. The default reproduces the table (fumble_margin=6)."""
    chk = rs.check("characteristic_test")
    assert chk.roll({"characteristic": 0, "dn": 16}, faces=[4, 3, 3]).outcome == "critical_failure"  # -6
    assert chk.roll({"characteristic": 0, "dn": 16}, faces=[4, 4, 3]).outcome == "failure"  # -5
    assert chk.roll({"characteristic": 0, "dn": 16, "fumble_margin": 5}, faces=[4, 4, 3]).outcome == \
        "critical_failure"


def test_cp4_the_texts_margin_of_5_does_not_give_the_seed_table(rs):
    """Seed 003, worked example (DN - modifier 10): critical failure 1.9% matches a margin of
    6; the sentence's margin of 5 would give 4.6%."""
    chk = rs.check("characteristic_test")
    assert table_row(chk.odds({"characteristic": 0, "dn": 10}).outcomes)[5] == 1.9
    assert table_row(chk.odds({"characteristic": 0, "dn": 10, "fumble_margin": 5}).outcomes)[5] == 4.6


@pytest.mark.parametrize("fumble_margin", [5, 6, 8])
@pytest.mark.parametrize("bonus,dn", [(0, 10), (5, 16), (14, 24), (-3, 12), (10, 28), (7, 0)])
def test_cp4_odds_equal_the_brute_force_exactly(rs, bonus, dn, fumble_margin):
    odds = rs.check("characteristic_test").odds({"characteristic": bonus, "dn": dn, "fumble_margin": fumble_margin})
    want = brute_force(bonus, dn, fumble_margin)
    assert odds.outcomes == want
    assert odds.success == want["critical_success"] + want["success"]
    assert sum(odds.result_distribution.values()) == 1
    assert set(odds.result_distribution) == {r + bonus - dn for r in range(3, 19)}


# ---- CP-5: the seed's probability table -----------------------------------------------------------


def test_cp5_the_worked_example(rs):
    """Seed 003: total modifier +14 against DN 24 → success 62.5%, critical success 9.3%,
    critical failure 1.9% (a Very Hard skill test: DN 24 in the skill column)."""
    inputs = {"characteristic": 4, "skill": 8, "specialty": 2, "dn": "very hard"}
    odds = rs.check("skill_test").odds(inputs)
    assert odds.inputs["dn"] == 24
    assert round(float(odds.success * 100), 1) == 62.5
    assert round(float(odds.outcomes["critical_success"] * 100), 1) == 9.3
    assert round(float(odds.outcomes["critical_failure"] * 100), 1) == 1.9
    assert odds.success == Fraction(135, 216)


@pytest.mark.parametrize("row", list(SEED_PROBABILITY_TABLE))
def test_cp5_every_row_of_the_seed_table_comes_out_of_odds(rs, row):
    """Seed 003, the probability table: DN - modifier against the six columns, to one
    decimal: what `rulesengine odds cyberpunk-3d6 characteristic_test characteristic=0
    dn=-1..24` prints."""
    odds = rs.check("characteristic_test").odds({"characteristic": 0, "dn": row})
    assert table_row(odds.outcomes) == SEED_PROBABILITY_TABLE[row]
    assert round(float(odds.success * 100), 1) == SEED_PROBABILITY_TABLE[row][0]


@pytest.mark.parametrize("row", list(SEED_PROBABILITY_TABLE))
def test_cp5_every_row_of_the_seed_table_from_the_independent_brute_force(row):
    assert table_row(brute_force(0, row)) == SEED_PROBABILITY_TABLE[row]


@pytest.mark.parametrize("bonus", [-5, 0, 3, 14])
def test_cp5_the_table_depends_only_on_dn_minus_modifier(rs, bonus):
    for row, want in SEED_PROBABILITY_TABLE.items():
        odds = rs.check("characteristic_test").odds({"characteristic": bonus, "dn": row + bonus})
        assert table_row(odds.outcomes) == want


@pytest.mark.parametrize("dn,row", [(-2, -1), (-5, -1), (-20, -1), (25, 24), (30, 24), (60, 24)])
def test_cp5_the_open_ended_rows(rs, dn, row):
    """The seed's first row is "-1 and below", its last "24+"."""
    odds = rs.check("characteristic_test").odds({"characteristic": 0, "dn": dn})
    assert table_row(odds.outcomes) == SEED_PROBABILITY_TABLE[row]


def test_cp5_the_row_the_seed_leaves_out(rs):
    """The seed prints no row for DN - modifier = 5; the rules still give one."""
    odds = rs.check("characteristic_test").odds({"characteristic": 0, "dn": 5})
    assert odds.outcomes == brute_force(0, 5)
    assert table_row(odds.outcomes) == (98.1, 35.6, 62.5, 1.9, 1.4, 0.5)


def test_cp5_the_command_line_range_fits_the_inputs_bounds(rs):
    """`rulesengine odds cyberpunk-3d6 characteristic_test characteristic=0 dn=-1..24`
    must be accepted for every value of the range."""
    chk = rs.check("characteristic_test")
    for dn in range(-1, 25):
        assert chk.coerce_inputs({"characteristic": 0, "dn": dn}) == {
            "characteristic": 0, "modifier": 0, "dn": dn, "extra_time": 0, "previous_modifier": None,
            "fumble_margin": 6}
    with pytest.raises(InputError, match="dn"):
        chk.coerce_inputs({"characteristic": 0, "dn": 61})


def test_cp5_the_command_line_prints_the_seed_table(capsys):
    """`rulesengine odds cyberpunk-3d6 characteristic_test characteristic=0 dn=-1..24`: one
    row per DN, the seed's numbers (read here from --json)."""
    import json

    from rulesengine.cli import main

    code = main(["odds", "cyberpunk-3d6", "characteristic_test", "characteristic=0", "dn=-1..24", "--json"])
    out = capsys.readouterr().out
    if code == 2:
        pytest.skip("this build of the command line has no 'odds' command with ranges")
    assert code == 0
    rows = json.loads(out)
    assert [r["inputs"]["dn"] for r in rows] == list(range(-1, 25))
    for r in rows:
        outcomes = {o["name"]: Fraction(o["exact"]) for o in r["outcomes"]}
        assert outcomes == brute_force(0, r["inputs"]["dn"])
        if r["inputs"]["dn"] in SEED_PROBABILITY_TABLE:
            assert table_row(outcomes) == SEED_PROBABILITY_TABLE[r["inputs"]["dn"]]


# ---- CP-6: unskilled -------------------------------------------------------------------------


def test_cp6_skill_0_is_an_unskilled_attempt(rs):
    """Seed 003: a test may be tried without the skill, as skill level 0."""
    chk = rs.check("skill_test")
    r = chk.roll({"characteristic": 5, "skill": 0, "dn": "easy"}, faces=[3, 4, 2])
    assert (r.result, r.outcome, "unskilled" in r.tags) == (0, "success", True)
    assert chk.odds({"characteristic": 5, "skill": 0, "dn": 14}).outcomes == brute_force(5, 14)


def test_cp6_some_skills_cannot_be_tried_unskilled(rs):
    """Seed 003: an unskilled programmer cannot even start writing an intrusion program."""
    chk = rs.check("skill_test")
    r = chk.roll({"characteristic": 5, "skill": 0, "dn": "hard", "unskilled_allowed": False}, faces=[])
    assert (r.outcome, r.success, r.skipped) == ("not_allowed", False, True)
    assert chk.odds({"characteristic": 5, "skill": 0, "dn": 20, "unskilled_allowed": False}).outcomes["not_allowed"] == 1
    # with the skill the flag does not matter
    r = chk.roll({"characteristic": 5, "skill": 1, "dn": "hard", "unskilled_allowed": False}, faces=[5, 5, 5])
    assert r.outcome == "success"


def test_cp6_a_negative_skill_is_rejected(rs):
    with pytest.raises(InputError, match="skill"):
        rs.check("skill_test").coerce_inputs({"characteristic": 1, "skill": -1, "dn": 10})


# ---- CP-7: opposed tests -------------------------------------------------------------------------


def contest_brute_force(bonus1: int, bonus2: int, ties: str, fumbles: str = "both") -> \
        tuple[dict[str, Fraction], dict[int, Fraction]]:
    """CP-7 restated: both roll 3d6 + bonus; a natural 3 (a critical failure) loses to any
    other roll, for both sides (`fumbles="both"`) or only for party 1, the active side,
    whose test has the resisting roll as its DN (`fumbles="active"`); otherwise the higher
    total wins; a tie goes to party 1 (the active side) or stands. The winner's result is
    its total minus the loser's."""
    wins = {"party1_wins": 0, "party2_wins": 0, "tie": 0}
    margin: dict[int, int] = defaultdict(int)
    for r1, r2 in itertools.product(ROLLS, ROLLS):
        t1, t2 = r1 + bonus1, r2 + bonus2
        k1, k2 = (r1 != 3, t1), (r2 != 3 or fumbles == "active", t2)
        if k1 > k2 or (k1 == k2 and ties == "first"):
            wins["party1_wins"] += 1
            margin[t1 - t2] += 1
        elif k2 > k1:
            wins["party2_wins"] += 1
            margin[t2 - t1] += 1
        else:
            wins["tie"] += 1
    n = 216 * 216
    return {k: Fraction(v, n) for k, v in wins.items()}, {k: Fraction(v, n) for k, v in margin.items()}


@pytest.mark.parametrize("p1,p2", [
    ({"characteristic": 5, "skill": 3}, {"characteristic": 6}),
    ({"characteristic": 4}, {"characteristic": 4}),
    ({"characteristic": 2, "skill": 6, "specialty": 1, "modifier": -2}, {"characteristic": 7, "modifier": 3}),
    ({"characteristic": 0}, {"characteristic": 20}),
])
@pytest.mark.parametrize("procedure,ties,fumbles", [("opposed", "first", "active"), ("competition", "stand", "both"),
                                                   ("opposed_both_sides_fumble", "first", "both")])
def test_cp7_contest_odds_equal_the_brute_force(rs, p1, p2, procedure, ties, fumbles):
    """Seed 003: both make a test roll, the higher result wins; ties go to the active side
    (opposed) or stand (a contest). In `opposed` the defender's roll is the DN of the
    active side's test, so only the active side's natural 3 is a fumble."""
    bonus = [sum(p.values()) for p in (p1, p2)]
    odds = rs.procedure(procedure).odds(parties=[p1, p2])
    wins, margin = contest_brute_force(*bonus, ties, fumbles)
    assert odds.outcomes == wins
    assert odds.winner_result == margin
    assert odds.truncated == 0


def test_cp7_a_tie_goes_to_the_active_side(rs):
    r = rs.procedure("opposed").roll(parties=[{"characteristic": 5}, {"characteristic": 4}],
                                    faces=[3, 3, 3, 3, 3, 4])
    assert [p.result for p in r.parties] == [14, 14]
    assert (r.winner, r.winner_result) == (0, 0)


def test_cp7_a_tie_stands_in_a_competition(rs):
    r = rs.procedure("competition").roll(parties=[{"characteristic": 5}, {"characteristic": 4}],
                                        faces=[3, 3, 3, 3, 3, 4])
    assert r.tie and r.winner is None


def test_cp7_the_resisting_roll_is_the_dn_of_the_active_side(rs):
    """The winner's result is its degree over the other side's total."""
    r = rs.procedure("opposed").roll(parties=[{"characteristic": 5, "skill": 4}, {"characteristic": 6}],
                                    faces=[6, 5, 4, 2, 3, 4])
    assert [p.result for p in r.parties] == [24, 15]
    assert (r.winner, r.winner_result) == (0, 9)


def test_cp7_a_natural_3_loses_the_contest(rs):
    r = rs.procedure("opposed").roll(parties=[{"characteristic": 20}, {"characteristic": 0}],
                                    faces=[1, 1, 1, 2, 2, 1])
    assert r.parties[0].outcome == "critical_failure"
    assert r.winner == 1


def test_cp7_an_appeal_to_empathy_puts_the_targets_emp_against_it(rs):
    """Seed 003: the target of an EMP appeal resists with its EMP as a penalty; a front end
    passes the target's modifier as (other modifiers) - EMP."""
    emp_target, cool_target = 6, 5
    appeal = {"characteristic": 7, "skill": 4}
    resist = {"characteristic": cool_target, "skill": 2, "modifier": -emp_target}
    odds = rs.procedure("opposed").odds(parties=[appeal, resist])
    wins, _ = contest_brute_force(11, cool_target + 2 - emp_target, "first", "active")
    assert odds.outcomes == wins
    r = rs.procedure("opposed").roll(parties=[appeal, resist], faces=[3, 3, 3, 6, 6, 5])
    assert [p.result for p in r.parties] == [20, 18]
    assert r.winner == 0


def test_cp7_contests_take_two_parties(rs):
    with pytest.raises(InputError, match="2 parties"):
        rs.procedure("opposed").odds(parties=[{"characteristic": 1}])


def test_cp7_a_defenders_natural_3_is_only_a_low_dn(rs):
    """Seed 003: "in effect, the defender's roll becomes the DN" and the Resistance Roll
    "effectively sets the DN for the active side's test": only the active side's test can
    fumble. A defender rolling a natural 3 with +20 still sets DN 23, which an active
    total of 15 does not reach (`opposed` reads `party`, 1 for the active side)."""
    parties = [{"characteristic": 4}, {"characteristic": 20}]
    faces = [4, 4, 3,   # active: 11 + 4 = 15
             1, 1, 1]   # defender: natural 3 + 20 = 23
    r = rs.procedure("opposed").roll(parties=parties, faces=faces)
    assert [p.result for p in r.parties] == [15, 23]
    assert r.parties[1].outcome == "critical_failure" and "natural_3" in r.parties[1].tags
    assert (r.winner, r.winner_result) == (1, 8)
    # The same dice when the defender's roll counts as a fumbling test of its own.
    r = rs.procedure("opposed_both_sides_fumble").roll(parties=parties, faces=faces)
    assert (r.winner, r.winner_result) == (0, -8)
    # and in a competition, where neither side is active, a natural 3 loses for either
    r = rs.procedure("competition").roll(parties=parties, faces=faces)
    assert r.winner == 0


def test_cp7_the_defender_reaching_the_active_total_on_a_natural_3_is_a_tie_for_the_active_side(rs):
    """A defender's natural 3 landing exactly on the active side's total: a tie, which
    goes to the active side (the active side reached its DN)."""
    r = rs.procedure("opposed").roll(parties=[{"characteristic": 2}, {"characteristic": 10}],
                                    faces=[5, 5, 1, 1, 1, 1])  # 11 + 2 = 13 against 3 + 10 = 13
    assert [p.result for p in r.parties] == [13, 13]
    assert (r.winner, r.winner_result) == (0, 0)


def test_cp7_the_active_sides_natural_3_loses_whatever_the_totals(rs):
    """Both natural 3s: the active side fumbles its test, the defender's 3 is just a DN."""
    parties = [{"characteristic": 10}, {"characteristic": 0}]
    r = rs.procedure("opposed").roll(parties=parties, faces=[1, 1, 1, 1, 1, 1])
    assert (r.winner, r.winner_result) == (1, -10)
    r = rs.procedure("opposed_both_sides_fumble").roll(parties=parties, faces=[1, 1, 1, 1, 1, 1])
    assert r.winner == 0  # both fumble: the higher total wins


def test_cp7_the_two_readings_differ_only_when_the_defender_rolls_a_natural_3(rs):
    parties = [{"characteristic": 6, "skill": 3}, {"characteristic": 12}]
    literal = rs.procedure("opposed").odds(parties=parties).outcomes
    both = rs.procedure("opposed_both_sides_fumble").odds(parties=parties).outcomes
    # Defender natural 3 (1/216) with total 15; the active side (3d6 + 9, not a natural 3)
    # wins under the literal reading only when it reaches 15 (6 or more on the dice).
    reach = Fraction(sum(1 for r in ROLLS if r != 3 and r + 9 >= 15), 216)
    assert both["party1_wins"] - literal["party1_wins"] == Fraction(1, 216) * (Fraction(215, 216) - reach)


# ---- CP-8: extended tests --------------------------------------------------------------------------


def markov_brute_force(bonus: int, dn: int, steps: int, failure_steps: int, max_rounds: int,
                       critical_steps: int = 1):
    """CP-8 restated: one test per interval; failure +0, success +1, critical success
    +critical_steps (1 as written), critical failure wipes the progress; with a Failure
    Clock, failure +1 and critical failure +3 on it, failing when full. Walks every
    sequence of per-round outcomes, merging equal (progress, failures) states."""
    p = brute_force(bonus, dn)
    states = {(0, 0): Fraction(1)}
    done = failed = Fraction(0)
    by_round, rounds = [], defaultdict(Fraction)
    for n in range(1, max_rounds + 1):
        nxt: dict = defaultdict(Fraction)
        for (progress, fails), q in states.items():
            for outcome, po in p.items():
                if not po:
                    continue
                prog, fl = progress, fails
                if outcome == "critical_failure":
                    prog, fl = 0, fl + 3
                elif outcome == "critical_success":
                    prog += critical_steps
                elif outcome == "success":
                    prog += 1
                else:
                    fl += 1
                if failure_steps == 0:
                    fl = 0
                if prog >= steps:
                    done += q * po
                    rounds[n] += q * po
                elif failure_steps and fl >= failure_steps:
                    failed += q * po
                    rounds[n] += q * po
                else:
                    nxt[(prog, fl)] += q * po
        states = nxt
        by_round.append((done, failed))
    unfinished = sum(states.values(), Fraction(0))
    rounds[max_rounds] += unfinished
    expected = sum((n * q for n, q in rounds.items()), Fraction(0))
    return {"success": done, "failure": failed, "unfinished": unfinished}, tuple(by_round), expected


@pytest.mark.parametrize("steps,failure_steps,max_rounds", [(3, 0, 6), (3, 4, 6), (2, 3, 8), (4, 0, 5), (4, 2, 10)])
@pytest.mark.parametrize("bonus,dn", [(9, 18), (4, 16), (12, 12)])
def test_cp8_extended_odds_equal_the_markov_brute_force(rs, steps, failure_steps, max_rounds, bonus, dn):
    """Seed 003, extended tests: a Success Clock, and optionally a Failure Clock."""
    inputs = {"steps": steps, "failure_steps": failure_steps, "max_rounds": max_rounds,
              "characteristic": bonus - 2, "skill": 2, "dn": dn}
    odds = rs.procedure("extended").odds(inputs)
    outcomes, by_round, expected = markov_brute_force(bonus, dn, steps, failure_steps, max_rounds)
    assert odds.outcomes == outcomes
    assert odds.by_round[:len(by_round)] == by_round[:len(odds.by_round)]
    assert odds.expected_rounds == expected
    assert odds.truncated == 0


def test_cp8_the_characteristic_version_and_a_bigger_critical_step(rs):
    inputs = {"steps": 3, "failure_steps": 3, "max_rounds": 7, "characteristic": 6, "dn": "average",
              "critical_success_steps": 2}
    odds = rs.procedure("extended_characteristic").odds(inputs)
    outcomes, _, expected = markov_brute_force(6, 16, 3, 3, 7, critical_steps=2)
    assert odds.outcomes == outcomes and odds.expected_rounds == expected


def test_cp8_without_a_failure_clock_only_the_round_limit_stops_a_project(rs):
    odds = rs.procedure("extended").odds({"steps": 2, "characteristic": 0, "skill": 0, "dn": 30, "max_rounds": 4})
    assert odds.outcomes == {"success": 0, "failure": 0, "unfinished": 1}


def test_cp8_a_replay_of_a_project_with_both_clocks(rs):
    """Success Clock 3, Failure Clock 4, characteristic 5 + skill 4 against Average (DN 18)."""
    inputs = {"steps": 3, "failure_steps": 4, "characteristic": 5, "skill": 4, "dn": "average"}
    faces = [4, 4, 2,   # 10 + 9 = 19: success, progress 1
             3, 2, 2,   # 7 + 9 = 16: failure, failure clock 1
             6, 5, 3,   # 14 + 9 = 23, degree 5: critical success, progress 2
             1, 1, 1,   # natural 3: critical failure, progress 0, failure clock 4 → failed
             ]
    r = rs.procedure("extended").roll(inputs, faces=faces)
    assert [x.outcome for x in r.rounds] == ["success", "failure", "critical_success", "critical_failure"]
    assert r.states == ({"progress": 1, "failures": 0}, {"progress": 1, "failures": 1},
                        {"progress": 2, "failures": 1}, {"progress": 0, "failures": 4})
    assert r.outcome == "failure"


def test_cp8_a_replay_that_fills_the_success_clock(rs):
    inputs = {"steps": 2, "characteristic": 5, "skill": 4, "dn": "average"}
    faces = [1, 1, 1,   # critical failure with nothing to lose
             5, 5, 5,   # success (critical), progress 1
             2, 2, 2,   # 6 + 9 = 15: failure, progress stays
             4, 4, 1]   # 9 + 9 = 18: success, progress 2 → done
    r = rs.procedure("extended").roll(inputs, faces=faces)
    assert [s["progress"] for s in r.states] == [0, 1, 1, 2]
    assert [s["failures"] for s in r.states] == [0, 0, 0, 0]  # no Failure Clock
    assert r.outcome == "success" and len(r.rounds) == 4


def test_cp8_a_forbidden_unskilled_project_cannot_start(rs):
    """A check that may not be made (CP-6: no unskilled attempt) is an input error, with its reason."""
    from rulesengine.errors import InputError

    inputs = {"steps": 2, "characteristic": 5, "skill": 0, "dn": 10, "unskilled_allowed": False}
    for run in (lambda: rs.procedure("extended").odds(inputs), lambda: rs.procedure("extended").roll(inputs, seed=1)):
        with pytest.raises(InputError, match="round 1 may not make the check: this skill cannot be tried unskilled"):
            run()


# ---- CP-10 and CP-11: tipping the odds --------------------------------------------------------------


@pytest.mark.parametrize("degree,bonus", [(-4, 0), (0, 0), (1, 1), (5, 1), (6, 2), (10, 2), (11, 3)])
def test_cp10_a_complementary_test_gives_1_per_5_degrees_or_part(rs, degree, bonus):
    """Seed 003: +1 to the primary skill test per 5 points of degree of success, or part thereof."""
    r = rs.check("skill_test").roll({"characteristic": 3, "skill": 4, "dn": 18, "complement_degree": degree},
                                    faces=[3, 3, 3])
    assert r.values["total_modifier"] == 7 + bonus


@pytest.mark.parametrize("percent,bonus", [(0, 0), (50, 0), (100, 1), (150, 1), (200, 2), (1000, 10)])
def test_cp11_extra_time_gives_1_per_full_100_percent(rs, percent, bonus):
    """Seed 003: +1 per 100% extra time (3 hours on a 1-hour job: 200% extra, +2)."""
    for check, base in (("characteristic_test", {"characteristic": 3}),
                        ("skill_test", {"characteristic": 3, "skill": 2})):
        r = rs.check(check).roll({**base, "dn": 15, "extra_time": percent}, faces=[2, 2, 2])
        assert r.values["total_modifier"] == sum(base.values()) + bonus


def test_cp11_a_retry_needs_a_better_bonus(rs):
    """Seed 003: a test may be tried again only if the bonus can be improved."""
    chk = rs.check("skill_test")
    same = chk.roll({"characteristic": 4, "skill": 3, "dn": 18, "previous_modifier": 7}, faces=[])
    assert (same.outcome, same.skipped) == ("not_allowed", True)
    assert "improved" in same.reason
    better = chk.roll({"characteristic": 4, "skill": 3, "dn": 18, "previous_modifier": 7, "extra_time": 100},
                      faces=[4, 4, 4])
    assert better.outcome == "success" and better.values["total_modifier"] == 8
    char = rs.check("characteristic_test")
    assert char.odds({"characteristic": 4, "dn": 14, "previous_modifier": 4}).outcomes["not_allowed"] == 1
    assert char.odds({"characteristic": 4, "dn": 14, "previous_modifier": 3}).outcomes == brute_force(4, 14)


# ---- CP-9: team tests ------------------------------------------------------------------------------

TEAM = [{"characteristic": 5, "skill": 3, "dn": "hard"},                   # 8
        {"characteristic": 6, "skill": 4, "specialty": 1, "dn": "hard"},   # 10, rolls with +11
        {"characteristic": 2, "skill": 4, "modifier": -1, "dn": "hard"}]   # 6, rolls with +5


@pytest.mark.parametrize("all_must_succeed,roller", [(True, 2), (False, 1)])
def test_cp9_the_lowest_or_highest_characteristic_plus_skill_rolls_for_the_team(rs, all_must_succeed, roller):
    """Seed 003: if the entire team must succeed (Stealth) use the lowest Characteristic +
    Skill total; if one member succeeding is enough (Awareness) the highest."""
    r = rs.procedure("team").roll({"all_must_succeed": all_must_succeed}, parties=TEAM, faces=[4, 4, 4])
    assert r.roller == roller
    member = TEAM[roller]
    want = rs.check("skill_test").roll(member, faces=[4, 4, 4])
    assert (r.outcome, r.check.result, r.check.values) == (want.outcome, want.result, want.values)
    assert r.check.result == 12 + {2: 5, 1: 11}[roller] - 20
    assert r.to_dict()["roller"] == roller + 1


def test_cp9_the_choice_must_be_given(rs):
    with pytest.raises(InputError, match="all_must_succeed"):
        rs.procedure("team").roll(parties=TEAM, seed=1)


def test_cp9_ties_on_characteristic_plus_skill_go_by_the_total_modifier_then_the_first_listed(rs):
    """Equal characteristic + skill: the weaker total modifier rolls when all must succeed,
    the stronger when one success is enough; all equal: the first listed."""
    team = [{"characteristic": 4, "skill": 4, "dn": 18},
            {"characteristic": 3, "skill": 5, "specialty": 2, "dn": 18},
            {"characteristic": 5, "skill": 3, "modifier": -1, "dn": 18}]
    proc = rs.procedure("team")
    assert proc.roll({"all_must_succeed": True}, parties=team, faces=[3, 3, 3]).roller == 2
    assert proc.roll({"all_must_succeed": False}, parties=team, faces=[3, 3, 3]).roller == 1
    same = [{"characteristic": 4, "skill": 4, "dn": 18}, {"characteristic": 6, "skill": 2, "dn": 18}]
    assert proc.roll({"all_must_succeed": True}, parties=same, faces=[3, 3, 3]).roller == 0
    assert proc.roll({"all_must_succeed": False}, parties=same, faces=[3, 3, 3]).roller == 0


@pytest.mark.parametrize("all_must_succeed,roller,bonus", [(True, 2, 5), (False, 1, 11)])
def test_cp9_team_odds_are_the_rollers_check_odds(rs, all_must_succeed, roller, bonus):
    """The team's odds are exactly the odds of the member who rolls, which the brute force
    gives from that member's total modifier. (previous_modifier is given as its minimum,
    which allows any retry: see the test below for the engine problem without it.)"""
    team = [{**m, "previous_modifier": -100} for m in TEAM]
    o = rs.procedure("team").odds({"all_must_succeed": all_must_succeed}, parties=team)
    assert o.roller == roller
    assert o.outcomes == rs.check("skill_test").odds(team[roller]).outcomes == brute_force(bonus, 20)
    assert o.success == sum(v for k, v in brute_force(bonus, 20).items() if "success" in k)


def test_cp9_team_odds_without_the_optional_inputs(rs):
    o = rs.procedure("team").odds({"all_must_succeed": True}, parties=TEAM)
    assert o.roller == 2 and o.outcomes == brute_force(5, 20)


def test_cp9_a_team_whose_weakest_member_may_not_try_cannot_do_it(rs):
    """CP-6 inside CP-9: when all must succeed and the lowest member is unskilled at a skill
    that forbids it, the team cannot make the test."""
    team = [{"characteristic": 6, "skill": 5, "dn": 20, "unskilled_allowed": False},
            {"characteristic": 5, "skill": 0, "dn": 20, "unskilled_allowed": False}]
    try:
        r = rs.procedure("team").roll({"all_must_succeed": True}, parties=team, faces=[])
    except InputError as exc:  # how the engine reports a check that is not allowed in a procedure
        assert "unskilled" in str(exc)
    else:
        assert (r.roller, r.outcome, r.success) == (1, "not_allowed", False)
    r = rs.procedure("team").roll({"all_must_succeed": False}, parties=team, faces=[4, 4, 4])
    assert (r.roller, r.check.result) == (0, 12 + 11 - 20)


# ---- CP-10: complementary tests as a procedure -------------------------------------------------------

PRIMARY = {"characteristic": 4, "skill": 4, "dn": "average"}    # +8 against DN 18
HELPER = {"characteristic": 3, "skill": 3, "dn": "easy"}        # +6 against DN 14


def complementary_bonus(degree: int, success: bool, bare_success_helps: bool = False) -> int:
    """CP-10 restated: +1 per 5 points of degree of success or part of 5; a failed
    complementary test gives nothing; degree 0 gives nothing unless the option says +1."""
    if not success:
        return 0
    parts = -(-degree // 5)  # 1..5 → 1, 6..10 → 2
    return max(parts, 1) if bare_success_helps else parts


def complementary_brute_force(primary: int, primary_dn: int, helper: int, helper_dn: int,
                              bare_success_helps: bool = False) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """Every 3d6 of the complementary test × every 3d6 of the primary test (216 × 216 dice)."""
    outcomes: dict[str, Fraction] = defaultdict(Fraction)
    bonuses: dict[int, Fraction] = defaultdict(Fraction)
    dice = list(itertools.product(range(1, 7), repeat=3))
    for h, p in itertools.product(dice, dice):
        h_outcome = judge(sum(h), helper, helper_dn)
        bonus = complementary_bonus(sum(h) + helper - helper_dn, h_outcome in ("success", "critical_success"),
                                    bare_success_helps)
        bonuses[bonus] += Fraction(1, 216 * 216)
        outcomes[judge(sum(p), primary + bonus, primary_dn)] += Fraction(1, 216 * 216)
    return dict(outcomes), dict(bonuses)


@pytest.mark.parametrize("helper_faces,degree,bonus", [
    ([3, 3, 3], 1, 1),    # degree 1: +1 ("or part thereof")
    ([5, 4, 4], 5, 1),    # degree 5 (a critical success): +1
    ([5, 5, 4], 6, 2),    # degree 6: +2
    ([6, 6, 6], 10, 2),   # degree 10: +2
    ([3, 3, 2], 0, 0),    # degree 0, a bare success: no part of 5 points, nothing
    ([3, 2, 2], -1, 0),   # a failure: nothing, and no penalty
    ([1, 1, 2], -4, 0),   # a worse failure: still nothing
])
def test_cp10_a_complementary_test_gives_1_per_5_points_of_degree_or_part(rs, helper_faces, degree, bonus):
    """Seed 003: make the complementary skill test first; for every 5 points of degree of
    success (or part thereof) the primary skill test gets +1."""
    r = rs.procedure("complementary").roll(parties=[PRIMARY, HELPER], faces=helper_faces + [3, 3, 3])
    assert r.helpers[0].result == degree
    assert r.bonus == bonus
    assert r.leader.inputs["complementary_bonus"] == bonus
    assert r.leader.values["total_modifier"] == 8 + bonus
    assert r.result == 9 + 8 + bonus - 18
    assert r.outcome == judge(9, 8 + bonus, 18)


def test_cp10_a_natural_3_on_the_complementary_test_gives_nothing(rs):
    """A natural 3 is a critical failure whatever the total (CP-4): no bonus, even though
    the degree would be 9."""
    helper = {"characteristic": 10, "skill": 10, "dn": 14}
    r = rs.procedure("complementary").roll(parties=[PRIMARY, helper], faces=[1, 1, 1, 4, 4, 4])
    assert (r.helpers[0].outcome, r.helpers[0].result) == ("critical_failure", 9)
    assert r.bonus == 0 and r.leader.values["total_modifier"] == 8


@pytest.mark.parametrize("helper_faces,bonus", [([3, 3, 2], 1), ([3, 3, 3], 1), ([5, 5, 4], 2), ([3, 2, 2], 0)])
def test_cp10_the_option_that_a_bare_success_helps(rs, helper_faces, bonus):
    r = rs.procedure("complementary").roll({"bare_success_helps": True}, parties=[PRIMARY, HELPER],
                                           faces=helper_faces + [3, 3, 3])
    assert r.bonus == bonus


@pytest.mark.parametrize("bare_success_helps", [False, True])
@pytest.mark.parametrize("primary,primary_dn,helper,helper_dn", [
    (PRIMARY, 18, HELPER, 14),
    ({"characteristic": 5, "skill": 6, "specialty": 2, "modifier": -3, "dn": 24}, 24,
     {"characteristic": 7, "skill": 2, "dn": 16}, 16),
    ({"characteristic": 3, "skill": 0, "dn": 12}, 12, {"characteristic": 2, "skill": 1, "dn": 20}, 20),
])
def test_cp10_complementary_odds_equal_the_brute_force(rs, primary, primary_dn, helper, helper_dn,
                                                       bare_success_helps):
    o = rs.procedure("complementary").odds({"bare_success_helps": bare_success_helps}, parties=[primary, helper])
    bonus = [sum(v for k, v in p.items() if k != "dn") for p in (primary, helper)]
    outcomes, bonuses = complementary_brute_force(bonus[0], primary_dn, bonus[1], helper_dn, bare_success_helps)
    assert {k: v for k, v in o.outcomes.items() if v} == {k: v for k, v in outcomes.items() if v}
    assert o.bonus_distribution == bonuses
    assert o.success == outcomes.get("success", 0) + outcomes.get("critical_success", 0)
    assert o.truncated == 0


def test_cp10_a_complementary_test_cannot_be_counted_twice(rs):
    """The procedure's primary test has no complement_degree: a front end cannot add the
    same complementary test again by hand."""
    with pytest.raises(InputError, match="complement_degree"):
        rs.procedure("complementary").roll(parties=[{**PRIMARY, "complement_degree": 6}, HELPER], seed=1)
    # skill_test keeps complement_degree for front ends that chain the two tests themselves
    r = rs.check("skill_test").roll({**PRIMARY, "complement_degree": 6}, faces=[3, 3, 3])
    assert r.values["total_modifier"] == 10


def test_cp10_the_complementary_test_has_its_own_skill_and_dn(rs):
    """Seed 003: a Social test complemented by Grooming & Style: the helper's skill and DN
    are its own (party2.*), here a Hard characteristic-plus-skill against DN 20."""
    helper = {"characteristic": 6, "skill": 7, "specialty": 1, "dn": "hard"}
    r = rs.procedure("complementary").roll(parties=[PRIMARY, helper], faces=[6, 5, 4, 2, 2, 2])
    assert r.helpers[0].inputs["dn"] == 20 and r.helpers[0].result == 15 + 14 - 20
    assert r.bonus == 2 and r.result == 6 + 8 + 2 - 18


def test_cp10_a_retry_is_allowed_when_the_complementary_test_improves_the_bonus(rs):
    """CP-11 with CP-10: a retry needs a better total modifier; a complementary test that
    earns nothing does not allow it."""
    retry = {**PRIMARY, "previous_modifier": 8}
    proc = rs.procedure("complementary")
    r = proc.roll(parties=[retry, HELPER], faces=[3, 3, 3, 4, 4, 4])
    assert r.bonus == 1 and r.outcome == "success"
    try:
        r = proc.roll(parties=[retry, HELPER], faces=[3, 2, 2])
    except InputError as exc:  # how the engine reports a check that is not allowed in a procedure
        assert "improved" in str(exc)
    else:
        assert (r.outcome, r.success) == ("not_allowed", False)


def test_cp10_several_helpers_cooperate_each_with_a_complementary_test(rs):
    """Seed 003: characters cooperating on a test or assisting make complementary tests, just
    as above; their bonuses add up (each +1 per 5 points of degree or part)."""
    helper2 = {"characteristic": 5, "skill": 2, "dn": "average"}   # +7 against DN 18
    proc = rs.procedure("cooperation")
    r = proc.roll(parties=[PRIMARY, HELPER, helper2], faces=[3, 3, 3,   # degree 1: +1
                                                            6, 5, 6,   # degree 6: +2
                                                            3, 3, 3])  # primary 9 + 8 + 3 = 20
    assert r.bonus == 3 and r.totals == {"help": 3} and r.result == 2
    # exact odds against a brute force over the three 3d6 sums (their 16 values each)
    sums = defaultdict(int)
    for roll in ROLLS:
        sums[roll] += 1
    want: dict[str, Fraction] = defaultdict(Fraction)
    for (a, wa), (b, wb), (c, wc) in itertools.product(sums.items(), repeat=3):
        bonus = 0
        for roll, plus, dn in ((a, 6, 14), (b, 7, 18)):
            outcome = judge(roll, plus, dn)
            bonus += complementary_bonus(roll + plus - dn, outcome in ("success", "critical_success"))
        want[judge(c, 8 + bonus, 18)] += Fraction(wa * wb * wc, 216 ** 3)
    o = proc.odds(parties=[PRIMARY, HELPER, helper2])
    assert {k: v for k, v in o.outcomes.items() if v} == dict(want)
    with pytest.raises(InputError, match="helpers"):
        rs.procedure("complementary").roll(parties=[PRIMARY, HELPER, helper2], seed=1)
