"""A check whose rules read a roll's first throw (``count(initial(roll), 1)``) and report a
value nothing else reads: its odds are no longer worked out in passes (run/marginals.py),
because every pass resolves every rule, and a pass that did not read the first throw gave
its rolls none: initial() then failed (E201 "initial() of a roll that keeps or drops dice")
on a roll that keeps every die, found on symbol dice by an outside author (Tunnels & Trolls).
Checked against the dice followed by hand: a brute force over every chain to a depth."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from rulesengine.errors import RulesEngineError
from rulesengine.limits import Limits
from rulesengine.ruleset import loads

SYMBOLS = """\
ruleset: t
name: T
version: "1"
source: test
dice:
  tri: {faces: [[a], [a, a], [a, a, a, b]]}
checks:
  c:
    roll: 1d{tri}!
    let:
      pts: symbols(roll, 'a')
      bs: symbols(roll, 'b')
    result: pts
    report: [bs]
    outcomes:
      - {name: two_first, when: "count(initial(roll), 2) == 1", success: false}
      - {name: big, when: "pts >= 5", success: true}
      - {name: other, success: true}
"""

NUMBERS = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  c:
    roll: 2d6!
    let:
      sixes: count(roll, 6)
    result: count(roll, 4, 6)
    report: [sixes]
    outcomes:
      - {name: botch, when: "count(initial(roll), 1) >= 1", success: false}
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
"""


def test_exploding_symbol_dice_read_by_their_first_throw_with_a_value_apart():
    odds = loads(SYMBOLS).check("c").odds({})
    # the die shows 1, 2 or 3 (a third each) and explodes on 3: the first face decides two_first;
    # big (5 points or more) needs a first 3 and a next face of 2 or 3
    assert odds.outcomes == {"two_first": Fraction(1, 3), "big": Fraction(2, 9), "other": Fraction(4, 9)}
    # the b symbols: how many 3s in a row before the chain ends
    bs = odds.values["bs"]
    assert [bs[k] for k in range(3)] == [Fraction(2, 3), Fraction(2, 9), Fraction(2, 27)]


def _chains(depth: int):
    """Each die of 2d6! as its chain of faces, to ``depth`` explosions, with its chance."""
    def chains(left):
        for f in range(1, 7):
            if f == 6 and left:
                for rest, p in chains(left - 1):
                    yield (6, *rest), Fraction(1, 6) * p
            else:
                yield (f,), Fraction(1, 6)
    return list(chains(depth))


def test_exploding_dice_read_by_their_first_throw_with_a_value_apart_match_the_chains():
    odds = loads(NUMBERS).check("c").odds({})
    want: Counter = Counter()
    sixes: Counter = Counter()
    for (a, pa), (b, pb) in itertools.product(_chains(12), repeat=2):
        faces = a + b
        if 1 in (a[0], b[0]):
            name = "botch"
        elif sum(4 <= f <= 6 for f in faces) >= 2:
            name = "hit"
        else:
            name = "miss"
        want[name] += pa * pb
        sixes[faces.count(6)] += pa * pb
    # the brute force stops at 12 explosions a die, the engine follows the chains for ever
    # where the outcome is decided: every figure within the mass the brute force leaves out
    left_out = 1 - sum(want.values())
    for name, p in odds.outcomes.items():
        assert 0 <= p - want[name] <= left_out, name
    assert odds.outcomes["botch"] == 1 - Fraction(25, 36)
    for k in range(3):
        assert abs(odds.values["sixes"][k] - sixes[k]) <= left_out


def test_a_refusal_of_exploding_dice_names_the_depth_as_a_fix():
    """One throw of 2d6 as one 36-faced symbol die that rolls again on doubles (Tunnels &
    Trolls, an outside author's), read by its first throw, is too big to work out at the
    default depth (every chain of doubles kept apart): "use fewer dice" alone is no help for
    one die, so the hint names the explosion depth too, and a lower depth answers."""
    faces = ", ".join("[" + ", ".join(["pip"] * (a + b) + (["double"] if a == b else [])) + "]"
                      for a in range(1, 7) for b in range(1, 7))
    doubles = "".join(f"!={7 * i + 1}" for i in range(6))
    text = (SYMBOLS.split("dice:")[0] + f"dice:\n  pair: {{faces: [{faces}]}}\nchecks:\n  c:\n"
            f"    roll: 1d{{pair}}{doubles}\n    let:\n      total: symbols(roll, 'pip')\n"
            "      doubles: symbols(roll, 'double')\n    result: total\n    report: [doubles]\n"
            "    outcomes:\n      - {name: automatic_failure, when: \"count(initial(roll), 2) + count(initial(roll), 7) == 1\","
            " success: false}\n      - {name: success, when: \"total >= 20\", success: true}\n"
            "      - {name: failure, success: false}\n")
    try:
        loads(text).check("c").odds({})
    except RulesEngineError as exc:
        assert exc.code == "E210" and exc.hint == "use fewer dice, or a lower explosion depth"
    else:
        raise AssertionError("expected a refusal at the default depth")
    shallow = loads(text, limits=Limits(explode_depth=2)).check("c").odds({})
    assert shallow.outcomes["automatic_failure"] == Fraction(1, 18)  # a 1-2 or a 2-1 first
