"""A check whose reported values are worked out apart (run/marginals.py: a pass for the
outcome and result, one for each value) reads in each pass only what that pass reads of the
rolls (a roll it does not read is no reading at all: it was read by its total), and resolves
the throws its rules can't tell apart once for all (run/groups.py): an outside author's
Forbidden Lands pool with an artifact die, pushed, made 140,424 resolutions, one for each
joint value of three passes. Counted, never timed; the odds are those of every throw."""

from __future__ import annotations

import math
from fractions import Fraction

from rulesengine import loads
from rulesengine.run.enumeration import Enumerator
from rulesengine.run.resolver import Resolver

POOL = """\
ruleset: pushed-pool
name: A pushed pool with an artifact die
version: "1"
source: tests
checks:
  roll:
    inputs:
      base: {type: integer, min: 1, max: 6}
      gear: {type: integer, min: 0, max: 5}
    rolls:
      b: (base)d6
      g: (gear)d6
      a: 1d8
    let:
      extra: "if(a >= 6, (a - 4) / 2, 0)"
      successes: count(b, 6) + count(g, 6) + extra
      damage: count(b, 1)
      lost: count(g, 1)
    result: successes
    report: [damage, lost]
    outcomes:
      - {name: success, when: "successes >= 2", success: true}
      - {name: failure, success: false}
"""


def _sixes_and_ones(n: int) -> dict[tuple[int, int], Fraction]:
    """n d6 by their 6s and their 1s: a multinomial over (6, 1, the four others)."""
    out = {}
    for six in range(n + 1):
        for one in range(n - six + 1):
            ways = math.factorial(n) // (math.factorial(six) * math.factorial(one) * math.factorial(n - six - one))
            out[(six, one)] = Fraction(ways * 4 ** (n - six - one), 6 ** n)
    return out


def test_each_pass_reads_what_it_needs_and_resolves_alike_throws_once(monkeypatch):
    made, joints = [], []
    resolve, joint_rolls = Resolver.resolve, Enumerator.joint_rolls

    def counted(self, env, *args, **kwargs):
        made.append(1)
        return resolve(self, env, *args, **kwargs)

    def joint_counted(self, values, reads=None, cut=False):
        found = joint_rolls(self, values, reads, cut)
        joints.append(len(found[2]))
        return found

    monkeypatch.setattr(Resolver, "resolve", counted)
    monkeypatch.setattr(Enumerator, "joint_rolls", joint_counted)
    d = loads(POOL).check("roll").odds({"base": 6, "gear": 5}).to_dict()
    # the outcome's pass: b by its 6s (7 readings), g by its 6s (6), the d8 (8); the damage
    # pass reads b's 1s (7) beside the d8, the lost gear's g's 1s (6): the other pool is no
    # reading there (it was read by its total: 20,000 joint values a pass in the author's)
    assert joints[0] <= 7 * 6 * 8 and max(joints[1:]) <= 7 * 8
    # every joint value of the passes, each resolved, was 3,280 resolutions
    assert 0 < len(made) <= 3280 // 4
    # the oracle: each reading of b and g by the multinomial, each face of the d8
    success, damage = Fraction(0), {}
    for (b6, b1), pb in _sixes_and_ones(6).items():
        for (g6, _g1), pg in _sixes_and_ones(5).items():
            for a in range(1, 9):
                p = pb * pg / 8
                success += p if b6 + g6 + ((a - 4) // 2 if a >= 6 else 0) >= 2 else 0
                damage[b1] = damage.get(b1, 0) + p
    assert Fraction(d["success"]["exact"]) == success
    assert {r["value"]: Fraction(r["exact"]) for r in d["values"]["damage"]} == damage
