"""fate-core: rules FA-1..FA-4, restated from the Fate Core System Reference Document (Evil
Hat Productions, CC BY 3.0). 4dF + skill against the ladder; shifts read as fail, tie,
succeed, succeed with style; +2 per invocation; one opposed exchange. Exact odds against a
brute force over every face of the four Fate dice (itertools)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

import rulesengine.ruleset as R

RS = R.load("fate-core")
ACTION = RS.check("action")
ROLLS = [sum(f) for f in itertools.product((-1, 0, 1), repeat=4)]  # 81 equally likely rolls
LADDER = {"terrible": -2, "poor": -1, "mediocre": 0, "average": 1, "fair": 2, "good": 3, "great": 4,
          "superb": 5, "fantastic": 6, "epic": 7, "legendary": 8}


def by_hand(skill: int, difficulty: int, invokes: int = 0) -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    for r in ROLLS:
        shifts = r + skill + 2 * invokes - difficulty
        out["succeed_with_style" if shifts >= 3 else "succeed" if shifts >= 1 else "tie" if shifts == 0
            else "fail"] += F(1, 81)
    return dict(out)


def nonzero(d):
    return {k: v for k, v in d.items() if v}


@pytest.mark.parametrize("skill, difficulty", [(3, 2), (0, 0), (1, 4), (5, 2), (-2, 6)])
@pytest.mark.parametrize("invokes", [0, 1, 2])
def test_fa1_fa2_fa3_shifts_against_the_ladder(skill, difficulty, invokes):
    odds = ACTION.odds({"skill": skill, "difficulty": difficulty, "invokes": invokes})
    assert nonzero(odds.outcomes) == nonzero(by_hand(skill, difficulty, invokes))


def test_fa1_the_ladder_words_are_its_numbers():
    for word, number in LADDER.items():
        assert ACTION.odds({"skill": word}).outcomes == ACTION.odds({"skill": number}).outcomes


def test_fa1_4df_is_centred_with_the_familiar_spread():
    """4dF: 0 comes up 19 times in 81, +4 once."""
    dist = ACTION.odds({"skill": 0, "difficulty": 0}).result_distribution
    assert dist[0] == F(19, 81) and dist[4] == F(1, 81) and dist[-4] == F(1, 81)


def test_fa2_examples():
    r = ACTION.roll({"skill": "good", "difficulty": "great", "invokes": 1}, faces=[1, 0, -1, 1])
    assert (r.result, r.outcome) == (2, "succeed")          # +1 +3 +2 against +4
    r = ACTION.roll({"skill": "fair", "difficulty": "fair"}, faces=[0, 0, 0, 0])
    assert r.outcome == "tie"
    r = ACTION.roll({"skill": "superb", "difficulty": "average"}, faces=[0, 0, 0, -1])
    assert r.outcome == "succeed_with_style"                # +5 -1 against +1: 3 shifts


def test_fa4_an_opposed_exchange_goes_to_the_higher_total():
    want: dict[str, F] = defaultdict(F)
    for a, b in itertools.product(ROLLS, ROLLS):
        t1, t2 = a + 3, b + 2
        want["party1_wins" if t1 > t2 else "party2_wins" if t2 > t1 else "tie"] += F(1, 81 * 81)
    odds = RS.procedure("opposed").odds(parties=[{"skill": "good"}, {"skill": "fair"}])
    assert odds.outcomes == dict(want)


def exchange_odds(skill: int, opposing: int) -> dict[str, F]:
    out: dict[str, F] = defaultdict(F)
    for a, b in itertools.product(ROLLS, ROLLS):
        s = a + skill - b - opposing
        out["win_with_style" if s >= 3 else "win" if s >= 1 else "tie" if s == 0 else
            "lose" if s > -3 else "lose_with_style"] += F(1, 81 * 81)
    return dict(out)


@pytest.mark.parametrize("skill, opposing", [(3, 2), (2, 2), (0, 4)])
def test_fa5_a_contest_goes_to_the_first_with_three_victories(skill, opposing):
    step = exchange_odds(skill, opposing)
    gain = {"win_with_style": (2, 0), "win": (1, 0), "tie": (0, 0), "lose": (0, 1), "lose_with_style": (0, 2)}
    states = {(0, 0): F(1)}
    won = lost = F(0)
    for _ in range(30):  # the procedure's round limit
        nxt: dict[tuple[int, int], F] = defaultdict(F)
        for (a, b), p in states.items():
            for name, q in step.items():
                da, db = gain[name]
                if a + da >= 3:
                    won += p * q
                elif b + db >= 3:
                    lost += p * q
                else:
                    nxt[(a + da, b + db)] += p * q
        states = nxt
    odds = RS.procedure("contest").odds({"skill": skill, "opposing_skill": opposing})
    assert odds.outcomes["success"] == won and odds.outcomes["failure"] == lost
    assert odds.outcomes["unfinished"] == sum(states.values(), F(0))


def test_fa5_an_exchange_example():
    r = RS.check("exchange").roll({"skill": "good", "opposing_skill": "fair"}, faces=[1, 1, 0, 0, -1, 0, 0, 0])
    assert (r.result, r.outcome) == (4, "win_with_style")   # +2 +3 against -1 +2


def by_hand_with_reroll(skill: int, difficulty: int, when: str) -> dict[str, F]:
    """FA-6: after seeing the dice, invoke to reroll all four when the roll fails (or fails
    or ties); the second throw stands. Every pair of throws, by hand."""
    out: dict[str, F] = defaultdict(F)

    def outcome(r: int) -> str:
        s = r + skill - difficulty
        return "succeed_with_style" if s >= 3 else "succeed" if s >= 1 else "tie" if s == 0 else "fail"

    for first in ROLLS:
        again = first + skill < difficulty if when == "on_fail" else first + skill <= difficulty
        if again:
            for second in ROLLS:
                out[outcome(second)] += F(1, 81 * 81)
        else:
            out[outcome(first)] += F(1, 81)
    return dict(out)


@pytest.mark.parametrize("skill, difficulty", [(0, 2), (3, 2), (1, 4), (-2, 0)])
@pytest.mark.parametrize("when", ["on_fail", "on_tie_or_fail"])
def test_fa6_invoking_to_reroll_when_the_roll_falls_short(skill, difficulty, when):
    odds = ACTION.odds({"skill": skill, "difficulty": difficulty, "reroll": when})
    assert nonzero(odds.outcomes) == nonzero(by_hand_with_reroll(skill, difficulty, when))


def test_fa6_example_a_failed_roll_rerolled_into_a_tie():
    """Mediocre (+0) against Fair (+2): - - 0 + is -1, a failure; the invocation rerolls,
    + + 0 0 is +2: a tie. Four more faces are asked for only because of the reroll."""
    r = ACTION.roll({"skill": "mediocre", "difficulty": "fair", "reroll": "on_fail"},
                    faces=["-", "-", "0", "+", "+", "+", "0", "0"])
    assert (r.result, r.outcome) == (0, "tie")
    r = ACTION.roll({"skill": "mediocre", "difficulty": "fair", "reroll": "on_fail"}, faces=["+", "+", "0", "+"])
    assert (r.result, r.outcome) == (1, "succeed")
