"""A check's result read from named rolls, each read once, has the mean the same expression
written as one roll has (found by an outside author: Savage Worlds' trait and wild dice,
`rolls: {trait: 1d8!, wild: 1d6!}`, `result: max(trait, wild) + modifier`, gave the mean "of
the mass worked out", where `roll: max(1d8!, 1d6!) + modifier` gave it exact). Each roll
read once is read in its place as its own dice expression; a roll read twice is not (it
would be taken for two independent rolls).

The oracle: E[max] = sum over v >= 1 of P(max >= v), added up here to v = 8 * 40 with the
exploding dice's chances written out, and the rest bounded (each die reaches v only by
(v - 1) // 8 explosions or more, each 1/6 at the most likely)."""

from __future__ import annotations

from fractions import Fraction as F

from rulesengine.ruleset import loads

RULESET = """\
ruleset: t
name: T
version: "1"
source: test
checks:
  trait:
    inputs:
      modifier: {type: integer, min: -4, max: 4, default: 0}
    rolls:
      trait: 1d8!
      wild: 1d6!
    let:
      best: max(trait, wild)
    result: best + modifier
    outcomes:
      - {name: success, when: "result >= 4", success: true}
      - {name: failure, success: false}
  twice:
    rolls:
      trait: 1d8!
      wild: 1d6!
    result: max(trait, wild) + trait
    outcomes:
      - {name: success, when: "result >= 4", success: true}
      - {name: failure, success: false}
"""


def exploding(n: int, v: int) -> F:
    """P(an exploding dn totals v): v = b*n + r with 0 < r < n after b explosions."""
    b, r = divmod(v, n)
    return F(0) if r == 0 else F(1, n) ** (b + 1)


def below(n: int, v: int) -> F:
    return sum((exploding(n, u) for u in range(1, v)), F(0))


def max_mean_bounds(blocks: int = 40) -> tuple[F, F]:
    """Lower and upper bounds of E[max(1d8!, 1d6!)]: the sum to v = 8 * blocks, and that plus
    a bound of the rest, 2 * 8 * sum over b >= blocks of (1/6)^b."""
    last = 8 * blocks
    low = sum((1 - below(8, v) * below(6, v) for v in range(1, last + 1)), F(0))
    rest = 16 * F(1, 6) ** blocks / (1 - F(1, 6))
    return low, low + rest


def test_the_largest_of_two_named_exploding_dice_has_an_exact_mean():
    low, high = max_mean_bounds()
    for modifier in (-2, 0, 3):
        stats = loads(RULESET).check("trait").odds({"modifier": modifier})
        mean = stats.unbounded_mean
        assert mean is not None and low + modifier <= mean <= high + modifier
    assert high - low < F(1, 10**25)


def test_a_roll_read_twice_is_not_read_as_two():
    """``max(trait, wild) + trait`` reads trait twice: no closed form is claimed for it."""
    assert loads(RULESET).check("twice").odds({}).unbounded_mean is None
