"""A check whose reported values are worked out apart (run/marginals.py: a pass for the
outcome and result, one for each value) resolves, in each pass too, the throws its rules
can't tell apart once for all (run/groups.py): an outside author's Forbidden Lands pool
with an artifact die, pushed, made 140,424 resolutions, one for each joint value of three
passes. Counted, never timed; the odds are those of every throw, brute force."""

from __future__ import annotations

import math
from fractions import Fraction

from rulesengine import loads
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


def test_each_pass_resolves_alike_throws_once_and_the_odds_are_every_throws(monkeypatch):
    made = []
    resolve = Resolver.resolve

    def counted(self, env, *args, **kwargs):
        made.append(1)
        return resolve(self, env, *args, **kwargs)

    monkeypatch.setattr(Resolver, "resolve", counted)
    d = loads(POOL).check("roll").odds({"base": 6, "gear": 5}).to_dict()
    # the passes' joint values (each reads b and g by what it needs of them, and a) were
    # 3,280, each resolved; the rules read them through a few sums: a quarter of that at most
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
