"""Keeps of compounding dice are exact where the explosion depth can't change the answer
(issue 34; roll-and-keep, ``(trait + skill)d10!!kh(trait)``): a ``dS!!`` cut at the depth is
worth at least more than any die that stopped, so it ranks above them, and what is kept of a
throw with one is a lower bound. ``2d10!!kh1 >= 15`` is exactly 291/2500.

Oracles, written apart from the engine: one compounding ``dS!!`` is worth S·Q + R, Q the
number of top faces before another (chance (1/S)^q·(S−1)/S), R uniform on 1..S−1, so

    P(X ≥ m) = (1/S)^(q+1) · (1 + S − max(r, 1))   for m = q·S + r, 0 ≤ r < S;

the highest of n is at least m with 1 − (1 − P(X ≥ m))^n, the lowest with P(X ≥ m)^n. A
sum of the highest k (``khK``, ``dlJ``) is listed over every throw of dice worth at most C ≥ t
(each value's chance from the same closed form), and a throw with a die past C has its kept
sum past t for sure: so the oracle is exact.
"""

from __future__ import annotations

import functools
from fractions import Fraction as F
from itertools import product

import pytest
from hypothesis import assume, given, settings, strategies as st

from fuzz_support import fuzz_settings
from rulesengine import dice


def at_least(s: int, m: int) -> F:
    """P(one dS!! >= m)."""
    if m <= 1:
        return F(1)
    q, r = divmod(m, s)
    return F(1, s ** (q + 1)) * (1 + s - max(r, 1))


def pmf(s: int, v: int) -> F:
    return at_least(s, v) - at_least(s, v + 1)


def top_sum_at_least(s: int, n: int, top: int, t: int) -> F:
    """P(the sum of the ``top`` highest of n dS!! >= t), exactly (see the module's text)."""
    cap = max(t, s)
    values = range(1, cap + 1)
    inside = F(0)
    for throw in product(values, repeat=n):
        if sum(sorted(throw, reverse=True)[:top]) >= t:
            p = F(1)
            for v in throw:
                p *= pmf(s, v)
            inside += p
    beyond = 1 - (1 - at_least(s, cap + 1)) ** n  # some die past the cap: the kept sum is past t
    return inside + beyond


def test_the_closed_form_of_one_compounding_die_is_its_faces_listed():
    """d10!!: 15 or more is a 10 then 5 or more (6/100); 11 is a 10 then a 1."""
    assert at_least(10, 15) == F(6, 100)
    assert pmf(10, 11) == F(1, 100) and pmf(10, 10) == 0 and pmf(10, 9) == F(1, 10)
    assert sum(pmf(6, v) for v in range(1, 200)) + at_least(6, 200) == 1


def test_the_highest_of_two_compounding_d10s_is_exact():
    odds = dice.odds("2d10!!kh1 >= 15")
    assert odds.truncated == 0
    assert odds.probability(True) == F(291, 2500) == 1 - (1 - at_least(10, 15)) ** 2


