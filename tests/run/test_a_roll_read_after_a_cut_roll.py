"""A roll made after seeing an exploding roll is worked out for the rolls the depth cut too,
where it reads nothing of what was cut (found by an outside author's Chronicles of Darkness
rote: `reroll: if(rote, (count(initial(pool), 1, 7))d10!, 0)`, the failed dice of the first
throw rolled once more, made every outcome "truncated", even with rote off, where the same
pool alone was exact: 2 dice' exceptional success 3749999800000000001/10^22 and a cut-off
beside it, where the chance is 3/8000). A cut roll's first throw is known exactly, so the
reroll is too; what the rules read of the cut roll then decides as a bound. And a roll after
it that reads none of it, or reads what was cut (`count(pool, 10)` of a cut pool), stays
as it was: the latter truncated."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    inputs:
      dice: {type: integer, min: 1, max: 10}
      rote: {type: boolean, default: false}
    rolls:
      pool: (dice)d10!
      reroll: if(rote, (count(initial(pool), 1, 7))d10!, 0)
    result: count(pool, 8, 10) + count(reroll, 8, 10)
    outcomes:
      - {name: exceptional, when: "result >= 5", success: true}
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
"""

TOP = 60  # successes past this carry less than 10^-55 of the mass: not needed below 5


def exploding() -> dict[int, F]:
    """One d10 exploding on 10, 8+ a success, followed for ever: t 10s then a 1-7 is t
    successes, t 10s then an 8 or 9 is t + 1."""
    return {s: F(1, 10) ** s * F(7, 10) + (F(1, 10) ** (s - 1) * F(2, 10) if s else 0) for s in range(TOP)}


def with_rote() -> dict[int, F]:
    """A die of the rote pool: a first throw of 1-7 is rolled once more (that die explodes);
    an 8 or 9 is one success; a 10 is one and the chain it starts (not rolled again)."""
    die: Counter = Counter({1: F(2, 10)})
    for s, p in exploding().items():
        die[s] += F(7, 10) * p
        die[s + 1] += F(1, 10) * p
    return dict(die)


def pool_of(die: dict[int, F], dice: int) -> dict[int, F]:
    out = {0: F(1)}
    for _ in range(dice):
        nxt: Counter = Counter()
        for a, p in out.items():
            for b, q in die.items():
                if a + b < TOP:
                    nxt[a + b] += p * q
        out = dict(nxt)
    return out


@pytest.mark.parametrize("dice, rote", [(1, False), (2, False), (2, True), (3, True)])
def test_a_reroll_of_the_first_throws_failures_leaves_the_odds_exact(dice, rote):
    odds = loads(RULESET).check("c").odds({"dice": dice, "rote": rote})
    total = pool_of(with_rote() if rote else exploding(), dice)
    assert odds.truncated == 0
    assert odds.outcomes["exceptional"] == 1 - sum(total.get(v, F(0)) for v in range(5))
    assert odds.outcomes["failure"] == total[0]
    if dice == 2 and not rote:
        assert odds.outcomes["exceptional"] == F(3, 8000)  # the outside author's figure


def test_a_roll_that_reads_what_was_cut_stays_truncated():
    """A push of the 10s, `(count(pool, 10))d10`: the count of 10s of a cut pool is only a
    bound, so the push can't be worked out for it: that mass stays truncated, as before."""
    text = RULESET.replace("if(rote, (count(initial(pool), 1, 7))d10!, 0)", "(count(pool, 10))d10")
    odds = loads(text).check("c").odds({"dice": 2})
    assert 0 < odds.truncated < F(1, 10 ** 9)
