"""A sweep works out a roll once for all the values that share it (issue 33, items 5 and 7).

A sweep over an input the dice do not read (a skill rolled under, a difficulty the
successes must reach) asks for the same rolls at every value: their distributions are
worked out at the first value and reused at the others, and the sweep's work budget is
charged for them once. Each value's answer is the one a call for that value alone gives
(the oracle here), and a brute force over every throw at a small size. The work is
counted in distributions built, never a clock.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import DEFAULT_LIMITS
from rulesengine.dice.dist import shared_budget
from rulesengine.errors import LimitError
from rulesengine.ruleset import loads
from rulesengine.run.sweep import sweep

HEAD = """ruleset: sweeps
name: Sweeps that share their rolls
version: '1'
source: a test
license: none
checks:
"""

TEN = "d{0,1,2,3,4,5,6,7,8,9}"

# A d100 roll-under with two penalty dice: a ones die and three tens dice, the highest tens
# die kept; 00 reads 100. The skill is read only by the outcomes.
PERCENTILE = HEAD + f"""  percentile:
    inputs:
      skill: {{type: integer, min: 1, max: 100}}
    rolls:
      ones: {TEN}
      tens: {TEN}
      penalty1: {TEN}
      penalty2: {TEN}
    let:
      raw: 10 * max(tens, penalty1, penalty2) + ones
      value: if(raw == 0, 100, raw)
    result: value
    outcomes:
      - {{name: fumble, when: "value == 100 or (skill < 50 and value >= 96)", success: false}}
      - {{name: extreme, when: "value <= skill / 5", success: true}}
      - {{name: hard, when: "value <= skill / 2", success: true}}
      - {{name: regular, when: "value <= skill", success: true}}
      - {{name: failure, success: false}}
"""

# A pool of d10s against a difficulty: 8, 9 and 10 are successes, a 10 counts twice; no
# success and a 1 is a botch. The difficulty is read only by the outcomes.
POOL = HEAD + """  pool:
    inputs:
      dice: {type: integer, min: 1, max: 40}
      difficulty: {type: integer, min: 0, max: 80}
    roll: (dice)d10
    let:
      successes: count(roll, 8, 10) + count(roll, 10)
    result: successes
    outcomes:
      - {name: botch, when: "successes == 0 and count(roll, 1) >= 1", success: false}
      - {name: success, when: "successes >= difficulty", success: true}
      - {name: failure, success: false}
"""


def percentile_values() -> Counter[int]:
    """How many of the 10,000 throws of the four dice read each value."""
    values: Counter[int] = Counter()
    for ones, tens, p1, p2 in itertools.product(range(10), repeat=4):
        raw = 10 * max(tens, p1, p2) + ones
        values[100 if raw == 0 else raw] += 1
    return values


def percentile_oracle(skill: int, values: Counter[int]) -> dict[str, Fraction]:
    """Each outcome's chance, over every throw (``values``: :func:`percentile_values`)."""
    odds = dict.fromkeys(["fumble", "extreme", "hard", "regular", "failure"], Fraction(0))
    for value, n in values.items():
        name = ("fumble" if value == 100 or (skill < 50 and value >= 96) else "extreme" if value <= skill / 5
                else "hard" if value <= skill / 2 else "regular" if value <= skill else "failure")
        odds[name] += Fraction(n, 10 ** 4)
    return odds


def pool_oracle(dice: int, difficulty: int) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """Each outcome's chance and the successes' distribution, over every throw of the pool."""
    odds = dict.fromkeys(["botch", "success", "failure"], Fraction(0))
    results: Counter[int] = Counter()
    for throw in itertools.product(range(1, 11), repeat=dice):
        successes = sum(1 for f in throw if f >= 8) + throw.count(10)
        name = ("botch" if successes == 0 and 1 in throw else "success" if successes >= difficulty else "failure")
        odds[name] += Fraction(1, 10 ** dice)
        results[successes] += 1
    return odds, {k: Fraction(n, 10 ** dice) for k, n in results.items()}


