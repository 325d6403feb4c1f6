"""One check's exact odds work each roll's distribution out once (run/exact.py,
``remembering_rolls``): the unbounded mean and variance of a result that explosions leave
open join the rolls again, and took them from scratch (Legend of the Five Rings' ring and
skill dice, joined a second time: 7% of the CPU at ring 3, skill 3); and so the dice chosen
of each throw, which the moments chose again (a third of an outside author's ring 4, skill 3
call). What is given again is charged the steps it cost, so the budget refuses where it did."""

from __future__ import annotations

import contextlib
from fractions import Fraction as F

from rulesengine import loads
from rulesengine.dice.dist import shared_budget
from rulesengine.run import after_choice, enumeration, exact
from test_rolls_after_choice import RULESET  # the docs' keep-then-explode: keep the ring, roll the 10s kept

def test_the_moments_take_the_rolls_the_outcomes_worked_out(monkeypatch):
    made: list[str] = []
    original = exact.ExactRolls._roll_dist

    def counted(self, name, *args, **kwargs):
        made.append(name)
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(exact.ExactRolls, "_roll_dist", counted)
    odds = loads(RULESET).check("roll").odds({"ring": 2, "skill": 1, "tn": 20})
    assert odds.outcomes["success"] == F(1049, 5000)  # docs/ruleset-language.md, "Rolling after the choice"
    assert odds.unbounded_mean == F(3443, 225)  # worked out by joining the rolls again
    assert made.count("dice") == 1


def test_the_moments_take_the_dice_the_outcomes_chose(monkeypatch):
    chose = [0]
    original = after_choice._chosen

    def counted(*args, **kwargs):
        chose[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(after_choice, "_chosen", counted)
    odds = loads(RULESET).check("roll").odds({"ring": 2, "skill": 1, "tn": 20})
    assert odds.outcomes["success"] == F(1049, 5000) and odds.unbounded_mean == F(3443, 225)
    assert chose[0] == 1


def test_a_roll_given_again_is_charged_what_it_cost(monkeypatch):
    """The whole odds charge as many steps as when every roll was worked out each time it
    was asked for (the memory turned off), so a budget refuses at the same point."""
    with shared_budget(10**12) as kept:
        loads(RULESET).check("roll").odds({"ring": 3, "skill": 2})
    monkeypatch.setattr(enumeration, "remembering_rolls", contextlib.nullcontext)
    with shared_budget(10**12) as fresh:
        loads(RULESET).check("roll").odds({"ring": 3, "skill": 2})
    assert kept.used == fresh.used > 0
