"""Big exploding pools with a botch read on the first throw (issue 33, item 8): a World of
Darkness-style check, ``(pool)d10!cs>=8`` (successes on 8 or more, tens explode), a botch
when there is no success and at least one 1 on the first throw. None of its outcomes
depends on how deep the explosions go (a cut chain already has successes; the first
throw's 1s are known), so they are exact, also at 40 dice; the result's distribution keeps
the mass the depth cut, as before. Oracles: every die's chain written out here, and the
closed forms (7/10)^n and (6/10)^n."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads

HEAD = """
ruleset: wod-botch
name: WoD-style botch
version: "1"
source: tests
checks:
  check:
    inputs:
      pool: {type: integer, default: 5, min: 1, max: 40}
    roll: (pool)d10!cs>=8
    result: roll
    outcomes:
"""
BOTCH = HEAD + """\
      - {name: botch, when: "roll == 0 and count(initial(roll), 1) >= 1", success: false}
      - {name: success, when: "roll >= 1", success: true}
      - {name: failure, success: false}
"""
# The same rule, the 1s read as a number (not only compared): the count is read whole.
BOTCH_READ_WHOLE = HEAD + """\
      - {name: botch, when: "roll == 0 and count(initial(roll), 1) * 2 >= 2", success: false}
      - {name: success, when: "roll >= 1", success: true}
      - {name: failure, success: false}
"""

LONGEST = 1  # tens written out before a chain stands for every longer one
SCALE = 10 ** (LONGEST + 1)  # every chain's probability is a whole number of 1/SCALE


def chains():
    """One d10!'s chains: (first face, successes, probability × SCALE). A die shows 1..10,
    and while it shows 10 it rolls again; a success is a face of 8 or more. Chains of up to
    LONGEST tens then a face that stops are written out; the rest (LONGEST + 1 tens, then
    anything, probability (1/10)^(LONGEST + 1)) is one chain with at least LONGEST + 1
    successes, whatever follows."""
    for tens in range(LONGEST + 1):
        for last in range(1, 10):
            first = 10 if tens else last
            yield first, tens + (last >= 8), SCALE // 10 ** (tens + 1)
    yield 10, LONGEST + 1, SCALE // 10 ** (LONGEST + 1)


def brute_force(n: int) -> dict[str, F]:
    """The outcomes of n dice, every combination of their chains."""
    out = {"botch": 0, "success": 0, "failure": 0}
    for dice in itertools.product(list(chains()), repeat=n):
        w = 1
        for _, _, q in dice:
            w *= q
        successes = sum(s for _, s, _ in dice)
        ones = sum(1 for first, _, _ in dice if first == 1)
        name = "botch" if successes == 0 and ones >= 1 else "success" if successes >= 1 else "failure"
        out[name] += w
    return {name: F(w, SCALE ** n) for name, w in out.items()}


def closed_form(n: int) -> dict[str, F]:
    """No success: every die's first face below 8 (a die with no success never exploded),
    (7/10)^n; of those, no 1 either: (6/10)^n."""
    none, no_one = F(7, 10) ** n, F(6, 10) ** n
    return {"botch": none - no_one, "success": 1 - none, "failure": no_one}


def test_the_chains_written_out_add_up_to_one():
    assert sum(w for _, _, w in chains()) == SCALE


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_botch_on_the_first_throw_is_exact_for_small_pools(n):
    want = brute_force(n)
    assert want == closed_form(n)
    odds = loads(BOTCH, "wod.yaml").check("check").odds({"pool": n})
    assert odds.truncated == 0
    assert odds.outcomes == want


@pytest.mark.parametrize("n", [1, 3])
def test_a_count_of_ones_read_whole_gives_the_same_outcomes(n):
    odds = loads(BOTCH_READ_WHOLE, "wod.yaml").check("check").odds({"pool": n})
    assert odds.truncated == 0
    assert odds.outcomes == brute_force(n)


def test_the_result_keeps_the_mass_the_depth_cut():
    """Only the outcomes become exact: the successes' distribution still leaves out the rolls
    with a die whose tens reached the explode depth, 1 - (1 - (1/10)^(depth + 1))^n."""
    cut = F(1, 10) ** (DEFAULT_LIMITS.explode_depth + 1)
    odds = loads(BOTCH, "wod.yaml").check("check").odds({"pool": 2})
    assert odds.result_truncated == 1 - (1 - cut) ** 2


def test_forty_dice_are_exact_within_the_default_budget():
    """40 dice: every outcome the closed form's, nothing truncated, within the default work
    budget (it used to leave the cut rolls truncated, ~4e-10, past half of it)."""
    odds = loads(BOTCH, "wod.yaml").check("check").odds({"pool": 40})
    assert odds.truncated == 0
    assert odds.outcomes == closed_form(40)


def steps_spent(monkeypatch, text: str, pool: int) -> tuple[int, F]:
    """The work (budget steps) one exact-odds call spends, and its outcomes' truncated mass."""
    from rulesengine.dice import dist

    spent = [0]
    spend = dist.Budget.spend

    def counted(self, amount):
        spent[0] += amount
        return spend(self, amount)

    monkeypatch.setattr(dist.Budget, "spend", counted)
    odds = loads(text, "wod.yaml").check("check").odds({"pool": pool})
    return spent[0], odds.truncated


def test_forty_dice_take_under_half_the_work_budget(monkeypatch):
    """Following the cut rolls is tried with half the budget left: the 1s only compared with
    1 are read as "none" or "some", so 40 dice fit in it."""
    steps, truncated = steps_spent(monkeypatch, BOTCH, 40)
    assert truncated == 0
    assert steps < DEFAULT_LIMITS.max_states // 2


def test_a_count_only_compared_costs_less_than_one_read_whole(monkeypatch):
    capped, _ = steps_spent(monkeypatch, BOTCH, 12)
    whole, _ = steps_spent(monkeypatch, BOTCH_READ_WHOLE, 12)
    assert capped < whole