def _alone(text: str, name: str, inputs: dict) -> dict:
    """One value's odds from a call for it alone (a ruleset loaded anew: nothing shared)."""
    return loads(text).check(name).odds(inputs).to_dict()


def _rows(swept) -> dict:
    return {values: odds.to_dict() for values, odds in swept.rows}


def test_a_percentile_sweep_gives_each_skill_the_odds_a_call_for_it_alone_gives():
    """skill=1..100 over a d100 with two penalty dice: every row is the brute force's, and
    a spread of rows (each side of 50, where the fumble widens, and the ends) are exactly
    what a call for that skill alone answers, to the last key of its JSON."""
    swept = sweep(loads(PERCENTILE).check("percentile"), {"skill": "1..100"}, {})
    assert [values for values, _ in swept.rows] == [(s,) for s in range(1, 101)]
    values = percentile_values()
    for (skill,), odds in swept.rows:
        assert dict(odds.outcomes) == percentile_oracle(skill, values), skill
    rows = _rows(swept)
    for skill in (1, 2, 9, 10, 49, 50, 51, 77, 99, 100):
        assert rows[(skill,)] == _alone(PERCENTILE, "percentile", {"skill": skill}), skill


def test_a_difficulty_sweep_gives_each_difficulty_the_odds_a_call_for_it_alone_gives():
    """difficulty=0..17 over 8d10: each row as a call for that difficulty alone answers."""
    rows = _rows(sweep(loads(POOL).check("pool"), {"dice": "8", "difficulty": "0..17"}, {}))
    assert list(rows) == [(d,) for d in range(18)]
    for (difficulty,), odds in rows.items():
        assert odds == _alone(POOL, "pool", {"dice": 8, "difficulty": difficulty}), difficulty


def test_a_difficulty_sweep_over_a_small_pool_is_the_brute_force():
    """difficulty=0..7 over 3d10, and the sweep over both inputs, against every throw."""
    swept = sweep(loads(POOL).check("pool"), {"dice": "1..3", "difficulty": "0..7"}, {})
    assert len(swept.rows) == 24
    for (dice, difficulty), odds in swept.rows:
        outcomes, results = pool_oracle(dice, difficulty)
        assert dict(odds.outcomes) == outcomes, (dice, difficulty)
        assert dict(odds.result_distribution) == results, (dice, difficulty)


def test_a_roll_the_swept_input_does_not_read_is_built_once_for_the_whole_sweep(builds):
    """100 skills over four dice build the dice's distribution once for the whole sweep,
    where each skill built its own (400) before. The four are read only through
    ``10 * max(tens, penalty1, penalty2) + ones``, so they are built as that one sum
    (tests/run/test_fused_rolls.py): one distribution in all."""
    sweep(loads(PERCENTILE).check("percentile"), {"skill": "1..100"}, {})
    assert builds[0] == 1


def test_a_pool_swept_over_its_difficulty_is_built_once(builds):
    sweep(loads(POOL).check("pool"), {"dice": "12", "difficulty": "1..30"}, {})
    assert builds[0] == 1


def test_a_roll_the_swept_input_reads_is_built_for_each_value(builds):
    """Sweeping the pool's size changes its dice: each value builds its own roll, and a
    second input swept inside it (the difficulty) shares each of them."""
    sweep(loads(POOL).check("pool"), {"dice": "1..6", "difficulty": "1..4"}, {})
    assert builds[0] == 6


def _limits(**limits):
    return dataclasses.replace(DEFAULT_LIMITS, **limits)


def _steps(text: str, name: str, inputs: dict) -> int:
    """The steps one call's odds take (measured by an outer budget the call charges)."""
    with shared_budget(10**12) as used:
        loads(text).check(name).odds(inputs)
    return used.used