@pytest.mark.parametrize("expression, s, n, top", [
    ("3d10!!kh2", 10, 3, 2), ("4d6!!kh2", 6, 4, 2), ("4d6!!dl1", 6, 4, 3), ("3d4!!kh1", 4, 3, 1),
    ("2d6!!kh2", 6, 2, 2),
])
@pytest.mark.parametrize("t", [3, 9, 14, 23])
def test_the_highest_dice_kept_of_compounding_dice_are_exact(expression, s, n, top, t):
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == top_sum_at_least(s, n, top, t)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 8), st.integers(2, 4), st.integers(1, 30))
def test_the_lowest_of_compounding_dice_is_exact(s, n, t):
    """Keeping the lowest drops the dice the depth cut unless all of them are: exact."""
    odds = dice.odds(f"{n}d{s}!!kl1 >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == at_least(s, t) ** n


def test_each_value_below_the_cut_has_its_exact_probability():
    """2d10!!kh1: every value up to 109 is exact (the depth's cut lies on 110 or more)."""
    odds = dice.odds("2d10!!kh1")
    assert odds.cut_from == 110
    for v in (1, 9, 11, 12, 20, 55, 109):
        assert odds.probability(v) == (1 - at_least(10, v + 1)) ** 2 - (1 - at_least(10, v)) ** 2, v


def test_dice_compounding_on_a_range_keep_the_depths_answer():
    """``d6!!>=5``: a die cut at the depth is at least 55, but one that stopped may be 64, so
    which is kept is unknown: the cut mass is reported, the rest lies within it."""
    odds = dice.odds("4d6!!>=5kh2 >= 12")
    assert 0 < odds.truncated < F(1, 10 ** 3)


def test_a_roll_and_keep_check_is_exact():
    """A check keeping as many of its dice as an input says: ``pick`` of the dice language."""
    from rulesengine.ruleset import loads
    rs = loads("""
ruleset: rk
name: Roll and keep
version: "1"
source: tests
checks:
  check:
    inputs:
      trait: {type: integer, default: 2, min: 1, max: 5}
      skill: {type: integer, default: 1, min: 0, max: 5}
      tn: {type: integer, default: 15, min: 5, max: 60}
    roll: (trait + skill)d10!!kh(trait)
    result: roll
    outcomes:
      - {name: success, when: "result >= tn", success: true}
      - {name: failure, success: false}
""", "rk.yaml")
    odds = rs.check("check").odds({"trait": 2, "skill": 1, "tn": 25})
    assert odds.truncated == 0
    assert odds.outcomes["success"] == top_sum_at_least(10, 3, 2, 25)


def _min_of_two_mean(s: int) -> F:
    """E[min of two dS!!] = Σ_{m ≥ 1} P(X ≥ m)², summed by blocks of S: block q (values
    q·S … q·S + S − 1) has P(X ≥ m) = (1/S)^(q+1)·(1 + S − max(r, 1)), so its squares are
    c0 = Σ_{r=1}^{S−1} (1 + S − r)² for the first block (m from 1) and S² + c0 for each
    later one, scaled by (1/S²)^(q+1): a geometric series."""
    c0 = sum((1 + s - r) ** 2 for r in range(1, s))
    ratio = F(1, s * s)
    return c0 * ratio + (s * s + c0) * ratio ** 2 / (1 - ratio)


@pytest.mark.parametrize("s", [4, 6, 10])
def test_the_mean_of_the_highest_and_lowest_of_two_compounding_dice_is_exact(s):
    """E[max] = E[X1] + E[X2] − E[min], E[dS!!] = (S + 1)/2 · S/(S − 1)."""
    one = F(s + 1, 2) * F(s, s - 1)
    low, high = dice.odds(f"2d{s}!!kl1"), dice.odds(f"2d{s}!!kh1")
    assert low.mean_kind == high.mean_kind == "exact"
    assert low.summary.mean == _min_of_two_mean(s)
    assert high.summary.mean == 2 * one - _min_of_two_mean(s)


# ---- dice whose explosions add dice of their own (`!`), the highest kept -------------------

def sixes_at_least(n: int, k: int, s: int = 6) -> F:
    """P(n chains of dS! show k or more top faces in all): each chain shows j of them with
    (1/S)^j·(S − 1)/S, so the total is a sum of n such counts (listed to k − 1)."""
    one = [F(1, s) ** j * F(s - 1, s) for j in range(k)]
    below = [F(1)] + [F(0)] * (k - 1)  # P(total = j), j < k, for 0 chains
    for _ in range(n):
        below = [sum((below[i] * one[j - i] for i in range(j + 1)), F(0)) for j in range(k)]
    return 1 - sum(below, F(0))


@pytest.mark.parametrize("n, k", [(4, 3), (3, 1), (5, 2), (2, 3)])
def test_the_highest_kept_of_exploding_dice_are_known_once_they_are_top_faces(n, k):
    """``Nd6!khK``: a chain the depth cut holds eleven 6s, so the K highest of any throw with
    one are K 6s whatever more dice come: nothing is cut, and K·6 has the chance of K or more
    6s among all the dice thrown (4d6!kh3: 1453/23328)."""
    odds = dice.odds(f"{n}d6!kh{k}")
    assert odds.truncated == 0
    assert odds.probability(6 * k) == sixes_at_least(n, k)
    assert sum(odds.distribution.values()) == 1


def test_the_highest_die_of_two_exploding_less_another_is_exact():
    """2d6!kh1 is a 6 when any die shows one (11/36), else the higher first face: less a d6!
    it is at least 2 with (5·1 + 7·2 + 9·3 + 11·4)/216 = 5/12 (a d6! is at most m ≤ 4 with m/6)."""
    odds = dice.odds("2d6!kh1 - 1d6! >= 2")
    assert odds.truncated == 0 and odds.probability(True) == F(5, 12)


def test_with_nothing_cut_the_mean_of_the_highest_kept_is_exact():
    odds = dice.odds("4d6!kh3")
    assert odds.truncated == 0 and odds.mean_kind == "exact"
    assert odds.summary.mean == sum((v * p for v, p in odds.distribution.items()), F(0))


def kept_exploding_distribution(n: int, s: int, k: int) -> dict[int, F]:
    """``NdS!khK`` in closed form: each chain is j top faces (chance (1/S)^j) and then a last
    face of 1 to S − 1, alike and apart from j; with J top faces in all, the K highest are K
    tops where J ≥ K, else J tops and the K − J highest of the n last faces."""
    one_j = [F(1, s) ** j * F(s - 1, s) for j in range(k)]
    js = [F(1)] + [F(0)] * (k - 1)  # P(J = j) for j < k, chain by chain
    for _ in range(n):
        js = [sum((js[i] * one_j[j - i] for i in range(j + 1)), F(0)) for j in range(k)]
    out: dict[int, F] = {k * s: 1 - sum(js, F(0))}
    lasts = list(product(range(1, s), repeat=n))
    for j, pj in enumerate(js):
        for throw in lasts:
            v = j * s + sum(sorted(throw, reverse=True)[:k - j])
            out[v] = out.get(v, F(0)) + pj * F(1, (s - 1) ** n)
    return {v: p for v, p in out.items() if p}


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4), st.sampled_from([4, 6]), st.integers(1, 3))
def test_any_highest_kept_of_exploding_dice_is_its_closed_form(n, s, k):
    """``NdS!khK`` for any pool, die and number kept: every value exact, nothing cut."""
    odds = dice.odds(f"{n}d{s}!kh{k}")
    assert odds.truncated == 0
    assert odds.distribution == kept_exploding_distribution(n, s, k)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.sampled_from([4, 6, 10]), st.data())
