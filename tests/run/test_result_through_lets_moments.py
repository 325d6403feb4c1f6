"""A result read through the lets worked out from its rolls (`successes: count(roll, 4, 6)`,
`result: successes`) has the closed-form mean and variance it has written out in `result:`
(an outside author's Burning Wheel got "of the mass worked out" for the one, exact for the
other). The lets are read in their places, the whole expression at once: two counts of one
roll read through two lets stay one roll's, so no variance is taken for independent parts.

The oracle, written apart: one open-ended d6 (a 6 rolls again) counted 4+ is j sixes, j
geometric with P(j = k) = (1/6)^k (5/6) (mean 1/5, variance 6/25), plus the last die's 4 or
5, a Bernoulli(2/5) independent of j: mean 3/5, variance 6/25 + 6/25 = 12/25 a die; its
sixes are j, so successes + sixes = 2j + B: mean 4/5, variance 4 (6/25) + 6/25 = 6/5."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesengine.ruleset import loads

HEAD = 'ruleset: t\nname: T\nversion: "1"\nsource: test\nchecks:\n  c:\n' \
       '    inputs:\n      dice: {type: integer, min: 1, max: 6}\n    roll: (dice)d6!\n'
TAIL = "    outcomes:\n      - {name: any, success: true}\n"


def stats(body: str, dice: int) -> dict:
    return loads(HEAD + body + TAIL).check("c").odds({"dice": dice}).to_dict()["stats"]["result"]


@pytest.mark.parametrize("dice", [1, 3, 5])
def test_a_result_through_one_let_has_the_closed_form_it_has_written_out(dice):
    through = stats("    let:\n      successes: count(roll, 4, 6)\n    result: successes\n", dice)
    written = stats("    result: count(roll, 4, 6)\n", dice)
    assert (through["mean_kind"], through["variance_kind"]) == ("exact", "exact")
    assert Fraction(through["mean_exact"]) == dice * Fraction(3, 5)
    assert Fraction(through["variance_exact"]) == dice * Fraction(12, 25)
    assert through == written


def test_a_chain_of_lets_is_read_whole():
    s = stats("    let:\n      successes: count(roll, 4, 6)\n      more: successes + 1\n    result: 2 * more\n", 3)
    assert Fraction(s["mean_exact"]) == 2 * (3 * Fraction(3, 5) + 1) and s["mean_kind"] == "exact"
    assert Fraction(s["variance_exact"]) == 4 * 3 * Fraction(12, 25) and s["variance_kind"] == "exact"


@pytest.mark.parametrize("result", ["successes + sixes", "count(roll, 4, 6) + count(roll, 6)"])
def test_two_counts_of_one_roll_are_never_taken_for_independent(result):
    s = stats("    let:\n      successes: count(roll, 4, 6)\n      sixes: count(roll, 6)\n"
              f"    result: {result}\n", 3)
    assert Fraction(s["mean_exact"]) == 3 * Fraction(4, 5) and s["mean_kind"] == "exact"  # a mean adds up
    # its variance is 3 * 6/5 or has no closed form here: never the independent parts' 3 * 18/25
    assert s["variance_kind"] == "of_mass_worked_out" or Fraction(s["variance_exact"]) == 3 * Fraction(6, 5)


def test_a_long_chain_of_lets_is_read_otherwise_not_refused():
    """Three hundred lets each one more than the last nest past the bound of the reading
    whole: the mean is then of the mass worked out, and the odds are as ever."""
    lets = "".join(f"      v{i}: v{i - 1} + 1\n" for i in range(1, 300))
    s = stats("    let:\n      v0: count(roll, 4, 6)\n" + lets + "    result: v299\n", 2)
    assert s["mean_kind"] == "of_mass_worked_out"