def test_a_sweep_whose_values_each_fit_and_share_their_roll_is_answered():
    """A sweep over the difficulty of a 24-die pool, with a sweep budget of two calls' worth:
    the values' work one by one (30 whole calls) is far past it, so the sweep was refused
    as a whole (E210 max_sweep_states); sharing the roll, it is answered, each value as a
    call for it alone answers."""
    one = _steps(POOL, "pool", {"dice": 24, "difficulty": 1})
    budget = one + one // 10
    assert 30 * one > 2 * budget  # the values one by one would not fit
    rs = loads(POOL, limits=_limits(max_states=budget, max_sweep_states=2 * budget))
    swept = sweep(rs.check("pool"), {"dice": "24", "difficulty": "1..30"}, {})
    assert [values for values, _ in swept.rows] == [(d,) for d in range(1, 31)]
    for (difficulty,), odds in swept.rows[::7]:
        assert odds.to_dict() == _alone(POOL, "pool", {"dice": 24, "difficulty": difficulty}), difficulty


BONUS = HEAD + """  bonus:
    inputs:
      dice: {type: integer, min: 1, max: 40}
      bonus: {type: integer, min: 0, max: 40}
    rolls:
      roll: (dice)d10
      extra: (bonus)d10
    let:
      successes: count(roll, 8, 10) + count(extra, 8, 10)
    result: successes
    outcomes:
      - {name: success, when: "successes >= 3", success: true}
      - {name: failure, success: false}
"""


