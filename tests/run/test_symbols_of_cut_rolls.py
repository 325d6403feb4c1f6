"""Symbols counted on exploding symbol dice are followed for ever where the count so far
decides (issue 34): a roll the explosion depth cut had its dice so far and more to come,
and more dice only add symbols, so ``symbols(roll, 'success') >= 2`` is decided once two
are shown. Each figure here against a closed form of the chains written apart from the
engine: a chain's chance to show at least k, solved at each face (a face that explodes and
shows none comes back to where it was: its chance is divided out). A count a chain can keep
short of k for ever (strife on skill dice, whose 12 explodes with none) read as the result
stays cut; compared in a rule it is followed as a chain (tests/dice/test_chains_followed.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from oracle import RING, SKILL, faces_text, symbols_at_least as at_least
from rulesengine import loads

def ruleset(faces: list[list[str]], explode: str, names: tuple[str, ...], n: int, k: int) -> str:
    shown = faces_text(faces)
    counted = ", ".join(f"'{s}'" for s in names)
    return f"""\
ruleset: cut-symbols
name: symbols of exploding symbol dice
version: "1"
source: tests
dice:
  die:
    faces: {shown}
checks:
  check:
    roll: ({n})d{{die}}!{explode}
    result: symbols(roll, {counted})
    outcomes:
      - {{name: enough, when: "result >= {k}", success: true}}
      - {{name: short, success: false}}
"""


@pytest.mark.parametrize("faces, explode, places, names, n, k", [
    (RING, "=6", {6}, ("success", "explosive"), 1, 2),
    (RING, "=6", {6}, ("success", "explosive"), 3, 4),
    (RING, "=6", {6}, ("strife",), 2, 3),
    (SKILL, ">=11", {11, 12}, ("success", "explosive"), 2, 3),
    (SKILL, ">=11", {11, 12}, ("opportunity",), 2, 2),  # explosions that show none of them come back
    (SKILL, ">=11", {11, 12}, ("success", "explosive", "strife"), 1, 3),
])
def test_a_count_of_symbols_reached_is_exact_whatever_the_depth(faces, explode, places, names, n, k):
    odds = loads(ruleset(faces, explode, names, n, k)).check("check").odds()
    assert odds.outcomes["enough"] == at_least(faces, places, names, n, k)
    assert odds.truncated == 0


def test_kept_symbol_dice_rolling_again_after_the_choice_are_exact():
    """Keep the ring's best dice by successes, then each kept explosive rolls again (the
    issue's system, one kind of die): with ring 2 of 3 dice, every throw listed by hand."""
    import itertools

    text = ruleset(RING, "=6", ("success",), 1, 1).replace(
        "    roll: (1)d{die}!=6\n    result: symbols(roll, 'success')\n",
        "    rolls:\n      dice: 3d{die}\n      more: (bursts)d{die}!=6\n    choose:\n      from: dice\n"
        "      pick: 2\n      values:\n        kept: symbols(chosen, 'success', 'explosive')\n"
        "        bursts: symbols(chosen, 'explosive')\n      order: [kept]\n"
        "    result: kept + symbols(more, 'success', 'explosive')\n").replace("result >= 1", "result >= 3")
    odds = loads(text).check("check").odds()
    succ = [sum(s in ("success", "explosive") for s in f) for f in RING]
    expected = Fraction(0)
    for throw in itertools.product(range(6), repeat=3):
        # the policy's pick: the two with the most successes; among equal, the higher faces
        kept = sorted(throw, key=lambda f: (succ[f], f), reverse=True)[:2]
        have = sum(succ[f] for f in kept)
        bursts = sum(f == 5 for f in kept)
        expected += Fraction(1, 216) * at_least(RING, {6}, ("success", "explosive"), bursts, 3 - have)
    assert odds.outcomes["enough"] == expected and odds.truncated == 0
