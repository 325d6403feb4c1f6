"""The largest (or smallest) of several counts of one roll, read as one number: the widest set
of matching faces of a One-Roll-Engine pool, ``max(count(roll, 1), …, count(roll, 10))``; the
largest (smallest) of numbers each made of one count: the highest set, ``max(if(count(roll, 1)
>= 2, 1, 0), …)``, the widest set with its face, ``max(count(roll, 1) * 100 + 1, …)``; and
a sum of numbers each made of one count: how many faces show, ``min(count(roll, 1), 1) + … +
min(count(roll, 10), 1)``; how many sets, ``if(count(roll, 1) >= 2, 1, 0) + …``; how many
pairs, ``floor(count(roll, 1) / 2) + …``.

Read die by die, ten counts of 10d10 were 92,378 joint values and the check was refused
(E210) at ten dice, an ordinary pool; read face by face (``dice.face_fold``) the state is the
widest set so far. Checked against a brute force over every throw at small sizes, and at
table sizes against the multinomial over how many dice show each face (an independent sum
over every split of the dice among the faces)."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from fractions import Fraction

import pytest

from rulesengine.ruleset import loads

HEAD = """ruleset: t
name: T
version: "1"
source: tests
checks:
"""

WIDTH = "max(" + ", ".join(f"count(roll, {f})" for f in range(1, 11)) + ")"
DISTINCT = " + ".join(f"min(count(roll, {f}), 1)" for f in range(1, 11))  # how many faces show
SETS = " + ".join(f"if(count(roll, {f}) >= 2, 1, 0)" for f in range(1, 11))  # how many sets
PAIRS = " + ".join(f"floor(count(roll, {f}) / 2)" for f in range(1, 7))  # how many pairs, a face in two
NARROW = "min(" + ", ".join(f"count(roll, {f})" for f in range(1, 11)) + ")"
HIGHEST = "max(" + ", ".join(f"if(count(roll, {f}) >= 2, {f}, 0)" for f in range(1, 11)) + ")"  # the highest set
# the widest set, of sets as wide the highest: its width times 100 plus its face
BEST = "max(" + ", ".join(f"count(roll, {f}) * 100 + {f}" for f in range(1, 11)) + ")"
EVERY_PAIR = "min(" + ", ".join(f"floor(count(roll, {f}) / 2)" for f in range(1, 7)) + ")"  # pairs of every face

# The widest set, and whether a 10 shows (a count compared with a number: read as at most 1
# elsewhere, while the widest set needs it whole).
ORE = HEAD + f"""  sets:
    inputs:
      dice: {{type: integer, min: 1, max: 12}}
    roll: (dice)d10
    let:
      width: "{WIDTH}"
    result: width
    outcomes:
      - {{name: wide, when: "width >= 3", success: true}}
      - {{name: set, when: "width >= 2", success: true}}
      - {{name: ten, when: "count(roll, 10) >= 1", success: false}}
      - {{name: none, success: false}}
  gaps:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d10
    result: "{NARROW}"
    outcomes:
      - {{name: every_face, when: "result >= 1", success: true}}
      - {{name: missing, success: false}}
  distinct:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d10
    result: "{DISTINCT}"
    outcomes:
      - {{name: spread, when: "result >= 6", success: true}}
      - {{name: clumped, success: false}}
  actions:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d10
    result: "{SETS}"
    outcomes:
      - {{name: two_or_more, when: "result >= 2", success: true}}
      - {{name: fewer, success: false}}
  pairs:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d6
    result: "{PAIRS}"
    outcomes:
      - {{name: many, when: "result >= dice / 2 - 1", success: true}}
      - {{name: few, success: false}}
  highest:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d10
    let:
      height: "{HIGHEST}"
    result: height
    outcomes:
      - {{name: high, when: "height >= 8", success: true}}
      - {{name: set, when: "height >= 1", success: true}}
      - {{name: none, success: false}}
  best:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d10
    let:
      best: "{BEST}"
      width: floor(best / 100)
      height: best - width * 100
    result: height
    outcomes:
      - {{name: wide_and_high, when: "width >= 3 and height >= 6", success: true}}
      - {{name: set, when: "width >= 2", success: true}}
      - {{name: none, success: false}}
  every_pair:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d6
    result: "{EVERY_PAIR}"
    outcomes:
      - {{name: all_paired, when: "result >= 1", success: true}}
      - {{name: not, success: false}}
  bands:
    inputs:
      dice: {{type: integer, min: 1, max: 30}}
    roll: (dice)d6
    result: "max(count(roll, 1, 2), count(roll, 3, 4), count(roll, 5, 6)) + count(roll, 6)"
    outcomes:
      - {{name: lopsided, when: "result >= dice", success: true}}
      - {{name: even, success: false}}