def test_a_value_too_big_alone_is_refused_in_a_sweep_that_shares_its_roll():
    """Each value's own budget is charged the shared roll as a call alone charges it: the
    pool is shared by every bonus, the bonus dice grow, and the sweep is refused at the
    first bonus a call alone refuses, with its error, not later (nor by the sweep's budget)."""
    low, high = _steps(BONUS, "bonus", {"dice": 20, "bonus": 0}), _steps(BONUS, "bonus", {"dice": 20, "bonus": 12})
    limits = _limits(max_states=(low + high) // 2, max_sweep_states=100 * high)
    refused = {}
    for bonus in range(13):
        try:
            loads(BONUS, limits=limits).check("bonus").odds({"dice": 20, "bonus": bonus})
        except LimitError as exc:
            refused[bonus] = exc.message
    first = min(refused)
    assert 0 < first < 12  # the first values fit alone, a later one does not
    with pytest.raises(LimitError) as info:
        sweep(loads(BONUS, limits=limits).check("bonus"), {"dice": "20", "bonus": "0..12"}, {})
    assert info.value.limit == "max_states" and info.value.message == f"at bonus={first}: {refused[first]}"


def test_a_sweep_resolves_each_reading_of_the_shared_roll_once_for_each_value(resolved):
    """The rules read the four dice only through ``value``: each skill resolves each value
    the dice can read once (100 of them), the first skill too (its 10,000 throws fall into
    those 100), where each skill resolved every throw before (1,000,000)."""
    readings = percentile_values()
    sweep(loads(PERCENTILE).check("percentile"), {"skill": "1..100"}, {})
    assert resolved[0] == 100 * len(readings)


# The same roll-under with the penalty dice an input, as a book states it (0, 1 or 2 of the
# tens dice kept at their highest): a value of the dice and of an input known before rolling.
PENALTY = HEAD + f"""  percentile:
    inputs:
      skill: {{type: integer, min: 1, max: 100}}
      penalty: {{type: integer, min: 0, max: 2}}
    rolls:
      ones: {TEN}
      tens: {TEN}
      extra1: {TEN}
      extra2: {TEN}
    let:
      worst: "if(penalty >= 2, max(tens, extra1, extra2), if(penalty == 1, max(tens, extra1), tens))"
      raw: 10 * worst + ones
      value: if(raw == 0, 100, raw)
    result: value
    outcomes:
      - {{name: fumble, when: "value >= 96 and value > skill", success: false}}
      - {{name: hard, when: "value <= skill / 2", success: true}}
      - {{name: regular, when: "value <= skill", success: true}}
      - {{name: failure, success: false}}
"""


def penalty_oracle(skill: int, penalty: int) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """Each outcome's chance and the result's distribution, over every throw of the four dice."""
    odds = dict.fromkeys(["fumble", "hard", "regular", "failure"], Fraction(0))
    results: Counter[int] = Counter()
    for ones, tens, e1, e2 in itertools.product(range(10), repeat=4):
        worst = max(tens, e1, e2) if penalty >= 2 else max(tens, e1) if penalty == 1 else tens
        raw = 10 * worst + ones
        value = 100 if raw == 0 else raw
        name = ("fumble" if value >= 96 and value > skill else "hard" if value <= skill // 2
                else "regular" if value <= skill else "failure")
        odds[name] += Fraction(1, 10 ** 4)
        results[value] += 1
    return odds, {k: Fraction(n, 10 ** 4) for k, n in results.items()}


def test_a_value_of_the_dice_and_an_input_is_carried_by_the_groups_made_for_that_input(resolved):
    """``worst`` reads the dice and the penalty, an input: for one penalty it is one value of
    each throw, so the 10,000 throws fall into the 100 values of ``value`` once for the
    sweep and each skill resolves those 100 (it took 2,000-odd a skill, eight seconds a sweep)."""
    swept = sweep(loads(PENALTY).check("percentile"), {"skill": "1..100", "penalty": "2"}, {})
    assert resolved[0] == 100 * 100
    for (skill,), odds in swept.rows[::9]:
        want, result = penalty_oracle(skill, 2)
        assert odds.outcomes == want and odds.result_distribution == result


@pytest.mark.parametrize("penalty, most", [(0, 1_000), (1, 1_000), (2, 100)])
def test_one_call_groups_the_throws_by_a_value_of_the_dice_and_an_input_too(resolved, penalty, most):
    """A call alone groups its 10,000 throws the same way, for its own penalty: one resolution
    for each value of `value`. With fewer penalty dice the rules as the penalty makes them
    (``worst: tens``, rules/taken.py) read fewer dice: at most a thousand throws, none grouped."""
    odds = loads(PENALTY).check("percentile").odds({"skill": 45, "penalty": penalty})
    want, result = penalty_oracle(45, penalty)
    assert odds.outcomes == want and odds.result_distribution == result
    assert len(result) <= resolved[0] <= most


def test_groups_made_for_one_value_of_an_input_are_not_used_for_another():
    """Swept over the penalty too, each penalty groups the throws anew: every row is the
    brute force of its own penalty."""
    swept = sweep(loads(PENALTY).check("percentile"), {"skill": "1,45,97", "penalty": "0..2"}, {})
    assert len(swept.rows) == 9
    for (skill, penalty), odds in swept.rows:  # a list's values as written, a range's as numbers
        want, result = penalty_oracle(int(skill), penalty)
        assert odds.outcomes == want and odds.result_distribution == result, (skill, penalty)


# Rules that read their rolls in ways a group must keep apart: a pool's dice through a
# function (the name is read whole), an if() choosing which roll a function reads, values
# reported, a part that fails for some throws (resolved alone, failing where it fails alone),
# and explosions cut at the depth.
READINGS = HEAD + """  readings:
    inputs:
      edge: {type: choice, choices: [none, advantage, disadvantage], default: none}
      need: {type: integer, min: 0, max: 12}
    rolls:
      a: 2d6
      b: 2d6
    let:
      best: "highest(if(edge == 'advantage', a, b))"
      both: a + b
    result: best + need
    outcomes:
      - {name: snake_eyes, when: "count(a, 1) == 2", success: false}
      - {name: hit, when: "both >= need and best >= 4", success: true}
      - {name: miss, success: false}
    tags:
      - {name: high_die, when: "highest(if(a > b, a, b)) * 2 >= need"}
    report: [a, both]
  tagged:
    inputs:
      need: {type: integer, min: 0, max: 12}
    rolls:
      a: d6
      b: d6
    outcomes:
      - {name: hit, when: "a + b >= need", success: true}
      - {name: miss, success: false}
    tags:
      - {name: doubles, when: "a == b"}
  reported:
    inputs:
      need: {type: integer, min: 0, max: 12}
    rolls:
      a: d6
      b: d6
    let:
      both: a + b
    outcomes:
      - {name: hit, when: "both >= need", success: true}
      - {name: miss, success: false}
    report: [a]
  fragile:
    inputs:
      skill: {type: integer, min: 0, max: 5}
    rolls:
      ones: d{0,1,2,3}
    outcomes:
      - {name: high, when: "skill > 0 and 6 / ones >= 3", success: true}
      - {name: low, success: false}
  exploding:
    inputs:
      difficulty: {type: integer, min: 0, max: 20}
    roll: 3d10!cs>=8
    outcomes:
      - {name: success, when: "roll >= difficulty", success: true}
      - {name: failure, success: false}
"""


@pytest.mark.parametrize(("name", "swept", "given"), [
    ("readings", {"need": "0..12"}, {"edge": "advantage"}),
    ("readings", {"edge": "none,advantage,disadvantage"}, {"need": 6}),
    ("tagged", {"need": "0..12"}, {}),
    ("reported", {"need": "0..12"}, {}),
    ("exploding", {"difficulty": "0..8"}, {}),
])
def test_rules_that_read_dice_through_functions_reports_and_explosions_sweep_as_alone(name, swept, given):
    rows = _rows(sweep(loads(READINGS).check(name), {**swept, **{k: str(v) for k, v in given.items()}}, {}))
    ((input_name, _),) = swept.items()
    for (value,), odds in rows.items():
        assert odds == _alone(READINGS, name, {**given, input_name: value}), value


def test_a_part_that_fails_for_some_throws_fails_in_a_sweep_where_it_fails_alone():
    """``6 / ones`` is read only past ``skill > 0``: skill 0 is answered, skill 1 fails on a
    0, in the sweep with the error the call alone gives."""
    with pytest.raises(Exception) as alone:  # noqa: PT011 - whichever error the rules give
        loads(READINGS).check("fragile").odds({"skill": 1})
    with pytest.raises(type(alone.value)) as info:
        sweep(loads(READINGS).check("fragile"), {"skill": "0..5"}, {})
    assert info.value.message == f"at skill=1: {alone.value.message}"


def test_a_sweep_over_what_only_the_outcomes_read_chooses_the_dice_once(monkeypatch):
    """tn=5..25 over rolls made after a choice of dice: the throws, the dice chosen of each
    and the roll after it are worked out at the first target and shared by the others (an
    outside author's Legend of the Five Rings sweep worked them out again at every target,
    and was refused at the fifth); so are the result's unbounded moments. Each row is what a
    call for that target alone answers; a ring swept chooses anew for each ring."""
    # keep as many dice as the ring, then each kept 10 rolls again (rolls made after the choice);
    # the oracle lists every throw and follows the kept 10s to the end
    from test_rolls_after_choice import RULESET as KEEP, keep_then_explode
    from rulesengine.run import after_choice
    from rulesengine.run.enumeration import Enumerator

    chose, moments = [0], [0]
    original, worked = after_choice.with_choice, Enumerator._unbounded_moments

    def counted(*args, **kwargs):
        chose[0] += 1
        return original(*args, **kwargs)

    def counted_moments(self, *args, **kwargs):
        moments[0] += 1
        return worked(self, *args, **kwargs)

    monkeypatch.setattr(after_choice, "with_choice", counted)
    monkeypatch.setattr(Enumerator, "_unbounded_moments", counted_moments)
    swept = sweep(loads(KEEP).check("roll"), {"ring": "2", "skill": "1", "tn": "5..25"}, {})
    assert (chose[0], moments[0]) == (2, 1)  # the first target's odds and its moments (a mixture over the choice)
    rows = _rows(swept)
    for (tn,), odds in swept.rows:
        assert odds.success == keep_then_explode(2, 1, tn), tn
    for tn in (5, 12, 19, 25):
        assert rows[(tn,)] == _alone(KEEP, "roll", {"ring": 2, "skill": 1, "tn": tn}), tn
    chose[0] = moments[0] = 0
    sweep(loads(KEEP).check("roll"), {"ring": "1..3", "skill": "1", "tn": "5..7"}, {})
    assert (chose[0], moments[0]) == (6, 3)