def test_any_highest_kept_of_compounding_dice_against_a_number_is_exact(n, s, data):
    """``NdS!!khK`` (and ``dlJ``, the same ranks) against any number: the oracle's figure."""
    top = data.draw(st.integers(1, n - 1))
    t = data.draw(st.integers(1, 3 * s * top))
    assume(max(t, s) ** n <= 200_000)  # the oracle lists every throw up to max(t, S)
    keep = data.draw(st.sampled_from([f"kh{top}", f"dl{n - top}"]))
    odds = dice.odds(f"{n}d{s}!!{keep} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == top_sum_at_least(s, n, top, t)


def _order_statistic_mean(s: int, n: int, top: int) -> F:
    """E[the sum of the ``top`` highest of n dS!!] = Σ_{m ≥ 1} Σ_{i ≤ top} P(the i-th highest ≥ m),
    the i-th highest at least m when i or more dice are: Σ_{j ≥ i} C(n, j) G^j (1 − G)^(n−j),
    G = P(X ≥ m). Expanded in powers of G, each power G^k summed over m by blocks of S: in
    block q (m − 1 = q·S + r) G is (1/S)^q·g_r, so Σ_m G^k = Σ_r g_r^k / (1 − S^−k)."""
    from math import comb
    poly = [F(0)] * (n + 1)  # coefficients of Σ_i P(i-th highest ≥ m) as a polynomial in G
    for i in range(1, top + 1):
        for j in range(i, n + 1):
            for t in range(n - j + 1):  # G^j (1 − G)^(n − j) expanded
                poly[j + t] += comb(n, j) * comb(n - j, t) * (-1) ** t
    g = [at_least(s, r + 1) for r in range(s)]  # block 0: m = 1 … S
    return sum((c * sum((gr ** k for gr in g), F(0)) / (1 - F(1, s ** k)) for k, c in enumerate(poly) if k and c),
               F(0))


@pytest.mark.parametrize("text, s, n, top", [("3d10!!kh2", 10, 3, 2), ("3d6!!dl1", 6, 3, 2), ("4d4!!kh3", 4, 4, 3),
                                             ("2d10!!kh1", 10, 2, 1)])
def test_the_mean_of_all_but_one_kept_compounding_dice_is_exact(text, s, n, top):
    """All but the lowest kept: their sum less the lowest, the mean by linearity."""
    odds = dice.odds(text)
    assert odds.mean_kind == "exact"
    assert odds.summary.mean == _order_statistic_mean(s, n, top)


def test_the_mean_of_all_but_the_highest_is_the_total_less_the_highest():
    odds = dice.odds("3d6!!dh1")
    assert odds.mean_kind == "exact"
    assert odds.summary.mean == 3 * F(7, 2) * F(6, 5) - _order_statistic_mean(6, 3, 1)


# ---- keeps of dice exploding into dice of their own on a range of faces (``3d6!>=5kh2``) ----------

def pool_kept(n: int, s: int, explodes_from: int, k: int, highest: bool) -> dict[int, F]:
    """The sum of the ``k`` highest (lowest) of all the dice ``n`` chains of dS!>=T throw, the
    whole pool walked die by die: a state is (chains still to end, the k best values so far);
    a die on T or more adds a die to its chain, another ends it. A die that leaves the state
    as it was comes back to it, so the state's chances are its other ways on over 1 − that.
    (The engine reads each chain apart and then combines them: another walk.)"""
    @functools.cache
    def walk(left: int, best: tuple) -> dict[int, F]:
        if left == 0:
            return {sum(best): F(1)}
        stay, out = F(0), {}
        for f in range(1, s + 1):
            ranked = sorted(best + (f,), reverse=highest)[:k]
            nxt = tuple(ranked)
            on = left if f >= explodes_from else left - 1
            if on == left and nxt == best:
                stay += F(1, s)
                continue
            for v, p in walk(on, nxt).items():
                out[v] = out.get(v, F(0)) + F(1, s) * p
        return {v: p / (1 - stay) for v, p in out.items()}

    return walk(n, ())


@pytest.mark.parametrize("n, s, t, k, highest", [(3, 6, 5, 2, True), (2, 6, 5, 1, True), (4, 10, 8, 2, True),
                                                (3, 6, 5, 2, False), (2, 6, 6, 1, False), (3, 4, 3, 3, True)])
def test_the_dice_kept_of_dice_exploding_on_a_range_are_followed_for_ever(n, s, t, k, highest):
    """``3d6!>=5kh2``: a chain of 5s and 6s may go on for ever, but what it gives the kept
    dice stops changing (two 6s, or 6 and 5 once no 6 comes), so every value is exact."""
    keep = f"kh{k}" if highest else f"kl{k}"
    odds = dice.odds(f"{n}d{s}!>={t}{keep}")
    assert odds.truncated == 0
    assert dict(odds.distribution) == pool_kept(n, s, t, k, highest)


def test_two_sixes_among_three_chains_of_fives_and_sixes():
    """By hand: a chain shows a 6 before it ends with 1/5 (a 5 only goes on), two with 1/25;
    12 is two 6s among three chains: 1 − (4/5)³ − 3·(4/25)(4/5)² = 113/625."""
    assert dice.odds("3d6!>=5kh2 >= 12").probability(True) == F(113, 625)


@fuzz_settings(fast=8, long=200)
@given(st.integers(1, 3), st.sampled_from([4, 6, 8]), st.data())
def test_any_keep_of_dice_exploding_on_a_range_is_exact(n, s, data):
    t = data.draw(st.integers(2, s))
    k = data.draw(st.integers(1, 3))
    highest = data.draw(st.booleans())
    odds = dice.odds(f"{n}d{s}!>={t}{'kh' if highest else 'kl'}{k}")
    assert odds.truncated == 0
    assert dict(odds.distribution) == pool_kept(n, s, t, k, highest)


@pytest.mark.parametrize("text, s, n, lo, hi", [("5d10!!kh3", 10, 5, 0, 3), ("4d10!!kh2", 4 + 6, 4, 0, 2),
                                                ("6d10!!kh3", 10, 6, 0, 3), ("5d6!!kl2", 6, 5, 3, 5),
                                                ("4d6!!kh2kl1", 6, 4, 1, 2), ("8d4!!kh5", 4, 8, 0, 5)])
def test_the_mean_of_any_ranks_kept_of_compounding_dice_is_exact(text, s, n, lo, hi):
    """Roll and keep at any size: the dice ranked lo to hi − 1 are the top hi less the top lo,
    each the oracle's sum of the order statistics' tails (the lowest kept: the top hi less
    the top lo, lo = n − k)."""
    odds = dice.odds(text)
    assert odds.mean_kind == "exact"
    assert odds.summary.mean == _order_statistic_mean(s, n, hi) - (_order_statistic_mean(s, n, lo) if lo else 0)


@pytest.mark.parametrize("n, s", [(2, 6), (3, 10), (4, 4), (5, 6)])
def test_the_second_moment_of_one_kept_is_the_highests_or_lowests(n, s):
    """The kept ranks' second moment, taken at one die kept, against the variance of the
    highest (lowest) of n dS! worked out by :mod:`rulesengine.dice.extremes` (another way)."""
    from rulesengine.dice.dist import Budget
    from rulesengine.dice.kept_ranks import kept_ranks_mean, kept_ranks_square

    for keep, (lo, hi) in (("kh1", (0, 1)), ("kl1", (n - 1, n))):
        odds = dice.odds(f"{n}d{s}!!{keep}")
        mean = kept_ranks_mean(n, s, lo, hi, Budget(10 ** 9))
        square = kept_ranks_square(n, s, lo, hi, Budget(10 ** 9))
        assert (mean, square - mean * mean) == (odds.unbounded_mean, odds.unbounded_variance)


@pytest.mark.parametrize("text", ["3d3!!kh2", "4d3!!dl1", "4d2!!kh2kl1", "5d3!!kl3"])
def test_the_variance_of_any_ranks_kept_is_the_deep_enumerations(text):
    """Every throw followed to an explode depth of 80 (what it leaves out is below 3^-80):
    the variance of what it worked out is the exact variance to 20 digits."""
    deep = dice.odds(text, explode_depth=80)
    mass = sum(deep.distribution.values(), F(0))
    mean = sum((v * p for v, p in deep.distribution.items()), F(0)) / mass
    variance = sum((v * v * p for v, p in deep.distribution.items()), F(0)) / mass - mean * mean
    odds = dice.odds(text)
    assert odds.variance_kind == "exact"
    assert abs(odds.unbounded_variance - variance) < F(1, 10 ** 20)
    assert abs(odds.unbounded_mean - mean) < F(1, 10 ** 20)


@pytest.mark.parametrize("text", ["2d500!>=2kh1", "3d1000!>=500kh3"])
def test_a_keep_with_too_many_readings_to_follow_is_not_followed_at_all(text, monkeypatch):
    """Found in review: ``2d500!>=2kh1`` followed 501 readings of 500 faces each, every face
    read along a chain as long as the one that reached it, and ran for minutes where the
    depth's answer is refused at once. Its readings are counted first (the multisets of up
    to K faces, times the faces): past the bound, no chain is followed."""
    from rulesengine.dice import pool_odds
    from rulesengine.errors import LimitError

    followed = []
    real = pool_odds.followed_chains
    monkeypatch.setattr(pool_odds, "followed_chains", lambda *a, **k: followed.append(a) or real(*a, **k))
    with pytest.raises(LimitError):
        dice.odds(text)
    assert followed == []