"""


def outcome(check: str, faces: tuple[int, ...]) -> tuple[str, int]:
    """The rules of ``check`` restated: its outcome and result for one throw."""
    seen = Counter(faces)
    if check == "sets":
        width = max(seen[f] for f in range(1, 11))
        name = "wide" if width >= 3 else "set" if width >= 2 else "ten" if seen[10] else "none"
        return name, width
    if check == "gaps":
        narrow = min(seen[f] for f in range(1, 11))
        return ("every_face" if narrow >= 1 else "missing"), narrow
    if check == "actions":
        sets = sum(1 for f in range(1, 11) if seen[f] >= 2)
        return ("two_or_more" if sets >= 2 else "fewer"), sets
    if check == "pairs":
        pairs = sum(seen[f] // 2 for f in range(1, 7))
        return ("many" if pairs >= len(faces) // 2 - 1 else "few"), pairs
    if check == "highest":
        height = max((f for f in range(1, 11) if seen[f] >= 2), default=0)
        return ("high" if height >= 8 else "set" if height else "none"), height
    if check == "best":
        width = max(seen.values())
        height = max(f for f in range(1, 11) if seen[f] == width)
        return ("wide_and_high" if width >= 3 and height >= 6 else "set" if width >= 2 else "none"), height
    if check == "every_pair":
        least = min(seen[f] // 2 for f in range(1, 7))
        return ("all_paired" if least >= 1 else "not"), least
    if check == "distinct":
        shown = sum(1 for f in range(1, 11) if seen[f])
        return ("spread" if shown >= 6 else "clumped"), shown
    bands = max(seen[1] + seen[2], seen[3] + seen[4], seen[5] + seen[6]) + seen[6]
    return ("lopsided" if bands >= len(faces) else "even"), bands


def brute_force(check: str, dice: int, sides: int) -> tuple[dict, dict]:
    """Every throw of ``dice`` dice, each equally likely."""
    outcomes: dict = defaultdict(Fraction)
    results: dict = defaultdict(Fraction)
    p = Fraction(1, sides ** dice)
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        name, value = outcome(check, faces)
        outcomes[name] += p
        results[value] += p
    return dict(outcomes), dict(results)


def multinomial(check: str, dice: int, sides: int) -> tuple[dict, dict]:
    """Every split of ``dice`` dice among the faces (how many show each), with its chance."""
    outcomes: dict = defaultdict(Fraction)
    results: dict = defaultdict(Fraction)
    for bars in itertools.combinations(range(dice + sides - 1), sides - 1):
        split = [b - a - 1 for a, b in zip((-1, *bars), (*bars, dice + sides - 1), strict=True)]
        ways = math.factorial(dice)
        for k in split:
            ways //= math.factorial(k)
        faces = tuple(f for f, k in enumerate(split, 1) for _ in range(k))
        name, value = outcome(check, faces)
        outcomes[name] += Fraction(ways, sides ** dice)
        results[value] += Fraction(ways, sides ** dice)
    return dict(outcomes), dict(results)


def engine(check: str, dice: int) -> tuple[dict, dict]:
    odds = loads(ORE, "t.yaml").check(check).odds({"dice": dice})
    assert odds.truncated == 0
    return ({name: p for name, p in odds.outcomes.items() if p},
            {value: p for value, p in odds.result_distribution.items() if p})


SIDES = {"sets": 10, "gaps": 10, "distinct": 10, "actions": 10, "pairs": 6, "bands": 6, "highest": 10, "best": 10,
         "every_pair": 6}


@pytest.mark.parametrize("check, dice", [("sets", 1), ("sets", 3), ("sets", 4), ("gaps", 4), ("distinct", 4), ("actions", 4),
                                         ("pairs", 5), ("bands", 2), ("highest", 4), ("best", 1), ("best", 4),
                                         ("every_pair", 6),
                                         ("bands", 5)])
def test_the_largest_count_matches_every_throw(check, dice):
    assert engine(check, dice) == brute_force(check, dice, SIDES[check])


@pytest.mark.parametrize("check, dice", [("sets", 10), ("sets", 12), ("gaps", 10), ("distinct", 10),
                                         ("actions", 10), ("pairs", 24), ("bands", 24), ("highest", 10),
                                         ("best", 10), ("every_pair", 24)])
def test_the_largest_count_at_table_sizes_matches_the_multinomial(check, dice):
    """Ten and twelve d10s (refused before, at ten; the highest set and the widest set with its
    face, ``max()`` of numbers each of one count, too), 24 d6s in three bands: answered
    within the default work budget, each figure the multinomial's."""
    assert engine(check, dice) == multinomial(check, dice, SIDES[check])
