"""A test ruleset using each pool feature of issue 14 (tests/rulesets/data/dice-pools.yaml):
it validates clean, rolls with a readable trace, takes faces as they are printed, and its
odds match brute forces written here."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import pytest

from rulesengine.cli import main
from rulesengine.ruleset import load, loads

PATH = Path(__file__).resolve().parent / "data" / "dice-pools.yaml"
RS = load(str(PATH))


def test_it_validates_clean(capsys):
    assert main(["validate", "--strict", str(PATH)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def test_big_pools_count_two_face_sets_at_once():
    """P(botch on n d6) = P(no 5-6) - P(no 5-6 and no 1) = (2/3)^n - (1/2)^n."""
    odds = RS.check("pool").odds({"dice": 30})
    assert odds.outcomes["botch"] == F(2, 3) ** 30 - F(1, 2) ** 30
    assert odds.outcomes["failure"] == F(1, 2) ** 30


def test_exploding_pool_botch_reads_the_first_throw_through_a_view():
    """count(initial(roll), 1) is read through a view of the first throw's counts; the same
    rule written so that every die must be kept (lowest(initial(roll)) == 1) agrees."""
    every_die = loads(PATH.read_text(encoding="utf-8").replace(
        "count(initial(roll), 1) > 0", "lowest(initial(roll)) == 1"), "every-die.yaml")
    for dice in (1, 2):
        inputs = {"dice": dice, "again": 10, "need": 2}
        assert RS.check("exploding").odds(inputs).outcomes == every_die.check("exploding").odds(inputs).outcomes


def test_one_die_exploding_is_the_hand_worked_chain():
    """One d10, 8+ a success, exploding on 10: a botch is a first 1 (1/10); two successes or
    more need a 10, then 8 or more on the die it adds: 1/10 · 3/10. The one chain of eleven
    10s that the explode depth cuts has 11 successes or more, and its first throw is known
    (a 10): its outcome is a success whatever the depth, so nothing is truncated (issue 29)."""
    odds = RS.check("exploding").odds({"dice": 1, "again": 10, "need": 2})
    assert odds.outcomes["botch"] == F(1, 10)
    assert odds.truncated == 0
    assert odds.outcomes["success"] == F(1, 10) * F(3, 10)


@pytest.mark.parametrize("charm", [False, True])
def test_a_push_or_a_charm_matches_every_throw(charm):
    want: dict = defaultdict(F)
    for throw in itertools.product(range(1, 7), repeat=3):
        if charm:  # reroll the lowest die (the first of equals)
            low = min(range(3), key=throw.__getitem__)
            for new in range(1, 7):
                faces = list(throw)
                faces[low] = new
                want[faces.count(6) >= 1] += F(1, 6 ** 4)
        else:  # reroll every die but the 6s and 1s, once
            again = [i for i, f in enumerate(throw) if 2 <= f <= 5]
            for new in itertools.product(range(1, 7), repeat=len(again)):
                faces = list(throw)
                for i, f in zip(again, new, strict=True):
                    faces[i] = f
                want[faces.count(6) >= 1] += F(1, 6 ** (3 + len(again)))
    assert RS.check("push").odds({"dice": 3, "charm": charm}).success == want[True]


def test_second_chance_on_percentile_dice_with_doubles():
    """Skill 45: a first roll of 46+ may be rolled again; doubles (11, 22, 33, 44) at or
    under the skill are criticals."""
    odds = RS.check("second_chance").odds({"skill": 45, "luck": True})
    miss = F(55, 100)
    assert odds.outcomes["critical"] == F(4, 100) + miss * F(4, 100)
    assert odds.success == F(45, 100) + miss * F(45, 100)


def test_traces_read_well_and_printed_faces_are_taken():
    r = RS.check("second_chance").roll({"skill": 45, "luck": True}, faces=["00", "44"])
    assert r.outcome == "critical" and "first: d% → [100] = 100" in r.trace and "[44]" in r.trace
    r = RS.check("exploding").roll({"dice": 5}, faces=[8, 1, 10, 3, 2, 9])
    assert r.outcome == "success" and "[8+, 1, 10!+, 3, 2, 9+] = 3" in r.trace
    r = RS.check("fate").roll({}, faces=["+", "blank", "-", "+"])
    assert r.result == 3 and "[1, 0, -1, 1]" in r.trace
    r = RS.check("hits").roll({}, faces=["hit", "crit", "blank"])
    assert r.outcome == "win" and "[hit, crit, blank]" in r.trace
    r = RS.check("push").roll({"dice": 4}, faces=[6, 3, 1, 2, 4, 5])
    assert r.result == 1 and "[6, ~~3~~ 4, 1, ~~2~~ 5]" in r.trace


# ---- symbol dice: a pool of six kinds read as one --------------------------------------

NARRATIVE_DICE = {  # restated from the file's dice: block
    "boost": [(), (), ("success",), ("success", "advantage"), ("advantage", "advantage"), ("advantage",)],
    "setback": [(), (), ("failure",), ("failure",), ("threat",), ("threat",)],
    "ability": [(), ("success",), ("success",), ("success", "success"), ("advantage",), ("advantage",),
                ("success", "advantage"), ("advantage", "advantage")],
    "difficulty": [(), ("failure",), ("failure", "failure"), ("threat",), ("threat",), ("threat",),
                   ("threat", "threat"), ("failure", "threat")],
    "proficiency": [(), ("success",), ("success",), ("success", "success"), ("success", "success"), ("advantage",),
                    ("success", "advantage"), ("success", "advantage"), ("success", "advantage"),
                    ("advantage", "advantage"), ("advantage", "advantage"), ("triumph",)],
    "challenge": [(), ("failure",), ("failure",), ("failure", "failure"), ("failure", "failure"), ("threat",),
                  ("threat",), ("failure", "threat"), ("failure", "threat"), ("threat", "threat"),
                  ("threat", "threat"), ("despair",)],
}


@pytest.mark.parametrize("pool", [
    {"ability": 1, "proficiency": 1, "difficulty": 1, "challenge": 1},
    {"ability": 1, "boost": 1, "difficulty": 1, "setback": 1},
    {"proficiency": 2, "challenge": 1},
])
def test_narrative_dice_net_their_symbols_as_every_throw_does(pool):
    inputs = {name: pool.get(name, 0) for name in NARRATIVE_DICE}
    dice = [NARRATIVE_DICE[name] for name, n in inputs.items() for _ in range(n)]
    size = 1
    for faces in dice:
        size *= len(faces)
    want: dict = defaultdict(F)
    advantage: dict = defaultdict(F)
    for throw in itertools.product(*dice):
        seen = [s for face in throw for s in face]
        net = seen.count("success") + seen.count("triumph") - seen.count("failure") - seen.count("despair")
        want["success" if net >= 1 else "failure"] += F(1, size)
        advantage[seen.count("advantage") - seen.count("threat")] += F(1, size)
    odds = RS.check("narrative").odds(inputs)
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(want)
    assert odds.values["advantage"] == dict(advantage)


def test_narrative_dice_roll_with_their_symbols_shown_and_take_them_as_printed_faces(capsys):
    args = ["roll", str(PATH), "narrative", "ability=1", "proficiency=1", "difficulty=1",
            "--faces", "advantage+success,triumph,threat+failure"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "1d{ability}[success+advantage] + 1d{proficiency}[triumph]" in out
    assert "1d{difficulty}[failure+threat]" in out
    assert "= 1 advantage, 1 failure, 1 success, 1 threat, 1 triumph" in out
    assert "result: 1" in out and "triumphs: 1" in out


@pytest.mark.parametrize("pool, difficulty", [((10, 8, 6, 6), 9), ((8, 6, 4), 11), ((6,), 4)])
def test_step_dice_keep_two_and_the_largest_die_left_is_the_effect(pool, difficulty):
    """Every throw of the pool, every pair it could keep, picked as the check's description
    says: a total reaching the difficulty first, then the largest effect, then the largest
    total (the effect: the largest die not kept, a d4 if none)."""
    size = 1
    for sides in pool:
        size *= sides
    outcomes: dict = defaultdict(F)
    effects: dict = defaultdict(F)
    for throw in itertools.product(*(range(1, s + 1) for s in pool)):
        best = None
        for pair in itertools.combinations(range(len(pool)), min(2, len(pool))):
            total = sum(throw[i] for i in pair)
            rest = [pool[i] for i in range(len(pool)) if i not in pair]
            effect = max(4, max(rest)) if rest else 4
            key = (total >= difficulty, effect, total)
            best = key if best is None or key > best else best
        outcomes["success" if best[0] else "failure"] += F(1, size)
        effects[best[1]] += F(1, size)
    odds = RS.check("step").odds({"pool": "/".join(f"d{s}" for s in pool), "difficulty": difficulty})
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(outcomes)
    assert odds.values["effect"] == dict(effects)
