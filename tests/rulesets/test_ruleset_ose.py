"""old-school-essentials: rules OS-1..OS-5, restated from the Old-School Essentials SRD
(Necrotic Gnome, OGL 1.0a; the 1981 Basic/Expert rules). Exact odds against brute force over
every face; the saving throw tables typed here a second time, class by class, as level
lists (not as the ruleset's bands and keys), so a slip in either shows; examples replayed
with given faces."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("old-school-essentials")
SAVES = ("death", "wands", "paralysis", "breath", "spells")

# Each class: (the last level of a band, its five saves), bands in order (OSE SRD class tables).
TABLES = {
    "cleric": [(4, (11, 12, 14, 16, 15)), (8, (9, 10, 12, 14, 12)), (12, (6, 7, 9, 11, 9)), (14, (3, 5, 7, 8, 7))],
    "dwarf": [(3, (8, 9, 10, 13, 12)), (6, (6, 7, 8, 10, 10)), (9, (4, 5, 6, 7, 8)), (12, (2, 3, 4, 4, 6))],
    "elf": [(3, (12, 13, 13, 15, 15)), (6, (10, 11, 11, 13, 12)), (9, (8, 9, 9, 10, 10)), (10, (6, 7, 8, 8, 8))],
    "fighter": [(3, (12, 13, 14, 15, 16)), (6, (10, 11, 12, 13, 14)), (9, (8, 9, 10, 10, 12)),
                (12, (6, 7, 8, 8, 10)), (14, (4, 5, 6, 5, 8))],
    "halfling": [(3, (8, 9, 10, 13, 12)), (6, (6, 7, 8, 10, 10)), (8, (4, 5, 6, 7, 8))],
    "magic_user": [(5, (13, 14, 13, 16, 15)), (10, (11, 12, 11, 14, 12)), (14, (8, 9, 8, 11, 8))],
    "thief": [(4, (13, 14, 13, 16, 15)), (8, (12, 13, 11, 14, 13)), (12, (10, 11, 9, 12, 10)), (14, (8, 9, 7, 10, 8))],
}


def save_value(cls: str, level: int, save: str) -> int | None:
    for last, values in TABLES[cls]:
        if level <= last:
            return values[SAVES.index(save)]
    return None  # past the class's maximum level


def d20(hit) -> F:
    return F(sum(1 for f in range(1, 21) if hit(f)), 20)


# ---- OS-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("score", [3, 7, 10, 12, 18])
@pytest.mark.parametrize("modifier", [-10, -4, 0, 2, 4])
def test_os1_ability_check_at_or_under_the_score_natural_1_and_20(score, modifier):
    odds = RS.check("ability_check").odds({"score": score, "modifier": modifier})
    want = d20(lambda f: f == 1 or (f != 20 and f <= score + modifier))
    assert odds.success == want
    assert odds.tags == {"natural_1": F(1, 20), "natural_20": F(1, 20)}


def test_os1_examples():
    """A hard task (-4) against strength 12: an 8 makes it, a 9 doesn't; a 1 always makes it
    (strength 3, -10), a 20 never does (18, +10)."""
    chk = RS.check("ability_check")
    assert chk.roll({"score": 12, "modifier": -4}, faces=[8]).outcome == "success"
    assert chk.roll({"score": 12, "modifier": -4}, faces=[9]).outcome == "failure"
    assert chk.roll({"score": 3, "modifier": -10}, faces=[1]).outcome == "success"
    assert chk.roll({"score": 18, "modifier": 10}, faces=[20]).outcome == "failure"


# ---- OS-2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", sorted(TABLES))
def test_os2_every_class_level_and_save_against_the_table(cls):
    chk = RS.check("saving_throw")
    for level in range(1, 15):
        for save in SAVES:
            want = save_value(cls, level, save)
            odds = chk.odds({"class": cls, "level": level, "save": save})
            if want is None:
                assert odds.outcomes["not_allowed"] == 1, (cls, level)
                continue
            assert odds.success == d20(lambda f: f >= want), (cls, level, save)


@pytest.mark.parametrize("modifier", [-2, 1, 4])
def test_os2_a_modifier_adds_to_the_roll(modifier):
    odds = RS.check("saving_throw").odds({"class": "thief", "level": 9, "save": "breath", "modifier": modifier})
    assert odds.success == d20(lambda f: f + modifier >= 12)


def test_os2_examples():
    """A 6th-level magic-user saving against a spell needs 12: 12 saves, 11 fails; a dwarf
    can't be 13th level."""
    chk = RS.check("saving_throw")
    args = {"class": "magic_user", "level": 6, "save": "spells"}
    saved = chk.roll(args, faces=[12])
    assert (saved.outcome, saved.values["target"]) == ("saved", 12)
    assert chk.roll(args, faces=[11]).outcome == "failed"
    assert chk.roll({"class": "dwarf", "level": 13}).outcome == "not_allowed"


# ---- OS-3, OS-4 ------------------------------------------------------------------------------


def two_d6():
    for a, b in itertools.product(range(1, 7), repeat=2):
        yield a + b, F(1, 36)


def reaction(total: int) -> str:
    return ("attacks" if total <= 2 else "hostile" if total <= 5 else "uncertain" if total <= 8 else
            "indifferent" if total <= 11 else "friendly")


@pytest.mark.parametrize("cha", [-2, -1, 0, 1, 2])
def test_os3_reaction_table(cha):
    want: dict[str, F] = defaultdict(F)
    for total, p in two_d6():
        want[reaction(total + cha)] += p
    got = {k: v for k, v in RS.check("reaction").odds({"cha_modifier": cha}).outcomes.items() if v}
    assert got == dict(want)


@pytest.mark.parametrize("morale", range(3, 12))
@pytest.mark.parametrize("modifier", [-2, 0, 2])
def test_os4_morale_rolling_over_the_score_flees(morale, modifier):
    odds = RS.check("morale").odds({"morale": morale, "modifier": modifier})
    assert odds.outcomes["flees"] == sum((p for t, p in two_d6() if t > morale + modifier), F(0))


def test_os4_morale_2_never_fights_and_12_never_checks():
    chk = RS.check("morale")
    assert chk.odds({"morale": 2}).outcomes["flees"] == 1
    assert chk.odds({"morale": 12, "modifier": -2}).outcomes["holds"] == 1
    assert chk.roll({"morale": 8}, faces=[4, 5]).outcome == "flees"  # 9 over 8
    assert chk.roll({"morale": 8}, faces=[4, 4]).outcome == "holds"


# ---- OS-5 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("chance", [1, 10, 20, 87, 99])
def test_os5_thief_skill_at_or_under_the_chance(chance):
    assert RS.check("thief_skill").odds({"chance": chance}).success == F(chance, 100)
    assert RS.check("thief_skill").roll({"chance": chance}, faces=[chance]).outcome == "success"


@pytest.mark.parametrize("chance", range(1, 6))
def test_os5_hearing_noise_a_chance_in_six(chance):
    assert RS.check("hear_noise").odds({"chance": chance}).success == F(chance, 6)
